"""The in-page demos keep their state in the URL (``book/_demos/kit/url-state.mjs``).

The module is checked under Node.js with a stand-in for the browser's history: the
encoding round-trips, hostile parameters are refused with a reason, several demos keep
separate keys, rapid writes are coalesced, and Back/Forward reach the subscribers.  The
browser tests (``tests/browser/test_playground.py``) check the same in the built pages.
"""

import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")


def encode(state: dict) -> str:
    """The module's encoding, written again in Python: JSON, UTF-8, base64url, no padding."""
    raw = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.fixture(scope="module")
def node():
    if NODE is None:
        pytest.skip("Node.js not found: install nodejs to check the URL state module")
    return NODE


def test_url_state_module_under_node(node):
    proc = subprocess.run([node, str(ROOT / "tests" / "js" / "run_url_state.mjs")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["checks"] >= 40


def test_python_encoding_is_read_by_the_module(node, tmp_path):
    states = [{"v": 1, "d": 2, "X": [[0.1, -3.25]], "y": [1], "n": "\u03b8 \u2212 \u00e9"},
              {"k": "rbf", "w": 0.5}, {}]
    script = tmp_path / "decode.mjs"
    script.write_text(
        f'import {{ decodeState }} from "{(ROOT / "book/_demos/kit/url-state.mjs").as_uri()}";\n'
        f"const texts = {json.dumps([encode(s) for s in states])};\n"
        "process.stdout.write(JSON.stringify(texts.map(decodeState)));\n")
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == states
