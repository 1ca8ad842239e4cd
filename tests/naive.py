"""A naive perceptron in plain Python lists: an independent reference for the tests.

It shares no code with perceptron_lib.  Its sums run left to right, so it agrees with
the library exactly on data whose arithmetic is exact (small integers, halves, ...).
"""

from __future__ import annotations

import itertools

import numpy as np


def _score(theta, theta_0, x):
    """theta . x + theta_0, summed left to right."""
    score = 0.0
    for j in range(len(theta)):
        score += theta[j] * x[j]
    return score + theta_0


def _visit(theta, theta_0, x, label, margin, offset):
    """One visit: update when label * score <= margin.  Returns (theta, theta_0, updated)."""
    if label * _score(theta, theta_0, x) <= margin:
        theta = [theta[j] + label * x[j] for j in range(len(theta))]
        if offset:
            theta_0 += label
        return theta, theta_0, True
    return theta, theta_0, False


def naive_perceptron(X, y, tau, offset=True):
    """Return (theta, theta_0, mistakes, epochs, converged, updates) with updates=[(t, i)]."""
    return naive_margin_perceptron(X, y, tau, 0.0, offset)


def naive_margin_perceptron(X, y, tau, margin, offset=True):
    """The margin perceptron: update while label * score <= margin.

    Returns (theta, theta_0, mistakes, epochs, converged, updates) like naive_perceptron.
    """
    theta = [0.0] * len(X[0])
    theta_0 = 0.0
    mistakes = 0
    updates = []
    epochs = 0
    for t in range(1, tau + 1):
        epochs = t
        changed = False
        for i, (x, label) in enumerate(zip(X, y, strict=True)):
            theta, theta_0, updated = _visit(theta, theta_0, x, label, margin, offset)
            if updated:
                mistakes += 1
                updates.append((t, i))
                changed = True
        if not changed:
            return theta, theta_0, mistakes, epochs, True, updates
    return theta, theta_0, mistakes, epochs, False, updates


def naive_multiclass_perceptron(X, labels, tau, offset=True):
    """The multiclass perceptron with lists: classes are sorted(set(labels)).

    The rival is the highest-scoring other class (the first in sorted order on a tie);
    a mistake when its score is >= the true class's score.  Returns
    (Theta, theta_0, classes, mistakes, epochs, converged, updates) with
    updates=[(t, i, true_row, rival_row)].
    """
    classes = sorted(set(labels))
    m, d = len(classes), len(X[0])
    Theta = [[0.0] * d for _ in range(m)]
    theta_0 = [0.0] * m
    mistakes, epochs, updates = 0, 0, []
    for t in range(1, tau + 1):
        epochs = t
        changed = False
        for i, (x, label) in enumerate(zip(X, labels, strict=True)):
            k = classes.index(label)
            scores = [_score(Theta[c], theta_0[c], x) for c in range(m)]
            p = None
            for c in range(m):
                if c != k and (p is None or scores[c] > scores[p]):
                    p = c
            if scores[p] >= scores[k]:
                Theta[k] = [Theta[k][j] + x[j] for j in range(d)]
                Theta[p] = [Theta[p][j] - x[j] for j in range(d)]
                if offset:
                    theta_0[k] += 1.0
                    theta_0[p] -= 1.0
                mistakes += 1
                updates.append((t, i, k, p))
                changed = True
        if not changed:
            return Theta, theta_0, classes, mistakes, epochs, True, updates
    return Theta, theta_0, classes, mistakes, epochs, False, updates


def naive_kesler(X, labels, classes, offset=True):
    """Kesler's vectors, one per (example, rival), written coordinate by coordinate.

    Layout: the m blocks of d weights, then (with offset) the m offsets.
    """
    m, d = len(classes), len(X[0])
    rows = []
    for x, label in zip(X, labels, strict=True):
        k = classes.index(label)
        for c in range(m):
            if c == k:
                continue
            z = [0.0] * (m * d + (m if offset else 0))
            for j in range(d):
                z[k * d + j] = x[j]
                z[c * d + j] = -x[j]
            if offset:
                z[m * d + k] = 1.0
                z[m * d + c] = -1.0
            rows.append(z)
    return rows


def naive_averaged(X, y, tau, offset=True):
    """The averaged perceptron by brute force: add theta to a running sum after every visit.

    The sums are exactly rounded (math.fsum over the recorded hypotheses), so the
    reference is as accurate as a float can be.  Returns (avg_theta, avg_theta_0).
    """
    import math

    d = len(X[0])
    theta, theta_0 = [0.0] * d, 0.0
    seen, seen_0 = [], []
    for _t in range(tau):
        clean = True
        for x, label in zip(X, y, strict=True):
            theta, theta_0, updated = _visit(theta, theta_0, x, label, 0.0, offset)
            if updated:
                clean = False
            seen.append(list(theta))
            seen_0.append(theta_0)
        if clean:
            break
    v = len(seen)
    return [math.fsum(row[j] for row in seen) / v for j in range(d)], math.fsum(seen_0) / v


def naive_epoch_chart(X, y, result, visits: int | None = None, c: float | None = None) -> dict:
    """The epoch chart of a traced run of the library after ``visits`` visits (all by default).

    The offset demo (chapter 2) draws it for each of its runs.

    For every finished epoch: the updates in it (``result.history``) and the examples the
    hypothesis after it gets wrong, y * score <= 0 with the score summed term by term; for
    a run on data lifted by ``c`` the hypothesis is read back, (theta, c * theta'_last),
    and scored on X as it is.  Then the epoch in progress and its updates so far.
    """
    n = len(X)
    total = result.epochs * n
    visits = total if visits is None else min(visits, total)
    finished = result.epochs if visits == total else visits // n
    rows = []
    theta = np.zeros(X.shape[1] + (c is not None))
    for t in range(1, finished + 1):
        ups = [u for u in result.history if u.epoch == t]
        if ups:
            theta = ups[-1].theta
        w = [float(v) for v in theta]
        w0 = 0.0
        if c is not None:
            w, w0 = w[:-1], c * w[-1]
        wrong = 0
        for i in range(n):
            s = 0.0
            for j, v in enumerate(w):
                s += v * float(X[i][j])
            wrong += y[i] * (s + w0) <= 0
        rows.append({"epoch": t, "updates": len(ups), "mistakes": wrong})
    partial = None
    if visits < total and visits % n:
        t = finished + 1
        partial = {"epoch": t, "updates": sum(
            1 for u in result.history if u.epoch == t and u.index < visits % n)}
    return {"rows": rows, "partial": partial}


# ---------------------------------------------------------------------------------------
# Chapter 7's learning theory: the pocket, ERM over halfspaces, shattering, Winnow


def naive_errors(X, y, theta, theta_0):
    """Training errors, label * score <= 0, with the score summed term by term."""
    return sum(1 for x, label in zip(X, y, strict=True)
               if label * _score(theta, theta_0, x) <= 0)


def naive_pocket(X, y, tau, offset=True):
    """Gallant's pocket with ratchet, in lists: examples in the given order.

    Returns (theta, theta_0, errors, last_errors, pocket_history, last_history).
    """
    theta, theta_0 = [0.0] * len(X[0]), 0.0
    pocket, pocket_0 = list(theta), theta_0
    best = current = naive_errors(X, y, theta, theta_0)
    hist, last_hist = [best], [current]
    for _t in range(tau):
        changed = False
        for x, label in zip(X, y, strict=True):
            theta, theta_0, updated = _visit(theta, theta_0, x, label, 0.0, offset)
            if updated:
                changed = True
                current = naive_errors(X, y, theta, theta_0)
                if current < best:
                    pocket, pocket_0, best = list(theta), theta_0, current
                hist.append(best)
                last_hist.append(current)
        if not changed:
            break
    return pocket, pocket_0, best, current, hist, last_hist


def naive_erm_line(x, y):
    """The fewest errors of a threshold on the line: every cut, both ways, and constants."""
    values = sorted(set(x))
    cuts = [values[0] - 1.0] + [(a + b) / 2 for a, b in itertools.pairwise(values)] \
        + [values[-1] + 1.0]
    best = len(y)
    for c in cuts:
        for s in (1, -1):
            wrong = sum(1 for xi, label in zip(x, y, strict=True)
                        if (s if xi > c else -s) != label)
            best = min(best, wrong)
    return best


def naive_erm_plane(X, y):
    """The fewest errors of a line in the plane, exactly, by sweeping the direction.

    The order of the projections u . x_i changes only at the directions u orthogonal to
    some x_i - x_j.  Between two such critical directions every threshold on the sorted
    projections gives the same labellings, so one direction per arc (its midpoint) and
    every threshold there cover every labelling a line makes.
    """
    import math

    angles = []
    for i in range(len(X)):
        for j in range(i + 1, len(X)):
            dx, dy = X[j][0] - X[i][0], X[j][1] - X[i][1]
            if dx == 0 and dy == 0:
                continue
            a = math.atan2(dy, dx) + math.pi / 2
            angles += [a % (2 * math.pi), (a + math.pi) % (2 * math.pi)]
    angles = sorted(set(angles)) or [0.0]
    mids = [(a + b) / 2 for a, b in itertools.pairwise(angles)]
    mids.append((angles[-1] + angles[0] + 2 * math.pi) / 2)
    best = len(y)
    for phi in mids:
        u = (math.cos(phi), math.sin(phi))
        proj = [u[0] * x[0] + u[1] * x[1] for x in X]
        best = min(best, naive_erm_line(proj, y))
    return best


def naive_winnow(X, y, alpha, threshold, variant, tau):
    """Winnow in lists: returns (weights, mistakes, history) with history the running
    count of mistakes after each visit."""
    w = [1.0] * len(X[0])
    mistakes, history = 0, []
    for _t in range(tau):
        changed = False
        for x, label in zip(X, y, strict=True):
            score = 0.0
            for j in range(len(w)):
                score += w[j] * x[j]
            if label * (score - threshold) <= 0:
                for j in range(len(w)):
                    if x[j] == 1:
                        if label > 0:
                            w[j] = w[j] * alpha
                        elif variant == "winnow2":
                            w[j] = w[j] / alpha
                        else:
                            w[j] = 0.0
                mistakes += 1
                changed = True
            history.append(mistakes)
        if not changed:
            break
    return w, mistakes, history
