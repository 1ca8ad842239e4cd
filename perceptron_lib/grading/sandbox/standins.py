"""Stand-ins for the library's versions of the functions a student is asked to write.

A student graded on ``perceptron`` must not get the answer from ``perceptron_lib``:
not from ``pl.perceptron``, and not by any other road to the same code (a private
helper such as ``_reference_loop``, the compiled ``_fast.fast_perceptron``, the
scikit-learn estimator built on it, a variant that contains the same loop, or the
functions the grader's own reference calls).  :func:`routes` finds those roads by
reading the library's source; two things are built from them:

- :func:`stub_library`, the copy of the library that a submission imports while it
  is graded: every route's body raises :class:`RuntimeError`, and the grading package
  is left out but for a ``check`` that does nothing (see :mod:`.sandbox`);
- :func:`standing_in`, the same stand-ins inside a student's own kernel for the
  length of a check-cell call, so that the check cell and the grader agree.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import importlib
import inspect
import shutil
import sys
import types
from collections.abc import Iterable, Iterator
from pathlib import Path

import perceptron_lib

LIBRARY = Path(perceptron_lib.__file__).resolve().parent

#: Library functions (or classes: all their methods) that run the same loop as a
#: graded function and hand back its result among theirs (the last hypothesis of the
#: averaged or voted perceptron, the mistake counts of the kernel perceptron with a
#: linear kernel, the scikit-learn estimator's ``partial_fit``), or that give its
#: answer from a call with chosen arguments (chapter 7's bounds at D = 0).
EQUIVALENTS: dict[str, tuple[str, ...]] = {
    # The margin perceptron with margin 0 and the multiclass perceptron on two classes
    # are the perceptron (chapter 7).
    "perceptron": ("perceptron_through_origin", "averaged_perceptron", "voted_perceptron",
                   "kernel_perceptron", "Perceptron", "margin_perceptron",
                   "multiclass_perceptron", "MarginPerceptronExplorer"),
    "perceptron_through_origin": ("perceptron", "averaged_perceptron", "voted_perceptron",
                                  "kernel_perceptron", "Perceptron", "margin_perceptron",
                                  "multiclass_perceptron"),
    # A vote of one hypothesis, or a class chosen between -theta and theta, is predict;
    # the multiclass prediction is the one-vs-all prediction.
    "predict": ("voted_predict", "one_vs_all_predict", "multiclass_predict",
                "kernel_predict"),
    "one_vs_all_predict": ("multiclass_predict",),
    # The step-through trainer keeps the running average of its hypotheses, and the
    # voted perceptron's hypotheses weighted by their counts are that average.
    "averaged_perceptron": ("StepTrainer", "voted_perceptron"),
    # The margins of chapter 3 come back from the deficiency at a large gamma, and the
    # multiclass and kernel margins contain the binary one.
    "signed_distance": ("hinge_deficiency",),
    "point_margins": ("hinge_deficiency",),
    "margin": ("hinge_deficiency", "multiclass_margin", "kernel_margin"),
    # Chapter 7's bounds are chapter 4's with D = 0, margin 0, a factor 2, or G = [[R^2]].
    "mistake_bound": ("freund_schapire_bound", "margin_perceptron_bound",
                      "multiclass_mistake_bound", "kernel_mistake_bound"),
    "radius": ("kernel_mistake_bound",),
    # Chapter 7's exercises: chapter 3's margins are most of the deficiency; Kesler's
    # construction (or, on two classes, the binary perceptron) is the multiclass one.
    "hinge_deficiency": ("point_margins", "signed_distance"),
    "multiclass_perceptron": ("kesler_construction", "kesler_weights", "perceptron",
                              "perceptron_through_origin"),
    # The margin perceptron's explorer steps through the same loop.
    "margin_perceptron": ("MarginPerceptronExplorer",),
}

#: Names under which code reaches a module of the library (``pl.perceptron``).
_MODULES = {"pl", "perceptron_lib"} | {p.stem for p in LIBRARY.glob("*.py")}

MESSAGE = ("perceptron_lib's {name} is the function this exercise asks you to write: "
           "grading runs without the library's version, so write it yourself")
ROUTE_MESSAGE = ("perceptron_lib.{where} is switched off while {name} is graded (it "
                 "computes {name}, or part of it, which this exercise asks you to write): "
                 "write {name} yourself")


def library_files() -> dict[str, Path]:
    """Module name -> file, for the library outside its grading package."""
    return dict(_library_files())


@functools.cache
def _library_files() -> dict[str, Path]:
    """Module name -> file, for the library outside its grading package."""
    files = {}
    for path in sorted(LIBRARY.rglob("*.py")):
        rel = path.relative_to(LIBRARY)
        if rel.parts[0] == "grading" or "__pycache__" in rel.parts:
            continue
        parts = ["perceptron_lib", *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(parts)] = path
    return files


def _references(node: ast.AST) -> set[str]:
    """The names a definition uses: plain names, imports, attributes of the library's
    modules (``pl.perceptron``), and ``self.``/``cls.`` attributes (kept as ``.name``)."""
    names = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            names.add(sub.id)
        elif isinstance(sub, ast.alias):
            names.add(sub.asname or sub.name.split(".")[-1])
        elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            if sub.value.id in ("self", "cls"):
                names.add("." + sub.attr)
            elif sub.value.id in _MODULES:
                names.add(sub.attr)
    return names


def _definitions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Top-level functions, and methods of top-level classes, with their qualnames."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{node.name}.{sub.name}", sub


def _reference_names(names: set[str]) -> set[str]:
    """Library names used by the grader's reference answers of the named functions."""
    from ..assignments import find_task

    found = set()
    for name in names:
        try:
            _, task = find_task(name)
            tree = ast.parse(inspect.getsource(task.reference).strip())
        except (KeyError, TypeError, OSError, SyntaxError):
            continue
        found |= {n for n in _references(tree)
                  if callable(getattr(perceptron_lib, n, None))
                  and not inspect.isclass(getattr(perceptron_lib, n))}
    return found


def routes(names: Iterable[str]) -> list[str]:
    """Every library function that would hand a student the named functions' answers.

    See :func:`_routes`; the answer is kept for each set of names (a check cell asks
    again at every call).
    """
    return list(_routes(frozenset(names)))


@functools.lru_cache(maxsize=64)
def _routes(names: frozenset[str]) -> tuple[str, ...]:
    """Every library function that would hand a student the named functions' answers.

    Parameters
    ----------
    names
        The graded functions (chapters 1-7 exercises), e.g. ``["update", "perceptron"]``.

    Returns
    -------
    tuple of str
        ``"module:qualname"`` entries, sorted: the functions of those names; the
        grader's reference implementations; the library's equivalents
        (:data:`EQUIVALENTS`); every function that uses one of these; and every private
        helper used only by such functions.
    """
    names = set(names)
    seeds = names | _reference_names(names)
    for name in list(seeds):
        seeds |= set(EQUIVALENTS.get(name, ()))
    defs: dict[str, tuple[str, set[str]]] = {}
    for module, path in _library_files().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for qual, node in _definitions(tree):
            short = qual.split(".")[-1]
            defs[f"{module}:{qual}"] = ("." + short if "." in qual else short,
                                        _references(node))
    found = {key for key, (short, _) in defs.items()
             if short.lstrip(".") in seeds or key.split(":")[1].split(".")[0] in seeds}
    while True:
        shorts = {defs[k][0] for k in found}
        grown = {k for k, (_, refs) in defs.items() if refs & shorts}
        for key, (short, _) in defs.items():
            callers = [k for k, (_, refs) in defs.items() if short in refs and k != key]
            private = short.lstrip(".").startswith("_") or ":_" in key or "._" in key
            if private and callers and all(c in found for c in callers):
                grown.add(key)
        if grown <= found:
            return tuple(sorted(found))
        found |= grown


def _graded(short: str, names: set[str], key: str | None = None) -> str:
    """The graded function a library function stands in for: itself, the graded function
    it is an equivalent of, or else the one whose routes (:func:`routes`) hold ``key``
    (``pl.polynomial_kernel`` stands in for ``polynomial_gram``, not for the first graded
    function of its notebook)."""
    if short in names:
        return short
    for name in sorted(names):
        if short in EQUIVALENTS.get(name, ()):
            return name
    if key is not None:
        for name in sorted(names):
            if key in _routes(frozenset({name})):
                return name
    return sorted(names)[0] if names else "this function"


def _message(name: str, key: str, names: set[str]) -> str:
    module, qual = key.split(":")
    short = qual.split(".")[-1]
    if short in names:
        return MESSAGE.format(name=short)
    where = f"{module.removeprefix('perceptron_lib').lstrip('.') or 'perceptron_lib'}.{qual}"
    return ROUTE_MESSAGE.format(where=where.lstrip("."), name=name)


# ------------------------------------------------------------- the library for grading
def _stub_module(source: str, quals: dict[str, str]) -> str:
    """``source`` with the bodies of the functions ``quals`` names replaced by a raise."""
    tree = ast.parse(source)
    for qual, node in _definitions(tree):
        if qual not in quals:
            continue
        body = []
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(
                getattr(node.body[0], "value", None), ast.Constant) and isinstance(
                node.body[0].value.value, str):
            body.append(node.body[0])
        body.append(ast.parse(f"raise RuntimeError({quals[qual]!r})").body[0])
        node.body = body
        node.decorator_list = [d for d in node.decorator_list
                               if not (isinstance(d, ast.Name) and d.id in ("njit", "jit"))]
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


GRADING_STUB = '''"""Grading runs without the check cells: this stand-in keeps imports working."""


def check(fn, name=None):
    """Does nothing while a notebook is being graded."""
    return None


def run_checks(fn, name=None):
    """Does nothing while a notebook is being graded."""
    return False
'''


def stub_library(names: Iterable[str], dest: Path) -> Path:
    """Write the library that graded code imports into ``dest/perceptron_lib``.

    Every function of :func:`routes` raises :class:`RuntimeError` with a message that
    names the graded function; the grading package holds only a ``check`` that does
    nothing.  Nothing else of the real library's files (source, caches) is copied.
    """
    names = set(names)
    by_module: dict[str, dict[str, str]] = {}
    for key in routes(names):
        module, qual = key.split(":")
        graded = _graded(qual.split(".")[-1], names, key)
        by_module.setdefault(module, {})[qual] = _message(graded, key, names)
    root = Path(dest) / "perceptron_lib"
    if root.exists():
        shutil.rmtree(root)
    for module, path in _library_files().items():
        target = root / path.relative_to(LIBRARY)
        target.parent.mkdir(parents=True, exist_ok=True)
        source = path.read_text(encoding="utf-8")
        if module in by_module:
            source = _stub_module(source, by_module[module])
        target.write_text(source, encoding="utf-8")
    (root / "grading").mkdir(exist_ok=True)
    (root / "grading" / "__init__.py").write_text(GRADING_STUB, encoding="utf-8")
    (root / "grading" / "check.py").write_text(GRADING_STUB, encoding="utf-8")
    return root


#: The library's modules whose functions a run's second part can make real in place
#: (:func:`made_real`): those ``import perceptron_lib`` names, and the private ones
#: they are built on.  The others load matplotlib, ipywidgets, numba or scikit-learn.
CORE_MODULES = frozenset({f"perceptron_lib.{m}" for m in perceptron_lib._EXPORTS}
                         | {"perceptron_lib._validate", "perceptron_lib._result"})


@functools.lru_cache(maxsize=32)
def _real_functions(module: str) -> dict[str, ast.AST]:
    tree = ast.parse(_library_files()[module].read_text(encoding="utf-8"))
    return {q: node for q, node in _definitions(tree) if "." not in q}


def made_real(before: Iterable[str], after: Iterable[str]) -> list[dict] | None:
    """The library functions that stand in when ``before`` is graded and are real when
    only ``after`` is (a subset): each ``{"module", "name", "source"}``, the source of
    the real function without its decorators, for a run's second part (see
    :mod:`.child`) to put in place of its stand-in's code.  None when one of them is not
    a top-level function of :data:`CORE_MODULES`: such a run gets a library of its own.
    """
    keys = sorted(set(routes(before)) - set(routes(after)))
    found = []
    for key in keys:
        module, qual = key.split(":")
        if module not in CORE_MODULES or "." in qual:
            return None
        node = _real_functions(module).get(qual)
        if node is None:
            return None
        node = copy.copy(node)  # the cached tree stays as it is
        node.decorator_list = []
        found.append({"module": module, "name": qual, "source": ast.unparse(node) + "\n"})
    return found


# -------------------------------------------------------- stand-ins in a live kernel
def _raiser(message: str):
    def stand_in(*args, **kwargs):
        raise RuntimeError(message)

    return stand_in


class _Absent(types.ModuleType):
    """Stands in for a library module not loaded yet (the estimator would load
    scikit-learn): anything taken from it raises, as the stand-ins do."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(name)
        self._message = message

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise RuntimeError(self._message)


def _resolve(key: str):
    module_name, qual = key.split(":")
    owner = sys.modules.get(module_name)
    if owner is None or isinstance(owner, _Absent):
        return None, None, None
    parts = qual.split(".")
    for part in parts[:-1]:
        owner = getattr(owner, part, None)
        if owner is None:
            return None, None, None
    return owner, parts[-1], getattr(owner, parts[-1], None)


#: Modules of :mod:`..assignments` that hold the grader's machinery, not answers.
_GRADER_MACHINERY = frozenset({"exercise", "answers", "codec"})


def _grading_functions() -> Iterator[object]:
    """The grader's reference answers and known mistakes, which a kernel can reach."""
    from ..assignments import ASSIGNMENTS

    seen = set()
    for tasks in ASSIGNMENTS.values():
        for task in tasks:
            for fn in (task.reference, *task.mistakes.values()):
                if id(fn) not in seen:
                    seen.add(id(fn))
                    yield fn
    for module in list(importlib.sys.modules.values()):
        name = getattr(module, "__name__", "")
        if name != "perceptron_lib.grading.assignments" and not (
                name.startswith("perceptron_lib.grading.assignments.")
                and name.rpartition(".")[2] not in _GRADER_MACHINERY):
            continue
        for value in list(vars(module).values()):
            if inspect.isfunction(value) and value.__module__ == name and id(value) not in seen:
                seen.add(id(value))
                yield value


@contextlib.contextmanager
def standing_in(names: Iterable[str]) -> Iterator[None]:
    """While active, the library's routes to ``names`` raise :class:`RuntimeError`.

    Used by the check cells (chapters 1-7 exercises) around each call of the
    student's function, so that a function that leans on the library's version fails
    there as it does in grading.  Functions are swapped through ``__code__``, so names
    the student imported earlier (``from perceptron_lib import perceptron``) are
    covered; everything is put back on exit.
    """
    names = set(names)
    swapped: list[tuple[object, object]] = []
    replaced: list[tuple[object, str, object]] = []
    first = sorted(names)[0] if names else "this function"

    def swap(fn, message: str) -> None:
        while inspect.isfunction(getattr(fn, "__wrapped__", None)):
            fn = fn.__wrapped__
        if inspect.isfunction(fn) and not fn.__closure__:
            swapped.append((fn, fn.__code__))
            fn.__code__ = _code_raising(message)
            return
        raise LookupError

    absent: list[str] = []
    perceptron_lib.load_all()  # the library's own modules load on first use
    try:
        for key in routes(names):
            module_name = key.split(":")[0]
            if module_name not in sys.modules:  # not loaded: a placeholder until the end
                short = key.split(":")[1].split(".")[-1]
                sys.modules[module_name] = _Absent(
                    module_name, _message(_graded(short, names, key), key, names))
                absent.append(module_name)
                continue
            owner, attr, fn = _resolve(key)
            if fn is None:
                continue
            short = key.split(":")[1].split(".")[-1]
            graded = _graded(short, names, key)
            message = _message(graded, key, names)
            try:
                swap(fn, message)
            except LookupError:
                replaced.append((owner, attr, fn))
                setattr(owner, attr, _raiser(message))
        for fn in _grading_functions():
            try:
                swap(fn, f"the grader's own code is not available while grading ({first})")
            except LookupError:
                continue
        yield
    finally:
        for module_name in absent:
            if isinstance(sys.modules.get(module_name), _Absent):
                del sys.modules[module_name]
        for fn, code in reversed(swapped):
            fn.__code__ = code
        for owner, attr, value in reversed(replaced):
            setattr(owner, attr, value)


def _code_raising(message: str):
    """A code object (no free variables) that raises RuntimeError(message)."""
    namespace: dict = {}
    exec(compile(f"def stand_in(*args, **kwargs):\n    raise RuntimeError({message!r})\n",
                 "<stand-in>", "exec"), namespace)
    return namespace["stand_in"].__code__
