"""The rules each exercise states, with the grading case that checks each one.

The chapters 1-7 exercises describe every graded function in words: which test counts
as a mistake (``<= 0``, not ``< 0``), who wins a tie, which part of an answer comes
first, what counts as a word, when a run stops.  :data:`RULES` lists, for every graded
function, the rules its notebook states, each with a case of the task that an answer
breaking the rule gets wrong, and the known mistake that breaks it where there is one.
Rules about types (an array rather than a list, an int rather than a float) and about
leaving the inputs unchanged are checked for every case, and are not listed here.

Notes
-----
A rule's ``said`` is copied from the function's section of its exercise notebook (its
markdown, with every run of white space read as one space); ``case`` is the start of
the ``about`` of one of the task's cases (a public one, or one graded without a secret);
``mistake`` names a :class:`~.exercise.Mistake` of the task whose wrong answer differs
from the reference's on that case.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RULES", "Rule"]


@dataclass(frozen=True)
class Rule:
    """A rule the exercise states, and what checks it.

    Attributes
    ----------
    said
        The words of the notebook that state the rule.
    case
        The start of the ``about`` of the case that checks it.
    mistake
        The known mistake that breaks the rule on that case, or None when the task
        names none.
    """

    said: str
    case: str
    mistake: str | None = None


#: Short for :class:`Rule`, in the tables below.
R = Rule

# ----------------------------------------------------------------------- 01_algorithm
UPDATE = (
    R("The test is `<= 0`, not `< 0`.", "theta = 0: the score is 0", "strict"),
    R("counts as a mistake, whatever the label", "a point on the boundary, label -1",
      "strict"),
    R(r"y \left(\theta^\top x + \theta_0\right) \le 0", "label -1 and an offset",
      "offset outside"),
    R(r"Both parts move: $\theta$ by $y\,x$ **and** $\theta_0$ by $y$.",
      "the worked example of the chapter", "no offset"),
    R(r"\theta \leftarrow \theta + y\, x, \qquad \theta_0 \leftarrow \theta_0 + y",
      "label -1 and an offset", "no label"),
    R("Both are *added*.", "the worked example of the chapter", "subtracts"),
    R("and otherwise it stays as it is", "an example that is already classified correctly"),
    R("`True` if the example was a mistake (and so the hypothesis changed), `False` "
      "otherwise", "an example that is already classified correctly"),
)

PERCEPTRON = (
    R(r"Start from $\theta = 0$ (a vector of $d$ zeros) and $\theta_0 = 0$.",
      "the three points of the worked example"),
    R("visit the examples in the order they are given, row `0` of `X` first, then row "
      "`1`, up to row `n - 1`", "the three points of the worked example", "skips last"),
    R("No shuffling: every epoch visits the rows in the same, given order.",
      "four points on a line"),
    R(r"a mistake, $y^{(i)} \left(\theta^\top x^{(i)} + \theta_0\right) \le 0$",
      "four points on a line", "strict"),
    R(r"y^{(i)} \left(\theta^\top x^{(i)} + \theta_0\right)",
      "three points on a line, tau = 2", "offset outside"),
    R(r"triggers the update $\theta \leftarrow \theta + y^{(i)} x^{(i)}$",
      "four points on a line", "subtracts"),
    R(r"$\theta_0 \leftarrow \theta_0 + y^{(i)}$", "four points on a line", "no offset"),
    R(r"Run at most $\tau$ epochs.", "XOR with tau = 3", "extra epoch"),
    R(r"the run must end after exactly $\tau$ epochs and return the hypothesis it has "
      "reached", "XOR with tau = 3", "ignores tau"),
    R("the total number of updates made, over all epochs",
      "the three points of the worked example", "epoch count"),
    R("Return exactly the three values above.", "four points on a line"),
)

PREDICT = (
    R("A point with score exactly $0$, on the boundary, gets $-1$.",
      "two points on the boundary", "ge"),
    R("`np.sign` alone will not do: it gives `0` for a score of `0`",
      "two points on the boundary", "np.sign"),
    R(r"+1 & \text{if } \theta^\top x + \theta_0 > 0",
      "the offset moves the boundary to x_1 = 2", "no offset"),
    R("whose entry $i$ is the label of row $i$ of `X`: `1` or `-1`",
      "the worked example's classifier", "zero one"),
    R("labels a point $x$ by the sign of its score", "the worked example's classifier",
      "scores"),
)

# -------------------------------------------------------------------------- 02_offset
ADD_OFFSET_FEATURE = (
    R("The constant goes in the **last** column", "the offset example", "first column"),
    R("one more column in which every entry equals `value`", "the -1 convention", "ones"),
    R("it returns a **new** float array of shape `(n, d + 1)`", "the offset example", "row"),
    R("(1.0 when you leave it out)", "value left out"),
)

PERCEPTRON_THROUGH_ORIGIN = (
    R(r"start with $\theta = (0, \dots, 0) \in \mathbb{R}^d$", "the offset example"),
    R("visit the examples **in order**", "the offset example"),
    R("note the $\\le$, so a score of exactly $0$ counts as a mistake",
      "the offset example", "strict"),
    R(r"\theta \leftarrow \theta + y^{(i)} x^{(i)} ;", "the offset example",
      "subtracts"),
    R(r"with every line about $\theta_0$ deleted", "the offset example",
      "with offset"),
    R(r"repeat for at most $\tau$ epochs", "the offset example",
      "extra epoch"),
    R(r"if they are not, the loop simply runs all $\tau$ epochs",
      "the offset example", "ignores tau"),
    R("the total number of updates over all epochs", "the offset example",
      "epoch count"),
)

LIFTED_TO_OFFSET = (
    R("you must **multiply** the last entry by $c$", "theta_new = (1, 2, -1.5), value 2",
      "not multiplied"),
    R(r"\theta_0 = c\,\theta'_{d+1}", "value 1/4", "divides"),
    R("`theta` is a float array of shape `(d,)` (all entries but the last)",
      "theta_new = (1, 2, -1.5), value 2", "theta scaled"),
    R("For $c = 1$ the offset is simply the last entry", "theta_new = (-1, 2.5), value 1",
      "first entry"),
)

# -------------------------------------------------------------------------- 03_margin
SIGNED_DISTANCE = (
    R(r"s = \frac{\theta^\top x + \theta_0}{\lVert\theta\rVert}", "the worked example",
      "offset undivided"),
    R(r"\lVert\theta\rVert = \sqrt{\theta_1^2 + \dots + \theta_d^2}", "the worked example",
      "lifted norm"),
    R("Its absolute value is the distance from $x$ to the hyperplane", "a 3-4-5 triangle",
      "score"),
    R(r"`np.linalg.norm(theta)` gives $\lVert\theta\rVert$", "a 3-4-5 triangle",
      "squared norm"),
    R(r"the hyperplane $\theta^\top x + \theta_0 = 0$", "the worked example", "no offset"),
    R("positive on the side $\\theta$ points to (the side classified $+1$), negative on "
      "the other side", "a 3-4-5 triangle", "abs"),
)

POINT_MARGINS = (
    R("Multiplying it by the label gives the **margin**", "the worked example",
      "no label"),
    R("keep that sign, do not take an absolute value", "the worked example", "abs"),
    R("its size is then the point's distance to the boundary",
      "a separator that gets every point right 1", "functional"),
    R(r"\gamma^{(i)} = y^{(i)} \, \frac{\theta^\top x^{(i)} + \theta_0}{\lVert\theta\rVert}",
      "the worked example", "offset outside"),
    R(r"\frac{\theta^\top x^{(i)} + \theta_0}{\lVert\theta\rVert}", "the worked example",
      "no offset"),
    R("A point on the boundary has margin $0$, and counts as a mistake", "random data 2"),
)

MARGIN = (
    R("is the **smallest** of the point margins", "both points right", "max"),
    R("Take the smallest *margin*, with its sign, not the smallest distance.",
      "the worked example: -sqrt(2)/2", "distance"),
    R("When it is zero or negative, the classifier makes a mistake",
      "the worked example: -sqrt(2)/2", "no label"),
    R("it is then the distance from the boundary to the closest point",
      "a separator that gets every point right 1", "functional"),
    R("the geometric margin must not change", "both points right", "functional"),
    R(r"\min_{1 \le i \le n} \; y^{(i)} \, \frac{\theta^\top x^{(i)} + \theta_0}",
      "the worked example: -sqrt(2)/2", "no offset"),
)

# --------------------------------------------------------------------- 04_convergence
RADIUS = (
    R("The smallest such number is the length of the longest example", "norms 5, 1, 10",
      "mean"),
    R(r"\|x\| = \sqrt{x_1^2 + \dots + x_d^2}", "norms 5, 1, 10", "coordinate"),
    R(r"R = \max_{i = 1, \dots, n} \bigl\|x^{(i)}\bigr\|", "norms 5, 1, 10", "whole"),
    R("one example per **row**", "norms 5, 1, 10", "columns"),
    R("so do not subtract a mean or move the data in any way", "norms 5, 1, 10",
      "centred"),
    R("$R$ is the largest *norm*, not the largest squared norm", "norms 5, 1, 10",
      "squared"),
)

MISTAKE_BOUND = (
    R(r"\left(\frac{R}{\gamma}\right)^2", "R = 2, gamma = 1/2", "ratio"),
    R(r"\left(\frac{R}{\gamma}\right)^2", "R = 3, gamma = 0.8", "gamma not squared"),
    R(r"\left(\frac{R}{\gamma}\right)^2", "R = 3, gamma = 0.8", "R not squared"),
    R("Do not round it to a whole number", "R = 3, gamma = 0.8", "ceil"),
    R("the grader compares the exact value", "R = 3, gamma = 0.8", "floor division"),
    R(r"The $(2R/\gamma)^2$ found in some lecture notes belongs to another algorithm",
      "R = 2, gamma = 1/2", "offset bound"),
)

LEMMA_QUANTITIES = (
    R("It need **not** be a unit vector: divide by its norm, as in the formula.",
      "three hypotheses", "unnormalised"),
    R(r"a_k = \frac{\theta^{(k)\top} \theta^*}{\|\theta^*\|}", "three hypotheses",
      "squared star"),
    R("(squared, so no square root)", "three hypotheses", "norms"),
    R("first the alignments $a_0, \\dots, a_M$, then the squared norms",
      "three hypotheses", "swapped"),
    R("each of shape `(M + 1,)`", "three hypotheses", "total"),
    R("(row 0 is usually all zeros, but do not rely on it)", "row 0 is not zero"),
)

# ---------------------------------------------------------------------------- 05_spam
SPAM_FEATURES = (
    R("spaces, tabs and new lines alike", "a tab and a new line between words",
      "split space"),
    R("Punctuation stays attached to its token", "one-letter words, a digit inside a word",
      "regex"),
    R("A token that contains at least one letter", "all-caps words, a number, three !",
      "alpha words"),
    R("of any script: `é` and `Д` are letters", "letters and digits beyond ASCII", "ascii"),
    R("Numbers are not words.", "no word at all", "tokens as words"),
    R("a token with neither (`-`, `&`, `$$$`) is ignored",
      "one-letter words, a digit inside a word", "tokens as words"),
    R("A word is *all-caps* when it has at least two letters",
      "one-letter words with punctuation", "isupper"),
    R("every one of its letters is upper case (`c.isupper()`)", "ß is a lower-case letter",
      "ascii"),
    R("the characters that are not letters do not matter",
      "two letters with dots between them", "caps every character"),
    R("and also inside words (the `2` of `W-2s`)", "one-letter words, a digit inside a word",
      "digits in numbers"),
    R("Digits of every script count", "decimal digits of other scripts", "ascii"),
    R("`²`, `½` and `①` are not decimal digits", "², ½ and ① are not decimal digits",
      "isdigit"),
    R("Count every `!` of the message.", "all-caps words, a number, three !",
      "marked tokens"),
    R("$x_1$ divides by *all the words that are not all-caps*",
      "all-caps words, a number, three !", "over words"),
    R("(not only the all-lowercase ones)", "all-caps words, a number, three !",
      "over lower"),
    R("$x_2$ counts *digits*, not numbers", "all-caps words, a number, three !", "numbers"),
    R(r"x_1 = \frac{C}{\max(W - C,\ 1)}", "every word all-caps"),
    R(r"x_2 = \frac{D}{\max(W,\ 1)}", "no word at all"),
    R("in the order $(x_1, x_2, x_3)$", "all-caps words, a number, three !"),
    R("so its features are $(2/15,\\ 1/17,\\ 2)$", "message 5", "over words"),
)

ACCURACY = (
    R(r"the fraction of examples whose predicted label $\hat y^{(i)}$ equals the true "
      "label", "three of four", "error rate"),
    R(r"\text{accuracy} = \frac{1}{n} \sum_{i=1}^{n}", "two of four", "count"),
    R("Return the accuracy as a float between $0$ and $1$", "two of four", "percent"),
    R("`accuracy(np.array([1, -1, 1, 1]), np.array([1, 1, 1, -1]))` is `0.5`",
      "two of four", "floor division"),
)

TRAIN_TEST_SPLIT = (
    R("`perm = np.random.default_rng(seed).permutation(n)`", "8 examples",
      "legacy random"),
    R("the product, rounded **up**", "10 examples: 2.5 rounds up", "floor"),
    R(r"For $n = 10$ and $f = 0.25$ that is $\lceil 2.5 \rceil = 3$",
      "10 examples: 2.5 rounds up", "round"),
    R("The test part is the **first** $n_\\text{test}$ entries of `perm`", "8 examples",
      "test last"),
    R("**training part first**", "8 examples", "test first"),
    R("Together they contain each index $0, \\dots, n-1$ exactly once.", "8 examples"),
    R("`0.07 * 100` evaluates to `7.000000000000001`, whose ceiling is $8$",
      "n = 100, fraction 0.07", "inexact ceil"),
)

KFOLD_INDICES = (
    R("Draw the permutation exactly as in `train_test_split`", "10 examples, 5 folds",
      "legacy random"),
    R("`perm = np.random.default_rng(seed).permutation(n)`", "10 examples, 5 folds",
      "no shuffle"),
    R("Cut `perm` into $k$ **consecutive** pieces", "10 examples, 5 folds"),
    R("the first $r$ folds have $q + 1$ indices and the other $k - r$ folds have $q$",
      "10 examples, 4 folds", "ceil sizes"),
    R("So the sizes differ by at most one", "11 examples, 3 folds", "rest to last"),
    R("the larger folds come first", "11 examples, 3 folds", "last larger"),
    R("so every row is tested exactly once", "11 examples, 3 folds", "rest dropped"),
    R("in the order $j = 0, 1, \\dots, k-1$", "10 examples, 5 folds"),
    R("each with the **training part first**", "10 examples, 5 folds", "test first"),
)

# ------------------------------------------------------------------------ 06_variants
AVERAGED_PERCEPTRON = (
    R("(a score of exactly $0$ is a mistake)", "three points on a line: theta after",
      "strict"),
    R("changes only what the run returns: the **average** of the hypothesis over the whole "
      "run", "three points on a line: theta after", "last"),
    R("the hypothesis right **after** visit $k$ (after its update, if the visit made one)",
      "three points on a line: theta after", "before"),
    R(r"\bar\theta = \frac{1}{V} \sum_{k=1}^{V} \theta^{(k)}",
      "three points on a line: theta after", "with start"),
    R("Every visit counts, not only the ones that update",
      "three points on a line: theta after", "updates only"),
    R("Number the visits of the whole run $k = 1, 2, \\dots, V$",
      "three points on a line that no threshold separates", "per epoch"),
    R("the clean epoch that ends a converging run counts too",
      "three points on a line: theta after"),
    R(r"a run that converges early makes fewer than $n\tau$ visits", "separable data 1",
      "n tau"),
    R("The run stops after an epoch with no mistake", "separable data 1", "no early stop"),
    R(r"or after $\tau$ epochs, whichever comes first",
      "three points on a line that no threshold separates", "extra epoch"),
    R("visit the examples $i = 1, \\dots, n$ in the given order",
      "the three points of the worked example"),
)

VOTED_PREDICT = (
    R("the vote of hypothesis $k$ counts $v_k$ times", "three hypotheses", "unweighted"),
    R("A count can be $0$", "the voted perceptron of the worked example", "unweighted"),
    R("Each hypothesis votes with the **sign** of its score, not with the score itself.",
      "ties: theta = 0 votes -1", "score votes"),
    R("a hypothesis whose score is exactly $0$ votes $-1$", "ties: theta = 0 votes -1",
      "np.sign votes"),
    R("a weighted sum of exactly $0$ gives $-1$", "ties: theta = 0 votes -1", "ge total"),
    R("`np.sign` would give $0$ in both places", "ties: theta = 0 votes -1",
      "np.sign total"),
    R(r"\theta^{(k)\top} x + \theta_0^{(k)} > 0", "hypotheses with offsets", "no offset"),
)

ONE_VS_ALL_PREDICT = (
    R("the one with the highest **score**", "three classes 1, 2, 3 in the plane",
      "argmin"),
    R("offsets included", "every score negative", "no offset"),
    R(r"do not divide them by $\lVert\Theta_j\rVert$", "scores 3, 2.5 and -3",
      "normalised"),
    R("A point may be claimed by several perceptrons, or by none (all scores negative): "
      "the highest score wins all the same", "every score negative", "first positive"),
    R("On a tie, the class that comes **first** in `classes` wins",
      "ties: the first class with the highest score wins", "last max"),
    R("they need not be $0, 1, \\dots, m-1$", "classes given out of order", "index"),
    R("in the order of the rows of `thetas`", "classes given out of order"),
)

POLYNOMIAL_GRAM = (
    R("K(x, x') = (x^\\top x' + r)^p", "the four XOR points", "coef0 after"),
    R("K(x, x') = (x^\\top x' + r)^p", "the four XOR points", "times degree"),
    R("K(x, x') = (x^\\top x' + r)^p", "the four XOR points", "no coef0"),
    R("Return the numpy array $G$ of shape $(n, n')$", "two points against three",
      "transposed"),
)

KERNEL_PERCEPTRON = (
    R(r"Start from $\alpha = (0, \dots, 0)$ ($n$ zeros) and $\theta_0 = 0$.",
      "the worked example, linear kernel"),
    R("visit $i = 1, \\dots, n$ in order", "the worked example, linear kernel"),
    R(r"f(x^{(i)}) = \sum_{i'=1}^{n} \alpha_{i'}\, y^{(i')} G_{i'i} + \theta_0",
      "XOR, polynomial kernel of degree 2 with coef0", "no labels"),
    R(r"f(x^{(i)}) = \sum_{i'=1}^{n} \alpha_{i'}\, y^{(i')} G_{i'i} + \theta_0",
      "two points on a line, linear kernel", "offset not scored"),
    R("with the **current** $\\alpha$ and $\\theta_0$", "the worked example, linear kernel",
      "stale scores"),
    R("(a mistake, $0$ included)", "XOR, polynomial kernel of degree 2 with coef0",
      "strict"),
    R(r"$\theta_0 \leftarrow \theta_0 + y^{(i)}$", "the worked example, linear kernel",
      "no offset"),
    R("Each $\\alpha_i$ is a count, never negative", "XOR, polynomial kernel of degree 2 "
      "with coef0", "signed"),
    R("Stop after an epoch with no mistake, or after $\\tau$ epochs.",
      "XOR, linear kernel, tau = 3", "extra epoch"),
    R("Stop after an epoch with no mistake, or after $\\tau$ epochs.",
      "XOR, linear kernel, tau = 3", "ignores tau"),
)

# ------------------------------------------------------------------------- 07_beyond
HINGE_DEFICIENCY = (
    R("An example beyond the margin contributes $0$", "margins 2, 1 and 1", "no max"),
    R("$D = 0$ exactly when every example has margin at least $\\gamma$",
      "separable data with margin 0.3", "no max"),
    R("an example on the wrong side contributes more than $\\gamma$", "XOR: a point"),
    R(r"D = \sqrt{\sum_{i=1}^{n} \xi_i^2}", "margins 2, 1 and 1", "sum"),
    R(r"D = \sqrt{\sum_{i=1}^{n} \xi_i^2}", "margins 2, 1 and 1", "no root"),
    R(r"D = \sqrt{\sum_{i=1}^{n} \xi_i^2}", "margins 2, 1 and 1", "mean"),
    R(r"D = \sqrt{\sum_{i=1}^{n} \xi_i^2}", "margins 2, 1 and 1", "max"),
    R("For a unit vector $u$", "the worked example's points", "functional"),
    R("and normalise that whole vector", "the worked example's points", "theta norm"),
    R("lift each example to $(x, 1)$, so that the separator is the vector "
      "$(\\theta, \\theta_0)$ through the origin", "the worked example's points",
      "no offset"),
    R(r"\xi_i = \max\left(0,\ \gamma - y^{(i)} u^\top x^{(i)}\right)", "margins 2, 1 and 1",
      "no label"),
)

MARGIN_PERCEPTRON = (
    R(r"y^{(i)} \left(\theta^\top x^{(i)} + \theta_0\right) \le \mu ,",
      "four points on a line, margin 2", "strict"),
    R("it updates whenever the score of an example is at most a threshold",
      "four points on a line, margin 2", "plain"),
    R("With $\\mu = 0$ it is the perceptron.", "margin 0", "strict"),
    R("do not divide by $\\lVert\\theta\\rVert$", "the worked example, margin 1",
      "geometric"),
    R(r"$\theta_0 \leftarrow \theta_0 + y^{(i)}$", "the worked example, margin 1",
      "no offset"),
    R("The threshold is on the *functional* score $y(\\theta^\\top x + \\theta_0)$",
      "four points on a line, margin 2", "offset outside"),
    R(r"start from $\theta = 0$, $\theta_0 = 0$", "the worked example, margin 1"),
    R("visit the examples in the given order", "the worked example, margin 1"),
    R("stop after an epoch with no **update**", "three points, margin 2",
      "stops without mistakes"),
    R("the run goes on after such an epoch", "three points, margin 2",
      "stops without mistakes"),
    R(r"or after $\tau$ epochs", "XOR with tau = 3", "extra epoch"),
    R(r"or after $\tau$ epochs", "XOR with tau = 3", "ignores tau"),
    R("the number of updates of the whole run", "the worked example, margin 1",
      "epoch count"),
)

MULTICLASS_PERCEPTRON = (
    R("The classes are the distinct labels of `y` in **sorted** order",
      "classes 2, 5, 7, given out of order", "unsorted"),
    R("Training starts from $\\Theta = 0$ and $\\theta_{0,j} = 0$ for every class",
      "three points, three classes 1, 2, 3"),
    R("visits the examples in the given order", "six points on a line"),
    R("let $j$ be its **rival**: the class of the highest score among the *other* classes",
      "six points on a line", "tie won"),
    R("(the first of them on a tie)", "three points, three classes 1, 2, 3", "last rival"),
    R("a tie between the true class and its rival counts as a mistake",
      "three points, three classes 1, 2, 3", "strict"),
    R("the true class moves towards the example and the rival away from it",
      "three points, three classes 1, 2, 3", "no demotion"),
    R(r"\theta_{0,j} \leftarrow \theta_{0,j} - 1", "three points, three classes 1, 2, 3",
      "no offset"),
    R("The other rows stay as they are.", "three points, three classes 1, 2, 3",
      "demotes all"),
    R(r"The run stops after an epoch with no mistake, or after $\tau$ epochs.",
      "six points on a line", "extra epoch"),
    R(r"The run stops after an epoch with no mistake, or after $\tau$ epochs.",
      "six points on a line", "ignores tau"),
    R("the second row is its $\\theta$ and the first row $-\\theta$",
      "two classes -1 and 1", "unsorted"),
)

#: Graded function -> the rules its exercise states, each with the case that checks it.
RULES: dict[str, tuple[Rule, ...]] = {
    "update": UPDATE,
    "perceptron": PERCEPTRON,
    "predict": PREDICT,
    "add_offset_feature": ADD_OFFSET_FEATURE,
    "perceptron_through_origin": PERCEPTRON_THROUGH_ORIGIN,
    "lifted_to_offset": LIFTED_TO_OFFSET,
    "signed_distance": SIGNED_DISTANCE,
    "point_margins": POINT_MARGINS,
    "margin": MARGIN,
    "radius": RADIUS,
    "mistake_bound": MISTAKE_BOUND,
    "lemma_quantities": LEMMA_QUANTITIES,
    "spam_features": SPAM_FEATURES,
    "accuracy": ACCURACY,
    "train_test_split": TRAIN_TEST_SPLIT,
    "kfold_indices": KFOLD_INDICES,
    "averaged_perceptron": AVERAGED_PERCEPTRON,
    "voted_predict": VOTED_PREDICT,
    "one_vs_all_predict": ONE_VS_ALL_PREDICT,
    "polynomial_gram": POLYNOMIAL_GRAM,
    "kernel_perceptron": KERNEL_PERCEPTRON,
    "hinge_deficiency": HINGE_DEFICIENCY,
    "margin_perceptron": MARGIN_PERCEPTRON,
    "multiclass_perceptron": MULTICLASS_PERCEPTRON,
}
