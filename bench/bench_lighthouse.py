"""Page speed: a Lighthouse audit (desktop) of every page of the built site.

    python3 tasks.py book                          # the site to measure
    python3 tasks.py bench -- --lighthouse         # every page, 5 to 20 minutes
    python3 tasks.py bench -- --lighthouse --pages book/01_algorithm.html --runs 3

The built site (``_build/html``) is served from 127.0.0.1 by a keep-alive HTTP server
that compresses text files with gzip, as the site's host (GitHub Pages) does; pass
``--no-gzip`` to serve the files as they are, as the browser tests do.  Lighthouse
(npm, ``package.json``) audits each page with ``--preset=desktop`` in Debian's Chromium
(``CHROME_PATH``), headless.  The pages are those a reader reaches from the table of
contents (``_toc.yml``: the introduction, the chapters, the exercises) and the search
and index pages when the pages link them.

For each page: the four category scores (performance, accessibility, best practices,
SEO, out of 100), cumulative layout shift, total blocking time and largest contentful
paint, and the machine's load average when the page's audit started (``load``: other
work on its cores); with ``--runs N`` the run of median performance is kept, with
``--reports DIR`` every full report too.  Goals: performance at least 90, accessibility
and best practices 100, SEO at least 95, CLS below 0.1.  Every audit of the last three
categories that does not pass is listed under the table.  The results are printed as a
Markdown table and written to ``bench/results-lighthouse.json``.

Lighthouse's performance score is a simulation from one page load: on a machine whose
cores are busy with other work it comes out lower, so measure on a quiet machine and
re-run a page that looks off.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import harness  # noqa: E402
from toc_pages import toc_pages  # noqa: E402

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOALS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 95}
CLS_GOAL = 0.1
# What GitHub Pages compresses: text, not images or fonts (already compressed).
COMPRESSED = (".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt", ".xml", ".inv")


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site's files, text files gzip-compressed when the browser accepts it."""

    protocol_version = "HTTP/1.1"
    use_gzip = True

    def log_message(self, format: str, *args) -> None:
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if (not self.use_gzip or path.suffix not in COMPRESSED or not path.is_file()
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


@contextmanager
def serve(site: Path, use_gzip: bool = True) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 from a thread; yields the base URL (no slash)."""
    handler = type("Handler", (_Handler,), {"use_gzip": use_gzip,
                                            "extensions_map": {**_Handler.extensions_map,
                                                               ".mjs": "text/javascript"}})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(handler, directory=str(site)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def lighthouse(url: str, chromium: str, out: Path, provided: bool = False) -> dict:
    """Run Lighthouse (desktop preset) on ``url``; returns its JSON report.

    With ``provided``, no simulation: the load is measured as it happens
    (``--throttling-method=provided``), so total blocking time is the main thread's
    real long tasks on this machine.
    """
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse not found: run `npm ci` (python3 tasks.py bench -- --lighthouse "
                 "does it)")
    cmd = [str(LIGHTHOUSE), url, "--preset=desktop",
           '--chrome-flags=--headless=new --no-sandbox',
           "--only-categories=" + ",".join(CATEGORIES),
           "--output=json", f"--output-path={out}", "--quiet"]
    if provided:
        cmd.append("--throttling-method=provided")
    subprocess.run(cmd, check=True, env={**os.environ, "CHROME_PATH": chromium})
    return json.loads(out.read_text())


def summarise(report: dict) -> dict:
    """The figures of one report: scores out of 100, CLS, TBT (ms), LCP (s), failures."""
    audits = report["audits"]
    row = {c: round(100 * report["categories"][c]["score"]) for c in CATEGORIES}
    row["cls"] = audits["cumulative-layout-shift"]["numericValue"]
    row["tbt"] = audits["total-blocking-time"]["numericValue"]
    row["lcp"] = audits["largest-contentful-paint"]["numericValue"] / 1000
    failing = []
    for c in CATEGORIES[1:]:
        for ref in report["categories"][c]["auditRefs"]:
            a = audits[ref["id"]]
            if ref.get("weight", 0) > 0 and a.get("score") is not None and a["score"] < 1:
                failing.append(f"{c}: {ref['id']} ({a['title']})")
    row["failing"] = failing
    return row


def table(rows: dict[str, dict]) -> str:
    """The results as a Markdown table, one row per page."""
    lines = ["| page | performance | accessibility | best practices | SEO | CLS | TBT ms "
             "| LCP s | load |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for page, r in rows.items():
        lines.append(f"| {page} | {r['performance']} | {r['accessibility']} | "
                     f"{r['best-practices']} | {r['seo']} | {r['cls']:.3f} | {r['tbt']:.0f} | "
                     f"{r['lcp']:.2f} | {r.get('load', float('nan')):.1f} |")
    return "\n".join(lines)


#: The most the main thread may be blocked by a page load measured as it happens (ms).
TBT_PROVIDED_GOAL = 200


def below_goal(r: dict) -> list[str]:
    """What one page's row misses of the goals."""
    miss = [f"{c} {r[c]} < {g}" for c, g in GOALS.items() if r[c] < g]
    if r["cls"] >= CLS_GOAL:
        miss.append(f"CLS {r['cls']:.3f} >= {CLS_GOAL}")
    return miss


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", nargs="+", help="paths in the site (default: every page)")
    ap.add_argument("--runs", type=int, default=1, help="runs per page (median performance)")
    ap.add_argument("--no-gzip", action="store_true", help="serve files uncompressed")
    ap.add_argument("--site", type=Path, default=SITE, help="the built site (_build/html)")
    ap.add_argument("--reports", type=Path, help="also keep each full Lighthouse report here")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results-lighthouse.json")
    ap.add_argument("--provided", action="store_true",
                    help="no simulation: measure the load as it happens (--throttling-method="
                         "provided); the goal is then total blocking time at most 200 ms")
    args = ap.parse_args(argv)
    chromium = harness.find_chromium()
    if chromium is None:
        sys.exit(f"No Chromium found: {harness.HOW_TO_ENABLE}.")
    pages = args.pages or toc_pages(args.site)
    version = subprocess.run([str(LIGHTHOUSE), "--version"], capture_output=True,
                             text=True).stdout.strip() if LIGHTHOUSE.exists() else "?"
    rows: dict[str, dict] = {}
    with serve(args.site, use_gzip=not args.no_gzip) as base, \
            tempfile.TemporaryDirectory() as tmp:
        for page in pages:
            runs = []
            load = os.getloadavg()[0]  # other work on the machine, before this page
            for k in range(args.runs):
                where = Path(tmp) / f"r{k}.json"
                if args.reports:
                    args.reports.mkdir(parents=True, exist_ok=True)
                    where = args.reports / f"{page.replace('/', '_')}.{k + 1}.json"
                report = lighthouse(f"{base}/{page}", chromium, where, args.provided)
                runs.append(summarise(report))
                print(f"{page} run {k + 1}: performance {runs[-1]['performance']}",
                      file=sys.stderr, flush=True)
            runs.sort(key=lambda r: r["performance"])
            rows[page] = {**runs[len(runs) // 2], "load": load,
                          "performance_runs": [r["performance"] for r in runs]}
    machine = (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
               f"load average {os.getloadavg()[0]:.2f}; Lighthouse {version}; "
               f"{shutil.which(chromium) or chromium}; gzip {'off' if args.no_gzip else 'on'}; "
               f"throttling {'provided (as it happens)' if args.provided else 'simulated'}")
    args.out.write_text(json.dumps({"machine": machine, "pages": rows}, indent=1))
    print(f"{machine}\n\n{table(rows)}\n")
    if args.runs > 1:
        spread = [max(r["performance_runs"]) - min(r["performance_runs"]) for r in rows.values()]
        print(f"performance spread between runs: median {statistics.median(spread)}, "
              f"max {max(spread)}")
    for page, r in rows.items():
        if args.provided and r["tbt"] > TBT_PROVIDED_GOAL:
            print(f"{page}: blocking time {r['tbt']:.0f} ms > {TBT_PROVIDED_GOAL} ms")
        for line in below_goal(r) + r["failing"]:
            print(f"{page}: {line}")


if __name__ == "__main__":
    main()
