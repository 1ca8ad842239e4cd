"""Every bad input gets a clear error that names the problem."""

import numpy as np
import pytest

import perceptron_lib as pl

X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
Y = np.array([1, -1, 1])
TRAINERS = [pl.perceptron, pl.perceptron_through_origin]


@pytest.mark.parametrize("fn", TRAINERS)
@pytest.mark.parametrize(
    "labels,found",
    [
        ([0, 1, 1], "0.0"),
        ([1, 2, -1], "2.0"),
        ([1, -1, np.nan], "nan"),
        ([True, False, True], "0.0"),
    ],
)
def test_labels_other_than_plus_minus_one(fn, labels, found):
    with pytest.raises(ValueError, match=rf"labels must be -1 or \+1; found .*{found}"):
        fn(X, labels)


def test_label_message_lists_every_bad_value():
    with pytest.raises(ValueError, match=r"found 0\.0, 2\.0 \(first at index 1\)"):
        pl.perceptron(X, [1, 0, 2])


@pytest.mark.parametrize("fn", TRAINERS)
def test_length_mismatch(fn):
    with pytest.raises(ValueError, match="y has 2 labels but X has 3 rows"):
        fn(X, [1, -1])


@pytest.mark.parametrize("fn", TRAINERS)
def test_x_must_be_2d(fn):
    with pytest.raises(ValueError, match=r"X must be 2-D .* got shape \(3,\).*reshape\(-1, 1\)"):
        fn(np.array([1.0, 2.0, 3.0]), [1, -1, 1])
    with pytest.raises(ValueError, match=r"got shape \(1, 3, 2\)"):
        fn(X[None], Y)


@pytest.mark.parametrize("fn", TRAINERS)
@pytest.mark.parametrize("bad,kind", [(np.nan, "NaN"), (np.inf, "infinity"), (-np.inf, "infinity")])
def test_nan_and_infinity(fn, bad, kind):
    Xb = X.copy()
    Xb[1, 0] = bad
    with pytest.raises(ValueError, match=rf"X contains {kind} at index \(1, 0\)"):
        fn(Xb, Y)


@pytest.mark.parametrize("fn", TRAINERS)
def test_no_examples(fn):
    with pytest.raises(ValueError, match="X has no examples"):
        fn(np.empty((0, 2)), [])
    with pytest.raises(ValueError, match="X has no features"):
        fn(np.empty((3, 0)), Y)


@pytest.mark.parametrize("fn", TRAINERS)
@pytest.mark.parametrize("tau,exc", [(0, ValueError), (-3, ValueError), (2.5, TypeError),
                                     ("10", TypeError), (True, TypeError), (None, TypeError)])
def test_tau_must_be_a_positive_integer(fn, tau, exc):
    with pytest.raises(exc, match="tau must be a positive integer"):
        fn(X, Y, tau=tau)


def test_numpy_integer_tau_is_fine():
    assert pl.perceptron(X, Y, tau=np.int64(3)).epochs <= 3


def test_y_must_be_1d_and_x_numeric():
    with pytest.raises(ValueError, match=r"y must be 1-D .*ravel"):
        pl.perceptron(X, Y.reshape(-1, 1))
    with pytest.raises(TypeError, match="X must hold real numbers"):
        pl.perceptron([["a", "b"], ["c", "d"]], [1, -1])
    with pytest.raises(ValueError, match="X could not be read"):
        pl.perceptron([[1.0, 2.0], [3.0]], [1, -1])
    with pytest.raises(TypeError, match="real numbers"):
        pl.perceptron(X.astype(complex), Y)


def test_unknown_method_and_trace_with_fast():
    with pytest.raises(ValueError, match="method must be"):
        pl.perceptron(X, Y, method="turbo")
    with pytest.raises(ValueError, match="trace=True"):
        pl.perceptron(X, Y, trace=True, method="fast")


@pytest.mark.parametrize(
    "call",
    [
        lambda: pl.update([1.0, 2.0, 3.0], 0.0, [1.0, 2.0], 1),
        lambda: pl.predict(X, [1.0, 2.0, 3.0]),
        lambda: pl.signed_distance(X, [1.0]),
        lambda: pl.point_margins(X, Y, [1.0, 2.0, 3.0]),
        lambda: pl.margin(X, Y, [1.0]),
    ],
)
def test_theta_of_the_wrong_length(call):
    with pytest.raises(ValueError, match=r"(theta|x) has length \d but the data have \d features"):
        call()


def test_update_checks_its_label_and_numbers():
    with pytest.raises(ValueError, match="a label must be -1 or \\+1, got 0"):
        pl.update([1.0, 2.0], 0.0, [1.0, 2.0], 0)
    with pytest.raises(ValueError, match="theta contains NaN"):
        pl.update([np.nan, 2.0], 0.0, [1.0, 2.0], 1)
    with pytest.raises(TypeError, match="theta_0 must be a real number"):
        pl.update([1.0, 2.0], "1", [1.0, 2.0], 1)
    with pytest.raises(ValueError, match="theta_0 must be finite"):
        pl.predict(X, [1.0, 2.0], np.inf)


def test_margin_functions_check_their_data():
    with pytest.raises(ValueError, match="labels must be -1 or"):
        pl.point_margins(X, [1, 0, 1], [1.0, 1.0])
    with pytest.raises(ValueError, match="X has no examples"):
        pl.radius(np.empty((0, 3)))
