"""The files to read, on disk or in a zip, as one tree; archives checked before reading.

Zips are read member by member, never extracted.  An archive with a member whose path
leaves the archive's folder, a symbolic link, more than :data:`MAX_MEMBERS` members or
more than :data:`MAX_ARCHIVE_BYTES` bytes once uncompressed is refused as a whole, with
a message naming the archive and the member.
"""

from __future__ import annotations

import os
import re
import stat
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

MIB = 1024**2
#: The most bytes an archive may hold once uncompressed, nested archives included.
MAX_ARCHIVE_BYTES = 200 * MIB
#: The most members an archive may hold, nested archives included.
MAX_MEMBERS = 5_000
#: The largest notebook read, from a folder or from an archive.
MAX_NOTEBOOK_BYTES = 20 * MIB
#: How deep archives may sit: a zip in the folder (1) may hold a student's zip (2).
MAX_NESTING = 2

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
@dataclass
class _Node:
    """A file or folder, on disk or in an archive, with a readable location."""

    name: str
    where: str
    children: dict[str, _Node] | None = None  # None for a file
    path: Path | None = None  # a file on disk
    member: zipfile.ZipInfo | None = None  # a file in ``archive``
    archive: zipfile.ZipFile | None = None

    @property
    def is_folder(self) -> bool:
        return self.children is not None

    def entries(self) -> list[_Node]:
        return [c for _, c in sorted(self.children.items()) if not _is_junk(c.name)]

    @property
    def size(self) -> int:
        if self.member is not None:
            return self.member.file_size
        return self.path.stat().st_size

    @property
    def mtime(self) -> float:
        if self.member is not None:
            try:
                return datetime(*self.member.date_time).timestamp()
            except ValueError:
                return 0.0
        return self.path.stat().st_mtime


def _disk_tree(path: Path, where: str) -> _Node:
    if not path.is_dir():
        return _Node(path.name, where, path=path)
    children: dict[str, _Node] = {}
    with os.scandir(path) as it:
        for entry in it:
            if entry.is_symlink() and entry.is_dir():
                continue  # never follow a folder link (it could loop)
            sub = f"{where}/{entry.name}" if where else entry.name
            children[entry.name] = _disk_tree(Path(entry.path), sub)
    return _Node(path.name, where, children=children)


def _member_name(info: zipfile.ZipInfo) -> str:
    """The member's name, mending UTF-8 names that were stored without the UTF-8 flag."""
    name = info.filename
    if not info.flag_bits & 0x800:
        try:
            name = name.encode("cp437").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            pass
    return name


def _member_parts(name: str) -> list[str]:
    return [p for p in re.split(r"[\\/]", name) if p not in ("", ".")]


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
        A member whose path is absolute or climbs out with ``..``, a symbolic link, too
        many members, or too many bytes once uncompressed.
    """
    budget = budget if budget is not None else _Budget()
    members = archive.infolist()
    if len(members) > budget.members:
        raise UnsafeArchive(f"{label}: {len(members)} members, more than the "
                            f"{MAX_MEMBERS} an archive (with the archives in it) may hold")
    for info in members:
        name = _member_name(info)
        if (name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name)
                or ".." in re.split(r"[\\/]", name)):
            raise UnsafeArchive(f"{label}: member {name!r} has a path outside the archive's "
                                f"folder")
        if stat.S_ISLNK(info.external_attr >> 16):
            raise UnsafeArchive(f"{label}: member {name!r} is a symbolic link")
    total = sum(info.file_size for info in members)
    if total > budget.bytes:
        raise UnsafeArchive(f"{label}: {_size(total)} once uncompressed, more than the "
                            f"{_size(MAX_ARCHIVE_BYTES)} an archive (with the archives in it) "
                            "may hold")
    budget.members -= len(members)
    budget.bytes -= total


def _zip_tree(archive: zipfile.ZipFile, label: str) -> _Node:
    root = _Node("", label, children={})
    for info in archive.infolist():
        parts = _member_parts(_member_name(info))
        if not parts:
            continue
        node = root
        for k, part in enumerate(parts[:-1]):
            if node.children.get(part) is None or not node.children[part].is_folder:
                node.children[part] = _Node(part, f"{label}: {'/'.join(parts[:k + 1])}",
                                            children={})
            node = node.children[part]
        if info.is_dir():
            node.children.setdefault(parts[-1], _Node(parts[-1], f"{label}: {'/'.join(parts)}",
                                                      children={}))
        else:
            node.children[parts[-1]] = _Node(parts[-1], f"{label}: {'/'.join(parts)}",
                                             member=info, archive=archive)
    return root
