"""The grader: right answers score, wrong ones do not, hostile ones cannot cheat or stall."""

import csv
import json
from pathlib import Path

import nbformat
import numpy as np
from grading_class import SOLUTION, STUB

from perceptron_lib.grading import check, sandbox
from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.assignments.codec import Unsupported, decode, encode
from perceptron_lib.grading.check import run_checks

MAX = sum(t.points for t in ASSIGNMENTS["01_algorithm"])


def notebook(path, cells, assignment="01_algorithm", markdown=()):
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": assignment}
    nb.cells = [nbformat.v4.new_markdown_cell(m) for m in markdown]
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


def run_folder(tmp_path, submissions: dict, extra_args=()):
    folder = tmp_path / "submissions"
    folder.mkdir(exist_ok=True)
    for name, content in submissions.items():
        if isinstance(content, str):
            (folder / f"{name}.ipynb").write_text(content)
        else:
            notebook(folder / f"{name}.ipynb", content)
    out = tmp_path / "out"
    assert grade_folder([str(folder), "--out", str(out), "--workers", "2",
                         "--wall-seconds", "8", *extra_args]) == 0
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    results = json.loads((out / "results.json").read_text())
    return rows, results, out


def test_codec_round_trip():
    values = [None, True, 3, 2.5, float("nan"), float("-inf"), "x", (1, [2.0, None]),
              {"a": np.arange(6.0).reshape(2, 3)}, np.array([True, False]), np.int64(4)]
    for v in values:
        back = decode(json.loads(json.dumps(encode(v))))
        if isinstance(v, float) and np.isnan(v):
            assert np.isnan(back)
        elif isinstance(v, dict):
            np.testing.assert_array_equal(back["a"], v["a"])
        elif isinstance(v, np.ndarray):
            np.testing.assert_array_equal(back, v)
        else:
            assert back == v
    assert decode(encode(object())) == Unsupported("object")
    assert isinstance(decode({"__whatever__": 1}), Unsupported)


def test_solution_full_marks_stub_zero_and_known_mistakes_lose_points(tmp_path):
    wrong_strict = SOLUTION.replace("<= 0", "< 0")
    no_offset = SOLUTION.replace("theta_0 + y, True", "theta_0, True")
    flipped = SOLUTION.replace("theta + y * x, theta_0 + y", "theta - y * x, theta_0 - y")
    ignores_tau = SOLUTION.replace("for _ in range(tau):", "for _ in range(10_000):")
    ge = SOLUTION.replace("+ theta_0 > 0", "+ theta_0 >= 0")
    rows, results, out = run_folder(tmp_path, {
        "right": [SOLUTION], "stub": [STUB], "strict": [wrong_strict],
        "no_offset": [no_offset], "flipped": [flipped], "ignores_tau": [ignores_tau],
        "ge": [ge],
    })
    assert float(rows["right"]["total"]) == MAX == float(rows["right"]["max"])
    assert rows["right"]["status"] == "ok"
    assert float(rows["stub"]["total"]) == 0
    for name in ("strict", "no_offset", "flipped", "ignores_tau", "ge"):
        assert float(rows[name]["total"]) < MAX, name
    assert float(rows["ignores_tau"]["update"]) == 3  # only perceptron is wrong there
    text = (out / "feedback" / "strict.txt").read_text()
    assert "`<= 0`" in text and "expected" in text and "got" in text
    assert "stop after tau epochs" in (out / "feedback" / "ignores_tau.txt").read_text()
    assert "the offset" in (out / "feedback" / "no_offset.txt").read_text()
    right = next(g for g in results["grades"] if g["student"] == "right")
    cases = [d for t in right["tasks"] for d in t["details"]]
    assert all(d["passed"] for d in cases) and all("seconds" in d for d in cases)
    assert len(right["submission_sha256"]) == 64 and len(results["grader_sha256"]) == 64


HOSTILE = {
    "loops_forever": [SOLUTION, "while True:\n    pass"],
    "function_loops": [SOLUTION + "\ndef predict(X, theta, theta_0):\n    while True:\n"
                                  "        pass\n"],
    "os_exit": [SOLUTION, "import os\nos._exit(0)"],
    "sys_exit": ["import sys\nsys.exit(1)", SOLUTION],
    "prints_a_lot": [SOLUTION, "for _ in range(3_000_000):\n    print('spam' * 40)"],
    "eats_memory": [SOLUTION, "blocks = []\nwhile True:\n    blocks.append(bytearray(10**8))"],
    "patches_numpy": [SOLUTION.replace("<= 0", "< 0"),
                      "import numpy as np\nnp.allclose = lambda *a, **k: True\n"
                      "np.array_equal = lambda *a, **k: True\nnp.isclose = lambda *a, **k: True"],
    "patches_library": ["import perceptron_lib as pl\nfrom perceptron_lib.grading import "
                        "feedback\nfeedback.same = lambda *a: True\n"
                        "def update(*a):\n    return pl.update(*a)\n"
                        "def perceptron(X, y, tau):\n    r = pl.perceptron(X, y, tau)\n"
                        "    return r.theta, r.theta_0, r.mistakes\n"
                        "def predict(X, t, t0):\n    return pl.predict(X, t, t0)"],
    "wrong_types": ["def update(*a):\n    return 'yes'\ndef perceptron(*a):\n    return object()\n"
                    "def predict(*a):\n    return {1, 2}"],
    "missing_function": [SOLUTION.split("def predict")[0]],
    "broken_cell_first": ["this is not python", SOLUTION],
    # Many processes, but bounded: each child sleeps and exits instead of forking again.
    "many_processes": [SOLUTION, "import os, time\nfor _ in range(300):\n    try:\n"
                                 "        if os.fork() == 0:\n            time.sleep(20)\n"
                                 "            os._exit(0)\n    except OSError:\n        break"],
}


def test_reordered_deleted_and_markdown_cells(tmp_path):
    parts = SOLUTION.split("\ndef ")
    head, defs = parts[0], ["def " + p for p in parts[1:]]
    folder = tmp_path / "subs"
    folder.mkdir()
    notebook(folder / "reordered.ipynb", [defs[2], defs[1], head + "\n" + defs[0]])
    notebook(folder / "deleted.ipynb", [head, defs[0], defs[2]])
    notebook(folder / "markdown.ipynb", [head, defs[0], defs[1]], markdown=[defs[2]])
    out = tmp_path / "out"
    assert grade_folder([str(folder), "--out", str(out), "--workers", "2"]) == 0
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    assert float(rows["reordered"]["total"]) == MAX
    assert float(rows["deleted"]["perceptron"]) == 0 and float(rows["deleted"]["update"]) == 3
    assert float(rows["markdown"]["predict"]) == 0 and float(rows["markdown"]["update"]) == 3
    assert "no function named predict" in (out / "feedback" / "markdown.txt").read_text()


def test_hostile_submissions_get_what_they_earned_and_the_batch_finishes(tmp_path):
    rows, _, out = run_folder(tmp_path, {
        **HOSTILE,
        "not_json": "{ this is not a notebook",
        "not_a_notebook": json.dumps({"hello": "world"}),
    })
    assert set(rows) == set(HOSTILE) | {"not_json", "not_a_notebook"}
    total = {k: float(r["total"] or 0) for k, r in rows.items()}
    # code that runs after the functions are defined cannot take their points away ...
    assert total["loops_forever"] == MAX  # the cell is stopped at its time limit
    assert total["prints_a_lot"] == MAX
    assert total["eats_memory"] == MAX
    assert total["os_exit"] == MAX  # a cell that ends its process costs that cell only
    assert total["sys_exit"] == MAX  # a cell that raises SystemExit is just an error
    assert total["many_processes"] == MAX
    # one looping function costs that function only
    assert float(rows["function_loops"]["predict"]) == 0
    assert float(rows["function_loops"]["update"]) == 3
    # cheats earn nothing for what they did not do
    assert total["patches_numpy"] < MAX
    assert total["patches_library"] == 0
    assert total["wrong_types"] == 0
    assert float(rows["missing_function"]["predict"]) == 0
    assert float(rows["missing_function"]["perceptron"]) == 4
    assert total["broken_cell_first"] == MAX
    assert "not a readable notebook" in rows["not_json"]["status"]
    assert "not a notebook" in rows["not_a_notebook"]["status"]
    fb = (out / "feedback" / "function_loops.txt").read_text()
    assert "timed out" in fb
    assert "ran past its time limit" in (out / "feedback" / "loops_forever.txt").read_text()


def test_rerun_skips_unchanged_submissions(tmp_path, capsys):
    run_folder(tmp_path, {"a": [SOLUTION], "b": [STUB]})
    capsys.readouterr()
    notebook(tmp_path / "submissions" / "b.ipynb", [SOLUTION])
    rows, _, _ = run_folder(tmp_path, {})
    printed = capsys.readouterr().out
    assert "1 to grade, 1 unchanged" in printed
    assert float(rows["b"]["total"]) == MAX and float(rows["a"]["total"]) == MAX
    run_folder(tmp_path, {}, ["--force"])
    assert "2 to grade" in capsys.readouterr().out


def test_check_cells_teach_and_never_raise(capsys):
    ns: dict = {}
    exec(SOLUTION.replace("<= 0", "< 0"), ns)
    assert run_checks(ns["update"]) is False
    out = capsys.readouterr().out
    assert "hint: the test must be `<= 0`" in out and "grading uses" in out.lower()
    assert "passed" not in out.lower().replace("pass ", "")
    exec(STUB, ns)
    assert run_checks(ns["predict"]) is False
    assert "not written yet" in capsys.readouterr().out
    exec(SOLUTION, ns)
    assert run_checks(ns["perceptron"]) is True
    out = capsys.readouterr().out
    assert "public cases pass" in out and "more cases" in out and "all tests" not in out
    assert run_checks(lambda: None, name="no_such_function") is False
    assert check(ns["perceptron"]) is None
    ns2: dict = {}
    exec("def update(*a):\n    raise ValueError('boom')", ns2)
    assert run_checks(ns2["update"]) is False
    assert "raised ValueError: boom" in capsys.readouterr().out
    exec("import sys\ndef predict(*a):\n    sys.exit(3)", ns2)
    assert run_checks(ns2["predict"]) is False
    assert "raised SystemExit" in capsys.readouterr().out


def test_check_stops_an_endless_loop(capsys, monkeypatch):
    import importlib

    check_module = importlib.import_module("perceptron_lib.grading.check")
    monkeypatch.setattr(check_module, "CASE_SECONDS", 0.2)
    ns: dict = {}
    exec("def predict(X, theta, theta_0):\n    while True:\n        pass", ns)
    assert run_checks(ns["predict"]) is False
    assert "was stopped" in capsys.readouterr().out


def test_the_course_notebooks_solutions_full_marks_exercises_zero(tmp_path):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    folder = tmp_path / "course"
    folder.mkdir()
    names = sorted(p.stem for p in (root / "solutions").glob("*.ipynb"))
    assert names == sorted(ASSIGNMENTS)
    for name in names:
        (folder / f"solution_{name}.ipynb").write_bytes((root / "solutions" / f"{name}.ipynb")
                                                         .read_bytes())
        (folder / f"exercise_{name}.ipynb").write_bytes((root / "exercises" / f"{name}.ipynb")
                                                         .read_bytes())
    out = tmp_path / "out"
    assert grade_folder([str(folder), "--out", str(out), "--workers", "2"]) == 0
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    for name in names:
        best = sum(t.points for t in ASSIGNMENTS[name])
        sol, ex = rows[f"solution_{name}"], rows[f"exercise_{name}"]
        assert float(sol["total"]) == best == float(sol["max"]), name
        assert sol["assignment"] == ex["assignment"] == name  # a mixed folder's column
        assert sol["status"] == "ok"
        assert float(ex["total"]) == 0, name
        feedback = (out / "feedback" / f"solution_{name}.txt").read_text()
        assert "raised" not in feedback, feedback  # every cell of a solution runs cleanly


def test_one_bad_cell_costs_one_cell(tmp_path):
    from perceptron_lib.grading.judge.grade import grade

    cells = ["import numpy as np", "while True:\n    pass",  # slow: stopped by its timer
             "exit()",  # an exit the exercise never asked for
             SOLUTION.split("def perceptron")[0],
             "import os\nos._exit(1)",  # ends its process: the state before it goes on
             "x = 0\nwhile True:\n    x += 1",
             "def perceptron" + SOLUTION.split("def perceptron")[1]]
    path = notebook(tmp_path / "slow.ipynb", cells)
    g = grade(path, limits=sandbox.Limits(cell_seconds=1, call_seconds=1, wall_seconds=20))
    assert g.total == MAX and g.status == "ok", (g.status, g.notes)
    notes = "\n".join(g.notes)
    assert "cell [2] raised stopped: it ran past its time limit (1 s per cell)" in notes
    assert "cell [3] raised called exit" in notes
    assert "cell [5] raised stopped: it ended the process (exit code 1)" in notes
    assert "each cell may run for 1 s, each call of a graded function for 1 s" in notes


def test_a_function_that_changes_its_argument_is_reported(tmp_path):
    run = sandbox.run(["def f(a, b):\n    a += 1\n    return b"],
                      [{"id": "x", "function": "f",
                        "args": [encode(np.zeros(3)), encode(np.ones(2))]}])
    assert run.answers["x"]["mutated"] == [0]
    np.testing.assert_array_equal(run.answers["x"]["value"], np.ones(2))


def test_without_bubblewrap_grading_works_and_the_report_says_so(tmp_path, monkeypatch):
    from perceptron_lib.grading.judge.grade import grade

    monkeypatch.setattr(sandbox.runner, "_mode", ["limits-only"])
    g = grade(notebook(tmp_path / "right.ipynb", [SOLUTION]))
    assert g.total == MAX and g.status == "ok"
    cheat = notebook(tmp_path / "cheat.ipynb", [
        "import perceptron_lib as pl\ndef perceptron(X, y, tau):\n"
        "    r = pl.perceptron(X, y, tau)\n    return r.theta, r.theta_0, r.mistakes"])
    assert grade(cheat).tasks[1].points == 0  # the stand-in library is still first
    report = sandbox.isolation_report([tmp_path])
    assert report["sandbox"].startswith("none") and report["hidden_paths"] == []
    assert report["visible_paths"] == [str(tmp_path.resolve())]
    assert any("file system" in item for item in report["not_isolated"])


def test_similar_functions_and_the_sandbox_are_reported(tmp_path, capsys):
    renamed = (SOLUTION.replace("theta_0", "offset").replace("mistakes", "errors")
               .replace("changed", "moved"))
    rows, results, _ = run_folder(tmp_path, {"ann": [SOLUTION], "bob": [renamed],
                                               "cy": [STUB]})
    printed = capsys.readouterr().out
    same = {(s["function"], tuple(s["students"])) for s in results["similar"]}
    assert ("perceptron", ("ann", "bob")) in same and ("update", ("ann", "bob")) in same
    assert not any("cy" in s["students"] for s in results["similar"])
    assert "Similar graded functions" in printed and "ann, bob" in printed
    assert float(rows["bob"]["total"]) == MAX  # listed, never used in a score
    hidden = results["isolation"]["hidden_paths"]
    if sandbox.mode() != "limits-only":
        assert str((tmp_path / "submissions").resolve()) in hidden
        assert str((tmp_path / "out").resolve()) in hidden
        assert "sandbox: bubblewrap" in printed


def test_a_path_relative_to_the_working_folder_is_graded(tmp_path, monkeypatch):
    from perceptron_lib.grading.judge.grade import grade

    notebook(tmp_path / "rel.ipynb", [SOLUTION])
    monkeypatch.chdir(tmp_path)
    g = grade(Path("rel.ipynb"))
    assert (g.status, g.total) == ("ok", MAX)


def test_a_cell_is_named_by_the_number_jupyter_gives_it(tmp_path):
    """The check cells are not graded, yet Jupyter numbers them: the feedback counts them
    too, so that ``cell [4]`` is the cell shown as ``[4]`` after Run All."""
    from perceptron_lib.grading.judge.grade import grade

    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": "01_algorithm"}
    checks = [nbformat.v4.new_code_cell(f"check({name})") for name in ("update", "predict")]
    for cell in checks:
        cell.metadata["tags"] = ["check"]
    nb.cells = [nbformat.v4.new_markdown_cell("# Exercises"),
                nbformat.v4.new_code_cell(SOLUTION), checks[0],
                nbformat.v4.new_markdown_cell("Try it:"), checks[1],
                nbformat.v4.new_code_cell("1 / 0")]
    nbformat.write(nb, str(tmp_path / "numbered.ipynb"))
    g = grade(tmp_path / "numbered.ipynb")
    assert g.notes == ["cell [4] raised ZeroDivisionError: division by zero"]
    assert g.total == MAX
