"""The spam features and their tokenizer (chapter 5)."""

import numpy as np
import pytest

import perceptron_lib as pl
from perceptron_lib.spam import is_all_caps, is_number, is_word


def test_the_four_messages_reproduce_the_paper_table():
    ex = pl.spam_messages()
    F = pl.spam_feature_matrix(list(ex.messages))
    np.testing.assert_allclose(F, ex.paper_features, rtol=0, atol=1e-15)


def test_counts_behind_the_table():
    ex = pl.spam_messages()
    counts = [pl.count_message(m) for m in ex.messages]
    assert [(c.caps_words, c.other_words) for c in counts] == [(0, 20), (4, 26), (0, 18), (1, 15)]
    assert [(c.digits, c.words) for c in counts] == [(3, 20), (10, 30), (11, 18), (15, 16)]
    assert [c.numbers for c in counts] == [1, 1, 2, 3]
    assert [c.exclamations for c in counts] == [2, 0, 0, 2]


def test_test_message_differs_from_the_paper_on_w2s():
    ex = pl.spam_messages()
    f = pl.spam_features(ex.test_message)
    np.testing.assert_allclose(f, [2 / 15, 1 / 17, 2.0])
    assert f[1] == pytest.approx(ex.paper_test_features[1])
    assert f[0] != pytest.approx(ex.paper_test_features[0])  # the paper counts W-2s as caps


@pytest.mark.parametrize(
    "token,word,number,caps",
    [
        ("W-2s", True, False, False),
        ("FREE!", True, False, True),
        ("I", True, False, False),
        ("$256.08", False, True, False),
        ("808-326-9607.", False, True, False),
        ("-", False, False, False),
        ("TurboTax", True, False, False),
    ],
)
def test_token_rules(token, word, number, caps):
    assert (is_word(token), is_number(token), is_all_caps(token)) == (word, number, caps)


def test_ratios_stay_finite_without_a_denominator():
    np.testing.assert_array_equal(pl.spam_features("FREE MONEY!!!"), [2.0, 0.0, 3.0])
    np.testing.assert_array_equal(pl.spam_features("12345"), [0.0, 5.0, 0.0])


def test_bad_messages():
    with pytest.raises(ValueError, match="empty"):
        pl.spam_features("   ")
    with pytest.raises(TypeError, match="must be a str"):
        pl.spam_features(42)
    with pytest.raises(TypeError, match="list of str"):
        pl.spam_feature_matrix("one message")
    with pytest.raises(ValueError, match="no messages"):
        pl.spam_feature_matrix([])


@pytest.mark.parametrize(
    "message,words,caps,digits,numbers",
    [
        # decimal digits of any script count; superscripts and circled digits do not
        ("call ٠١٢ or ３４ now", 3, 0, 5, 2),
        ("x² ① ½", 1, 0, 0, 0),
        # letters of any script, capitals by category Lu; titlecase ǅ is not upper case
        ("ΚΑΛΗΜΕΡΑ κόσμε ǄǇ ǅungla", 4, 2, 0, 0),
        # a combining accent is not a letter: E + U+0301 is a capital E and a mark
        ("E\u0301TE\u0301 e\u0301", 2, 1, 0, 0),
        # U+001C is not white space (str.split would cut here), U+00A0 and U+3000 are
        ("FREE\x1cMONEY WIN\xa0NOW\u3000ok", 4, 3, 0, 0),
        # letters Unicode assigned after 14.0 are not letters, whatever Python knows
        ("\U0001e4d0\U0001e4d1 \U0001e4f0", 0, 0, 0, 0),
    ],
)
def test_letters_and_digits_are_fixed_unicode_properties(message, words, caps, digits, numbers):
    c = pl.count_message(message)
    assert (c.words, c.caps_words, c.digits, c.numbers) == (words, caps, digits, numbers)


def test_emoji_and_marks_only_are_tokens_without_words():
    np.testing.assert_array_equal(pl.spam_features("🎉 🔥 \u0301!"), [0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="empty"):
        pl.spam_features("\u2028\u3000\xa0\x85")
