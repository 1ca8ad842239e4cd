"""The list of similar graded functions: the same up to names, comments, layout and the
order of operands, not beyond."""

import inspect
import io
import random
import tokenize
from pathlib import Path

import pytest
from grading_class import SOLUTION

import perceptron_lib as pl
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.intake.notebook import read_submission
from perceptron_lib.grading.judge import similarity
from perceptron_lib.grading.judge.similarity import (
    MIN_SIZE,
    find_similar,
    fingerprint,
    function_sources,
    reference_sources,
    size,
    summary_lines,
)

ROOT = Path(__file__).resolve().parents[1]
GRADED = {a: [g.name for g in graded] for a, graded in ASSIGNMENTS.items()}

UPDATE = '''
def update(theta, theta_0, x, y):
    """Apply the perceptron rule."""
    theta = np.asarray(theta, dtype=float)
    x = np.asarray(x, dtype=float)
    if y * (theta @ x + theta_0) <= 0:
        return theta + y * x, theta_0 + y, True
    return theta.copy(), float(theta_0), False
'''

# UPDATE with other names (numpy imported without an alias), a docstring, comments,
# blank lines and another layout.
UPDATE_RENAMED = '''
def update(w, b, point, label):
    """My own perceptron step.

    It moves the hypothesis when the point is misclassified.
    """
    # make arrays
    w = numpy.asarray(w, dtype=float)

    point = numpy.asarray(point,
                          dtype=float)   # the example
    if label*(w@point+b) <= 0:  # a mistake
        return (w + label * point,
                b + label,
                True)

    return w.copy(), float(b), False
'''

# Versions of UPDATE that differ in one real way.
CHANGED = {
    "< for <=": UPDATE.replace("<= 0", "< 0"),
    "another numpy function": UPDATE.replace("np.asarray(x", "np.array(x"),
    "another constant": UPDATE.replace("<= 0", "<= 0.5"),
    "another operator": UPDATE.replace("theta_0 + y,", "theta_0 - y,"),
    "another attribute": UPDATE.replace("theta.copy()", "theta.view()"),
    "another builtin": UPDATE.replace("float(theta_0)", "int(theta_0)"),
    "swapped operands": UPDATE.replace("theta @ x", "x @ theta"),
}

STUB = '''
def predict(X, theta, theta_0):
    """The labels (+1 or -1) that the classifier (theta, theta_0) gives the rows of X."""
    # YOUR CODE HERE
    raise NotImplementedError()
'''

ONE_LINE_PREDICT = '''
def predict(X, theta, theta_0):
    return np.where(X @ theta + theta_0 > 0, 1, -1)
'''


def rename(source: str, names: dict[str, str]) -> str:
    """``source`` with the given identifiers renamed (strings and comments untouched).

    The tokens are joined again without their layout, so the spacing changes too.
    """
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return tokenize.untokenize(
        (t.type, names.get(t.string, t.string) if t.type == tokenize.NAME else t.string)
        for t in tokens)


def students(**code: str) -> dict[str, tuple[str, list[str]]]:
    """Submissions of 01_algorithm: each student's cells are an import and ``code``."""
    return {sid: ("01_algorithm", ["import numpy as np", src]) for sid, src in code.items()}


# ------------------------------------------------------------------ the same, or not
def test_names_comments_docstrings_and_layout_do_not_count():
    assert fingerprint(UPDATE) is not None
    assert fingerprint(UPDATE_RENAMED) == fingerprint(UPDATE)
    assert size(UPDATE_RENAMED) == size(UPDATE)


def test_the_function_name_and_the_module_alias_are_renamed_too():
    other = rename(UPDATE, {"update": "my_update", "np": "numpy", "theta": "t"})
    assert other != UPDATE
    assert fingerprint(other) == fingerprint(UPDATE) is not None


def test_loop_and_comprehension_variables_are_renamed():
    first = '''
def kfold_indices(n, k, seed):
    order = np.random.default_rng(seed).permutation(n)
    folds = [order[i::k] for i in range(k)]
    result = []
    for j, test in enumerate(folds):
        train = np.concatenate([f for m, f in enumerate(folds) if m != j])
        result.append((np.sort(train), np.sort(test)))
    return result
'''
    second = rename(first, {"order": "perm", "folds": "parts", "i": "a", "j": "b",
                            "test": "te", "train": "tr", "f": "p", "m": "q", "result": "out"})
    assert fingerprint(first) is not None
    assert fingerprint(second) == fingerprint(first)


@pytest.mark.parametrize("change", sorted(CHANGED))
def test_a_real_change_is_different(change):
    changed = CHANGED[change]
    assert changed != UPDATE
    assert fingerprint(changed) is not None
    assert fingerprint(changed) != fingerprint(UPDATE)


def test_a_called_function_is_not_renamed():
    # Calling another function is a real difference, unlike renaming a variable.
    first = "def f(X, y):\n    return scores_one(X, y) + np.sum(X * y, axis=0) - X.mean()\n"
    second = first.replace("scores_one", "scores_two")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(similarity.fingerprint_module, "MIN_SIZE", 1)
        assert fingerprint(first) is not None
        assert fingerprint(second) != fingerprint(first)


def test_annotations_defaults_and_decorators_do_not_count():
    typed = UPDATE.replace("def update(theta, theta_0, x, y):",
                           "@staticmethod\ndef update(theta: ArrayLike, theta_0: float = 0.0,\n"
                           "           x: ArrayLike = None, y: float = 1) -> tuple:")
    assert typed != UPDATE
    assert fingerprint(typed) == fingerprint(UPDATE) is not None


# ------------------------------------------------------------------ reading the cells
def test_function_sources_last_definition_wins_and_skips_broken_cells():
    cells = [
        "%matplotlib inline\nimport numpy as np",
        "def predict(X, theta, theta_0):\n    return 1\n",
        "def predict(X, theta, theta_0)\n    return 2\n",  # does not parse: skipped
        "!pip install numpy\n" + UPDATE,
        "%%time\ndef predict(X, theta, theta_0):\n    return 3\nx = 4\n",
        "def show():\n    pass\n",
        "class predict_class:\n    def predict(self):\n        return 5\n",
    ]
    found = function_sources(cells)
    assert sorted(found) == ["predict", "show", "update"]
    assert "return 3" in found["predict"]
    assert "x = 4" not in found["predict"]
    assert fingerprint(found["update"]) == fingerprint(UPDATE) is not None


def test_function_sources_keep_decorators_and_neutralise_indented_magics():
    cell = "import functools\n\n@functools.cache\ndef f(n):\n    %time y = n\n    return y\n"
    found = function_sources([cell])
    assert found["f"] == "@functools.cache\ndef f(n):\n    pass\n    return y\n"


def test_function_sources_of_the_exercise_notebooks_are_the_stubs():
    for path in sorted((ROOT / "exercises").glob("*.ipynb")):
        assignment, cells = read_submission(path)
        found = function_sources(cells)
        for name in GRADED[assignment]:
            assert similarity.is_stub(found[name]), (path.name, name)
            assert fingerprint(found[name]) is None


# ------------------------------------------------------------------ trivial functions
def test_the_stub_is_never_flagged_whatever_the_threshold(monkeypatch):
    monkeypatch.setattr(similarity.fingerprint_module, "MIN_SIZE", 0)
    bare = STUB.replace("raise NotImplementedError()", "pass\n    raise NotImplementedError")
    for stub in (STUB, bare):
        assert similarity.is_stub(stub)
        assert fingerprint(stub) is None
    assert not similarity.is_stub(ONE_LINE_PREDICT)
    assert fingerprint(ONE_LINE_PREDICT) is not None  # with no threshold it would count
    subs = students(a=STUB, b=STUB, c=bare)
    assert find_similar(subs, GRADED) == []


def test_one_line_bodies_many_students_write_are_below_the_threshold():
    assert size(ONE_LINE_PREDICT) == 18 < MIN_SIZE
    two_lines = ONE_LINE_PREDICT.replace(
        "return np.where(X @ theta + theta_0 > 0, 1, -1)",
        "scores = X @ theta + theta_0\n    return np.where(scores > 0, 1, -1)")
    assert size(two_lines) < MIN_SIZE
    subs = students(a=ONE_LINE_PREDICT, b=ONE_LINE_PREDICT, c=two_lines, d=two_lines)
    assert find_similar(subs, GRADED) == []
    assert fingerprint(ONE_LINE_PREDICT) is None


def test_size_counts_the_body_without_docstring():
    assert size(UPDATE) == size(UPDATE.replace('"""Apply the perceptron rule."""', "")) > 0
    assert size("not python (") == 0
    assert size("x = 1") == 0


# ------------------------------------------------------------------ references
def test_a_renamed_copy_of_the_library_is_flagged_as_the_library():
    refs = reference_sources("01_algorithm", GRADED["01_algorithm"], None)
    update_label = "the library's perceptron_lib.algorithm.update"
    predict_label = "the library's perceptron_lib.algorithm.predict"
    # the library's function of the name, and the library's other routes to it
    assert update_label in refs[("01_algorithm", "update")]
    assert predict_label in refs[("01_algorithm", "predict")]
    assert all(label.startswith("the library's perceptron_lib.")
               for named in refs.values() for label in named)

    copied = rename(inspect.getsource(pl.update),
                    {"th": "w", "xv": "point", "t0": "b", "yv": "label"})
    assert "xv" not in copied and "point" in copied
    # The body of the library's predict pasted under the exercise's own def line.
    library_predict = inspect.getsource(pl.predict)
    body = library_predict[library_predict.index("    Xa = "):]
    pasted = "def predict(X, theta, theta_0):\n    # from the library\n" + body
    subs = students(copier=copied + "\n" + pasted,
                    honest=UPDATE)
    assert find_similar(subs, GRADED, refs) == [
        {"assignment": "01_algorithm", "function": "predict", "students": ["copier"],
         "same_as": [predict_label], "size": size(pasted)},
        {"assignment": "01_algorithm", "function": "update", "students": ["copier"],
         "same_as": [update_label], "size": size(copied)},
    ]


def test_a_copy_of_the_solution_notebook_is_flagged_as_the_reference_solution():
    assignment, cells = read_submission(ROOT / "solutions" / "01_algorithm.ipynb")
    refs = reference_sources(assignment, GRADED[assignment], ROOT / "solutions")
    assert similarity.SOLUTION_LABEL in refs[(assignment, "perceptron")]
    solution = function_sources(cells)["perceptron"]
    copied = rename(solution, {"theta": "w", "theta_0": "b", "mistakes": "errors",
                               "x_i": "xi", "y_i": "yi", "changed": "again"})
    assert "errors" in copied
    own = solution.replace("mistakes += 1", "mistakes = mistakes + 1")
    subs = {"copier": (assignment, ["import numpy as np", copied]),
            "own": (assignment, ["import numpy as np", own])}
    assert find_similar(subs, GRADED, refs) == [
        {"assignment": assignment, "function": "perceptron", "students": ["copier"],
         "same_as": [similarity.SOLUTION_LABEL], "size": size(solution)},
    ]


def test_reference_sources_skip_what_does_not_exist(tmp_path):
    # lifted_to_offset is not in the library; tmp_path holds no solution notebook.
    refs = reference_sources("02_offset", ["lifted_to_offset", "add_offset_feature"], tmp_path)
    assert list(refs) == [("02_offset", "add_offset_feature")]
    assert list(refs[("02_offset", "add_offset_feature")]) == [
        "the library's perceptron_lib.offset.add_offset_feature"]
    assert reference_sources("02_offset", ["not_a_function", "plotting"], None) == {}


# ------------------------------------------------------------------ groups
def _class():
    second = UPDATE.replace("<= 0", "< 0")
    return {
        "ann": ("01_algorithm", ["import numpy as np", UPDATE]),
        "bob": ("01_algorithm", ["import numpy", UPDATE_RENAMED]),
        "cy": ("01_algorithm", ["import numpy as np", second]),
        "dee": ("01_algorithm", ["import numpy as np", rename(second, {"x": "v"})]),
        "eve": ("01_algorithm", ["import numpy as np", CHANGED["another constant"]]),
        "fay": ("02_offset", ["import numpy as np", UPDATE]),  # not graded there
        "gus": ("01_algorithm", ["import numpy as np", STUB]),
        "hal": ("01_algorithm", ["import numpy as np", STUB]),
    }


def test_groups_are_the_students_sharing_a_fingerprint():
    groups = find_similar(_class(), GRADED)
    assert groups == [
        {"assignment": "01_algorithm", "function": "update", "students": ["ann", "bob"],
         "same_as": [], "size": size(UPDATE)},
        {"assignment": "01_algorithm", "function": "update", "students": ["cy", "dee"],
         "same_as": [], "size": size(UPDATE)},
    ]


def test_groups_do_not_depend_on_the_order_of_the_submissions():
    subs = _class()
    expected = find_similar(subs, GRADED)
    ids = list(subs)
    for seed in range(5):
        random.Random(seed).shuffle(ids)
        assert find_similar({sid: subs[sid] for sid in ids}, GRADED) == expected


def test_summary_lines():
    assert summary_lines([]) == ["No graded function is the same across students."]
    many = [f"s{k:02d}" for k in range(15)]
    lines = summary_lines([
        {"assignment": "01_algorithm", "function": "update", "students": ["ann", "bob"],
         "same_as": [], "size": 55},
        {"assignment": "01_algorithm", "function": "predict", "students": ["cy"],
         "same_as": ["the library's perceptron_lib.algorithm.predict"], "size": 39},
        {"assignment": "01_algorithm", "function": "perceptron", "students": many,
         "same_as": [], "size": 80},
    ])
    assert lines == [
        "Similar graded functions (not used in scores; for a person to look at):",
        "  01_algorithm update (55 nodes), 2 students: ann, bob",
        "  01_algorithm predict (39 nodes), 1 student: cy; same as the library's "
        "perceptron_lib.algorithm.predict",
        "  01_algorithm perceptron (80 nodes), 15 students: "
        + ", ".join(many[:12]) + " and 3 more",
    ]


def test_hostile_sources_give_no_fingerprint_and_raise_nothing():
    deep = "def predict(X, theta, theta_0):\n    return " + "not " * 1000 + "X\n"
    huge = "def predict(X, theta, theta_0):\n    return " + "+".join(["X"] * 200_000) + "\n"
    for source in (deep, huge, "def predict(\x00", ""):
        assert fingerprint(source) is None
        assert size(source) == 0
    assert function_sources([huge, "\x00", ONE_LINE_PREDICT]) == {
        "predict": ONE_LINE_PREDICT.lstrip("\n")}


#: Chapter 1's update as the class's honest students write it.
ORIGINAL = function_sources([SOLUTION])["update"]
DISGUISES = {
    # the operands of +, * and the comparison swapped
    "swapped": ORIGINAL.replace("if y * (theta @ x + theta_0) <= 0:",
                                "if 0 >= (theta_0 + theta @ x) * y:")
                       .replace("theta + y * x, theta_0 + y", "x * y + theta, y + theta_0"),
    # the same body under another name, bound to the exercise's name
    "bound": rename(ORIGINAL, {"update": "my_rule", "theta": "w", "theta_0": "b",
                               "x": "point", "y": "label"}) + "\nupdate = my_rule\n",
}


@pytest.mark.parametrize("disguise", sorted(DISGUISES))
def test_a_disguised_copy_has_the_fingerprint_of_the_original(disguise):
    found = function_sources([DISGUISES[disguise]])
    assert fingerprint(found["update"]) == fingerprint(ORIGINAL) is not None
    subs = students(original=ORIGINAL, disguised=DISGUISES[disguise])
    groups = find_similar(subs, GRADED, {})
    assert [g["students"] for g in groups if g["function"] == "update"] == [
        ["disguised", "original"]]


def test_a_strict_test_is_still_another_function_after_the_operands_are_ordered():
    strict = ORIGINAL.replace("<= 0", "< 0")
    mirrored = strict.replace("if y * (theta @ x + theta_0) < 0",
                              "if 0 > y * (theta @ x + theta_0)")
    assert fingerprint(mirrored) == fingerprint(strict) != fingerprint(ORIGINAL)


def test_the_library_loop_pasted_under_the_exercise_name_is_the_library():
    from perceptron_lib.algorithm import _reference_loop

    source = inspect.getsource(_reference_loop)
    pasted = source.replace("def _reference_loop(", "def perceptron(", 1)
    refs = reference_sources("01_algorithm", GRADED["01_algorithm"], None)
    assert "the library's perceptron_lib.algorithm._reference_loop" in refs[
        ("01_algorithm", "perceptron")]
    groups = find_similar(students(copier=pasted), GRADED, refs)
    assert [(g["function"], g["students"], g["same_as"]) for g in groups] == [
        ("perceptron", ["copier"], ["the library's perceptron_lib.algorithm._reference_loop"])]


def test_operands_are_ordered_before_the_names_are_numbered():
    # In a comprehension the element comes before its loop variables: without putting
    # the operands in order first, the names would be numbered in another order.
    first = '''
def spam_features(message):
    tokens = message.split()
    weights = [len(tok) * 2 + count for tok, count in zip(tokens, range(len(tokens)))]
    caps = [w for w in weights if w > 3]
    return np.array([len(caps), sum(weights), message.count("!")])
'''
    swapped = first.replace("len(tok) * 2 + count", "count + len(tok) * 2")
    assert swapped != first
    assert fingerprint(swapped) == fingerprint(first) is not None
