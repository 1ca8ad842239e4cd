"""Generated data sets: separable with a known margin and radius, and not separable.

Chapter 4 (*The convergence proof*) compares the number of mistakes with the bound
``(R / gamma) ** 2`` on data whose ``R`` and ``gamma`` are known; chapter 1 shows what
happens on data no line separates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import check_count, check_labels, check_scalar
from .margin import margin, radius


@dataclass(frozen=True)
class SeparableData:
    """Data separated by a known hyperplane (chapter 4).

    Attributes
    ----------
    X : numpy.ndarray, shape (n, d)
    y : numpy.ndarray, shape (n,)
    theta : numpy.ndarray, shape (d,)
        Unit normal of the separator.
    theta_0 : float
        Its offset.
    gamma : float
        The margin of the data with respect to ``(theta, theta_0)``, computed from the
        returned arrays: exactly what :func:`perceptron_lib.margin` reports.
    R : float
        ``max ||x||`` of the returned data, computed the same way.
    """

    X: np.ndarray
    y: np.ndarray
    theta: np.ndarray
    theta_0: float
    gamma: float
    R: float


def make_separable(
    n: int,
    d: int = 2,
    gamma: float = 0.1,
    R: float = 1.0,
    theta_0: float = 0.0,
    seed: int | None = None,
) -> SeparableData:
    """Points in the ball of radius ``R`` separated with margin ``gamma`` (chapter 4).

    A random unit normal ``u`` is drawn; each point is ``x = s u + w`` with ``w``
    orthogonal to ``u`` and label ``sign(s)``.  The signed distance ``s + theta_0`` of
    every point to the separator ``u . x + theta_0 = 0`` has size at least ``gamma``,
    and ``||x|| <= R``.  The first point lies exactly at distance ``gamma`` and the
    second exactly on the sphere of radius ``R`` (``d >= 2``), so both values are
    attained: the returned ``gamma`` and ``R`` are recomputed from the data and agree
    with the requested ones to rounding (about 1e-15 relative).

    Parameters
    ----------
    n : int, >= 2
        Number of points; the first is labelled +1 and the second -1, the rest at
        random.
    d : int, >= 1
    gamma : float, > 0
    R : float, > gamma
    theta_0 : float, default 0.0
        Offset of the separator; needs ``|theta_0| <= R - gamma`` so that both sides
        of it reach into the ball.
    seed : int, optional

    Returns
    -------
    SeparableData
    """
    n = check_count(n, "n", 2)
    d = check_count(d, "d", 1)
    g = check_scalar(gamma, "gamma")
    r = check_scalar(R, "R")
    t0 = check_scalar(theta_0, "theta_0")
    if g <= 0:
        raise ValueError(f"gamma must be positive, got {g}")
    if r <= g:
        raise ValueError(f"R must exceed gamma, got R={r}, gamma={g}")
    if abs(t0) > r - g:
        raise ValueError(f"|theta_0| must be at most R - gamma = {r - g}, got {t0}")
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X, y = _points_beside(rng, u, n, g, r, t0, pin=True)
    return SeparableData(
        X=X,
        y=y,
        theta=u,
        theta_0=t0,
        gamma=margin(X, y, u, t0),
        R=radius(X),
    )


def _points_beside(rng: np.random.Generator, u: np.ndarray, n: int, g: float, r: float,
                   t0: float, pin: bool) -> tuple[np.ndarray, np.ndarray]:
    """Labelled points of the ball of radius r at distance >= g from u . x + t0 = 0.

    With ``pin`` the first point lies at distance exactly ``g`` and the second on the
    sphere (the extremes :func:`make_separable` promises), its labels +1 and -1.
    """
    d = u.shape[0]
    y = rng.choice([-1.0, 1.0], size=n)
    if pin:
        y[0], y[1] = 1.0, -1.0
    # Coordinate along u, measured from the separator: t = s + theta_0, |t| in [gamma, ...],
    # and the point's position along u is s = t - theta_0 with |s| <= R.
    lo = np.full(n, g)
    hi = np.where(y > 0, r + t0, r - t0)  # |s| <= R  <=>  t <= R + theta_0 (t > 0) ...
    t = y * (lo + (hi - lo) * rng.random(n))
    if pin:
        t[0] = g
        if d == 1:
            t[1] = -(r - t0)  # s = -R: the point on the sphere
    s = t - t0
    # Orthogonal part: random direction, length filling the rest of the ball.
    w = rng.standard_normal((n, d))
    w -= np.outer(w @ u, u)
    norms = np.linalg.norm(w, axis=1)
    room = np.sqrt(np.maximum(r * r - s * s, 0.0))
    frac = rng.random(n) ** (1.0 / max(d - 1, 1))
    if d >= 2 and pin:
        frac[1] = 1.0
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(norms > 0, frac * room / norms, 0.0)
    X = np.outer(s, u) + w * scale[:, None]
    # Rounding can push a point a hair outside the ball; pull it back radially.
    over = np.linalg.norm(X, axis=1) > r
    if over.any():
        X[over] *= (r / np.linalg.norm(X[over], axis=1))[:, None] * (1 - 1e-15)
    if d == 1:
        X[:, 0] = s * u[0]
    return X, y


def sample_like(data: SeparableData, n: int, *, flip: float = 0.0,
                seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Fresh points from the distribution that made ``data``: a held-out test set (chapter 7).

    :func:`make_separable` draws its separator ``u`` from the seed, so another seed is
    another distribution.  This draws ``n`` new points with the same ``u``, offset,
    margin and radius (none of them pinned to the extremes), and flips a fraction
    ``flip`` of their labels as :func:`make_noisy` does for its training points.

    Parameters
    ----------
    data : SeparableData
        What :func:`make_separable` returned.
    n : int, >= 1
    flip : float, default 0.0
        The fraction of labels flipped, in [0, 1].
    seed : int, optional

    Returns
    -------
    X : numpy.ndarray, shape (n, d)
    y : numpy.ndarray of -1/+1

    Examples
    --------
    >>> train = make_separable(40, gamma=0.1, seed=7)
    >>> X_test, y_test = sample_like(train, 100, seed=1)
    >>> bool((y_test * (X_test @ train.theta + train.theta_0) >= train.gamma - 1e-12).all())
    True
    """
    if not isinstance(data, SeparableData):
        raise TypeError("sample_like needs what make_separable returned, "
                        f"got {type(data).__name__}")
    n = check_count(n, "n", 1)
    rng = np.random.default_rng(seed)
    X, y = _points_beside(rng, np.asarray(data.theta, dtype=float), n, float(data.gamma),
                          float(data.R), float(data.theta_0), pin=False)
    if flip:
        y = flip_labels(y, flip, seed=None if seed is None else seed + 1)
    return X, y


def make_xor(n_per_quadrant: int = 10, spread: float = 0.3, seed: int | None = None):
    """The XOR pattern: four clusters, opposite corners share a label (chapter 1).

    Clusters sit at ``(+-1, +-1)`` with Gaussian spread ``spread``; the label is
    ``sign(x1 * x2)`` of the cluster centre.  No line separates these points.

    Returns
    -------
    X : numpy.ndarray, shape (4 * n_per_quadrant, 2)
    y : numpy.ndarray of -1/+1
    """
    k = check_count(n_per_quadrant, "n_per_quadrant", 1)
    sp = check_scalar(spread, "spread")
    if sp < 0:
        raise ValueError(f"spread must be non-negative, got {sp}")
    rng = np.random.default_rng(seed)
    centres = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    labels = np.array([1.0, 1.0, -1.0, -1.0])
    X = np.repeat(centres, k, axis=0) + sp * rng.standard_normal((4 * k, 2))
    y = np.repeat(labels, k)
    return X, y


def flip_labels(y, fraction: float, seed: int | None = None) -> np.ndarray:
    """Return a copy of ``y`` with ``round(fraction * n)`` labels flipped at random.

    Label noise makes separable data non-separable (chapters 1 and 4).
    """
    ya = check_labels(y)
    f = check_scalar(fraction, "fraction")
    if not 0.0 <= f <= 1.0:
        raise ValueError(f"fraction must lie in [0, 1], got {f}")
    rng = np.random.default_rng(seed)
    k = round(f * ya.shape[0])
    out = ya.copy()
    idx = rng.choice(ya.shape[0], size=k, replace=False)
    out[idx] = -out[idx]
    return out


def make_noisy(
    n: int,
    d: int = 2,
    flip: float = 0.1,
    gamma: float = 0.1,
    R: float = 1.0,
    seed: int | None = None,
):
    """Separable data from :func:`make_separable` with a fraction ``flip`` of labels flipped.

    Returns
    -------
    X : numpy.ndarray, shape (n, d)
    y : numpy.ndarray of -1/+1
    """
    data = make_separable(n, d, gamma=gamma, R=R, seed=seed)
    return data.X, flip_labels(data.y, flip, seed=None if seed is None else seed + 1)
