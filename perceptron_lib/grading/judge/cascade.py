"""One bug costs once: a graded function is also judged with the reference versions of
the graded functions it calls.

In chapter 1, ``perceptron`` calls ``update``; a wrong ``update`` makes a right
``perceptron`` fail every case.  So a function that lost points and calls graded
functions of its notebook that lost points too is run once more with the references of
those in their place, and keeps the better score; the feedback then says
"`perceptron` passes with the reference `update`: fix `update` first".  The grader
(:mod:`.grade`) and the check cells (:mod:`..check`) do the same, with this module's
rules and words:

- **which functions a function calls** (:func:`callees`): the graded functions of its
  notebook that its code loads as globals, itself or through helper functions of the
  notebook (not through another graded function), among those it may build on
  (:func:`allowed`): the graded functions before it in its notebook, or those the
  task declares (``Task.calls``), and only those before it.  Only functions before
  it: a ring of functions written in terms of one another (``signed_distance`` as
  ``point_margins`` with labels 1, ``point_margins`` as ``y * signed_distance``) is
  never graded with its own members' references;
- **the references** cross into the sandbox as their source (:func:`shipped`), only
  once every graded function's own cases have their answers: in the grading run's
  second part, which answers the dependent function's cases only (or, where the
  library cannot follow there, in a run of their own; see :mod:`.grade`).
"""

from __future__ import annotations

import dis
import inspect
import textwrap
import types
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..assignments.exercise import Task

#: Cells longer than this are not read for the functions they define (as the sandbox
#: does not parse them in its own process either).
READ_CHARS = 200_000
_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME"})


def allowed(task: Task, tasks: Sequence[Task]) -> tuple[str, ...]:
    """The graded functions whose references ``task`` may be graded with: those before
    it in its notebook (``tasks``, in order), limited to ``task.calls`` when declared."""
    names = [t.name for t in tasks]
    before = names[:names.index(task.name)] if task.name in names else []
    if task.calls is None:
        return tuple(before)
    return tuple(n for n in before if n in task.calls)


# --------------------------------------------------------------- what a function uses
def globals_loaded(code: types.CodeType) -> set[str]:
    """The global names a code object and the code nested in it load (``update`` in
    ``update(theta, ...)``; not ``pl.update``, an attribute)."""
    names: set[str] = set()
    stack = [code]
    while stack:
        current = stack.pop()
        for ins in dis.get_instructions(current):
            if ins.opname in _LOADS and isinstance(ins.argval, str):
                names.add(ins.argval)
        stack += [c for c in current.co_consts if isinstance(c, types.CodeType)]
    return names


def _reached(start: Iterable[types.CodeType], helpers: Callable[[str], list[types.CodeType]],
             graded: set[str]) -> set[str]:
    """The graded names that ``start`` loads, itself or through the helpers it loads."""
    found: set[str] = set()
    seen: set[str] = set()
    todo = list(start)
    while todo:
        for name in globals_loaded(todo.pop()):
            if name in graded:
                found.add(name)
            elif name not in seen:
                seen.add(name)
                todo += helpers(name)
    return found


def _without_magics(source: str) -> str:
    return "\n".join(line[: len(line) - len(line.lstrip())] + "pass"
                     if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


def defined_functions(cells: Sequence[str]) -> dict[str, list[types.CodeType]]:
    """The functions the cells define at their top level, by name (every definition of
    a name, in order), compiled without running anything; a cell that does not compile
    (or is too large to read safely) defines nothing here."""
    found: dict[str, list[types.CodeType]] = {}
    for source in cells:
        if len(source) > READ_CHARS:
            continue
        try:
            module = compile(_without_magics(source), "<cell>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
            continue
        for const in module.co_consts:  # a class body is no function: no CO_OPTIMIZED
            if isinstance(const, types.CodeType) and const.co_flags & inspect.CO_OPTIMIZED \
                    and const.co_name.isidentifier():
                found.setdefault(const.co_name, []).append(const)
    return found


def uses_in_cells(cells: Sequence[str], graded: Iterable[str]) -> dict[str, set[str]]:
    """For each graded function (of ``graded``) the cells define, the other graded
    functions it calls, itself or through the cells' other functions."""
    functions = defined_functions(cells)
    graded = set(graded)
    return {name: _reached(functions[name], lambda n: functions.get(n, []), graded - {name})
            for name in graded if name in functions}


def uses_live(fn: Callable, graded: Iterable[str]) -> set[str]:
    """The graded functions (of ``graded``) that the live function ``fn`` calls, itself
    or through the functions of its module (a notebook's namespace) it calls."""
    code = getattr(fn, "__code__", None)
    if not isinstance(code, types.CodeType):
        return set()
    scope = getattr(fn, "__globals__", {})

    def helpers(name: str) -> list[types.CodeType]:
        value = scope.get(name)
        return [value.__code__] if isinstance(value, types.FunctionType) else []

    return _reached([code], helpers, set(graded) - {getattr(fn, "__name__", "")})


def callees(task: Task, tasks: Sequence[Task], used: Iterable[str],
            lost: Iterable[str]) -> tuple[str, ...]:
    """The graded functions ``task`` is judged once more with the references of: those
    it calls (``used``) that lost points (``lost``), among those it may build on; in
    the notebook's order."""
    used, lost = set(used), set(lost)
    return tuple(n for n in allowed(task, tasks) if n in used and n in lost)


def unblocked(names: Iterable[str], tasks: Sequence[Task]) -> set[str]:
    """The graded functions whose library versions work in a run that ships the
    references of ``names``: those, and what they build on (:func:`allowed`, and what
    that builds on), since the library's ``point_margins`` calls its
    ``signed_distance``.  Every other graded function of the notebook stands in, the
    graded one first among them (it comes after all of these)."""
    by_name = {t.name: t for t in tasks}
    found: set[str] = set()
    todo = [n for n in names if n in by_name]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += allowed(by_name[name], tasks)
    return found


# --------------------------------------------------------------------- the references
def shipped(task: Task) -> dict[str, str]:
    """The reference of ``task`` as it crosses into the sandbox: its source, run there
    with ``np`` (numpy) and ``pl`` (the run's library, in which this function is real);
    ``entry`` is the function's name in the source, ``name`` the one it is bound to."""
    source = textwrap.dedent(inspect.getsource(task.reference))
    return {"name": task.name, "entry": task.reference.__name__,
            "source": "from __future__ import annotations\n\n" + source}


def load_shipped(reference: Mapping[str, str], scope: dict) -> Callable:
    """The function that :func:`shipped` describes, defined in ``scope`` (``np`` and
    ``pl`` in it): what the sandbox does with it, here for the tests."""
    exec(compile(reference["source"], f"<reference {reference['name']}>", "exec"), scope)
    return scope[reference["entry"]]


# --------------------------------------------------------------------------- the words
def _listed(names: Sequence[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def with_the_references(names: Sequence[str]) -> str:
    """``the reference `update``` (or ```a` and `b```), as the feedback says it."""
    return f"the reference {_listed(names)}"


def note(name: str, names: Sequence[str], *, passes: bool) -> str:
    """What the feedback says of ``name`` when the references of ``names`` do better.

    ``passes``: every case passes with them (``"`perceptron` passes with the reference
    `update`: fix `update` first"``); otherwise some still fail, and those are its own.
    """
    if passes:
        return f"`{name}` passes with {with_the_references(names)}: fix {_listed(names)} first"
    return (f"`{name}` does better with {with_the_references(names)}: fix {_listed(names)} "
            "first; the failures shown are those left with "
            f"{'it' if len(names) == 1 else 'them'}")
