import fcntl
import importlib
import os
import pickle
import subprocess
import sys
from pathlib import Path

# scikit-learn's conformance suite skips check_array_api_input (array API dispatch on
# NumPy inputs must not change an estimator's results) unless SciPy was imported with
# this variable set; set it before anything imports SciPy, so that the check runs.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")

# With --doctest-modules pytest would also import both conftest.py files (this one and
# tests/browser's) as modules named "conftest", and the second import would clash.
collect_ignore = ["conftest.py", "browser/conftest.py"]
sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "course",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("course")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


# ---------------------------------------------------------------------------------------
# One clean build of the book per test run, shared by tests/test_book.py and the browser
# tests in tests/browser, whichever pytest-xdist worker asks for it first.

ROOT = Path(__file__).resolve().parents[1]


def _shared_dir(tmp_path_factory) -> Path:
    # Under pytest-xdist every worker has its own basetemp inside one common folder.
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_book(out: Path) -> subprocess.CompletedProcess:
    jb = Path(sys.executable).parent / "jupyter-book"
    return subprocess.run(
        [str(jb), "build", str(ROOT), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True,
        text=True,
        timeout=900,
    )


#: Builds the book into the shared folder, holding its lock (inherited from the process
#: that started it) until "built" or "failed" is written.
BUILD_IN_BACKGROUND = """
import subprocess, sys
from pathlib import Path
shared, jb, root = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
proc = subprocess.run([jb, "build", root, "--path-output", str(shared), "-W", "-n",
                       "--keep-going"], capture_output=True, text=True, timeout=900)
if proc.returncode == 0:
    (shared / "built").write_text("ok")
else:
    (shared / "failed").write_text(
        f"exit {proc.returncode}\\n{proc.stdout[-4000:]}\\n{proc.stderr[-4000:]}")
"""
_background: list[subprocess.Popen] = []


def _wants_the_book(config) -> bool:
    """Whether this run is the whole suite (or names the tests that read the site)."""
    if config.option.keyword or config.option.markexpr:
        return False
    args = [str(a) for a in config.args]
    whole = not args or any(Path(a).resolve() in (ROOT, ROOT / "tests") for a in args)
    return whole or any("browser" in a or "test_book" in a for a in args)


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    """With pytest-xdist, start the book's build at once, in the background, so that it
    runs beside the first tests rather than holding up the tests that read the site
    (which wait for its lock, as they wait for a build made by a worker)."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    if os.environ.get("PERCEPTRON_COURSE_BUILT") or not _wants_the_book(config):
        return
    shared = config._tmp_path_factory.getbasetemp() / "course-book"
    shared.mkdir(exist_ok=True)
    lock = open(shared / "lock", "w")  # handed to the build, then closed here
    fcntl.flock(lock, fcntl.LOCK_EX)
    jb = Path(sys.executable).parent / "jupyter-book"
    # The build inherits the locked file: the lock is held until the build ends.
    _background.append(subprocess.Popen(
        [sys.executable, "-c", BUILD_IN_BACKGROUND, str(shared), str(jb), str(ROOT)],
        pass_fds=[lock.fileno()], stdin=subprocess.DEVNULL))
    lock.close()


def pytest_unconfigure(config):
    for proc in _background:  # an interrupted run: no build goes on without it
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)


@pytest.fixture(scope="session")
def build(tmp_path_factory) -> Path:
    """The ``_build`` folder of a clean build (warnings as errors, every notebook run).

    PERCEPTRON_COURSE_BUILT=path/to/_build tests an existing build instead (quicker while
    working on the tests themselves; the test command always builds from clean).
    """
    given = os.environ.get("PERCEPTRON_COURSE_BUILT")
    if given:
        return Path(given).resolve()
    shared = _shared_dir(tmp_path_factory) / "course-book"
    shared.mkdir(exist_ok=True)
    done, failed = shared / "built", shared / "failed"
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other workers wait for the first one
        try:
            if not done.exists() and not failed.exists():
                proc = build_book(shared)
                if proc.returncode == 0:
                    done.write_text("ok")
                else:
                    failed.write_text(
                        f"exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
                    )
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    if failed.exists():
        pytest.fail(f"the book did not build:\n{failed.read_text()}")
    return shared / "_build"


@pytest.fixture(scope="session")
def site(build) -> Path:
    """The built HTML site."""
    return build / "html"


def pytest_collection_modifyitems(config, items):
    # The browser tests wait for the book build: run them last, after everything that
    # can use the other workers in the meantime.
    items.sort(key=lambda item: "tests/browser/" in item.nodeid.replace("\\", "/"))


# ---------------------------------------------------------------------------------------
# The numbers each chapter should glue (tests/book_expect), computed once per test run
# whichever worker asks first: the site's test and the JupyterLab test compare with them.

@pytest.fixture(scope="session")
def book_expected(tmp_path_factory):
    """``book_expected(n)``: ``book_expect.ch{n}.expected()``, shared by the workers."""
    shared = _shared_dir(tmp_path_factory) / "book_expect"
    shared.mkdir(exist_ok=True)

    def expected(number: int) -> dict:
        path = shared / f"ch{number}.pickle"
        with open(shared / f"ch{number}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if path.exists():
                return pickle.loads(path.read_bytes())
            value = importlib.import_module(f"book_expect.ch{number}").expected()
            path.write_bytes(pickle.dumps(value))
            return value

    return expected
