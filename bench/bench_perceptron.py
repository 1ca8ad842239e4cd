"""Benchmark: the fast path against the reference loop and scikit-learn, in one run.

For every n in {10k, 100k, 1M}, d in {2, 20, 100} and two kinds of data (separable with
margin 0.05 in the unit ball; the same with 10% of labels flipped), with tau = 10:

- ``fast``: ``perceptron_lib.perceptron(X, y, tau=10, method="fast")``, input checks
  included;
- ``loop``: the same call with ``method="loop"``, the readable reference loop;
- ``sklearn``: ``sklearn.linear_model.Perceptron(penalty=None, eta0=1.0,
  fit_intercept=True, shuffle=False, tol=None, max_iter=E)``, where E is the number of
  epochs the course's perceptron ran, so both do the same passes (scikit-learn does not
  stop after a clean pass).  It makes the same updates; the table checks that the
  three results are equal bit for bit.

Times are the best of ``--repeat`` runs (the loop runs once: it is the slow one).
Ratios are times divided within this one run, so the machine's speed cancels out.

    python3 tasks.py bench                # full grid, about 5 minutes on 2 cores
    python3 tasks.py bench -- --quick     # n up to 100k
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import warnings

import numpy as np

import perceptron_lib as pl


def best_time(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def sklearn_fit(X, y, epochs):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    clf = Perceptron(penalty=None, eta0=1.0, fit_intercept=True, shuffle=False, tol=None,
                     max_iter=epochs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    return clf


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba
    import sklearn

    return (f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"numpy {np.__version__}, numba {numba.__version__}, "
            f"scikit-learn {sklearn.__version__}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="n in {10k, 100k} only")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tau", type=int, default=10)
    ap.add_argument("--widgets", action="store_true",
                    help="time the explorers instead (bench_widgets.py)")
    ap.add_argument("--grading", action="store_true",
                    help="time the grader instead (bench_grading.py)")
    ap.add_argument("--browser", action="store_true",
                    help="the browser tests' benchmark mode instead (bench_browser.py)")
    args, rest = ap.parse_known_args()
    if args.browser:
        import bench_browser

        bench_browser.main(rest)
        return
    if args.widgets:
        import bench_widgets

        bench_widgets.main()
        return
    if args.grading:
        import bench_grading

        bench_grading.main()
        return

    ns = [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000]
    ds = [2, 20, 100]
    # compile (or load) the fast path before timing anything
    pl.perceptron(np.eye(2), [1, -1], method="fast")

    print(f"Machine: {machine()}\n")
    print("| n | d | data | epochs | updates | loop s | fast s | sklearn s "
          "| fast/loop | fast/sklearn | equal |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
    ratios = []
    for n in ns:
        for d in ds:
            sep = pl.make_separable(n, d, gamma=0.05, R=1.0, seed=n + d)
            for kind in ("separable", "10% flipped"):
                y = sep.y if kind == "separable" else pl.flip_labels(sep.y, 0.1, seed=d)
                X = sep.X
                t_fast, fast = best_time(
                    lambda X=X, y=y: pl.perceptron(X, y, tau=args.tau, method="fast"),
                    args.repeat)
                t_loop, loop = best_time(
                    lambda X=X, y=y: pl.perceptron(X, y, tau=args.tau, method="loop"), 1)
                t_skl, clf = best_time(lambda X=X, y=y, e=fast.epochs: sklearn_fit(X, y, e),
                                       args.repeat)
                equal = (
                    np.array_equal(fast.theta, loop.theta) and fast.theta_0 == loop.theta_0
                    and fast.mistakes == loop.mistakes
                    and np.array_equal(fast.theta, clf.coef_[0])
                    and fast.theta_0 == clf.intercept_[0]
                )
                ratios.append(t_fast / t_skl)
                print(f"| {n:,} | {d} | {kind} | {fast.epochs} | {fast.mistakes:,} "
                      f"| {t_loop:.3f} | {t_fast:.4f} | {t_skl:.4f} | {t_fast / t_loop:.4f} "
                      f"| {t_fast / t_skl:.2f} | {'yes' if equal else 'NO'} |", flush=True)
            del sep, X, y
    print(f"\nfast/sklearn: median {statistics.median(ratios):.2f}, "
          f"max {max(ratios):.2f}, min {min(ratios):.2f} over {len(ratios)} cases")


if __name__ == "__main__":
    main()
