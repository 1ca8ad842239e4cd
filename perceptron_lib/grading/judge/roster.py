"""The class roster: who is in the course, under the ids the learning platforms use.

``--roster FILE`` is a CSV file in one of these layouts (recognised by its header):

- the grader's own: ``id``, ``name``, ``email``, and optionally ``first_name``,
  ``last_name``, ``sis_user_id``, ``sis_login_id``, ``section`` and ``submission``
  (the name of the student's notebook or folder, where it is neither the name nor the
  id);
- Moodle's grading worksheet, as the assignment's "Download grading worksheet" gives it
  (``Identifier`` such as ``Participant 123456``, ``Full name``, ``Email address``);
- Canvas's gradebook export (``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``,
  ``Section``; its ``Points Possible`` row is skipped);
- Gradescope's roster or score export (``First Name``, ``Last Name`` or ``Name``,
  ``SID``, ``Email``).

Each submission is matched to one roster row (:func:`match`): by the platform's id
the intake read from Moodle's or Canvas's file names, else by the name of the notebook
or folder against the row's name (accents, case and punctuation aside; Canvas's
``lastnamefirstname`` included), e-mail (or the part before the ``@``), id or
``submission``.  A submission that matches no row, or several, and a row that no
submission matches, are all reported: none is dropped without a word.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .tables import InputError, Table, key, read_table, require

Key = tuple[str, str]  # (name, id): a student as the gradebook knows them

PLAIN = {"id": ("id", "student id", "user id"), "name": ("name", "full name"),
         "email": ("email", "e-mail", "email address")}
OPTIONAL = ("first_name", "last_name", "sis_user_id", "sis_login_id", "section", "submission")


@dataclass(frozen=True)
class RosterEntry:
    """One student of the roster, with the line of the file it came from."""

    id: str
    name: str
    email: str = ""
    first_name: str = ""
    last_name: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    submission: str = ""
    line: int = 0

    def first_and_last(self) -> tuple[str, str]:
        """The first and last names (split from ``name`` when the file has no columns)."""
        if self.first_name or self.last_name:
            return self.first_name, self.last_name
        if "," in self.name:  # Canvas writes "Last, First"
            last, first = (s.strip() for s in self.name.split(",", 1))
            return first, last
        parts = self.name.split()
        return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (self.name, "")


@dataclass
class Roster:
    """A roster read from a file: its layout, its hash and its students."""

    path: Path
    sha256: str
    layout: str
    entries: list[RosterEntry]


@dataclass
class RosterMatch:
    """Which roster row each submission is, and what matched nothing.

    Attributes
    ----------
    pairs
        Student (name, id) to the roster row matched.
    unmatched
        Students with a submission and no roster row, with why (``"no row"``, or the
        rows it could be).
    missing
        Roster rows that no submission matched.
    """

    pairs: dict[Key, RosterEntry] = field(default_factory=dict)
    unmatched: dict[Key, str] = field(default_factory=dict)
    missing: list[RosterEntry] = field(default_factory=list)


# ------------------------------------------------------------------ reading
def _entries_plain(table: Table) -> list[RosterEntry]:
    cols = require(table, "roster", PLAIN)
    present = {key(c) for c in table.columns}
    out = []
    for line, row in table.rows:
        extra = {name: row.get(key(name), "") for name in OPTIONAL if key(name) in present}
        out.append(RosterEntry(row[cols["id"]], row[cols["name"]], row[cols["email"]],
                               line=line, **extra))
    return out


def _entries_moodle(table: Table) -> list[RosterEntry]:
    out = []
    for line, row in table.rows:
        ident = re.search(r"(\d+)\s*$", row.get("identifier", ""))
        out.append(RosterEntry(ident[1] if ident else "", row.get("fullname", ""),
                               row.get("emailaddress", ""), line=line))
    return out


def _entries_canvas(table: Table) -> list[RosterEntry]:
    out = []
    for line, row in table.rows:
        name = row.get("student", "")
        if not row.get("id") and name.strip().casefold().endswith("points possible"):
            continue  # the second row of Canvas's export
        out.append(RosterEntry(row.get("id", ""), name, "", sis_user_id=row.get("sisuserid", ""),
                               sis_login_id=row.get("sisloginid", ""),
                               section=row.get("section", ""), line=line))
    return out


def _entries_gradescope(table: Table) -> list[RosterEntry]:
    out = []
    for line, row in table.rows:
        first, last = row.get("firstname", ""), row.get("lastname", "")
        name = row.get("name", "") or " ".join(p for p in (first, last) if p)
        out.append(RosterEntry(row.get("sid", ""), name, row.get("email", ""), first_name=first,
                               last_name=last, section=row.get("sections", ""), line=line))
    return out


def read_roster(path: Path) -> Roster:
    """Read a roster in any of the layouts of the module's docstring.

    Raises
    ------
    InputError
        Missing columns, a row without an id, two rows with the same id or e-mail.
    """
    table = read_table(path, "roster")
    if table.has("Identifier", "Full name"):
        layout, entries = "Moodle grading worksheet", _entries_moodle(table)
    elif table.has("Student", "ID", "SIS User ID"):
        layout, entries = "Canvas gradebook export", _entries_canvas(table)
    elif table.has("SID", "Email") and (table.has("Name") or table.has("First Name")):
        layout, entries = "Gradescope roster", _entries_gradescope(table)
    else:
        layout, entries = "id, name, email", _entries_plain(table)
    problems = list(table.problems)
    by_id: dict[str, RosterEntry] = {}
    by_email: dict[str, RosterEntry] = {}
    for e in entries:
        if not e.id:
            problems.append(f"line {e.line}: no id")
            continue
        if e.id in by_id:
            problems.append(f"line {e.line}: the id {e.id} is also on line {by_id[e.id].line}")
        by_id.setdefault(e.id, e)
        if e.email:
            mail = e.email.casefold()
            if mail in by_email:
                problems.append(f"line {e.line}: the e-mail {e.email} is also on line "
                                f"{by_email[mail].line}")
            by_email.setdefault(mail, e)
    if not entries and not problems:
        problems.append("no students (only a header)")
    if problems:
        raise InputError(f"roster {path} ({layout})", problems)
    return Roster(Path(path), table.sha256, layout, entries)


# ------------------------------------------------------------------ matching
def normalise(text: str) -> str:
    """Text compared loosely: no accents, no case, punctuation as spaces, one space."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[\W_]+", " ", plain.casefold()).split())


def _compact(text: str) -> str:
    return normalise(text).replace(" ", "")


def entry_aliases(e: RosterEntry) -> set[str]:
    """What a submission's name may be to match the row ``e`` (normalised)."""
    first, last = e.first_and_last()
    names = {e.name, f"{first} {last}", f"{last} {first}", e.submission, e.email,
             e.email.split("@")[0] if "@" in e.email else "", e.id, e.sis_user_id,
             e.sis_login_id}
    found = {normalise(n) for n in names if n.strip()}
    found |= {_compact(n) for n in (e.name, f"{first}{last}", f"{last}{first}") if n.strip()}
    found.discard("")
    return found


def key_aliases(k: Key) -> set[str]:
    """What a submission is known by (its name, compact, and its id), normalised."""
    name, sid = k
    return {a for a in (normalise(name), _compact(name), normalise(sid)) if a}


def match(roster: Roster, keys: list[Key]) -> RosterMatch:
    """Match every submission (``keys``) to at most one roster row, and say what is left.

    The platform's id decides first; then the names (see the module's docstring).  A
    submission that could be several rows is left unmatched, with the rows named.
    """
    result = RosterMatch()
    by_id = {e.id: e for e in roster.entries}
    taken: dict[int, Key] = {}
    rest = []
    for k in sorted(keys):
        entry = by_id.get(k[1]) if k[1] else None
        if entry is not None and entry.line not in taken:
            result.pairs[k], taken[entry.line] = entry, k
        else:
            rest.append(k)
    index: dict[str, list[RosterEntry]] = defaultdict(list)
    for e in roster.entries:
        for alias in entry_aliases(e):
            index[alias].append(e)
    for k in rest:
        candidates = {e.line: e for a in key_aliases(k) for e in index.get(a, [])}
        free = [e for line, e in sorted(candidates.items()) if line not in taken]
        if len(free) == 1:
            result.pairs[k], taken[free[0].line] = free[0], k
        elif len(free) > 1:
            rows = ", ".join(f"line {e.line} ({e.name or e.id})" for e in free)
            result.unmatched[k] = f"could be any of the roster's {rows}"
        elif candidates:
            line = min(candidates)
            result.unmatched[k] = (f"its roster row (line {line}) is already matched to "
                                   f"{display_key(taken[line])}")
        else:
            result.unmatched[k] = "no roster row has this name, id or e-mail"
    result.missing = [e for e in roster.entries if e.line not in taken]
    return result


def display_key(k: Key) -> str:
    """A student as people read it: ``Ada Lovelace (123456)``, or the name alone."""
    return f"{k[0]} ({k[1]})" if k[1] else k[0]


def find_students(text: str, keys: list[Key], matched: RosterMatch | None = None) -> list[Key]:
    """The students a person's reference to one means (in an adjustments file, say).

    Parameters
    ----------
    text
        ``Ada Lovelace (123456)``, ``123456``, ``Ada Lovelace``, or, with a roster, the
        student's e-mail or roster id.
    keys
        The students of the run.
    matched
        The roster's match, if a roster was given.

    Returns
    -------
    list of (str, str)
        Every student ``text`` could be: exactly one when it is clear.
    """
    wanted = normalise(text)
    exact = [k for k in keys if normalise(display_key(k)) == wanted or (k[1] and k[1] == text)]
    if exact:
        return exact
    if matched is not None:
        by_roster = [k for k, e in matched.pairs.items()
                     if wanted in {normalise(e.email), normalise(e.id), normalise(e.name)}]
        if by_roster:
            return by_roster
    return [k for k in keys if wanted in key_aliases(k)]
