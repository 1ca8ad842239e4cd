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


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def test_modules_load_on_first_use():
    code = (
        "import sys, perceptron_lib as pl;"
        "before = sorted(m for m in sys.modules if m.startswith('perceptron_lib.'));"
        "print(before, 'numpy' in sys.modules);"
        "pl.notes_example;"
        "print('perceptron_lib.datasets' in sys.modules, "
        "'perceptron_lib.variants' in sys.modules)"
    )
    assert _run(code).splitlines() == ["[] False", "True False"]


def test_every_exported_name_resolves_to_its_module():
    import perceptron_lib as pl

    for name in pl.__all__:
        value = getattr(pl, name)
        if name in pl._OWNER:
            assert value is getattr(sys.modules[f"perceptron_lib.{pl._OWNER[name]}"], name)
    assert set(pl.__all__) <= set(dir(pl))


def test_a_function_keeps_the_name_of_its_module():
    # Loading the module perceptron_lib.margin_perceptron (as the margin demo does)
    # before the name is used must not put the module where the function belongs.
    code = (
        "import perceptron_lib as pl, importlib;"
        "importlib.import_module('perceptron_lib.margin_perceptron');"
        "importlib.import_module('perceptron_lib.generate');"
        "print(callable(pl.margin_perceptron), callable(pl.margin))"
    )
    assert _run(code) == "True True"
