"""Reading the CSV files an instructor gives the grader (a roster, adjustments, times).

Such files come from spreadsheets: a byte-order mark, a semicolon for a comma (the
European Excel), Windows-1252 instead of UTF-8, blank lines, headers in any case.
:func:`read_table` accepts all of these and refuses, with every problem listed and
the line it is on, what it cannot read without guessing: no header, a column named
twice, a row with more cells than the header has columns, a value whose double quotes
are not closed where the value ends (``"Lovelace, Ada" Jr``, or a quote never closed,
which would swallow the lines after it).  :func:`decimal` reads a number as
spreadsheets and the platforms write it (``100``, ``100.00``, ``100,00``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

DELIMITERS = ",;\t"


class InputError(Exception):
    """A file given on the command line that cannot be used as it is.

    Parameters
    ----------
    what
        What the file is, with its path (``"adjustments file a.csv"``).
    problems
        Every problem found, each with its line where there is one.
    """

    def __init__(self, what: str, problems: list[str]) -> None:
        self.what = what
        self.problems = list(problems)
        super().__init__(what)

    def __str__(self) -> str:
        if len(self.problems) == 1:
            return f"{self.what}: {self.problems[0]}"
        return f"{self.what}: {len(self.problems)} problems\n" + "\n".join(
            f"  {p}" for p in self.problems)


@dataclass
class Table:
    """A CSV file read into rows.

    Attributes
    ----------
    path, sha256
        The file, and the SHA-256 of its bytes.
    columns
        The header as written.
    rows
        ``(line, {key: value})`` per non-blank row, where ``key`` is the column's
        :func:`key` and ``line`` the row's line in the file (1 is the header's).
    problems
        The rows left out, and why (more cells than columns): the reader of the table
        reports them with its own.
    """

    path: Path
    sha256: str
    columns: list[str]
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def has(self, *names: str) -> bool:
        """Whether every one of ``names`` (compared by :func:`key`) is a column."""
        keys = {key(c) for c in self.columns}
        return all(key(n) in keys for n in names)


def key(column: str) -> str:
    """A column name compared loosely: ``"E-mail"``, ``"email"``, ``"EMAIL "`` are one."""
    return re.sub(r"[^0-9a-z]+", "", column.casefold())


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hexadecimal."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")  # Excel's "CSV" on Windows


def _delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_table(path: Path, what: str) -> Table:
    """Read a CSV file with a header row.

    Parameters
    ----------
    path
        The file.
    what
        What it is, for messages (``"roster"``, ``"adjustments file"``).

    Returns
    -------
    Table

    Raises
    ------
    InputError
        The file cannot be read, is empty, has a column named twice, or its header is
        not CSV.  A row with more cells than the header, or whose quotes are wrong, is
        left out and named in ``problems``, with its line, for the reader of the table
        to report with its own problems (every one at once).
    """
    label = f"{what} {path}"
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(label, [f"cannot be read ({exc.strerror or exc})"]) from exc
    text = _decode(data)
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise InputError(label, ["the file is empty (a header row is needed)"])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(lines[0]),
                        strict=True)
    table: Table | None = None
    problems: list[str] = []
    while True:
        first = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if table is None:  # the header itself: no row can be read without it
                problems.append(_quoting(first, reader.line_num, exc))
                break
            table.problems.append(_quoting(first, reader.line_num, exc))
            continue
        if not any(c.strip() for c in cells):
            continue
        if table is None:
            columns = [c.strip() for c in cells]
            seen: dict[str, str] = {}
            for c in columns:
                if c and key(c) in seen:
                    problems.append(f"line {reader.line_num}: the columns {seen[key(c)]!r} "
                                    f"and {c!r} are the same column")
                seen.setdefault(key(c), c)
            table = Table(Path(path), hashlib.sha256(data).hexdigest(), columns)
            continue
        extra = [c for c in cells[len(table.columns):] if c.strip()]
        if extra:
            table.problems.append(f"line {reader.line_num}: {len(cells)} cells for "
                                  f"{len(table.columns)} columns (a comma inside a value? "
                                  "put the value in double quotes)")
            continue
        row = {key(c): (cells[k].strip() if k < len(cells) else "")
               for k, c in enumerate(table.columns) if c}
        table.rows.append((reader.line_num, row))
    if table is None and not problems:
        problems.append("no header row (only blank lines)")
    if problems:
        raise InputError(label, problems)
    assert table is not None
    return table


def _quoting(first: int, last: int, exc: csv.Error) -> str:
    """What is wrong with the quotes of the row on lines ``first`` to ``last``."""
    if "unexpected end of data" in str(exc) or last > first:
        return (f"line {first}: a double quote opened on this line is never closed, so "
                f"lines {first} to {last} would be read as one value (close the quote, or "
                "double a quote inside a value: \"\")")
    return (f"line {first}: a value in double quotes goes on after its closing quote "
            f"({exc}): put the whole value in the quotes, and double a quote inside it")


def decimal(text: str) -> Decimal | None:
    """A number as a spreadsheet or a platform writes it, or None for anything else.

    ``100``, ``100.00``, ``-1.5`` and, where the decimal separator is a comma (the
    platforms write points so in such languages), ``100,00``.  Thousands separators are
    not accepted: ``1,000`` is one thousandth of a thousand or a thousand, so it is None.

    Examples
    --------
    >>> decimal("100.00"), decimal("9,5"), decimal(" 7 "), decimal("1,000"), decimal("x")
    (Decimal('100.00'), Decimal('9.5'), Decimal('7'), None, None)
    """
    text = text.strip()
    if re.fullmatch(r"-?\d+,\d{1,2}", text):
        text = text.replace(",", ".")
    if not re.fullmatch(r"-?(\d+(\.\d*)?|\.\d+)", text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def require(table: Table, what: str, columns: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """Find the required columns, each under one of its accepted names.

    Parameters
    ----------
    table
        The table read.
    what
        What the file is, for the message.
    columns
        Meaning to the accepted names, the first being the one to suggest.

    Returns
    -------
    dict of str to str
        Meaning to the :func:`key` of the column found.

    Raises
    ------
    InputError
        A column is missing: the message names it and the columns the file has.
    """
    keys = {key(c) for c in table.columns}
    found: dict[str, str] = {}
    missing: list[str] = []
    for meaning, names in columns.items():
        hit = next((key(n) for n in names if key(n) in keys), None)
        if hit is None:
            missing.append(names[0] + (f" (or {', '.join(names[1:])})" if names[1:] else ""))
        else:
            found[meaning] = hit
    if missing:
        raise InputError(f"{what} {table.path}", [
            f"missing column{'s' * (len(missing) > 1)} {'; '.join(missing)}; the header has "
            f"{', '.join(repr(c) for c in table.columns) or 'nothing'}"])
    return found
