"""The publishing workflow (.github/workflows/book.yml), the site's address, the README."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"
PAGES_ACTIONS = ("actions/configure-pages", "actions/upload-pages-artifact",
                 "actions/deploy-pages")


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    data = yaml.safe_load(WORKFLOW.read_text())
    # YAML 1.1 reads the key `on` as the boolean True.
    data["on"] = data.pop(True, data.get("on"))
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return job.get("steps", [])


def step_using(job: dict[str, Any], action: str) -> dict[str, Any] | None:
    for step in steps(job):
        if step.get("uses", "").split("@")[0] == action:
            return step
    return None


def job_running(workflow: dict[str, Any], command: str) -> str:
    """The name of the job with a step that runs ``command``."""
    found = [name for name, job in workflow["jobs"].items()
             if any(command in step.get("run", "") for step in steps(job))]
    assert len(found) == 1, (command, found)
    return found[0]


def evaluate(expression: str, event: str, ref: str, env: dict[str, str] | None = None) -> bool:
    """Evaluate a GitHub Actions condition made of ==, !=, &&, || on github.event_name,
    github.ref and env.NAME (the only ones this workflow uses) for one run."""
    text = expression.strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    values = {"github.event_name": event, "github.ref": ref}
    for name, value in (env or {}).items():
        values[f"env.{name}"] = value
    unknown = set(re.findall(r"[a-z_]+\.[A-Za-z_]+", text)) - set(values)
    assert not unknown, f"unexpected names in {expression!r}: {unknown}"
    for name, value in values.items():
        text = text.replace(name, repr(value))
    text = text.replace("&&", " and ").replace("||", " or ")
    rest = re.sub(r"'[^']*'", "", text)  # what is left besides the string literals
    assert re.fullmatch(r"(\s|\(|\)|==|!=|and|or)*", rest), text
    return bool(eval(text, {"__builtins__": {}}))  # only literals and comparisons remain


RUNS = [  # event, ref, should it deploy?
    ("push", "refs/heads/main", True),
    ("workflow_dispatch", "refs/heads/main", True),
    ("push", "refs/heads/chapter-7", False),
    ("pull_request", "refs/pull/12/merge", False),
    ("pull_request", "refs/heads/main", False),
]


def test_runs_on_every_push_and_pull_request(workflow):
    on = workflow["on"]
    assert "push" in on and "pull_request" in on
    for event in ("push", "pull_request"):  # no branch or path filter
        assert not (on[event] or {}).get("branches") and not (on[event] or {}).get("paths")


def test_builds_the_book_with_the_readme_command(workflow):
    readme = (ROOT / "README.md").read_text()
    assert "python3 tasks.py book" in readme
    build = workflow["jobs"][job_running(workflow, "python3 tasks.py book")]
    commands = [step["run"].strip() for step in steps(build) if "run" in step]
    assert "python3 tasks.py book" in commands
    python = step_using(build, "actions/setup-python")
    assert python and python["with"]["python-version"] in ("3.11", "${{ env.PYTHON_VERSION }}")
    assert workflow["env"]["PYTHON_VERSION"] == "3.11"
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert runtime == f"python-{workflow['env']['PYTHON_VERSION']}"


def test_runs_the_readme_test_command_as_ci_does(workflow):
    assert "python3 tasks.py test" in (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^python3 tasks\.py test\s*$", ci, re.M)
    name = job_running(workflow, "bash .ci/run")
    job = workflow["jobs"][name]
    # .ci/run installs Debian packages with apt-get as root: a Debian image runs as root,
    # privileged so that bubblewrap can make namespaces.
    container = job["container"]
    assert re.fullmatch(r"python:3\.11(\.\d+)?-(bookworm|trixie)", container["image"])
    assert "--privileged" in container.get("options", "")


def test_caches_the_environment_and_the_execution_cache(workflow):
    build = workflow["jobs"][job_running(workflow, "python3 tasks.py book")]
    caches = {step["with"]["path"]: step for step in steps(build)
              if step.get("uses", "").startswith("actions/cache@")}
    assert set(caches) == {".venv", "_build/.jupyter_cache"}
    venv_key = caches[".venv"]["with"]["key"]
    for pinned in ("requirements.txt", "constraints.txt", "pyproject.toml"):
        assert pinned in venv_key, pinned
    assert "steps.python.outputs.python-version" in venv_key
    book_key = caches["_build/.jupyter_cache"]["with"]["key"]
    assert "book/**/*.ipynb" in book_key and "perceptron_lib/" in book_key
    assert "steps.python.outputs.python-version" in book_key
    # A fallback cache is taken only from runs with the same library, pins and Python.
    fallback = caches["_build/.jupyter_cache"]["with"]["restore-keys"].strip()
    assert book_key.startswith(fallback) and "book/**" not in fallback
    steps_order = [s.get("uses", s.get("run", "")) for s in steps(build)]
    assert steps_order.index(caches[".venv"]["uses"]) < steps_order.index("python3 tasks.py book")

    test = workflow["jobs"][job_running(workflow, "bash .ci/run")]
    cached = [s for s in steps(test) if s.get("uses", "").startswith("actions/cache@")]
    assert [s["with"]["path"] for s in cached] == [".venv"]
    for pinned in ("requirements.txt", "constraints.txt", "pyproject.toml", "outputs.version"):
        assert pinned in cached[0]["with"]["key"], pinned
    # the two jobs' environments differ (another Python), so their keys must too
    assert cached[0]["with"]["key"] != venv_key


def test_deploys_the_built_site_only_from_main(workflow):
    jobs = workflow["jobs"]
    build_name = job_running(workflow, "python3 tasks.py book")
    build = jobs[build_name]
    upload = step_using(build, "actions/upload-pages-artifact")
    configure = step_using(build, "actions/configure-pages")
    assert upload and configure
    assert upload["with"]["path"] == "_build/html"
    deployers = [name for name, job in jobs.items() if step_using(job, "actions/deploy-pages")]
    assert len(deployers) == 1
    deploy = jobs[deployers[0]]
    needs = deploy["needs"] if isinstance(deploy["needs"], list) else [deploy["needs"]]
    assert build_name in needs
    assert job_running(workflow, "bash .ci/run") in needs  # only a tested commit goes out
    env = {"DEPLOY": None}
    for event, ref, expected in RUNS:
        env["DEPLOY"] = str(evaluate(workflow["env"]["DEPLOY"], event, ref)).lower()
        assert evaluate(deploy["if"], event, ref) is expected, (event, ref)
        for step in (upload, configure):
            assert evaluate(step["if"], event, ref, env) is expected, (event, ref, step)


def test_pages_permissions_and_environment(workflow):
    assert workflow["permissions"] == {"contents": "read"}  # nothing more by default
    jobs = workflow["jobs"]
    deploy = next(job for job in jobs.values() if step_using(job, "actions/deploy-pages"))
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert "steps.deployment.outputs.page_url" in deploy["environment"]["url"]
    assert step_using(deploy, "actions/deploy-pages")["id"] == "deployment"
    for name, job in jobs.items():
        if job is not deploy:
            granted = job.get("permissions", {})
            assert "write" not in granted.values(), name
            assert "id-token" not in granted, name


def test_actions_are_official_and_pinned_to_a_major_version(workflow):
    used = [step["uses"] for job in workflow["jobs"].values() for step in steps(job)
            if "uses" in step]
    assert used
    for action in used:
        assert re.fullmatch(r"actions/[a-z-]+@v\d+", action), action
    names = {action.split("@")[0] for action in used}
    assert set(PAGES_ACTIONS) <= names


def test_site_address_matches_the_repository():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = re.fullmatch(r"https://github\.com/([\w.-]+)/([\w.-]+?)/?", config["repository"]["url"])
    assert repo, config["repository"]["url"]
    owner, name = repo.groups()
    # GitHub Pages serves a project site at https://OWNER.github.io/REPO/ (and the
    # repository OWNER.github.io at the root).
    if name.lower() == f"{owner.lower()}.github.io":
        expected = f"https://{owner.lower()}.github.io/"
    else:
        expected = f"https://{owner.lower()}.github.io/{name}/"
    assert config["html"]["baseurl"] == expected


def test_readme_documents_lab_pack_and_publishing():
    readme = (ROOT / "README.md").read_text()
    for text in ("python3 tasks.py lab", "python3 tasks.py pack", "--no-browser", "--port",
                 "--allow-root", "START.ipynb", "_build/perceptron-course-exercises.zip",
                 ".github/workflows/book.yml", "GitHub Actions", "baseurl",
                 "https://OWNER.github.io/REPO/", "launch_buttons", "repository:",
                 "setup cell"):
        assert text in readme, text
