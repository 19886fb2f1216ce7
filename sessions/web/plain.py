"""Text is text: what a person or a model typed, move labels, format hints, notices and rules go
on the page as plain text, never read as Markdown or HTML.

The page's text panels are ``gr.HTML`` components whose markup is written here: every piece of
text is escaped (``<column>R<row>`` stays visible, a backslash stays a backslash, a typed
``<img onerror=...>`` is shown, not run) and only the tags written here are markup. Gradio's
HTML component fills ``${...}`` placeholders of its template, so a ``$`` is escaped too.
"""

from __future__ import annotations

import html
import re

_BLANK_LINE = re.compile(r"\n\s*\n")


def escape(text: object) -> str:
    """``text`` as HTML that shows exactly those characters (quotes and ``$`` included)."""
    return html.escape(str(text), quote=True).replace("$", "&#36;").replace("\\", "&#92;")


def lines(text: object) -> str:
    """Escaped ``text`` with its line breaks kept."""
    return "<br>".join(escape(line) for line in str(text).split("\n"))


def paragraphs(text: object) -> str:
    """Escaped ``text`` as paragraphs: blank lines part them; inside one, a line break is a
    space (prose wrapped in the source), except before a list item (``- ``, ``* ``, ``1.``)."""
    parts = [p.strip("\n") for p in _BLANK_LINE.split(str(text).strip())]
    return "".join(f"<p>{_joined(p)}</p>" for p in parts if p.strip())


_ITEM = re.compile(r"\s*([-*•]|\d+[.)])\s")


def _joined(paragraph: str) -> str:
    out = ""
    for i, line in enumerate(paragraph.split("\n")):
        if i:
            out += "<br>" if _ITEM.match(line) else " "
        out += escape(line.strip() if i else line.rstrip())
    return out


def tag(name: str, text: object, *, cls: str = "", title: str = "") -> str:
    """``<name class=... title=...>text</name>`` with ``text`` and ``title`` escaped."""
    attributes = (f' class="{escape(cls)}"' if cls else "") + (
        f' title="{escape(title)}"' if title else "")
    return f"<{name}{attributes}>{escape(text)}</{name}>"
