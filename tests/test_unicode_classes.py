"""The character classes of the spam features: one frozen Unicode 14.0 table, two copies."""

import subprocess
import sys
import unicodedata

import pytest

from perceptron_lib import unicode_classes as uc


def test_the_page_copy_and_the_frozen_table_are_current():
    # the same check as `python -m perceptron_lib.unicode_classes --check`
    assert uc.JS_TABLES.read_text(encoding="utf-8") == uc.js_module_text()
    if unicodedata.unidata_version == uc.UNICODE_VERSION:
        assert uc.PY_TABLES.read_text(encoding="utf-8") == uc.python_tables_text()
    proc = subprocess.run([sys.executable, "-m", "perceptron_lib.unicode_classes", "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout


@pytest.mark.parametrize("name", uc.CLASSES)
def test_the_frozen_table_is_this_pythons_where_unicode_did_not_change(name):
    # Under Python 3.11 (Unicode 14.0) the tables equal unicodedata's; under a later
    # Python every character in them keeps its category, and the only differences are
    # characters assigned since.
    frozen = {cp for a, b in uc.ranges(name) for cp in range(a, b + 1)}
    here = {cp for a, b in uc.ranges_from_unicodedata(name) for cp in range(a, b + 1)}
    if unicodedata.unidata_version == uc.UNICODE_VERSION:
        assert frozen == here
    else:
        assert frozen <= here


@pytest.mark.parametrize("c,letter,upper,digit", [
    ("A", True, True, False), ("a", True, False, False), ("É", True, True, False),
    ("\u0301", False, False, False), ("ǅ", True, False, False), ("Σ", True, True, False),
    ("ｆ", True, False, False), ("Ｆ", True, True, False), ("٣", False, False, True),
    ("３", False, False, True), ("²", False, False, False), ("①", False, False, False),
    ("Ⅻ", False, False, False), ("ʰ", True, False, False), ("无", True, False, False),
    ("🎉", False, False, False), ("\U0001e4d0", False, False, False), ("_", False, False, False),
])
def test_classes_of_single_characters(c, letter, upper, digit):
    assert (uc.is_letter(c), uc.is_upper(c), uc.is_digit(c)) == (letter, upper, digit)


def test_white_space_is_unicodes_white_space_property():
    assert len(uc.WHITE_SPACE) == len(set(uc.WHITE_SPACE)) == 25
    # Python's isspace adds the information separators U+001C..U+001F and nothing else
    py = {chr(cp) for cp in range(sys.maxunicode + 1) if chr(cp).isspace()}
    assert py - set(uc.WHITE_SPACE) == {"\x1c", "\x1d", "\x1e", "\x1f"}
    assert set(uc.WHITE_SPACE) <= py
