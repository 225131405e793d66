## ids = to_ids (v, sentence, kind, fname): a sentence's ids (1×n) in
## vocabulary v, with the special tokens its role (kind) asks for (see
## add_specials); errors name the calling function fname.
function ids = to_ids (v, sentence, kind, fname)
  try
    ids = attn_encode (v, sentence);
  catch err
    error (err.identifier, "%s", strrep (err.message, "attn_encode", fname));
  end_try_catch
  ids = add_specials (v, ids, kind);
endfunction
