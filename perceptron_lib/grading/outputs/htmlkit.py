"""Small, self-contained HTML pages: the class report and the students' feedback pages.

The pages load nothing (no script, no font, no stylesheet from elsewhere): the style is
inline, figures are inline SVG.  They follow the reader's light or dark setting
(``prefers-color-scheme``), fit a 390 px phone (wide tables scroll on their own, and are
focusable so that a keyboard can scroll them), and say everything a figure shows in
text too: every figure has a name (``aria-label``), a description, and its numbers in a
table; bars carry their values as text, so nothing depends on colour.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

STYLE = """
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #4d5560;
  --line: #d0d7de; --card: #f4f6f8; --bar: #2a65a0; --track: #dbe4ee; --link: #0a58a8;
  --warn: #fff3d1; --good: #1f6b35; --bad: #a3300b; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0f1419; --muted: #a4afbb; --line: #39424d; --card: #171d24;
    --bar: #6eb2f2; --track: #2a3846; --link: #8cc4ff; --warn: #3b3015; --good: #7ddc93;
    --bad: #ffab85; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
header, main, footer { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1rem; }
footer { color: var(--muted); font-size: .875rem; padding-bottom: 2rem;
  overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: .5rem 0; line-height: 1.25; }
h2 { font-size: 1.3rem; margin: 2rem 0 .5rem; padding-top: .5rem;
  border-top: 1px solid var(--line); }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
a { color: var(--link); }
p, li { max-width: 48rem; }
code { font-size: .9em; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; list-style: none; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr));
  gap: .5rem; margin: 1rem 0; padding: 0; }
.cards div { background: var(--card); border: 1px solid var(--line); border-radius: .4rem;
  padding: .5rem .75rem; }
.cards dt { font-size: .85rem; color: var(--muted); }
.cards dd { margin: 0; font-size: 1.35rem; font-weight: 600;
  font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; margin: .5rem 0 1rem; }
.scroll:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
table { border-collapse: collapse; min-width: 100%; font-size: .95rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0 .5rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .6rem;
  border-bottom: 1px solid var(--line); }
thead th { border-bottom: 2px solid var(--line); }
tbody th { font-weight: 600; min-width: 8rem; }
td ul { margin: 0; padding-left: 1.1rem; }
.attention li { margin: .35rem 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.wrap { overflow-wrap: anywhere; min-width: 12rem; }
.rate { white-space: nowrap; font-variant-numeric: tabular-nums; }
.track { display: inline-block; width: 5rem; height: .7rem; background: var(--track);
  vertical-align: middle; margin-right: .4rem; border-radius: 2px; overflow: hidden; }
.fill { display: block; height: 100%; background: var(--bar); }
figure { margin: 1rem 0; max-width: 34rem; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { font-size: .9rem; color: var(--muted); margin-top: .25rem; }
svg text { fill: var(--fg); font-family: inherit; }
svg .bar { fill: var(--bar); }
svg .axis { stroke: var(--muted); stroke-width: 1; }
svg .lane { fill: var(--track); }
details { margin: .5rem 0 1rem; }
summary { cursor: pointer; }
.note { background: var(--warn); border-left: 4px solid var(--bad); padding: .5rem .75rem;
  margin: 1rem 0; }
.ok { color: var(--good); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
dl.pair { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .75rem;
  margin: .25rem 0 .75rem; }
dl.pair dt { font-weight: 600; }
dl.pair dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card);
  padding: .5rem; border-radius: .3rem; }
td code { overflow-wrap: normal; }
td details { margin: 0; }
td details p { margin: .25rem 0 0; }
@media (max-width: 30rem) { body { font-size: 15px; } h1 { font-size: 1.35rem; }
  th, td { padding: .3rem .4rem; } td.wrap { min-width: 9rem; }
  .rate { white-space: normal; } .track { display: block; width: 4rem;
  margin: .3rem 0 .15rem; } }
"""


class Raw(str):
    """Text that is already HTML (never escaped again)."""


def esc(value: object) -> str:
    """``value`` as HTML text (a :class:`Raw` is kept as it is)."""
    if isinstance(value, Raw):
        return value
    return html.escape(str(value), quote=True)


def prose(text: str) -> Raw:
    """Text as HTML, with what it quotes between backticks set as code.

    >>> prose("use `<= 0`")
    'use <code>&lt;= 0</code>'
    """
    return Raw(re.sub(r"`([^`]+)`", r"<code>\1</code>", esc(text)))


def shorten(text: str, limit: int = 80) -> str:
    """``text`` on one line, cut at a word boundary before ``limit`` characters with an
    ellipsis: never in the middle of a word (a run of letters and digits), even when
    the first word alone is longer than ``limit`` (it is then kept whole).

    >>> shorten("index 5 is out of bounds for axis 0 with size 5", 30)
    'index 5 is out of bounds for…'
    >>> shorten("expected [0.5, 1.25, -2.0], got [0.5, 1.0, -2.0]", 22)
    'expected [0.5, 1.25…'
    >>> shorten("short"), shorten("Pneumonoultramicroscopic silicovolcano", 10)
    ('short', 'Pneumonoultramicroscopic…')
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text

    def boundary(k: int) -> bool:  # between text[k - 1] and text[k]
        return not (text[k - 1].isalnum() and text[k].isalnum())

    spaces = [k for k in range(limit, limit // 2, -1) if text[k] == " "]
    edges = [k for k in range(limit, 0, -1) if boundary(k)]
    if spaces:
        cut = spaces[0]
    elif edges:
        cut = edges[0]
    else:  # the first word is longer than the limit: keep it whole
        cut = next((k for k in range(limit, len(text)) if boundary(k)), len(text))
    return text[:cut].rstrip(" ,;:-([{") + "…"


def count(n: int, word: str, words: str = "") -> str:
    """``1 student``, ``2 students`` (``words`` for an irregular plural).

    >>> count(1, "roster row"), count(3, "full mark", "full marks")
    ('1 roster row', '3 full marks')
    """
    return f"{n} {word if n == 1 else (words or word + 's')}"


def num(value: float, digits: int = 2) -> str:
    """A number as the report writes it: ``3``, ``2.5``, ``0.77``."""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage (``—`` for none of none)."""
    return f"{round(100 * part / whole)} %" if whole else "—"


def page(title: str, body: str, description: str = "") -> str:
    """A whole HTML page around ``body`` (which holds ``header``, ``main``, ``footer``)."""
    meta = (f'<meta name="description" content="{esc(description)}">\n'
            if description else "")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"color-scheme\" content=\"light dark\">\n"
            "<link rel=\"icon\" href=\"data:,\">\n"
            f"{meta}<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def bar(part: int, whole: int) -> Raw:
    """A small bar of ``part`` of ``whole``, hidden from assistive technology: the text
    beside it must say the same."""
    width = 100 * part / whole if whole else 0
    return Raw(f'<span class="track" aria-hidden="true">'
               f'<span class="fill" style="width:{width:.1f}%"></span></span>')


def rate(part: int, whole: int) -> Raw:
    """A bar and its value in words (``85 % (51 of 60)``)."""
    return Raw(f'<span class="rate">{bar(part, whole)}{percent(part, whole)} '
               f"({part} of {whole})</span>")


def table(caption: str, headers: Sequence[str], rows: Iterable[Sequence[object]],
          numeric: Iterable[int] = (), wrap: Iterable[int] = (), label: str = "",
          row_headers: bool = False) -> str:
    """A table in a scrolling region (keyboard-focusable, named by ``label`` or the
    caption).  ``numeric`` and ``wrap`` are the indexes of right-aligned columns and of
    columns of long text; with ``row_headers``, each row's first cell is the header of
    its row (``<th scope="row">``), as a student's name is."""
    numeric, wrap = set(numeric), set(wrap)

    def cls(k: int) -> str:
        names = [n for n, s in (("num", numeric), ("wrap", wrap)) if k in s]
        return f' class="{" ".join(names)}"' if names else ""

    def cell(k: int, c: object) -> str:
        if k == 0 and row_headers:
            return f'<th scope="row"{cls(k)}>{esc(c)}</th>'
        return f"<td{cls(k)}>{esc(c)}</td>"

    head = "".join(f'<th scope="col"{cls(k)}>{esc(h)}</th>' for k, h in enumerate(headers))
    body = "\n".join("<tr>" + "".join(cell(k, c) for k, c in enumerate(r)) + "</tr>"
                     for r in rows)
    return (f'<div class="scroll" role="region" tabindex="0" '
            f'aria-label="{esc(label or caption)}">\n<table>\n<caption>{esc(caption)}</caption>\n'
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>\n</div>")


def histogram_svg(bins: list[dict], name: str, description: str, unit: str = "students",
                  ident: str = "h") -> str:
    """An SVG column chart of ``bins`` (``label``, ``count``, ``full``), each column with
    its count written above it; the full-marks column is hatched as well as labelled.
    ``ident`` keeps the hatching's id unique on a page with several charts."""
    width, height, left, bottom, top = 400, 210, 28, 40, 22
    n = max(len(bins), 1)
    step = (width - left - 8) / n
    most = max((b["count"] for b in bins), default=0) or 1
    parts = [f'<svg role="img" aria-label="{esc(name)}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg">', f"<desc>{esc(description)}</desc>",
             f'<defs><pattern id="{ident}-hatch" width="6" height="6" '
             'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
             '<rect width="6" height="6" class="bar"/>'
             '<line x1="0" y1="0" x2="0" y2="6" stroke="currentColor" stroke-width="2" '
             'opacity=".35"/></pattern></defs>']
    base = height - bottom
    parts.append(f'<line class="axis" x1="{left}" y1="{base}" x2="{width - 4}" y2="{base}"/>')
    font = 14 if n <= 12 else 11
    for k, b in enumerate(bins):
        h = (base - top) * b["count"] / most
        x = left + k * step + step * 0.12
        w = step * 0.76
        fill = f' style="fill:url(#{ident}-hatch)"' if b.get("full") else ""
        parts.append(f'<rect class="bar"{fill} x="{x:.1f}" y="{base - h:.1f}" '
                     f'width="{w:.1f}" height="{h:.1f}"/>')
        cx = x + w / 2
        parts.append(f'<text x="{cx:.1f}" y="{base - h - 5:.1f}" text-anchor="middle" '
                     f'font-size="{font}">{b["count"]}</text>')
        parts.append(f'<text x="{cx:.1f}" y="{base + 15}" text-anchor="middle" '
                     f'font-size="{font - 1}">{esc(b["label"])}</text>')
        if b.get("full"):
            parts.append(f'<text x="{cx:.1f}" y="{base + 28}" text-anchor="middle" '
                         f'font-size="{font - 1}">full</text>')
    parts.append(f'<text x="4" y="14" font-size="12">{esc(unit)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def bars_svg(items: list[tuple[str, int, int]], name: str, description: str) -> str:
    """An SVG of horizontal bars, one per ``(label, part, whole)``, each with its label on
    the left and its value (``85 % (51 of 60)``) written beside the bar."""
    width, row = 400, 32
    label_w, bar_w = 130, 120
    height = row * len(items) + 8
    parts = [f'<svg role="img" aria-label="{esc(name)}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg">', f"<desc>{esc(description)}</desc>"]
    for k, (label, part, whole) in enumerate(items):
        y = 4 + k * row
        share = part / whole if whole else 0
        parts.append(f'<text x="{label_w - 6}" y="{y + 18}" text-anchor="end" '
                     f'font-size="14">{esc(label)}</text>')
        parts.append(f'<rect class="lane" x="{label_w}" y="{y + 6}" width="{bar_w}" '
                     'height="14"/>')
        parts.append(f'<rect class="bar" x="{label_w}" y="{y + 6}" '
                     f'width="{bar_w * share:.1f}" height="14"/>')
        parts.append(f'<text x="{label_w + bar_w + 6}" y="{y + 18}" font-size="14">'
                     f"{percent(part, whole)} ({part} of {whole})</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def figure(svg: str, caption: str, numbers: str = "") -> str:
    """A figure: the SVG, a caption, and its numbers in a table behind a disclosure."""
    more = (f"<details><summary>The numbers of this figure</summary>\n{numbers}\n</details>"
            if numbers else "")
    return f"<figure>\n{svg}\n<figcaption>{esc(caption)}</figcaption>\n</figure>\n{more}"
