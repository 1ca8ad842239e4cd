"""Stand-ins for the library's versions of graded functions (grader and check cells)."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.algorithm import _reference_loop
from perceptron_lib.grading.cases import ASSIGNMENTS
from perceptron_lib.grading.standins import routes, standing_in, stub_library

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
        print(fails(lambda: importlib.import_module("perceptron_lib.grading.cases")))
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
        from perceptron_lib.grading.standins import standing_in
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
