"""The thinking panel drawn as HTML, from :meth:`sessions.web.llm_panel.Panel.view`.

Every word a model wrote is escaped. ``CSS`` styles the classes used here (the page gives it
to its ``gr.HTML``).
"""

from __future__ import annotations

import html
from typing import Any

MODE_NAMES = {"prompt": "move only", "cot": "chain of thought",
              "sc-cot": "self-consistency, 5 samples", "tot": "tree of thoughts"}


def render(view: dict[str, Any]) -> str:
    """The panel as HTML (every model word escaped)."""
    parts = [_note(n) for n in view["notes"]]
    parts += [_turn(turn) for turn in view["turns"]]
    if view["earlier"]:
        parts.append("<details class='llm-earlier'><summary>Earlier moves "
                     f"({len(view['earlier'])})</summary>"
                     + "".join(_turn(t) for t in view["earlier"][:30]) + "</details>")
    parts.append(_usage_table(view))
    if not view["turns"] and not view["notes"] and not view["moves"]:
        parts.insert(0, "<p class='llm-idle'>The model's reasoning will appear here as it "
                        "is written.</p>")
    return "<div class='llm-panel'>" + "".join(parts) + "</div>"


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _note(note: dict[str, Any]) -> str:
    return (f"<div class='llm-head llm-live'>{_e(note['name'])}: {_e(note['text'])} "
            f"<span class='llm-timer'>{note['seconds']:.1f} s</span></div>")


def _turn(turn: dict[str, Any]) -> str:
    mode = MODE_NAMES.get(turn["mode"], turn["mode"])  # None: hidden (a blind battle)
    last = turn["attempts"][-1]
    if turn["thinking"]:
        state = f"thinking… <span class='llm-timer'>{turn['seconds']:.1f} s</span>"
        if turn.get("seconds_left") is not None:
            state += f" · at most {turn['seconds_left']:.0f} s more"
    else:
        state = _ending(last["outcome"], turn["seconds"], turn["moves_hidden"])
    head = (f"<div class='llm-head{' llm-live' if turn['thinking'] else ''}'>"
            f"<b>{_e(turn['name'])}</b> · {_e(mode) + ' · ' if mode else ''}{state}</div>")
    hidden = (f"<div class='llm-hidden'>Its words are {_e(turn['text_hidden'])}.</div>"
              if turn["text_hidden"] else "")
    body = []
    for attempt in turn["attempts"]:
        if attempt["retry"]:
            body.append(f"<div class='llm-retry'>Asked again (answer {attempt['retry'] + 1}): "
                        "the last answer was not a legal move.</div>")
        body.append("<div class='llm-panes'>" + "".join(_pane(p) for p in attempt["panes"])
                    + "</div>")
        body += [_vote(v) for v in attempt["votes"]]
    return f"<div class='llm-turn'>{head}{hidden}{''.join(body)}</div>"


def _ending(outcome: dict[str, Any], seconds: float, moves_hidden: str) -> str:
    if outcome.get("failure"):
        return f"no move: {_e(outcome['failure'])} after {seconds:.1f} s"
    label = outcome.get("label")
    played = f"answered <b>{_e(label)}</b>" if label else (
        f"answered (move {_e(moves_hidden)})" if moves_hidden else "answered")
    return f"{played} in {seconds:.1f} s{_cost(outcome)}"


def _cost(usage: dict[str, Any]) -> str:
    if "prompt_tokens" not in usage:
        return ""
    about = "≈" if usage.get("estimated") else ""
    tokens = f" · {about}{usage['prompt_tokens']} + {usage['completion_tokens']} tokens"
    cost = usage.get("cost_usd")
    return tokens + (f" · ${cost:.6f}" if cost is not None else " · cost unknown")


def _pane(pane: dict[str, Any]) -> str:
    status = {"writing": "writing…", "retrying": "waiting to try again",
              "done": "done", "failed": f"failed ({pane['failure'] or 'error'})"}[pane["state"]]
    if pane["read"]:
        status += f" → {_e(pane['read'])}"
    elif pane["rejected"]:
        status += f" · not a legal move ({_e(pane['rejected'])})"
    if pane["tokens"]:
        status += f" · {pane['tokens'][0]} + {pane['tokens'][1]} tokens"
    if pane["seconds"] is not None:
        status += f" · {pane['seconds']:.1f} s"
    if pane["tries"] > 1:
        status += f" · try {pane['tries']}"
    faults = "".join(f"<div class='llm-fault'>⚠ {_e(f)}</div>" for f in pane["faults"])
    if pane["reasoning"] or pane["answer"]:
        words = (f"<span class='llm-reasoning'>{_e(pane['reasoning'])}</span>"
                 if pane["reasoning"] else "") + _e(pane["answer"])
        text = f"<div class='llm-text'><div>{words}</div></div>"
    elif pane["characters"]:
        text = f"<div class='llm-text llm-muted'>{pane['characters']} characters (hidden)</div>"
    else:
        text = ""
    return (f"<div class='llm-pane llm-{pane['state']}'><div class='llm-pane-head'>"
            f"<b>{_e(pane['stream'])}</b> {status}</div>{faults}{text}</div>")


def _vote(vote: dict[str, Any]) -> str:
    counts = ", ".join(f"{_e(k)} × {v}" for k, v in vote.get("votes", {}).items())
    winner = vote.get("winner")
    where = "" if vote["stream"] == "vote" else f" ({_e(vote['stream'])})"
    return (f"<div class='llm-votes'>Votes{where}: {counts or 'none'}"
            + (f" → <b>{_e(winner)}</b>" if winner else "") + "</div>")


def _usage_table(view: dict[str, Any]) -> str:
    rows = view["moves"]
    totals = view["session"]
    if not rows and not totals:
        return ""
    several = len({str(r["seat"]) for r in rows} | set(totals)) > 1
    head = ("<tr><th>Move</th>" + ("<th>Player</th>" if several else "")
            + "<th>Prompt tokens</th><th>Completion tokens</th><th>Calls</th>"
              "<th>Latency</th><th>Est. cost</th></tr>")
    body = []
    for row in rows[-40:]:
        move = (f"{row['number']}. {_e(row['move'])}" if row["move"] is not None
                else "(sealed)")
        if row["answers"] > 1:
            move += f" ({row['answers']} answers)"
        body.append(_usage_row(move, row["name"] if several else None, row))
    for seat, usage in totals.items():
        name = next((r["name"] for r in rows if str(r["seat"]) == seat), f"seat {seat}")
        body.append(_usage_row("<b>This game</b>", name if several else None, usage))
    return ("<table class='llm-usage'>" + head + "".join(body) + "</table>")


def _usage_row(first: str, name: str | None, usage: dict[str, Any]) -> str:
    about = "≈" if usage.get("estimated") else ""
    cost = usage.get("cost_usd")
    cells = [first] + ([_e(name)] if name is not None else []) + [
        f"{about}{usage['prompt_tokens']}", f"{about}{usage['completion_tokens']}",
        str(usage["calls"]), f"{usage['seconds']:.1f} s",
        f"${cost:.6f}" if cost is not None else "unknown"]
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


CSS = """
.llm-panel { font-size: 0.92em; }
.llm-head { margin: 0.3em 0; }
.llm-live .llm-timer { font-variant-numeric: tabular-nums; font-weight: 600; }
.llm-panes { display: grid; gap: 0.5em; grid-template-columns: repeat(auto-fit, minmax(16em, 1fr)); }
.llm-pane { border: 1px solid var(--border-color-primary, #ccc); border-radius: 6px; padding: 0.4em; }
.llm-pane.llm-failed { border-color: #c0392b; }
.llm-pane-head { font-size: 0.9em; margin-bottom: 0.2em; }
.llm-text { max-height: 14em; overflow-y: auto; display: flex; flex-direction: column-reverse;
            white-space: pre-wrap; font-family: var(--font-mono, monospace); font-size: 0.9em; }
.llm-reasoning { opacity: 0.65; font-style: italic; }
.llm-fault { color: #c0392b; font-size: 0.9em; }
.llm-hidden, .llm-muted, .llm-idle { opacity: 0.7; font-style: italic; }
.llm-retry, .llm-votes { margin: 0.3em 0; }
.llm-usage { margin-top: 0.6em; font-size: 0.9em; }
.llm-usage td, .llm-usage th { padding: 0.1em 0.6em; text-align: right; }
.llm-usage td:first-child, .llm-usage th:first-child { text-align: left; }
"""
"""Styles for :func:`render`'s classes (the page adds them to its CSS)."""
