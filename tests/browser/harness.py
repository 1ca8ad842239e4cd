"""What the browser tests and the browser benchmark share: a local server and Chromium.

The site is served from a thread on 127.0.0.1 (a free port), and Debian's Chromium is
driven by Playwright's Python package.  Playwright never downloads a browser here: it is
launched with ``executable_path`` set to the Chromium found on the machine.

Where the tests look for Chromium, in order: the environment variable
``PERCEPTRON_COURSE_CHROMIUM`` (a path), then ``chromium``, ``chromium-browser``,
``google-chrome`` on ``PATH``.  axe-core is read from ``node_modules/axe-core`` (installed
by ``python3 tasks.py test`` with ``npm ci`` where npm exists).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
REQUIRE_ENV = "PERCEPTRON_COURSE_REQUIRE_BROWSER"
CHROMIUM_ENV = "PERCEPTRON_COURSE_CHROMIUM"
HOW_TO_ENABLE = (
    "install Debian's chromium (apt-get install chromium) or set "
    f"{CHROMIUM_ENV}=/path/to/chromium, and npm for axe-core; .ci/run does both"
)
# Chromium in a machine with no network but the package registries: no sandbox (CI runs
# as root), no GPU, and none of the background connections Chromium makes on its own.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
]


def find_chromium() -> str | None:
    """The Chromium executable to drive, or None when there is none."""
    named = os.environ.get(CHROMIUM_ENV)
    if named:
        return named if Path(named).is_file() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_required() -> bool:
    """Whether missing browser tools must fail the run (CI sets this) rather than skip."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0", "false", "no")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the stdlib's name)
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A browser that closes a connection early (a page closed mid-load) is normal.
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 from a thread; yields the base URL (no slash)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium(executable: str):
    """A headless Chromium (Playwright ``Browser``) started from ``executable``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True,
                                     args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the built site, as paths relative to its root."""
    skip = {"_static", "_sources", "_images", "_downloads", "jupyter_execute"}
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if not skip & set(p.relative_to(site).parts)
    )


MATHJAX_DONE = """
async () => {
  if (!window.MathJax) return "no-mathjax";
  for (let k = 0; k < 200 && !(MathJax.startup && MathJax.startup.promise); k++)
    await new Promise((r) => setTimeout(r, 25));
  if (MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  if (MathJax.typesetPromise) await MathJax.typesetPromise();
  return "typeset";
}
"""


# ---------------------------------------------------------------------------------------
# What a test learns from one page.

WAIT_FOR_MATH = """
async () => {
  // MathJax typesets the formulas in view at load time and the others when the page
  // is idle (book/_ext/mathjax-background.js sets data-math-typeset="all" then).
  if (!window.MathJax || !window.MathJax.startup) return "no math";
  const start = performance.now();
  while (document.documentElement.dataset.mathTypeset !== "all") {
    if (performance.now() - start > 30000) return "timeout";
    await new Promise((r) => setTimeout(r, 50));
  }
  return "typeset";
}
"""

PAGE_FACTS = r"""
() => {
  const skip = "PRE, CODE, KBD, SCRIPT, STYLE, TEXTAREA, MJX-CONTAINER, .highlight, .playground-fallback";
  const tex = /\\\(|\\\)|\\\[|\\\]|\$\$|\\begin\{|\\end\{|\\(frac|theta|gamma|lVert|rVert|mathbf|mathcal|mathrm|sum|leq?|geq?|cdot|top|text)\b/;
  const raw = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    const m = node.textContent.match(tex);
    if (m) raw.push(node.textContent.trim().slice(0, 80));
  }
  const named = (e) => (e.getAttribute("aria-label") || e.getAttribute("alt") || "").trim();
  return {
    url: location.href,
    title: document.title,
    rawTex: raw,
    mathErrors: document.querySelectorAll("mjx-merror").length,
    // an unknown command is typeset in red as its own name: find it in the hidden MathML
    mathUnknown: [...document.querySelectorAll("mjx-assistive-mml")].map((e) => e.textContent).filter((s) => /\\[A-Za-z]/.test(s)),
    mathPending: document.querySelectorAll("mjx-lazy").length,
    formulas: document.querySelectorAll("mjx-container").length,
    imagesWithoutAlt: [...document.images].filter((i) => !(i.getAttribute("alt") || "").trim()).map((i) => i.src),
    brokenImages: [...document.images].filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.src),
    unnamedGraphics: [...document.querySelectorAll('[role="img"]')].filter((e) => !named(e)).map((e) => e.outerHTML.slice(0, 80)),
    links: [...document.querySelectorAll("a[href]")].map((a) => a.href),
    ids: [...document.querySelectorAll("[id]")].map((e) => e.id).concat([...document.querySelectorAll("a[name]")].map((a) => a.name)),
  };
}
"""

OVERFLOW = """
() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  const wide = [];
  for (const e of document.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > width + 1) {
      // report the outermost offenders only
      const p = e.parentElement && e.parentElement.getBoundingClientRect();
      if (!p || p.right <= width + 1) wide.push(`${e.tagName.toLowerCase()}.${[...e.classList].join(".")} (right edge ${Math.round(r.right)} px)`);
    }
  }
  return { scrollWidth: root.scrollWidth, clientWidth: width, wide: wide.slice(0, 8) };
}
"""

AXE_RUN = """
async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
}
"""


def load(page, url: str) -> dict:
    """Open ``url`` in ``page`` and record what the page asked of the network and console.

    Returns the record; the page stays open (and keeps recording) for more checks.
    """
    base = url.split("/", 3)[:3]
    origin = "/".join(base)
    rec: dict = {"failed": [], "external": [], "console": []}

    def on_request(req) -> None:
        if not req.url.startswith(origin) and not req.url.startswith(("data:", "blob:", "about:")):
            rec["external"].append(req.url)

    def on_failed(req) -> None:
        rec["failed"].append(f"{req.url} ({req.failure})")

    def on_response(resp) -> None:
        if resp.status >= 400:
            rec["failed"].append(f"{resp.url} (HTTP {resp.status})")

    def on_console(msg) -> None:
        if msg.type == "error":
            rec["console"].append(msg.text)

    page.on("request", on_request)
    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    page.on("console", on_console)
    page.on("pageerror", lambda err: rec["console"].append(f"uncaught: {err}"))
    rec["math"] = goto(page, url)
    rec["final_url"] = page.url
    return rec


def goto(page, url: str) -> str:
    """Open ``url`` (following the site's redirect page) and wait for its formulas.

    Returns what :data:`WAIT_FOR_MATH` says: "typeset", "no math" or "timeout".
    """
    redirects = 'http-equiv="refresh"' in page.request.get(url).text().lower()
    page.goto(url, wait_until="load")
    if redirects:  # the site's index.html sends the reader to the first page
        page.wait_for_url(lambda u: u != url, wait_until="load")
    return page.evaluate(WAIT_FOR_MATH)
