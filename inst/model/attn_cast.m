## -*- texinfo -*-
## @deftypefn {} {@var{m} =} attn_cast (@var{m}, @var{class})
## Cast an attention model to single or double.  A model whose
## arrays are all single, or all double.
##
## @var{class} is @qcode{"single"} or @qcode{"double"}.  Every array of the
## model (@code{model_schema}: embeddings, position tables, blocks, FFNs,
## norms, heads) becomes of that class; the numbers of the config that
## the blocks hold (@code{heads}, @code{kv_heads}, @code{rope_base}) stay
## double.  A model whose arrays are single runs in single throughout: the
## kernels call BLAS's single routines (@code{sgemm}), traces, gradients,
## the optimisers' moments (@code{attn_adam}, @code{attn_sgd}) and
## decoding are single, @code{attn_save} writes F32 and @code{attn_load}
## reads a model of F32 arrays as single.  Single takes half the memory
## of double and runs its products faster; its results agree with
## double's to about @code{eps ("single")} (1.2e-7) times the depth of the
## sums, which suits using and training a model but not the
## package's comparisons to 1e-12.  Double stays the default: a new model
## (@code{attn_model}, @code{attn_family}) is double.
## @code{attn_import (folder, "class", "single")} reads a checkpoint into a
## single model directly.
##
## @example
## @group
## m = attn_cast (attn_toy ("river"), "single");
## class (m.decoder(1).self.W_Q)
##   @result{} ans = single
## @end group
## @end example
## @seealso{attn_model, attn_import, attn_save}
## @end deftypefn

function m = attn_cast (m, class)
  if (nargin != 2)
    print_usage ();
  endif
  if (! ischar (class) || ! any (strcmp (class, {"single", "double"})))
    error ("attention:option", "attn_cast: CLASS must be \"single\" or \"double\", got %s",
           disp_arg (class));
  endif
  c = check_model (m, "attn_cast");
  parts = model_schema (c);
  parts = parts(! ismember ({parts.init}, {"heads", "kv_heads", "rope_base"}));
  for i = 1:numel (parts)
    m = subsasgn (m, parts(i).subs, cast (subsref (m, parts(i).subs), class));
  endfor
endfunction

%!test
%! m = attn_toy ("river");
%! s = attn_cast (m, "single");
%! assert (class (s.decoder(1).self.W_Q), "single");
%! assert (class (s.src_embed), "single");
%! assert (class (s.decoder(1).self.heads), "double");
%! assert (double (s.tgt_embed), double (single (m.tgt_embed)));
%! d = attn_cast (s, "double");
%! assert (class (d.W_vocab), "double");
%! assert (d.W_vocab, double (single (m.W_vocab)));
%!error <CLASS must be> attn_cast (attn_toy ("river"), "int8")
%!error <attn_cast: M must be a model struct> attn_cast (1, "single")
