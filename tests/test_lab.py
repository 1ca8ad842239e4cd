"""``python3 tasks.py lab``: JupyterLab on the whole course, as root and as an ordinary user.

Each test starts the real command on a free port of 127.0.0.1 with ``--no-browser``,
reads the address it prints, asks the server for its status and the repository's
contents, and stops it with SIGTERM. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from urllib.parse import parse_qs, urlparse

import pytest
from readable_view import readable_mounts

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tasks.py"
START_TIMEOUT = 120  # seconds until the address is printed (a cold start takes about 5)
NOBODY = 65534


def load_tasks() -> ModuleType:
    """tasks.py as a module (it is a script, not part of the library)."""
    spec = importlib.util.spec_from_file_location("course_tasks", TASKS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def get(url: str, token: str | None) -> tuple[int, dict[str, str], bytes]:
    """A GET on 127.0.0.1 that follows no redirect: status, headers and body."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"token {token}")
    try:
        with opener.open(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


class Lab:
    """A running ``tasks.py lab`` and what it printed."""

    def __init__(self, cmd: list[str], env: dict[str, str], runtime: Path) -> None:
        self.runtime = runtime
        self.lines: queue.Queue[str] = queue.Queue()
        self.out: list[str] = []
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.err: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.out, True),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.err, False),
                         daemon=True).start()

    def _pump(self, stream, into: list[str], signal_lines: bool) -> None:
        for line in stream:
            into.append(line)
            if signal_lines:
                self.lines.put(line)

    def printed_address(self) -> str:
        """The course's address as the command prints it, waiting for it (bounded)."""
        pattern = re.compile(r"^\s+(http://127\.0\.0\.1:\d+/lab/tree/\S+)\s*$")
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            found = pattern.match(line)
            if found:
                return found.group(1)
        self.stop()
        pytest.fail("tasks.py lab printed no address\n--- stdout\n" + "".join(self.out)
                    + "\n--- stderr\n" + "".join(self.err)[-4000:])

    def stop(self) -> int | None:
        """SIGTERM to tasks.py, which stops JupyterLab; kill whatever is left."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for info in self.runtime.glob("jpserver-*.json"):  # a server that outlived us
            try:
                os.kill(json.loads(info.read_text())["pid"], signal.SIGKILL)
            except (OSError, ValueError, KeyError):
                pass
        return self.proc.returncode


def lab_env(home: Path) -> dict[str, str]:
    """An environment whose Jupyter folders are all inside ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPYTHON"))}
    env.update(
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        IPYTHONDIR=str(home / "ipython"),
        MPLCONFIGDIR=str(home / "mpl"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


@pytest.fixture
def home() -> Iterator[Path]:
    """A home folder that any user can be given (pytest's own tmp_path is root's only)."""
    path = Path(tempfile.mkdtemp(prefix="course-lab-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def check_serves_the_course(lab: Lab, port: int) -> str:
    """The checks common to every user; returns what tasks.py printed."""
    address = lab.printed_address()
    url = urlparse(address)
    assert url.port == port, address  # --port reached JupyterLab
    assert url.path == "/lab/tree/START.ipynb", address
    token = parse_qs(url.query)["token"][0]
    base = f"http://127.0.0.1:{port}"

    try:
        status, _, body = get(f"{base}/api/status", token)
    except urllib.error.URLError as err:  # the printed address must already answer
        lab.stop()
        pytest.fail(f"{address} printed but does not answer: {err}\n--- stderr\n"
                    + "".join(lab.err)[-4000:])
    assert status == 200, body[:500]
    assert "started" in json.loads(body)

    status, _, _ = get(f"{base}/api/contents", None)
    assert status == 403  # the printed token is what lets a browser in

    status, _, body = get(f"{base}/api/contents", token)
    assert status == 200, body[:500]
    listing = json.loads(body)
    names = {item["name"] for item in listing["content"]}
    assert {"book", "exercises", "START.ipynb", "README.md"} <= names, names
    assert listing["path"] == ""  # the server's root is the repository

    for folder in ("book", "exercises"):
        status, _, body = get(f"{base}/api/contents/{folder}", token)
        assert status == 200, body[:500]
        served = {item["name"] for item in json.loads(body)["content"]}
        expected = {p.name for p in (ROOT / folder).glob("*.ipynb")}
        assert expected and expected <= served, (folder, expected - served)

    # the course's default settings: every cell drawn, so Run All evaluates every {eval}
    status, _, body = get(f"{base}/lab/api/settings/@jupyterlab/notebook-extension:tracker",
                          token)
    assert status == 200, body[:500]
    schema = json.loads(body)["schema"]
    assert schema["properties"]["windowingMode"]["default"] == "none"

    status, headers, _ = get(f"{base}/", token)  # the browser's first page
    assert status in (301, 302), status
    assert urlparse(headers["Location"]).path == "/lab/tree/START.ipynb", headers["Location"]

    status, _, body = get(address, None)  # the printed address itself opens JupyterLab
    assert status == 200
    assert b"JupyterLab" in body

    code = lab.stop()
    assert code == 0, "".join(lab.err)[-3000:]
    assert not port_is_open(port)  # JupyterLab stopped with tasks.py
    assert "Running as root is not recommended" not in "".join(lab.err)
    return "".join(lab.out)


def lab_command(port: int) -> list[str]:
    # Options after -- reach JupyterLab: with no port retries a busy port fails loudly.
    return [sys.executable, str(TASKS), "lab", "--port", str(port), "--no-browser",
            "--", "--ServerApp.port_retries=0"]


@pytest.mark.slow
def test_lab_serves_the_whole_course(home: Path):
    """As whoever runs the tests: root in CI and in most containers."""
    port = free_port()
    lab = Lab(lab_command(port), lab_env(home), home / "runtime")
    try:
        printed = check_serves_the_course(lab, port)
    finally:
        lab.stop()
    started = next(ln for ln in printed.splitlines() if "jupyter-lab" in ln)
    assert ("--allow-root" in started) == (os.geteuid() == 0), started
    assert "--ServerApp.port_retries=0" in started


@pytest.mark.slow
def test_lab_serves_the_whole_course_as_an_ordinary_user(home: Path):
    """As uid 65534, started by root with setpriv (the first test covers a user run)."""
    if os.geteuid() != 0:
        pytest.skip("not root: test_lab_serves_the_whole_course already ran as a user")
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to run the command as another user"
    as_nobody = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    # A virtual environment made from a Python inside root's home (pyenv's, say) is not
    # one another user can run: tasks.py cannot even look at its interpreter.
    probe = subprocess.run(
        [*as_nobody, sys.executable, "-c",
         "import os, sys, jupyterlab; os.stat(sys.executable); os.stat(sys._base_executable)"],
        capture_output=True, text=True, timeout=60)
    stash = home.parent / f"{home.name}-stash"
    if probe.returncode != 0 and shutil.which("unshare"):
        # Show that user the environment and the repository through a view of the file
        # system in which the folders only root may enter are replaced by open ones.
        stash.mkdir()
        view = readable_mounts([Path(sys.prefix), Path(sys.base_prefix), ROOT, home], stash)
        as_nobody = [*view, *as_nobody]
        probe = subprocess.run(
            [*as_nobody, sys.executable, "-c",
             "import os, sys, jupyterlab; os.stat(sys.executable); "
             "os.stat(sys._base_executable)"], capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"uid {NOBODY} cannot use this environment's Python "
                    f"({sys._base_executable}): {probe.stderr.strip()[-200:]}")
    os.chown(home, NOBODY, NOBODY)
    port = free_port()
    lab = Lab([*as_nobody, *lab_command(port)], lab_env(home), home / "runtime")
    try:
        printed = check_serves_the_course(lab, port)
    finally:
        lab.stop()
        shutil.rmtree(stash, ignore_errors=True)
    started = next(ln for ln in printed.splitlines() if "jupyter-lab" in ln)
    assert "--allow-root" not in started, started


def test_lab_command_line():
    tasks = load_tasks()
    exe = Path("/venv/bin/jupyter-lab")
    as_user = tasks.lab_command(exe, 8890, True, ["--ip=0.0.0.0"], as_root=False)
    assert as_user[0] == str(exe)
    assert f"--ServerApp.root_dir={ROOT}" in as_user
    assert "--LabApp.default_url=/lab/tree/START.ipynb" in as_user
    assert "--port=8890" in as_user and "--no-browser" in as_user
    assert "--allow-root" not in as_user
    assert as_user[-1] == "--ip=0.0.0.0"  # passed-on options come last, so they win
    as_root = tasks.lab_command(exe, None, False, [], as_root=True)
    assert "--allow-root" in as_root
    assert not any(a.startswith("--port") or a == "--no-browser" for a in as_root)


def test_lab_arguments_reach_jupyterlab(monkeypatch):
    tasks = load_tasks()
    seen = {}
    monkeypatch.setattr(tasks, "lab", lambda args: seen.update(vars(args)))
    cases = {
        ("--port", "9000", "--no-browser", "--", "--ServerApp.x=1"):
            (9000, True, ["--ServerApp.x=1"]),
        ("--ip=0.0.0.0", "--", "--y"): (None, False, ["--ip=0.0.0.0", "--y"]),
        (): (None, False, []),
    }
    for argv, (port, no_browser, extra) in cases.items():
        seen.clear()
        monkeypatch.setattr(sys, "argv", ["tasks.py", "lab", *argv])
        tasks.main()
        assert (seen["port"], seen["no_browser"], seen["lab_args"]) == (port, no_browser, extra)


def test_course_url_from_server_info():
    tasks = load_tasks()
    info = {"hostname": "localhost", "port": 8888, "base_url": "/", "token": "a b",
            "secure": False}
    assert tasks.course_url(info) == "http://127.0.0.1:8888/lab/tree/START.ipynb?token=a%20b"
    info.update(hostname="10.0.0.5", base_url="/hub/", token="", secure=True)
    assert tasks.course_url(info) == "https://10.0.0.5:8888/hub/lab/tree/START.ipynb"


def test_landing_notebook_links_every_chapter_and_exercise():
    nb = json.loads((ROOT / "START.ipynb").read_text())
    text = "\n".join("".join(c["source"]) for c in nb["cells"])
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    assert targets
    for target in targets:
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
    toc = (ROOT / "_toc.yml").read_text()
    chapters = re.findall(r"file:\s*(book/\d\d_\w+)", toc)
    assert len(chapters) >= 6
    for chapter in chapters:
        assert f"{chapter}.ipynb" in targets, chapter
    for exercise in sorted((ROOT / "exercises").glob("*.ipynb")):
        assert f"exercises/{exercise.name}" in targets, exercise.name


def test_lab_settings_draw_every_cell():
    """The setting that makes one Run All fill in every number of a chapter, where
    JupyterLab reads it: labconfig/default_setting_overrides.json on the config path."""
    tasks = load_tasks()
    overrides = tasks.LAB_CONFIG / "labconfig" / "default_setting_overrides.json"
    settings = json.loads(overrides.read_text())
    assert settings["@jupyterlab/notebook-extension:tracker"]["windowingMode"] == "none"
    env = tasks.lab_env({"JUPYTER_CONFIG_PATH": "/elsewhere", "PATH": "/bin"})
    assert env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(tasks.LAB_CONFIG), "/elsewhere"]
    assert env["PATH"] == "/bin"
    assert tasks.lab_env({})["JUPYTER_CONFIG_PATH"] == str(tasks.LAB_CONFIG)
    # Binder copies the same file into the user's configuration
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert "binder/jupyter-config/labconfig/default_setting_overrides.json" in post_build
