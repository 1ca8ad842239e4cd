"""The process that runs one submission inside the sandbox (started by :mod:`.sandbox`).

It reads one JSON request on standard input: the code cells of the submission and the
calls to make.  It never sees the expected answers: comparing and scoring happen in the
grader's own process.  Answers go out as JSON lines on the file descriptor named by its
first argument.

One bad cell costs one cell.  Each cell runs in a fresh fork of the process that holds
the state left by the cells before it, with its own CPU budget and a wall-clock timer:

- a cell that raises (or calls ``exit()``, or runs past its time inside Python code)
  is recorded, and its fork goes on with the state the cell left, as a notebook would;
- a cell that kills its process (``os._exit``, a crash, the CPU limit, memory) is
  recorded, and the previous fork goes on without it.

The graded calls run the same way: in a fork, each with a timer, and a call that
kills its fork costs that call only.  After each call the arguments are compared with
what was sent, and those changed in place are reported.

A cell or a call stopped by one of the limits says which in a field of its error,
``"limit"`` (:data:`LIMITS`), never only in words that a student's own message could
also hold.  This process runs the submission, so the field is only as good as it is;
the grader derives what concerns the whole run (its time, its memory, the size of its
answers) from what it sees itself.

A run that grades a function with the references of the graded functions it calls
(see :mod:`..judge.cascade`) ships those references in its request: once the cells have
run, each is defined from its source and bound in the notebook's namespace in place of
the submission's function of its name, and the calls (the dependent function's cases
only) run with them.

A request may also ask for a follow-up (``"follow_up": true``).  Once every call has
its answer, the child says so (a line of kind ``"answered"``) and reads one more line
from the grader: nothing, or the references of the graded functions that lost points,
the library functions they need (real in this part of the run, where the first part
had stand-ins: their source, put in place of the stand-ins' code) and the dependent
functions' calls.  Those run from the state the cells left, as a run of their own would
run them, and the grader takes from this part only the answers to its own calls.

This file is copied beside ``codec.py`` into the sandbox and run as a script; it
imports nothing from :mod:`perceptron_lib` but, in such a run, the library the
references use (the run's own, in which their functions are real).
"""

from __future__ import annotations

import ast
import errno
import io
import json
import os
import resource
import select
import signal
import sys
import time
import traceback

if __package__:  # imported as perceptron_lib.grading._child (tests)
    from ..assignments.codec import decode, encode
else:  # run as a script beside a copy of codec.py
    if sys.flags.no_site:  # started with -S (the grader's runs): the folders ``site``
        # would add (named by the grader), without running its .pth files' code, and
        # the built-ins it would give a notebook (exit, quit, help, copyright).
        sys.path += [p for p in os.environ.pop("PERCEPTRON_GRADING_SITE", "").split(
            os.pathsep) if p]
        import site

        site.setquit()
        site.setcopyright()
        site.sethelper()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from codec import decode, encode  # type: ignore[no-redef]

PRINT_CAP = 20_000  # characters of printed output kept for the feedback
GRACE = 1.0  # seconds a fork may take beyond its timer before it is killed
#: The values of an error's ``"limit"`` field: which limit stopped the cell or call.
LIMITS = ("time", "cpu", "memory", "file size")


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


class _TimeUp(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _TimeUp()


def _strip_magics(source: str) -> str:
    lines = []
    for line in source.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")):
            lines.append(line[: len(line) - len(stripped)] + "pass")
        else:
            lines.append(line)
    return "\n".join(lines)


_SIGNATURE_NODES = (ast.Name, ast.Attribute, ast.Constant, ast.Subscript, ast.Tuple,
                    ast.List, ast.BinOp, ast.UnaryOp, ast.BitOr, ast.USub, ast.Load,
                    ast.arguments, ast.arg, ast.keyword)


#: Cells longer than this are always run in a fork of their own (see :func:`_plain`).
PLAIN_CHARS = 200_000


def _plain(source: str) -> bool:
    """Whether a cell only imports and defines: nothing in it runs for long or ends the
    process, so it can run without a fork of its own (most cells of a notebook)."""
    if len(source) > PLAIN_CHARS:
        return False  # parsing a cell this large may itself run out: in a fork
    try:
        tree = ast.parse(_strip_magics(source))
    except SyntaxError:
        return True  # compiling fails at once, in any process
    except (MemoryError, RecursionError, ValueError):
        return False  # compiling it may fail again: in a fork, where it costs that cell
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and all(
                isinstance(t, ast.Name) for t in node.targets):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.decorator_list:
            parts = [node.args, *([node.returns] if node.returns else [])]
            if all(isinstance(sub, _SIGNATURE_NODES) for part in parts
                   for sub in ast.walk(part)):
                continue
        return False
    return True


def _death(status: int, timed_out: bool) -> tuple[str, str | None]:
    """Why a fork ended, from its wait status, and the limit that ended it (if one did).

    ``timed_out``: its timer ran out and this process killed it.  Killed otherwise, the
    memory limit of all the run's processes is what kills a process of the sandbox.
    """
    if timed_out:
        return "it ran past its time limit", "time"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        return {"SIGXCPU": ("it used up its CPU time", "cpu"),
                "SIGKILL": ("it was killed (the memory limit, or a signal)", "memory"),
                "SIGXFSZ": ("it wrote a file past the size limit", "file size"),
                "SIGSEGV": ("the process crashed", None)}.get(
                    name, (f"the process died of {name}", None))
    return f"it ended the process (exit code {os.WEXITSTATUS(status)})", None


def _limit_of(exc: BaseException) -> str | None:
    """The limit an exception raised in a cell or a call comes from, if any."""
    if isinstance(exc, MemoryError):
        return "memory"
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return "file size"
    return None


class _Lines:
    """Lines from a pipe, each within a deadline."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""

    def next(self, deadline: float) -> str | None:
        """The next line before ``deadline``; None on end of file or time-out."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            block = os.read(self.fd, 65536)
            if not block:
                return None
            self.buffer += block
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")


def _reap(pid: int, kill: bool) -> int:
    if kill:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return os.waitpid(pid, 0)[1]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _fork(cpu_seconds: float) -> tuple[int, int]:
    """Fork; returns (pid, read end) in the parent, (0, write end) in the child.

    The child gets a CPU budget of its own: a fresh process starts from zero CPU time,
    and its soft limit (never above the sandbox's hard limit) is a second above
    ``cpu_seconds``.
    Returns (-1, -1) when no process can be made (the submission holds them all): the
    work then runs in this process, with its timers but without a fork to fall back on.
    """
    r, w = os.pipe()
    for attempt in range(5):
        try:
            pid = os.fork()
            break
        except OSError:  # the process limit, reached by the submission's own processes
            time.sleep(0.05 * (attempt + 1))
    else:
        os.close(r)
        os.close(w)
        return -1, -1
    if pid == 0:
        os.close(r)
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        # One second above the wall-clock timer, so that a busy cell is stopped by its
        # timer (and told so); the CPU limit catches what the timer cannot stop.
        cpu = int(cpu_seconds + 0.999) + 1
        if hard != resource.RLIM_INFINITY:
            cpu = min(cpu, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
        return 0, w
    os.close(w)
    return pid, r


def _lift_cpu_budget() -> None:
    """Give a fork that goes on with the notebook's state the sandbox's CPU limit back.

    A cell's fork runs with that cell's budget (:func:`_fork`); once the cell is done
    the fork carries the rest of the work, which must not die when the CPU time of the
    finished cell and the next ones together pass one cell's budget.
    """
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))


class Runner:
    """Runs the cells, then the calls, of one request; writes answers to ``out``."""

    def __init__(self, request: dict, out: int) -> None:
        self.request = request
        self.out = out
        self.namespace: dict = {"__name__": "__main__"}
        self.cell_errors: list[dict] = []
        self.captured = _CappedText(PRINT_CAP)

    def send(self, record: dict) -> None:
        try:
            line = json.dumps(record)
        except (TypeError, ValueError):
            line = json.dumps({"kind": record.get("kind"), "id": record.get("id"),
                               "error": "unencodable answer"})
        _write_all(self.out, (line + "\n").encode())

    # ---------------------------------------------------------------- the cells
    def run_cells(self) -> None:
        seconds = float(self.request.get("cell_seconds", 5.0))
        for k, source in enumerate(self.request["cells"]):
            pid, fd = (-1, -1) if _plain(source) else _fork(seconds)
            if pid < 0:
                self._exec_cell(k, source, seconds)
                continue
            if pid == 0:
                error = self._exec_cell(k, source, seconds)
                _write_all(fd, (json.dumps({"error": error}) + "\n").encode())
                os.close(fd)
                _lift_cpu_budget()  # the cell's budget is spent; the work goes on here
                continue  # this fork now holds the state; its parent steps aside
            deadline = time.monotonic() + seconds + GRACE
            line = _Lines(fd).next(deadline)
            os.close(fd)
            if line is not None:
                os._exit(0)  # the fork went on; this process is no longer needed
            timed_out = time.monotonic() >= deadline
            why, limit = _death(_reap(pid, kill=True), timed_out)
            self._cell_error(k, f"stopped: {why} ({seconds:g} s per cell); skipped", limit)

    def _exec_cell(self, k: int, source: str, seconds: float) -> str | None:
        error = None
        limit = None
        try:
            code = compile(_strip_magics(source), f"<cell {k + 1}>", "exec")
            signal.setitimer(signal.ITIMER_REAL, seconds)
            exec(code, self.namespace)
        except _TimeUp:
            error = f"stopped: it ran past its time limit ({seconds:g} s per cell)"
            limit = "time"
        except SystemExit as exc:
            error = f"called exit ({exc.code!r}); the rest of the cell was skipped"
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
            limit = _limit_of(exc)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if error is not None:
            self._cell_error(k, error, limit)
        return error

    def _cell_error(self, k: int, error: str, limit: str | None) -> None:
        self.cell_errors.append({"cell": k + 1, "error": error,
                                 **({"limit": limit} if limit else {})})

    # ---------------------------------------------------------------- the references
    def bind_references(self, shipped: list[dict]) -> None:
        """Put the references ``shipped`` in place of the submission's functions of
        the same names, in the notebook's namespace (after the cells, before the calls).

        A reference that cannot be defined is bound as a function that raises, so that
        the calls that reach it fail and say why.
        """
        if not shipped:
            return
        try:
            import numpy

            import perceptron_lib
        except BaseException as exc:  # the cells may have broken the imports
            numpy = perceptron_lib = None
            broken = f"{type(exc).__name__}: {exc}"[:300]
        for ref in shipped:
            scope = {"__name__": "reference", "np": numpy, "pl": perceptron_lib}
            try:
                if perceptron_lib is None:
                    raise ImportError(broken)
                exec(compile(ref["source"], f"<reference {ref['name']}>", "exec"), scope)
                fn = scope[ref["entry"]]
            except Exception as exc:
                fn = _unavailable(ref["name"], f"{type(exc).__name__}: {exc}"[:300])
            self.namespace[ref["name"]] = fn

    def make_real(self, functions: list[dict]) -> None:
        """Give the library's stand-ins of ``functions`` (``{"module", "name",
        "source"}``: top-level functions of the library) their real code, so that every
        name bound to them (``pl.update``, ``from .algorithm import update``) runs it.
        One that cannot be made real stays a stand-in: the calls that need it fail."""
        import importlib

        for item in functions:
            try:
                module = importlib.import_module(item["module"])
                scope: dict = {}
                exec(compile("from __future__ import annotations\n" + item["source"],
                             f"<library {item['name']}>", "exec"), vars(module), scope)
                old, new = getattr(module, item["name"]), scope[item["name"]]
                old.__code__ = new.__code__
            except Exception:
                continue

    def follow_up(self, control: _Lines) -> None:
        """The second part of a run that asked for one (see the module's docstring)."""
        line = control.next(time.monotonic() + 3600)  # the grader's timer bounds the wait
        try:
            more = json.loads(line) if line else None
        except ValueError:
            more = None
        if not isinstance(more, dict) or not more.get("calls"):
            return
        self.make_real(more.get("library") or [])
        self.bind_references(more.get("references") or [])
        self.run_calls(more["calls"])

    # ---------------------------------------------------------------- the calls
    def run_calls(self, calls: list[dict]) -> None:
        start = 0
        while start < len(calls):
            seconds = [float(c.get("seconds", 2.0)) for c in calls[start:]]
            pid, fd = _fork(sum(seconds) + 1)
            if pid < 0:
                for call in calls[start:]:
                    self.send(self._call(call))
                return
            if pid == 0:
                for k in range(start, len(calls)):
                    _write_all(fd, f"{k}\n".encode())
                    self.send(self._call(calls[k]))
                _write_all(fd, b"end\n")
                os._exit(0)
            current, finished, lines = start, False, _Lines(fd)
            while True:
                deadline = time.monotonic() + seconds[current - start] + GRACE
                line = lines.next(deadline)
                if line is None:
                    break
                if line.strip() == "end":
                    finished = True
                    break
                current = int(line)
            os.close(fd)
            timed_out = not finished and time.monotonic() >= deadline
            status = _reap(pid, kill=not finished)
            if finished:
                return
            why, limit = _death(status, timed_out)
            self.send({"kind": "call", "id": calls[current]["id"],
                       "error": f"stopped: {why} ({seconds[current - start]:g} s per call)",
                       **({"limit": limit} if limit else {})})
            start = current + 1

    def _call(self, call: dict) -> dict:
        record: dict = {"kind": "call", "id": call["id"]}
        fn = self.namespace.get(call["function"])
        if not callable(fn):
            record["error"] = f"no function named {call['function']} was defined"
            return record
        args = [decode(a) for a in call["args"]]
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, float(call.get("seconds", 2.0)))
        try:
            value = fn(*args)
            signal.setitimer(signal.ITIMER_REAL, 0)
            record["value"] = encode(value)
        except _TimeUp:
            record["error"] = f"timed out ({float(call.get('seconds', 2.0)):g} s per call)"
            record["limit"] = "time"
        except BaseException as exc:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if isinstance(exc, SystemExit):
                record["error"] = f"called exit ({exc.code!r})"
            else:
                tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
                record["error"] = tb[:500]
                if _limit_of(exc):
                    record["limit"] = _limit_of(exc)
        record["seconds"] = round(time.perf_counter() - t0, 6)
        record["mutated"] = [k for k, (sent, arg) in enumerate(zip(call["args"], args,
                                                                   strict=True))
                             if _changed(sent, arg)]
        return record

    def finish(self) -> None:
        self.send({"kind": "done", "printed": self.captured.text()[-4000:],
                   "dropped": self.captured.dropped})


def _unavailable(name: str, why: str):
    def reference(*args, **kwargs):
        raise RuntimeError(f"the reference {name} could not be loaded: {why}")

    return reference


def _changed(sent, arg) -> bool:
    try:
        return encode(arg) != sent
    except Exception:
        return True


def _first_line(lines: _Lines) -> bytes:
    """The request: the first line on ``lines`` (or all there is, up to its end), read
    in blocks (it holds every cell); what follows it stays in ``lines``."""
    blocks = []
    while True:
        block = os.read(lines.fd, 1 << 20)
        if not block:
            return b"".join(blocks)
        end = block.find(b"\n")
        if end >= 0:
            blocks.append(block[:end])
            lines.buffer = block[end + 1:]
            return b"".join(blocks)
        blocks.append(block)


def main() -> None:
    library = os.environ.pop("PERCEPTRON_GRADING_LIBRARY", "")
    if library:  # the stand-in library goes first on the path, whatever is installed
        sys.path.insert(0, library)
    control = _Lines(0)
    request = json.loads(_first_line(control))
    # The submission finds standard input at its end, as it always did; the grader's
    # follow-up (if the request asks for one) comes on a copy only this code reads.
    control.fd = os.dup(0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    out = int(sys.argv[1])
    # The first process only waits, so that a sandbox that ends with it (its process
    # namespace) lives as long as the work; the work happens in forks below it.
    alive_r, alive_w = os.pipe()
    if os.fork() != 0:
        os.close(alive_w)
        os.close(out)
        while os.read(alive_r, 1):
            pass
        return
    os.close(alive_r)
    runner = Runner(request, out)
    sys.stdout = sys.stderr = runner.captured
    signal.signal(signal.SIGALRM, _on_alarm)
    runner.run_cells()
    runner.send({"kind": "cells", "errors": runner.cell_errors[:50]})
    runner.bind_references(request.get("references") or [])
    runner.run_calls(request["calls"])
    if request.get("follow_up"):
        runner.send({"kind": "answered"})
        runner.follow_up(control)
    runner.finish()
    os._exit(0)


if __name__ == "__main__":
    main()
