"""Fingerprints of the functions in a notebook's cells: equal for functions that are the same.

The normalisation is described in :mod:`.similarity`, which compares the fingerprints
across a class.  Parsing a student's cells can take any amount of memory (a cell of a
few megabytes may need gigabytes as a syntax tree), so :func:`fingerprints` runs in a
bounded helper process (:mod:`..intake.bounded`): this module imports the standard
library only, and run by path it is that helper's script.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import os
import re
import sys
import textwrap

#: The smallest function body, in syntax-tree nodes (expression contexts not counted),
#: that gets a fingerprint.  A body of a single expression is forced by the book's own
#: formulas, and many students write it the same without having seen each other's work:
#: ``return np.where(X @ theta + theta_0 > 0, 1, -1)`` has 18 nodes, its two-line form
#: (the scores in a variable, then ``np.where``) 21, and with ``np.asarray`` around the
#: inputs such answers stay under 30.  From 30 nodes on, a function carries several
#: independent choices (the library's ``predict``, with its input checks, has 39; its
#: ``update`` 63; the reference solutions of chapter 1 from 31 to 79), so that two
#: students agreeing on all of them is worth a look.  Just above the line, the bare
#: perceptron rule (the test and both returns, 33 nodes) may still group students who
#: wrote it on their own: every record carries its size so that a person can weigh it.
MIN_SIZE = 30

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_BUILTINS = frozenset(dir(builtins))
_MAGIC = re.compile(r"^([ \t]*)[%!].*$", re.M)


# ------------------------------------------------------------------ reading the cells
def strip_magics(source: str) -> str:
    """``source`` with IPython magics (``%...``, ``!...``) made ``pass``, as the sandbox
    runs cells, so that such cells still parse.

    Parameters
    ----------
    source
        One code cell.

    Returns
    -------
    str
        The cell with every line that starts (after indentation) with ``%`` or ``!``
        replaced by ``pass`` at the same indentation.
    """
    return _MAGIC.sub(r"\1pass", source)


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _definition_text(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return "\n".join(lines[first - 1 : node.end_lineno]) + "\n"


def function_sources(cells: list[str]) -> dict[str, str]:
    """The source of each top-level function defined in a notebook's code cells.

    Parameters
    ----------
    cells : list of str
        The code cells in order, as :func:`.grader.read_submission` returns them.

    Returns
    -------
    dict of str to str
        Function name to the text of its definition (decorators included, magics
        replaced by ``pass``).  When a name is defined more than once, the last
        definition wins, as when the cells run in order.  A cell that does not parse
        is skipped; the cells after it still count.
    """
    found: dict[str, str] = {}
    for cell in cells:
        text = strip_magics(cell)
        tree = _parse(text)
        if tree is None:
            continue
        lines = text.splitlines()
        for node in tree.body:
            if isinstance(node, _FUNCTIONS):
                found[node.name] = _definition_text(lines, node)
            elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
                  and node.value.id in found):  # update = my_update: that function
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = found[node.value.id]
    return found


# ------------------------------------------------------------------ normalising a function
def _is_string_statement(node: ast.stmt) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


class _DropStrings(ast.NodeTransformer):
    """Drop docstrings and other string-only statements from every block."""

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                kept = [s for s in block if not _is_string_statement(s)]
                if not kept and not isinstance(node, _FUNCTIONS):
                    kept = [ast.Pass()]
                setattr(node, name, kept)
        return node


def _strip_signature(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Drop what the grader's calls do not depend on: annotations, defaults, decorators."""
    for node in ast.walk(fn):
        if isinstance(node, _FUNCTIONS):
            node.decorator_list = []
            node.returns = None
            node.type_comment = None
        if isinstance(node, (*_FUNCTIONS, ast.Lambda)):
            node.args.defaults = []
            node.args.kw_defaults = [None] * len(node.args.kwonlyargs)
        if isinstance(node, ast.arg):
            node.annotation = None
            node.type_comment = None


def _bound_names(fn: ast.AST) -> set[str]:
    """Every name the function binds: parameters, assignments, loops, imports..."""
    bound: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
    return bound


def _module_names(fn: ast.AST, bound: set[str]) -> set[str]:
    """Free names used as the base of an attribute: imported modules such as ``np``."""
    return {node.value.id for node in ast.walk(fn)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id not in bound and node.value.id not in _BUILTINS}


class _Rename(ast.NodeVisitor):
    """Rename the chosen names to ``#0``, ``#1``... in order of first appearance.

    The canonical names cannot be Python identifiers, so they never meet a kept name.
    """

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.canonical: dict[str, str] = {}

    def new(self, name: str) -> str:
        if name not in self.names:
            return name
        return self.canonical.setdefault(name, f"#{len(self.canonical)}")

    def _named(self, node: ast.AST) -> None:
        node.name = self.new(node.name)
        self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _named

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            node.name = self.new(node.name)
        self.generic_visit(node)

    visit_MatchAs = visit_MatchStar = visit_ExceptHandler

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            node.rest = self.new(node.rest)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        node.id = self.new(node.id)

    def visit_arg(self, node: ast.arg) -> None:
        node.arg = self.new(node.arg)

    def visit_alias(self, node: ast.alias) -> None:
        if node.asname:
            node.asname = self.new(node.asname)
        elif "." not in node.name:
            node.asname = self.new(node.name)
        else:
            self.new(node.name.split(".")[0])

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        node.names = [self.new(n) for n in node.names]

    visit_Nonlocal = visit_Global


def _function(source: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    tree = _parse(textwrap.dedent(source))
    if tree is None:
        return None
    return next((node for node in tree.body if isinstance(node, _FUNCTIONS)), None)


def _body_size(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return sum(1 for stmt in fn.body for node in ast.walk(stmt)
               if not isinstance(node, ast.expr_context))


_COMMUTATIVE = (ast.Add, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)
_MIRRORED = {ast.Gt: ast.Lt, ast.GtE: ast.LtE}
_NAMES = re.compile(r"\b(id|arg)='[^']*'")


def _shape(node: ast.AST) -> str:
    """A node's structure with its names left out: the order given to two operands."""
    return _NAMES.sub(r"\1=''", ast.dump(node))


class _Commute(ast.NodeTransformer):
    # Run twice: before the names are made canonical (by the operands' shapes, so that
    # the order of first appearance does not depend on the operands' order), and after
    # (by the canonical names, for operands of the same shape: ``y * x``, ``x * y``).
    """Put the operands of ``+``, ``*``, ``&``, ``|``, ``^``, ``==`` and ``!=`` in one
    order, and write ``a > b`` as ``b < a``: ``(theta @ x + theta_0) * y`` is then the
    same function as ``y * (theta_0 + theta @ x)``.  (Numbers, arrays and booleans,
    what these functions compute with, do not mind the order.)"""

    def __init__(self, key=_shape) -> None:
        self.key = key

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, _COMMUTATIVE) and self.key(node.right) < self.key(node.left):
            node.left, node.right = node.right, node.left
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        op, right = node.ops[0], node.comparators[0]
        if type(op) in _MIRRORED:
            node.left, node.comparators, node.ops = right, [node.left], [_MIRRORED[type(op)]()]
        elif isinstance(op, (ast.Eq, ast.NotEq)) and self.key(right) < self.key(node.left):
            node.left, node.comparators = right, [node.left]
        return node


def _normalised(source: str) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, int] | None:
    """The function of ``source`` normalised, and its body's size; None if none parses."""
    fn = _function(source)
    if fn is None:
        return None
    try:
        fn = _DropStrings().visit(fn)
        fn = _Commute().visit(fn)
        _strip_signature(fn)
        bound = _bound_names(fn)
        _Rename(bound | _module_names(fn, bound)).visit(fn)
        fn = _Commute(ast.dump).visit(fn)
    except RecursionError:
        return None
    return fn, _body_size(fn)


def _is_not_implemented(node: ast.expr | None) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    return isinstance(node, ast.Name) and node.id == "NotImplementedError"


def is_stub(source: str) -> bool:
    """Whether ``source`` is an unchanged exercise stub.

    Parameters
    ----------
    source : str
        The definition of one function.

    Returns
    -------
    bool
        True when the body, apart from its docstring and comments, only raises
        ``NotImplementedError`` (``pass`` statements allowed).
    """
    fn = _function(source)
    if fn is None:
        return False
    body = [s for s in fn.body if not _is_string_statement(s) and not isinstance(s, ast.Pass)]
    return bool(body) and all(isinstance(s, ast.Raise) and _is_not_implemented(s.exc)
                              for s in body)


def size(source: str) -> int:
    """The size of a function's body: the number that :data:`MIN_SIZE` is compared with.

    Parameters
    ----------
    source : str
        The definition of one function (the first one in ``source`` is used).

    Returns
    -------
    int
        The number of syntax-tree nodes of the body, docstrings and other string-only
        statements left out, expression contexts not counted; 0 when ``source``
        defines no function or does not parse.
    """
    found = _normalised(source)
    return 0 if found is None else found[1]


def fingerprint(source: str) -> str | None:
    """The fingerprint of one function: equal for functions that are the same.

    Parameters
    ----------
    source : str
        The definition of one function (the first one in ``source`` is used).

    Returns
    -------
    str or None
        The sha256 (hex) of the normalised syntax tree, without positions (see the
        module's description of the normalisation).  None when there is nothing worth
        comparing: ``source`` does not parse or defines no function, the function is
        the unchanged exercise stub, its body is smaller than :data:`MIN_SIZE`, or it
        is nested too deeply to walk.
    """
    if is_stub(source):
        return None
    found = _normalised(source)
    if found is None or found[1] < MIN_SIZE:
        return None
    try:
        dump = ast.dump(found[0], annotate_fields=True, include_attributes=False)
    except RecursionError:  # nested beyond what a person would write
        return None
    return hashlib.sha256(dump.encode("utf-8")).hexdigest()


def fingerprints(request: dict) -> dict:
    """The fingerprint and size of each graded function a submission defines.

    Parameters
    ----------
    request
        ``{"cells": [code cells in order], "names": [graded function names]}``.

    Returns
    -------
    dict
        Function name to ``[fingerprint, size]`` for each graded function that the
        cells define and that gets a fingerprint (see :func:`fingerprint`).
    """
    sources = function_sources(request["cells"])
    found = {}
    for name in request["names"]:
        if name in sources:
            fp = fingerprint(sources[name])
            if fp is not None:
                found[name] = [fp, size(sources[name])]
    return found


if __name__ == "__main__":  # the helper process
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "intake"))
    from helper import serve  # type: ignore[import-not-found]

    serve(fingerprints)
