"""CSV files that a spreadsheet opens as data, never as formulas.

Names, file names, statuses and notes come from students, and a spreadsheet takes a
cell whose text starts with ``=``, ``+``, ``-`` or ``@`` for a formula (and one that
starts with a tab or a carriage return, which some spreadsheets skip before reading
one): a student named ``=HYPERLINK("http://x","click")`` or ``+cmd|' /C calc'!A0``
would put a link, or a command, in the instructor's spreadsheet.  Every CSV file the
grader writes goes through :func:`writer`, which follows OWASP's advice on CSV
injection:

- a text cell that starts with one of :data:`DANGEROUS` gets a single quote before it
  (``'=HYPERLINK(...)``), which spreadsheets read as "this cell is text";
- so does such a character right after a comma, a semicolon, a tab or a line break
  inside the text (after any double quotes there): a spreadsheet that splits the lines
  at semicolons (Excel where the list separator is ``;``) reads a comma-separated
  file's line as a first cell up to the first ``;`` and then a new cell after each one,
  so ``"x","a;=HYPERLINK(...)"`` would have a cell ``=HYPERLINK(...)`` (OWASP's note on
  field separators);
- every text cell is put in double quotes, so that a comma or a line break in it never
  starts a new cell for the spreadsheets that read the file as written;
- numbers (``int``, ``float``, :class:`~decimal.Decimal`: points such as ``-1.5``, an
  adjustment of ``-2``) are written as they are, unquoted, and stay numbers.

Where a quote is added, one is also added before a student's own quotes that lead to
such a character (``'=x`` is written ``''=x``), so that :func:`restore` gives back
exactly the text it was given; any other single quote is left alone (``'Ana``).

Only what the grader itself computed is a number.  Text that looks like a number is
still text: a student named ``-2`` is written ``'-2``, since no rule that reads the
text can tell a harmless ``-2`` from a formula such as ``-2+3`` in every spreadsheet
and locale.  Ids are text too: the platforms' ids are digits, which never start with a
character of :data:`DANGEROUS`, so they are written unchanged; an id that does (one a
roster gave) gets the quote as any text.  A float that is not finite (``nan``,
``-inf``) is no number a spreadsheet reads, and is written as text.

:func:`restore` undoes :func:`neutralise` for one cell; :func:`reader` and
:func:`dict_reader` read a file so written back into the text the grader had.
"""

from __future__ import annotations

import csv
import math
import numbers
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import IO, Any

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
#: What is put before a dangerous cell: spreadsheets read the cell as text.
QUOTE = "'"
#: Where a spreadsheet may start a cell inside a text: after these characters.
SEPARATORS = ",;\t\r\n"
_START = rf"(?:^|(?<=[{SEPARATORS}]))(\"*)"
_FORMULA = "'*[" + re.escape("".join(DANGEROUS)) + "]"
#: Where :func:`neutralise` puts a quote, and where :func:`restore` takes one away.
_NEUTRALISE = re.compile(rf"{_START}({_FORMULA})")
_RESTORE = re.compile(rf"{_START}{QUOTE}({_FORMULA})")

Cell = str | int | float | Decimal


def neutralise(text: str) -> str:
    """A text cell that no spreadsheet reads as a formula.

    Parameters
    ----------
    text
        The cell's text, as the grader has it.

    Returns
    -------
    str
        ``text`` with a single quote put before each character of :data:`DANGEROUS`
        (and the single quotes just before it) that starts the text or follows one of
        :data:`SEPARATORS` and any double quotes; else ``text`` unchanged.

    Examples
    --------
    >>> neutralise('=HYPERLINK("http://x","click")')
    '\\'=HYPERLINK("http://x","click")'
    >>> neutralise("-2"), neutralise("Ada"), neutralise("'Ana"), neutralise("'=1")
    ("'-2", 'Ada', "'Ana", "''=1")
    >>> neutralise("a.ipynb;@SUM(1)")
    "a.ipynb;'@SUM(1)"
    """
    return _NEUTRALISE.sub(rf"\1{QUOTE}\2", text)


def restore(cell: str) -> str:
    """The text :func:`neutralise` was given, from the cell it wrote.

    Each single quote that :func:`neutralise` puts is taken away, and nothing else: the
    quotes where it puts one are never quotes it leaves (numbers come back as they are).

    Examples
    --------
    >>> restore("'=SUM(1)"), restore("''=1"), restore("'Ana"), restore("-1.5")
    ('=SUM(1)', "'=1", "'Ana", '-1.5')
    """
    return _RESTORE.sub(r"\1\2", cell)


def cell(value: Any) -> Cell:
    """What :func:`writer` writes for ``value``.

    Parameters
    ----------
    value
        A cell: text, a number, or None (an empty cell).

    Returns
    -------
    str, int, float or Decimal
        A finite number as it is (a float subclass as a plain float, so that it is
        written as ``2.5``); a Decimal as it is (its text is written unchanged:
        ``7.50``); anything else as text, neutralised (:func:`neutralise`).
    """
    if value is None:
        return ""
    if isinstance(value, Decimal) and value.is_finite():
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return neutralise(str(value))


class Writer:
    """A :func:`csv.writer` whose every cell goes through :func:`cell`.

    Text is quoted (``csv.QUOTE_NONNUMERIC``), numbers are not.
    """

    def __init__(self, fh: IO[str]) -> None:
        self._writer = csv.writer(fh, quoting=csv.QUOTE_NONNUMERIC)

    def writerow(self, row: Iterable[Any]) -> None:
        """Write one row."""
        self._writer.writerow([cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        """Write every row of ``rows``."""
        for row in rows:
            self.writerow(row)


def writer(fh: IO[str]) -> Writer:
    """A writer of spreadsheet-safe CSV on ``fh`` (opened with ``newline=""``)."""
    return Writer(fh)


def reader(fh: Iterable[str]) -> Iterator[list[str]]:
    """The rows of a file :func:`writer` wrote, each cell :func:`restore`-d.

    Numbers come back as their text (``"-1.5"``), as from :func:`csv.reader`.
    """
    for row in csv.reader(fh):
        yield [restore(c) for c in row]


def dict_reader(fh: Iterable[str]) -> Iterator[dict[str, str]]:
    """The rows of a file :func:`writer` wrote, as ``{header: text}`` (restored)."""
    rows = reader(fh)
    header = next(rows, None)
    if header is None:
        return
    for row in rows:
        if row:
            yield dict(zip(header, row + [""] * (len(header) - len(row)), strict=False))
