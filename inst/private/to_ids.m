## ids = to_ids (v, sentence, kind, fname): a sentence's ids (1×n) in
## vocabulary v, with the special tokens its role (kind) asks for (see
## add_specials); errors name the calling function fname.  This is where
## the text of every sentence argument enters (attn_encode checks its
## UTF-8): attn_forward, attn_loss, attn_batch, attn_train, the decoders.
function ids = to_ids (v, sentence, kind, fname)
  try
    ids = attn_encode (v, sentence);
  catch err
    error (err.identifier, "%s", regexprep (err.message, '^attn_encode:', [fname ":"]));
  end_try_catch
  ids = add_specials (v, ids, kind);
endfunction
