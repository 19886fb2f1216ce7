"""The thinking panel: what the language-model seats of one game are doing, as they do it.

A :class:`Panel` is fed :class:`~agents.llm.events.LLMEvent` s from the seats' worker
threads (``on_event=panel.hear``) and draws, on demand, one pane per stream — the answer of
a one-call mode, each SC-CoT sample, each ToT thought, vote and move — with the reasoning
and answer text as it arrives, the provider faults and retries as they happen, what the
legal-action adapter read, the votes, a live timer, and the tokens, latency and estimated
cost of every move and of the session (from the record, so page and record agree), and how
long a thinking seat may still take at most (``seconds_left``: its time limit, or its
first-token timeout while its provider has sent nothing), as the status line says it.
:mod:`sessions.web.llm_panel_html` draws it.

What the person may see follows the game's rules, in :meth:`Panel.view`, for the page and
the API alike: in hidden-information games a model's words may name its own cards, so the
text stays hidden until the game is over; in simultaneous games it would tell the person
the model's choice before they make theirs, so it stays hidden until the round is played;
moves the game keeps sealed (sealed bids) are not named before the end.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.llm.events import LLMEvent
from agents.llm.usage import Usage
from sessions.record import MoveRecord, shown_label
from sessions.usage import session_usage
from sessions.web.llm_panel_html import render

if TYPE_CHECKING:
    from sessions.web.live import LiveGame

MAX_TURNS = 300
"""Turns kept in memory per game (the record keeps every call's text anyway)."""
IDLE_SECONDS = 5.0
""":meth:`Panel.frames` gives up after this long with no seat thinking and nothing new."""


@dataclass
class Pane:
    """One stream of one decision."""

    stream: str
    index: int
    purpose: str = ""
    reasoning: str = ""
    answer: str = ""
    state: str = "writing"
    """``writing``, ``retrying`` (a fault, waiting to try again), ``done`` or ``failed``."""
    faults: list[str] = field(default_factory=list)
    tries: int = 1
    label: str | None = None
    rejected: str | None = None
    failure: str | None = None
    tokens: tuple[int, int] | None = None
    seconds: float | None = None


@dataclass
class Thought:
    """One decision of one seat: a move asked for (again, after a rejection, when retry>0)."""

    seat: int
    mode: str
    retry: int
    started: float
    seat_moves: int
    """How many moves the seat had in the record when it began (its turn's key)."""
    panes: dict[int, Pane] = field(default_factory=dict)
    votes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    ended: float | None = None
    outcome: dict[str, Any] | None = None


class Panel:
    """The language-model seats' thinking in one game (thread-safe)."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._thoughts: list[Thought] = []
        self._notes: dict[int, tuple[str, float]] = {}
        self._moves_of: Callable[[int], int] = lambda seat: 0
        self.version = 0
        """Counts changes, so a page redraws only when something happened."""

    # --- feeding ------------------------------------------------------------------------

    def follow(self, session: LiveGame) -> None:
        """Tie the panel to its game (to know which turn an event belongs to)."""
        record = session.record
        self._moves_of = lambda seat: sum(1 for m in record.moves if m.seat == seat)

    def hear(self, event: LLMEvent) -> None:
        """Take one event (called from the seats' worker threads)."""
        now = self._clock()
        with self._lock:
            self.version += 1
            if event.kind == "start":
                self._notes.pop(event.seat, None)
                self._thoughts.append(Thought(
                    event.seat, str(event.data.get("mode", "")), int(event.data.get("retry", 0)),
                    now, self._moves_of(event.seat)))
                del self._thoughts[:-MAX_TURNS]
                return
            thought = self._latest(event.seat)
            if thought is None:
                return
            if event.kind == "vote":
                thought.votes.append((event.stream, dict(event.data)))
            elif event.kind == "decision":
                thought.ended, thought.outcome = now, dict(event.data)
            else:
                _update(thought, event)

    def note(self, seat: int, text: str) -> None:
        """A line about a seat that has not started thinking (its server is starting)."""
        with self._lock:
            self.version += 1
            if text:
                self._notes[seat] = (text, self._clock())
            else:
                self._notes.pop(seat, None)

    def _latest(self, seat: int) -> Thought | None:
        return next((t for t in reversed(self._thoughts) if t.seat == seat), None)

    # --- what the person may see --------------------------------------------------------

    def view(self, session: LiveGame, *, reveal: bool = False) -> dict[str, Any]:
        """The panel as plain data, with the game's hiding rules applied (the API's answer
        and what :func:`render` draws); ``reveal`` shows everything (a spectator of agents
        only, with all cards face up)."""
        now = self._clock()
        with self._lock:
            turns = _turns(self._thoughts)
            notes = dict(self._notes)
            latest = {seat: key for key, (seat, _) in enumerate(turns)}
            shown = [_turn_view(session, seat, thoughts, now, latest=latest[seat] == i,
                                reveal=reveal)
                     for i, (seat, thoughts) in enumerate(turns)]
        return {
            "thinking": session.thinking,
            "notes": [{"seat": s, "name": session.seat_name(s), "text": text,
                       "seconds": round(now - since, 1)} for s, (text, since) in notes.items()],
            "turns": [turn for turn in shown if turn["latest"]],
            "earlier": [turn for turn in reversed(shown) if not turn["latest"]],
            "moves": move_rows(session, reveal=reveal),
            "session": {str(seat): usage.to_dict()
                        for seat, usage in session_usage(session.record).items()},
        }

    def frames(self, session: LiveGame, *, poll: float = 0.1,
               draw: Callable[[dict[str, Any]], str] | None = None) -> Iterator[str]:
        """Drawings of the panel while agents are to move, one whenever it changed (the
        timer changes it every tenth of a second while a seat thinks); the last one is
        drawn once the person is to move or the game is over."""
        draw = draw or render
        last, quiet = None, 0.0
        while True:
            busy = session.thinking or bool(_agents_to_move(session))
            drawn = draw(self.view(session))
            if drawn != last:
                last, quiet = drawn, 0.0
                yield drawn
            if not busy or quiet > IDLE_SECONDS:
                return
            time.sleep(poll)
            quiet = 0.0 if session.thinking else quiet + poll


# --- events into panes ------------------------------------------------------------------


def _update(thought: Thought, event: LLMEvent) -> None:
    pane = thought.panes.get(event.index)
    if pane is None:
        pane = thought.panes[event.index] = Pane(event.stream, event.index)
    data = event.data
    if event.kind == "call":
        pane.purpose = str(data.get("purpose", ""))
    elif event.kind == "token":
        if event.channel == "reasoning":
            pane.reasoning += event.text
        else:
            pane.answer += event.text
        pane.state = "writing"
    elif event.kind == "fault":
        if data.get("gave_up"):
            pane.state, pane.failure = "failed", str(data.get("reason", "api_error"))
            pane.faults.append(f"{event.text} — gave up")
        else:
            pane.state = "retrying"
            pane.faults.append(f"{event.text} — trying again in {data.get('wait', 0):.1f} s "
                               f"(try {int(data.get('try', 1)) + 1})")
    elif event.kind == "restart":
        pane.reasoning = pane.answer = ""
        pane.tries += 1
        pane.state = "writing"
    elif event.kind == "result":
        pane.failure = data.get("failure") or pane.failure
        pane.state = "failed" if pane.failure else "done"
        pane.label, pane.rejected = data.get("label"), data.get("rejected")
        pane.tokens = (int(data.get("prompt_tokens") or 0),
                       int(data.get("completion_tokens") or 0))
        pane.seconds = data.get("seconds")


def _turns(thoughts: list[Thought]) -> list[tuple[int, list[Thought]]]:
    """Thoughts grouped by (seat, turn), in the order turns began."""
    groups: dict[tuple[int, int], list[Thought]] = {}
    for thought in thoughts:
        groups.setdefault((thought.seat, thought.seat_moves), []).append(thought)
    return [(seat, group) for (seat, _), group in groups.items()]


# --- hiding rules -----------------------------------------------------------------------


def hiding(session: LiveGame, turn_played: bool) -> tuple[str, str]:
    """(why the text is hidden or "", why move names are hidden or "") for a turn."""
    spec = session.spec
    if session.over:
        return "", ""
    simultaneous = spec.taxonomy.dynamics == "simultaneous"
    text = ""
    if spec.taxonomy.information == "incomplete":
        text = "hidden until the game ends: it may name this player's own cards or dice"
    elif simultaneous and not turn_played:
        text = "hidden until the round is played: it would tell you this player's choice"
    moves = ""
    if not spec.visibility.moves:
        moves = "sealed until the game ends"
    elif simultaneous and not turn_played:
        moves = "hidden until the round is played"
    return text, moves


def _turn_view(session: LiveGame, seat: int, thoughts: list[Thought], now: float, *,
               latest: bool, reveal: bool = False) -> dict[str, Any]:
    played = sum(1 for m in session.record.moves if m.seat == seat) > thoughts[0].seat_moves
    text_hidden, moves_hidden = ("", "") if reveal else hiding(session, played)
    last = thoughts[-1]
    end = last.ended if last.ended is not None else now
    thinking = last.ended is None and not session.over
    deadline = session.agents.deadline((seat,)) if thinking else None
    left = None if deadline is None else round(max(0.0, deadline - time.monotonic()), 1)
    return {
        "seat": seat, "name": session.seat_name(seat), "latest": latest,
        "mode": last.mode, "seconds": round(end - thoughts[0].started, 1),
        "thinking": thinking, "seconds_left": left,
        "text_hidden": text_hidden, "moves_hidden": moves_hidden,
        "attempts": [_thought_view(t, text_hidden, moves_hidden) for t in thoughts],
    }


def _thought_view(thought: Thought, text_hidden: str, moves_hidden: str) -> dict[str, Any]:
    outcome = dict(thought.outcome or {})
    if moves_hidden and outcome.get("label"):
        outcome["label"] = None
    panes = []
    for pane in sorted(thought.panes.values(), key=lambda p: p.index):
        chars = len(pane.reasoning) + len(pane.answer)
        read = pane.label if pane.purpose in ("vote", "thought") or not moves_hidden else None
        panes.append({
            "stream": pane.stream, "purpose": pane.purpose, "state": pane.state,
            "reasoning": "" if text_hidden else pane.reasoning,
            "answer": "" if text_hidden else pane.answer, "characters": chars,
            "faults": pane.faults, "tries": pane.tries, "read": read,
            "rejected": pane.rejected, "failure": pane.failure,
            "tokens": list(pane.tokens) if pane.tokens else None, "seconds": pane.seconds,
        })
    votes = [] if moves_hidden else [{"stream": s, **d} for s, d in thought.votes]
    return {"retry": thought.retry, "panes": panes, "votes": votes, "outcome": outcome}


def _agents_to_move(session: LiveGame) -> list[int]:
    return [s for s in session.match.to_move() if s != session.human]


# --- usage ------------------------------------------------------------------------------


def move_rows(session: LiveGame, *, reveal: bool = False) -> list[dict[str, Any]]:
    """Per language-model move: what it cost (its rejected answers included), numbered as
    the page's move list numbers it (every move, with ``reveal``)."""
    record = session.record
    llm = {s for s, seat in enumerate(record.seats) if seat.kind == "llm"}
    shown = session.spec.visibility
    rows, number = [], 0
    for move in record.moves:
        label = move.label if reveal else shown_label(move, shown, session.human,
                                                      final=session.over)
        visible = label is not None
        number += visible
        if move.seat not in llm:
            continue
        spent = _move_usage(move)
        rows.append({"number": number if visible else None, "seat": move.seat,
                     "name": session.seat_name(move.seat), "move": label,
                     "answers": 1 + len(move.rejected), **spent.to_dict()})
    return rows


def _move_usage(move: MoveRecord) -> Usage:
    total = Usage()
    for meta in [a.meta for a in move.rejected] + [move.meta]:
        if "usage" in meta:
            total.add(Usage.from_dict(meta["usage"]))
    return total
