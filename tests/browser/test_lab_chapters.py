"""The chapters in JupyterLab, as a reader sees them after Run All.

One JupyterLab (with ``jupyterlab-myst``, from the course's packages) serves a temporary
copy of ``book/`` and ``exercises/``, so running the chapters never writes into the
repository.  It runs with the settings ``python3 tasks.py lab`` gives a student
(``tasks.lab_env``: the course's default settings, among them windowing "none" so that
every cell is drawn and one Run All evaluates every ``{eval}``), plus, in a temporary
directory, no news, no update check and no autosave.  Chromium opens each chapter in
turn at 1366 x 768, runs all cells, saves the copy (to read the kernel's glued values
back) and checks:

- no cell raised, and every code cell ran;
- the rendered Markdown shows no raw role or directive, no ``%s``, no label such as
  ``fig-ch3-...``, no glued name and no error of an ``{eval}``;
- every ``{eval}`` of a Markdown cell shows its number, formatted from the kernel's value
  the way the site's ``eval`` role formats the glued value (``book/_ext/inline_numbers.py``),
  and those values equal the ones the site's test expects (``tests/book_expect``);
- every explorer is drawn: its picture loaded, shown at most at its natural width, and
  the whole box (picture and controls) within the notebook's visible height; a chapter
  that makes an explorer shows it live (chapter 7 included); the track of every slider of
  chapter 6 is at least 150 px wide and a message box shows at least 5 rows;
- no citation or cross-reference marked "Not Found", no link to ``#``, every citation
  lands on its work in the chapter's list of references, and every link to a notebook
  opens a notebook that exists (chapters, exercises).

Screenshots of each chapter after Run All and of each explorer go to the directory named
by ``PERCEPTRON_COURSE_LAB_SHOTS`` (default: a temporary directory).  All six chapters
took 10.5 minutes on two cores shared with other work (JupyterLab starts once, in
about 20 s; each chapter's Run All takes 15-65 s, the rest is saving and checking).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from chapter_references import citation_targets
from harness import ROOT


def _tasks():
    """tasks.py, for ``lab_env``: the environment ``python3 tasks.py lab`` gives JupyterLab."""
    spec = importlib.util.spec_from_file_location("course_tasks", ROOT / "tasks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tasks = _tasks()

BOOK = ROOT / "book"
CHAPTERS = sorted(BOOK.glob("0[0-9]_*.ipynb"))
VIEWPORT = {"width": 1366, "height": 768}
RUN_TIMEOUT = 900  # seconds for one chapter's Run All
SHOTS_ENV = "PERCEPTRON_COURSE_LAB_SHOTS"
MIN_SLIDER = 150  # px of a slider's track, in every chapter: less cannot be moved step by step
MIN_ROWS = 5  # rows of a message box: a whole message in view

# Nothing that changes how a chapter is drawn: that is left to the course's defaults.
SETTINGS = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
}

EVAL = re.compile(r"\{eval\}`([^`]+)`")
GLUE_PREFIX = "application/papermill.record/"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

# What must not stand in the rendered Markdown of a chapter.
RAW = {
    "raw role": re.compile(r"\{[a-z][\w:-]*\}`"),
    "raw directive": re.compile(r":::|```\{|Unknown (?:Directive|Role)", re.IGNORECASE),
    "placeholder %s": re.compile(r"%s"),
    "label": re.compile(r"\b(?:fig|sec|eq|tbl|thm|lem|def|ex|prf)-ch\d[\w-]*"),
    "glued name": re.compile(r"\bch\d+_[A-Za-z0-9_]+"),
    "error of an eval": re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b: "),
}


def _inline_numbers():
    """The site's ``eval`` role module (book/_ext/inline_numbers.py): its ``parse``."""
    spec = importlib.util.spec_from_file_location("inline_numbers",
                                                  BOOK / "_ext" / "inline_numbers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PARSE = _inline_numbers().parse


def shown_text(expression: str, glued: dict[str, str]) -> str:
    """What an ``{eval}`` shows: the glued value, formatted as the site and the kernel do."""
    name, spec = PARSE(expression)
    value = ast.literal_eval(glued[name])
    if spec is not None:
        return format(value, spec)
    return value if isinstance(value, str) else glued[name]


def glued_values(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The text/plain of every value glued by the notebook's outputs, by name."""
    out = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            text = output.get("data", {}).get(GLUE_PREFIX + "text/plain")
            if name and text is not None:
                out[name] = text
    return out


def problems_in_markdown(text: str) -> list[str]:
    """Raw MyST, labels, glued names and errors in one cell's rendered text."""
    return [f"{what}: {m.group(0)!r}" for what, pattern in RAW.items()
            for m in pattern.finditer(text)]


def missing_numbers(source: str, text: str, glued: dict[str, str]) -> list[str]:
    """The ``{eval}`` expressions of ``source`` whose number is not in ``text``, in order."""
    missing, at = [], 0
    for expression in EVAL.findall(source):
        if PARSE(expression)[0] not in glued:
            missing.append(f"{expression} (never glued)")
            continue
        want = shown_text(expression, glued)
        found = text.find(want, at)
        if found < 0:
            missing.append(f"{expression} -> {want!r}")
        else:
            at = found + len(want)
    return missing


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory, chromium_executable):
    """JupyterLab on a temporary copy of book/, with settings of its own.

    (Asks for Chromium first, so that without one the tests skip before it starts.)
    """
    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    for folder in ("book", "exercises"):
        shutil.copytree(ROOT / folder, root / folder,
                        ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints"))
    settings = tmp / "settings"
    for name, values in SETTINGS.items():
        path = settings / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    exe = Path(sys.executable).parent / "jupyter-lab"
    assert exe.is_file(), f"{exe} missing: JupyterLab comes with the course's packages"
    port, token = free_port(), secrets.token_hex(16)
    cmd = [str(exe), "--no-browser", f"--port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           f"--LabApp.user_settings_dir={settings}",
           f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
           "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    env = tasks.lab_env(dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"),
                             JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
                             JUPYTER_DATA_DIR=str(tmp / "data")))
    log = (tmp / "lab.log").open("w")
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, (tmp / "lab.log").read_text()[-3000:]
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab did not start in 120 s"
                time.sleep(0.5)
        # the notebook's drawing is the course's default, not a setting of this test
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/lab/api/settings/@jupyterlab/notebook-extension:tracker",
            headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            tracker = json.load(response)
        assert tracker["schema"]["properties"]["windowingMode"]["default"] == "none"
        assert "windowingMode" not in tracker["settings"]
        yield {"url": f"http://127.0.0.1:{port}", "token": token, "root": root}
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def lab_page(lab, browser):
    # the session's browser: one thread cannot hold two Playwright sessions
    context = browser.new_context(viewport=VIEWPORT)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    named = os.environ.get(SHOTS_ENV)
    path = Path(named) if named else tmp_path_factory.mktemp("lab-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


PROMPTS = ("[...document.querySelectorAll("
           "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]")
BUSY = f"() => {PROMPTS}.filter(e => e.textContent.includes('*')).length"
IDLE = ("() => /\\| Idle/.test("
        "document.querySelector('.jp-StatusBar-Left')?.innerText || '')")
UNRUN = f"() => {PROMPTS}.filter(e => !/\\[\\d+\\]/.test(e.textContent)).length"

FACTS = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  panel.querySelectorAll('details').forEach(d => { d.open = true; });  // dropdowns too
  const scroller = panel.querySelector('.jp-WindowedPanel-outer')
      || panel.querySelector('.jp-Notebook');
  const cells = [...panel.querySelectorAll('.jp-Notebook .jp-Cell')].map(c => ({
    kind: c.classList.contains('jp-MarkdownCell') ? 'markdown'
        : c.classList.contains('jp-CodeCell') ? 'code' : 'raw',
    text: c.classList.contains('jp-MarkdownCell')
        ? (c.querySelector('.jp-MarkdownOutput') || c).innerText : '',
    errors: c.querySelectorAll('[data-mime-type="application/vnd.jupyter.error"]').length,
  }));
  const explorers = [...panel.querySelectorAll('img.widget-image')].map(img => {
    let box = img;
    for (let e = img; e && !e.classList.contains('jp-OutputArea-output'); e = e.parentElement) {
      if (e.classList.contains('jupyter-widgets')) box = e;
    }
    const r = img.getBoundingClientRect(), b = box.getBoundingClientRect();
    return {complete: img.complete, natural: img.naturalWidth, width: r.width,
            boxHeight: b.height, boxWidth: b.width};
  });
  // the rendered part of each Markdown cell: jupyterlab-myst draws it in a .myst widget
  const md = [...panel.querySelectorAll('.jp-MarkdownCell')]
      .map(c => c.querySelector('.jp-MarkdownOutput, .lm-Widget.myst')).filter(Boolean);
  // a link within the notebook lands where an element has its id (JupyterLab keeps the
  // id of Markdown's HTML as data-jupyter-id)
  const lands = (href) => {
    const id = CSS.escape(decodeURIComponent(href.slice(1)));
    return !!panel.querySelector(`[id="${id}"], [data-jupyter-id="${id}"]`);
  };
  const links = md.flatMap(m => [...m.querySelectorAll('a[href]')].map(a => {
    const href = a.getAttribute('href') || '';
    return {href, text: a.innerText, lands: href.startsWith('#') && lands(href)};
  }));
  const marked = md.flatMap(m => [...m.querySelectorAll('[title$="Not Found"], .text-yellow-600')]
      .map(e => `${e.getAttribute('title') || 'marked'}: ${e.innerText}`));
  const sliders = [...panel.querySelectorAll('.jp-OutputArea .widget-slider')].map(s => {
    const track = s.querySelector('.slider-container') || s;
    return {label: s.querySelector('.widget-label')?.innerText || '',
            width: track.getBoundingClientRect().width};
  });
  const textareas = [...panel.querySelectorAll('.jp-OutputArea .widget-textarea textarea')]
      .map(t => t.rows);
  return {cells, explorers, visible: scroller.clientHeight, links, marked, sliders, textareas};
}"""


def run_all(page, lab, name: str) -> float:
    """Open a chapter, run all its cells, wait until they are done; the seconds it took."""
    page.goto(f"{lab['url']}/lab/tree/book/{name}?reset&token={lab['token']}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=120_000)
    # the kernel has started: the status bar names it and says Idle
    page.wait_for_function(IDLE, timeout=180_000)
    start = time.monotonic()
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")
    started = f"() => {PROMPTS}.some(e => /\\[[\\d*]+\\]/.test(e.textContent))"
    page.wait_for_function(started, timeout=60_000)
    while time.monotonic() - start < RUN_TIMEOUT:
        if not page.evaluate(BUSY) and not page.evaluate(UNRUN):
            break
        if page.query_selector('.jp-NotebookPanel:not(.lm-mod-hidden) '
                               '[data-mime-type="application/vnd.jupyter.error"]'):
            break  # Run All stops at an error
        time.sleep(1)
    took = time.monotonic() - start
    # the Markdown cells below the last code cell ask the kernel for their numbers
    page.wait_for_function(IDLE, timeout=120_000)
    time.sleep(1)
    return took


def save(page, path: Path) -> nbformat.NotebookNode:
    """Save the open notebook (into the temporary copy) and read it back."""
    before = path.stat().st_mtime_ns
    page.click(".lm-MenuBar-itemLabel:text-is('File')")
    page.click(".lm-Menu-itemLabel:text-is('Save Notebook')")
    deadline = time.monotonic() + 60
    while path.stat().st_mtime_ns == before:
        assert time.monotonic() < deadline, f"{path.name} was not saved"
        time.sleep(0.3)
    time.sleep(0.5)
    return nbformat.read(path, as_version=4)


def expected_values(name: str, book_expected) -> dict | None:
    """What the site's test expects the chapter to glue (tests/book_expect), if it says
    (``book_expected``: the fixture that computes it once per test run)."""
    if importlib.util.find_spec(f"book_expect.ch{int(name[:2])}") is None:
        return None
    return book_expected(int(name[:2]))


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_after_run_all(chapter, lab, lab_page, shots, book_expected):
    page = lab_page
    took = run_all(page, lab, chapter.name)
    page.screenshot(path=str(shots / f"{chapter.stem}_after_run_all.png"))
    nb = save(page, lab["root"] / "book" / chapter.name)
    facts = page.evaluate(FACTS)
    print(f"{chapter.stem}: Run All took {took:.0f} s")
    problems: list[str] = []

    # every code cell ran, none raised
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if cell.execution_count is None:
            problems.append(f"cell {i} did not run")
        for output in cell.outputs:
            if output.output_type == "error":
                problems.append(f"cell {i} raised {output.ename}: {output.evalue}")
    problems += [f"cell {i} shows an error" for i, c in enumerate(facts["cells"]) if c["errors"]]

    # the rendered Markdown, cell by cell
    assert len(facts["cells"]) == len(nb.cells), "every cell is rendered (windowing off)"
    glued = glued_values(nb)
    for i, (cell, shown) in enumerate(zip(nb.cells, facts["cells"], strict=True)):
        if cell.cell_type != "markdown":
            continue
        problems += [f"cell {i}: {p}" for p in problems_in_markdown(shown["text"])]
        problems += [f"cell {i}: number not shown: {m}"
                     for m in missing_numbers(cell.source, shown["text"], glued)]

    # the kernel's numbers are the site's
    expected = expected_values(chapter.name, book_expected)
    if expected is not None:
        for key, want in expected.items():
            if key not in glued:
                problems.append(f"{key} not glued")
                continue
            got = ast.literal_eval(glued[key])
            if isinstance(want, float) or isinstance(got, float):
                same = got == pytest.approx(want, rel=1e-9, abs=1e-12)
            else:
                same = got == want
            if not same:
                problems.append(f"{key}: {got!r} in JupyterLab, {want!r} on the site")

    # the explorers
    widgets = sum(WIDGET_MIME in output.get("data", {})
                  for cell in nb.cells for output in cell.get("outputs", []))
    if widgets and len(facts["explorers"]) < widgets:
        problems.append(f"{widgets} widget outputs but {len(facts['explorers'])} pictures")
    for k, e in enumerate(facts["explorers"]):
        if not (e["complete"] and e["natural"] > 0):
            problems.append(f"explorer {k}: picture not loaded")
        elif e["width"] > e["natural"] + 0.5:
            problems.append(f"explorer {k}: picture enlarged ({e['width']:.0f} px wide, "
                            f"drawn {e['natural']} px)")
        if e["boxHeight"] > facts["visible"]:
            problems.append(f"explorer {k}: {e['boxHeight']:.0f} px high, the notebook "
                            f"shows {facts['visible']} px")
    makes_explorer = any(re.search(r"\b\w*(?:Explorer|Trainer)\(|explorer=True", c.source)
                         for c in nb.cells if c.cell_type == "code")
    if makes_explorer and not facts["explorers"]:
        problems.append("the chapter makes an explorer but shows none")
    for s in facts["sliders"]:
        print(f"  slider {s['label']!r}: track {s['width']:.0f} px")
        if s["width"] < MIN_SLIDER:
            problems.append(f"slider {s['label']!r}: track {s['width']:.0f} px wide")
    for rows in facts["textareas"]:
        if rows < MIN_ROWS:
            problems.append(f"a message box of {rows} rows")

    # links and references: a citation lands on its work in the chapter's list (a reference
    # to a figure need only read as words: the figure is an output, with no target)
    problems += [f"marked in the text: {m}" for m in facts["marked"]]
    assert facts["links"], "the rendered Markdown is read (a chapter has links)"
    cited = set(citation_targets(nb))
    for link in facts["links"]:
        href = link["href"]
        if href == "#":
            problems.append(f"link to # with the words {link['text']!r}")
            continue
        if href[1:] in cited and not link["lands"]:
            problems.append(f"citation {link['text']!r} to {href} lands nowhere")
        url = urlparse(href)
        if url.scheme in ("http", "https") and url.hostname != "127.0.0.1":
            continue
        if url.path.endswith(".ipynb"):
            served = unquote(url.path).split("/files/", 1)[-1]
            if "/files/" not in url.path or not (lab["root"] / served).is_file():
                problems.append(f"link {link['text']!r} to {href}: no such notebook")
        elif not href.startswith("#"):
            problems.append(f"link {link['text']!r} to {href}: not a notebook")

    for k, img in enumerate(page.query_selector_all(
            ".jp-NotebookPanel:not(.lm-mod-hidden) img.widget-image")):
        img.evaluate("e => e.closest('.jp-OutputArea-output').scrollIntoView({block: 'start'})")
        time.sleep(0.3)
        page.screenshot(path=str(shots / f"{chapter.stem}_explorer{k}.png"))

    assert problems == [], f"{chapter.name} in JupyterLab:\n" + "\n".join(problems)


def test_the_checks_catch_what_jupyterlab_shows_raw():
    text = ("as fig-ch3-signed-distance shows, Figure %s, ch3_sd_norm:g, "
            "{cite}`notes6036`, only - Unknown Directive, NameError: name 'x' is not defined")
    found = {p.split(":")[0] for p in problems_in_markdown(text)}
    assert found == {"label", "placeholder %s", "glued name", "raw role", "raw directive",
                     "error of an eval"}
    assert problems_in_markdown("The figure below shows the margin 0.7071 of point A.") == []


def test_numbers_are_formatted_as_on_the_site():
    glued = {"ch0_a": "0.123456", "ch0_s": "'(1, -1)'", "ch0_n": "4601", "ch0_k": "True"}
    assert shown_text('f"{ch0_a:.2f}"', glued) == "0.12"
    assert shown_text("ch0_a", glued) == "0.123456"
    assert shown_text("ch0_s", glued) == "(1, -1)"
    assert shown_text('f"{ch0_n:,}"', glued) == "4,601"
    assert shown_text("ch0_k", glued) == "True"
    source = 'from {eval}`ch0_s` to {eval}`f"{ch0_n:,}"` and {eval}`ch0_k`'
    assert missing_numbers(source, "from (1, -1) to 4,601 and True", glued) == []
    assert missing_numbers(source, "from 4,601 to (1, -1) and True", glued) == [
        'f"{ch0_n:,}" -> \'4,601\'']
    assert missing_numbers("{eval}`ch0_x`", "", glued) == ["ch0_x (never glued)"]
