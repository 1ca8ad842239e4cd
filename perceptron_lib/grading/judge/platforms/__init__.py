"""The roster layouts, one module each: how a platform's own file is read as a roster.

:mod:`.canvas` (the gradebook export), :mod:`.moodle` (an assignment's grading
worksheet), :mod:`.gradescope` (the course roster, or an assignment's scores) and
:mod:`.own` (the grader's ``id, name, email``).  Each has ``LAYOUT``,
``recognises(table)`` and ``read(table)``, which returns a :class:`.roster_rows.Sheet`;
:func:`.roster.read_roster` tries them in the order of :data:`READERS`.
"""

from __future__ import annotations

from . import canvas, gradescope, moodle, own

#: The layouts in the order they are tried: the platforms' (recognised by their
#: headers), then the grader's own, which names what is missing.
READERS = (canvas, moodle, gradescope, own)
