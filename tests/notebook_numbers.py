"""Run a chapter as a reader does in JupyterLab: cells in order, each ``{eval}`` of a
Markdown cell evaluated in the kernel when its cell is reached (what ``jupyterlab-myst``
does after Run All)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_core.utils import run_sync
from nbclient import NotebookClient

EVAL = re.compile(r"\{eval\}`([^`]+)`")


@dataclass
class Shown:
    """One ``{eval}`` of a Markdown cell: where, what, and what the kernel showed."""

    cell: int
    expression: str
    text: str | None  # the kernel's text/plain, quotes of a string removed
    error: str | None


def _plain(data: dict) -> str:
    text = data.get("text/plain", "")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]  # as jupyterlab-myst shows a string
    return text


def run_in_order(path: Path, timeout: int = 300) -> list[Shown]:
    """Every ``{eval}`` of the notebook at ``path``, evaluated when its cell is reached."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name="python3", timeout=timeout,
                            resources={"metadata": {"path": str(path.parent)}})
    shown: list[Shown] = []
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
                continue
            expressions = EVAL.findall(cell.source)
            if not expressions or cell.cell_type != "markdown":
                continue
            asked = {str(k): e for k, e in enumerate(expressions)}
            msg_id = client.kc.execute("", silent=True, store_history=False,
                                       user_expressions=asked)
            while True:
                reply = run_sync(client.kc.get_shell_msg)(timeout=timeout)
                if reply["parent_header"].get("msg_id") == msg_id:
                    break
            results = reply["content"].get("user_expressions", {})
            for k, expression in asked.items():
                result = results.get(k, {})
                if result.get("status") == "ok":
                    shown.append(Shown(index, expression, _plain(result["data"]), None))
                else:
                    shown.append(Shown(index, expression, None,
                                       f"{result.get('ename')}: {result.get('evalue')}"))
    return shown
