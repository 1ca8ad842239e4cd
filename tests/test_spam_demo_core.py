"""The page's spam features (JavaScript, run under Node.js) are the library's, bit for bit.

Chapter 5's demo computes the features of the reader's message in the browser, with
``book/_demos/spam/spam-core.mjs``; the chapter's code uses :mod:`perceptron_lib.spam`.
Both get the same messages (the chapter's, the exercises', empty and white-space-only
text, letters and digits of many scripts, characters Unicode assigned after 14.0, emoji,
combining marks, lone surrogates, 100,000 characters, random strings from every plane)
and must agree on the tokens, the counts, the three features and, for a few
classifiers, the score and the verdict.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import perceptron_lib as pl
from perceptron_lib.demos.spam import SpamModel, ratio_text
from perceptron_lib.grading.assignments.a05_spam import MESSAGES

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")

UNICODE = {
    "accents, composed": "Ünïcödé ÉTÉ CAFÉ café naïve!",
    "accents, combining marks": "E\u0301TE\u0301 CAFE\u0301 cafe\u0301 n\u0303 \u0301\u0301",
    "combining marks alone": "\u0301 \u0308\u0308 \u20dd",
    "Greek": "ΚΑΛΗΜΕΡΑ κόσμε ΑΒΓ! Σίσυφος ΣΊΣΥΦΟΣ",
    "Cyrillic": "ПРИВЕТ мир ДЕНЬГИ 100₽!",
    "titlecase digraphs": "ǅungla ǈ ǋ ǄǇ",
    "Georgian Mtavruli and Mkhedruli": "ᲒᲐᲛᲐᲠᲯᲝᲑᲐ გამარჯობა",
    "Arabic-Indic digits": "اتصل ٠١٢٣٤٥٦٧٨٩ الآن ۱۲۳",
    "Devanagari": "नमस्ते १२३ दुनिया",
    "full-width": "ＦＲＥＥ ｆｒｅｅ １２３ ！ ＷＩＮ",
    "superscripts, circled and Roman numerals": "x² y³ ¹ ① ⑳ Ⅻ ⅻ ↉ ½",
    "mathematical letters and digits": "𝐅𝐑𝐄𝐄 𝟏𝟐𝟑 𝔣𝔯𝔢𝔢",
    "CJK and kana": "無料 今すぐ カタカナ ひらがな 123",
    "Hangul and Thai": "무료 ๑๒๓ ฟรี",
    "letters and digits new after Unicode 14": "\U0001e4d0\U0001e4d1 \U0001e4f0\U0001e4f1 "
                                               "\U00011f04 \U00011f50\U00011f51 \U0001e030",
    "unassigned code points": "\U000e0080 \U0010fffd \U00030000",
    "emoji": "WIN 🎉🔥 NOW!!! 👩‍💻 🇫🇷 1️⃣ 👍🏽",
    "emoji only": "🎉 🔥",
    "modifier letters": "ʰ ʲ ˢ ꜰʀᴇᴇ",
    "lone surrogates": "FREE \ud800 \udfff money \ud83d",
    "control characters": "FREE\x00money \x07 \x1b[1m",
    "information separators (not white space)": "FREE\x1cMONEY \x1d\x1e\x1f",
    "zero-width and BOM (not white space)": "FREE\u200bMONEY \ufeffWIN \u2060",
    "every white space character": "WIN" + "".join(pl.unicode_classes.WHITE_SPACE) + "NOW!",
    "exclamation look-alikes": "¡Hola! ！ ‼ ❗ ǃ",
}


def corpus() -> list[tuple[str, str]]:
    ex = pl.spam_messages()
    out = [(f"training message {k + 1}", m) for k, m in enumerate(ex.messages)]
    out.append(("test message", ex.test_message))
    out.append(("the exercise's message", "Call me at 5 PM, I have 2 NEW ideas!"))
    out += [(f"graded message {k + 1}", m) for k, m in enumerate(MESSAGES)]
    out += [("empty", ""), ("a space", " "), ("white space only", " \t\n\r\v\f\xa0\u3000\u2028"),
            ("one letter", "I"), ("one digit", "7"), ("punctuation only", "- & $$$ !!!"),
            ("FREE MONEY!!!", "FREE MONEY!!!"), ("12345", "12345")]
    out += sorted(UNICODE.items())
    rng = random.Random(5)
    pieces = [*pl.spam_messages().messages, *UNICODE.values(), "  ", "\n", "!!", "ÀÉÎ", "٣"]
    long = "".join(rng.choice(pieces) for _ in range(2000))
    out.append(("100,000 characters", (long * (100_000 // len(long) + 1))[:100_000]))
    out.append(("100,000 capitals", "A" * 100_000))
    out.append(("100,000 spaces and a word", " " * 99_996 + "WIN!"))
    # random strings from every plane, to cover the tables far from the usual characters
    for k in range(40):
        chars = []
        for _ in range(rng.randint(1, 60)):
            plane = rng.choice([0, 0, 0, 1, 2, 3, 14, 15, 16])
            cp = rng.randrange(plane * 0x10000, (plane + 1) * 0x10000)
            if 0xD800 <= cp <= 0xDFFF:
                cp = 0x20  # a lone surrogate is tested above; JSON cannot hold a pair here
            chars.append(chr(cp))
            if rng.random() < 0.2:
                chars.append(rng.choice(pl.unicode_classes.WHITE_SPACE))
        out.append((f"random code points {k}", "".join(chars)))
    return out


def models() -> list[SpamModel]:
    ex = pl.spam_messages()
    X3 = pl.spam_feature_matrix(list(ex.messages))
    r2 = pl.perceptron(X3[:, :2], ex.y, tau=1000)
    r3 = pl.perceptron(X3, ex.y, tau=1000)
    mean, std = X3[:, :2].mean(axis=0), X3[:, :2].std(axis=0)
    rz = pl.perceptron((X3[:, :2] - mean) / std, ex.y, tau=1000)
    return [
        SpamModel.make(r2.theta, r2.theta_0, (0, 1)),
        SpamModel.make(r3.theta, r3.theta_0, (0, 1, 2)),
        SpamModel.make(rz.theta, rz.theta_0, (0, 1), mean=mean, scale=std),
        SpamModel.make([0.3, -2.5], 0.1, (2, 1), mean=[1.0, 0.2], scale=[2.0, 0.7]),
    ]


@pytest.fixture(scope="module")
def js_results(tmp_path_factory):
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to compare the page's spam features")
    data = {"messages": [m for _, m in corpus()], "models": [m.to_json() for m in models()]}
    path = tmp_path_factory.mktemp("js") / "messages.json"
    # ensure_ascii keeps lone surrogates as \\ud800 escapes, which JSON.parse reads back
    path.write_text(json.dumps(data, ensure_ascii=True))
    proc = subprocess.run([NODE, str(ROOT / "tests" / "js" / "run_spam_core.mjs"), str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


def test_the_corpus_covers_what_it_claims():
    names = [name for name, _ in corpus()]
    assert len(names) == len(set(names)) > 80
    messages = dict(corpus())
    assert len(messages["100,000 characters"]) == 100_000
    # the definition differs from Python's str methods on these, so they must be here
    assert not "²".isdecimal() and "²".isdigit()
    assert "\x1c".isspace() and "\x1c" not in pl.unicode_classes.WHITE_SPACE


@pytest.mark.parametrize("k", range(len(corpus())), ids=[name for name, _ in corpus()])
def test_same_tokens_counts_and_features_in_python_and_javascript(js_results, k):
    _, message = corpus()[k]
    got = js_results[k]
    assert got["tokens"] == pl.tokenize(message)
    if not pl.tokenize(message):
        with pytest.raises(ValueError, match="empty"):
            pl.spam_features(message)
        assert got["error"].startswith("message is empty")
        return
    c = pl.count_message(message)
    assert got["counts"] == {"words": c.words, "capsWords": c.caps_words,
                             "otherWords": c.other_words, "digits": c.digits,
                             "numbers": c.numbers, "exclamations": c.exclamations}
    x = pl.spam_features(message)
    # JSON carries floats exactly: the features must be equal, not close
    assert got["features"] == x.tolist()
    for model, score, verdict in zip(models(), got["scores"], got["verdicts"], strict=True):
        assert score == model.score(x)
        assert verdict == model.verdict(x)


def test_the_scores_are_the_classifiers(js_results):
    # the demo's left-to-right sum is the score theta . z + theta_0 of the library
    ex = pl.spam_messages()
    x = pl.spam_features(ex.test_message)
    for model in models():
        z = x[list(model.columns)]
        if model.mean is not None:
            z = (z - model.mean) / model.scale
        assert model.score(x) == pytest.approx(float(model.theta @ z + model.theta_0), abs=1e-12)
        assert model.verdict(x) == pl.predict(z[None, :], model.theta, model.theta_0)[0]


def test_the_corpus_tells_old_and_new_definitions_apart(js_results):
    # A JavaScript built on the browser's own classes (\\s, \\p{L}, \\p{Lu}, \\p{Nd}) would
    # fail the comparison above on these messages; this is what makes the test able to fail.
    messages = dict(corpus())
    assert pl.count_message(messages["superscripts, circled and Roman numerals"]).digits == 0
    assert pl.tokenize(messages["information separators (not white space)"]) == [
        "FREE\x1cMONEY", "\x1d\x1e\x1f"]
    assert pl.tokenize(messages["zero-width and BOM (not white space)"]) == [
        "FREE\u200bMONEY", "\ufeffWIN", "\u2060"]
    new = pl.count_message(messages["letters and digits new after Unicode 14"])
    assert (new.words, new.digits) == (0, 0)


@pytest.mark.parametrize("num,den", [(0, 1), (1, 16), (1, 80), (2, 15), (15, 16), (7, 3),
                                     (99_999, 100_000), (100_000, 1)])
def test_ratios_print_the_same_on_both_sides(num, den):
    if NODE is None:
        pytest.skip("Node.js not found")
    code = ("import('./book/_demos/spam/spam-core.mjs').then(m => "
            f"process.stdout.write(m.ratioText({num}, {den})))")
    out = subprocess.run([NODE, "-e", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout == ratio_text(num, den)
    assert abs(float(out.stdout) - num / den) <= 0.0005 + 1e-12
