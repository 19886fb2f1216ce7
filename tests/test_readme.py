"""The README's commands work for a newcomer who copies them."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


def test_the_command_line_section_says_which_python_runs_the_commands():
    """`python -m games` with a system Python fails (the project is installed in .venv):
    the section must say to use .venv/bin/python or to activate the venv, before its first
    bare `python` command."""
    section = _section("Command line")
    first = re.search(r"^python -m ", section, re.MULTILINE)
    assert first is not None
    before = section[: first.start()]
    assert ".venv/bin/python" in before and "source .venv/bin/activate" in before


def test_every_bare_python_command_comes_after_a_venv_note():
    for title in ("Command line", "Benchmarks"):
        section = _section(title)
        commands = re.findall(r"^(?:\S+=\S+ )*python -m \S+", section, re.MULTILINE)
        assert commands, title
        assert ".venv" in section[: section.index(commands[0])], title
