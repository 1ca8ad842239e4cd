"""Expected values of every number chapter 2 (*The offset*) glues into its text.

Each value is recomputed here from perceptron_lib and numpy, independently of the
notebook's code; the two facts the lecture notes print (the separator theta = -1,
theta_0 = 2.5 and its threshold 2.5) are the notes' literal values.
"""

from __future__ import annotations

import numpy as np

import perceptron_lib as pl


def _tuple(values) -> str:
    return "(" + ", ".join(f"{float(v):g}" for v in values) + ")"


def _offset_step_run(X, y, step, zero_is_positive, tau=100):
    """PERCEPTRON with theta_0 += step * y; returns theta, theta_0 and the updates."""
    theta = np.zeros(X.shape[1])
    theta_0 = 0.0
    updates = []
    for t in range(1, tau + 1):
        clean = True
        for i, (x, label) in enumerate(zip(X, y, strict=True)):
            s = float(theta @ x + theta_0)
            if zero_is_positive:
                wrong = (s >= 0) != (label > 0)
            else:
                wrong = label * s <= 0
            if wrong:
                theta = theta + label * x
                theta_0 += step * label
                updates.append((t, i, theta.copy(), theta_0))
                clean = False
        if clean:
            break
    return theta, theta_0, updates


def _traces_match(a, b, c) -> bool:
    if (a.mistakes, a.epochs, a.converged) != (b.mistakes, b.epochs, b.converged):
        return False
    return all(
        u.epoch == v.epoch
        and u.index == v.index
        and u.score == v.score
        and np.array_equal(np.concatenate([u.theta, [u.theta_0 / c]]), v.theta)
        for u, v in zip(a.history, b.history, strict=True)
    )


def _mistakes(X, y, c) -> int:
    res = pl.perceptron_through_origin(pl.add_offset_feature(X, value=c), y, tau=100_000)
    assert res.converged
    return int(res.mistakes)


def expected() -> dict[str, object]:
    out: dict[str, object] = {}
    ds = pl.offset_example()
    X, y = ds.X, ds.y

    # The notes' separator theta = -1, theta_0 = 2.5.
    out["ch2_ex_scores"] = _tuple(-1.0 * X[:, 0] + 2.5)
    out["ch2_ex_threshold"] = 2.5

    # No separator through the origin.
    grid = np.linspace(-5, 5, 1001)
    out["ch2_origin_grid"] = 1001
    out["ch2_origin_best"] = max(int(np.sum(np.where(X[:, 0] * t > 0, 1, -1) == y)) for t in grid)
    r0 = pl.perceptron_through_origin(X, y, tau=100, trace=True)
    out["ch2_origin_tau"] = 100
    out["ch2_origin_mistakes"] = r0.mistakes
    last_epoch = [u for u in r0.history if u.epoch == 100]
    out["ch2_origin_per_epoch"] = len(last_epoch)
    out["ch2_origin_cycle"] = ", ".join(f"{u.theta[0]:g}" for u in last_epoch)

    # Lifting by 1.
    r = pl.perceptron(X, y, tau=100, trace=True)
    rl = pl.perceptron_through_origin(pl.add_offset_feature(X), y, tau=100, trace=True)
    assert _traces_match(r, rl, 1.0)
    out["ch2_lift_mistakes"] = rl.mistakes
    out["ch2_lift_epochs"] = rl.epochs
    out["ch2_lift_theta_new"] = _tuple(rl.theta)
    out["ch2_lift_theta"] = float(r.theta[0])
    out["ch2_lift_theta_0"] = float(r.theta_0)
    out["ch2_lift_threshold"] = float(-r.theta_0 / r.theta[0])

    # Random integer data sets, lifted by 1 and by -1.
    rng = np.random.default_rng(2024)
    identical = updates = converged = 0
    for k in range(200):
        n, d = int(rng.integers(3, 21)), int(rng.integers(1, 5))
        Xr = rng.integers(-5, 6, size=(n, d)).astype(float)
        if k % 2 == 0:
            yr = rng.choice([-1.0, 1.0], size=n)
        else:
            w, b = rng.integers(-3, 4, size=d), int(rng.integers(-3, 4))
            yr = np.where(Xr @ w + b > 0, 1.0, -1.0)
        a = pl.perceptron(Xr, yr, tau=20, trace=True)
        identical += all(
            _traces_match(
                a,
                pl.perceptron_through_origin(
                    pl.add_offset_feature(Xr, value=c), yr, tau=20, trace=True
                ),
                c,
            )
            for c in (1.0, -1.0)
        )
        updates += a.mistakes
        converged += a.converged
    out["ch2_rand_sets"] = 200
    out["ch2_rand_identical"] = identical
    out["ch2_rand_updates"] = updates
    out["ch2_rand_converged"] = converged

    # The appended -1 and the threshold b = -theta_0.
    rm = pl.perceptron_through_origin(pl.add_offset_feature(X, value=-1.0), y, tau=100)
    out["ch2_minus_b"] = float(rm.theta[-1])
    out["ch2_minus_mistakes"] = rm.mistakes
    out["ch2_on_ours"] = int(pl.predict([[2.5]], [-1.0], 2.5)[0])
    out["ch2_on_theirs"] = 1 if -1.0 * 2.5 >= -2.5 else -1
    th, th0, hist = _offset_step_run(X, y, 1.0, zero_is_positive=True)
    out["ch2_ge_mistakes"] = len(hist)
    out["ch2_ge_first"] = hist[0][1] + 1
    out["ch2_ge_w"] = float(th[0])
    out["ch2_ge_b"] = float(-th0)
    out["ch2_ge_threshold"] = float(-th0 / th[0])
    out["ch2_ge_first_w"] = float(hist[0][2][0])
    out["ch2_ge_first_b"] = float(-hist[0][3])

    # The R^2 bias step = lifting by R.
    R = pl.radius(X)
    out["ch2_R"] = R
    out["ch2_R2"] = R**2
    w2, b2, h2 = _offset_step_run(X, y, R**2, zero_is_positive=False)
    rR = pl.perceptron_through_origin(pl.add_offset_feature(X, value=R), y, tau=100)
    assert b2 == R * rR.theta[-1] and len(h2) == rR.mistakes
    out["ch2_r2_mistakes"] = len(h2)
    out["ch2_r2_w"] = float(w2[0])
    out["ch2_r2_b"] = float(b2)
    out["ch2_r2_last"] = float(rR.theta[-1])
    wo, bo, ho = _offset_step_run(X, y, R**2, zero_is_positive=True)
    out["ch2_r2_own_mistakes"] = len(ho)
    out["ch2_r2_own_w"] = float(wo[0])
    out["ch2_r2_own_b"] = float(bo)

    # The scale of the lifted coordinate.
    cs = 10.0 ** (np.arange(-10, 21) / 10)
    m_ex = [_mistakes(X, y, c) for c in cs]
    out["ch2_scale_ex_c01"] = _mistakes(X, y, 0.1)
    out["ch2_scale_ex_c1"] = _mistakes(X, y, 1.0)
    out["ch2_scale_ex_cR"] = _mistakes(X, y, R)
    out["ch2_scale_ex_c100"] = _mistakes(X, y, 100.0)
    out["ch2_scale_ex_min"] = min(m_ex)
    out["ch2_scale_ex_argmin"] = float(cs[int(np.argmin(m_ex))])
    out["ch2_scale_ex_c2"] = _mistakes(X, y, 2.0)
    out["ch2_scale_ex_c3"] = _mistakes(X, y, 3.0)

    gen = pl.make_separable(100, d=2, gamma=0.1, R=1.0, seed=2)
    Xf = gen.X + 5 * gen.theta
    yf = gen.y
    Rf = float(np.max(np.linalg.norm(Xf, axis=1)))
    m_far = [_mistakes(Xf, yf, c) for c in cs]
    out["ch2_far_R"] = Rf
    out["ch2_far_c01"] = _mistakes(Xf, yf, 0.1)
    out["ch2_far_c1"] = _mistakes(Xf, yf, 1.0)
    out["ch2_far_cR"] = _mistakes(Xf, yf, Rf)
    out["ch2_far_c100"] = _mistakes(Xf, yf, 100.0)
    out["ch2_far_min"] = min(m_far)
    out["ch2_far_argmin"] = float(cs[int(np.argmin(m_far))])


    # Rescaling the lifted data changes nothing.
    out["ch2_rescaled_mistakes"] = _mistakes(10 * X, y, 10.0)
    return out
