"""The class roster: who is in the course, under the ids the learning platforms use.

``--roster FILE`` is a CSV file in one of the layouts of :mod:`.platforms`, recognised by
its header: Canvas's gradebook export, an assignment's Moodle grading worksheet,
Gradescope's roster (or score export), or the grader's own ``id, name, email``.  Every
problem of the file is listed at once, each with its line: bad quoting, a row with more
cells than the header, a row without an id, two rows with the same id or e-mail, and
what the layout's reader finds (a Canvas ID that is not a number, a Moodle Identifier
that is not ``Participant 123456``...).  Rows that are not students (Canvas's Test
Student, Gradescope's staff) are left out and named.

Each submission is matched to one roster row (:func:`match`): by the id the intake read
from Moodle's or Canvas's file names, where the roster's ids are of the same kind (a
Moodle worksheet's participant ids for Moodle's names, a Canvas export's user ids for
Canvas's; the grader's own layout's ids for any); else by the name of the notebook or
folder against the row's name (accents, case and punctuation aside; Canvas's
``lastnamefirstname`` included), e-mail (or the part before the ``@``), id or
``submission``.  A submission whose platform id is not in a roster of that platform is
not matched by its name: the id is the platform's word on who sent it, and a row of the
same name with another id is another student (or the roster is another assignment's,
which :mod:`.idcheck` refuses).  A submission that matches no row, or several, and a row
that no submission matches, are all reported: none is dropped without a word.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .platforms import READERS
from .roster_rows import Roster, RosterEntry, Sheet
from .tables import InputError, read_table

__all__ = ["Key", "Roster", "RosterEntry", "RosterMatch", "display_key", "entry_aliases",
           "find_students", "key_aliases", "match", "normalise", "read_roster"]

Key = tuple[str, str]  # (name, id): a student as the gradebook knows them

#: What each platform's roster calls its id, for messages.
ID_NAMES = {"canvas": "ID", "moodle": "Identifier", "gradescope": "SID or Email", "": "id"}


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
def _line(problem: str) -> float:
    """The line a problem is on (those of the whole file last), to list them in order."""
    found = re.match(r"line (\d+)", problem)
    return int(found[1]) if found else float("inf")


def _common(sheet: Sheet) -> list[str]:
    """The problems every layout shares: a row without an id (unless the layout's reader
    said why already), an id or e-mail twice."""
    said = {_line(p) for p in sheet.problems}
    problems = []
    by_id: dict[str, RosterEntry] = {}
    by_email: dict[str, RosterEntry] = {}
    for e in sheet.entries:
        if not e.id:
            if e.line not in said:
                problems.append(f"line {e.line}: no {ID_NAMES[sheet.platform]}")
            continue
        if e.id in by_id:
            problems.append(f"line {e.line}: the id {e.id} is also on line {by_id[e.id].line}")
        by_id.setdefault(e.id, e)
        if e.email:
            mail = e.email.casefold()
            if mail in by_email and by_email[mail].id != e.id:
                problems.append(f"line {e.line}: the e-mail {e.email} is also on line "
                                f"{by_email[mail].line}")
            by_email.setdefault(mail, e)
    return problems


def read_roster(path: Path) -> Roster:
    """Read a roster in any of the layouts of :mod:`.platforms`.

    Raises
    ------
    InputError
        Every problem of the file, each with its line (see the module's docstring).
    """
    table = read_table(path, "roster")
    reader = next(r for r in READERS if r.recognises(table))
    try:
        sheet = reader.read(table)
    except InputError as exc:  # a column missing: the rows cannot be read
        raise InputError(exc.what, exc.problems + table.problems) from exc
    problems = sorted(table.problems + sheet.problems + _common(sheet), key=_line)
    if not sheet.entries and not problems:
        problems.append("no students (only a header)" if not sheet.left_out else
                        "no students: " + "; ".join(sheet.left_out))
    if problems:
        raise InputError(f"roster {path} ({sheet.layout})", problems)
    return Roster(Path(path), table.sha256, sheet.layout, sheet.entries, sheet.platform,
                  sheet.left_out, sheet.maximum, sheet.columns, sheet.scale)


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


def key_aliases(k: Key, with_id: bool = True) -> set[str]:
    """What a submission is known by (its name, compact, and its id unless ``with_id``
    is False), normalised."""
    name, sid = k
    return {a for a in (normalise(name), _compact(name), normalise(sid) if with_id else "")
            if a}


#: What a platform calls the ids of its file names, for messages.
ID_KINDS = {"moodle": "Moodle participant id", "canvas": "Canvas user id"}


def _how(roster: Roster, k: Key, kinds: dict[Key, str] | None) -> str:
    """How the submission ``k`` may be matched: ``"id"`` (by its id only: the roster
    is of the platform whose names gave the id), ``"any"`` (by its id, then its name),
    ``"name"`` (by its name only: its id is another platform's)."""
    if kinds is None or not roster.platform:
        return "any"
    kind = kinds.get(k, "")
    if kind and kind == roster.platform:
        return "id"
    return "name" if kind else "any"


def match(roster: Roster, keys: list[Key], kinds: dict[Key, str] | None = None) -> RosterMatch:
    """Match every submission (``keys``) to at most one roster row, and say what is left.

    Parameters
    ----------
    roster
        The roster.
    keys
        The students of the run.
    kinds
        The platform whose file names gave each student's id (``"moodle"``,
        ``"canvas"``, or ``""``), as the intake read them; None to take every id as
        the roster's kind.

    The platform's id decides first; then the names (see the module's docstring).  A
    submission that could be several rows is left unmatched, with the rows named.
    """
    result = RosterMatch()
    by_id = {e.id: e for e in roster.entries}
    taken: dict[int, Key] = {}
    rest = []
    for k in sorted(keys):
        how = _how(roster, k, kinds)
        entry = by_id.get(k[1]) if k[1] and how != "name" else None
        if entry is not None and entry.line not in taken:
            result.pairs[k], taken[entry.line] = entry, k
        else:
            rest.append((k, how))
    index: dict[str, list[RosterEntry]] = defaultdict(list)
    for e in roster.entries:
        for alias in entry_aliases(e):
            index[alias].append(e)
    for k, how in rest:
        candidates = {e.line: e for a in key_aliases(k, how == "any") for e in index.get(a, [])}
        free = [e for line, e in sorted(candidates.items()) if line not in taken]
        if how == "id" and k[1] in by_id:
            line = by_id[k[1]].line
            result.unmatched[k] = (f"its roster row (line {line}) is already matched to "
                                   f"{display_key(taken[line])}")
        elif how == "id":
            result.unmatched[k] = _not_in_roster(roster, k, free)
        elif len(free) == 1:
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


def _not_in_roster(roster: Roster, k: Key, namesakes: list[RosterEntry]) -> str:
    """Why a submission with its platform's id is not matched: the id is not there."""
    what = ID_KINDS.get(roster.platform, "id")
    why = f"its {what} {k[1]} (from the file names) is not in the roster"
    if namesakes:
        rows = ", ".join(f"line {e.line} ({e.name}, {e.id})" for e in namesakes)
        why += (f"; {rows} has its name with another id: another student, so neither is "
                "matched to the other")
    return why


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
