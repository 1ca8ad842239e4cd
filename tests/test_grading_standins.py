"""Stand-ins for the library's versions of graded functions (grader and check cells)."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.algorithm import _reference_loop
from perceptron_lib.grading.assignments import ASSIGNMENTS, find_task, graded_names
from perceptron_lib.grading.sandbox.standins import routes, standing_in, stub_library

X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]])
Y = np.array([1.0, 1.0, -1.0])


def test_routes_reach_private_helpers_aliases_and_the_estimator():
    found = set(routes(["perceptron"]))
    for key in ("algorithm:perceptron", "algorithm:_reference_loop", "_fast:fast_perceptron",
                "algorithm:perceptron_through_origin", "estimator:Perceptron.partial_fit",
                "variants:averaged_perceptron"):
        assert f"perceptron_lib.{key}" in found, key
    # Helpers the exercises rely on stay usable.
    for key in ("perceptron_lib.generate:make_separable", "perceptron_lib.algorithm:predict",
                "perceptron_lib._validate:check_data", "perceptron_lib.datasets:notes_example"):
        assert key not in found, key


def test_routes_of_a_spam_exercise_leave_the_perceptron_alone():
    found = set(routes(["spam_features"]))
    assert "perceptron_lib.spam:spam_features" in found
    assert "perceptron_lib.algorithm:perceptron" not in found


def test_standing_in_covers_names_taken_earlier_and_restores_them():
    before = pl.perceptron(X, Y, tau=10).theta
    early = pl.perceptron  # as a student's `from perceptron_lib import perceptron` would
    with standing_in(["perceptron"]):
        with pytest.raises(RuntimeError, match="perceptron is the function this exercise"):
            early(X, Y, tau=10)
        with pytest.raises(RuntimeError, match="perceptron"):
            _reference_loop(X, Y, 10, True, False, [np.arange(3)])
        with pytest.raises(RuntimeError):
            pl.Perceptron().fit(X, Y)
        with pytest.raises(RuntimeError, match="grader's own code"):
            ASSIGNMENTS["01_algorithm"][1].reference(X, Y, 10)
        assert pl.predict(X, np.array([1.0, 1.0]), 0.0).tolist() == [1, 1, 1]
    np.testing.assert_array_equal(pl.perceptron(X, Y, tau=10).theta, before)
    np.testing.assert_array_equal(ASSIGNMENTS["01_algorithm"][1].reference(X, Y, 10)[0], before)


def test_the_stub_library_has_no_route_to_the_answer(tmp_path):
    stub_library(["update", "perceptron", "predict"], tmp_path)
    assert not list(tmp_path.rglob("cases.py")) and not list(tmp_path.rglob("__pycache__"))
    probe = textwrap.dedent(f"""
        import importlib, sys
        sys.path.insert(0, {str(tmp_path)!r})
        import numpy as np
        import perceptron_lib as pl, perceptron_lib.algorithm as algorithm
        X = np.array([[1.0, 3.0], [2.0, 1.0], [-1.0, 2.0]]); y = np.array([1.0, 1.0, -1.0])
        assert pl.__file__.startswith({str(tmp_path)!r}), pl.__file__
        def fails(f):
            try:
                f()
            except Exception as exc:
                return type(exc).__name__
            return "answered"
        print(fails(lambda: pl.perceptron(X, y, 10)))
        print(fails(lambda: importlib.reload(algorithm).perceptron(X, y, 10)))
        ns = {{"__name__": "perceptron_lib.algorithm", "__package__": "perceptron_lib"}}
        src = open(algorithm.__file__).read()
        print(fails(lambda: exec(src, ns) or ns["perceptron"](X, y, 10)))
        print(fails(lambda: algorithm._reference_loop(X, y, 10, True, False, [np.arange(3)])))
        print(fails(lambda: pl.Perceptron().partial_fit(X, y, classes=[-1, 1])))
        print(fails(lambda: importlib.import_module("perceptron_lib.grading.assignments")))
        print(fails(lambda: pl.make_separable(10, 2, gamma=0.1, seed=0)))
        from perceptron_lib.grading import check
        print(check(print))
    """)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["RuntimeError"] * 5 + ["ModuleNotFoundError", "answered", "None"], out


def test_standing_in_loads_no_module_and_covers_modules_loaded_during_the_call():
    probe = textwrap.dedent("""
        import sys
        import perceptron_lib as pl
        from perceptron_lib.grading.sandbox.standins import standing_in
        with standing_in(["perceptron"]):
            try:
                pl.Perceptron().fit([[1.0], [2.0]], [1, -1])
                print("answered")
            except RuntimeError as exc:
                print("refused" if "perceptron" in str(exc) else "other")
        print("sklearn" in sys.modules, "perceptron_lib.estimator" in sys.modules)
        print(type(pl.Perceptron()).__name__)
    """)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["refused", "False", "False", "Perceptron"], out


# ------------------------------------------------- roads opened by chapter 7's library
# Each attack answers a graded function through another library function, with chosen
# arguments.  Without the stand-ins it scores full marks (so the road is real); with
# them it scores nothing, in grading and in the check cell, with the library's hint.
ATTACKS = {
    ("perceptron", "margin_perceptron with margin 0"): '''
def perceptron(X, y, tau):
    r = pl.margin_perceptron(X, y, margin=0.0, tau=tau)
    return r.theta, r.theta_0, r.mistakes
''',
    ("perceptron", "multiclass_perceptron on the two classes"): '''
def perceptron(X, y, tau):
    r = pl.multiclass_perceptron(X, y, tau=tau, classes=[-1.0, 1.0])
    return r.Theta[1], r.theta_0[1], r.mistakes
''',
    ("perceptron_through_origin", "margin_perceptron with margin 0, no offset"): '''
def perceptron_through_origin(X, y, tau):
    r = pl.margin_perceptron(X, y, margin=0.0, tau=tau, offset=False)
    return r.theta, r.mistakes
''',
    ("predict", "multiclass_predict between -theta and theta"): '''
def predict(X, theta, theta_0):
    model = pl.MulticlassResult(np.array([-theta, theta]), np.array([-theta_0, theta_0]),
                                np.array([-1, 1]), 0, 0, True)
    return pl.multiclass_predict(model, X)
''',
    ("predict", "voted_predict with one hypothesis"): '''
def predict(X, theta, theta_0):
    model = pl.VotedResult(np.array([theta]), np.array([theta_0]), np.array([1]), 0, 0, True)
    return pl.voted_predict(model, X)
''',
    ("averaged_perceptron", "the step-through trainer's running average"): '''
def averaged_perceptron(X, y, tau):
    trainer = pl.widgets.StepTrainer(X, y, tau)
    trainer.run()
    return trainer.average
''',
    ("one_vs_all_predict", "multiclass_predict"): '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    model = pl.MulticlassResult(thetas, theta_0s, np.asarray(classes), 0, 0, True)
    return pl.multiclass_predict(model, X)
''',
    ("mistake_bound", "freund_schapire_bound with D = 0"): '''
def mistake_bound(R, gamma):
    return pl.freund_schapire_bound(R, gamma, 0.0)
''',
    ("mistake_bound", "half the multiclass bound"): '''
def mistake_bound(R, gamma):
    return pl.multiclass_mistake_bound(R, gamma) / 2
''',
    ("radius", "the kernel bound of the linear Gram matrix"): '''
def radius(X):
    return math.sqrt(pl.kernel_mistake_bound(X @ X.T, 1.0))
''',
    ("point_margins", "the deficiency at a target margin above every margin"): '''
def point_margins(X, y, theta, theta_0):
    lifted = math.sqrt(theta @ theta + theta_0 ** 2)
    top = 1.0 + float(np.max(np.abs(X @ theta + theta_0))) / lifted
    _, d = pl.hinge_deficiency(X, y, theta, theta_0, top, per_example=True)
    return (top - d) * lifted / np.linalg.norm(theta)
''',
    ("hinge_deficiency", "chapter 3's signed distances of the lifted data"): '''
def hinge_deficiency(X, y, theta, theta_0, gamma):
    s = pl.signed_distance(pl.add_offset_feature(X), np.append(theta, theta_0))
    return float(np.sqrt(np.sum(np.maximum(0.0, gamma - y * s) ** 2)))
''',
    ("averaged_perceptron", "the voted perceptron's hypotheses weighted by their counts"): '''
def averaged_perceptron(X, y, tau):
    run = pl.voted_perceptron(X, y, tau=tau)
    counts = np.asarray(run.counts, dtype=float)
    return (counts @ np.asarray(run.thetas)) / counts.sum(), float(
        counts @ np.asarray(run.theta_0s) / counts.sum())
''',
    ("multiclass_perceptron", "two classes through the binary perceptron"): '''
def multiclass_perceptron(X, y, tau):
    classes = np.unique(y)
    if len(classes) != 2:
        r = pl.multiclass_perceptron(X, y, tau=tau)
        return r.Theta, r.theta_0
    r = pl.perceptron(X, np.where(y == classes[1], 1.0, -1.0), tau=tau)
    return np.array([-r.theta, r.theta]), np.array([-r.theta_0, r.theta_0])
''',
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name,road", list(ATTACKS), ids=[f"{n}: {r}" for n, r in ATTACKS])
def test_a_new_road_to_an_answer_scores_nothing(name, road):
    from grading_inprocess import answers_of, define, grade_in_process

    from perceptron_lib.grading.check import public_outcomes
    from perceptron_lib.grading.judge.grade import score

    fn = define(ATTACKS[name, road], name)
    assignment, task = find_task(name)
    cases = task.all_cases()
    free = score(task, cases, answers_of(fn, task, assignment, stand_in=False),
                 len(task.public))
    # Without the stand-ins the road reaches the answer (on the 2-D cases at least, for the
    # trainer that only draws in the plane): otherwise the test would show nothing.
    assert free.passed >= min(4, len(cases)), free.feedback
    assert grade_in_process(fn, name).points == 0
    outcomes = public_outcomes(fn, task, assignment)
    assert not any(o.verdict.passed for o in outcomes)
    assert all("you called the library's" in (o.verdict.hint or "") for o in outcomes)


def test_routes_cover_chapter_7s_functions():
    found = {key.split(":")[1] for key in routes(["perceptron"])}
    assert {"margin_perceptron", "multiclass_perceptron"} <= found
    assert "multiclass_predict" in {k.split(":")[1] for k in routes(["one_vs_all_predict"])}
    bounds = {k.split(":")[1] for k in routes(["mistake_bound"])}
    assert {"freund_schapire_bound", "margin_perceptron_bound", "multiclass_mistake_bound",
            "kernel_mistake_bound"} <= bounds
    chapter_7 = {k.split(":")[1] for k in routes(graded_names("07_beyond"))}
    assert {"hinge_deficiency", "margin_perceptron", "multiclass_perceptron",
            "kesler_construction", "kesler_weights", "point_margins",
            "perceptron_through_origin"} <= chapter_7
    # What the notebook's own cells use stays: the data, chapter 4's radius, the kernels.
    assert not {"radius", "add_offset_feature", "polynomial_kernel", "rbf_kernel",
                "flip_labels", "is_positive_semidefinite", "gram_matrix"} & chapter_7


@pytest.mark.parametrize("assignment, function, graded", [
    ("06_variants", "polynomial_kernel", "polynomial_gram"),
    ("06_variants", "voted_perceptron", "averaged_perceptron"),
    ("07_beyond", "point_margins", "hinge_deficiency"),
    ("01_algorithm", "averaged_perceptron", "perceptron"),
])
def test_a_switched_off_function_names_itself_and_the_function_it_holds(assignment, function,
                                                                         graded):
    from perceptron_lib.grading.assignments import graded_names

    with standing_in(graded_names(assignment)):
        with pytest.raises(RuntimeError) as raised:
            getattr(pl, function)(np.ones((2, 2)), np.ones(2), 1)
    said = str(raised.value)
    assert f".{function} is switched off while {graded} is graded" in said
    assert f"write {graded} yourself" in said
