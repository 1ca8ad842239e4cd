"""Gradescope's autograder package for one assignment: ``autograder.zip``.

    python -m perceptron_lib.grading autograder --assignment NAME --out DIR
                                                [--grading-cases VISIBILITY]

writes ``DIR/autograder.zip``, laid out as Gradescope's autograder specification asks
("Autograder Specifications", gradescope-autograders.readthedocs.io, ``specs``; the
base image is Ubuntu, 22.04 by default as of 2024-2025, "Base Images"):

- ``setup.sh`` at the top: run once, as root, when Gradescope builds the image.  It
  installs a Python of at least 3.11 (the system's, or Ubuntu's ``python3.11`` where the
  system's is older), a virtual environment in ``/opt/perceptron-grading`` holding only
  the library's third-party dependencies, pinned as the course pins them
  (``requirements.txt``, with ``constraints.txt`` for what they pull in), ``setpriv``
  and, if the image offers it, bubblewrap; then it makes the source root-only and
  checks that the grader imports.
- ``run_autograder`` at the top: run for each submission; it grades
  ``/autograder/submission`` with :mod:`.gradescope` and writes
  ``/autograder/results/results.json``.
- ``perceptron_lib/``: the library and its grading package (the cases, the references,
  the sandbox), imported from ``/autograder/source`` through ``PYTHONPATH`` only: it is
  not installed in the environment, whose files every user may read.
- ``requirements.txt``, ``constraints.txt``, ``LICENSE`` and ``autograder.json`` (what
  was built: the assignment, its points, the grader's hash).

Nothing else of the repository goes in: not ``solutions/``, not ``tests/``, not the
book.  The zip is the same for the same sources and options (its dates are fixed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

import perceptron_lib

from ..assignments import ASSIGNMENTS
from ..judge.grade import grader_sha256
from .gradescope import VISIBILITY

LIBRARY = Path(perceptron_lib.__file__).resolve().parent
REPO = LIBRARY.parent
#: Where ``setup.sh`` makes the environment (outside ``/autograder/source``, so that a
#: submission's uid can run its Python).
VENV = "/opt/perceptron-grading"
#: Folders and files of the library that are not shipped.
SKIPPED = ("__pycache__", ".ipynb_checkpoints", ".pytest_cache")
SKIPPED_SUFFIXES = (".pyc", ".pyo", ".nbi", ".nbc")
DATE = (1980, 1, 1, 0, 0, 0)
PYTHON_MIN = (3, 11)

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: it
# installs what the course's grader needs (Gradescope's autograder specification).
set -euo pipefail
SOURCE=/autograder/source
VENV={venv}
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv ca-certificates util-linux
# setpriv runs a submission as a uid of its own (a package of its own on some releases).
command -v setpriv >/dev/null || apt-get install -y --no-install-recommends setpriv || true
# bubblewrap isolates a submission where the container lets it make namespaces; where it
# cannot, the grader runs the submission with limits only (and says so on its output).
apt-get install -y --no-install-recommends bubblewrap \\
  || echo "setup: bubblewrap is not available: submissions will run with limits only"
PYTHON=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null \\
     && "$candidate" -c 'import sys; sys.exit(sys.version_info < {python_min})'; then
    PYTHON="$(command -v "$candidate")"
    break
  fi
done
if [ -z "$PYTHON" ]; then
  apt-get install -y --no-install-recommends python3.11 python3.11-venv
  PYTHON="$(command -v python3.11)"
fi
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --no-cache-dir --disable-pip-version-check \\
  -r "$SOURCE/requirements.txt" -c "$SOURCE/constraints.txt"
chmod -R go-rwx "$SOURCE"
chmod -R go+rX "$VENV"
cd "$SOURCE"
PYTHONPATH="$SOURCE" "$VENV/bin/python" -c \\
  "import perceptron_lib.grading.outputs.gradescope; print('setup: the grader imports')"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission, as root, in /autograder: it grades the
# uploaded notebook with the course's grader into /autograder/results/results.json.
# AUTOGRADER_ROOT and AUTOGRADER_PYTHON replace /autograder and the environment's Python
# (to try the package on another machine).
set -u
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PYTHON="${{AUTOGRADER_PYTHON:-{venv}/bin/python}}"
cd "$ROOT/source" || exit 1
PYTHONPATH="$ROOT/source" exec "$PYTHON" -m perceptron_lib.grading.outputs.gradescope \\
  --assignment {assignment} --grading-cases {grading_cases} --root "$ROOT"{secret}
"""

#: The package's copy of the instructor's ``--secret`` (root-only in the image, as all
#: of ``/autograder/source``).
SECRET = "grading-secret"


class BuildError(Exception):
    """The package cannot be built from here; the message says why."""


def _name(requirement: str) -> str:
    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return found.group(1).lower().replace("_", "-").replace(".", "-") if found else ""


def _pins(path: Path) -> dict[str, str]:
    """``name -> "name==version"`` of a pip requirements file's pinned lines."""
    pins: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if "==" in text and not text.startswith("-"):
            pins[_name(text)] = text
    return pins


def requirements(repo: Path = REPO) -> list[str]:
    """The library's dependencies (``pyproject.toml``), pinned as the course pins them.

    Raises
    ------
    BuildError
        A file is missing, or a dependency has no pin.
    """
    try:
        project = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))
        pins = {**_pins(repo / "constraints.txt"), **_pins(repo / "requirements.txt")}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BuildError(f"the course's pyproject.toml, requirements.txt and "
                         f"constraints.txt are needed (build from the repository): {exc}") \
            from exc
    wanted = [_name(d) for d in project.get("project", {}).get("dependencies", [])]
    missing = [n for n in wanted if n not in pins]
    if missing:
        raise BuildError(f"no pinned version in requirements.txt or constraints.txt for "
                         f"{', '.join(missing)}")
    return [pins[n] for n in wanted]


def library_files(library: Path = LIBRARY) -> list[tuple[str, Path]]:
    """``(name in the zip, path)`` of every file of the library that is shipped."""
    found = []
    for path in sorted(library.rglob("*")):
        rel = path.relative_to(library.parent)
        if any(part in SKIPPED or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file() and not path.is_symlink() and path.suffix not in SKIPPED_SUFFIXES:
            found.append((rel.as_posix(), path))
    return found


def points(assignment: str) -> float:
    """The points an assignment is graded on (the Gradescope assignment's total)."""
    return float(sum(t.points for t in ASSIGNMENTS[assignment]))


def contents(assignment: str, grading_cases: str = "visible",
             repo: Path = REPO, secret: bytes | None = None) -> list[tuple[str, bytes, int]]:
    """``(name, bytes, mode)`` of every member of the package, scripts first;
    ``secret``, the instructor's ``--secret`` file, goes in as :data:`SECRET`.

    Raises
    ------
    BuildError, KeyError
        Missing course files; an unknown assignment or visibility.
    """
    if assignment not in ASSIGNMENTS:
        raise KeyError(f"no assignment {assignment!r}; assignments: "
                       f"{', '.join(sorted(ASSIGNMENTS))}")
    if grading_cases not in VISIBILITY:
        raise KeyError(f"visibility {grading_cases!r}: one of {', '.join(VISIBILITY)}")
    pinned = requirements(repo)
    setup = SETUP_SH.format(venv=VENV, python_min=PYTHON_MIN)
    run = RUN_AUTOGRADER.format(
        venv=VENV, assignment=assignment, grading_cases=grading_cases,
        secret=f' \\\n  --secret "$ROOT/source/{SECRET}"' if secret is not None else "")
    manifest = {"assignment": assignment, "points": points(assignment),
                "grading_cases": grading_cases,
                "cases": "drawn from the instructor's secret" if secret is not None else
                         "the package's own, which anyone can compute",
                "grader_sha256": grader_sha256(),
                "requirements": pinned, "environment": VENV,
                "built_by": "python -m perceptron_lib.grading autograder"}
    members = [("setup.sh", setup.encode(), 0o755), ("run_autograder", run.encode(), 0o755),
               ("requirements.txt", ("\n".join(pinned) + "\n").encode(), 0o644),
               ("autograder.json", (json.dumps(manifest, indent=1) + "\n").encode(), 0o644)]
    for name in ("constraints.txt", "LICENSE"):
        try:
            members.append((name, (repo / name).read_bytes(), 0o644))
        except OSError as exc:
            raise BuildError(f"the course's {name} is needed: {exc}") from exc
    members += [(name, path.read_bytes(), 0o644)
                for name, path in library_files(repo / "perceptron_lib")]
    if secret is not None:
        members.append((SECRET, secret, 0o600))
    return members


def build(assignment: str, out: Path, grading_cases: str = "visible",
          repo: Path = REPO, secret: bytes | None = None) -> Path:
    """Write ``out/autograder.zip`` (whole or not at all); its path."""
    members = contents(assignment, grading_cases, repo, secret)
    out.mkdir(parents=True, exist_ok=True)
    target = out / "autograder.zip"
    fd, temporary = tempfile.mkstemp(dir=out, prefix=".autograder.zip.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data, mode in members:
                info = zipfile.ZipInfo(name, date_time=DATE)
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m perceptron_lib.grading autograder",
        description="Write DIR/autograder.zip: Gradescope's autograder for one assignment.")
    ap.add_argument("--assignment", required=True, choices=sorted(ASSIGNMENTS))
    ap.add_argument("--out", type=Path, required=True, metavar="DIR")
    ap.add_argument("--grading-cases", choices=VISIBILITY, default="visible",
                    help="when students see the cases used only at grading time, with what "
                         "was expected (Gradescope's visibility; public cases are always "
                         "visible)")
    ap.add_argument("--secret", type=Path, metavar="FILE",
                    help="draw the grading cases from this file, as the grading command's "
                         "--secret does (it goes into the package, which only Gradescope "
                         "and the course staff see); with visible grading cases, students "
                         "see the drawn inputs once graded")
    return ap


def main(argv: list[str] | None = None) -> int:
    """The ``autograder`` command; its exit status (2: it cannot be built from here)."""
    args = _parser().parse_args(argv)
    try:
        secret = args.secret.read_bytes() if args.secret is not None else None
        if secret is not None and not secret.strip():
            raise BuildError(f"--secret {args.secret}: the file is empty")
        path = build(args.assignment, args.out, args.grading_cases, secret=secret)
    except (BuildError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    with zipfile.ZipFile(path) as zf:
        n = len(zf.namelist())
    print(f"autograder: {path} ({n} files, {path.stat().st_size / 1024:.0f} KiB)\n"
          f"  on Gradescope: a Programming Assignment worth {points(args.assignment):g} "
          f"points; Configure Autograder: Zip file upload, base image Ubuntu; students "
          f"upload {args.assignment}.ipynb")
    return 0
