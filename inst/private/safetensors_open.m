## [fid, bytes] = safetensors_open (file, caller): file opened for reading,
## after checking that it names a regular file (not a folder, a device such
## as /dev/zero, a pipe or a socket, which are refused before they are
## opened, so that nothing blocks or reads without end) and holds no NUL
## byte (the system would open the name's part before it).  bytes: the
## size of the opened file.  Errors: attention:type (file not text),
## attention:file.
function [fid, bytes] = safetensors_open (file, caller)
  if (! ischar (file) || rows (file) != 1)
    error ("attention:type", "%s: FILE must be a file name (text), got %s", caller, disp_arg (file));
  endif
  where = sprintf ("%s: \"%s\"", caller, strrep (file, "\0", "\\0"));
  if (any (file == "\0"))
    error ("attention:file", "%s: FILE holds a NUL byte, which no file name can hold", where);
  endif
  [info, err, msg] = stat (file);
  if (err != 0)
    error ("attention:file", "%s cannot be opened: %s", where, msg);
  endif
  refuse_special (info, where);
  [fid, msg] = fopen (file, "r", "ieee-le");
  if (fid < 0)
    error ("attention:file", "%s cannot be opened: %s", where, msg);
  endif
  [info, err, msg] = stat (fid);
  if (err != 0 || ! S_ISREG (info.mode))
    fclose (fid);
    refuse_special (info, where);
    error ("attention:file", "%s cannot be read: %s", where, msg);
  endif
  bytes = info.size;
endfunction

function refuse_special (info, where)
  if (S_ISDIR (info.mode))
    error ("attention:file", "%s is a folder, not a file", where);
  elseif (! S_ISREG (info.mode))
    error ("attention:file",
           "%s is not a regular file (a device, a pipe or a socket), so it is not read", where);
  endif
endfunction
