"""The child process that runs one submission (started by :mod:`.sandbox`).

It reads one JSON request on standard input: the code cells of the submission and the
calls to make.  It runs the cells in one namespace (a failing cell is recorded and the
next one still runs), then makes each call with a time limit and writes one JSON line
per call to the file descriptor named by its first argument.  It never sees the
expected answers: comparing and scoring happen in the grader's own process.  Prints
of the student code are kept up to a cap and dropped beyond it.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import time
import traceback

PRINT_CAP = 20_000  # characters of printed output kept for the feedback


class _CappedText(io.TextIOBase):
    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        s = str(s)
        room = self.cap - self.size
        if room > 0:
            self.parts.append(s[:room])
            self.size += min(len(s), room)
        self.dropped += max(0, len(s) - max(room, 0))
        return len(s)

    def text(self) -> str:
        return "".join(self.parts)


class _CallTimeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _CallTimeout()


def _strip_magics(source: str) -> str:
    lines = []
    for line in source.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")):
            lines.append(line[: len(line) - len(stripped)] + "pass")
        else:
            lines.append(line)
    return "\n".join(lines)


def _block(names: list[str]) -> None:
    """Make the library's own versions of the graded functions unusable."""
    import perceptron_lib

    def blocked(name):
        def stand_in(*args, **kwargs):
            raise RuntimeError(f"{name} is the function this exercise asks you to write")

        return stand_in

    # Replace each function where a student would reach it: the package and the module
    # that defines it.  Other library modules keep their own references, so helpers such
    # as make_separable go on working.
    for name in names:
        original = getattr(perceptron_lib, name, None)
        if original is None:
            continue
        home = sys.modules.get(getattr(original, "__module__", ""), None)
        for module in (perceptron_lib, home):
            if module is not None and getattr(module, name, None) is original:
                setattr(module, name, blocked(name))
    if {"perceptron", "perceptron_through_origin"} & set(names):
        import perceptron_lib.algorithm as algorithm

        algorithm._reference_loop = blocked("perceptron")


def main() -> None:
    request = json.loads(sys.stdin.read())
    import perceptron_lib.algorithm  # noqa: F401 - loaded so that _block reaches it

    out = os.fdopen(int(sys.argv[1]), "w", buffering=1)
    from perceptron_lib.grading.codec import decode, encode

    _block(request.get("blocked", []))
    captured = _CappedText(PRINT_CAP)
    sys.stdout = sys.stderr = captured
    namespace: dict = {"__name__": "__main__"}
    cell_errors = []
    signal.signal(signal.SIGALRM, _on_alarm)
    for k, source in enumerate(request["cells"]):
        try:
            code = compile(_strip_magics(source), f"<cell {k + 1}>", "exec")
            signal.setitimer(signal.ITIMER_REAL, float(request.get("cell_seconds", 5.0)))
            exec(code, namespace)
            signal.setitimer(signal.ITIMER_REAL, 0)
        except _CallTimeout:
            cell_errors.append({"cell": k + 1, "error": "stopped: it ran past its time limit"})
        except BaseException as exc:
            signal.setitimer(signal.ITIMER_REAL, 0)
            cell_errors.append({"cell": k + 1, "error": f"{type(exc).__name__}: {exc}"[:500]})
    out.write(json.dumps({"kind": "cells", "errors": cell_errors}) + "\n")

    for call in request["calls"]:
        record = {"kind": "call", "id": call["id"]}
        fn = namespace.get(call["function"])
        if not callable(fn):
            record["error"] = f"no function named {call['function']} was defined"
            out.write(json.dumps(record) + "\n")
            continue
        args = [decode(a) for a in call["args"]]
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, float(call.get("seconds", 2.0)))
        try:
            value = fn(*args)
            signal.setitimer(signal.ITIMER_REAL, 0)
            record["value"] = encode(value)
        except _CallTimeout:
            record["error"] = "timed out"
        except BaseException as exc:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if isinstance(exc, SystemExit):
                record["error"] = f"called exit ({exc.code!r})"
            else:
                tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
                record["error"] = tb[:500]
        record["seconds"] = round(time.perf_counter() - t0, 6)
        try:
            line = json.dumps(record)
        except (TypeError, ValueError):
            line = json.dumps({"kind": "call", "id": call["id"], "error": "unencodable answer"})
        out.write(line + "\n")
    out.write(json.dumps({"kind": "done", "printed": captured.text()[-4000:],
                          "dropped": captured.dropped}) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
