"""The course's notation: one meaning per symbol, checked on the text of every page.

The introduction (`book/intro.md`, section "Notation and conventions") lists the symbols
of the book with their one meaning each.  These tests read the Markdown and the math of
the chapters, the introduction, the page of exercise notebooks and the exercise and
solution notebooks (no build needed) and catch the slips that can be caught
mechanically: a score written with a dot, gamma as the width of the RBF kernel, vote
counts written with ``c``, ``K`` as a number of classes or of updates, an iterate
written with a subscript 0, ``b`` as a bound on a norm, and a few more.  Each rule is
also fed a sentence that breaks it, so that every rule is shown to fire.
"""

from __future__ import annotations

import io
import json
import re
import sys
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The intro's paragraph on the sources' notations names their symbols on purpose.
SOURCES_PARAGRAPH = re.compile(r"\*\*The sources' notations\.\*\*.*?(?:\n\n|\Z)", re.S)
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"``.+?``|`[^`\n]+`")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)


@dataclass(frozen=True)
class Fragment:
    """A piece of text of a page: a cell's Markdown, a code cell's labels, a figure's caption."""

    where: str
    text: str  # prose and math, code spans and code blocks removed

    @property
    def math(self) -> list[str]:
        return MATH.findall(self.text)


def markdown_text(source: str) -> str:
    """Markdown without fenced code blocks and code spans (they hold code, not notation)."""
    return CODE_SPAN.sub(" ", FENCE.sub(" ", source))


def code_text(source: str) -> str:
    """The comments and string literals of a code cell: what a reader sees of its symbols."""
    lines = ["" if ln.lstrip().startswith(("%", "!")) else ln for ln in source.splitlines()]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return ""
    return "\n".join(t.string for t in tokens if t.type in (tokenize.COMMENT, tokenize.STRING))


def pages() -> list[Path]:
    found = sorted(ROOT.glob("book/[0-9][0-9]_*.ipynb"))
    found += sorted(ROOT.glob("exercises/*.ipynb")) + sorted(ROOT.glob("solutions/*.ipynb"))
    found += [ROOT / "book" / "intro.md", ROOT / "book" / "exercises.md"]
    return found


def fragments(path: Path) -> list[Fragment]:
    name = str(path.relative_to(ROOT))
    if path.suffix == ".md":
        text = SOURCES_PARAGRAPH.sub(" ", path.read_text(encoding="utf-8"))
        return [Fragment(name, markdown_text(text))]
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    out = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            out.append(Fragment(f"{name} cell {i}", markdown_text(source)))
        elif cell["cell_type"] == "code":
            out.append(Fragment(f"{name} cell {i} (code)", code_text(source)))
        shown = cell.get("metadata", {}).get("mystnb", {})
        words = [shown.get("figure", {}).get("caption"), shown.get("image", {}).get("alt")]
        if any(words):
            text = "\n".join(w for w in words if w)
            out.append(Fragment(f"{name} cell {i} (caption)", markdown_text(text)))
    return out


# ---------------------------------------------------------------------------------------
# The rules.  Each returns the offending snippets of a fragment.

NOT_LETTER_BEFORE = r"(?<![A-Za-z\\])"
NOT_LETTER_AFTER = r"(?![A-Za-z])"


def in_math(pattern: str, flags: int = 0) -> Callable[[Fragment], list[str]]:
    rx = re.compile(pattern, flags)

    def find(frag: Fragment) -> list[str]:
        return [m.group(0) for seg in frag.math for m in rx.finditer(seg)]

    return find


def in_text(pattern: str, flags: int = 0) -> Callable[[Fragment], list[str]]:
    rx = re.compile(pattern, flags)

    def find(frag: Fragment) -> list[str]:
        return [m.group(0) for m in rx.finditer(frag.text)]

    return find


GAMMA = re.compile(r"\\gamma" + NOT_LETTER_AFTER + r"|γ|\bgamma\b")
RBF_WORDS = re.compile(r"rbf|gaussian|kernel width|(?<!half-)width|\\exp|\bexp\(|e\^\{-", re.I)


def gamma_near_rbf(frag: Fragment, reach: int = 40) -> list[str]:
    """gamma within a few tokens of RBF, a width or an exponential."""
    hits = []
    for m in GAMMA.finditer(frag.text):
        if m.group(0) == "gamma" and not frag.where.endswith(("(code)", "(caption)")):
            continue  # in Markdown the plain word is the library's argument, named as code
        window = frag.text[max(0, m.start() - reach) : m.end() + reach]
        if RBF_WORDS.search(window):
            hits.append(window.replace("\n", " "))
    return hits


# a subscript after theta that names an update or an epoch: theta_k, theta_{k+1}, theta_{0,k}
THETA = r"\\(?:tilde|hat|bar)?\\?theta"
ITERATE_SUBSCRIPT = (
    THETA + r"_(?:\{\s*0\s*,\s*[kt]\s*\}|\{\s*[kt]\s*(?:[+-]\s*1)?\s*\}|[kt])" + NOT_LETTER_AFTER
)
# theta_0 used as a vector: a norm, a transpose, a vector space, a tuple, or set to an iterate
OFFSET_AS_VECTOR = (
    r"(?:\\\||\\lVert)\s*" + THETA + r"_0\s*(?:\\\||\\rVert)"
    r"|" + THETA + r"_0\s*(?:\^\\top|\\in\s*\\mathbb\{R\}\^\{?d)"
    r"|" + THETA + r"_0\s*=\s*(?:\\theta\^\{\(|\(\s*-?[\d.]+\s*,)"
)


@dataclass(frozen=True)
class Rule:
    name: str
    why: str
    find: Callable[[Fragment], list[str]]
    bad: str  # a sentence that breaks the rule
    good: str  # the same idea in the course's notation


RULES = [
    Rule(
        "score-with-dot",
        r"scores are written \theta^\top x + \theta_0, never with \cdot",
        in_math(
            r"\\theta(?!_0|_\{0)(?:\^\{[^{}]*\}|\^\*|\^\\star|'|_\{[^{}]*\}|_[a-z])*\s*\\cdot\s*"
            r"(?:x|\\theta|\\mathbf\{x\}|\\phi)"
            r"|" + NOT_LETTER_BEFORE + r"x(?:\^\{[^{}]*\}|')?\s*\\cdot\s*\\theta"
        ),
        r"The score is $\theta \cdot x + \theta_0$ and $\theta^{(k)}\cdot\theta^*$ grows.",
        r"The score is $\theta^\top x + \theta_0$ and $\theta^{(k)\top}\theta^*$ grows.",
    ),
    Rule(
        "score-with-dot-in-code",
        "comments and labels write theta^T x (or theta @ x), not theta . x",
        in_text(r"\btheta(?:_\w+)?\s*[.·]\s*x\b"),
        "# the plane theta . x + theta_0 = 0",
        "# the plane theta @ x + theta_0 = 0",
    ),
    Rule(
        "gamma-is-a-margin",
        r"gamma is a margin; the RBF width is \beta (the library's argument `gamma`)",
        gamma_near_rbf,
        r"the RBF kernel $K(x, x') = \exp(-\gamma \lVert x - x' \rVert^2)$ with $\gamma = 10$",
        r"the RBF kernel $K(x, x') = \exp(-\beta \lVert x - x' \rVert^2)$ with $\beta = 10$",
    ),
    Rule(
        "vote-counts-are-v",
        r"c is the lifting coordinate; the voted perceptron's counts are v_k",
        in_math(NOT_LETTER_BEFORE + r"c_(?:\{[^{}]*\}|[a-z0-9])"),
        r"each hypothesis votes with its count $c_k$, and $c_0 = 0$",
        r"each hypothesis votes with its count $v_k$, and $v_0 = 0$",
    ),
    Rule(
        "K-is-a-kernel",
        "K is a kernel, always applied to two points; m counts classes, M updates",
        # K counting something: the last of a range, a binomial, a comparison, or
        # "$K$ classes/perceptrons/hypotheses" (the kernel itself may stand alone, $K$)
        in_text(
            r"\\dots,?\s*K(?![A-Za-z(])|\\binom\{K\}|(?<![A-Za-z\\])K\s*[<>]=?\s*\d"
            r"|\$K\$\s+(?:classes|perceptrons|hypotheses|updates|one-vs)"
        ),
        r"train $K$ perceptrons, one per class $c = 1, \dots, K$, for $k = 0, \dots, K$",
        r"train $m$ perceptrons, one per class $j = 1, \dots, m$; call $K$ a kernel when"
        r" $K(x, x') = \phi(x)^\top \phi(x')$, and $2K(x, x')$ is twice it",
    ),
    Rule(
        "class-index-is-j",
        "in the multiclass sections class j's hypothesis is Theta_j, theta_{0,j}",
        in_math(r"\\theta_\{?0,\s*c\}|\\theta_c" + NOT_LETTER_AFTER + r"|\\hat\{?c\}?\(x\)"),
        r"the class $\hat{c}(x)$ maximises $\theta_c^\top x + \theta_{0,c}$",
        r"the class $\hat{y}(x)$ maximises $\Theta_j^\top x + \theta_{0,j}$",
    ),
    Rule(
        "iterates-have-superscripts",
        r"the hypothesis after k updates is \theta^{(k)}, \theta_0^{(k)}; a subscript 0 is the "
        "offset and nothing else",
        in_math(ITERATE_SUBSCRIPT + "|" + OFFSET_AS_VECTOR),
        r"the iterates $\theta_k$, $\theta_{0,k}$ start at $\tilde\theta_0 = \theta^{(0)}$",
        r"the iterates $\theta^{(k)}$, $\theta_0^{(k)}$ start at $\tilde\theta^{(0)} = "
        r"\theta^{(0)}$",
    ),
    Rule(
        "b-is-never-a-norm",
        "b is only the sources' bias; a bound on a norm is B",
        in_math(
            r"(?:\\le|\\leq|<)\s*(?:\\sqrt\{\s*)?b" + NOT_LETTER_AFTER + r"(?!_)"
            r"|" + NOT_LETTER_BEFORE + r"b\s*=\s*(?:\\\||\\lVert)"
            r"|\\sqrt\{\s*b\^2"
        ),
        r"let $b = \|\theta^{(0)}\|$, so that $\|\theta^{(k)}\| \le \sqrt{b^2 + kR^2}$",
        r"let $B = \|\theta^{(0)}\|$, so that $\|\theta^{(k)}\| \le \sqrt{B^2 + kR^2}$",
    ),
    Rule(
        "scale-is-rho",
        r"a scale factor applied to the data or to (theta, theta_0) is \rho",
        in_math(
            r"\(\s*(c|s|\\lambda)\s*\\theta\s*,\s*\1\s*\\theta_0\s*\)"
            r"|"
            + NOT_LETTER_BEFORE
            + r"(?:s|\\lambda)\s*(?:\\,)?\s*x(?:\^\{\(i\)\})?"
            + NOT_LETTER_AFTER
        ),
        r"$(c\theta, c\theta_0)$ is the same classifier, and $s\,x^{(i)}$ the same data",
        r"$(\rho\theta, \rho\theta_0)$ is the same classifier, and $\rho\,x^{(i)}$ the same data",
    ),
    Rule(
        "m-counts-classes",
        "m is the number of classes, not a function",
        # (m times a bracket in an exponent, as in R^{m(d+1)}, is a dimension)
        in_math(r"(?<!\^\{)" + NOT_LETTER_BEFORE + r"m\s*\("),
        r"the margin $m(t)$ grows for $t < 2.5$",
        r"the margin $\gamma_c(\theta_0)$ grows for $\theta_0 < 2.5$ in $\mathbb{R}^{m(d+1)}$",
    ),
    Rule(
        "eta-is-the-rate",
        r"a learning rate is \eta; \mu is the margin perceptron's threshold",
        in_text(
            r"rate\s+\$\\mu|\\mu\s*(?:\\,)?\s*y(?:\^\{\(i\)\})?\s*(?:\\,)?\s*x"
            r"|\\mu\s*\\in\s*\(0,\s*1\)"
        ),
        r"with learning rate $\mu \in (0, 1)$ the update adds $\mu\, y\, x$",
        r"with learning rate $\eta \in (0, 1)$ the update adds $\eta\, y\, x$",
    ),
    Rule(
        "no-epsilon-for-errors",
        r"errors are \mathcal{E}_n(h) and \mathcal{E}(h); epsilon is not used",
        in_math(r"\\(?:var)?epsilon" + NOT_LETTER_AFTER),
        r"its training error $\epsilon_n(h)$ is zero",
        r"its training error $\mathcal{E}_n(h)$ is zero",
    ),
    Rule(
        "mu-lambda-alpha-keep-their-meaning",
        r"\mu is the margin threshold, \lambda a regularisation weight, \alpha_i the dual "
        "coefficients: not a mean, convex weights or an angle",
        in_math(r"\\mu_[a-z{]|\\lambda_[a-z0-9{]|\\(?:cos|sin)\s*\\alpha"),
        r"$z_j = (x_j - \mu_j)/\sigma_j$, weights $\lambda_i$, normal $(\cos\alpha, \sin\alpha)$",
        r"$z_j = (x_j - \bar{x}_j)/\sigma_j$, weights $\omega_i$, normal $(\cos\psi, \sin\psi)$",
    ),
    Rule(
        "class-vectors-are-Theta_j",
        r"class j's vector is \Theta_j, row j of \Theta; \theta with a class index would "
        "read as a coordinate of theta",
        in_math(r"\\theta_(?:[jy]" + NOT_LETTER_AFTER + r"|\{[+-]1\}|\{y\^)"),
        r"the class maximises $\theta_j^\top x + \theta_{0,j}$, and $\theta_{-1} = -\theta_{+1}$",
        r"the class maximises $\Theta_j^\top x + \theta_{0,j}$, and $\Theta_{-1} = -\Theta_{+1}$",
    ),
    Rule(
        "theta-prime-is-lifted",
        r"\theta' is the lifted vector (\theta, \theta_0 / c); the hypothesis after an update "
        r"is \theta_{\text{new}}",
        in_math(r"\\theta'\s*=\s*\\theta\s*\+|\\theta_\{new\}|\\theta_0'"),
        r"the update gives $\theta' = \theta + y x$ and $\theta_0' = \theta_0 + y$",
        r"the update gives $\theta_{\text{new}} = \theta + y x$, lifted $\theta' = (\theta, 1)$",
    ),
    Rule(
        "psi-is-an-angle",
        r"\psi is the angle of a unit normal; Kesler's vectors are \Phi^{(y,j)}",
        in_math(r"\\psi\s*\^\{?\("),
        r"the vector $\psi^{(y,j)} \in \mathbb{R}^{m(d+1)}$",
        r"the vector $\Phi^{(y,j)} \in \mathbb{R}^{m(d+1)}$ and the angle $\psi$",
    ),
    Rule(
        "z-is-a-score",
        r"z names a score; the functional margin y(\theta^\top x + \theta_0) is \zeta",
        in_math(r"(?<![A-Za-z\\])z\s*=\s*y"),
        r"the loss depends on $z = y(\theta^\top x + \theta_0)$ only",
        r"the loss depends on $\zeta = y(\theta^\top x + \theta_0)$ only",
    ),
    Rule(
        "deficiency-is-xi",
        r"d is the dimension; the deficiency of example i is \xi_i",
        in_math(r"(?<![A-Za-z\\])d_(?:i|\{i\})\s*(?:=|\^2)|\\sum_i\s*d_i|y\^\{\(\w\)\}\s*d_[1n]"),
        r"$d_i = \max(0, \gamma - y^{(i)} u^\top x^{(i)})$ and $D = \sqrt{\sum_i d_i^2}$",
        r"$\xi_i = \max(0, \gamma - y^{(i)} u^\top x^{(i)})$ and $D = \sqrt{\sum_i \xi_i^2}$",
    ),
    Rule(
        "lifted-radius-is-R_c",
        "the radius and margin of the lifted data are R_c and gamma_c",
        in_math(r"R'|\\gamma'"),
        r"the lifted bound $(R'/\gamma')^2$",
        r"the lifted bound $(R_c/\gamma_c)^2$",
    ),
]

ALL_FRAGMENTS = [frag for path in pages() for frag in fragments(path)]


def test_the_pages_are_found():
    names = {p.name for p in pages()}
    assert {"01_algorithm.ipynb", "06_variants.ipynb", "intro.md", "exercises.md"} <= names
    chapters = list(ROOT.glob("book/[0-9][0-9]_*.ipynb"))
    assert len(chapters) >= 6
    assert sum(len(f.math) for f in ALL_FRAGMENTS) > 1000


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_rule_holds_on_every_page(rule):
    found = [(f.where, hit) for f in ALL_FRAGMENTS for hit in rule.find(f)]
    assert not found, f"{rule.why}:\n" + "\n".join(f"  {w}: {h!r}" for w, h in found)


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_rule_flags_a_sentence_that_breaks_it(rule):
    where = "example (code)" if "code" in rule.name else "example"
    bad = Fragment(where, rule.bad)
    good = Fragment(where, rule.good)
    assert rule.find(bad), f"{rule.name} does not flag {rule.bad!r}"
    assert not rule.find(good), f"{rule.name} flags the correct {rule.good!r}: {rule.find(good)}"


def test_gamma_in_code_labels_is_flagged_but_the_argument_name_in_prose_is_not():
    assert gamma_near_rbf(Fragment("x (code)", '"flipped XOR, RBF, gamma = 10"'))
    assert gamma_near_rbf(Fragment("x (code)", r'label=r"RBF, $\gamma = 1$"'))
    prose = "the library's `pl.rbf_kernel(gamma)`; in this book $\\gamma$ is always a margin."
    assert not gamma_near_rbf(Fragment("x", markdown_text(prose)))


def test_code_cells_contribute_their_labels_and_comments_only():
    src = 'ax.plot(x, label=r"$\\theta_k$")  # theta . x\nc_k = 1\n%pip install x\n'
    text = code_text(src)
    assert "$\\theta_k$" in text and "# theta . x" in text and "c_k = 1" not in text


def test_code_spans_and_blocks_are_not_read_as_math():
    md = "Price `$500` and `$600`.\n\n```python\nb = np.linalg.norm(t)  # \\le b\n```\nDone $x$."
    frag = Fragment("x", markdown_text(md))
    assert frag.math == ["$x$"]


# ---------------------------------------------------------------------------------------
# The introduction's table: every symbol the rules know, with its one meaning.

#: symbol as written in the table -> words its row must contain (its one meaning)
MEANINGS = {
    r"$\gamma$": "margin",
    r"$\gamma_{\mathrm{opt}}$": "largest margin",
    r"$\beta$": "rbf",
    r"$\rho$": "scale factor",
    r"$c$": "lifting",
    r"$R_c$": "lifting",
    r"$v_k$": "vote counts",
    r"$M$": "number of updates",
    r"$m$": "number of classes",
    r"$K(x, x')$": "kernel",
    r"$G$": "gram matrix",
    r"$\alpha_i$": "dual coefficients",
    r"$B$": "bound on a norm",
    r"$\eta$": "learning rate",
    r"$\mu$": "margin perceptron",
    r"$\lambda$": "regularisation",
    r"$\ell$": "loss",
    r"$s$": "signed distance",
    r"$\tau$": "epochs",
    r"$\mathcal{E}_n(h)$": "training error",
    r"$\theta_0 \in \mathbb{R}$": "offset",
    r"$\theta' = (\theta, \theta_0 / c)$": "lifted",
    r"$\theta_{\text{new}} = \theta + y\,x$": "after one update",
    r"$\psi$": "angle",
}


def notation_table() -> list[str]:
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    section = intro.split("## Notation and conventions", 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("|") and "---" not in ln]
    assert len(rows) > 10, "the notation table is missing"
    return rows


@pytest.mark.parametrize("symbol", list(MEANINGS))
def test_the_introduction_lists_the_symbol_with_its_one_meaning(symbol):
    rows = [r for r in notation_table() if symbol in r]
    assert rows, f"the notation table has no row for {symbol}"
    assert any(MEANINGS[symbol] in r.lower() for r in rows), (symbol, rows)


def test_the_table_names_the_library_argument_of_the_rbf_width():
    (row,) = [r for r in notation_table() if r"$\beta$" in r]
    assert "`gamma`" in row


def test_no_symbol_has_two_rows():
    firsts = []
    for row in notation_table()[1:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        firsts += [m for m in MATH.findall(cells[1]) if m in MEANINGS]
    assert len(firsts) == len(set(firsts)), sorted(firsts)


def test_figure_captions_and_alt_texts_are_read(tmp_path, monkeypatch):
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {
                    "mystnb": {
                        "figure": {"caption": r"the examples with $c_k > 0$"},
                        "image": {"alt": "RBF kernel with gamma 1"},
                    }
                },
                "source": ["x = 1\n"],
            }
        ]
    }
    page = tmp_path / "07_x.ipynb"
    page.write_text(json.dumps(nb))
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (caption,) = [f for f in fragments(page) if "caption" in f.where]
    assert caption.math == [r"$c_k > 0$"]
    assert "RBF kernel with gamma 1" in caption.text
    assert gamma_near_rbf(caption)
