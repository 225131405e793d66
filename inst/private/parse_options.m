## -*- texinfo -*-
## @deftypefn  {} {@var{opts} =} parse_options (@var{caller}, @var{spec}, @var{args})
## @deftypefnx {} {@var{opts} =} parse_options (@var{caller}, @var{spec}, @{@var{config}@}, "config")
## The one option parser of the package.
##
## @var{spec} is an N×3 cell array, one row per option:
## @code{@{name, default, rule@}}.  @var{args} is the cell of name, value
## pairs the user gave (or one struct of them).  Names match without regard
## to case; @var{opts} has every option under its name in @var{spec}.
##
## A rule is one of
## @table @code
## @item "flag"
## true, false, 0 or 1 (returned as logical)
## @item "text"
## a character row vector (or @qcode{""})
## @item "one of a, b, c"
## one of the listed words
## @item "integer [lo, hi]"
## a real integer in the interval; a bound may be open, @code{(} or
## @code{)}, and @code{hi} may be @code{Inf}; Inf itself is allowed only
## when the interval is closed there, as in @code{[1, Inf]}
## @item "real [lo, hi]"
## a real number in the interval, as for integers
## @item "any"
## anything (the caller checks it)
## @end table
## NaN is never a valid number.  Every unknown name and every bad value is
## an @code{attention:option} error that names @var{caller}, the option and
## what it allows; an unknown name lists the known ones.
##
## With @qcode{"config"} the same rules check the fields of a model's
## CONFIG struct: the errors are @code{attention:config} and speak of
## @qcode{CONFIG.d}, @qcode{unknown CONFIG field}.
## @end deftypefn

function opts = parse_options (caller, spec, args, what = "option")
  if (strcmp (what, "config"))
    say = struct ("id", "attention:config", "unknown", "unknown CONFIG field",
                  "value", "CONFIG.%s");
  else
    say = struct ("id", "attention:option", "unknown", "unknown option",
                  "value", "option \"%s\"");
  endif
  if (numel (args) == 1 && isstruct (args{1}) && isscalar (args{1}))
    args = [fieldnames(args{1}), struct2cell(args{1})]';
    args = args(:)';
  endif
  names = spec(:, 1)';
  opts = cell2struct (spec(:, 2), names, 1);
  if (mod (numel (args), 2) != 0)
    error (say.id, "%s: options come in name, value pairs (known: %s)",
           caller, strjoin (names, ", "));
  endif
  for i = 1:2:numel (args)
    k = [];
    if (ischar (args{i}) && rows (args{i}) <= 1)
      k = find (strcmpi (args{i}, names), 1);
    endif
    if (isempty (k))
      error (say.id, "%s: %s %s (known: %s)",
             caller, say.unknown, disp_arg (args{i}), strjoin (names, ", "));
    endif
    opts.(names{k}) = option_value (caller, names{k}, args{i+1}, spec{k, 3}, say);
  endfor
endfunction

## The value V of option NAME checked against RULE, converted to its kind.
function v = option_value (caller, name, v, rule, say)
  [kind, rest] = strtok (rule);
  rest = strtrim (rest);
  switch (kind)
    case "any"
      return;
    case "flag"
      ok = (isscalar (v) && (islogical (v) || (isnumeric (v) && isreal (v)
                                               && (v == 0 || v == 1))));
      allowed = "true or false";
      if (ok)
        v = logical (v);
      endif
    case "text"
      ok = ischar (v) && rows (v) <= 1;
      allowed = "a string";
    case "one"
      words = strtrim (strsplit (regexprep (rest, '^of\s+', ''), ","));
      ok = ischar (v) && rows (v) <= 1 && any (strcmp (v, words));
      allowed = ["one of ", strjoin(cellfun (@(w) ["\"", w, "\""], words,
                                              "UniformOutput", false), ", ")];
    case {"integer", "real"}
      lim = sscanf (rest(2:end-1), "%f , %f");
      lo_open = rest(1) == "(";
      hi_open = rest(end) == ")";
      ok = (isscalar (v) && (isnumeric (v) || islogical (v)) && isreal (v)
            && ! isnan (v));
      if (ok)
        v = double (v);
        ok = ((v > lim(1) || (! lo_open && v == lim(1)))
              && (v < lim(2) || (! hi_open && v == lim(2))));
        ok = ok && (! strcmp (kind, "integer") || isinf (v) || v == fix (v));
      endif
      allowed = sprintf ("%s in %s", ifelse_article (kind), rest);
    otherwise
      error ("attention:internal", "parse_options: unknown rule \"%s\"", rule);
  endswitch
  if (! ok)
    error (say.id, "%s: %s must be %s, got %s",
           caller, sprintf (say.value, name), allowed, disp_arg (v));
  endif
endfunction

function s = ifelse_article (kind)
  if (strcmp (kind, "integer"))
    s = "an integer";
  else
    s = "a real number";
  endif
endfunction

%!shared spec
%! spec = {"epochs", 10, "integer [1, Inf)";
%!         "max_len", Inf, "integer [0, Inf]";
%!         "lr", 1e-3, "real (0, Inf)";
%!         "beta", 0.9, "real [0, 1)";
%!         "shuffle", true, "flag";
%!         "file", "", "text";
%!         "optimizer", "adam", "one of adam, sgd";
%!         "labels", {}, "any"};

%!test
%! o = parse_options ("f", spec, {});
%! assert (o.epochs, 10);
%! assert (o.max_len, Inf);
%! assert (o.optimizer, "adam");
%! assert (fieldnames (o)', spec(:, 1)');

%!test
%! o = parse_options ("f", spec, {"EPOCHS", 3, "shuffle", 0, "optimizer", "sgd", ...
%!                               "labels", {"a"}, "max_len", Inf, "beta", 0});
%! assert (o.epochs, 3);
%! assert (o.shuffle, false);
%! assert (islogical (o.shuffle));
%! assert (o.optimizer, "sgd");
%! assert (o.labels, {"a"});
%! assert (o.beta, 0);

%!test
%! o = parse_options ("f", spec, {struct("lr", 0.5, "epochs", int8 (2))});
%! assert (o.lr, 0.5);
%! assert (o.epochs, 2);
%! assert (class (o.epochs), "double");

%!error <f: unknown option "epoch" \(known: epochs, max_len, lr, beta, shuffle, file, optimizer, labels\)>
%! parse_options ("f", spec, {"epoch", 1});
%!error <f: unknown option 3> parse_options ("f", spec, {3, 1});
%!error <options come in name, value pairs> parse_options ("f", spec, {"lr"});
%!error <f: option "epochs" must be an integer in \[1, Inf\), got -1>
%! parse_options ("f", spec, {"epochs", -1});
%!error <option "epochs" must be an integer> parse_options ("f", spec, {"epochs", 1.5});
%!error <option "epochs" must be an integer> parse_options ("f", spec, {"epochs", Inf});
%!error <option "epochs" must be an integer> parse_options ("f", spec, {"epochs", NaN});
%!error <option "epochs" must be an integer> parse_options ("f", spec, {"epochs", [1 2]});
%!error <option "epochs" must be an integer> parse_options ("f", spec, {"epochs", "3"});
%!error <option "epochs" must be an integer> parse_options ("f", spec, {"epochs", 2+1i});
%!error <option "max_len" must be an integer in \[0, Inf\]> parse_options ("f", spec, {"max_len", NaN});
%!error <option "lr" must be a real number in \(0, Inf\)> parse_options ("f", spec, {"lr", 0});
%!error <option "lr" must be a real number> parse_options ("f", spec, {"lr", Inf});
%!error <option "beta" must be a real number in \[0, 1\)> parse_options ("f", spec, {"beta", 1});
%!error <option "shuffle" must be true or false, got NaN> parse_options ("f", spec, {"shuffle", NaN});
%!error <option "shuffle" must be true or false> parse_options ("f", spec, {"shuffle", 2});
%!error <option "file" must be a string> parse_options ("f", spec, {"file", 3});
%!error <option "optimizer" must be one of "adam", "sgd", got "Adam"> parse_options ("f", spec, {"optimizer", "Adam"});
%!error id=attention:option parse_options ("f", spec, {"nope", 1});
%!error id=attention:option parse_options ("f", spec, {"lr", NaN});
%!error <f: unknown CONFIG field "lrate"> parse_options ("f", spec, {struct("lrate", 1)}, "config");
%!error <f: CONFIG.epochs must be an integer in \[1, Inf\), got 0> parse_options ("f", spec, {struct("epochs", 0)}, "config");
%!error id=attention:config parse_options ("f", spec, {struct("epochs", 0)}, "config");
