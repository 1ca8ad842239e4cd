#!/usr/bin/env python3
"""The course's commands, with no tool needed beyond Python 3.11 and pip.

    python3 tasks.py book    build the book into _build/html
    python3 tasks.py test    run every test (lint, library, notebooks, a clean book build,
                             the site in headless Chromium where Chromium is installed)
    python3 tasks.py lab     open the exercise notebooks in JupyterLab
    python3 tasks.py serve   serve the built site on http://127.0.0.1:8000
    python3 tasks.py bench   run the benchmarks in bench/

Each command first makes sure the virtual environment .venv exists and holds what
requirements.txt and constraints.txt pin; it (re)installs only when they changed.
`test` also installs the npm packages of package-lock.json (axe-core) with npm ci.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".course-installed"
PINS = ("requirements.txt", "constraints.txt", "pyproject.toml")


def venv_python() -> Path:
    sub = "Scripts" if os.name == "nt" else "bin"
    return VENV / sub / ("python.exe" if os.name == "nt" else "python")


def run(cmd: list[str | Path], **kw) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kw)


def pins_digest() -> str:
    h = hashlib.sha256(sys.version.encode())
    for name in PINS:
        h.update((ROOT / name).read_bytes())
    return h.hexdigest()


def ensure_env() -> Path:
    """Create .venv and install the pinned packages and the library, when needed."""
    if sys.version_info < (3, 11):  # noqa: UP036 (tasks.py may run on any python3)
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    py = venv_python()
    if not py.exists():
        run([sys.executable, "-m", "venv", VENV])
    digest = pins_digest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return py
    run([py, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([py, "-m", "pip", "install", "--quiet", "-r", "requirements.txt", "-c", "constraints.txt"])
    run([py, "-m", "pip", "install", "--quiet", "--no-deps", "-e", "."])
    STAMP.write_text(digest)
    return py


NODE_PINS = ("package.json", "package-lock.json")


def ensure_node_packages() -> None:
    """``npm ci`` the packages the browser tests inject into pages (axe-core), when needed.

    Without npm, or when npm fails, the accessibility scan skips and says so (and fails
    where PERCEPTRON_COURSE_REQUIRE_BROWSER is set, as in CI).
    """
    npm = shutil.which("npm")
    if npm is None:
        print("npm not found: the browser tests' accessibility scan (axe-core) will skip")
        return
    h = hashlib.sha256()
    for name in NODE_PINS:
        h.update((ROOT / name).read_bytes())
    stamp = ROOT / "node_modules" / ".course-installed"
    if stamp.exists() and stamp.read_text() == h.hexdigest():
        return
    try:
        run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"])
    except subprocess.CalledProcessError:
        if os.environ.get("PERCEPTRON_COURSE_REQUIRE_BROWSER"):
            raise
        print("npm ci failed: the browser tests' accessibility scan (axe-core) will skip")
        return
    stamp.write_text(h.hexdigest())


def bin_of(py: Path, tool: str) -> Path:
    return py.parent / tool


def book(args: argparse.Namespace) -> None:
    py = ensure_env()
    if args.clean:
        shutil.rmtree(ROOT / "_build", ignore_errors=True)
    run([bin_of(py, "jupyter-book"), "build", ".", "-W", "-n", "--keep-going"])
    print(f"\nThe site is in {ROOT / '_build' / 'html'}. Read it with `python3 tasks.py serve` "
          "(the in-page playground needs a served page; opening index.html works for the rest).")


def test(args: argparse.Namespace) -> None:
    py = ensure_env()
    ensure_node_packages()
    run([bin_of(py, "ruff"), "check", "."])
    workers = ["-n", str(args.workers)] if args.workers != "0" else []
    run([py, "-m", "pytest", *workers, "--dist", "loadfile", *args.pytest_args])


def lab(args: argparse.Namespace) -> None:
    py = ensure_env()
    run([bin_of(py, "jupyter-lab"), "exercises"])


def serve(args: argparse.Namespace) -> None:
    ensure_env()
    site = ROOT / "_build" / "html"
    if not (site / "index.html").exists():
        sys.exit("No site yet: run `python3 tasks.py book` first.")
    print(f"Serving {site} on http://127.0.0.1:{args.port} (Ctrl+C stops it)")
    run([sys.executable, "-m", "http.server", str(args.port), "--bind", "127.0.0.1",
         "--protocol", "HTTP/1.1", "--directory", site])


def bench(args: argparse.Namespace) -> None:
    py = ensure_env()
    extra = args.bench_args[1:] if args.bench_args[:1] == ["--"] else args.bench_args
    run([py, "bench/bench_perceptron.py", *extra])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("book", help="build the book into _build/html")
    p.add_argument("--clean", action="store_true", help="remove _build first")
    p.set_defaults(func=book)
    p = sub.add_parser("test", help="run every test")
    p.add_argument("--workers", default="auto", help="pytest-xdist workers (0: no xdist)")
    p.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed on to pytest")
    p.set_defaults(func=test)
    p = sub.add_parser("lab", help="open the exercises in JupyterLab")
    p.set_defaults(func=lab)
    p = sub.add_parser("serve", help="serve the built site locally")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=serve)
    p = sub.add_parser("bench", help="run the benchmarks")
    p.add_argument("bench_args", nargs=argparse.REMAINDER, help="passed on to the benchmark")
    p.set_defaults(func=bench)
    args = parser.parse_args()
    try:
        args.func(args)
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
