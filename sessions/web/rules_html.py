"""A game's rules for the page: our own Markdown (``games/rules/<game>.md``, trusted text
we write) rendered formatted, with the notes for developers (how this version differs from
GameBench or the printed game) in a fold of their own below the rules a player reads.

Raw HTML inside the Markdown is shown as text, not run; ``$`` is written as an entity so
that the page's formula rendering leaves prices and placeholders alone.
"""

from __future__ import annotations

import functools
import re

from markdown_it import MarkdownIt

NOTES_TITLE = "Notes for developers: how this version differs"
NOTE_START = re.compile(r"^\s*(?:#+\s*)?(?:\*\*|_)?\s*(?:where|how) (?:this|it) (?:version )?"
                        r"differs", re.IGNORECASE)
"""The first line of the developers' notes: a heading or a paragraph opening with "Where
this differs" / "How this differs" (bold or not)."""
HEADING = re.compile(r"^\s*#{1,6}\s")


@functools.cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def split_notes(text: str) -> tuple[str, str]:
    """``text`` cut into (the rules a player reads, the developers' notes): the notes run
    from the first block that opens them to the next heading that is not a note, or the
    end."""
    blocks = re.split(r"\n\s*\n", text.strip())
    rules: list[str] = []
    notes: list[str] = []
    in_notes = False
    for block in blocks:
        if NOTE_START.match(block):
            in_notes = True
        elif in_notes and HEADING.match(block):
            in_notes = False
        (notes if in_notes else rules).append(block)
    return "\n\n".join(rules), "\n\n".join(notes)


def render(markdown: str) -> str:
    """``markdown`` as HTML (tables, lists, emphasis, code; raw HTML shown as text)."""
    return _markdown().render(markdown).replace("$", "&#36;")


def rules_html(text: str) -> str:
    """The rules block of the Play tab: formatted rules, then the notes in a closed fold."""
    rules, notes = split_notes(text)
    html = f"<div class='arena-rules'>{render(rules)}"
    if notes:
        html += (f"<details class='arena-dev-notes'><summary>{NOTES_TITLE}</summary>"
                 f"{render(notes)}</details>")
    return html + "</div>"
