## -*- texinfo -*-
## @deftypefn {} {@var{m} =} attn_sgd (@var{m}, @var{G}, @var{lr})
## One gradient-descent step on an attention model. One step of gradient
## descent: every learned array of @var{m} moves by -@var{lr} times its
## gradient in @var{G} (the layout @code{attn_loss} returns). Arrays without
## a gradient (config, vocabularies, heads) are
## left alone.  The step is one fused pass (@code{attn_step}).
##
## @example
## @group
## m = attn_toy ("river");
## [before, G] = attn_loss (m, "the river bank", "la rive");
## after = attn_loss (attn_sgd (m, G, 0.1), "the river bank", "la rive");
## after < before
##   @result{} ans = 1
## @end group
## @end example
## @seealso{attn_adam, attn_clip, attn_loss, attn_train, attn_step}
## @end deftypefn

function m = attn_sgd (m, G, lr)
  if (nargin != 3)
    print_usage ();
  endif
  if (! isnumeric (lr) || ! isscalar (lr) || ! isreal (lr) || ! isfinite (lr))
    error ("attention:type", "attn_sgd: LR must be a real finite scalar, got %s", disp_arg (lr));
  endif
  check_model (m, "attn_sgd", G);
  m = attn_step (m, G, lr);
endfunction

%!test
%! m = attn_toy ("blackcat");
%! [~, G] = attn_loss (m, "the black cat", "le chat noir");
%! m2 = attn_sgd (m, G, 0.5);
%! assert (m2.decoder.cross.W_Q, m.decoder.cross.W_Q - 0.5 * G.decoder.cross.W_Q);
%! assert (m2.tgt_embed, m.tgt_embed - 0.5 * G.tgt_embed);
%! assert (m2.config, m.config);

%!error id=attention:type attn_sgd (attn_toy ("blackcat"), struct (), "fast")
%!error <LR must be a real finite scalar, got Inf> attn_sgd (attn_toy ("blackcat"), struct (), Inf)
%!error id=attention:model attn_sgd (struct (), struct (), 1)
