## [meta, info, start] = safetensors_header (fid, bytes, where, dtypes): the
## header of the safetensors file open as fid (bytes long), checked against
## the file before any array is allocated.
##
## dtypes: the dtypes read, a K×2 cell of names and bytes per number
## (safetensors_data () gives every one it converts); without it, {"F64", 8}.
## meta: the "__metadata__" object (a struct of text values; keys as
## written).  info: struct array, one element per array in data order, with
## fields name, shape (the size it will have in Octave: [] gives 1×1, [n]
## gives 1×n), offsets (1×2, bytes from start), dtype and dims (the shape
## as the file writes it, a row).  start: the first data byte's offset in
## the file.
##
## Checked: the length field (at most 100,000,000 bytes, within the file), the JSON
## (see file_json), every entry's fields (a dtype of dtypes, shape and
## data_offsets of non-negative integers), that each entry's bytes are its
## shape's, and that the entries fill the data bytes exactly: no overlap, no
## gap, nothing beyond the file or after the last array.  Each refusal is
## an attention:file error "WHERE: ...".
##
## limit = safetensors_header (): the most bytes a header may have,
## 100,000,000: the limit of the safetensors format's reference
## implementation (MAX_HEADER_SIZE of huggingface/safetensors), room for
## vocabularies of millions of words.  The reader refuses longer headers
## before reading them; safetensors_write refuses to write one.
function [meta, info, start] = safetensors_header (fid, bytes, where, dtypes = {"F64", 8})
  limit = 1e8;
  if (nargin == 0)
    meta = limit;
    return;
  endif
  if (bytes < 10)
    error ("attention:file", "%s is not a safetensors file: it holds only %d bytes", where, bytes);
  endif
  head = fread (fid, 8, "uint8=>double")';
  N = sum (head .* 256 .^ (0:7));
  if (N > bytes - 8 || N > limit)
    error ("attention:file",
           "%s is not a safetensors file, or is cut short: its first 8 bytes declare a header of %.0f bytes, the file holds %d bytes after them (and a header may have at most %d)",
           where, N, bytes - 8, limit);
  endif
  header = fread (fid, N, "uint8=>char")';
  if (numel (header) != N)
    error ("attention:file", "%s: the header could not be read (the file changed?)", where);
  endif
  if (isempty (header) || header(1) != "{")
    error ("attention:file", "%s: the header must be a JSON object, starting with '{'", where);
  endif
  h = file_json ("decode", header(1:find (header != " ", 1, "last")), "the header", where);
  start = 8 + N;
  meta = struct ();
  names = fieldnames (h);
  at = strcmp (names, "__metadata__");
  if (any (at))
    meta = h.("__metadata__");
    if (! isstruct (meta) || ! isscalar (meta)
        || ! all (structfun (@(v) ischar (v) && rows (v) <= 1, meta)))
      error ("attention:file", "%s: the header's __metadata__ must map names to text", where);
    endif
    names = names(! at);
  endif
  if (numel (names) > 16384)
    error ("attention:file", "%s declares %d arrays; at most 16384 are read", where, numel (names));
  endif
  x = struct2cell (h);
  info = entries (x(! at), names, where, dtypes);
  info = layout (info, bytes - start, where);
endfunction

## the entries of the header h named names (every one checked at once):
## name, shape as Octave will have it, offsets, dtype, shape as written
function info = entries (x, names, where, dtypes)
  n = numel (names);
  fields = {"data_offsets", "dtype", "shape"};
  if (n == 0)
    info = struct ("name", {}, "shape", {}, "offsets", {}, "dtype", {}, "dims", {});
    return;
  endif
  ok = cellfun ("isclass", x, "struct") & cellfun ("numel", x) == 1;
  if (all (ok))
    try
      x = [x{:}];                           # one struct array if all have the same fields
    catch
    end_try_catch
  endif
  if (! isstruct (x) || ! isequal (sort (fieldnames (x)), fields'))
    for i = 1:n                             # which entry differs
      ok(i) = ok(i) && isequal (sort (fieldnames (x{i})), fields');
    endfor
  endif
  refuse (ok, names, where, "must have exactly the fields dtype, shape and data_offsets");
  dtype = {x.dtype};
  text = cellfun ("isclass", dtype, "char");
  kind = zeros (size (dtype));
  [~, kind(text)] = ismember (dtype(text), dtypes(:,1));
  bad = find (kind == 0, 1);
  if (! isempty (bad))
    got = "that is no text";
    if (text(bad))
      got = ["\"" dtype{bad} "\""];
    endif
    error ("attention:file", "%s: array \"%s\" has the dtype %s; only %s arrays are read",
           where, names{bad}, got, strjoin (dtypes(:,1)', ", "));
  endif
  shape = {x.shape};
  offsets = {x.data_offsets};
  ok = counts (shape, -1);
  refuse (ok, names, where, "has a shape that is no list of at most 8 non-negative integers");
  ok = counts (offsets, 2);
  refuse (ok, names, where, "has data_offsets that are no two non-negative integers");
  offsets = [offsets{:}]';
  refuse ((offsets(:,1) <= offsets(:,2))', names, where, "has data_offsets [begin, end] with begin > end");
  dims = cellfun ("numel", shape);
  full = ones (n, max ([2, dims]));         # each shape, padded in front with ones
  ## (repelem of a scalar gives a row: one tensor alone is a 1×1 case)
  full(sub2ind (size (full), repelem ((1:n)', dims(:))(:), ...
                (columns (full) - repelem (dims(:), dims(:))(:) + cumcount (dims)))) = vertcat (shape{:});
  need = [dtypes{kind,2}]' .* prod (full, 2);
  bad = find (need != diff (offsets, 1, 2), 1);
  if (! isempty (bad))
    error ("attention:file", "%s: array \"%s\": its shape [%s] needs %.0f bytes, its data_offsets give %.0f",
           where, names{bad}, strjoin (arrayfun (@(k) sprintf ("%.0f", k), shape{bad}(:)', "UniformOutput", false), ", "),
           need(bad), diff (offsets(bad,:)));
  endif
  octave = cell (n, 1);
  for i = find (dims(:)' != 2)              # [] -> 1×1, [n] -> 1×n; others as they are
    octave{i} = full(i, max (1, end - max (2, dims(i)) + 1):end);
  endfor
  two = dims == 2;
  octave(two) = num2cell (full(two, end-1:end), 2);
  info = struct ("name", names, "shape", octave, "offsets", num2cell (offsets, 2),
                 "dtype", dtype(:), "dims", cellfun (@(s) s(:)', shape(:), "UniformOutput", false));
endfunction

## 1, 2, ... within each run: for dims [2 1 3], [1 2 1 1 2 3]
function c = cumcount (dims)
  c = (1:sum (dims))' - repelem (cumsum ([0; dims(1:end-1)(:)]), dims(:))(:);
endfunction

## lists of non-negative integers (columns from jsondecode; [] is empty),
## of length len (-1: 0 to 8)
function ok = counts (lists, len)
  k = cellfun ("numel", lists);
  ok = cellfun ("isclass", lists, "double") & cellfun ("isreal", lists) ...
       & cellfun ("size", lists, 2) <= 1 & cellfun ("ndims", lists) == 2;
  if (len < 0)
    ok &= k <= 8;
  else
    ok &= k == len;
  endif
  if (all (ok))
    v = vertcat (lists{:});
    good = v >= 0 & v == fix (v) & v <= flintmax ();
    ok(repelem (1:numel (k), k)(! good)) = false;
  endif
endfunction

function refuse (ok, names, where, what)
  bad = find (! ok, 1);
  if (! isempty (bad))
    error ("attention:file", "%s: array \"%s\" %s", where, names{bad}, what);
  endif
endfunction

## info sorted by offset; error unless it covers 0..data bytes exactly
function info = layout (info, data, where)
  if (isempty (info))
    first = zeros (0, 2);
  else
    first = vertcat (info.offsets);
  endif
  [first, order] = sortrows (first);
  info = info(order);
  ends = [0; first(:,2)];
  i = find (first(:,1) != ends(1:end-1), 1);
  if (! isempty (i) && first(i,1) < ends(i))
    error ("attention:file", "%s: arrays \"%s\" and \"%s\" overlap (bytes %.0f to %.0f)",
           where, info(i-1).name, info(i).name, first(i,1), ends(i));
  elseif (! isempty (i))
    error ("attention:file", "%s: data bytes %.0f to %.0f belong to no array",
           where, ends(i), first(i,1));
  endif
  if (ends(end) > data)
    error ("attention:file",
           "%s is cut short: array \"%s\" ends at data byte %.0f, the file holds %.0f data bytes",
           where, info(end).name, ends(end), data);
  elseif (ends(end) < data)
    error ("attention:file", "%s: %.0f bytes after the last array belong to no array",
           where, data - ends(end));
  endif
endfunction
