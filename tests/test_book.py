"""The book builds from clean with warnings as errors (Sphinx -W, nitpicky)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def toc_pages() -> list[str]:
    text = (ROOT / "_toc.yml").read_text()
    return re.findall(r"(?:root|file):\s*(\S+)", text)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("book")
    jb = Path(sys.executable).parent / "jupyter-book"
    proc = subprocess.run(
        [str(jb), "build", str(ROOT), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, (proc.stdout[-4000:], proc.stderr[-4000:])
    return out / "_build" / "html"


def test_every_toc_page_is_built(site):
    pages = toc_pages()
    assert pages and pages[0] == "book/intro"
    for page in pages:
        assert (site / f"{page}.html").is_file(), page
    assert "book/intro.html" in (site / "index.html").read_text()


def test_intro_states_the_conventions(site):
    html = (site / "book" / "intro.html").read_text()
    for phrase in ("Notation and conventions", "Examples are rows", "Labels are",
                   "Mistakes", "Nothing is modified in place"):
        assert phrase in html, phrase
    assert "<table" in html
    assert "rosenblatt1958" in html or "Rosenblatt" in html
