"""One bug costs once, and hints only where they fit.

A graded function that lost points and calls graded functions of its notebook that lost
points too is graded once more with the references of those, in a run of its own after
every function's own cases were answered, and keeps the better score; the feedback and
the check cell say "`perceptron` passes with the reference `update`: fix `update`
first".  A known mistake's hint is given only when the mistake explains most of the
function's failed cases.
"""

from __future__ import annotations

import csv
import dataclasses
import json

import nbformat
import numpy as np
import pytest
from grading_class import SOLUTION
from grading_inprocess import define, grade_in_process

import perceptron_lib as pl
from perceptron_lib.grading import sandbox
from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.assignments import ASSIGNMENTS, find_task
from perceptron_lib.grading.check import check, public_outcomes, run_checks
from perceptron_lib.grading.judge import cascade
from perceptron_lib.grading.judge.grade import grade
from perceptron_lib.grading.judge.verdict import Verdict, fit_hints, same
from perceptron_lib.grading.outputs import classstats
from perceptron_lib.grading.sandbox import runner

NOTE = "`perceptron` passes with the reference `update`: fix `update` first"
STRICT_UPDATE = SOLUTION.replace("<= 0", "< 0")  # perceptron calls update: right as it is
EXTRA_EPOCH = STRICT_UPDATE.replace("for _ in range(tau):", "for _ in range(tau + 1):")
# its own loop, without the offset, and no call of update
OWN_LOOP = '''
def perceptron(X, y, tau):
    X = np.asarray(X, dtype=float)
    theta, mistakes = np.zeros(X.shape[1]), 0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * (theta @ X[i]) <= 0:
                theta = theta + y[i] * X[i]
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, 0.0, mistakes
'''
OWN_LOOP_NO_OFFSET = (STRICT_UPDATE.split("def perceptron")[0] + OWN_LOOP + "\ndef predict"
                      + SOLUTION.split("def predict")[1])
# names update, and never calls it in a way that matters: still a wrong perceptron
MENTIONS_UPDATE = OWN_LOOP_NO_OFFSET.replace("    X = np.asarray(X, dtype=float)\n    theta,",
                                             "    _ = update\n    X = np.asarray(X, dtype=float)\n"
                                             "    theta,", 1)

#: A student who, in the run that grades ``perceptron`` with the reference ``update``,
#: takes the reference and tries to answer ``update``'s own (public) cases with it: on
#: the answer channel, in a file, in the notebook's namespace.
ATTACK = STRICT_UPDATE.split("def perceptron")[0] + '''
import json, os, sys

PUBLIC = [([1.0, -1.0], 1.0, [1.0, 3.0], 1.0), ([2.0, 2.0], 2.0, [1.0, 3.0], 1.0),
          ([0.0, 0.0], 0.0, [1.0, 2.0], -1.0), ([1.0, 1.0], 2.0, [1.0, 0.0], -1.0)]
MINE = update


def update(theta, theta_0, x, y):
    if "STOLEN" in globals():
        return STOLEN(theta, theta_0, x, y)
    if os.path.exists("/tmp/stolen.json"):
        with open("/tmp/stolen.json") as fh:
            for args, value in json.load(fh):
                if np.allclose(args[0], theta) and np.allclose(args[2], x) \\
                        and args[1] == theta_0 and args[3] == y:
                    return np.array(value[0]), value[1], value[2]
    return MINE(theta, theta_0, x, y)


def _steal(reference):
    globals()["STOLEN"] = reference
    import codec
    fd = int(sys.argv[1])
    said = {"kind": "cells", "errors": [{"cell": 1, "error": "captured the reference"}]}
    os.write(fd, (json.dumps(said) + "\\n").encode())
    kept = []
    for k, (t, t0, x, y) in enumerate(PUBLIC):
        value = reference(np.array(t), t0, np.array(x), y)
        kept.append([[t, t0, x, y], [list(map(float, value[0])), float(value[1]),
                                     bool(value[2])]])
        line = {"kind": "call", "id": f"update:{k}", "value": codec.encode(value)}
        os.write(fd, (json.dumps(line) + "\\n").encode())
    with open("/tmp/stolen.json", "w") as fh:
        json.dump(kept, fh)


def perceptron(X, y, tau):
    if globals()["update"] is not update_of_mine and "STOLEN" not in globals():
        _steal(globals()["update"])
    X = np.asarray(X, dtype=float)
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            theta, theta_0, updated = update(theta, theta_0, X[i], y[i])
            mistakes += updated
            changed = changed or updated
        if not changed:
            break
    return theta, theta_0, mistakes


update_of_mine = update

def predict''' + SOLUTION.split("def predict")[1]

# chapter 3: a wrong signed_distance under right point_margins and margin
DISTANCE_SCORE = '''
import numpy as np

def signed_distance(X, theta, theta_0):
    return np.asarray(X, dtype=float) @ np.asarray(theta, dtype=float) + theta_0

def point_margins(X, y, theta, theta_0):
    return np.asarray(y, dtype=float) * signed_distance(X, theta, theta_0)

def margin(X, y, theta, theta_0):
    return float(np.min(point_margins(X, y, theta, theta_0)))
'''
# a ring: each function written as another; only the one it builds on may stand in
RING = '''
import numpy as np

def signed_distance(X, theta, theta_0):
    return point_margins(X, np.ones(len(X)), theta, theta_0)

def point_margins(X, y, theta, theta_0):
    return np.asarray(y, dtype=float) * signed_distance(X, theta, theta_0)

def margin(X, y, theta, theta_0):
    return float(np.min(point_margins(X, y, theta, theta_0)))
'''


def _notebook(path, cells, assignment="01_algorithm"):
    nb = nbformat.v4.new_notebook()
    nb.metadata["perceptron_course"] = {"assignment": assignment}
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


def _task(result, name):
    return next(t for t in result["tasks"] if t["name"] == name)


# ----------------------------------------------------------------------- the rules
def test_a_function_builds_only_on_the_graded_functions_before_it():
    update, perceptron, predict = ASSIGNMENTS["01_algorithm"]
    tasks = [update, perceptron, predict]
    assert cascade.allowed(update, tasks) == ()
    assert cascade.allowed(perceptron, tasks) == ("update",)
    assert cascade.allowed(predict, tasks) == ("update", "perceptron")
    declared = dataclasses.replace(predict, calls=())
    assert cascade.allowed(declared, [update, perceptron, declared]) == ()
    later = dataclasses.replace(perceptron, calls=("update", "predict"))
    assert cascade.allowed(later, [update, later, predict]) == ("update",)
    assert cascade.callees(perceptron, tasks, {"update"}, set()) == ()  # update is right
    assert cascade.callees(perceptron, tasks, set(), {"update"}) == ()  # never called
    assert cascade.callees(perceptron, tasks, {"update"}, {"update"}) == ("update",)
    # the library's versions of a reference's own foundations work beside it
    signed_distance, point_margins, margin = ASSIGNMENTS["03_margin"]
    chapter3 = [signed_distance, point_margins, margin]
    assert cascade.unblocked(["point_margins"], chapter3) == {"signed_distance",
                                                              "point_margins"}
    assert cascade.unblocked(["update"], tasks) == {"update"}
    alone = dataclasses.replace(point_margins, calls=())
    assert cascade.unblocked(["point_margins"], [signed_distance, alone, margin]) == {
        "point_margins"}


def test_what_a_function_calls_is_read_from_its_code():
    graded = ["update", "perceptron", "predict"]
    cells = [
        "import numpy as np\n%matplotlib inline\nclass update:\n    pass\n",
        "def _step(t, t0, x, y):\n    return update(t, t0, x, y)\n"
        "def perceptron(X, y, tau):\n    step = lambda: _step(1, 2, 3, 4)\n    return step()\n",
        "def predict(X, theta, theta_0):\n    return pl.update(X) or perceptron\n",
        "this is not python",
        "def helper():\n    return predict\n",
    ]
    # pl.update is the library's, an attribute: not the notebook's update; and the
    # class update is no function
    assert cascade.uses_in_cells(cells, graded) == {"perceptron": {"update"},
                                                     "predict": {"perceptron"}}
    ns = {"np": np, "pl": pl}
    exec(cells[1] + "\ndef update(*a):\n    return perceptron\n", ns)
    assert cascade.uses_live(ns["perceptron"], graded) == {"update"}
    # not through another graded function: update's own calls are update's
    assert cascade.uses_live(ns["_step"], graded) == {"update"}
    assert cascade.uses_live(len, graded) == set()


CALLEES = [(a, t) for a, tasks in ASSIGNMENTS.items() for t in tasks[:-1]]


@pytest.mark.parametrize("assignment,task", CALLEES, ids=[t.name for _, t in CALLEES])
def test_every_reference_that_may_stand_in_crosses_into_the_sandbox_whole(assignment, task):
    shipped = cascade.shipped(task)
    assert shipped["name"] == task.name
    fn = cascade.load_shipped(shipped, {"__name__": "reference", "np": np, "pl": pl})
    assert fn is not task.reference
    for case in task.public:
        assert same(task, task.reference(*case.args), fn(*case.args)), case.about


def test_the_sandbox_never_ships_the_reference_of_a_function_it_grades():
    _, perceptron = find_task("perceptron")
    calls = [{"id": "perceptron:0", "function": "perceptron", "args": []}]
    with pytest.raises(ValueError, match="ships references of others only"):
        sandbox.run(["x = 1"], calls, references=[cascade.shipped(perceptron)],
                    blocked=frozenset({"update", "predict"}))
    _, update = find_task("update")
    with pytest.raises(ValueError, match="blocks every function it calls"):
        sandbox.run(["x = 1"], calls, references=[cascade.shipped(update)],
                    blocked=frozenset({"update", "perceptron"}))
    with pytest.raises(ValueError):  # the graded function's library version stays blocked
        sandbox.run(["x = 1"], calls, blocked=frozenset({"predict"}))


# ----------------------------------------------------------------------- the grader
@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """A small class of 01_algorithm, graded by the command."""
    base = tmp_path_factory.mktemp("cascade")
    folder = base / "subs"
    folder.mkdir()
    kinds = {"right": SOLUTION, "strict_update": STRICT_UPDATE, "extra_epoch": EXTRA_EPOCH,
             "own_loop": OWN_LOOP_NO_OFFSET, "mentions_update": MENTIONS_UPDATE}
    for name, source in kinds.items():
        _notebook(folder / f"{name}.ipynb", [source])
    out = base / "out"
    assert grade_folder([str(folder), "--out", str(out), "--workers", "2"]) == 0
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {r["student"]: r for r in csv.DictReader(fh)}
    records = {g["student"]: g for g in json.loads((out / "results.json").read_text())[
        "grades"]}
    return {"rows": rows, "records": records, "out": out}


def test_a_right_perceptron_keeps_its_points_when_update_is_wrong(graded_class):
    rows, records, out = graded_class["rows"], graded_class["records"], graded_class["out"]
    assert float(rows["right"]["total"]) == 9
    assert float(rows["strict_update"]["perceptron"]) == 4
    assert float(rows["strict_update"]["update"]) < 3  # the bug costs once, in update
    perceptron = _task(records["strict_update"], "perceptron")
    assert perceptron["with_reference"] == ["update"] and perceptron["own_passed"] == 0
    assert perceptron["passed"] == perceptron["cases"]
    assert all(d["passed"] for d in perceptron["details"])
    text = (out / "feedback" / "strict_update.txt").read_text()
    n = len(find_task("perceptron")[1].all_cases())
    assert NOTE in text and f"with yours, 0 of {n}" in text
    page = (out / "feedback" / "strict_update.html").read_text()
    assert "<code>perceptron</code> passes with the reference <code>update</code>: fix " \
           "<code>update</code> first" in page
    right = _task(records["right"], "perceptron")
    assert right["with_reference"] == [] and right["own_passed"] is None
    assert "reference" not in (out / "feedback" / "right.txt").read_text()


def test_a_wrong_perceptron_still_loses_its_points(graded_class):
    rows, records, out = graded_class["rows"], graded_class["records"], graded_class["out"]
    # one epoch too many: better with the reference update, never full
    extra = _task(records["extra_epoch"], "perceptron")
    assert 0 < extra["points"] < 4 and extra["with_reference"] == ["update"]
    text = (out / "feedback" / "extra_epoch.txt").read_text()
    assert "`perceptron` does better with the reference `update`: fix `update` first" in text
    assert "run at most tau epochs" in text  # its own mistake, named on the cases left
    # its own loop, which does not call update: graded as it is
    for student in ("own_loop", "mentions_update"):
        own = _task(records[student], "perceptron")
        assert own["with_reference"] == [], student
        assert float(rows[student]["perceptron"]) < 4
        assert "the offset" in (out / "feedback" / f"{student}.txt").read_text()
    alone = grade_in_process(define(OWN_LOOP, "perceptron"), "perceptron")
    assert float(rows["own_loop"]["perceptron"]) == alone.points


def test_the_class_report_lists_the_mistake_under_update_only(graded_class):
    records = list(graded_class["records"].values())
    rows = classstats.mistakes(records)
    strict = [r for r in rows if "strict_update" in r["who"]]
    assert strict and all(r["function"] == "update" and r["known"] for r in strict)
    assert any("`<= 0`" in r["what"] for r in strict)
    extra = [r for r in rows if "extra_epoch" in r["who"] and r["function"] == "perceptron"]
    assert [r["what"] for r in extra if r["known"]] == [
        find_task("perceptron")[1].mistake("extra epoch").hint]


@pytest.fixture()
def runs(monkeypatch):
    """Every sandbox run grading makes: what it was asked (and asked in a second part),
    what came back, and every line the child wrote, with the line that ends the first
    part."""
    made = []
    real = sandbox.run
    read = runner._Reader.result

    def lines_of(reader, status, seconds):
        made[-1]["lines"], made[-1]["answered_at"] = list(reader.lines), reader.answered_at
        return read(reader, status, seconds)

    def spy(cells, calls, limits=None, hidden=(), **kw):
        made.append({"functions": {c["function"] for c in calls}, "blocked": kw.get("blocked"),
                     "references": [r["name"] for r in kw.get("references", ())],
                     "second": None})
        asked = kw.get("follow_up")
        if asked is not None:
            def follow_up(first):
                more = asked(first)
                made[-1]["second"] = more and {
                    "functions": {c["function"] for c in more.calls},
                    "references": [r["name"] for r in more.references],
                    "blocked": more.blocked}
                return more
            kw["follow_up"] = follow_up
        made[-1]["result"] = real(cells, calls, limits, hidden, **kw)
        return made[-1]["result"]

    monkeypatch.setattr(sandbox, "run", spy)
    monkeypatch.setattr(runner._Reader, "result", lines_of)
    return made


def test_the_references_reach_only_a_run_after_every_own_case(tmp_path, runs):
    g = grade(_notebook(tmp_path / "strict.ipynb", [STRICT_UPDATE]))
    [run] = runs  # the second part runs in the same sandbox
    assert run["references"] == [] and run["functions"] == {"update", "perceptron", "predict"}
    second = run["second"]
    assert second["functions"] == {"perceptron"} and second["references"] == ["update"]
    assert second["blocked"] == {"perceptron", "predict"}  # update's library version works
    # every own case was answered before the line that ends the first part
    ids = [json.loads(line).get("id") for line in run["lines"][:run["answered_at"]]]
    assert {f"{t.name}:{k}" for t in ASSIGNMENTS["01_algorithm"]
            for k in range(len(t.all_cases()))} <= set(ids)
    n = len(find_task("perceptron")[1].all_cases())
    assert set(run["result"].later) == {f"again:perceptron:{k}" for k in range(n)}
    assert [t.points for t in g.tasks][1:] == [4.0, 2.0]


def test_a_run_of_its_own_when_the_library_cannot_follow(tmp_path, runs, monkeypatch):
    monkeypatch.setattr(sandbox, "can_follow", lambda before, after: False)
    g = grade(_notebook(tmp_path / "strict.ipynb", [STRICT_UPDATE]))
    first, second = runs
    assert first["second"] is None
    assert second["functions"] == {"perceptron"} and second["references"] == ["update"]
    assert second["blocked"] == {"perceptron", "predict"}
    assert [t.points for t in g.tasks][1:] == [4.0, 2.0]


def test_a_stolen_reference_answers_none_of_the_functions_own_cases(tmp_path, runs):
    plain = grade(_notebook(tmp_path / "plain.ipynb", [STRICT_UPDATE]))
    runs.clear()
    g = grade(_notebook(tmp_path / "attack.ipynb", [ATTACK]))
    assert g.status == "ok" and not g.notes
    [run] = runs
    # the reference reached the second part, and was taken there: the attack wrote its
    # own lines, answers to update's cases among them, after the first part ended ...
    later = [json.loads(line) for line in run["lines"][run["answered_at"]:]]
    assert {"cell": 1, "error": "captured the reference"} in [
        e for line in later if line.get("kind") == "cells" for e in line["errors"]]
    assert {f"update:{k}" for k in range(4)} <= {line.get("id") for line in later}
    assert run["result"].cell_errors == []
    # ... but what it answered for update's cases counts nowhere
    update, perceptron, _ = g.tasks
    assert update.points == plain.tasks[0].points < 3
    assert [d["passed"] for d in update.details] == [d["passed"] for d in plain.tasks[0].details]
    assert perceptron.points == 4 and perceptron.with_reference == ["update"]


def test_a_chain_costs_once_and_a_ring_earns_nothing_for_its_first_function(tmp_path):
    g = grade(_notebook(tmp_path / "chain.ipynb", [DISTANCE_SCORE], "03_margin"))
    distance, margins, smallest = g.tasks
    assert distance.points == 0
    assert margins.points == 2 and margins.with_reference == ["signed_distance"]
    assert smallest.points == 2 and smallest.with_reference == ["point_margins"]
    assert "`margin` passes with the reference `point_margins`: fix `point_margins` first" \
        in smallest.feedback[1]
    ring = grade(_notebook(tmp_path / "ring.ipynb", [RING], "03_margin"))
    assert ring.tasks[0].points == 0 and ring.tasks[0].with_reference == []


# ----------------------------------------------------------------------- check cells
def _kernel(source: str) -> dict:
    ns: dict = {"__name__": "__main__"}
    exec(source, ns)
    return ns


def test_the_check_cell_names_update(capsys):
    ns = _kernel(STRICT_UPDATE)
    mine = ns["update"]
    assert run_checks(ns["perceptron"]) is False
    out = capsys.readouterr().out
    n = len(find_task("perceptron")[1].public)
    assert NOTE in out and f"0 of {n} public cases pass with your `update`" in out
    assert ns["update"] is mine  # the student's own is back
    assert check(ns["perceptron"]) is None
    assert NOTE in capsys.readouterr().out
    assert run_checks(_kernel(SOLUTION)["perceptron"]) is True
    assert "reference" not in capsys.readouterr().out


def test_the_check_cell_of_a_wrong_perceptron_still_fails(capsys):
    assert run_checks(_kernel(EXTRA_EPOCH)["perceptron"]) is False
    out = capsys.readouterr().out
    assert "`perceptron` does better with the reference `update`" in out
    assert "run at most tau epochs" in out
    assert run_checks(_kernel(OWN_LOOP_NO_OFFSET)["perceptron"]) is False
    out = capsys.readouterr().out
    assert "reference" not in out and "remember the offset" in out
    ns = _kernel(STRICT_UPDATE.split("def update")[0] + "def perceptron" +
                 STRICT_UPDATE.split("def perceptron")[1])  # update never defined
    assert run_checks(ns["perceptron"]) is False
    assert NOTE in capsys.readouterr().out and "update" not in ns


# ----------------------------------------------------------------------- hints
MEAN_MARGIN = '''
def margin(X, y, theta, theta_0):
    return float(np.mean(y * (X @ theta + theta_0)) / np.linalg.norm(theta))
'''


def test_a_mean_margin_gets_no_hint_about_the_smallest_margin(capsys):
    fn = define(MEAN_MARGIN, "margin")
    _, task = find_task("margin")
    result = grade_in_process(fn, "margin")
    assert result.passed == 0
    assert [d.get("hint") for d in result.details] == [None] * result.cases
    assert not any("smallest" in line.lower() for line in result.feedback)
    outcomes = public_outcomes(fn, task, "03_margin")
    assert [o.verdict.hint for o in outcomes] == [None] * len(task.public)
    assert "distance" in outcomes[0].verdict.mistakes  # the one case it happens to match
    run_checks(fn)
    assert "hint" not in capsys.readouterr().out
    record = {"student": "mean", "assignment": "03_margin",
              "tasks": [dataclasses.asdict(result)]}
    assert not [r for r in classstats.mistakes([record]) if r["known"]]


def test_a_hint_is_given_where_its_mistake_explains_most_failures():
    _, task = find_task("margin")
    hint = task.mistake("distance").hint
    one = Verdict(False, ("a",), mistakes=("distance",))
    other = Verdict(False, ("b",), hint="an array of one number")
    passed = Verdict(True)
    # one failure of two: not most
    assert [v.hint for v in fit_hints(task, [one, other, passed])] == [
        None, "an array of one number", None]
    # two of three: most; the third keeps its own hint
    assert [v.hint for v in fit_hints(task, [one, one, other])] == [
        hint, hint, "an array of one number"]
    both = Verdict(False, ("c",), mistakes=("distance", "max"))
    fitted = fit_hints(task, [both, both])
    assert fitted[0].hint.startswith("this is the answer of more than one mistake")
    assert hint in fitted[0].hint and task.mistake("max").hint in fitted[0].hint
