"""Gradescope's autograder: the package, its run in the container's layout, results.json.

The container is laid out as Gradescope lays it out (``source`` holds the unzipped
package, ``submission`` the student's upload, ``results`` what is read back) in a
temporary folder; ``run_autograder`` is pointed at it with ``AUTOGRADER_ROOT`` and at
this environment's Python with ``AUTOGRADER_PYTHON``.  The run without bubblewrap, as
inside Gradescope's container, is forced in the grader's own process, with a Python
that a uid other than root may start.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from perceptron_lib.grading.__main__ import main as grading_main
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.intake.names import Student
from perceptron_lib.grading.intake.submissions import Submission
from perceptron_lib.grading.judge.grade import Grade, TaskResult
from perceptron_lib.grading.judge.records import record
from perceptron_lib.grading.outputs import autograder, gradescope
from perceptron_lib.grading.sandbox import own_user, runner

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "solutions" / "01_algorithm.ipynb"
EXERCISE = ROOT / "exercises" / "01_algorithm.ipynb"
FULL = 9.0  # chapter 1's points
CASES = sum(len(t.all_cases()) for t in ASSIGNMENTS["01_algorithm"])  # one test a case
VISIBILITY = {"visible", "after_due_date", "after_published", "hidden"}


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("package")
    assert grading_main(["autograder", "--assignment", "01_algorithm", "--out", str(out)]) == 0
    return out / "autograder.zip"


def container(package: Path, notebook: Path | None, where: Path) -> Path:
    """A folder laid out as Gradescope's /autograder, readable by other users."""
    root = Path(tempfile.mkdtemp(prefix="autograder-", dir=where))
    os.chmod(root, 0o755)
    for name in ("source", "submission", "results"):
        (root / name).mkdir()
    with zipfile.ZipFile(package) as zf:
        zf.extractall(root / "source")
    if notebook is not None:
        shutil.copy(notebook, root / "submission" / notebook.name)
    (root / "submission_metadata.json").write_text(json.dumps(
        {"id": 1, "users": [{"name": "Zoë Ñandú", "id": 42, "email": "z@example.org"}],
         "previous_submissions": [{"results": {"tests": [{"output": "expected 7"}]}}]}),
        encoding="utf-8")
    return root


def check_schema(data: dict) -> None:
    """results.json as Gradescope's autograder specification describes it."""
    assert isinstance(data["score"], float)
    assert isinstance(data["output"], str) and data["stdout_visibility"] in VISIBILITY
    for test in data["tests"]:
        assert {"name", "score", "max_score", "output", "visibility"} <= set(test)
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert isinstance(test["score"], float) and isinstance(test["max_score"], float)
        assert 0 <= test["score"] <= test["max_score"]
        assert test["visibility"] in VISIBILITY and test["status"] in {"passed", "failed"}
    json.dumps(data, allow_nan=False)


def run_script(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    env.pop("PYTHONPATH", None)
    return subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=300, cwd="/")


# ------------------------------------------------------------------ the package
def test_the_package_has_the_scripts_at_its_top_and_no_answers_of_the_course(package):
    with zipfile.ZipFile(package) as zf:
        infos = {i.filename: i for i in zf.infolist()}
        run = zf.read("run_autograder").decode()
        manifest = json.loads(zf.read("autograder.json"))
        pinned = zf.read("requirements.txt").decode().split()
    for script in ("setup.sh", "run_autograder"):
        assert (infos[script].external_attr >> 16) & 0o111 == 0o111, script
    names = list(infos)
    assert names[:2] == ["setup.sh", "run_autograder"]
    assert "perceptron_lib/grading/assignments/a01_algorithm.py" in names
    assert "perceptron_lib/grading/outputs/gradescope.py" in names
    assert not [n for n in names if n.split("/")[0] in ("solutions", "tests", "exercises",
                                                         "book", ".git")]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert "--assignment 01_algorithm" in run and "/autograder" in run
    assert manifest["assignment"] == "01_algorithm" and manifest["points"] == FULL
    course = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert pinned and all("==" in p and p in course for p in pinned), pinned
    assert {p.split("==")[0] for p in pinned} == {"numpy", "matplotlib"}


def test_the_scripts_are_valid_bash_and_the_build_is_reproducible(package, tmp_path):
    with zipfile.ZipFile(package) as zf:
        zf.extractall(tmp_path / "unzipped")
    for script in ("setup.sh", "run_autograder"):
        done = subprocess.run(["bash", "-n", str(tmp_path / "unzipped" / script)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    again = autograder.build("01_algorithm", tmp_path / "again")
    assert again.read_bytes() == package.read_bytes()
    other = autograder.build("01_algorithm", tmp_path / "other", grading_cases="after_due_date")
    with zipfile.ZipFile(other) as zf:
        assert "--grading-cases after_due_date" in zf.read("run_autograder").decode()


def test_a_dependency_without_a_pin_is_refused_by_name(tmp_path):
    for name in ("pyproject.toml", "constraints.txt", "LICENSE"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "requirements.txt").write_text("numpy==2.4.6\n", encoding="utf-8")
    text = (tmp_path / "constraints.txt").read_text(encoding="utf-8")
    (tmp_path / "constraints.txt").write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("matplotlib==")),
        encoding="utf-8")
    with pytest.raises(autograder.BuildError, match="matplotlib"):
        autograder.requirements(tmp_path)


# ------------------------------------------------------------------ results.json
def failed_record() -> dict:
    details = [
        {"case": 1, "kind": "public", "about": "the worked example", "passed": True},
        {"case": 2, "kind": "grading", "about": "a point on the boundary", "passed": False,
         "input": "theta = [0.0, 0.0], theta_0 = 0.0, x = [1.0, 2.0], y = -1.0",
         "differences": ["expected mistake = True, got False"],
         "error": "expected mistake = True, got False",
         "hint": "a point on the boundary is a mistake: use <= 0"},
        {"case": 3, "kind": "grading", "about": "random", "passed": True},
    ]
    task = TaskResult("update", 2.0, 3.0, 2, 3, ["update: 2 of 3 cases right"], details)
    g = Grade(student="Zoë", assignment="01_algorithm", status="ok", tasks=[task])
    return record(g, "hash")


def test_a_failed_case_says_its_input_what_was_expected_and_the_hint():
    data = gradescope.results(failed_record(), grading_cases="after_due_date",
                              notes=["You uploaded 2 notebooks"])
    check_schema(data)
    tests = [t for t in data["tests"] if t["tags"][0] == "update"]
    assert [t["status"] for t in tests] == ["passed", "failed", "passed"]
    assert [t["visibility"] for t in tests] == ["visible", "after_due_date", "after_due_date"]
    failed = tests[1]
    assert "theta_0 = 0.0" in failed["output"] and "expected mistake = True" in failed["output"]
    assert "hint: a point on the boundary" in failed["output"] and failed["score"] == 0
    assert sum(t["max_score"] for t in tests) == pytest.approx(3.0, abs=1e-9)
    assert data["score"] == 2.0 and data["output"].startswith("You uploaded 2 notebooks")
    assert "update: 2 of 3 cases right" in data["output"]
    with pytest.raises(ValueError, match="visibility"):
        gradescope.results(failed_record(), grading_cases="later")


def test_the_cases_of_a_function_add_up_to_its_points():
    for points, n in ((3.0, 17), (4.0, 12), (2.0, 8), (1.0, 3)):
        shares = gradescope._shares(points, n)
        assert len(shares) == n and sum(shares) == pytest.approx(points, abs=1e-9)


def test_a_file_that_is_no_notebook_fails_every_case_with_its_status():
    g = Grade(student="x", assignment="01_algorithm", status="not a readable notebook")
    data = gradescope.results(record(g, "hash"))
    check_schema(data)
    assert len(data["tests"]) == CASES and data["score"] == 0
    assert {t["output"] for t in data["tests"]} == {"not a readable notebook"}
    assert sum(t["max_score"] for t in data["tests"]) == pytest.approx(FULL)


def test_the_notebook_of_the_assignment_is_chosen_among_several(tmp_path):
    mine, other = tmp_path / "a.ipynb", tmp_path / "b.ipynb"
    shutil.copy(SOLUTION, mine)
    shutil.copy(ROOT / "solutions" / "02_offset.ipynb", other)
    found = [Submission(Student("b"), other, "scratch.ipynb", "plain file"),
             Submission(Student("a"), mine, "homework.ipynb", "plain file")]
    best, notes = gradescope.choose(found, "01_algorithm")
    assert best.path == mine
    assert notes[0].startswith("You uploaded 2 notebooks: graded homework.ipynb")
    assert gradescope.choose([], "01_algorithm") == (None, [])


def test_the_metadata_is_read_with_bounds(tmp_path):
    meta = tmp_path / "submission_metadata.json"
    meta.write_text(json.dumps({"users": [{"name": "李雷", "id": 7}, {"name": "Ana", "id": 8},
                                          "junk"]}), encoding="utf-8")
    assert gradescope.student_of(meta) == ("李雷, Ana", "7, 8")
    meta.write_text("[" * 100_000, encoding="utf-8")
    assert gradescope.student_of(meta) == ("", "")
    meta.write_bytes(b" " * (gradescope.METADATA_BYTES + 1))
    assert gradescope.student_of(meta) == ("", "")
    assert gradescope.student_of(tmp_path / "absent") == ("", "")


# ------------------------------------------------------------------ the run
@pytest.mark.slow
def test_run_autograder_gives_the_solution_full_marks_and_the_exercise_none(package):
    scores = {}
    for notebook in (SOLUTION, EXERCISE):
        root = container(package, notebook, Path(tempfile.gettempdir()))
        try:
            done = run_script(root)
            assert done.returncode == 0, done.stdout + done.stderr
            data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
            check_schema(data)
            assert len(data["tests"]) == CASES
            assert sum(t["max_score"] for t in data["tests"]) == pytest.approx(FULL)
            assert data["output"].startswith("Feedback for Zoë Ñandú (42) (01_algorithm)")
            assert "sandbox:" in done.stdout  # for the instructor, in Gradescope's stdout
            assert (root / "source").stat().st_mode & 0o077 == 0
            assert (root / "submission_metadata.json").stat().st_mode & 0o077 == 0
            scores[notebook.parent.name] = data
        finally:
            shutil.rmtree(root)
    assert scores["solutions"]["score"] == FULL
    assert {t["status"] for t in scores["solutions"]["tests"]} == {"passed"}
    assert scores["exercises"]["score"] == 0
    stub = scores["exercises"]["tests"][0]
    assert stub["status"] == "failed" and "NotImplementedError" in stub["output"]
    assert "input: theta = " in stub["output"]


def test_an_upload_without_a_notebook_gets_a_message_not_a_crash(package, tmp_path):
    root = container(package, None, Path(tempfile.gettempdir()))
    try:
        (root / "submission" / "answers.py").write_text("x = 1\n", encoding="utf-8")
        assert gradescope.run(root, "01_algorithm") == 0
        data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
        check_schema(data)
        assert data["score"] == 0 and "upload your 01_algorithm.ipynb" in data["output"]
    finally:
        shutil.rmtree(root)


# ------------------------------------------------------------------ without bubblewrap
def _python_for_others(where: Path) -> Path:
    """A virtual environment of the system's Python that sees this environment's
    packages, in a folder every user may open (this one may live under /root)."""
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if not system.exists():
        pytest.skip(f"no {system} to make a Python that another uid may start")
    venv = where / "venv"
    subprocess.run([str(system), "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3.*")) / "site-packages"
    here = next(p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())
    closed = [str(d) for d in [Path(here), *Path(here).parents]
              if not os.stat(d).st_mode & stat.S_IXOTH]
    if closed:  # the test cannot give the other uid this environment's packages
        pytest.fail(f"{closed[-1]} is closed to other users (mode 0700?), and this "
                    f"environment's packages ({here}) are inside it: the submission's uid "
                    "cannot import them. Run the tests from a clone in a folder every user "
                    "may open, as CI does")
    (site / "course.pth").write_text(here + "\n", encoding="utf-8")
    return venv / "bin" / "python"


HOSTILE = """
import json, os, subprocess
found = {{"uid": os.getuid()}}
for name, path in {reads}.items():
    try:
        with open(path) as fh:
            fh.read(1)
        found[name] = "read"
    except OSError as exc:
        found[name] = type(exc).__name__
try:
    with open({results!r}, "w") as fh:
        fh.write('{{"score": 1000}}')
    found["results"] = "written"
except OSError as exc:
    found["results"] = type(exc).__name__
try:
    os.kill({grader}, 0)
    found["grader"] = "may be signalled"
except OSError as exc:
    found["grader"] = type(exc).__name__
with open("own-file.txt", "w") as fh:
    fh.write("a submission may write in its working folder")
subprocess.Popen(["sleep", "600"], start_new_session=True)
with open({marker!r}, "w") as fh:
    json.dump(found, fh)
"""


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0
                    or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_without_bubblewrap_the_submission_runs_as_a_uid_that_reaches_no_answer(
        package, monkeypatch):
    where = Path(tempfile.mkdtemp(prefix="gradescope-limits-only-"))
    os.chmod(where, 0o755)
    try:
        python = _python_for_others(where)
        monkeypatch.setattr(runner, "_mode", ["limits-only"])
        monkeypatch.setattr(runner, "PYTHON", str(python))
        root = container(package, None, where)
        shared = where / "shared"  # where the submission may leave what it found
        shared.mkdir(mode=0o777)
        os.chmod(shared, 0o777)
        marker = shared / "marker.json"
        reads = {"references": str(root / "source" / "perceptron_lib" / "grading"
                                   / "assignments" / "a01_algorithm.py"),
                 "package": str(root / "source" / "autograder.json"),
                 "metadata": str(root / "submission_metadata.json")}
        nb = json.loads(SOLUTION.read_text(encoding="utf-8"))
        nb["cells"].append({"cell_type": "code", "metadata": {}, "outputs": [],
                            "execution_count": None,
                            "source": HOSTILE.format(reads=reads, marker=str(marker),
                                                     results=str(root / "results" /
                                                                 "results.json"),
                                                     grader=os.getpid())})
        (root / "submission" / "01_algorithm.ipynb").write_text(json.dumps(nb),
                                                                encoding="utf-8")
        assert gradescope.run(root, "01_algorithm") == 0
        found = json.loads(marker.read_text(encoding="utf-8"))
        assert found == {"uid": own_user.UID, "references": "PermissionError",
                         "package": "PermissionError", "metadata": "PermissionError",
                         "results": "PermissionError", "grader": "PermissionError"}
        data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
        check_schema(data)
        assert data["score"] == FULL  # the honest functions still count
        assert runner.PYTHON == str(python)  # put back once the run ended
        alive = [p for p in own_user._pids()
                 if own_user._owner(p) == own_user.UID and not own_user._zombie(p)]
        assert alive == []  # the process it left behind was ended
    finally:
        shutil.rmtree(where, ignore_errors=True)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0
                    or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_a_python_the_uid_cannot_start_leaves_runs_as_they_were_and_says_why(monkeypatch,
                                                                              tmp_path):
    locked = tmp_path / "locked"  # below pytest's folder, which only root may open
    locked.mkdir()
    fake = locked / "python"
    fake.symlink_to(sys.executable)
    monkeypatch.setattr(runner, "_mode", ["limits-only"])
    monkeypatch.setattr(runner, "PYTHON", str(fake))
    separation = own_user.separate()
    assert separation.uid is None and runner.PYTHON == str(fake)
    assert "cannot start the grader's Python" in separation.why
    assert "grader's own user" in separation.describe()


def test_with_bubblewrap_nothing_is_changed(monkeypatch):
    monkeypatch.setattr(runner, "_mode", ["bwrap-root"])
    before = runner.PYTHON
    separation = own_user.separate()
    assert separation.uid is None and "not needed" in separation.why
    assert runner.PYTHON == before


def test_the_wrapper_gives_only_a_runs_own_folder_to_the_uid(tmp_path):
    text = own_user.wrapper_text("/opt/env/bin/python", "/usr/bin/setpriv", "/bin/chown",
                                 Path("/tmp/perceptron-grading-run-x y"))
    assert "'/tmp/perceptron-grading-run-x y'/submission-*) /bin/chown 3200000:3200000" in text
    assert "--no-new-privs" in text and "--clear-groups" in text and "--reuid=3200000" in text
    done = subprocess.run(["sh", "-n", "-c", text], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_secret_goes_into_the_package_and_draws_the_grading_cases(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("5e1f0c9a")
    args = ["autograder", "--assignment", "01_algorithm", "--grading-cases", "hidden"]
    assert grading_main([*args, "--out", str(tmp_path / "plain")]) == 0
    assert grading_main([*args, "--out", str(tmp_path / "drawn"), "--secret", str(secret)]) == 0
    with zipfile.ZipFile(tmp_path / "drawn" / "autograder.zip") as zf:
        assert zf.read("grading-secret") == b"5e1f0c9a"
        assert (zf.getinfo("grading-secret").external_attr >> 16) & 0o077 == 0
        assert '--secret "$ROOT/source/grading-secret"' in zf.read("run_autograder").decode()
        assert "secret" in json.loads(zf.read("autograder.json"))["cases"]
    with zipfile.ZipFile(tmp_path / "plain" / "autograder.zip") as zf:
        assert "grading-secret" not in zf.namelist()
        assert "anyone can compute" in json.loads(zf.read("autograder.json"))["cases"]
    wrong = tmp_path / "strict.ipynb"
    nb = json.loads(SOLUTION.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = src.replace("<= 0", "< 0")
    wrong.write_text(json.dumps(nb))
    outputs = {}
    for kind in ("plain", "drawn"):
        root = container(tmp_path / kind / "autograder.zip", wrong, Path(tempfile.gettempdir()))
        try:
            done = run_script(root)
            assert done.returncode == 0, done.stdout + done.stderr
            data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
            check_schema(data)
            outputs[kind] = [t["output"] for t in data["tests"] if "(grading)" in t["name"]]
        finally:
            shutil.rmtree(root)
    assert len(outputs["plain"]) == len(outputs["drawn"])
    assert outputs["plain"] != outputs["drawn"]  # other inputs, drawn from the secret
