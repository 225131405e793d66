#!/usr/bin/python3
"""Writes inst/private/tok_unicode.m: the Unicode facts the tokenizers need,
from Python's unicodedata (run from the repository root):

  /usr/bin/python3 tools/gen_tok_unicode.py

- the general category class of every code point, as ranges: 1 letter (L*),
  2 number (N*), 3 punctuation (P*), 4 non-spacing mark (Mn), 5 control
  (Cc, Cf, Cs, Co, Cn), 0 anything else;
- lower-case mappings (full, as str.lower, e.g. U+0130 -> i U+0307);
- accent stripping: the canonical decomposition (NFD) without its Mn marks,
  for each code point where that differs from the code point itself
  (Hangul syllables are left out: tok_text decomposes them by formula).
"""
import sys
import unicodedata as ud

CLASS = {"L": 1, "N": 2, "P": 3}


def klass(c):
    cat = ud.category(c)
    if cat == "Mn":
        return 4
    if cat in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return 5
    return CLASS.get(cat[0], 0)


starts, classes = [], []
for cp in range(0x110000):
    k = klass(chr(cp))
    if not classes or classes[-1] != k:
        starts.append(cp)
        classes.append(k)


def mapping(f):
    keys, offsets, values = [], [0], []
    for cp in range(0x110000):
        if 0xAC00 <= cp <= 0xD7A3 or 0xD800 <= cp <= 0xDFFF:
            continue
        m = f(chr(cp))
        if m != chr(cp):
            keys.append(cp)
            values += [ord(x) for x in m]
            offsets.append(len(values))
    return keys, offsets, values


lower = mapping(str.lower)
strip = mapping(lambda c: "".join(x for x in ud.normalize("NFD", c) if ud.category(x) != "Mn"))


def row(name, xs):
    out = [f"  u.{name} = int32 (["]
    line = "   "
    for x in xs:
        s = f" {x}"
        if len(line) + len(s) > 78:
            out.append(line + " ...")
            line = "   "
        line += s
    out.append(line + "]);")
    return "\n".join(out)


with open("inst/private/tok_unicode.m", "w") as f:
    f.write(f"""## -*- texinfo -*-
## @deftypefn {{}} {{@var{{u}} =}} tok_unicode ()
## The Unicode facts of the tokenizers (Unicode {ud.unidata_version}, written by
## tools/gen_tok_unicode.py from Python's unicodedata; do not edit by hand).
##
## @code{{class_start}} (sorted) and @code{{class}}: code points from
## class_start(k) on have class(k): 1 letter, 2 number, 3 punctuation,
## 4 non-spacing mark (Mn), 5 control (Cc, Cf, Cs, Co, Cn), 0 other.
## @code{{lower_key}}, @code{{lower_end}}, @code{{lower_value}}: code point
## lower_key(k) lower-cases to lower_value(lower_end(k)+1:lower_end(k+1));
## @code{{strip_*}} the same for its decomposition without Mn marks.
## @end deftypefn

function u = tok_unicode ()
{row("class_start", starts)}
{row("class", classes)}
{row("lower_key", lower[0])}
{row("lower_end", lower[1])}
{row("lower_value", lower[2])}
{row("strip_key", strip[0])}
{row("strip_end", strip[1])}
{row("strip_value", strip[2])}
endfunction
""")
print(len(starts), "ranges,", len(lower[0]), "lower,", len(strip[0]), "strip", file=sys.stderr)
