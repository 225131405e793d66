## safetensors_write (file, names, arrays, meta, caller): write real double
## and single arrays and text metadata to file in the safetensors format,
## atomically.
##
## names: cellstr of array names; arrays: cell of real double or single
## arrays, in the order they are written; meta: N×2 cellstr of metadata
## keys and values.
## The file is an 8-byte little-endian header length N, N bytes of JSON
## (padded with spaces so that the data start at a multiple of 8):
## "__metadata__" first, then each array's "dtype" ("F64" for double, "F32"
## for single), "shape" (Octave's
## size) and "data_offsets" (from the first byte after the header), then the
## arrays' bytes in that order, row-major (C order) and little-endian.
## Every number of the header is printed here, none by jsonencode.
##
## The bytes go to a new file in the target's folder, which is renamed over
## file once every write and the close succeeded.  On any error or
## interrupt that file is deleted and file is as it was; a target that
## exists and is not a regular file is refused before anything is written.
## Errors: attention:file (the target), attention:encoding (text not UTF-8),
## attention:toolarge (a header beyond the limit of safetensors_header ()).
function safetensors_write (file, names, arrays, meta, caller)
  where = sprintf ("%s: \"%s\"", caller, file);
  [info, err] = stat (file);
  if (err == 0 && ! S_ISREG (info.mode))
    error ("attention:file", "%s exists and is not a regular file; give a file name", where);
  endif
  [folder, base, ext] = fileparts (file);
  if (isempty (folder))
    folder = ".";
  endif
  if (! isfolder (folder))
    error ("attention:file", "%s: the folder \"%s\" does not exist", where, folder);
  endif
  header = header_text (names, arrays, meta);
  header = [header, repmat(" ", 1, mod (-numel (header), 8))];
  limit = safetensors_header ();
  if (numel (header) > limit)
    error ("attention:toolarge",
           "%s: the names and metadata need a header of %d bytes; a header may have at most %d",
           where, numel (header), limit);
  endif
  if (! file_utf8 (header))
    error ("attention:encoding", "%s: a name or metadata text is not UTF-8", where);
  endif

  tmp = tempname (folder, ["." base ext "."]);
  fid = -1;
  done = false;
  unwind_protect
    [fid, msg] = fopen (tmp, "w", "ieee-le");
    if (fid < 0)
      error ("attention:file", "%s cannot be written: %s", where, msg);
    endif
    ok = fwrite (fid, numel (header), "uint64") == 1;
    ok = ok && fwrite (fid, header, "uchar") == numel (header);
    for i = 1:numel (arrays)
      if (! ok)
        break;
      endif
      x = arrays{i};
      if (! ismatrix (x) || ndims (x) > 2)
        x = permute (x, ndims (x):-1:1);
      else
        x = x.';
      endif
      ok = fwrite (fid, x, merge (isa (x, "single"), "single", "double")) == numel (x);
    endfor
    if (! ok)
      error ("attention:file", "%s: writing failed (is the disk full?); the file is unchanged", where);
    endif
    status = fclose (fid);
    fid = -1;
    if (status != 0)
      error ("attention:file", "%s: closing the new file failed (is the disk full?); the file is unchanged", where);
    endif
    [status, msg] = rename (tmp, file);
    if (status != 0)
      error ("attention:file", "%s cannot be replaced: %s; the file is unchanged", where, msg);
    endif
    done = true;
  unwind_protect_cleanup
    if (fid >= 0)
      fclose (fid);
    endif
    if (! done)              # an error or Ctrl-C: no temporary file left;
      [~, ~] = unlink (tmp);  # quiet when there is none (before fopen, after rename)
    endif
  end_unwind_protect
endfunction

function h = header_text (names, arrays, meta)
  keys = cellfun (@jsonencode, meta(:,1)', "UniformOutput", false);
  values = cellfun (@jsonencode, meta(:,2)', "UniformOutput", false);
  parts = {["\"__metadata__\":{" strjoin(strcat (keys, ":", values), ",") "}"]};
  at = 0;
  for i = 1:numel (arrays)
    [dtype, bytes] = dtype_of (arrays{i});
    n = bytes * numel (arrays{i});
    shape = strjoin (arrayfun (@(k) sprintf ("%d", k), size (arrays{i}), "UniformOutput", false), ",");
    parts{end+1} = sprintf ("%s:{\"dtype\":\"%s\",\"shape\":[%s],\"data_offsets\":[%d,%d]}",
                            jsonencode (names{i}), dtype, shape, at, at + n);
    at += n;
  endfor
  h = ["{" strjoin(parts, ",") "}"];
endfunction

## an array's dtype and bytes per number: F32 for single, F64 for double
function [dtype, bytes] = dtype_of (x)
  if (isa (x, "single"))
    [dtype, bytes] = deal ("F32", 4);
  else
    [dtype, bytes] = deal ("F64", 8);
  endif
endfunction

%!test
%! ## any named arrays and text metadata (a checkpoint's model, optimiser
%! ## state, step and data order) come back exactly, N-D arrays included
%! f = tempname ();
%! names = {"model.W", "adam.m.W", "step", "order", "cube", "empty"};
%! arrays = {randn(3, 4), -realmin * ones(3, 4), 17, randperm(9), randn(2, 3, 4), zeros(0, 5)};
%! meta = {"format", "attention-checkpoint 1"; "note", "caf\xC3\xA9 \"quoted\""};
%! safetensors_write (f, names, arrays, meta, "test");
%! [fid, n] = safetensors_open (f, "test");
%! [got_meta, info, start] = safetensors_header (fid, n, "here");
%! got = safetensors_data (fid, info, start, "here");
%! fclose (fid);
%! delete (f);
%! assert ({info.name}, names);
%! assert (isequal (got, arrays));
%! assert (got_meta, cell2struct (meta(:,2), meta(:,1), 1));
%! assert (mod (start, 8), 0);

%!test
%! ## a header beyond the limit (safetensors': 100,000,000 bytes) is refused
%! ## before anything is written: the old file stays
%! assert (safetensors_header (), 100000000);
%! f = tempname ();
%! safetensors_write (f, {"A"}, {1}, cell (0, 2), "test");
%! before = fileread (f);
%! note = repmat ("a", 1, 1e8 - 82);         # 83 bytes beside it: 1e8 + 1, padded to 1e8 + 8
%! try
%!   safetensors_write (f, {"A"}, {1}, {"note", note}, "test");
%!   error ("test:written", "a header beyond the limit was written");
%! catch err
%!   assert (err.identifier, "attention:toolarge");
%!   assert (err.message, sprintf ("test: \"%s\": the names and metadata need a header of 100000008 bytes; a header may have at most 100000000", f));
%! end_try_catch
%! assert (strcmp (fileread (f), before));
%! delete (f);

%!test
%! ## the bytes of a 2×3 matrix are its rows, little-endian
%! f = tempname ();
%! safetensors_write (f, {"A"}, {[1 2 3; 4 5 6]}, cell (0, 2), "test");
%! fid = fopen (f, "r");
%! N = fread (fid, 1, "uint64", 0, "ieee-le");
%! header = fread (fid, N, "uint8=>char")';
%! x = fread (fid, Inf, "double", 0, "ieee-le")';
%! fclose (fid);
%! delete (f);
%! assert (deblank (header), '{"__metadata__":{},"A":{"dtype":"F64","shape":[2,3],"data_offsets":[0,48]}}');
%! assert (x, [1 2 3 4 5 6]);

%!test
%! ## a single array is F32, 4 bytes a number, beside an F64 one
%! f = tempname ();
%! safetensors_write (f, {"A", "B"}, {single([1.5 -2; 3 4]), 7}, cell (0, 2), "test");
%! fid = fopen (f, "r");
%! N = fread (fid, 1, "uint64", 0, "ieee-le");
%! header = fread (fid, N, "uint8=>char")';
%! a = fread (fid, 4, "single", 0, "ieee-le")';
%! b = fread (fid, 1, "double", 0, "ieee-le");
%! fclose (fid);
%! delete (f);
%! assert (deblank (header), '{"__metadata__":{},"A":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"B":{"dtype":"F64","shape":[1,1],"data_offsets":[16,24]}}');
%! assert (a, [1.5 -2 3 4]);
%! assert (b, 7);
