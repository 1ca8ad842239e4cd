"""``import perceptron_lib`` stays light: notebooks start fast."""

import subprocess
import sys


def test_import_loads_no_heavy_module():
    code = (
        "import sys, perceptron_lib as pl;"
        "heavy = [m for m in ('sklearn', 'numba', 'matplotlib', 'scipy') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_plotting_loads_on_first_use():
    code = (
        "import perceptron_lib as pl; pl.plotting; import sys;"
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_unknown_attribute():
    import pytest

    import perceptron_lib as pl

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pl.nope
