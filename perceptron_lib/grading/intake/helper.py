"""The main of a helper script (see :mod:`.bounded`): as little as a helper must import.

A helper process starts for every notebook read and every similarity pass, so its own
start-up is most of its cost: this module imports ``json``, ``os`` and ``sys`` alone.
"""

from __future__ import annotations

import json
import os
import sys


def serve(work) -> None:
    """The main of a helper script: the request from standard input, ``work(request)``
    as JSON on standard output.  A ``MemoryError`` or ``RecursionError`` ends it with
    exit status 1 and the error's name on standard error.

    A request ``{"many": [r1, r2, ...]}`` (from :func:`.bounded.run_many`) is answered
    one line per request, in order, each written as soon as it is done and each within
    its own processor-time budget (the soft limit, raised before each request), so that
    the grader knows which request a helper that stopped was working on.
    """
    request = json.loads(sys.stdin.buffer.read())
    if isinstance(request, dict) and isinstance(request.get("many"), list):
        budget = request.get("cpu_seconds")
        _serve_many(work, request["many"], budget if isinstance(budget, int) else 0)
        return
    try:
        answer = json.dumps(work(request), ensure_ascii=True)
    except (MemoryError, RecursionError) as exc:
        del request
        sys.stderr.write(f"{type(exc).__name__}\n")
        os._exit(1)
    sys.stdout.write(answer)
    sys.stdout.flush()


def _serve_many(work, requests: list, budget: int) -> None:
    import resource

    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    out = sys.stdout.buffer
    for k in range(len(requests)):
        if budget > 0:
            used = resource.getrusage(resource.RUSAGE_SELF)
            soft = int(used.ru_utime + used.ru_stime) + budget
            resource.setrlimit(resource.RLIMIT_CPU, (min(soft, hard) if hard >= 0 else soft,
                                                     hard))
        try:
            answer = json.dumps(work(requests[k]), ensure_ascii=True)
        except (MemoryError, RecursionError) as exc:
            requests = None
            sys.stderr.write(f"{type(exc).__name__}\n")
            os._exit(1)
        requests[k] = None  # done with: its memory goes back before the next
        out.write(answer.encode("ascii") + b"\n")
        out.flush()
