"""Which characters are white space, letters, upper-case letters and digits (chapter 5).

The spam features of chapter 5 count words, all-caps words and digits, so they depend on
what a letter and a digit are.  Python's ``str.isalpha``, ``str.isupper``,
``str.isdigit`` and ``str.split`` and JavaScript's ``\\s`` and ``\\p{...}`` answer from
the Unicode tables their runtime ships, and they disagree: ``isdigit`` accepts ``²`` and
``①``, ``\\p{Nd}`` does not; ``str.split`` splits at the separators U+001C..U+001F,
``\\s`` at U+FEFF instead; and a browser that knows Unicode 17 sees letters where
Python 3.11, at Unicode 14, sees unassigned code points.  The book computes the
features both in Python (:mod:`perceptron_lib.spam`) and in the reader's browser
(chapter 5's in-page demo), so the course fixes the classes once, by explicit Unicode
properties of one Unicode version, and ships the tables to both sides:

- **white space**: the 25 characters of the Unicode property ``White_Space``
  (:data:`WHITE_SPACE`);
- **letter**: general category L (Lu, Ll, Lt, Lm, Lo) in Unicode 14.0;
- **upper-case letter**: general category Lu in Unicode 14.0;
- **digit**: general category Nd (decimal digits, of any script) in Unicode 14.0.

The letter, upper-case and digit tables are frozen in ``_unicode14.py``, written by
:func:`python_tables_text` from ``unicodedata`` of a Python whose Unicode version is
14.0 (Python 3.11); ``book/_demos/spam/char-classes.mjs``, the page's copy, is written
from that frozen table by :func:`js_module_text`.  ``python -m
perceptron_lib.unicode_classes --check`` says whether both files are current, and
``--write`` rewrites them.
"""

from __future__ import annotations

import sys
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path

from . import _unicode14

UNICODE_VERSION = _unicode14.UNICODE_VERSION

#: The characters of Unicode's White_Space property (unchanged since Unicode 6.3).
WHITE_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)

CLASSES = ("letter", "upper", "digit")
_CATEGORIES = {"letter": ("Lu", "Ll", "Lt", "Lm", "Lo"), "upper": ("Lu",), "digit": ("Nd",)}

ROOT = Path(__file__).resolve().parent
PY_TABLES = ROOT / "_unicode14.py"
JS_TABLES = ROOT.parent / "book" / "_demos" / "spam" / "char-classes.mjs"


def _split(flat: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return flat[0::2], flat[1::2]


_TABLES = {name: _split(getattr(_unicode14, name.upper())) for name in CLASSES}


def ranges(name: str) -> list[tuple[int, int]]:
    """The code point ranges ``(first, last)`` of a class: "letter", "upper" or "digit"."""
    starts, ends = _TABLES[name]
    return list(zip(starts, ends, strict=True))


def _member(name: str, c: str) -> bool:
    starts, ends = _TABLES[name]
    cp = ord(c)
    i = bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


@lru_cache(maxsize=4096)
def is_letter(c: str) -> bool:
    """Whether the character ``c`` is a letter (category L of Unicode 14.0)."""
    return _member("letter", c)


@lru_cache(maxsize=4096)
def is_upper(c: str) -> bool:
    """Whether ``c`` is an upper-case letter (category Lu of Unicode 14.0)."""
    return _member("upper", c)


@lru_cache(maxsize=4096)
def is_digit(c: str) -> bool:
    """Whether ``c`` is a decimal digit of any script (category Nd of Unicode 14.0)."""
    return _member("digit", c)


# ---------------------------------------------------------------------------------------
# Writing the two tables


def ranges_from_unicodedata(name: str) -> list[tuple[int, int]]:
    """The ranges of a class as this Python's ``unicodedata`` assigns them."""
    cats = _CATEGORIES[name]
    out: list[tuple[int, int]] = []
    start = None
    for cp in range(sys.maxunicode + 2):
        inside = cp <= sys.maxunicode and unicodedata.category(chr(cp)) in cats
        if inside and start is None:
            start = cp
        elif not inside and start is not None:
            out.append((start, cp - 1))
            start = None
    return out


def _numbers(values: list[int], indent: str, width: int = 92) -> str:
    lines, line = [], indent
    for v in values:
        item = f"{v},"
        if len(line) + len(item) + 1 > width:
            lines.append(line.rstrip())
            line = indent
        line += item + " "
    lines.append(line.rstrip())
    return "\n".join(lines)


def python_tables_text() -> str:
    """The text of ``_unicode14.py``, from this Python's ``unicodedata``.

    Raises
    ------
    RuntimeError
        When this Python's Unicode version is not the frozen one.
    """
    if unicodedata.unidata_version != UNICODE_VERSION:
        raise RuntimeError(f"this Python has Unicode {unicodedata.unidata_version}; the "
                           f"tables are those of Unicode {UNICODE_VERSION} (Python 3.11)")
    parts = ['"""Letters, upper-case letters and digits of Unicode 14.0 (written by',
             "perceptron_lib.unicode_classes; do not edit).",
             "",
             "Each table lists inclusive code point ranges as first, last, first, last, ...",
             '"""',
             "",
             f'UNICODE_VERSION = "{UNICODE_VERSION}"']
    for name in CLASSES:
        flat = [v for r in ranges_from_unicodedata(name) for v in r]
        parts += ["", f"{name.upper()} = (", _numbers(flat, "    "), ")"]
    return "\n".join(parts) + "\n"


def js_module_text() -> str:
    """The text of ``book/_demos/spam/char-classes.mjs``, from the frozen Python tables."""
    ws = ", ".join(f"0x{ord(c):04x}" for c in WHITE_SPACE)
    parts = [
        f"// Character classes of the spam features, Unicode {UNICODE_VERSION}: written by",
        "// perceptron_lib/unicode_classes.py from perceptron_lib/_unicode14.py; do not edit.",
        "// Each table lists inclusive code point ranges as first, last, first, last, ...",
        "",
        f'export const UNICODE_VERSION = "{UNICODE_VERSION}";',
        "",
        "// Unicode's White_Space property",
        f"export const WHITE_SPACE = [{ws}];",
    ]
    for name in CLASSES:
        flat = [v for r in ranges(name) for v in r]
        parts += ["", f"export const {name.upper()} = [", _numbers(flat, "  "), "];"]
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``--check``: are both table files current?  ``--write``: rewrite them."""
    import argparse  # here: the library imports this module, the command line is rare

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--check", action="store_true")
    group.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    wanted = {JS_TABLES: js_module_text()}
    if unicodedata.unidata_version == UNICODE_VERSION:
        wanted[PY_TABLES] = python_tables_text()
    stale = [p for p, text in wanted.items()
             if not p.is_file() or p.read_text(encoding="utf-8") != text]
    if args.write:
        for p in stale:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(wanted[p], encoding="utf-8")
            print(f"wrote {p}")
        return 0
    for p in stale:
        print(f"stale: {p}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
