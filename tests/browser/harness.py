"""What the browser tests and the browser benchmark share: a local server and Chromium.

The site is served from a thread on 127.0.0.1 (a free port), and Debian's Chromium is
driven by Playwright's Python package.  Playwright never downloads a browser here: it is
launched with ``executable_path`` set to the Chromium found on the machine.

Where the tests look for Chromium, in order: the environment variable
``PERCEPTRON_COURSE_CHROMIUM`` (a path), then ``chromium``, ``chromium-browser``,
``google-chrome`` on ``PATH``.  The two accessibility checkers, axe-core and
HTML_CodeSniffer, are read from ``node_modules`` (installed by ``python3 tasks.py test``
with ``npm ci`` where npm exists).
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
HTMLCS = ROOT / "node_modules" / "html_codesniffer" / "build" / "HTMLCS.js"
REQUIRE_ENV = "PERCEPTRON_COURSE_REQUIRE_BROWSER"
CHROMIUM_ENV = "PERCEPTRON_COURSE_CHROMIUM"
HOW_TO_ENABLE = (
    "install Debian's chromium (apt-get install chromium) or set "
    f"{CHROMIUM_ENV}=/path/to/chromium, and npm for axe-core and HTML_CodeSniffer; "
    ".ci/run does both"
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


def _js(name: str) -> str:
    """A function written in JavaScript (tests/browser/js) for ``page.evaluate``."""
    return (Path(__file__).resolve().parent / "js" / name).read_text()


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


#: How long a test waits between two edits that must be two entries of the browser's
#: history: edits closer than BURST_MS (book/_demos/kit/edit-history.mjs, 1000 ms) are one.
BURST_WAIT_MS = 1100


def drag(page, start, end, moves: int = 5) -> None:
    """Drag the mouse from ``start`` to ``end`` (client pixels), as a hand does: pressed,
    moved in ``moves`` steps on the way, let go (a demo makes one edit of the drag)."""
    page.mouse.move(*start)
    page.mouse.down()
    for k in range(1, moves + 1):
        page.mouse.move(start[0] + (end[0] - start[0]) * k / moves,
                        start[1] + (end[1] - start[1]) * k / moves)
    page.mouse.up()


class ServedSite(str):
    """The base URL of a served site (no trailing slash), with what the server refused.

    ``errors`` lists ``(path, status)`` for every request answered with 400 or more,
    including those the browser makes on its own (``/favicon.ico``), which pages never
    report.
    """

    errors: list[tuple[str, int]]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep connections open, as any real web server does

    def log_message(self, format: str, *args) -> None:
        pass

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        status = getattr(code, "value", code)
        if isinstance(status, int) and status >= 400:
            self.server.errors.append((self.path, status))


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
    server.errors = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = ServedSite(f"http://127.0.0.1:{server.server_address[1]}")
    url.errors = server.errors
    try:
        yield url
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


# ---------------------------------------------------------------------------------------
# What a test learns from one page.

WAIT_FOR_MATH = _js("wait_for_math.js")

PAGE_FACTS = _js("page_facts.js")

OVERFLOW = _js("overflow.js")

AXE_RUN = _js("axe_run.js")
HTMLCS_RUN = _js("htmlcs_run.js")
SHOW_DEMOS = _js("show_demos.js")
SCROLL_STOPS = _js("scroll_stops.js")


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

    Returns what :data:`WAIT_FOR_MATH` says: "typeset" or "no math".
    """
    redirects = 'http-equiv="refresh"' in page.request.get(url).text().lower()
    page.goto(url, wait_until="load")
    if redirects:  # the site's index.html sends the reader to the first page
        page.wait_for_url(lambda u: u != url, wait_until="load")
    return page.evaluate(WAIT_FOR_MATH)


# ---------------------------------------------------------------------------------------
# Pages that hold one demo (chapters 2, 6 and 7).

#: True once the page's sections are all laid out (book/_ext/page-load.js), or at once on a
#: page without that script.
LAID_OUT = ("() => document.documentElement.hasAttribute('data-laid-out') || "
            "![...document.scripts].some(s => /page-load\\.js/.test(s.src))")
#: How long a test waits for LAID_OUT: a few seconds on a quiet machine, many more when
#: the browser shares two cores with the other test worker.
LAID_OUT_MS = 90_000

#: Lays out every section of a page at once, as page-load.js does when a reader follows a
#: link: for a test that holds a demo's module back (which holds the load back too), and
#: for DemoPages.open, which then need not wait for the idle steps.
LAY_OUT_NOW = ("() => document.querySelectorAll('.bd-article > section > section, .pl-wait')"
               ".forEach(s => s.classList.add('laid-out'))")

AXE_ON = _js("axe_on.js")
#: The training buttons' keys, in every demo that trains (Step, Epoch, Run, Reset, Play).
TRAINING_KEYS = ["s", "e", "r", "0", "p"]


def demo_violations(page, selector: str, axe_source: str, scheme: str = "light") -> list:
    """axe-core's violations inside the demo at ``selector``, at every impact.

    In the dark theme only the colour rules are run again: the others do not depend on it.
    """
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=axe_source)
    options = None if scheme == "light" else {"runOnly": ["color-contrast"]}
    return page.evaluate(AXE_ON, [selector, options])


def assert_demo_speaks(page, selector: str) -> None:
    """The demo's status is announced, its training buttons declare their keys, and the
    page logged no error."""
    assert page.locator(f"{selector} .demo-status").get_attribute("aria-live") == "polite"
    keys = page.evaluate(f"() => [...document.querySelectorAll('{selector} .demo-buttons "
                         "button')].map(b => b.getAttribute('aria-keyshortcuts'))")
    assert keys == TRAINING_KEYS, keys
    assert page.errors == []


def picture_without_javascript(browser, url: str, img: str, live: str = ".demo-ui") -> dict:
    """What a reader without JavaScript sees of a demo: its fallback picture ``img``.

    Returns how many such pictures there are, whether the first is visible once scrolled
    to, its alt text and size, and how many of the demo's live parts (``live``) show.
    """
    ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                              java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(url, wait_until="load")
        found = page.locator(img)
        out = {"count": found.count(), "live": page.evaluate(
            "(s) => [...document.querySelectorAll(s)].filter((e) => e.checkVisibility())"
            ".length", live)}
        if out["count"]:
            found.first.scroll_into_view_if_needed()
            box = found.first.bounding_box() or {"width": 0, "height": 0}
            out.update(visible=found.first.is_visible(), alt=found.first.get_attribute("alt"),
                       width=box["width"], height=box["height"])
        return out
    finally:
        ctx.close()


DARK = ("() => { document.documentElement.dataset.theme = 'dark'; "
        "document.documentElement.dataset.mode = 'dark'; }")


class DemoPages:
    """Opens pages that hold one demo, each in a browser context of its own.

    ``api`` is the JavaScript expression of the demo's test API (present once its module
    has run) and ``active`` the one that is true once the demo has started (it starts
    when it comes into view).  :meth:`close` closes every context opened.
    """

    def __init__(self, browser, api: str, selector: str, active: str) -> None:
        self.browser, self.api, self.selector, self.active = browser, api, selector, active
        self.contexts: list = []

    def open(self, url: str, *, width: int = 1280, height: int = 900, scheme: str = "light",
             scroll: bool = True, **options):
        """The page at ``url``, its console errors and uncaught exceptions in ``.errors``.

        ``scheme="dark"`` switches the theme as a reader's click does; with ``scroll``
        the demo is brought into view and waited for until it has started.  Other
        keyword arguments go to the browser context (``reduced_motion``, ...).
        """
        ctx = self.browser.new_context(viewport={"width": width, "height": height},
                                       color_scheme=scheme, **options)
        self.contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(url, wait_until="load")
        if scheme == "dark":
            page.evaluate(DARK)
        page.wait_for_function(f"() => {self.api}")
        # every section laid out at once, as when a reader follows a link to a heading:
        # the page is then still while the test works, without the idle steps' wait
        page.evaluate(LAY_OUT_NOW)
        page.wait_for_function(LAID_OUT, timeout=LAID_OUT_MS)
        if scroll:
            page.locator(self.selector).scroll_into_view_if_needed()
            page.wait_for_function(f"() => {self.active}")
        page.errors = errors
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        self.contexts.clear()
