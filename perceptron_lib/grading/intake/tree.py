"""The files to read, on disk or in a zip, as one tree; archives checked before reading.

On disk, nothing is followed out of the folder the instructor gave: a symbolic link
(to a device, a folder, the solutions, a classmate's notebook), a device, a FIFO, a
socket and a file with more than one name (a hard link) are listed, never opened, and
refused with a message (:func:`_refusal`).  A file that is read is opened without
following links, from the very file the listing saw (:func:`_open_seen`), and read
once.  The folder given may itself be a link: that one is resolved.  A folder is
listed when first needed, and a hostile folder costs little: a folder more than
:data:`MAX_DEPTH` levels deep is not listed, one student's folders may hold at most
:data:`MAX_MEMBERS` files and folders together (:func:`measure`), any one folder as
many, and the whole walk at most :data:`MAX_WALKED`; each is refused with a message.

Zips are read member by member, never extracted.  An archive with a member whose path
leaves the archive's folder, a symbolic link, a member more than :data:`MAX_DEPTH`
levels deep, more than :data:`MAX_MEMBERS` members or more than
:data:`MAX_ARCHIVE_BYTES` bytes once uncompressed is refused as a whole, with a message
naming the archive and the member.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from .names import name_text

MIB = 1024**2
#: The most bytes an archive may hold once uncompressed, nested archives included.
MAX_ARCHIVE_BYTES = 200 * MIB
#: The most members an archive may hold, nested archives included.
MAX_MEMBERS = 5_000
#: The largest notebook read, from a folder or from an archive.
MAX_NOTEBOOK_BYTES = 20 * MIB
#: How deep archives may sit: a zip in the folder (1) may hold a student's zip (2).
MAX_NESTING = 2
#: How many names a path may have below the folder given, or inside an archive.
MAX_DEPTH = 20
#: The most files and folders listed in the folder given, all submissions together.
MAX_WALKED = 20 * MAX_MEMBERS

NOTEBOOK = ".ipynb"
ARCHIVE = ".zip"
JUNK = {"__MACOSX", "Thumbs.db", "desktop.ini"}

class UnsafeArchive(Exception):
    """An archive refused as a whole; the message names the archive and the member."""


@dataclass
class _Budget:
    """What one archive given by the instructor may still hold, nested archives included."""

    bytes: int = field(default_factory=lambda: MAX_ARCHIVE_BYTES)
    members: int = field(default_factory=lambda: MAX_MEMBERS)


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB else f"{n} bytes"


def _is_junk(name: str) -> bool:
    return name.startswith(".") or name in JUNK or name.startswith("~$")


def _suffix(name: str) -> str:
    return PurePosixPath(name).suffix.lower()


# ------------------------------------------------------------------ the tree to walk
class Refused(Exception):
    """A file or folder that is not read; the message says why (not where)."""


class _TooMany(Refused):
    """A folder that holds more entries than it may."""


class _WalkOver(Refused):
    """The folder given holds more files and folders than :data:`MAX_WALKED`."""


@dataclass
class _Walk:
    """How many more files and folders a walk of the folder given may list."""

    left: int = field(default_factory=lambda: MAX_WALKED)

    def take(self) -> None:
        """Count one more entry listed; :class:`_WalkOver` when there is none left."""
        if self.left <= 0:
            raise _WalkOver(f"the submissions folder holds more than {MAX_WALKED} files and "
                            "folders; the rest is not read")
        self.left -= 1


@dataclass(eq=False)
class _Node:
    """A file or folder, on disk or in an archive, with a readable location.

    ``name`` and ``where`` are text to show (see :func:`.names.name_text`); ``path`` is
    the real one.  ``notes`` say which names on the way here are guesses.  A folder on
    disk is listed when its entries are first asked for.  An entry that is not read (a
    link, a device...) is a file whose ``refusal`` says why.
    """

    name: str
    where: str
    notes: tuple[str, ...] = ()
    children: dict[str, _Node] | None = None  # a folder's, once listed
    folder: bool = False
    path: Path | None = None  # on disk
    seen: os.stat_result | None = None  # on disk: what the listing saw (never followed)
    refusal: str = ""  # why it is not read ("" when it may be)
    member: zipfile.ZipInfo | None = None  # a file in ``archive``
    archive: zipfile.ZipFile | None = None
    depth: int = 0  # on disk: how many names its path has below the folder given
    walk: _Walk | None = None  # on disk: the walk it belongs to

    @property
    def is_folder(self) -> bool:
        return self.folder

    def listing(self, limit: int | None = None) -> dict[str, _Node]:
        """All the folder's entries, junk included, listed on first use (at most
        ``limit``, :data:`MAX_MEMBERS` by default; :class:`Refused` beyond)."""
        if self.children is None:
            limit = MAX_MEMBERS if limit is None else limit
            self.children = _list_folder(self, limit) if self.folder else {}
        return self.children

    def entries(self) -> list[_Node]:
        """The folder's entries to read (no junk), sorted by name."""
        return [c for _, c in sorted(self.listing().items()) if not _is_junk(c.name)]

    @property
    def size(self) -> int:
        if self.member is not None:
            return self.member.file_size
        return self.seen.st_size

    @property
    def mtime(self) -> float:
        if self.member is not None:
            try:
                return datetime(*self.member.date_time).timestamp()
            except ValueError:
                return 0.0
        return self.seen.st_mtime

    def open(self) -> BinaryIO:
        """The file's bytes: an archive's member, or the very file the listing saw."""
        if self.refusal:
            raise Refused(self.refusal)
        if self.member is not None:
            return self.archive.open(self.member)
        return os.fdopen(_open_seen(self.path, self.seen), "rb")


# ------------------------------------------------------------------ files on disk
#: What a file that is neither a regular file, a folder nor a link is, in words.
_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))
#: How many characters of a link's target a message shows.
_TARGET_CHARS = 200


def _refusal(st: os.stat_result, target: str = "") -> str:
    """Why the file or folder whose own (never followed) status is ``st`` is not read.

    A symbolic link, a device, a FIFO, a socket, and a regular file with more than one
    name (a hard link: the same bytes as a file elsewhere, a classmate's or the
    solutions) are refused; "" for a folder or a regular file with one name.
    """
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        return f"a symbolic link (to {target}); links are not followed"
    if stat.S_ISDIR(mode):
        return ""
    if not stat.S_ISREG(mode):
        kind = next((what for test, what in _KINDS if test(mode)), "not a regular file")
        return f"{kind}, not a regular file; not read"
    if st.st_nlink > 1:
        return (f"a file with {st.st_nlink} names (hard links); a file that has a name "
                "elsewhere is not read")
    return ""


def _open_seen(path: Path, seen: os.stat_result, flags: int = 0) -> int:
    """Open ``path`` without following a link, and only if it is what the listing saw.

    Returns
    -------
    int
        A descriptor open for reading, on the same file (device and inode) as ``seen``.

    Raises
    ------
    Refused
        The path is now a link, a device or a file with another name, or another file
        than the one listed.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused("a symbolic link; links are not followed") from None
        raise
    try:
        st = os.fstat(fd)
        why = _refusal(st)
        if not why and (st.st_dev, st.st_ino) != (seen.st_dev, seen.st_ino):
            why = "replaced by another file while the submissions were read; not read"
        if why:
            raise Refused(why)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _entry_node(parent: _Node, entry: os.DirEntry, fd: int) -> _Node:
    """The node of one entry of a folder open as ``fd``; nothing is followed or read."""
    st = entry.stat(follow_symlinks=False)
    target = ""
    if stat.S_ISLNK(st.st_mode):
        target = name_text(os.fsencode(os.readlink(entry.name, dir_fd=fd)))[0]
        target = target[:_TARGET_CHARS] + "..." * (len(target) > _TARGET_CHARS)
    name, note = name_text(os.fsencode(entry.name))
    where = f"{parent.where}/{name}" if parent.where else name
    return _Node(name, where, parent.notes + (note,) * bool(note),
                 folder=stat.S_ISDIR(st.st_mode), path=parent.path / entry.name, seen=st,
                 refusal=_refusal(st, target), depth=parent.depth + 1, walk=parent.walk)


def _list_folder(node: _Node, limit: int) -> dict[str, _Node]:
    """A folder's entries on disk, listed from the very folder its parent's listing saw.

    Raises
    ------
    Refused
        The folder is :data:`MAX_DEPTH` names deep (its entries would be deeper), holds
        more than ``limit`` entries (:class:`_TooMany`), or the walk has listed
        :data:`MAX_WALKED` entries (:class:`_WalkOver`); the listing stops there.
    """
    if node.depth >= MAX_DEPTH:
        raise Refused(f"holds folders more than {MAX_DEPTH} levels deep; not read")
    fd = _open_seen(node.path, node.seen, os.O_DIRECTORY)
    children: dict[str, _Node] = {}
    try:
        with os.scandir(fd) as it:
            for entry in it:
                node.walk.take()
                if len(children) >= limit:
                    raise _TooMany(f"holds more than {limit} files and folders; not read")
                children[entry.name] = _entry_node(node, entry, fd)
    finally:
        os.close(fd)
    return children


def disk_root(path: Path) -> _Node:
    """The folder the instructor gave, listed, as the root of the tree.

    ``path`` is resolved (the root may be a link); nothing below it is followed.  It
    may hold up to :data:`MAX_WALKED` entries.

    Raises
    ------
    OSError, Refused
        The folder cannot be listed.
    """
    real = Path(os.path.realpath(path))
    root = _Node(name_text(os.fsencode(real.name))[0], "", folder=True, path=real,
                 seen=os.stat(real), walk=_Walk())
    root.listing(MAX_WALKED)
    return root


def measure(node: _Node) -> None:
    """List one student's folder, every folder below it included, before it is read.

    Folders too deep, and folders that cannot be listed, are left to be refused one
    by one when they are read.

    Raises
    ------
    Refused
        The folders hold more than :data:`MAX_MEMBERS` files and folders together, or
        the walk has listed all it may.
    """
    left, stack = MAX_MEMBERS, [node]
    while stack:
        folder = stack.pop()
        if folder.depth >= MAX_DEPTH:
            continue
        try:
            listed: dict[str, _Node] | None = folder.listing(left)
        except _WalkOver:
            raise
        except _TooMany:
            listed = None
        except Exception:  # refused for that folder when it is read
            continue
        if listed is None or len(listed) > left:
            raise Refused(f"more than {MAX_MEMBERS} files and folders in one submission; "
                          "not read")
        left -= len(listed)
        stack += [c for c in listed.values() if c.is_folder and not _is_junk(c.name)]


def _member_bytes(info: zipfile.ZipInfo) -> bytes:
    """The member's name as stored: UTF-8 with the UTF-8 flag, else bytes that
    :mod:`zipfile` read as cp437."""
    return info.filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437")


def _member_path(info: zipfile.ZipInfo) -> tuple[list[str], str]:
    """The member's path as names to show, and a note when one of them is a guess.

    The stored bytes are split at ``/`` and ``\\`` before any name is read as text
    (those bytes are never part of a character in UTF-8 or the single-byte code pages
    read here), so that a control character shown as ``\\xNN`` never splits a name.
    Each name is read by :func:`.names.name_text`: UTF-8 if the bytes are (some tools
    write UTF-8 names without the flag), else the legacy code page that gives the most
    letters, with a note.
    """
    raw = _member_bytes(info)
    parts = [name_text(piece)[0] for piece in re.split(rb"[\\/]", raw)
             if piece not in (b"", b".")]
    return parts, name_text(raw)[1]


def _member_name(info: zipfile.ZipInfo) -> tuple[str, str]:
    """The member's name as text to show (its path with ``/``), and its note."""
    parts, note = _member_path(info)
    return "/".join(parts), note


#: How many characters of a member's name a message shows.
_NAME_CHARS = 100


def _member_problem(info: zipfile.ZipInfo) -> str:
    """Why a member makes its archive unsafe to read ("" when it does not): a path
    outside the archive's folder, a symbolic link, or a path of more than
    :data:`MAX_DEPTH` names."""
    raw = _member_bytes(info).decode("latin-1")  # the path's own characters, one a byte
    name = name_text(_member_bytes(info))[0]  # as stored, a leading / or .. included
    shown = name[:_NAME_CHARS] + "..." * (len(name) > _NAME_CHARS)
    if (raw.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", raw)
            or ".." in re.split(r"[\\/]", raw)):
        return f"member {shown!r} has a path outside the archive's folder"
    if stat.S_ISLNK(info.external_attr >> 16):
        return f"member {shown!r} is a symbolic link"
    depth = len(_member_path(info)[0])
    if depth > MAX_DEPTH:
        return (f"member {shown!r} is {depth} levels deep, more than the {MAX_DEPTH} levels "
                "a path may have")
    return ""


def check_archive(archive: zipfile.ZipFile, label: str, budget: _Budget | None = None) -> None:
    """Refuse an archive that is unsafe to read, before anything is read from it.

    Parameters
    ----------
    archive
        The open archive.
    label
        How to name it in messages.
    budget
        What the archive may still hold (shared with the archive it sits in, if any);
        a fresh budget of :data:`MAX_ARCHIVE_BYTES` and :data:`MAX_MEMBERS` if None.

    Raises
    ------
    UnsafeArchive
        A member whose path is absolute or climbs out with ``..``, a symbolic link, a
        member more than :data:`MAX_DEPTH` folders deep, too many members, or too many
        bytes once uncompressed.
    """
    budget = budget if budget is not None else _Budget()
    members = archive.infolist()
    if len(members) > budget.members:
        raise UnsafeArchive(f"{label}: {len(members)} members, more than the "
                            f"{MAX_MEMBERS} an archive (with the archives in it) may hold")
    for info in members:
        why = _member_problem(info)
        if why:
            raise UnsafeArchive(f"{label}: {why}")
    total = sum(info.file_size for info in members)
    if total > budget.bytes:
        raise UnsafeArchive(f"{label}: {_size(total)} once uncompressed, more than the "
                            f"{_size(MAX_ARCHIVE_BYTES)} an archive (with the archives in it) "
                            "may hold")
    clash = _clash(members)
    if clash:
        raise UnsafeArchive(f"{label}: {clash}")
    budget.members -= len(members)
    budget.bytes -= total


def _clash(members: list[zipfile.ZipInfo]) -> str:
    """Why two members cannot both be read ("" when none clash): one path written twice,
    or a file whose path is also another member's folder (one of them would be lost)."""
    files: dict[tuple[str, ...], str] = {}
    folders: dict[tuple[str, ...], str] = {}
    for info in members:
        parts, _ = _member_path(info)
        if not parts:
            continue
        shown = "/".join(parts)[:_NAME_CHARS]
        key = tuple(parts)
        if not info.is_dir():
            if key in files:
                return f"member {shown!r} is in the archive twice; neither is read"
            files[key] = shown
        for k in range(1, len(parts)):
            folders.setdefault(key[:k], shown)
    for key, shown in files.items():
        if key in folders:
            return (f"member {shown!r} is a file and also the folder of "
                    f"{folders[key]!r}; neither is read")
    return ""


def _zip_tree(archive: zipfile.ZipFile, label: str, notes: tuple[str, ...] = ()) -> _Node:
    """An archive's members as a tree of nodes; ``notes`` are the archive's own (its
    name may be a guess), and each member adds its name's."""
    root = _Node("", label, notes, children={}, folder=True)
    for info in archive.infolist():
        parts, note = _member_path(info)
        if not parts:
            continue
        where = f"{label}: {'/'.join(parts)}"
        node, own = root, notes + (note,) * bool(note)
        for k, part in enumerate(parts[:-1]):
            if node.children.get(part) is None or not node.children[part].is_folder:
                node.children[part] = _Node(part, f"{label}: {'/'.join(parts[:k + 1])}", own,
                                            children={}, folder=True)
            node = node.children[part]
        if info.is_dir():
            node.children.setdefault(parts[-1], _Node(parts[-1], where, own, children={},
                                                      folder=True))
        else:
            node.children[parts[-1]] = _Node(parts[-1], where, own, member=info,
                                             archive=archive)
    return root
