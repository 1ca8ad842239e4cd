"""The class report, the feedback pages and the exports, on a class of 60 mixed submissions.

The class (``grading_class.py``) is graded once for the module: 30 right answers, 23
with a known mistake planted (6, 5, 4, 4 and 3 students), 3 blank, 1 with a function
missing, 2 files that are not notebooks, 1 that runs past the notebook's time limit and
1 that kills its own processes.  A roster leaves one student out and has one student
with no submission; an adjustments file changes three grades.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import hashlib
import html
import io
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from grading_class import CLASS_60, PLANTED, html_tables, make_class, student, write_roster

from perceptron_lib.grading.__main__ import main as grade_folder
from perceptron_lib.grading.assignments import ASSIGNMENTS
from perceptron_lib.grading.judge.late import CANVAS_LATE, LatePolicy
from perceptron_lib.grading.judge.roster import RosterMatch
from perceptron_lib.grading.judge.roster_rows import RosterEntry
from perceptron_lib.grading.outputs import classstats, csvsafe, gradebook, report
from perceptron_lib.grading.outputs.exports import MOODLE
from perceptron_lib.grading.outputs.htmlkit import num, shorten

TASKS = {t.name: t for t in ASSIGNMENTS["01_algorithm"]}
ADJUSTMENTS = """student,function,points,reason
Student 31 (1031),update,+1,regrade request: case 3 accepted
1053,total,2,free-text answer of question 5 read by hand
student01@example.org,total,-1.5,"copied the explanation, see e-mail"
"""


def run(args: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = grade_folder([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("class60")
    who = make_class(base / "subs")
    write_roster(base / "roster.csv", 60, skip={60},
                 extra=("2000", "Late Joiner", "late@example.org"))
    (base / "adjustments.csv").write_text(ADJUSTMENTS, encoding="utf-8")
    args = [base / "subs", "--out", base / "out", "--workers", "2", "--wall-seconds", "8",
            "--roster", base / "roster.csv", "--adjustments", base / "adjustments.csv",
            "--export", "canvas", "--export", "moodle", "--export", "gradescope"]
    code, printed, errors = run(args)
    assert code == 0, errors + "".join(line + "\n" for line in printed.splitlines()
                                       if "grader error" in line or "error" in line)
    out = base / "out"
    with open(out / "grades.csv", encoding="utf-8-sig") as fh:
        rows = {f"{r['student']} ({r['id']})": r for r in csv.DictReader(fh)}
    return {"base": base, "out": out, "who": who, "printed": printed, "args": args,
            "rows": rows, "results": json.loads((out / "results.json").read_text()),
            "report": (out / "report.html").read_text(encoding="utf-8")}


def test_every_submission_has_a_row_and_feedback_as_text_and_page(graded):
    rows, out = graded["rows"], graded["out"]
    assert len(rows) == 60
    assert len(list((out / "feedback").glob("*.txt"))) == 60
    pages = list((out / "feedback").glob("*.html"))
    assert len(pages) == 60
    kinds = dict(classstats.statuses(graded["results"]["grades"]))
    assert kinds == {"ok": 56, "timeout": 1, "crashed": 1, "not a notebook": 2}


def _who(cell: str) -> set[str]:
    return set(re.findall(r"Student \d\d \(\d+\)", cell))


def _with_reference(graded: dict, students: set[str], function: str) -> bool:
    """Whether ``function`` of these students was graded with the reference of another
    graded function (:mod:`.cascade`), in place of their own."""
    tasks = [t for g in graded["results"]["grades"]
             if f"{g['student']} ({g['student_id']})" in students
             for t in g["tasks"] if t["name"] == function]
    return bool(tasks) and all(t.get("with_reference") for t in tasks)


def test_the_report_names_the_planted_mistakes_with_their_counts(graded):
    tables = html_tables(graded["report"])
    known = tables["Known mistakes, the most common first"]
    assert known[0] == ["Mistake (the hint)", "Function", "Students", "Failed cases", "Who"]
    ran = 60 - CLASS_60["not_json"] - CLASS_60["not_a_notebook"]
    found = 0
    for kind, functions in PLANTED.items():
        planted = set(graded["who"][kind])
        for function in functions:
            # one row per hint given to them (a mistake that gives the same answers as
            # another on every case is named by both hints)
            rows = [r for r in known[1:] if r[1] == function and _who(r[4]) == planted]
            if _with_reference(graded, planted, function):
                assert rows == [], (kind, function)  # the bug in another function costs once
                continue
            assert 1 <= len(rows) <= 2, (kind, function, rows)
            found += len(rows)
            for row in rows:
                hint = row[0]
                # the report names the mistake by a hint the feedback knows for it
                assert any(" ".join(m.hint.replace("`", "").split()) in hint
                           for m in TASKS[function].known), hint
                n = len(planted)
                assert row[2] == f"{round(100 * n / ran)} % ({n} of {ran})"
                assert row[4].startswith(f"{n} students")
    assert found == len(known) - 1  # no other known mistake, none counted twice
    other = tables["Other failures, the most common first"]
    blank = set(graded["who"]["blank"])
    for function in TASKS:
        (row,) = [r for r in other[1:] if r[0].startswith("not written yet")
                  and r[1] == function]
        assert _who(row[4]) == blank
    (row,) = [r for r in other[1:] if r[0] == "the function is not defined"]
    assert row[1] == "predict" and _who(row[4]) == set(graded["who"]["no_predict"])


def _attention(page: str) -> list[str]:
    """The items of the report's "Needs attention" list, as text."""
    section = re.search(r'<section id="attention".*?</section>', page, re.DOTALL)[0]
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", li)).split())
            for li in re.findall(r"<li>(.*?)</li>", section, re.DOTALL)]


def test_the_report_opens_with_what_needs_attention(graded):
    page = graded["report"]
    sections = re.findall(r'<section id="([^"]+)"', page)
    assert sections[:2] == ["attention", "students"]
    items = _attention(page)
    who = graded["who"]
    unreadable = ", ".join(who["not_json"] + who["not_a_notebook"])
    expected = [
        f"Files that are not notebooks, or cannot be read: ask for the notebook (2): "
        f"{unreadable}",
        f"Stopped at their time limit (1): {who['timeout'][0]}",
        f"Crashed before finishing (1): {who['crash'][0]}",
        "Submissions with no roster row (1): Student 60 (1060)",
        "Roster rows with no submission (1): Late Joiner (line 61)",
        "Students not in export-canvas.csv (3): Student 57 (1057), Student 58 (1058), "
        "Student 60 (1060)",
    ]
    for line in expected:
        assert line in items, (line, items)
    assert any(i.startswith("Totals outside 0 to the maximum") for i in items)
    # every item links to a section of the page that has the details
    targets = re.findall(r'<li><a href="#([^"]+)"', page)
    assert targets and set(targets) <= set(sections)


def test_the_students_table_has_a_row_per_student_with_their_feedback_page(graded):
    page, out, rows = graded["report"], graded["out"], graded["rows"]
    table = html_tables(page)["The 60 students, by name"]
    assert table[0] == ["Student", "Id", "Total", "Status", "Adjustments", "Feedback page"]
    assert len(table) == 61
    body = re.search(r"<caption>The 60 students, by name</caption>.*?</table>", page,
                     re.DOTALL)[0]
    assert body.count('<th scope="row">') == 60
    for name, ident, total, status, _, feedback in table[1:]:
        row = rows[f"{name} ({ident})"]
        assert total == f"{num(float(row['total']))} of {num(float(row['max']))}"
        assert status.split(":")[0] == classstats.status_kind(row["status"])
        assert (out / "feedback" / feedback).is_file()
        assert f'href="feedback/{feedback}"' in body
    by_name = {r[0]: r for r in table[1:]}
    assert by_name["Student 01"][4] == "-1.5 on total"
    assert by_name["Student 31"][4] == "+1 on update"
    assert by_name["Student 59"][3].startswith("timeout: stopped after 8 s")


def test_the_feedback_zip_is_in_the_report(graded):
    tables = html_tables(graded["report"])
    (row,) = tables["Feedback zips to upload"][1:]
    assert row[:3] == ["feedback-moodle.zip", "60", "0"]
    assert (graded["out"] / "feedback-moodle.zip").is_file()


def test_the_report_lists_every_submission_that_did_not_finish(graded):
    tables = html_tables(graded["report"])
    (name,) = [k for k in tables if k.endswith("that did not finish normally")]
    assert name.startswith("4 submissions")
    rows = {r[0]: r for r in tables[name][1:]}
    who = graded["who"]
    assert rows[who["timeout"][0]][1] == "timeout"
    assert rows[who["timeout"][0]][2].startswith("timeout: stopped after 8 s")
    assert rows[who["crash"][0]][1] == "crashed"
    for kind in ("not_json", "not_a_notebook"):
        assert rows[who[kind][0]][1] == "not a notebook"
    slow = tables["The 10 slowest submissions"]
    assert slow[1][0] == who["timeout"][0]  # it ran until the notebook's time limit
    seconds = [float(r[1]) for r in slow[1:]]
    assert seconds == sorted(seconds, reverse=True) and seconds[0] >= 8


def test_the_report_shows_the_scores_and_the_pass_rates(graded):
    tables = html_tables(graded["report"])
    grades = graded["results"]["grades"]
    group = [g for g in grades if g["assignment"] == "01_algorithm"]
    full = sum(g["total"] >= 9 for g in group)
    hist = tables["Totals of 01_algorithm"]
    assert hist[-1][0] == "full marks, 9" and int(hist[-1][1]) == full
    assert sum(int(r[1]) for r in hist[1:]) == len(group) == 58
    ran = [g for g in group if g["tasks"]]
    functions = {r[0]: r for r in tables["Graded functions of 01_algorithm"][1:]}
    for name in TASKS:
        right = sum(t["passed"] == t["cases"] for g in ran for t in g["tasks"]
                    if t["name"] == name)
        assert functions[name][3] == f"{round(100 * right / len(ran))} % ({right} of {len(ran)})"
    # the third public case of update (a score of exactly 0) is failed by the strict,
    # no-offset and flipped answers, and those that never answered
    cases = tables["Cases of update (01_algorithm): the share of students that passed each"]
    passed = sum(t["details"][2]["passed"] for g in ran for t in g["tasks"]
                 if t["name"] == "update")
    assert cases[3][:3] == ["3", "public", TASKS["update"].public[2].about]
    assert cases[3][3] == f"{round(100 * passed / 58)} % ({passed} of 58)"
    assert passed == 58 - 6 - 5 - 4 - 3 - 2  # strict, no offset, flipped, blank, stopped
    s = classstats.scores(grades, "01_algorithm")
    assert f"mean {num(s['mean'])} and median {num(s['median'])} of 9" in graded["report"]


def test_the_report_is_one_self_contained_page_with_named_figures(graded):
    page = graded["report"]
    assert "<script" not in page and "@import" not in page
    assert re.findall(r"<link[^>]*>", page) == ['<link rel="icon" href="data:,">']
    addresses = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert addresses <= {"http://www.w3.org/2000/svg"}
    assert set(re.findall(r"url\(([^)]*)\)", page)) <= {"#h0-hatch"}
    svgs = re.findall(r"<svg[^>]*>.*?</svg>", page, re.DOTALL)
    assert len(svgs) == 2  # the histogram and the functions' pass rates
    for svg in svgs:
        assert 'role="img"' in svg and re.search(r'aria-label="[^"]{20,}"', svg)
        assert re.search(r"<desc>[^<]{40,}</desc>", svg)
    for svg_name in ("Histogram of the totals", "Share of students with every case right"):
        assert svg_name in page
    assert 'name="viewport"' in page and "prefers-color-scheme: dark" in page
    assert "The functions, and who wrote them the same way" in html_tables(page)


def test_the_similar_functions_are_in_the_report_and_unused_in_scores(graded):
    similar = graded["results"]["similar"]
    assert similar, "30 identical right answers are similar"
    table = html_tables(graded["report"])["The functions, and who wrote them the same way"]
    assert len(table) == len(similar) + 1
    biggest = max(similar, key=lambda s: len(s["students"]))
    assert any(r[1] == biggest["function"] and r[3].startswith(f"{len(biggest['students'])} ")
               for r in table[1:])
    assert float(graded["rows"]["Student 02 (1002)"]["total"]) == 9  # listed, never used


def _read(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_exports_parse_back_to_the_same_totals(graded):
    out, rows = graded["out"], graded["rows"]
    by_id = {r["id"]: r for r in rows.values()}
    canvas = _read(out / "export-canvas.csv")
    assert list(canvas[0]) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                               "01_algorithm"]
    moodle = _read(out / "export-moodle.csv")
    assert list(moodle[0]) == MOODLE
    gradescope = _read(out / "export-gradescope.csv")
    exported = {}
    for r in canvas:
        exported.setdefault(r["ID"], {})["canvas"] = r["01_algorithm"]
    for r in moodle:
        exported.setdefault(r["Identifier"].removeprefix("Participant "), {})["moodle"] = \
            r["Grade"]
    email_to_id = {f"student{k:02d}@example.org": student(k)[1] for k in range(1, 61)}
    email_to_id["late@example.org"] = "2000"
    for r in gradescope:
        exported.setdefault(email_to_id[r["Email"]], {})["gradescope"] = r["Total Score"]
    unreadable = {student(k)[1] for k in (57, 58)}  # not notebooks: no assignment
    for ident, row in by_id.items():
        if ident in unreadable:
            assert ident not in exported
            continue
        systems = exported[ident]
        # 1060 is not in the roster: no e-mail, and its id is Moodle's (from the file
        # names), which is no Canvas id
        want = {"moodle"} | ({"canvas", "gradescope"} if ident != "1060" else set())
        assert set(systems) == want, ident
        for total in systems.values():
            assert float(total) == float(row["total"]), ident
    assert exported["2000"] == {"canvas": "", "moodle": "", "gradescope": ""}
    tables = html_tables(graded["report"])
    left = {(r[0], r[1]) for r in tables["Students not exported"][1:]}
    assert ("export-gradescope.csv", "Student 60 (1060)") in left
    for name in ("export-canvas.csv", "export-moodle.csv", "export-gradescope.csv"):
        for k in (57, 58):
            assert (name, f"Student {k} ({student(k)[1]})") in left


def test_the_adjustments_are_in_the_gradebook_feedback_report_and_exports(graded):
    rows, out, results = graded["rows"], graded["out"], graded["results"]
    assert float(rows["Student 31 (1031)"]["adjustment"]) == 1
    assert float(rows["Student 31 (1031)"]["total"]) == \
        float(rows["Student 31 (1031)"]["graded"]) + 1
    assert float(rows["Student 53 (1053)"]["total"]) == 2  # blank, and 2 read by hand
    assert float(rows["Student 01 (1001)"]["total"]) == 7.5  # right, then -1.5
    assert float(rows["Student 02 (1002)"]["adjustment"]) == 0
    text = (out / "feedback" / "Student 01_1001.txt").read_text()
    assert "-1.5 on total: copied the explanation, see e-mail" in text
    page = (out / "feedback" / "Student 01_1001.html").read_text()
    assert "copied the explanation, see e-mail" in page and "7.5 of 9" in page
    sha = hashlib.sha256((graded["base"] / "adjustments.csv").read_bytes()).hexdigest()
    assert results["inputs"]["adjustments"]["sha256"] == sha
    assert len(results["inputs"]["adjustments"]["rows"]) == 3
    table = html_tables(graded["report"])["Adjustments applied after grading"]
    assert {(r[0], r[1], r[2]) for r in table[1:]} == {
        ("Student 31 (1031)", "update", "+1"), ("Student 53 (1053)", "total", "+2"),
        ("Student 01 (1001)", "total", "-1.5")}
    moodle = {r["Identifier"]: r for r in _read(out / "export-moodle.csv")}
    assert moodle["Participant 1001"]["Grade"] == "7.5"
    assert "Adjusted -1.5: copied the explanation" in moodle["Participant 1001"][
        "Feedback comments"]


def test_the_feedback_page_shows_expected_received_and_the_hint(graded):
    out = graded["out"]
    strict = graded["who"]["strict"][0]  # "Student 31 (1031)"
    name = strict.replace(" (", "_").rstrip(")")
    page = (out / "feedback" / f"{name}.html").read_text()
    record = next(g for g in graded["results"]["grades"]
                  if f"{g['student']} ({g['student_id']})" == strict)
    update = next(t for t in record["tasks"] if t["name"] == "update")
    first = next(d for d in update["details"] if not d["passed"])
    assert f"Case {first['case']} ({first['kind']} case): {first['about']}" in page
    assert "<dt>Expected</dt>" in page and "<dt>Received</dt>" in page
    assert "<dt>Hint</dt>" in page and "<code>&lt;= 0</code>" in page
    # the failing inputs the text feedback shows, the page shows too
    text = (out / "feedback" / f"{name}.txt").read_text()
    inputs = [line.strip().removeprefix("input: ") for line in text.splitlines()
              if line.strip().startswith("input: ")]
    assert inputs and all(f"<dt>Input</dt><dd><code>{html.escape(i, quote=True)}</code>"
                          in page for i in inputs)
    assert f"{update['passed']} of {update['cases']} cases right" in page
    assert 'href="Student 31_1031.txt"' in page


def test_the_terminal_prints_a_short_summary(graded):
    printed = graded["printed"]
    assert "Class: 60 submissions; statuses: 56 ok, 1 timeout, 1 crashed, 2 not a notebook" \
        in printed
    s = classstats.scores(graded["results"]["grades"], "01_algorithm")
    assert f"01_algorithm: 58 students, mean {num(s['mean'])}, median {num(s['median'])} of 9" \
        in printed
    assert f"Report: {graded['out'] / 'report.html'}" in printed
    assert "Needs attention: Files that are not notebooks, or cannot be read (2); Stopped " \
           "at their time limit (1); Crashed before finishing (1); " in printed
    assert "roster: 59 submissions matched; 1 with no roster row, 1 roster row with no " \
           "submission" in printed
    assert "no submission: line 61: Late Joiner (2000)" in printed


def test_a_rerun_takes_the_grades_from_the_cache_and_keeps_the_adjustments(graded):
    code, printed, _ = run(graded["args"])
    assert code == 0
    assert "60 submissions: 0 to grade, 60 unchanged" in printed
    with open(graded["out"] / "grades.csv", encoding="utf-8-sig") as fh:
        again = {f"{r['student']} ({r['id']})": r for r in csv.DictReader(fh)}
    assert {k: r["total"] for k, r in again.items()} == \
        {k: r["total"] for k, r in graded["rows"].items()}
    assert float(again["Student 01 (1001)"]["total"]) == 7.5  # applied once, not twice


# ------------------------------------------------------------------ the numbers alone
@pytest.mark.parametrize("status, kind", [
    ("ok", "ok"), ("timeout: stopped after 60 s (the whole notebook)", "timeout"),
    ("exited before finishing", "crashed"), ("answers too large", "crashed"),
    ("not a notebook: no list of cells", "not a notebook"),
    ("no notebook in the submission (an empty folder)", "no notebook"),
    ("wrong assignment: the notebook is 02_offset, graded as 01_algorithm", "wrong assignment"),
    ("grader error: OSError: boom", "grader error"), ("something new: details", "something new"),
])
def test_status_kinds(status, kind):
    assert classstats.status_kind(status) == kind


def test_histogram_bins_hold_every_total_once():
    bins = classstats.histogram([0, 0.5, 1, 8.99, 9, 9.5, -1], 9)
    assert [b["label"] for b in bins][:2] == ["0–1", "1–2"] and len(bins) == 10
    assert [b["count"] for b in bins] == [3, 1, 0, 0, 0, 0, 0, 0, 1, 2]
    assert bins[-1]["full"] and not bins[0]["full"]
    wide = classstats.histogram([12.5, 25], 25)
    assert len(wide) == 11 and wide[5]["count"] == 1 and wide[-1]["count"] == 1


@pytest.mark.parametrize("detail, expected", [
    ({"hint": "use `> 0`"}, (True, "use `> 0`")),
    ({"error": "no function named predict was defined"}, (False, "the function is not defined")),
    ({"error": "NotImplementedError"}, (False, "not written yet (raises NotImplementedError)")),
    ({"error": "timed out (2 s per call)"}, (False, "timed out (a call ran past its time limit)")),
    ({"error": "ValueError: shapes (3,) and (2,) not aligned"}, (False, "raised ValueError")),
    ({"error": "stopped: it ended the process (exit code 1) (2 s per call)"},
     (False, "stopped: it ended the process")),
    ({"error": "expected 1, got 2"}, (False, "a wrong answer that is none of the known mistakes")),
])
def test_failures_are_named_by_what_went_wrong(detail, expected):
    assert classstats.failure(detail) == expected


# ------------------------------------------------------------------ grades.csv
def test_grades_csv_starts_with_one_byte_order_mark_and_reads_back(tmp_path):
    g = {"student": "Zoë Ångström", "student_id": "7", "assignment": "01_algorithm",
         "status": "ok", "tasks": [], "total": 0.0, "max": 9.0, "warnings": [], "notes": []}
    gradebook.write_csv(tmp_path / "grades.csv", [g])
    data = (tmp_path / "grades.csv").read_bytes()
    assert data.startswith(codecs.BOM_UTF8) and data.count(codecs.BOM_UTF8) == 1
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8-sig") as fh:
        (row,) = csvsafe.dict_reader(fh)
    assert row["student"] == "Zoë Ångström" and row["id"] == "7"


# ------------------------------------------------------------------ records made here
def _rec(name: str, sid: str, **more) -> dict:
    g = {"student": name, "student_id": sid, "assignment": "01_algorithm", "status": "ok",
         "tasks": [], "total": 9.0, "max": 9.0, "warnings": [], "notes": [],
         "feedback_html": f"feedback/{name}_{sid}.html", "seconds": 1.0}
    g.update(more)
    return g


def _task(name: str, cases: int, details: list[dict]) -> dict:
    return {"name": name, "points": 0.0, "max_points": float(TASKS[name].points),
            "passed": 0, "cases": cases, "feedback": [], "details": details}


LONG = ("IndexError: index 5 is out of bounds for axis 0 with size 5, which the function "
        "reached by looping one step past the last example of the training set")


def test_failures_are_grouped_by_student_and_cut_at_a_word_boundary():
    failed = [{"case": k, "kind": "grading", "passed": False,
               "error": f"your function raised {LONG.replace('index 5', f'index {k}')}"}
              for k in range(1, 13)]
    odd = [{"case": 1, "passed": False, "error": "the kernel said 0xdeadbeef and left"}]
    records = [_rec("Ada", "1", tasks=[_task("update", 12, failed)], total=6.0),
               _rec("Alan", "2", tasks=[_task("predict", 1, odd)], total=7.0)]
    assert classstats.failure(failed[0]) == (False, "raised IndexError")
    assert classstats.failure(odd[0]) == (False, classstats.OTHER)
    page = report.report_html(records, report.RunInfo(submissions="subs"))
    tables = html_tables(page)
    other = tables["Other failures, the most common first"]
    assert [(r[0], r[1], r[3]) for r in other[1:]] == [
        ("raised IndexError", "update", "12"), (classstats.OTHER, "predict", "1")]
    each = tables["Other failures, student by student"]
    assert [r[:2] for r in each[1:]] == [["Ada (1)", "12"], ["Alan (2)", "1"]]
    said = re.search(r"<q>(.*?)</q>", page)[1]
    assert said.endswith("…") and len(said) <= report.SAID_SHOWN + 1
    shown = said.removesuffix("…")
    message = LONG.replace("index 5", "index 1")
    assert message.startswith(shown) and not message[len(shown)].isalnum()
    assert "0xdeadbeef" in each[2][2]


@pytest.mark.parametrize("limit", [5, 12, 30, 44, 79])
def test_a_shortened_text_never_ends_inside_a_word(limit):
    text = " ".join(LONG.split())
    cut = shorten(text, limit).removesuffix("…")
    assert text.startswith(cut) and cut
    assert len(cut) <= limit or " " not in cut
    assert not (cut[-1].isalnum() and text[len(cut)].isalnum())


def test_the_students_table_says_roster_names_lateness_and_adjustments():
    deadline = datetime(2025, 3, 1, 23, 59, tzinfo=UTC)
    ada, alan, grace = ("lovelaceada", "1"), ("turingalan", "2"), ("hoppergrace", "3")
    late = LatePolicy(deadline, 1.0, False, "times.csv", "",
                      times={ada: deadline + timedelta(hours=30),
                             grace: deadline + timedelta(days=2)},
                      unknown=[alan], extensions={grace: deadline + timedelta(days=3)})
    penalty = {"function": "total", "points": -1.0, "reason": "late", "source": "late policy"}
    records = [_rec("lovelaceada", "1", adjustments=[penalty, {**penalty, "source": "a.csv",
                                                              "function": "update",
                                                              "points": 0.5}]),
               _rec("turingalan", "2", warnings=[CANVAS_LATE], adjustments=[penalty],
                    status="several notebooks (a.ipynb, b.ipynb) and nothing recorded says "
                           "which is the last: choose one with --choose 'STUDENT=FILE'"),
               _rec("hoppergrace", "3")]
    matched = RosterMatch(pairs={ada: RosterEntry("1", "Ada King", line=2)})
    page = report.report_html(records, report.RunInfo(submissions="subs", late=late,
                                                      matched=matched))
    table = html_tables(page)["The 3 students, by name"]
    assert table[0] == ["Student", "Id", "Total", "Status", "Late", "Adjustments",
                        "Feedback page"]
    rows = {r[1]: r for r in table[1:]}
    assert [r[1] for r in table[1:]] == ["1", "3", "2"]  # by the names shown
    assert rows["1"][0] == "Ada King submitted as lovelaceada"
    assert rows["1"][4:] == ["2 days late", "-1 late; +0.5 on update", "lovelaceada_1.html"]
    assert rows["2"][3].startswith("several notebooks: (a.ipynb, b.ipynb) and nothing")
    assert rows["2"][4] == "1 day late (Canvas marks the file LATE; no time known)"
    assert rows["3"][4] == "on time; extension to 2025-03-04 23:59"
    assert rows["3"][5] == "—"
    items = _attention(page)
    assert any(i.startswith("Several notebooks and nothing says which to grade")
               and i.endswith("'STUDENT=FILE' (1): turingalan (2)") for i in items), items
    assert "1 extension" in page and "2 late submissions (1 of them marked LATE" in page
