"""The words sent to a model, built from the seat's view only.

GTBench's four parts, in order: a system prompt; the game's rules
(``GameSpec.rules_for_llm``); the observation — the seat's text view (``SeatView.text``, the
same view a screen reader gets, so hidden cards never reach it) and the legal moves with
their labels (or, for games with hundreds of them, the renderer's ``legal_summary``); and the
mode's instruction. Golden snapshots of every prompt live in
``tests/golden/prompts`` (regenerate with ``python scripts/golden_prompts.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agents.base import SeatView
from agents.llm.chat import Turn
from renderers import renderer_for

SYSTEM = (
    "You are a strong and careful game player. You are playing {title} against an opponent. "
    "Follow the user's instructions exactly, and always choose one of the legal moves you "
    "are given."
)

SYSTEM_OWN = (
    "You are a strong and careful game player. You are playing {title} with other players. "
    "Follow the user's instructions exactly."
)

FINAL_LINE = (
    "Then end your reply with one final line of the form\n"
    "Final answer: <move>\n"
    "where <move> is one of the legal moves, written exactly as in the list."
)

_INSTRUCTIONS = {
    ("prompt", False): (
        "Choose your move. Reply with the move only, written exactly as in the list of legal "
        "moves, with no explanation."
    ),
    ("cot", False): (
        "Think step by step: what the position is, what the sensible moves lead to and what "
        "your opponent may do. " + FINAL_LINE
    ),
    ("prompt", True): (
        'Reply with a JSON object of the form {"move": "<move>"}, where <move> is one of the '
        "legal moves, written exactly as in the list. Write nothing else."
    ),
    ("cot", True): (
        'Reply with a JSON object of the form {"thinking": "<your reasoning>", "move": '
        '"<move>"}: first reason step by step in "thinking", then put one of the legal moves, '
        'written exactly as in the list, in "move". Write nothing else.'
    ),
}

THOUGHT = (
    "Do not choose a move yet. Think step by step about the position: what matters now, "
    "which legal moves are worth considering and why, and what your opponent may do next. "
    "Write your analysis only."
)

VOTE = (
    "Below are {count} {things}, numbered 1 to {count}.\n\n{numbered}\n\n"
    "Decide which {thing} is {quality}. Compare them briefly, then end with the line\n"
    "The best choice is <number>"
)

_VOTE_WORDS = {
    "thought": ("analyses", "analysis", "the most accurate and the most useful for choosing "
                "a strong move"),
    "move": ("candidate moves, each with the reasoning behind it", "candidate",
             "the strongest move"),
}

_BEST = re.compile(r"best\s+choice\s+is\D{0,20}?(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class Position:
    """What every prompt of one decision shares: the system prompt and the observation.

    ``own_format``: the observation is the game's own prompt (GAMA-Bench's), which already
    says how to answer (one JSON field), so the instructions only add how to reason.
    """

    system: str
    context: str
    labels: tuple[str, ...]
    own_format: bool = False
    free_form: str | None = None
    """Games played by talking: the form of the moves in the seat's own words (a clue, a
    question), when some legal move takes words; the answer is then free text."""


_OWN_FORMAT = {
    "prompt": "Reply with that JSON object only.",
    "cot": "Let's think step by step. Then end your reply with that JSON object.",
}


def position(view: SeatView, *, image: bool) -> Position:
    """The system prompt, rules, text view and legal moves of ``view``.

    Games whose renderer writes its own prompt (GAMA-Bench's: the rules with the session's
    parameters, the previous rounds as the seat saw them, one JSON field to answer) use it
    as the observation, as GAMA-Bench does.
    """
    spec = view.game
    labels = tuple(move.label for move in view.legal)
    seen = "\nThe attached image shows the same position, as you see it." if image else ""
    own = renderer_for(spec.id).prompt
    if own is not None:
        context = f"# {spec.title}\n\n{own(view.state, view.seat).strip()}{seen}"
        return Position(SYSTEM_OWN.format(title=spec.title), context, labels, own_format=True)
    worded = [move for move in view.legal if move.says]
    form = spec.grammar.free_text
    listed = [move.label for move in view.legal if not move.says]
    summary = renderer_for(spec.id).legal_summary
    moves = ""
    if summary is not None and listed:  # too many to list (Sea Battle's 512 orders)
        moves = summary(view.state, view.seat, listed)
    elif listed:
        moves = ("You may play exactly one of these moves, written as shown (one per line):\n"
                 + "\n".join(listed))
    if worded and form is not None:  # the canned words are only an example
        moves += ("\n\nOr " if listed else "") + (
            f"{'a' if listed else 'A'} move in your own words, written as {form.hint} (for "
            f"example: {worded[0].label})")
    context = (
        f"# {spec.title}\n\n## Rules\n{spec.rules_for_llm.strip()}\n\n"
        f"## Your view of the game\n{view.text.strip()}{seen}\n\n## Legal moves\n{moves}"
    )
    system = SYSTEM.format(title=spec.title)
    if view.state.num_players() > 2:  # a table (the talking games): teammates and rivals
        system = system.replace("against an opponent",
                                f"with {view.state.num_players() - 1} other players")
    return Position(system, context, labels,
                    free_form=form.hint if worded and form is not None else None)


def instruction(reasoning: str, structured: bool, where: Position | None = None) -> str:
    """What to answer: ``prompt`` (the move only) or ``cot`` (reasoning, then the move)."""
    style = "prompt" if reasoning == "prompt" else "cot"
    if where is not None and where.own_format and not structured:
        return _OWN_FORMAT[style]
    return _INSTRUCTIONS[(style, structured)]


def ask(where: Position, what: str) -> str:
    """The user turn: the observation followed by the instruction."""
    return f"{where.context}\n\n## What to answer\n{what}"


def ask_again(answer: str, feedback: str, what: str) -> tuple[Turn, ...]:
    """The turns that send a rejected answer back with the adapter's message."""
    turns = (Turn("assistant", answer),) if answer.strip() else ()
    return (*turns, Turn("user", f"Your answer was not accepted: {feedback}\n\n{what}"))


def move_after_thought(thought: str, structured: bool) -> str:
    """ToT's second step: choose a move building on the chosen analysis."""
    what = instruction("cot", structured)
    return (f"Here is an analysis of the position:\n\n{thought.strip()}\n\n"
            f"Building on it, {what[0].lower()}{what[1:]}")


def vote(kind: str, entries: list[str]) -> str:
    """A ToT vote over numbered analyses (``thought``) or candidate moves (``move``)."""
    things, thing, quality = _VOTE_WORDS[kind]
    title = "Analysis" if kind == "thought" else "Candidate"
    numbered = "\n\n".join(f"{title} {i + 1}:\n{entry.strip()}" for i, entry in enumerate(entries))
    return VOTE.format(count=len(entries), things=things, thing=thing, quality=quality,
                       numbered=numbered)


def read_vote(text: str, count: int) -> int | None:
    """The 0-based choice in a vote answer (its last "The best choice is N"), or None."""
    found = _BEST.findall(text)
    if not found:
        return None
    choice = int(found[-1])
    return choice - 1 if 1 <= choice <= count else None


MAX_ENUM = 200
"""More legal labels than this (Sea Battle's 512 orders) are not listed in the schema: the
providers cap the size of an enum; ``move`` is then any string, read by the adapter."""


def answer_schema(labels: tuple[str, ...], *, thinking: bool,
                  free: bool = False) -> dict[str, Any]:
    """A JSON schema whose ``move`` must be one of the legal labels (``thinking`` first); any
    text when ``free`` (a move in the seat's own words, checked by the adapter) or when there
    are more than :data:`MAX_ENUM` labels."""
    properties: dict[str, Any] = {}
    if thinking:
        properties["thinking"] = {"type": "string"}
    listed = not free and len(labels) <= MAX_ENUM
    properties["move"] = {"type": "string", "enum": list(labels)} if listed \
        else {"type": "string"}
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}
