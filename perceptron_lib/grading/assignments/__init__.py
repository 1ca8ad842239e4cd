"""The graded functions of each exercise notebook, one module per chapter."""

from __future__ import annotations

from ..exercise import Task
from . import (
    a01_algorithm,
    a02_offset,
    a03_margin,
    a04_convergence,
    a05_spam,
    a06_variants,
    a07_beyond,
)

#: Assignment (the notebook's name) -> its graded functions, in the notebook's order.
ASSIGNMENTS: dict[str, list[Task]] = {
    "01_algorithm": a01_algorithm.TASKS,
    "02_offset": a02_offset.TASKS,
    "03_margin": a03_margin.TASKS,
    "04_convergence": a04_convergence.TASKS,
    "05_spam": a05_spam.TASKS,
    "06_variants": a06_variants.TASKS,
    "07_beyond": a07_beyond.TASKS,
}
