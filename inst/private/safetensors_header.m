## [meta, info, start] = safetensors_header (fid, bytes, where): the header
## of the safetensors file open as fid (bytes long), checked against the
## file before any array is allocated.
##
## meta: the "__metadata__" object (a struct of text values; keys as
## written).  info: struct array, one element per array in data order, with
## fields name, shape (the size it will have in Octave: [] gives 1×1, [n]
## gives 1×n) and offsets (1×2, bytes from start).  start: the first data
## byte's offset in the file.
##
## Checked: the length field (at most 4 MiB, within the file), the JSON
## (see file_json_decode), every entry's fields (dtype "F64", shape and
## data_offsets of non-negative integers), that each entry's bytes are its
## shape's, and that the entries fill the data bytes exactly: no overlap, no
## gap, nothing beyond the file or after the last array.  Each refusal is
## an attention:file error "WHERE: ...".
function [meta, info, start] = safetensors_header (fid, bytes, where)
  limit = 4 * 2^20;
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
  if (header(1) != "{")
    error ("attention:file", "%s: the header must be a JSON object, starting with '{'", where);
  endif
  h = file_json_decode (header(1:find (header != " ", 1, "last")), "the header", where);
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
  info = struct ("name", names, "shape", [], "offsets", []);
  for i = 1:numel (names)
    info(i) = entry (h.(names{i}), names{i}, where);
  endfor
  info = layout (info, bytes - start, where);
endfunction

function e = entry (x, name, where)
  what = sprintf ("%s: array \"%s\"", where, name);
  if (! isstruct (x) || ! isscalar (x) || numfields (x) != 3
      || ! all (isfield (x, {"dtype", "shape", "data_offsets"})))
    error ("attention:file", "%s must have exactly the fields dtype, shape and data_offsets", what);
  endif
  if (! ischar (x.dtype) || ! strcmp (x.dtype, "F64"))
    error ("attention:file", "%s has dtype %s; only F64 (double) arrays are read",
           what, disp_arg (x.dtype));
  endif
  if (! counts (x.shape) || (! isempty (x.shape) && ! isvector (x.shape)))
    error ("attention:file", "%s: shape must be a list of non-negative integers", what);
  endif
  if (! counts (x.data_offsets) || numel (x.data_offsets) != 2
      || x.data_offsets(1) > x.data_offsets(2))
    error ("attention:file", "%s: data_offsets must be two non-negative integers [begin, end], begin <= end", what);
  endif
  shape = x.shape(:)';
  if (numel (shape) < 2)
    shape = [ones(1, 2 - numel (shape)), shape];
  endif
  span = diff (x.data_offsets);
  if (8 * prod (shape) != span)
    error ("attention:file",
           "%s: its shape [%s] needs %.0f bytes, its data_offsets give %.0f",
           what, strjoin (arrayfun (@(k) sprintf ("%.0f", k), x.shape(:)', "UniformOutput", false), ", "),
           8 * prod (shape), span);
  endif
  e = struct ("name", name, "shape", shape, "offsets", x.data_offsets(:)');
endfunction

function ok = counts (x)
  ok = isa (x, "double") && isreal (x) && all (x >= 0 & x == fix (x) & x <= flintmax ());
endfunction

## info sorted by offset; error unless it covers 0..data bytes exactly
function info = layout (info, data, where)
  if (isempty (info))
    first = zeros (0, 2);
  else
    first = vertcat (info.offsets);
  endif
  [~, order] = sortrows (first);
  info = info(order);
  first = first(order,:);
  ends = [0; first(:,2)];
  for i = 1:numel (info)
    if (first(i,1) < ends(i))
      error ("attention:file", "%s: arrays \"%s\" and \"%s\" overlap (bytes %.0f to %.0f)",
             where, info(i-1).name, info(i).name, first(i,1), ends(i));
    elseif (first(i,1) > ends(i))
      error ("attention:file", "%s: data bytes %.0f to %.0f belong to no array",
             where, ends(i), first(i,1));
    endif
  endfor
  if (ends(end) > data)
    error ("attention:file",
           "%s is cut short: array \"%s\" ends at data byte %.0f, the file holds %.0f data bytes",
           where, info(end).name, ends(end), data);
  elseif (ends(end) < data)
    error ("attention:file", "%s: %.0f bytes after the last array belong to no array",
           where, data - ends(end));
  endif
endfunction
