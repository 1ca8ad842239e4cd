"""Benchmark: how fast each explorer answers a click or a slider move.

Each case performs what a control does (the action and the redraw of the picture and
the status line, ``Explorer.refresh``) on the data its chapter uses, 30 times, and
reports the median and the slowest time.  The goal is 100 ms per response; the browser
adds the transfer of one PNG of about 30 kB, which this does not count.

    python3 tasks.py bench -- --widgets
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import perceptron_lib as pl
from perceptron_lib import widgets as W


def timed(action, repeat: int = 30) -> list[float]:
    out = []
    for k in range(repeat):
        t0 = time.perf_counter()
        action(k)
        out.append(time.perf_counter() - t0)
    return out


def cases():
    ex = pl.notes_example()
    trainer = W.StepTrainer(*pl.make_xor(4, seed=0), tau=50)
    _ = trainer.ui  # build the interface, as displaying it would

    def step(_k):
        if trainer.done:
            trainer.reset()
        trainer.step()
        trainer.refresh()

    yield "StepTrainer: Step (XOR, 16 points)", step

    off = pl.offset_example()
    oe = W.OffsetExplorer(off.X[:, 0], off.y)
    _ = oe.ui  # build the interface, as displaying it would
    yield "OffsetExplorer: move theta", lambda k: setattr(oe._theta, "value", -1.0 + 0.1 * (k % 7))

    me = W.MarginExplorer(ex.X, ex.y)
    _ = me.ui  # build the interface, as displaying it would
    yield "MarginExplorer: turn", lambda k: setattr(me._angle, "value", float(10 * k % 360))

    ce = W.ConvergenceExplorer(n=40)
    _ = ce.ui  # build the interface, as displaying it would
    yield "ConvergenceExplorer: move gamma (n=40)", lambda k: setattr(
        ce._gamma, "value", float(np.geomspace(0.02, 0.5, 30)[k]))

    sm = pl.spam_messages()
    F = pl.spam_feature_matrix(list(sm.messages))[:, :2]
    r = pl.perceptron(F, sm.y)
    msg = W.MessageExplorer(r.theta, r.theta_0, sm.test_message, X=F, y=sm.y)
    _ = msg.ui  # build the interface, as displaying it would
    yield "MessageExplorer: type a character", lambda k: setattr(
        msg._text, "value", sm.test_message + "!" * (k % 5))

    rng = np.random.default_rng(0)
    r = np.concatenate([rng.uniform(0.0, 0.8, 30), rng.uniform(1.3, 2.0, 30)])
    angle = rng.uniform(0.0, 2 * np.pi, 60)
    ring = (np.column_stack([r * np.cos(angle), r * np.sin(angle)]), np.repeat([1, -1], 30))
    ke = W.KernelExplorer({"disc in a ring": ring, "XOR clouds": pl.make_xor(10, seed=0)})
    _ = ke.ui  # build the interface, as displaying it would
    yield "KernelExplorer: change the kernel (60 points)", lambda k: setattr(
        ke._kernel, "value", W.KernelExplorer.KERNELS[k % 3])
    ke.set(kernel="RBF")
    yield "KernelExplorer: move gamma (60 points)", lambda k: setattr(
        ke._gamma, "value", float(np.geomspace(0.1, 30, 30)[k]))


def main() -> None:
    print("| explorer action | median ms | max ms |")
    print("|---|---:|---:|")
    for name, action in cases():
        action(0)  # warm up: first picture, fonts, layout
        ts = timed(action)
        print(f"| {name} | {1000 * statistics.median(ts):.0f} | {1000 * max(ts):.0f} |")


if __name__ == "__main__":
    main()
