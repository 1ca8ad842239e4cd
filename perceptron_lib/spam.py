"""From a text message to a feature vector (chapter 5, *The spam-feature example*).

The tokenizer, stated once
--------------------------
1. A message is split at white space into *tokens*.
2. A token containing at least one letter is a **word** (``W-2s``, ``today.``,
   ``WINNER!``).  A token with digits but no letter is a **number** (``$500``,
   ``4/1/2019.``, ``808-326-9607.``); a token with neither is ignored (``-``, ``&``).
3. A word is **all-caps** when it has at least two letters and every letter is upper
   case (``SSN``, ``FREE!``).  One-letter words (``I``, ``A``) never count as
   shouting, and ``W-2s`` is not all-caps because of its ``s``.
4. Digits are counted wherever they appear, also inside words (the ``2`` of ``W-2s``).
5. Exclamation marks are the character ``!`` (U+0021) only.

The characters, stated once (:mod:`perceptron_lib.unicode_classes`): *white space* is
Unicode's ``White_Space`` property; a *letter* is a character of general category L
(Lu, Ll, Lt, Lm, Lo), an *upper-case letter* one of category Lu, and a *digit* one of
category Nd (a decimal digit of any script: ``٣`` and ``３`` are digits, ``²`` and
``①`` are not), all as Unicode 14.0 assigns them.  These are explicit properties of one
fixed Unicode version, so the chapter's in-page demo, which computes the features in
JavaScript from the same tables, gives the same features as this module for every
string, in every browser and every Python.  Characters are code points: a combining
accent is not a letter (``E`` followed by U+0301 has one letter), and nothing is
normalized.

The three features
------------------
- ``x1``: all-caps words divided by the other words;
- ``x2``: digits divided by words;
- ``x3``: the number of exclamation marks.

A ratio whose denominator is zero uses 1 instead, so every feature stays finite.
These rules reproduce the table of the source paper for its four training messages;
its test message comes out as ``(2/15, 1/17)`` rather than the paper's ``(3/14, 1/17)``,
which counts ``W-2s`` as an all-caps word (chapter 5 discusses the difference).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .unicode_classes import WHITE_SPACE, is_digit, is_letter, is_upper

FEATURE_NAMES = ("caps_ratio", "digits_ratio", "exclamations")

_WHITE_SPACE_RUN = re.compile("[" + re.escape(WHITE_SPACE) + "]+")


@dataclass(frozen=True)
class MessageCounts:
    """The counts behind the three spam features of one message (chapter 5)."""

    words: int
    caps_words: int
    digits: int
    numbers: int
    exclamations: int

    @property
    def other_words(self) -> int:
        """Words that are not all-caps."""
        return self.words - self.caps_words


def tokenize(message: str) -> list[str]:
    """Split a message into tokens at runs of white space (chapter 5).

    White space is Unicode's ``White_Space`` property, which differs from what
    ``str.split`` uses at U+001C..U+001F (not white space here).

    Examples
    --------
    >>> tokenize("  FREE\\u00a0entry!!\\n\\nText WIN ")
    ['FREE', 'entry!!', 'Text', 'WIN']
    """
    if not isinstance(message, str):
        raise TypeError(f"message must be a str, got {type(message).__name__}")
    return [t for t in _WHITE_SPACE_RUN.split(message) if t]


def is_word(token: str) -> bool:
    """A token with at least one letter."""
    return any(is_letter(c) for c in token)


def is_number(token: str) -> bool:
    """A token with at least one digit and no letter."""
    return any(is_digit(c) for c in token) and not is_word(token)


def is_all_caps(token: str) -> bool:
    """A word of two or more letters, all of them upper case."""
    letters = [c for c in token if is_letter(c)]
    return len(letters) >= 2 and all(is_upper(c) for c in letters)


def count_message(message: str) -> MessageCounts:
    """Count words, all-caps words, digits, numbers and exclamation marks (chapter 5)."""
    tokens = tokenize(message)
    if not tokens:
        raise ValueError("message is empty: there is nothing to count")
    words = [t for t in tokens if is_word(t)]
    return MessageCounts(
        words=len(words),
        caps_words=sum(is_all_caps(w) for w in words),
        digits=sum(map(is_digit, message)),
        numbers=sum(is_number(t) for t in tokens),
        exclamations=message.count("!"),
    )


def spam_features(message: str) -> np.ndarray:
    """The three features of a message: caps ratio, digits ratio, exclamations (chapter 5).

    See the module docstring for the tokenizer.

    Parameters
    ----------
    message : str

    Returns
    -------
    numpy.ndarray, shape (3,)
        ``(caps words / other words, digits / words, exclamation marks)``.

    Examples
    --------
    >>> spam_features("WINNER! You have been selected to receive a $999 prize reward! "
    ...               "To claim call 0907146174. Valid 24 hours only.")
    array([0.06666667, 0.9375    , 2.        ])
    """
    c = count_message(message)
    return np.array(
        [
            c.caps_words / max(c.other_words, 1),
            c.digits / max(c.words, 1),
            float(c.exclamations),
        ]
    )


def spam_feature_matrix(messages: list[str]) -> np.ndarray:
    """Stack :func:`spam_features` of several messages into an (n, 3) array."""
    if isinstance(messages, str):
        raise TypeError("messages must be a list of str; for one message use spam_features")
    rows = [spam_features(m) for m in messages]
    if not rows:
        raise ValueError("no messages given")
    return np.vstack(rows)
