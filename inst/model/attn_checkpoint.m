## -*- texinfo -*-
## @deftypefn  {} {@var{ck} =} attn_checkpoint (@var{folder})
## @deftypefnx {} {@var{ck} =} attn_checkpoint (@var{file})
## @deftypefnx {} {@var{X} =} attn_checkpoint (@var{ck}, @var{name})
## @deftypefnx {} {@var{X} =} attn_checkpoint (@var{ck}, @var{name}, "single")
## @deftypefnx {} {@var{found} =} attn_checkpoint (@var{ck}, @var{name}, "name")
## Open a checkpoint of another tool for attention models.  Read the
## tensors of a Hugging Face style checkpoint, one at a time.
##
## @code{attn_checkpoint (@var{folder})} opens a checkpoint folder as
## published: @file{config.json} and @file{model.safetensors}, or (when
## there is none) the shards that @file{model.safetensors.index.json}
## names.
## @code{attn_checkpoint (@var{file})} opens one safetensors file (a model
## file of @code{attn_save} too).  Only the files' headers are read; the
## result @var{ck} is a struct of data:
##
## @table @code
## @item folder
## the folder (of @var{file})
## @item files
## the safetensors files (a column cell), shards in the order of their names
## @item config
## @file{config.json} as @code{jsondecode} reads it (keys as written;
## @code{null} is @code{[]}), an empty struct when there is none; the text is
## data, checked as the package checks all JSON and never evaluated
## @item metadata
## the @code{__metadata__} of the (first) file, e.g.@: @code{format:
## "pt"}
## @item names
## the tensors' names, a column cell, in file order (shard by shard, in
## the order of their bytes)
## @item shapes
## each tensor's shape as the file writes it (a row; @code{[]} for a
## scalar)
## @item dtypes
## each tensor's dtype: @qcode{"F64"}, @qcode{"F32"}, @qcode{"F16"},
## @qcode{"BF16"}, @qcode{"I64"}, @qcode{"I32"}, @qcode{"I16"},
## @qcode{"I8"}, @qcode{"U64"}, @qcode{"U32"}, @qcode{"U16"}, @qcode{"U8"}
## or @qcode{"BOOL"}
## @item shard
## @itemx offsets
## where each tensor's bytes are: the index into @code{files} and the
## first and one-past-last byte in that file
## @end table
##
## @code{attn_checkpoint (@var{ck}, @var{name})} reads the tensor
## @var{name} (only its bytes, after checking it fits in memory, as
## @code{attn_model} does) and returns it as a double array in Octave's
## layout: the file's row-major @var{r}×@var{c} tensor is the
## @var{r}×@var{c} matrix, shape @code{[n]} is a 1×@var{n} row and
## @code{[]} a scalar.  Floating dtypes are converted exactly (F16
## subnormals, @code{Inf} and @code{NaN} included; BF16 is the upper half
## of an F32), integers exactly up to 2^53, BOOL as 0 and 1.  Stored
## buffers that are no parameters (a causal mask, @code{position_ids}) are
## read the same way.  With @qcode{"single"} the tensor is a single array:
## an F32 tensor read as it is stored (half the memory of its double),
## any other dtype rounded to single (@code{attn_import}'s
## @qcode{"class"} @qcode{"single"}).
##
## A @var{name} that is not in the checkpoint is also looked for as an
## upload and a re-save of the same model may name it: with the prefix
## @code{transformer.}, @code{model.} or @code{bert.} removed or added,
## and with a last part @code{weight}/@code{bias} as the older
## @code{gamma}/@code{beta} of a LayerNorm (and back).  When none of
## these names is there, or more than one is, it is an
## @code{attention:checkpoint} error naming @var{name} and the folder.
## With @qcode{"name"}, the name found is returned instead of the tensor
## (@qcode{""} when there is none), and nothing is read.
##
## The files are read as hostile data: a header longer than its file,
## tensors that overlap, leave gaps or reach beyond the file, a shape whose
## numbers do not fill its bytes, an unknown dtype, a tensor in two shards,
## an index naming a shard that is missing, holds other tensors than it
## says, or is no plain file name of the folder (@file{../x.safetensors}
## is refused) are each an @code{attention:file} error.  PyTorch's pickle
## files (@file{pytorch_model.bin}) are not read: loading them can run
## code.  See @file{doc/FILE-FORMAT.md}.
##
## @example
## @group
## f = [tempname() ".safetensors"];
## attn_save (attn_toy ("river"), f);
## ck = attn_checkpoint (f);
## ck.names(1:2)'
##   @result{} ans =
##      @{
##        [1,1] = src_embed
##        [1,2] = src_pos
##      @}
## size (attn_checkpoint (ck, "src_embed"))
##   @result{} ans =
##         5   3
## delete (f);
## @end group
## @end example
## @seealso{attn_load, attn_tokenizer}
## @end deftypefn

function out = attn_checkpoint (source, name, what)
  if (nargin < 1 || nargin > 3)
    print_usage ();
  endif
  if (nargin == 1)
    out = open_checkpoint (source);
    return;
  endif
  if (! isstruct (source) || ! isscalar (source)
      || ! all (isfield (source, {"folder", "files", "names", "shapes", "dtypes", "shard", "offsets"})))
    error ("attention:type", "attn_checkpoint: CK must be what attn_checkpoint (FOLDER) returned, got %s",
           disp_arg (source));
  endif
  if (! ischar (name) || rows (name) != 1)
    error ("attention:type", "attn_checkpoint: NAME must be a tensor's name (text), got %s", disp_arg (name));
  endif
  if (nargin == 3 && ! (ischar (what) && any (strcmp (what, {"name", "single"}))))
    error ("attention:option", "attn_checkpoint: the third argument may only be \"name\" or \"single\", got %s",
           disp_arg (what));
  endif
  names_only = nargin == 3 && strcmp (what, "name");
  k = find_name (source, name, names_only);
  if (names_only)
    out = "";
    if (k > 0)
      out = source.names{k};
    endif
  else
    out = read_tensor (source, k, nargin == 3);
  endif
endfunction

## the checkpoint at source (a folder or a file): headers only
function ck = open_checkpoint (source)
  if (! ischar (source) || rows (source) != 1)
    error ("attention:type", "attn_checkpoint: FOLDER must be a folder or file name (text), got %s",
           disp_arg (source));
  endif
  where = sprintf ("attn_checkpoint: \"%s\"", strrep (source, "\0", "\\0"));
  config = struct ();
  weight_map = [];
  if (any (source == "\0") || ! isfolder (source))
    folder = fileparts (source);
    files = {source};
  else
    folder = source;
    index = fullfile (folder, "model.safetensors.index.json");
    if (present (fullfile (folder, "model.safetensors")))
      files = {fullfile(folder, "model.safetensors")};
    elseif (present (index))
      [files, weight_map] = index_shards (index, folder, where);
    else
      pickle = "";
      if (present (fullfile (folder, "pytorch_model.bin")))
        pickle = ["; its pytorch_model.bin is a pickle, which can run code when read, ", ...
                  "so it is not read (its publisher's safetensors files can be)"];
      endif
      error ("attention:file", "%s has neither model.safetensors nor model.safetensors.index.json%s",
             where, pickle);
    endif
    if (present (fullfile (folder, "config.json")))
      config = read_json (fullfile (folder, "config.json"), where);
      if (! isstruct (config) || ! isscalar (config))
        error ("attention:file", "%s: config.json must hold a JSON object", where);
      endif
    endif
  endif
  dtypes = safetensors_data ();
  parts = cell (numel (files), 1);
  metadata = struct ();
  for s = numel (files):-1:1
    [fid, bytes] = safetensors_open (files{s}, "attn_checkpoint");
    unwind_protect
      [meta, info, start] = safetensors_header (fid, bytes, sprintf ("attn_checkpoint: \"%s\"", files{s}),
                                                dtypes);
    unwind_protect_cleanup
      fclose (fid);
    end_unwind_protect
    if (s == 1)
      metadata = meta;
    endif
    n = numel (info);
    parts{s} = [reshape({info.name}, n, 1), reshape({info.dims}, n, 1), reshape({info.dtype}, n, 1), ...
                num2cell(repmat (s, n, 1)), num2cell(start + reshape ([info.offsets], 2, n)', 2)];
  endfor
  parts = vertcat (parts{:}, cell (0, 5));
  names = parts(:,1);
  [~, first] = unique (names, "first");
  twice = setdiff (1:numel (names), first);
  if (! isempty (twice))
    other = find (strcmp (names, names{twice(1)}), 1);
    error ("attention:file", "%s: the tensor \"%s\" is in both \"%s\" and \"%s\"", where,
           names{twice(1)}, files{parts{other,4}}, files{parts{twice(1),4}});
  endif
  if (iscell (weight_map))
    check_map (weight_map, names, files([parts{:,4}]), where);
  endif
  ck = struct ("folder", folder, "files", {files(:)}, "config", config, "metadata", metadata,
               "names", {names}, "shapes", {parts(:,2)}, "dtypes", {parts(:,3)},
               "shard", vertcat (parts{:,4}, zeros (0, 1)), "offsets", vertcat (parts{:,5}, zeros (0, 2)));
endfunction

## the shard files of an index (sorted), and its weight_map (N×2 cell of
## tensor names and shard file names)
function [files, weight_map] = index_shards (index, folder, where)
  v = read_json (index, where);
  if (! isstruct (v) || ! isscalar (v) || ! isfield (v, "weight_map") || ! isstruct (v.weight_map)
      || ! isscalar (v.weight_map)
      || ! all (cellfun (@(x) ischar (x) && rows (x) == 1, struct2cell (v.weight_map))))
    error ("attention:file",
           "%s: model.safetensors.index.json must be an object whose \"weight_map\" maps tensor names to file names",
           where);
  endif
  weight_map = [fieldnames(v.weight_map), struct2cell(v.weight_map)];
  shards = unique (weight_map(:,2));
  bad = find (cellfun (@(f) isempty (f) || any (f == "/" | f == "\\") || any (strcmp (f, {".", ".."})),
                       shards), 1);
  if (! isempty (bad))
    error ("attention:file",
           "%s: model.safetensors.index.json names the shard \"%s\", which is no file name in the folder (no folder part may be given)",
           where, shards{bad});
  endif
  files = fullfile (folder, shards);
  missing = find (! cellfun (@present, files), 1);
  if (! isempty (missing))
    error ("attention:file", "%s: model.safetensors.index.json names the shard \"%s\", which is not in the folder",
           where, shards{missing});
  endif
  weight_map(:,2) = fullfile (folder, weight_map(:,2));
endfunction

## error unless weight_map puts each tensor (names) in the file it is in (in)
function check_map (weight_map, names, in, where)
  [listed, at] = ismember (names, weight_map(:,1));
  if (! all (listed))
    k = find (! listed, 1);
    error ("attention:file", "%s: \"%s\" holds the tensor \"%s\", which model.safetensors.index.json does not list",
           where, in{k}, names{k});
  endif
  wrong = find (! strcmp (weight_map(at,2), in(:)), 1);
  if (! isempty (wrong))
    error ("attention:file", "%s: model.safetensors.index.json puts the tensor \"%s\" in \"%s\"; it is in \"%s\"",
           where, names{wrong}, weight_map{at(wrong),2}, in{wrong});
  endif
  gone = setdiff (weight_map(:,1), names);
  if (! isempty (gone))
    k = find (strcmp (weight_map(:,1), gone{1}), 1);
    error ("attention:file", "%s: model.safetensors.index.json puts the tensor \"%s\" in \"%s\", which has no such tensor",
           where, gone{1}, weight_map{k,2});
  endif
endfunction

## true if the file f is there, whatever it is (safetensors_open refuses
## a folder, a device or a pipe by name)
function yes = present (f)
  [~, err] = stat (f);
  yes = err == 0;
endfunction

## a JSON file of the folder, decoded strictly (file_json), at most as
## long as a safetensors header may be
function v = read_json (file, where)
  [fid, bytes] = safetensors_open (file, "attn_checkpoint");
  unwind_protect
    if (bytes > safetensors_header ())
      error ("attention:file", "%s: %s has %d bytes; a JSON file of a checkpoint is read up to %d",
             where, file, bytes, safetensors_header ());
    endif
    text = fread (fid, Inf, "uint8=>char")';
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
  [~, base, ext] = fileparts (file);
  v = file_json ("decode_other", text, [base ext], where);
endfunction

## the index of the tensor name (exact, else its other spellings); 0 when
## there is none and quiet, else an attention:checkpoint error
function k = find_name (ck, name, quiet)
  k = find (strcmp (ck.names, name), 1);
  if (! isempty (k))
    return;
  endif
  prefixes = {"transformer.", "model.", "bert."};
  forms = unique ({name, regexprep(name, '(^|\.)weight$', '$1gamma'), regexprep(name, '(^|\.)bias$', '$1beta'), ...
                   regexprep(name, '(^|\.)gamma$', '$1weight'), regexprep(name, '(^|\.)beta$', '$1bias')})(:)';
  bases = forms;
  for p = prefixes
    has = strncmp (forms, p{1}, numel (p{1}));
    bases = [bases, cellfun(@(f) f(numel (p{1})+1:end), forms(has), "UniformOutput", false)(:)'];
  endfor
  tries = bases;
  for p = prefixes
    tries = [tries, strcat(p{1}, bases)];
  endfor
  hit = ismember (ck.names, tries);
  hits = find (hit);
  if (isscalar (hits))
    k = hits;
  elseif (quiet && isempty (hits))
    k = 0;
  elseif (isempty (hits))
    error ("attention:checkpoint",
           "attn_checkpoint: the checkpoint \"%s\" has no tensor \"%s\", nor one of its other names (prefix %s removed or added; gamma, beta for weight, bias)",
           ck.folder, name, strjoin (prefixes, ", "));
  else
    error ("attention:checkpoint",
           "attn_checkpoint: the checkpoint \"%s\" has no tensor \"%s\", and several of its other names: %s",
           ck.folder, name, strjoin (strcat ('"', ck.names(hits)', '"'), ", "));
  endif
endfunction

## tensor k of ck read from its file, as double (or as single) in
## Octave's layout
function X = read_tensor (ck, k, as_single)
  if (! (isnumeric (ck.shard) && numel (ck.shard) == numel (ck.names) && iscell (ck.files)
         && any (ck.shard(k) == 1:numel (ck.files)) && isequal (size (ck.offsets), [numel(ck.names), 2])))
    error ("attention:type", "attn_checkpoint: CK is not what attn_checkpoint (FOLDER) returned (it was changed)");
  endif
  file = ck.files{ck.shard(k)};
  where = sprintf ("attn_checkpoint: \"%s\"", file);
  dims = ck.shapes{k};
  shape = [ones(1, 2 - min (numel (dims), 2)), dims];
  dtypes = safetensors_data ();
  size_of = dtypes{strcmp (dtypes(:,1), ck.dtypes{k}), 2};
  span = ck.offsets(k,:);
  if (isempty (size_of) || diff (span) != size_of * prod (dims))
    error ("attention:file", "%s: CK's entry of \"%s\" is not what attn_checkpoint read (it was changed)",
           where, ck.names{k});
  endif
  [fid, bytes] = safetensors_open (file, "attn_checkpoint");
  unwind_protect
    if (span(2) > bytes)
      error ("attention:file", "%s is shorter than when it was opened: \"%s\" ends at byte %.0f, the file has %.0f",
             where, ck.names{k}, span(2), bytes);
    endif
    info = struct ("name", ck.names{k}, "shape", shape, "offsets", [0, diff(span)], "dtype", ck.dtypes{k});
    X = safetensors_data (fid, info, span(1), where, as_single);
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
  X = X{1};
  if (as_single)                       # F32 is single already
    X = single (X);
  endif
endfunction

%!test
%! ## a model file of attn_save opens as a checkpoint: every array, exactly
%! m = attn_toy ("river");
%! f = [tempname() ".safetensors"];
%! unwind_protect
%!   attn_save (m, f);
%!   ck = attn_checkpoint (f);
%!   assert (ck.metadata.format, "attention-model 1");
%!   assert (ck.config, struct ());
%!   assert (all (strcmp (ck.dtypes, "F64")));
%!   assert (attn_checkpoint (ck, "src_embed"), m.src_embed);
%!   assert (attn_checkpoint (ck, "b_vocab"), m.b_vocab);
%!   assert (attn_checkpoint (ck, "encoder.1.self.W_Q"), m.encoder(1).self.W_Q);
%!   assert (attn_checkpoint (ck, "src_pos", "name"), "src_pos");
%!   assert (attn_checkpoint (ck, "nothing", "name"), "");
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect

%!test
%! ## a file of one 2-D tensor
%! f = [tempname() ".safetensors"];
%! header = '{"w":{"dtype":"F64","shape":[2,3],"data_offsets":[0,48]}}       ';
%! fid = fopen (f, "w");
%! fwrite (fid, numel (header), "uint64", 0, "ieee-le");
%! fwrite (fid, header);
%! fwrite (fid, 1:6, "double", 0, "ieee-le");
%! fclose (fid);
%! unwind_protect
%!   assert (attn_checkpoint (attn_checkpoint (f), "w"), [1 2 3; 4 5 6]);
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect

%!error <Invalid call> attn_checkpoint ()
%!error id=attention:type attn_checkpoint (3)
%!error id=attention:type attn_checkpoint (struct ("a", 1), "x")
%!error <cannot be opened> attn_checkpoint (tempname ())
%!error <not a regular file> attn_checkpoint ("/dev/zero")
%!error <has neither model.safetensors nor model.safetensors.index.json> attn_checkpoint (tempdir ())
