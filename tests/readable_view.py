"""A view of the file system in which an ordinary user reaches the test environment."""

from __future__ import annotations

from pathlib import Path


def readable_view(paths: list[Path]) -> list[str]:
    """bubblewrap arguments under which an ordinary user can reach ``paths``.

    The test environment may live below a folder only root may enter (``/root``): such
    a folder is replaced by an empty one and the paths are bound back into it.
    """
    args = ["--dev-bind", "/", "/"]
    covered: set[Path] = set()
    made: set[Path] = set()
    for path in (Path(p).resolve() for p in paths):
        closed = next((a for a in reversed(path.parents)
                       if a != Path("/") and not a.stat().st_mode & 0o001), None)
        if closed is None:
            continue
        if closed not in covered:
            covered.add(closed)
            args += ["--perms", "0755", "--tmpfs", str(closed)]
        for folder in reversed(path.parents):
            if closed in folder.parents and folder not in made:
                made.add(folder)
                args += ["--perms", "0755", "--dir", str(folder)]
        args += ["--ro-bind", str(path), str(path)]
    return args


def readable_mounts(paths: list[Path], stash: Path) -> list[str]:
    """A command prefix with the same view as :func:`readable_view`, made by ``unshare``
    and ``mount``, which ``exec`` the command instead of watching it from a parent
    process: signals sent to the command's process reach the command itself.

    ``stash`` is an empty folder where the paths are held while their closed parent
    folders are covered.
    """
    import shlex

    lines = ["set -e"]
    covered: list[Path] = []
    wanted: list[Path] = []
    for path in (Path(p).resolve() for p in paths):
        closed = next((a for a in reversed(path.parents)
                       if a != Path("/") and not a.stat().st_mode & 0o001), None)
        if closed is None:
            continue
        wanted.append(path)
        if closed not in covered:
            covered.append(closed)
    for k, path in enumerate(wanted):
        lines.append(f"mkdir -p {stash}/{k} && mount --bind {shlex.quote(str(path))} {stash}/{k}")
    for closed in covered:
        lines.append(f"mount -t tmpfs -o mode=0755 tmpfs {shlex.quote(str(closed))}")
    for k, path in enumerate(wanted):
        lines.append(f"mkdir -p {shlex.quote(str(path))} && "
                     f"mount --bind {stash}/{k} {shlex.quote(str(path))}")
    lines.append('exec "$@"')
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", "\n".join(lines),
            "sh"]
