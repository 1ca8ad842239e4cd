"""Chapter 5, The spam-feature example: ``spam_features``, ``accuracy``,
``train_test_split`` and ``kfold_indices``."""

from __future__ import annotations

import math
import re
import string

import numpy as np
from numpy.typing import ArrayLike

import perceptron_lib as pl

from .answers import Array, Group, Indices, Number, Sequence
from .exercise import Case, Mistake, Task


# ----------------------------------------------------------------------- spam_features
def spam_features_reference(message: str) -> np.ndarray:
    """The three features of chapter 5."""
    return pl.spam_features(message)


def _letters(token, ascii_only=False):
    return [c for c in token if (c in string.ascii_letters if ascii_only else c.isalpha())]


def _features(message, *, tokens="split", word="letter", caps="rule", over="other",
              digits="all", marks="count", ascii_only=False):
    """The features with one rule changed (the keyword names which, and how).

    ``ascii_only``: letters, capitals and digits as ``[A-Za-z]``, ``[A-Z]``, ``[0-9]``.
    """
    parts = {"split": message.split,
             "space": lambda: message.split(" "),
             "regex": lambda: re.findall(r"\w+", message)}[tokens]()
    if word == "letter":
        words = [t for t in parts if _letters(t, ascii_only)]
    elif word == "alpha":
        words = [t for t in parts if t.isalpha()]
    else:  # every token
        words = [t for t in parts if t]
    upper = (lambda c: c in string.ascii_uppercase) if ascii_only else str.isupper
    if caps == "rule":
        is_caps = [len(_letters(w, ascii_only)) >= 2
                   and all(upper(c) for c in _letters(w, ascii_only)) for w in words]
    elif caps == "isupper":
        is_caps = [w.isupper() for w in words]
    else:  # every character upper case
        is_caps = [all(c.isupper() for c in w) for w in words]
    n_caps = sum(is_caps)
    if over == "other":
        x1 = n_caps / max(len(words) - n_caps, 1)
    elif over == "words":
        x1 = n_caps / max(len(words), 1)
    else:  # the all-lower-case words only
        x1 = n_caps / max(sum(w == w.lower() for w in words), 1)
    if digits == "all":
        n_digits = sum((c in string.digits) if ascii_only else c.isdecimal() for c in message)
    elif digits == "isdigit":
        n_digits = sum(c.isdigit() for c in message)
    elif digits == "numbers":
        n_digits = sum(c.isdigit() for t in message.split() if not _letters(t) for c in t)
    else:  # count the numbers, not their digits
        n_digits = sum(1 for t in message.split()
                       if any(c.isdigit() for c in t) and not _letters(t))
    if marks == "count":
        x3 = float(message.count("!"))
    else:  # tokens with an exclamation mark
        x3 = float(sum("!" in t for t in message.split()))
    return np.array([x1, n_digits / max(len(words), 1), x3])


def _spam_variant(**kw):
    def run(message):
        return _features(message, **kw)

    return run


MESSAGES = [
    "FREE entry!!! Text WIN to 80086 now",
    "see you at 7, bring the notes",
    "URGENT: your account 4421 is LOCKED. Call 0800 555 0101!",
    "Lunch?",
    "I said NO. OK?",
    "$$$ CASH $$$ 1000000 prize!!!",
    "HELLO WORLD",
    "12345 67890",
    "Reply YES\tor NO\nto 8080 - it's FREE!!",
]

def _drawn_labels(rng: np.random.Generator, count: int = 2) -> list[Case]:
    """Random label arrays of -1 and +1, the second one agreeing with the first on a
    random share of the entries."""
    cases = []
    for k in range(count):
        n = int(rng.integers(3, 30))
        truth = rng.choice([-1, 1], size=n)
        guess = np.where(rng.random(n) < rng.random(), -truth, truth)
        cases.append(Case((truth, guess), f"random labels {k + 1}"))
    return cases


def _drawn_splits(rng: np.random.Generator, count: int = 2) -> list[tuple[int, float, int]]:
    """(n, fraction, seed) triples: n from 4 to 200, a fraction in hundredths."""
    return [(int(rng.integers(4, 201)), float(rng.integers(5, 60)) / 100,
             int(rng.integers(0, 10_000))) for _ in range(count)]


def _drawn_folds(rng: np.random.Generator, count: int = 2) -> list[tuple[int, int, int]]:
    """(n, k, seed) triples with 2 <= k <= n."""
    found = []
    for _ in range(count):
        n = int(rng.integers(4, 60))
        found.append((n, int(rng.integers(2, min(n, 10) + 1)), int(rng.integers(0, 10_000))))
    return found


#: A case for each rule of the exercise's text that the messages above leave open.
RULES = [
    ("Привет ДРУГ 2024!", "another script: ДРУГ is an all-caps word of Cyrillic letters"),
    ("Total: ٣٤٥ dirhams, ３ items", "decimal digits of other scripts count as digits"),
    ("U.S. and E.U. rules", "two letters with dots between them: U.S. is all-caps"),
    ("Straße STRAßE ǅ", "ß is a lower-case letter, so STRAßE is not all-caps"),
]

_VOCABULARY = ["free", "FREE", "Win", "WIN!", "cash", "CASH", "prize", "now", "NOW!!", "call",
               "é", "été", "ÉTÉ", "Straße", "ДРУГ", "друг", "I", "A.", "a", "OK", "ok,",
               "U.S.", "W-2s", "24/7", "$500", "0800", "٣٤٥", "３", "²", "-", "&", "!!!",
               "me!", "txt", "STOP.", "reply", "Ωmega", "ΩΜΕΓΑ"]
_SPACES = [" ", " ", " ", "  ", "\t", "\n"]


def _drawn_messages(rng: np.random.Generator, count: int = 4) -> list[Case]:
    """Messages of random tokens: words of several scripts and cases, numbers, digits of
    other scripts, signs and exclamation marks, between spaces, tabs and new lines."""
    cases = []
    for k in range(count):
        n = int(rng.integers(3, 12))
        tokens = [str(t) for t in rng.choice(_VOCABULARY, size=n)]
        gaps = [str(g) for g in rng.choice(_SPACES, size=n - 1)]
        message = tokens[0] + "".join(g + t for g, t in zip(gaps, tokens[1:], strict=True))
        cases.append(Case((message,), f"random message {k + 1}"))
    return cases


SPAM_FEATURES = Task(
    name="spam_features",
    points=3,
    signature="spam_features(message) -> array (caps ratio, digits ratio, !)",
    reference=spam_features_reference,
    answer=Array("an array of three floats (x1, x2, x3)"),
    public=(
        Case(("WIN a FREE prize!!! Call 555 now",), "all-caps words, a number, three !"),
        Case(("I have your W-2s - SEE you at 10 PM.",),
             "one-letter words, a digit inside a word, a token with no letter or digit"),
        Case(("Reply YES\tor NO,\nto 8080 now!",), "a tab and a new line between words"),
        Case(("CALL 0800 NOW",), "every word all-caps: no other word to divide by"),
        Case(("0800 555 0101",), "no word at all"),
        Case(("ÉTÉ GRATUIT à Paris, ٣ jours!",),
             "letters and digits beyond ASCII: É and à are letters, ÉTÉ is all-caps, ٣ is "
             "a digit"),
        Case(("I, for one, said A. OK!",),
             "one-letter words with punctuation (I, and A.) are never all-caps"),
        Case(("x² = ½ of ① now",), "², ½ and ① are not decimal digits: no digit here"),
    ),
    hidden=lambda seeds: [*(Case((m,), f"message {k + 1}")
                            for k, m in enumerate([*pl.spam_messages().messages,
                                                   pl.spam_messages().test_message,
                                                   *MESSAGES])),
                          *(Case((m,), about) for m, about in RULES),
                          *_drawn_messages(seeds.rng(1050))],
    known=(
        Mistake("ascii", "letters, capitals and digits are those of every script (`é`, "
                "`Д`, `٣`): use c.isalpha(), c.isupper() and c.isdecimal(), not [A-Za-z], "
                "[A-Z] or [0-9]", _spam_variant(ascii_only=True)),
        Mistake("isdigit", "count decimal digits only, c.isdecimal(): `²`, `½` and `①` "
                "are not digits (c.isdigit() says that `²` is)",
                _spam_variant(digits="isdigit")),
        Mistake("numbers", "the second feature counts DIGITS, not numbers",
                _spam_variant(digits="count numbers")),
        Mistake("digits in numbers", "count every digit of the message, also those inside "
                "words (the 2 of W-2s)", _spam_variant(digits="numbers")),
        Mistake("over words", "divide the all-caps words by the OTHER words (the words "
                "that are not all-caps), not by all words", _spam_variant(over="words")),
        Mistake("over lower", "divide by all the words that are not all-caps, not only "
                "the all-lower-case ones", _spam_variant(over="lower")),
        Mistake("isupper", "a one-letter word such as `I` or `A` is never all-caps: an "
                "all-caps word has at least two letters (`word.isupper()` is True for `I`)",
                _spam_variant(caps="isupper")),
        Mistake("caps every character", "only the LETTERS of a word must be upper case: "
                "`FREE!` and `SSN,` are all-caps, but `c.isupper()` is False for `!`",
                _spam_variant(caps="chars")),
        Mistake("split space", "split at any white space, `message.split()`: "
                "`message.split(' ')` keeps a new line or a tab inside a token",
                _spam_variant(tokens="space")),
        Mistake("regex", "split at white space only, `message.split()`, and keep the "
                "punctuation: a regular expression such as \\w+ cuts `W-2s` in two",
                _spam_variant(tokens="regex")),
        Mistake("alpha words", "a word is a token with at least ONE letter: `today.` and "
                "`W-2s` are words, although `str.isalpha` is False for them",
                _spam_variant(word="alpha")),
        Mistake("tokens as words", "numbers and symbols are not words: only tokens with a "
                "letter count as words", _spam_variant(word="every token")),
        Mistake("marked tokens", "count every `!` of the message: `!!!` is three",
                _spam_variant(marks="tokens")),
    ),
)


# ---------------------------------------------------------------------------- accuracy
def accuracy_reference(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """The fraction of right labels."""
    return pl.accuracy(y_true, y_pred)


def _right(y_true, y_pred):
    return np.asarray(y_true) == np.asarray(y_pred)


ACCURACY = Task(
    name="accuracy",
    points=1,
    signature="accuracy(y_true, y_pred) -> float",
    reference=accuracy_reference,
    answer=Number("a float between 0 and 1"),
    public=(Case((np.array([1, -1, 1, 1]), np.array([1, 1, 1, -1])), "two of four"),
            Case((np.array([1, -1, -1, 1]), np.array([1, -1, 1, 1])), "three of four")),
    hidden=lambda seeds: [*(Case((np.array(a), np.array(b)), f"labels {k + 1}")
                            for k, (a, b) in enumerate([([1, 1, 1], [1, 1, 1]),
                                                        ([1, -1], [-1, 1]),
                                                        ([-1] * 5 + [1] * 3, [-1] * 8),
                                                        ([1.0, -1.0, 1.0, 1.0, -1.0],
                                                         [1, 1, 1, 1, -1])])),
                          *_drawn_labels(seeds.rng(1150))],
    known=(
        Mistake("error rate", "accuracy is the share of RIGHT answers, not of wrong ones",
                lambda a, b: float(np.mean(~_right(a, b)))),
        Mistake("count", "divide the number of right answers by n",
                lambda a, b: int(np.sum(_right(a, b)))),
        Mistake("percent", "return a fraction between 0 and 1, not a percentage",
                lambda a, b: 100.0 * float(np.mean(_right(a, b)))),
        Mistake("floor division", "`//` is floor division, which rounds down to a whole "
                "number: use `/`", lambda a, b: int(np.sum(_right(a, b))) // len(a)),
    ),
)


# -------------------------------------------------------------------- train_test_split
def train_test_split_reference(n: int, test_fraction: float,
                               seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(train_idx, test_idx) of chapter 5's random split."""
    return pl.train_test_split(n, test_fraction, seed)


def _split(n, f, s, *, size="exact", order="train first", rng="default", where="first"):
    if rng == "default":
        perm = np.random.default_rng(s).permutation(n)
    else:
        perm = np.random.RandomState(s).permutation(n)
    n_test = {"exact": lambda: math.ceil(round(f * n, 9)),
              "ceil": lambda: math.ceil(f * n),
              "floor": lambda: int(f * n),
              "round": lambda: round(f * n)}[size]()
    if where == "first":
        train, test = perm[n_test:], perm[:n_test]
    else:
        train, test = perm[: n - n_test], perm[n - n_test:]
    return (train, test) if order == "train first" else (test, train)


def _split_variant(**kw):
    def run(n, f, s):
        return _split(n, f, s, **kw)

    return run


LEGACY = ("draw the permutation with numpy's generator, "
          "`np.random.default_rng(seed).permutation(n)`: np.random.seed and "
          "np.random.permutation give another one")

ROUND_UP = ("the test part gets ceil(test_fraction * n) examples: round UP (int() rounds "
            "down, and round() goes to the nearest, 2.5 to 2)")

PARTS = Group((("train_idx", Indices("a list or an array of ints")),
               ("test_idx", Indices("a list or an array of ints"))),
              "a tuple (train_idx, test_idx) of two lists or arrays of ints")

TRAIN_TEST_SPLIT = Task(
    name="train_test_split",
    points=2,
    signature="train_test_split(n, test_fraction, seed) -> (train_idx, test_idx)",
    reference=train_test_split_reference,
    answer=PARTS,
    public=(Case((8, 0.25, 0), "8 examples, a quarter held out"),
            Case((10, 0.25, 0), "10 examples: 2.5 rounds up to 3 test examples"),
            Case((50, 0.14, 1), "50 examples, 14% held out: 0.14 * 50 is "
                                "7.000000000000001 in floating point, the rule means 7")),
    hidden=lambda seeds: [Case(a, f"n = {a[0]}, fraction {a[1]}")
                          for a in [(10, 0.3, 1), (101, 0.2, 2), (5, 0.5, 3), (100, 0.07, 4),
                                    *_drawn_splits(seeds.rng(1250))]],
    known=(
        Mistake("floor", ROUND_UP, _split_variant(size="floor")),
        Mistake("round", ROUND_UP, _split_variant(size="round")),
        Mistake("inexact ceil", "round the product to a few decimals before the ceiling: "
                "in floating point it can land just above a whole number, "
                "math.ceil(round(test_fraction * n, 9))", _split_variant(size="ceil")),
        Mistake("test first", "return the training part first, then the test part",
                _split_variant(order="test first")),
        Mistake("test last", "the test part is the FIRST n_test entries of the "
                "permutation, perm[:n_test]", _split_variant(where="last")),
        Mistake("legacy random", LEGACY, _split_variant(rng="legacy")),
    ),
)


# ----------------------------------------------------------------------- kfold_indices
def kfold_reference(n: int, k: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The k splits of chapter 5's k-fold cross-validation."""
    return pl.kfold_indices(n, k, seed)


def _kfold(n, k, s, *, sizes="first larger", shuffle=True, order="train first",
           rng="default"):
    if not shuffle:
        perm = np.arange(n)
    elif rng == "default":
        perm = np.random.default_rng(s).permutation(n)
    else:
        perm = np.random.RandomState(s).permutation(n)
    q, r = divmod(n, k)
    if sizes == "first larger":
        size = [q + 1] * r + [q] * (k - r)
    elif sizes == "last larger":
        size = [q] * (k - r) + [q + 1] * r
    elif sizes == "rest to last":
        size = [q] * (k - 1) + [q + r]
    elif sizes == "rest dropped":
        size = [q] * k
    else:  # ceil(n / k) each, the last one what is left
        c = -(-n // k)
        size = [min(c, max(n - c * j, 0)) for j in range(k)]
    bounds = np.concatenate([[0], np.cumsum(size)])
    splits = []
    for j in range(k):
        test = perm[bounds[j]: bounds[j + 1]]
        train = np.concatenate([perm[: bounds[j]], perm[bounds[j + 1]:]])
        splits.append((train, test) if order == "train first" else (test, train))
    return splits


def _kfold_variant(**kw):
    def run(n, k, s):
        return _kfold(n, k, s, **kw)

    return run


FOLD_SIZES = ("the first n % k folds get n // k + 1 indices and the others n // k, so "
              "that every index is tested exactly once (np.array_split does that)")

KFOLD_INDICES = Task(
    name="kfold_indices",
    points=2,
    signature="kfold_indices(n, k, seed) -> list of (train_idx, test_idx)",
    reference=kfold_reference,
    answer=Sequence(PARTS, "split", "a list of k tuples (train_idx, test_idx)"),
    public=(Case((10, 5, 0), "10 examples, 5 folds"),
            Case((11, 3, 0), "11 examples, 3 folds: sizes 4, 4, 3"),
            Case((10, 4, 0), "10 examples, 4 folds: sizes 3, 3, 2, 2")),
    hidden=lambda seeds: [Case(a, f"n = {a[0]}, k = {a[1]}")
                          for a in [(13, 3, 1), (7, 7, 2), (50, 4, 3), (22, 5, 4),
                                    *_drawn_folds(seeds.rng(1350))]],
    known=(
        Mistake("no shuffle", "shuffle first: np.random.default_rng(seed).permutation(n)",
                _kfold_variant(shuffle=False)),
        Mistake("legacy random", LEGACY, _kfold_variant(rng="legacy")),
        Mistake("last larger", "the FIRST n % k folds are the larger ones",
                _kfold_variant(sizes="last larger")),
        Mistake("rest to last", FOLD_SIZES, _kfold_variant(sizes="rest to last")),
        Mistake("rest dropped", FOLD_SIZES, _kfold_variant(sizes="rest dropped")),
        Mistake("ceil sizes", FOLD_SIZES, _kfold_variant(sizes="ceil")),
        Mistake("test first", "each split is (train_idx, test_idx): the training part "
                "first, then the fold it tests on", _kfold_variant(order="test first")),
    ),
)

TASKS = [SPAM_FEATURES, ACCURACY, TRAIN_TEST_SPLIT, KFOLD_INDICES]
