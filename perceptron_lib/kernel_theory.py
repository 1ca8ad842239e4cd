"""When is a function a kernel? Gram matrices and positive semidefiniteness (chapter 7).

A function ``K(x, x')`` is a kernel, a dot product ``phi(x) . phi(x')`` in some feature
space, exactly when every Gram matrix ``G[i, j] = K(x_i, x_j)`` it makes is symmetric
and positive semidefinite (Mercer's condition, for finite data).  One Gram matrix with
a negative eigenvalue proves a function is *not* a kernel; no finite check proves that
it is.  Kernels follow the convention of chapter 6: ``kernel(A, B)`` returns the matrix
of ``K(a_i, b_j)`` (see :func:`perceptron_lib.polynomial_kernel`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from ._validate import check_finite, check_labels, check_scalar, check_X

__all__ = ["gram_matrix", "is_positive_semidefinite", "kernel_margin", "tanh_kernel"]

Kernel = Callable[[np.ndarray, np.ndarray], np.ndarray]


def gram_matrix(kernel: Kernel, X: ArrayLike) -> np.ndarray:
    """The Gram matrix ``G[i, j] = K(x_i, x_j)`` of the rows of ``X`` (chapter 7).

    Parameters
    ----------
    kernel : callable
        ``kernel(A, B)`` returns the matrix of ``K(a_i, b_j)``, as the kernels of
        :mod:`perceptron_lib.variants` do.
    X : array_like, shape (n, d)

    Returns
    -------
    numpy.ndarray, shape (n, n)

    Raises
    ------
    ValueError
        On bad ``X``, or when the kernel does not return a finite (n, n) matrix.

    Examples
    --------
    >>> from perceptron_lib import linear_kernel
    >>> gram_matrix(linear_kernel(), [[1.0, 0.0], [1.0, 2.0]])
    array([[1., 1.],
           [1., 5.]])
    """
    if not callable(kernel):
        raise TypeError(
            f"kernel must be a function kernel(A, B) returning a matrix, got {kernel!r}"
        )
    Xa = check_X(X)
    n = Xa.shape[0]
    G = np.asarray(kernel(Xa, Xa), dtype=float)
    if G.shape != (n, n):
        raise ValueError(
            f"the kernel must return an ({n}, {n}) matrix for {n} examples, got shape "
            f"{G.shape}; kernel(A, B) takes two matrices of examples"
        )
    check_finite(G, "the Gram matrix")
    return G


def _square(G: ArrayLike) -> np.ndarray:
    Ga = np.asarray(G, dtype=float)
    if Ga.ndim != 2 or Ga.shape[0] != Ga.shape[1]:
        raise ValueError(f"G must be a square matrix, got shape {Ga.shape}")
    if Ga.shape[0] == 0:
        raise ValueError("G is empty: a Gram matrix needs at least one example")
    check_finite(Ga, "G")
    return Ga


def is_positive_semidefinite(G: ArrayLike, tol: float = 1e-10) -> bool:
    """Whether ``G`` is symmetric and positive semidefinite, up to rounding (chapter 7).

    With ``scale`` the largest absolute entry of ``G`` (1 if ``G`` is zero), ``G``
    passes when ``|G[i, j] - G[j, i]| <= tol * scale`` for all ``i, j`` and every
    eigenvalue of its symmetric part is ``>= -tol * n * scale``.  The tolerance
    absorbs rounding: an exactly PSD matrix computed in floating point can have
    eigenvalues of about ``-1e-16 * n * scale``.

    Parameters
    ----------
    G : array_like, shape (n, n)
    tol : float, default 1e-10
        Relative tolerance, ``>= 0``.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_positive_semidefinite([[2.0, 1.0], [1.0, 2.0]])
    True
    >>> is_positive_semidefinite([[0.0, -1.0], [-1.0, 0.0]])   # eigenvalues -1, 1
    False
    """
    Ga = _square(G)
    t = check_scalar(tol, "tol")
    if t < 0:
        raise ValueError(f"tol must be >= 0, got {t}")
    scale = float(np.abs(Ga).max()) or 1.0
    if np.abs(Ga - Ga.T).max() > t * scale:
        return False
    eig = np.linalg.eigvalsh((Ga + Ga.T) / 2.0)
    return bool(eig.min() >= -t * Ga.shape[0] * scale)


def kernel_margin(G: ArrayLike, y: ArrayLike, coef: ArrayLike) -> float:
    """Margin in feature space of ``w = sum_j coef_j phi(x_j)``, from the Gram matrix (chapter 7).

    ``min_i y_i (G coef)_i / sqrt(coef^T G coef)``: the geometric margin of the data
    with respect to the hyperplane through the origin of feature space with normal
    ``w``, computed without ``phi``.  For a kernel perceptron run
    (:func:`perceptron_lib.kernel_perceptron`, ``offset=False``) ``coef`` is
    ``alpha * y``.  With an offset, use the Gram matrix of ``K + 1`` (``G + 1``).

    Parameters
    ----------
    G : array_like, shape (n, n)
        A symmetric positive semidefinite Gram matrix of the data.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    coef : array_like, shape (n,)

    Returns
    -------
    float
        Positive exactly when ``w`` classifies every example correctly.

    Raises
    ------
    ValueError
        On shapes that disagree, or when ``w`` is the zero vector (``coef^T G coef``
        is 0, or negative because ``G`` is not PSD).

    Examples
    --------
    >>> G = [[1.0, 0.0], [0.0, 4.0]]          # phi(x_1) = (1, 0), phi(x_2) = (0, 2)
    >>> kernel_margin(G, [1, -1], [1.0, -1.0])  # w = (1, -2), margins 1/sqrt(5), 4/sqrt(5)
    0.4472135954999579
    """
    Ga = _square(G)
    ya = check_labels(y)
    c = np.asarray(coef, dtype=float)
    n = Ga.shape[0]
    if ya.shape != (n,) or c.shape != (n,):
        raise ValueError(
            f"G is {n}x{n}: y and coef need shape ({n},), got {ya.shape} and {c.shape}"
        )
    check_finite(c, "coef")
    scores = Ga @ c
    sq = float(c @ scores)
    if not sq > 0:
        raise ValueError(
            f"coef^T G coef = {sq:g}: w is the zero vector of feature space (or G is not "
            "positive semidefinite), so it has no margin"
        )
    return float(np.min(ya * scores) / np.sqrt(sq))


def tanh_kernel(scale: float = 1.0, coef0: float = 0.0) -> Kernel:
    """``K(a, b) = tanh(scale a . b + coef0)``: a classic function that is *not* a kernel.

    Chapter 7: the "sigmoid kernel" of neural-network folklore gives Gram matrices with
    negative eigenvalues for many parameters and data sets (for instance ``coef0 < 0``,
    which makes ``K(x, x) < 0`` for short ``x``), so it is not a dot product in any
    feature space; :func:`is_positive_semidefinite` finds such data.

    Parameters
    ----------
    scale : float, default 1.0
    coef0 : float, default 0.0

    Returns
    -------
    callable
        ``kernel(A, B)``, the matrix of ``tanh(scale a_i . b_j + coef0)``.
    """
    s = check_scalar(scale, "scale")
    c0 = check_scalar(coef0, "coef0")
    return lambda A, B: np.tanh(s * (A @ B.T) + c0)
