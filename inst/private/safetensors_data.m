## arrays = safetensors_data (fid, info, start, where): the arrays that
## safetensors_header described (info, in data order), read from fid
## (little-endian), converted to double and laid out in Octave's order (the
## file is row-major).
## arrays = safetensors_data (fid, info, start, where, true): the same, but
## F32 arrays are single (as attn_save writes a single model).  Before anything is read, arrays that would not fit
## in memory are an attention:toolarge error (check_memory, the rule of
## attn_model); a short read is an attention:file error.
##
## dtypes = safetensors_data (): the dtypes converted, a K×2 cell of names
## and bytes per number, for safetensors_header.  F64, F32, F16 (subnormals,
## Inf and NaN included) and BF16 (the upper 16 bits of an F32) become the
## same numbers as doubles; the integer dtypes too, exactly up to 2^53
## (I64 and U64 beyond that are rounded); BOOL gives 0 and 1.
function arrays = safetensors_data (fid, info, start, where, keep_f32 = false)
  dtypes = {"F64", 8, "double"; "F32", 4, "single"; "F16", 2, "uint16"; "BF16", 2, "uint16";
            "I64", 8, "int64"; "I32", 4, "int32"; "I16", 2, "int16"; "I8", 1, "int8";
            "U64", 8, "uint64"; "U32", 4, "uint32"; "U16", 2, "uint16"; "U8", 1, "uint8";
            "BOOL", 1, "uint8"};
  if (nargin == 0)
    arrays = dtypes(:,1:2);
    return;
  endif
  counts = cellfun (@prod, {info.shape});
  check_memory (sum (counts), max ([0, counts]), where, "the file's arrays", "");
  arrays = cell (1, numel (info));
  for i = 1:numel (info)
    shape = info(i).shape;
    n = prod (shape);
    fseek (fid, start + info(i).offsets(1), SEEK_SET);
    kind = strcmp (dtypes(:,1), info(i).dtype);
    to = "double";
    if (keep_f32 && strcmp (info(i).dtype, "F32"))
      to = "single";
    endif
    x = fread (fid, n, [dtypes{kind,3} "=>" to], 0, "ieee-le");
    if (numel (x) != n)
      error ("attention:file", "%s: array \"%s\" could not be read whole (the file changed?)",
             where, info(i).name);
    endif
    switch (info(i).dtype)
      case {"F16", "BF16"}
        x = halves (info(i).dtype)(x + 1);
      case "BOOL"
        x = double (x != 0);
    endswitch
    if (numel (shape) == 2)
      arrays{i} = reshape (x, shape(2), shape(1)).';
    else
      arrays{i} = permute (reshape (x, fliplr (shape)), numel (shape):-1:1);
    endif
  endfor
endfunction

## the double of every 16-bit pattern 0 ... 65535 (a column) of the dtype
## "F16" or "BF16": one lookup converts a tensor (faster than the bit
## operations on each number)
function T = halves (dtype)
  persistent F16 BF16
  if (isempty (F16))
    h = uint16 (0:65535)';
    F16 = half_double (h);
    BF16 = double (typecast (bitshift (uint32 (h), 16), "single"));
  endif
  if (strcmp (dtype, "F16"))
    T = F16;
  else
    T = BF16;
  endif
endfunction

## IEEE 754 half-precision bit patterns h (uint16) as doubles: sign, 5
## exponent bits (bias 15; 0 subnormal, 31 Inf or NaN), 10 fraction bits
function x = half_double (h)
  e = double (bitand (bitshift (h, -10), 31));
  f = double (bitand (h, 1023));
  x = pow2 (f + 1024 * (e > 0), max (e, 1) - 25);
  x(e == 31) = Inf;
  x(e == 31 & f > 0) = NaN;
  negative = h >= 32768;
  x(negative) = -x(negative);
endfunction
