"""Dates and times as instructors and the platforms write them (the late policy's)."""

from __future__ import annotations

from datetime import datetime

MOODLE_TIME = "%A, %d %B %Y, %I:%M %p"  # Moodle's strftimedatetime, in English


def parse_time(text: str) -> datetime:
    """A date and time in ISO 8601 or as Moodle writes it, made time-zone aware.

    Raises
    ------
    ValueError
        Neither form; the message shows the expected one.
    """
    text = text.strip()
    for parse in (datetime.fromisoformat, lambda t: datetime.strptime(t, MOODLE_TIME)):
        try:
            value = parse(text)
        except ValueError:
            continue
        return value if value.tzinfo else value.astimezone()
    raise ValueError(f"{text!r} is not a date and time (write it as 2025-03-01 23:59, or "
                     "2025-03-01T23:59+01:00)")
