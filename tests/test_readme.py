"""The README's and the docs' commands work for a newcomer who copies them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BARE = re.compile(r"^(?:\S+=\S+ )*python -m \S+", re.MULTILINE)


def _page(name: str) -> str:
    return (ROOT / "docs" / name).read_text("utf-8")


def test_the_command_line_page_says_which_python_runs_the_commands():
    """`python -m games` with a system Python fails (the project is installed in .venv):
    the page must say to use .venv/bin/python or to activate the venv, before its first
    bare `python` command."""
    page = _page("command-line.md")
    first = re.search(r"^python -m ", page, re.MULTILINE)
    assert first is not None
    before = page[: first.start()]
    assert ".venv/bin/python" in before and "source .venv/bin/activate" in before


def test_every_bare_python_command_comes_after_a_venv_note():
    for name in ("command-line.md", "benchmarks.md"):
        assert BARE.search(_page(name)), name
    for path in PAGES:
        text = path.read_text("utf-8")
        first = BARE.search(text)
        if first is not None:
            assert ".venv" in text[: first.start()], path.name
