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
    exit status 1 and the error's name on standard error."""
    request = json.loads(sys.stdin.buffer.read())
    try:
        answer = json.dumps(work(request), ensure_ascii=True)
    except (MemoryError, RecursionError) as exc:
        del request
        sys.stderr.write(f"{type(exc).__name__}\n")
        os._exit(1)
    sys.stdout.write(answer)
    sys.stdout.flush()
