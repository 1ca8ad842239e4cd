import os
import sys

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")
sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "course",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("course")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
