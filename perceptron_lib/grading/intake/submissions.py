"""Find the submitted notebooks in what an instructor downloaded, and who sent each.

Accepted layouts, alone or mixed (see :func:`collect`):

- notebooks directly in the folder: the file's stem is the student;
- a subfolder per student: Moodle's "Download submissions in folders" names each
  ``Full Name_123456_assignsubmission_file_`` (the student is the full name and the
  participant id); any other subfolder name is taken as the student's name;
- Moodle's flat files, ``Full Name_123456_assignsubmission_file_notebook.ipynb``;
- Canvas's files, ``lastnamefirstname_userid_submissionid_notebook.ipynb``, with
  ``_LATE`` after the name for a late submission and ``-1``, ``-2``... after the file's
  name when the student uploaded a file of that name again;
- ``.zip`` files holding any of these (Moodle's and Canvas's bulk downloads), either in
  the folder or given as the path itself.  A zip inside a student's submission is read
  too; archives nested deeper are refused;
- a zip of a plain name (not a platform's) among the files, such as ``alice.zip``: the
  archive of the student its stem names, everything in it that student's.  It is read
  as a bulk download only if everything at its top is named as the platforms name
  submissions and nothing beside it is a student's own file; a zip of platform names
  beside students' files, or of platform names mixed with others, is refused (a
  student's zip must never put a file in a classmate's name).

Every notebook to grade is copied, read once and with a size limit, into a temporary
folder that :meth:`Intake.close` deletes: later stages read the intake's copy, never
what a student sent.  Nothing is followed out of a submission: links, devices, FIFOs,
sockets and files with more than one name are refused for the student they sit with
(see :mod:`.tree`).  Zips are read member by member, never extracted.  An archive with
a member whose path leaves the archive's folder, a symbolic link, more than
:data:`MAX_MEMBERS` members or more than :data:`MAX_ARCHIVE_BYTES` bytes once
uncompressed is refused as a whole, with a message naming the archive and the member.
"""


from __future__ import annotations

import os
import shutil
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from ..assignments import ASSIGNMENTS
from . import scratch
from .names import Named, Student, as_text, name_text, parse_name
from .notebook import named_assignment
from .tree import (
    ARCHIVE,
    MAX_ARCHIVE_BYTES,
    MAX_NESTING,
    MAX_NOTEBOOK_BYTES,
    MIB,
    NOTEBOOK,
    Refused,
    UnsafeArchive,
    _Budget,
    _Node,
    _size,
    _suffix,
    _zip_tree,
    check_archive,
    disk_root,
    measure,
)


class IntakeError(Exception):
    """SUBMISSIONS cannot be read at all (it does not exist, or is neither folder nor zip)."""


@dataclass
class Submission:
    """One student's submission: the notebook to grade, or why there is none.

    Attributes
    ----------
    student
        Who sent it.
    path
        The notebook to grade: the intake's own copy, in its temporary folder, of the
        file or archive member found (later stages never read what the student
        sent); None when the student sent no gradable notebook.
    source
        Where the graded notebook was found, relative to SUBMISSIONS (``a.zip: x/y``
        for an archive's member).
    layout
        How the student was recognised: ``plain file`` (the stem), ``student folder``,
        ``student archive`` (a zip's stem), ``Moodle folder``, ``Moodle file`` or
        ``Canvas file``.
    notes
        What the instructor should know: a late submission, several notebooks and which
        one was graded.
    problem
        Why there is nothing to grade, when ``path`` is None.
    """

    student: Student
    path: Path | None
    source: str
    layout: str
    notes: list[str] = field(default_factory=list)
    problem: str = ""


@dataclass
class _Found:
    """A candidate notebook (or a refused one) before one is chosen per student."""

    named: Named
    where: str
    path: Path | None = None
    mtime: float = 0.0
    problem: str = ""
    other: str = ""  # the name of a file that is not a notebook
    notes: tuple[str, ...] = ()  # the names on the way to it that are guesses


# ------------------------------------------------------------------ the intake
class Intake:
    """The submissions found under a path; a context manager that deletes its copies.

    Use :func:`collect` to make one.

    Attributes
    ----------
    root
        What was read (a folder or a zip).
    submissions
        One per student, sorted by student.
    skipped
        How many files of other types were seen, by suffix (``""`` for none).
    archives
        How many archives were read.
    refused
        The archives refused as a whole, with the reason (their students are missing).
    staging
        The temporary folder holding the copies of the notebooks found, if any.
    """

    def __init__(self, root: Path, assignment: str | None = None,
                 choices: dict[str, str] | None = None,
                 remembered: dict[str, str] | None = None) -> None:
        self.root = root
        self.choices = dict(choices or {})
        self.remembered = dict(remembered or {})
        self.chosen: set[str] = set()  # the keys of ``choices`` that named a student
        self.label = name_text(os.fsencode(root))[0]  # the root, as text to show
        self.assignment = assignment
        self.submissions: list[Submission] = []
        self.skipped: Counter[str] = Counter()
        self.archives = 0
        self.refused: list[str] = []
        self.staging: Path | None = None
        self._found: dict[Student, list[_Found]] = defaultdict(list)
        self._folders: dict[Student, _Found] = {}  # a student's folder, even if empty
        self._open: list[zipfile.ZipFile | BinaryIO] = []
        self._copies = 0

    def __enter__(self) -> Intake:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the archives and delete the temporary folder."""
        for archive in reversed(self._open):
            archive.close()
        self._open.clear()
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None

    @property
    def notebooks(self) -> int:
        """How many submissions have a notebook to grade."""
        return sum(s.path is not None for s in self.submissions)

    def summary(self) -> str:
        """One line: what was found where, and what was left aside."""
        layouts = Counter(s.layout for s in self.submissions)
        kinds = ", ".join(f"{n} {layout}{'s' * (n != 1)}" for layout, n in sorted(layouts.items()))
        line = f"{self.label}: {len(self.submissions)} submissions"
        if kinds:
            line += f" ({kinds})"
        if self.archives:
            line += f", from {self.archives} archive{'s' * (self.archives != 1)}"
        if self.skipped:
            line += f"; ignored {self._others()}"
        return line

    def nothing_found(self) -> str:
        """The message for a path in which no notebook was found."""
        lines = [
            f"no submitted notebooks found in {self.label}",
            "looked for *.ipynb files: directly in it (the file's stem is the student), "
            "in a subfolder per student (such as Moodle's "
            "'Full Name_123456_assignsubmission_file_'), named as Moodle's "
            "('Full Name_123456_assignsubmission_file_NAME.ipynb') and Canvas's "
            "('lastnamefirstname_USERID_SUBMISSIONID_NAME.ipynb') downloads name them, "
            "and inside .zip files",
            f"read {self.archives} archive{'s' * (self.archives != 1)}; saw "
            + (self._others() if self.skipped else "no other files"),
        ]
        lines += [f"refused {r}" for r in self.refused]
        return "\n".join(lines)

    def _others(self) -> str:
        total = sum(self.skipped.values())
        kinds = ", ".join(f"{n} {suffix or 'without suffix'}"
                          for suffix, n in self.skipped.most_common())
        return f"{total} other file{'s' * (total != 1)} ({kinds})"

    # -------------------------------------------------------------- walking
    def _read_root(self) -> None:
        """Read the folder or zip the instructor gave (itself a link, maybe: followed)."""
        root, label = self.root, self.label
        real = Path(os.path.realpath(root))
        if real.is_dir():
            try:
                tree = disk_root(real)
            except Exception as exc:  # the folder given itself: nothing can be read
                raise IntakeError(f"{label} cannot be read: {_reason(exc)}") from exc
            self._container(tree)
        elif real.is_file() and _suffix(real.name) == ARCHIVE:
            name = name_text(os.fsencode(root.name))[0]
            given = _Node(name, name, path=real, seen=os.stat(real))
            try:
                self._archive(given, None, 1, _Budget(), given=True)
            except Exception as exc:
                self._refuse(given, _reason(exc), None)
        elif real.is_file():
            raise IntakeError(f"{label} is neither a folder nor a .zip file")
        else:
            raise IntakeError(f"{label} does not exist")

    def _container(self, node: _Node, depth: int = 1, budget: _Budget | None = None) -> None:
        """A folder of submissions (the root, an archive, or a folder that holds both)."""
        entries = node.entries()
        if len(entries) == 1 and self._wraps(entries[0]):
            self._container(entries[0], depth, budget)
            return
        plain_zips = any(_suffix(e.name) == ARCHIVE and parse_name(e.name) is None
                         for e in entries)
        among_own = plain_zips and self._holds_own(entries)
        for entry in entries:
            try:
                self._container_entry(entry, depth, budget, among_own)
            except Exception as exc:  # whatever went wrong concerns this entry only
                self._refuse(entry, _reason(exc), _claimant(entry))

    def _container_entry(self, entry: _Node, depth: int, budget: _Budget | None,
                         among_own: bool) -> None:
        """One entry of a folder of submissions: whose it is, by its name, and read it.

        ``among_own`` says whether the folder holds students' own files (plain notebooks,
        student folders): a zip of platform-named submissions beside them is refused.
        """
        if entry.refusal:
            self._refuse(entry, entry.refusal, _claimant(entry))
            return
        if entry.is_folder:
            named = parse_name(entry.name, True)
            if named is not None:
                self._submission_folder(entry, named, depth, budget)
            elif self._holds_named(entry):
                self._container(entry, depth, budget)
            else:
                self._submission_folder(entry, Named(Student(entry.name), "student folder"),
                                        depth, budget)
            return
        named = parse_name(entry.name)
        suffix = _suffix(entry.name)
        if suffix == NOTEBOOK:
            self._notebook(entry, named or Named(Student(PurePosixPath(entry.name).stem),
                                                 "plain file"))
        elif suffix == ARCHIVE:
            self._archive(entry, named, depth, budget, among_own=among_own)
        else:
            self._other(entry, named)

    def _holds_own(self, entries: list[_Node]) -> bool:
        """Whether a folder's entries include a student's own files: a notebook or a
        folder of a plain name (not a platform's), the folder holding no platform names
        (a folder that cannot be listed counts as a student's)."""
        for entry in entries:
            if parse_name(entry.name, entry.is_folder) is not None:
                continue
            if _suffix(entry.name) == NOTEBOOK and not entry.is_folder:
                return True
            if entry.is_folder and not self._holds_named(entry):
                return True
        return False

    @staticmethod
    def _holds_named(node: _Node) -> bool:
        """Whether a folder holds platform-named entries (False if it cannot be listed:
        it is then read, and refused, as one student's)."""
        try:
            return any(parse_name(e.name, e.is_folder) is not None for e in node.entries())
        except Exception:
            return False

    @staticmethod
    def _wraps(node: _Node) -> bool:
        """A lone folder that wraps submissions (folders, or several notebooks or zips);
        False if it cannot be listed."""
        if not node.is_folder or parse_name(node.name, True) is not None:
            return False
        try:
            inside = node.entries()
        except Exception:
            return False
        files = [e for e in inside if _suffix(e.name) in (NOTEBOOK, ARCHIVE)]
        return any(e.is_folder for e in inside) or len(files) > 1

    def _submission_folder(self, node: _Node, named: Named, depth: int,
                           budget: _Budget | None) -> None:
        """One student's folder: listed whole first (:func:`.tree.measure`, refused if it
        holds too much), then read; whatever fails is that student's problem."""
        self._found.setdefault(named.student, [])  # a refused folder still gets a row
        try:
            measure(node)
            self._owned(node, named, depth, budget)
        except Exception as exc:
            self._refuse(node, _reason(exc), named)

    def _owned(self, node: _Node, named: Named, depth: int, budget: _Budget | None) -> None:
        """Everything under a folder (or archive) that one student sent."""
        self._found.setdefault(named.student, [])  # an empty folder still gets a row
        self._folders.setdefault(named.student, _Found(named, node.where, notes=node.notes))
        for entry in node.entries():
            try:
                self._owned_entry(entry, named, depth, budget)
            except Exception as exc:  # whatever went wrong concerns this entry only
                self._refuse(entry, _reason(exc), named)

    def _owned_entry(self, entry: _Node, named: Named, depth: int,
                     budget: _Budget | None) -> None:
        """One file or folder that ``named`` sent."""
        if entry.refusal:
            self._refuse(entry, entry.refusal, named)
        elif entry.is_folder:
            self._owned(entry, named, depth, budget)
        elif _suffix(entry.name) == NOTEBOOK:
            self._notebook(entry, named)
        elif _suffix(entry.name) == ARCHIVE:
            self._archive(entry, named, depth, budget)
        else:
            self._other(entry, named)

    def _other(self, entry: _Node, named: Named | None) -> None:
        self.skipped[_suffix(entry.name)] += 1
        if named is not None:  # the student is known: a row says what came instead
            self._found[named.student].append(_Found(named, entry.where, other=entry.name,
                                                     notes=entry.notes))

    def _notebook(self, entry: _Node, named: Named) -> None:
        """A notebook of ``named``'s, copied into the temporary folder (or refused)."""
        found = _Found(named, entry.where, notes=entry.notes)
        self._found[named.student].append(found)
        try:
            size = entry.size
            if size > MAX_NOTEBOOK_BYTES:
                raise ValueError(f"{_size(size)}, more than the {_size(MAX_NOTEBOOK_BYTES)} "
                                 "a notebook may have")
            found.mtime = entry.mtime
            found.path = self._copy(entry)
        except Exception as exc:  # an unreadable member or file concerns this student only
            found.path = None
            found.problem = f"refused {entry.where}: {_reason(exc)}"

    def _copy(self, entry: _Node, limit: int | None = None, suffix: str = NOTEBOOK) -> Path:
        """Copy a file or an archive's member into the temporary folder, reading it once
        and at most ``limit`` bytes (:data:`MAX_NOTEBOOK_BYTES` by default)."""
        limit = MAX_NOTEBOOK_BYTES if limit is None else limit
        if self.staging is None:
            self.staging = scratch.folder("intake-")
        self._copies += 1
        target = self.staging / f"{self._copies:05d}{suffix}"
        when = "once read" if entry.member is None else "once uncompressed"
        with entry.open() as src, open(target, "wb") as dst:
            _copy_at_most(src, dst, limit, when)
        return target

    def _archive(self, entry: _Node, owner: Named | None, depth: int,
                 budget: _Budget | None, given: bool = False, among_own: bool = False) -> None:
        """Read a zip: its student's if ``owner`` names one, else see :func:`_zip_owner`.

        ``given`` is the zip the instructor gave as SUBMISSIONS: a folder of submissions,
        whatever it holds; any other zip on disk is read from the very file listed.
        ``among_own``: the folder holding the zip holds students' own files.
        """
        if depth > MAX_NESTING:
            self._refuse(entry, "an archive inside an archive inside an archive "
                         "(only one level of nesting is read)", owner)
            return
        if entry.refusal:
            self._refuse(entry, entry.refusal, owner)
            return
        budget = budget if budget is not None else _Budget()
        try:
            archive = self._open_zip(entry, given)
        except Exception as exc:
            self._refuse(entry, f"not a readable zip file: {_reason(exc)}", owner)
            return
        self.archives += 1
        try:
            check_archive(archive, entry.where, budget)
        except UnsafeArchive as exc:
            self._refuse(entry, str(exc).removeprefix(f"{entry.where}: "), owner)
            return
        tree = _zip_tree(archive, entry.where, entry.notes)
        if owner is None and not given:
            owner, why = _zip_owner(entry.name, tree, among_own)
            if why:
                self._refuse(entry, why, None)
                return
        if owner is not None:
            self._owned(tree, owner, depth + 1, budget)
        else:
            self._container(tree, depth + 1, budget)

    def _open_zip(self, entry: _Node, given: bool) -> zipfile.ZipFile:
        """Open a zip: a member is copied out first, a file is read from one descriptor."""
        if entry.member is not None:
            source: Path | BinaryIO = self._copy(entry, MAX_ARCHIVE_BYTES, ARCHIVE)
        else:
            source = open(entry.path, "rb") if given else entry.open()
            self._open.append(source)
        archive = zipfile.ZipFile(source)
        self._open.append(archive)
        return archive

    def _refuse(self, entry: _Node, why: str, owner: Named | None) -> None:
        """Refuse ``entry``: a problem of ``owner``'s, or of the whole folder if None."""
        why = as_text(why)
        if owner is None:
            self.refused.append(f"{entry.where}: {why}")
        else:
            self._found[owner.student].append(_Found(
                owner, entry.where, problem=f"refused {entry.where}: {why}",
                notes=entry.notes))

    # -------------------------------------------------------------- choosing
    def _choose_all(self) -> None:
        """One submission per student; a failure to choose is that student's problem."""
        self.submissions = []
        for student, found in sorted(self._found.items()):
            try:
                chosen = self._choose(student, found)
            except Exception as exc:
                first = found[0] if found else self._folders[student]
                chosen = Submission(student, None, first.where, first.named.layout,
                                    problem=f"could not choose a notebook: {_reason(exc)}")
            self.submissions.append(chosen)

    def _choice(self, student: Student) -> tuple[str | None, bool]:
        """The notebook the instructor chose for ``student``, if any: given now
        (``--choose``, True) or in an earlier run (False)."""
        for key in student.keys():
            if key in self.choices:
                self.chosen.add(key)
                return self.choices[key], True
        return self.remembered.get(str(student)), False

    def _choose(self, student: Student, found: list[_Found]) -> Submission:
        """The student's row: the notebook to grade and the notes, or the problem."""
        usable = [f for f in found if f.path is not None]
        problems = [f.problem for f in found if f.problem]
        folder = [self._folders[student]] if student in self._folders else []
        guesses = list(dict.fromkeys(n for f in folder + found for n in f.notes))
        if not usable:
            others = [f.other for f in found if f.other]
            if not problems:
                problems = ["no notebook in the submission" + (
                    f" (found: {', '.join(others[:5])}{', ...' * (len(others) > 5)})"
                    if others else " (an empty folder)")]
            first = found[0] if found else self._folders[student]
            return Submission(student, None, first.where, first.named.layout,
                              notes=problems[1:] + guesses, problem=problems[0])
        choice, given = self._choice(student)
        best, why = _choose_notebook(usable, self.assignment, choice, given)
        if best is None:
            return Submission(student, None, usable[0].where, usable[0].named.layout,
                              notes=problems + guesses, problem=why)
        notes = ["submitted late (Canvas marks the file LATE)"] if best.named.late else []
        if len(usable) > 1:
            rest = ", ".join(f.where for f in usable if f is not best)
            notes.append(f"{len(usable)} notebooks: graded {best.where} ({why}); "
                         f"not graded: {rest}")
        notes += problems + guesses
        return Submission(student, best.path, best.where, best.named.layout, notes)


#: How the status of a student with several notebooks and no way to tell which to grade
#: begins: such a row is graded only once the instructor chooses (``--choose``).
SEVERAL = "several notebooks"


def _file_name(f: _Found) -> str:
    return f.where.rsplit("/", 1)[-1].rsplit(": ", 1)[-1]


def _chosen(found: list[_Found], choice: str) -> _Found | None:
    """The notebook ``choice`` names: its file name, or the end of where it was found."""
    named = [f for f in found if choice in (_file_name(f), f.where) or f.where.endswith(
        "/" + choice) or f.where.endswith(": " + choice)]
    return named[0] if len(named) == 1 else None


#: The reason given for a notebook the instructor chose.
CHOSEN = "chosen with --choose"


def _choose_notebook(found: list[_Found], assignment: str | None,
                     choice: str | None = None,
                     given: bool = True) -> tuple[_Found | None, str]:
    """Pick one of a student's notebooks and say why, or say why none can be picked.

    In order: the instructor's ``choice`` (``--choose`` now, or in an earlier run when
    ``given`` is False: such a choice that names none of the notebooks any more is
    forgotten); the only notebook; the only
    one whose metadata names ``assignment`` (or, without one, any of the course's
    assignments); among those, Canvas's latest upload (the highest ``-N`` suffix, which
    Canvas adds when a file of that name is uploaded again).  Modification times are not
    used: Moodle's and Canvas's downloads stamp every file with the time of the
    download.  When nothing recorded tells the notebooks apart, none is picked (None),
    and the reason starts with :data:`SEVERAL`.
    """
    listed = ", ".join(f.where for f in found)
    if len(found) == 1:
        return found[0], "the only one"
    picked = _chosen(found, choice) if choice is not None else None
    if picked is not None:
        return picked, CHOSEN
    if choice is not None and given:
        return None, (f"{SEVERAL}: --choose names {choice!r}, which is not one of them "
                      f"({listed})")
    names = {id(f): _named_assignment(f.path) for f in found}
    if assignment:
        fitting = [f for f in found if names[id(f)] == assignment]
        which = f"that names {assignment}"
    else:
        fitting = [f for f in found if names[id(f)] in ASSIGNMENTS]
        which = "that names one of the course's assignments"
    if len(fitting) == 1:
        return fitting[0], f"the only one {which}"
    pool = fitting or found
    versions = sorted((f.named.version for f in pool), reverse=True)
    canvas = all(f.named.layout == "Canvas file" for f in pool)
    if canvas and versions[0] > versions[1]:
        best = max(pool, key=lambda f: f.named.version)
        return best, f"Canvas's latest upload (-{best.named.version})"
    return None, (f"{SEVERAL} ({listed}) and nothing recorded says which is the last: "
                  "choose one with --choose 'STUDENT=FILE'")


def _claimant(entry: _Node) -> Named | None:
    """Whose a refused entry of a folder of submissions is, as far as its name tells:
    a platform's name, a notebook's stem, a folder-like name (no suffix); None for an
    archive or another file, which are then refused for the whole folder."""
    named = parse_name(entry.name, True) or parse_name(entry.name)
    if named is not None:
        return named
    suffix = _suffix(entry.name)
    if suffix == NOTEBOOK:
        return Named(Student(PurePosixPath(entry.name).stem), "plain file")
    if not suffix:
        return Named(Student(entry.name), "student folder")
    return None


def _zip_owner(name: str, tree: _Node, among_own: bool) -> tuple[Named | None, str]:
    """Whose a zip of a plain name found in a folder is, or why it is refused.

    A zip with no platform-named notebook, archive or folder at its top (below a lone
    folder that wraps them) is the archive of the student its stem names.  A zip of
    platform-named entries only is a platform's bulk download, read as a folder of
    submissions, unless it sits among students' own files.  Anything else is refused:
    read as a download, a student's zip could put a file in a classmate's name.

    Returns
    -------
    (Named or None, str)
        The student (None for a bulk download), and "" or why the zip is refused.
    """
    entries = tree.entries()
    while len(entries) == 1 and Intake._wraps(entries[0]):
        entries = entries[0].entries()
    platform, plain = [], []
    for entry in entries:
        if entry.is_folder or _suffix(entry.name) in (NOTEBOOK, ARCHIVE):
            is_named = parse_name(entry.name, entry.is_folder) is not None
            (platform if is_named else plain).append(entry.name)
    if not platform:
        return Named(Student(PurePosixPath(name).stem), "student archive"), ""
    if plain:
        return None, (f"holds both platform-named submissions ({platform[0]}) and other "
                      f"notebooks or folders ({plain[0]}): neither a platform's download "
                      "nor one student's archive")
    if among_own:
        return None, ("holds platform-named submissions but sits among students' own "
                      "files: give it to the grader on its own")
    return None, ""


def _copy_at_most(src: BinaryIO, dst: BinaryIO, limit: int, when: str) -> None:
    """Copy ``src`` to ``dst``, reading at most ``limit + 1`` bytes; ValueError if more
    (``when``, such as "once uncompressed", ends the message)."""
    copied = 0
    while chunk := src.read(min(MIB, limit + 1 - copied)):
        copied += len(chunk)
        if copied > limit:
            raise ValueError(f"more than {_size(limit)} {when}")
        dst.write(chunk)


def _named_assignment(path: Path) -> str | None:
    """The assignment a notebook names, or None when that cannot be known."""
    try:
        return named_assignment(path)
    except Exception:
        return None


def _reason(exc: BaseException) -> str:
    """An exception in words, as valid text."""
    text = as_text(str(exc))
    if not text:
        return type(exc).__name__
    plain = isinstance(exc, (ValueError, Refused, UnsafeArchive))
    return text if plain else f"{type(exc).__name__}: {text}"


def collect(root: Path | str, assignment: str | None = None,
            choices: dict[str, str] | None = None,
            remembered: dict[str, str] | None = None) -> Intake:
    """Find every student's submission under ``root`` (a folder or a zip).

    Parameters
    ----------
    root
        The folder or zip the instructor downloaded (see the module's docstring for
        the layouts read).
    assignment
        The assignment being graded, if known: a student with several notebooks is
        graded on the one whose metadata names it.
    choices
        The instructor's choice of notebook for students with several
        (``--choose STUDENT=FILE``): the student as ``Name (id)``, the name or the id,
        to the file's name (or the end of its path).
    remembered
        The choices of earlier runs, the student as ``Name (id)`` to where the chosen
        notebook was found; ``choices`` win, and a remembered choice that names none of
        the student's notebooks now is dropped.

    Returns
    -------
    Intake
        Use it as a context manager (or call :meth:`Intake.close`): the copies of the
        notebooks live in a temporary folder until then.  Whatever fails while reading
        one file, folder or archive is refused for that entry (a student's problem,
        or one of :attr:`Intake.refused`), never for the class.

    Raises
    ------
    IntakeError
        ``root`` itself does not exist, is neither a folder nor a zip, or cannot be
        listed.
    """
    intake = Intake(Path(root), assignment, choices, remembered)
    try:
        intake._read_root()
        intake._choose_all()
    except BaseException:
        intake.close()
        raise
    return intake
