"""A person playing against agents, without a browser: everything the Play tab does.

A :class:`PlaySession` wraps one :class:`~sessions.match.Match` with one human seat and agent
seats: one opponent in a two-player game, or a table of N-1 agents (GAMA-Bench's games). The
page only translates events: a click at (x, y) goes through the renderer's hit-test to a
target and then to the legal-action adapter (two-click moves keep a selection and highlight
what may come next); typed text, move buttons, a number field and a whole plan (a renderer's
``plan_moves``) go to the adapter too. Input that cannot be played now (not your turn, the
game is over, an opponent is thinking, a spot that is not a move) gets a short notice and
changes nothing. Without a page, :meth:`PlaySession.submit` plays a proposal and raises
:class:`~sessions.match.NotYourTurn` or the adapter's ``MoveError`` instead.

Agents (:class:`sessions.seats.AgentSeats`) are asked as soon as their seat must act: agents
of the person's round think while the person does, and the round is applied when the last
answer is in. :meth:`PlaySession.advance` is a generator that lets agents play until the
person must act, yielding :class:`Thinking` while they take longer than a poll interval, so
a page can show "thinking…" and whatever they stream (see sessions.seats for ``on_event``).
A seat's streamed reasoning is shown only when it cannot give away what the rules hide:
never while the person still decides in the same simultaneous round, and in games with
hidden cards or sealed moves only once the game is over.

Completed sessions (won, lost, drawn, resigned, forfeited, abandoned) are written to the
store once. The human seat is recorded as kind ``human`` (entity ``human``, so ratings pool
consenting people as GameBench did) with the anonymous player id and optional display name;
the record's ``research_use`` is the person's consent. Agent seats record their own
``settings()`` when they have them (an LLM seat: model, modes, prices, never a key), and a
session with LLM seats stores their totals (tokens, calls, seconds, estimated cost) in
``record.metrics["usage"]`` by seat. Abandoning a session stops agents that can be stopped
(``agent.cancel()``: an LLM call in flight ends at its next piece of text).
"""

from __future__ import annotations

import secrets
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from agents.base import Agent
from agents.naming import check_limits
from agents.specs import AgentSpec, make_agent, parse_spec, seat_seed
from games import registry
from games.actions import ActionId, LegalMove, MoveError, Proposal, Text
from renderers import (
    click_target,
    ending,
    image_view,
    page_kind,
    renderer_for,
    seat_label,
    seen_to_move,
    text_view,
)
from sessions.engine import UNREACHABLE, FailurePolicy
from sessions.match import Match, NotYourTurn
from sessions.record import CHANCE, MatchRecord, SeatRecord
from sessions.seats import AgentSeats
from sessions.store import Store
from sessions.usage import session_usage
from sessions.web import gama_screen, refusals, replays, scoreboard, turn_runs
from sessions.web import talk as talk_panel
from sessions.web.clicks import Selection
from sessions.web.players import SEAT_CHOICES, Person, level_name, opponent_label
from sessions.web.replays import ended_banner
from sessions.web.scoreboard import MoveRow, PlayerLine

MAX_INPUT = 2_000
"""The longest text a person may send as a move (typed, or a button's label); longer text is
refused unread, and nothing is recorded."""
MAX_BUTTONS = 16
"""Table games with more legal moves than this get a searchable list instead of buttons."""
TABLE_POLICY = FailurePolicy(max_retries=2, on_failure="random")
"""Tables of more than two seats: an agent's repeated bad answers become a flagged random
legal move, so one agent does not end the session for everyone."""
NOT_SAVED = ("Not saved yet: the game store is not answering. The game is kept and will be "
             "saved as soon as the store is back.")
"""Said after the result while a finished game waits for the store (sessions/store_spool.py)."""
AgentBuilder = Callable[..., Agent]
"""Builds an agent like :func:`agents.specs.make_agent` (spec, game, params, *, seed)."""


# --- what the page shows --------------------------------------------------------------------


@dataclass(frozen=True)
class Thinking:
    """Agents at work: which seats, for how long, and what they have streamed so far."""

    seats: tuple[int, ...]
    seconds: float
    streamed: str


@dataclass(frozen=True)
class Screen:
    """Everything the Play tab draws for the person, computed in one go."""

    image: Image.Image | None
    """None when the screen was asked for without it (nothing on the board changed)."""
    status: str
    notice: str
    moves: list[str]
    buttons: list[str]
    menu: list[str]
    text: str
    over: bool
    your_turn: bool
    thinking: bool
    reasoning: str
    table: gama_screen.TableScreen | None = None
    """GAMA-Bench's games: the seats, the decision input, the results and the scores."""
    players: tuple[PlayerLine, ...] = ()
    """Two-seat games: both seats with their side and the time they have used."""
    rows: tuple[MoveRow, ...] = ()
    """The move list with each move's time and the frame that shows the position after it."""
    viewing: int | None = None
    """The frame the person is looking back at (None: the game as it is now)."""
    frames: int = 1
    """How many positions the person may step through (frame ``frames - 1`` is now)."""
    talk: talk_panel.TalkScreen | None = None
    """Games played by talking: the seats and teams, what was said, the person's words."""


# --- the session ----------------------------------------------------------------------------


class PlaySession:
    """One game between a person and agents, with the page's selection and notices."""

    def __init__(self, game_id: str, opponents: str | Sequence[str], *, person: Person,
                 seat: int | str = "first", seed: int | None = None,
                 params: Mapping[str, Any] | None = None, store: Store | None = None,
                 policy: FailurePolicy | None = None,
                 build_agent: AgentBuilder = make_agent) -> None:
        self.spec = registry.get(game_id)
        self.params = dict(params or {})
        """The parameters asked for (the record's also hold the defaults and game seeds)."""
        players = self.spec.load(self.spec.params(params)).num_players()
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.human = _seat_index(seat, players)
        others = iter(_opponent_specs(opponents, players))
        seats = [person.seat() if s == self.human else _agent_seat(next(others), game_id)
                 for s in range(players)]
        self.person = person
        self.match = Match(game_id, seats, seed=self.seed, params=params,
                           research_use=person.consent)
        self.store = store
        self.policy = policy or (FailurePolicy() if players == 2 else TABLE_POLICY)
        self.notice = ""
        self._clicks = Selection()
        self.agents = AgentSeats(self.match, {
            s: build_agent(parse_spec(info.spec), self.spec, self.match.record.params,
                           seed=seat_seed(self.seed, s, info.spec))
            for s, info in enumerate(seats) if s != self.human}, self.policy)
        for s, agent in self.agents.by_seat.items():
            settings = getattr(agent, "settings", None)  # an LLM seat's full settings
            if callable(settings):
                seats[s].settings = {**seats[s].settings, **settings()}
        self._lock = threading.RLock()
        self._legal: tuple[int, list[LegalMove]] = (-1, [])
        self._stored = False
        self._thinking = False
        self._refused_while_thinking = False
        self._shown_deadline: tuple[tuple[Any, ...] | None, float | None] = (None, None)
        self.detail = ""
        """The adapter's full message for the person's last refused input (the notice says
        it in a sentence; the record and the API keep this one)."""
        self.inputs_played = 0
        """How many of the person's inputs were played (a page clears a typed move then)."""
        self.screens_sent = 0
        """Screens handed to the page so far (numbered by sessions.web.turns)."""
        self._frames: tuple[int, list[int]] = (-1, [])
        self.viewing: int | None = None
        """The frame (see :mod:`sessions.web.replays`) the person looks back at, or None."""
        self.narrow = False
        """Draw boards that have one in their layout for narrow screens (phones)."""

    # --- reading ----------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.match.record.id

    @property
    def record(self) -> MatchRecord:
        return self.match.record

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def thinking(self) -> bool:
        """Agents are moving in a node the person has no part in (or waits on)."""
        return self._thinking

    @property
    def your_turn(self) -> bool:
        return not self._thinking and self.human in self.match.to_move()

    @property
    def move_number(self) -> int:
        """The number the next move will have: moves recorded so far (chance and hidden
        ones included) plus one. Input sent with an ``expected`` number other than this is
        stale (the game moved on since the person saw it) and is refused."""
        return len(self.match.record.moves) + 1

    @property
    def selection(self) -> tuple[str, ...]:
        return self._clicks.path

    @property
    def targets(self) -> tuple[str, ...]:
        return self._clicks.targets

    @property
    def last(self) -> tuple[str, ...] | None:
        return self._clicks.last

    def seat_name(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        label = opponent_label(self.match.record.seats[seat].spec)
        if len(self.match.record.seats) == 2:
            return label
        return f"{seat_label(self.spec.id, seat)} ({label})"

    def seat_title(self, seat: int) -> str:
        """A seat's full name for the players panel and the bar: the agent with its settings
        (``MCTS (1000 simulations)``), a person's display name."""
        info = self.record.seats[seat]
        name = scoreboard.display_name(info.kind, info.spec, info.display_name)
        level = info.settings.get("level") if info.kind != "human" else None
        return f"{level} · {name}" if level else name  # the difficulty chosen, in the bar

    def order_words(self) -> str:
        """Who acts first, as the game really went: ``first``, ``second``, or '' in a game
        of simultaneous moves. Read from the first decision made (a chance draw,
        Arctic Scavengers' first initiator, may give the first move to either seat), or the
        seats to move now when none was made yet."""
        if self.spec.taxonomy.dynamics == "simultaneous":
            return ""
        first = next((m.seat for m in self.record.moves if m.seat != CHANCE), None)
        if first is None:
            movers = self.match.to_move()
            first = movers[0] if movers else None
        if first is None:
            return ""
        return "first" if first == self.human else "second"

    def opponents_name(self) -> str:
        """The opponents in people's words, with settings (``MCTS (1000 simulations)``;
        at a table ``9 agents: Equilibrium ×3, Adaptive ×3, Random ×3``)."""
        names = [self.seat_title(s) for s in range(len(self.record.seats)) if s != self.human]
        if len(names) == 1:
            return names[0]
        counts = {name: names.count(name) for name in names}
        return f"{len(names)} agents: " + ", ".join(
            name if n == 1 else f"{name} ×{n}" for name, n in counts.items())

    def legal(self) -> list[LegalMove]:
        """The person's legal moves now (none when it is not their turn)."""
        if not self.your_turn:
            return []
        key = len(self.match.record.moves)  # the person's moves change only when one is made
        if self._legal[0] != key:
            self._legal = (key, self.match.legal(self.human))
        return list(self._legal[1])

    def image(self) -> Image.Image:
        """The board now, or the position the person looks back at; a game that ended
        before its rules ended it (resigned, abandoned) says so across the board's header."""
        if self.viewing is not None:
            frame = replays.frame(self.record, self.viewing, seat=self.human,
                                  narrow=self.narrow)
            return frame.image
        c = self._clicks
        drawn = image_view(self.spec.id, self.match.state, self.human, selection=c.path,
                           targets=c.targets, last=c.last, narrow=self.narrow)
        if self.over and not self.match.state.is_terminal():
            return ended_banner(drawn, self.result_short())
        return drawn

    def text(self) -> str:
        return text_view(self.spec.id, self.match.state, self.human)

    def moves(self) -> list[str]:
        """The move list as the person saw it, numbered."""
        lines = []
        seen = [(m.seat, m.label) for m in self.match.visible_moves(self.human)]
        turns = turn_runs.turns_of(self.spec.id)
        if turns is not None:  # a turn built in steps is one move (as in the move list)
            seen = [(group[0][0], turn_runs.named(group, _entry_label, turns))
                    for group in turn_runs.fold(seen, _entry_seat, _entry_label, turns,
                                                keep_last_of=None if self.over else self.human)]
        for seat, label in seen:
            if seat == CHANCE:
                lines.append(f"chance: {label}")
            else:
                lines.append(f"{self.seat_name(seat)}: {label}")
        return [f"{i + 1}. {line}" for i, line in enumerate(lines)]

    def status(self) -> str:
        if self.viewing is not None:
            back = "see how it ended" if self.over else "return to the game"
            return (f"Looking back: position {self.viewing} of {self.frames() - 1}. "
                    f"Press Now » to {back}.")
        if self.over:
            return " ".join(filter(None, (self.result(), self.not_saved())))
        if self._thinking:
            busy = self.agents.busy() or self.agents.to_move()
            now = time.monotonic()
            thinking = (f"{self._names(busy)} {_be(busy)} thinking… "
                        f"{now - self.agents.since(busy):.0f} s")
            countdown = self.countdown(busy)
            if countdown is None:
                return thinking
            kind, deadline = countdown
            left = max(0.0, deadline - now)
            if kind == "silent":
                return f"{thinking} (no answer yet: gives up in {left:.0f} s)"
            return f"{thinking} (at most {left:.0f} s more)"
        if self.your_turn:
            return "Your turn."
        waiting = self.match.to_move()
        return f"Waiting for {self._names(waiting)}." if waiting else ""

    def countdown(self, seats: tuple[int, ...]) -> tuple[str, float] | None:
        """How long the thinking ``seats`` may take at most: ``("at most", deadline)``, or
        ``("silent", deadline)`` while a seat with a move time limit (an LLM's
        ``budget.turn_seconds``) has not heard from its provider and gives up sooner (its
        first-token limit). Neither number ever goes up within one spell of thinking: the
        seat's own deadline moves later once the provider starts answering, and the page
        showed "at most 112 s more", then "at most 171 s more"; now it shows "no answer yet:
        gives up in 112 s", then "at most 171 s more", counting down the move's limit."""
        since = self.agents.since(seats)
        limits = [since + float(budget.turn_seconds) for budget in
                  (getattr(self.agents.by_seat.get(s), "budget", None) for s in seats)
                  if budget is not None and getattr(budget, "turn_seconds", None)]
        live = self.agents.deadline(seats)
        firm = max(limits) if limits else None
        if firm is None and live is None:
            return None
        if firm is not None and live is not None and live < firm - 1:
            kind, deadline = "silent", live
        else:
            kind, deadline = "at most", firm if firm is not None else float(live or 0)
        spell, shown = self._shown_deadline
        if spell == (seats, since, kind) and shown is not None:
            deadline = min(deadline, shown)
        self._shown_deadline = ((seats, since, kind), deadline)
        return kind, deadline

    def result(self) -> str:
        """How the game ended, from the person's side ('' while it runs)."""
        record = self.match.record
        if record.outcome == "abandoned":
            if record.end_reason == UNREACHABLE:
                return ("Game abandoned: the opponent's server could not be reached "
                        f"({UNREACHABLE}); it does not count as a loss.")
            return f"Game abandoned ({record.end_reason}); it does not count as a loss."
        if record.outcome == "forfeit":
            if record.ended_by == self.human:
                return f"You resigned ({record.end_reason}): a loss."
            name = self.seat_name(record.ended_by or 0)
            return f"{name} forfeited ({record.end_reason}): you win."
        if record.outcome != "normal" or record.scores is None or record.returns is None:
            return ""
        returns = record.returns
        team = record.seats[self.human].team
        if team is not None:  # a team game: the team's result (scored against opponents)
            how = {1.0: "won", 0.0: "lost"}.get(record.scores[self.human], "drew")
            why = ending(self.spec.id, self.match.state)  # what decided it, where told
            return f"Game over: your team ({team}) {how}." + (f" {why}." if why else "")
        if len(returns) > 2:
            place = 1 + sum(1 for r in returns if r > returns[self.human])
            return (f"Game over: you placed {replays.ordinal(place)} of {len(returns)} (ties "
                    f"share a place), with a score of {_number(returns[self.human])}.")
        verdict = {1.0: "You won", 0.0: "You lost", 0.5: "Draw"}[record.scores[self.human]]
        order = sorted(range(len(returns)), key=lambda s: s != self.human)
        score = " – ".join(f"{self._named(s)} {_half(record.scores[s])}" for s in order)
        points = ""
        if any(abs(r) > 1 for r in returns):
            points = " Points: " + ", ".join(f"{self._named(s)} {_number(returns[s])}"
                                             for s in order) + "."
        return f"Game over: {verdict}. Final score: {score}.{points}"

    def result_short(self) -> str:
        """The end in a few words, for the board's header."""
        record = self.match.record
        if record.outcome == "abandoned":
            return "Game over: abandoned, not counted"
        if record.outcome == "forfeit":
            return ("Game over: you resigned" if record.ended_by == self.human
                    else f"Game over: {self.seat_name(record.ended_by or 0)} forfeited")
        return "Game over"

    def _named(self, seat: int) -> str:
        return "you" if seat == self.human else self.seat_name(seat)

    def reasoning(self) -> str:
        """What agents streamed, or the reasoning recorded with the last agent move the person
        may see. Withheld while it could give away what the rules hide: in games with hidden
        cards or sealed moves until the game is over, and while the person still decides in
        a simultaneous round the agents also play."""
        hidden = (self.spec.taxonomy.information == "incomplete"
                  or not self.spec.visibility.moves)
        if hidden and not self.over:
            return ""
        deciding = self.human in self.match.to_move() and self.match.state.is_simultaneous_node()
        streamed = "" if deciding else self.agents.streamed(self.agents.by_seat)
        if streamed:
            return streamed
        for move in reversed(self.match.record.moves):
            if move.seat not in (CHANCE, self.human):
                return move.reasoning if self._shown(move.seat) else ""
        return ""

    def screen(self, *, image: bool = True) -> Screen:
        with self._lock:
            legal = [m.label for m in self.legal() if not m.says]  # words: the talk box
            table = gama_screen.table_screen(self) if gama_screen.is_table(self.spec.id) else None
            if table is not None and table.control.kind == "number":
                buttons, menu = [], []  # a number field instead
            elif page_kind(self.spec.id) != "board":  # buttons, or a round's choices
                buttons = legal if len(legal) <= MAX_BUTTONS else []
                menu = legal if len(legal) > MAX_BUTTONS else []
            else:
                buttons, menu = [m.label for m in self._board_buttons()], []
            two = len(self.record.seats) == 2
            to_move = self.match.to_move()
            talk = talk_panel.talk_screen(self) if talk_panel.is_talk(self.spec.id) else None
            return Screen(
                image=self.image() if image else None, status=self.status(),
                notice=self.notice, moves=self.moves(), buttons=buttons, menu=menu,
                text=self.text(), over=self.over, your_turn=self.your_turn,
                thinking=self._thinking, reasoning=self.reasoning(), table=table,
                players=tuple(scoreboard.players(self.record, self.human, to_move,
                                                 name=self.seat_title))
                if two else (),
                rows=tuple(scoreboard.move_rows(self.record, self.human, self._mover,
                                                final=self.over, points=self._points())),
                viewing=self.viewing, frames=self.frames(), talk=talk)

    def snapshot(self) -> dict[str, Any]:
        """The session as plain data (the API's answer)."""
        with self._lock:
            record = self.match.record
            data = {
                "session": record.id, "game": self.spec.id, "seat": self.human,
                "seats": [s.entity for s in record.seats], "status": self.status(),
                "notice": self.notice, "view": self.text(),
                "legal": [m.label for m in self.legal()], "moves": self.moves(),
                "over": self.over, "outcome": record.outcome, "returns": record.returns,
                "scores": record.scores, "result": self.result(),
                "research_use": record.research_use, "move_number": self.move_number,
                "player_id": self.person.player_id, "display_name": self.person.display_name,
                "detail": self.detail,
            }
            if gama_screen.is_table(self.spec.id):
                data.update(gama_screen.table_screen(self).to_dict())
            if talk_panel.is_talk(self.spec.id):
                data.update(talk_panel.talk_screen(self).to_dict())
            return data

    # --- looking back -----------------------------------------------------------------------

    def frames(self) -> int:
        """How many positions the person may step through (the last one is now)."""
        return len(self._points())

    def _points(self) -> list[int]:
        """The record's replay frames (:func:`replays.boundaries`), kept until a move."""
        count = len(self.record.moves)
        if self._frames[0] != count:
            self._frames = (count, replays.boundaries(self.record))
        return self._frames[1]

    def look(self, where: str) -> str:
        """Step through the positions seen so far on the same board: ``first``, ``back``,
        ``forward``, ``last`` (the game as it is now). Returns the notice."""
        with self._lock:
            last = self.frames() - 1
            at = last if self.viewing is None else self.viewing
            to = {"first": 0, "back": at - 1, "forward": at + 1, "last": last}.get(where)
            if to is None:
                raise ValueError(f"look {where!r}: use first, back, forward or last")
            to = max(0, min(last, to))
            self.viewing = None if to == last else to
            if self.viewing is None:
                return self._say("")
            if self.over:
                return self._say("Looking back at the finished game; Now » shows how it ended.")
            return self._say("Looking back: the game goes on; Now » returns to it.")

    # --- the person's input -----------------------------------------------------------------

    def submit(self, proposal: Proposal, *, raw: str | None = None,
               meta: dict[str, Any] | None = None, expected: int | None = None) -> LegalMove:
        """Play the person's move. Raises NotYourTurn (saying why: also for a move sent for
        another move number than ``expected``) or the adapter's MoveError; either way nothing
        changes but the rejected attempt's log."""
        with self._lock:
            refusal = self._refusal(expected)
            if refusal:
                raise NotYourTurn(refusal)
            move = self.match.submit(self.human, proposal, raw=raw, meta=meta)
            self._played(move)
            return move

    def click(self, x: float, y: float, *, expected: int | None = None) -> str:
        """A click at pixel (x, y) of the person's image; returns the notice. ``expected``
        (every input method takes it) is the :attr:`move_number` the person saw: a click sent
        for an earlier one is refused with the position as it is now."""
        with self._lock:
            refusal = self._refusal(expected)
            if refusal:
                return self._say(refusal)
            target = click_target(self.spec.id, self.match.state, self.human, x, y,
                                  selection=self._clicks.path, narrow=self.narrow)
            if target is None:
                return self._say(self._off_target())
            return self._click(target, expected)

    def click_target(self, target: str, *, expected: int | None = None) -> str:
        """A click on ``target`` (a name from ``LegalMove.path``), as the hit-test gives it."""
        with self._lock:
            refusal = self._refusal(expected)
            return self._say(refusal) if refusal else self._click(target, expected)

    def play_text(self, text: str, *, expected: int | None = None) -> str:
        """A typed move, read like an LLM answer; a rejection is recorded as an attempt. A
        text longer than :data:`MAX_INPUT` is refused unread (and not recorded)."""
        if len(text) > MAX_INPUT:
            return self._say(_too_long("That move", text))
        if talk_panel.is_talk(self.spec.id):
            text = talk_panel.as_statement(self, text)  # plain words: a statement
        return self._play(Text(text=text, source="typed"), None, "typed", expected)

    def play_number(self, value: float | None, *, expected: int | None = None) -> str:
        """The number field: read by the adapter like a typed number (a refusal is recorded
        as an attempt); a number out of the field's range is refused with the range."""
        with self._lock:
            if value is None:
                return self._say("Enter a number first.")
            shown = f"{float(value):g}"
            try:
                move = self.submit(Text(text=shown), raw=shown, meta={"input": "number"},
                                   expected=expected)
            except NotYourTurn as err:
                return self._say(str(err))
            except MoveError as err:
                self.detail = str(err)
                field = gama_screen.number_field(self.spec.id, self.match.state, self.human)
                if field is None:
                    return self._say(refusals.typed(self.spec, err, shown))
                return self._say(refusals.number(shown, field))
            return self._say(_sentence(f"Your move: {move.label}"))

    def play_label(self, label: str, *, expected: int | None = None) -> str:
        """A move button or list entry: the label of one legal move."""
        with self._lock:
            refusal = self._refusal(expected)
            if refusal:
                return self._say(refusal)
            if not label:
                return self._say("Pick a move first.")
            chosen = next((m for m in self.legal() if m.label == label), None)
            if chosen is None:
                return self._say(f"{refusals.quote(label)} cannot be played now.")
            return self._play(ActionId(action=chosen.action), label, "button")

    def play_plan(self, shares: Sequence[float | None], *, expected: int | None = None) -> str:
        """A whole plan in one go (Pirate Game's proposal form): the renderer's ``plan_moves``
        checks it all before any part is played; a bad plan changes nothing."""
        with self._lock:
            refusal = self._refusal(expected)
            write = renderer_for(self.spec.id).plan_moves
            if refusal or write is None:
                return self._say(refusal or f"{self.spec.title} has no plan to propose.")
            try:
                texts = write(self.match.state, self.human, _whole_numbers(shares))
            except ValueError as err:
                return self._say(f"{str(err)[:1].upper()}{str(err)[1:]}: nothing was proposed.")
            moves = [self.submit(Text(text=text), raw=text, meta={"input": "plan"})
                     for text in texts]
            played = "; ".join(m.label for m in moves)
            return self._say(f"You proposed: {played}; you keep the rest.")

    def resign(self) -> str:
        with self._lock:
            if self.over:
                return self._say("The game is already over.")
            self.match.forfeit(self.human, "resigned")
            self._clicks.path, self._clicks.targets = (), ()
            self._store_if_over()
            return self._say("You resigned.")

    def abandon(self, reason: str = "abandoned") -> None:
        """End an unfinished game without a result (tab closed, new game) and store it.
        Agents that can be stopped (an LLM call in flight) are stopped."""
        with self._lock:
            if not self.over:
                self.match.abandon(reason)
            self._store_if_over()
        self.agents.cancel()

    # --- agents -----------------------------------------------------------------------------

    def advance(self, *, poll: float = 0.2) -> Iterator[Thinking]:
        """Let agent seats move until the person must act or the game ends.

        Agents of the person's own round are started and left thinking in the background.
        Yields a :class:`Thinking` every ``poll`` seconds while agents the person waits for
        take longer than that (never for agents that answer at once). Returns at once if
        agents are already moving (another caller runs them).
        """
        with self._lock:
            if self._thinking or self.over:
                return
            self._thinking = True
        try:
            while not self.over:
                seats = self.agents.to_move()
                before, count = self.match.state, len(self.match.record.moves)
                self.agents.ask(seats)
                if seats and self.human not in self.match.to_move():
                    for _ in self.agents.wait(seats, poll):
                        yield Thinking(seats, time.monotonic() - self.agents.since(seats),
                                       self.reasoning())
                with self._lock:
                    self._note_moves(before, count)
                    if self._refused_while_thinking and len(self.record.moves) > count:
                        self._refused_while_thinking = False  # "Wait: … thinking" is over
                        self._say(f"{self._names(seats)} moved; your click while waiting "
                                  "was not played, so play on from here.")
                if self._failed() or not seats or self.human in self.match.to_move():
                    break
        finally:
            with self._lock:
                self._thinking = False
                self._store_if_over()

    def run_agents(self) -> None:
        """:meth:`advance` to the end, without progress reports."""
        for _ in self.advance():
            pass

    # --- internals --------------------------------------------------------------------------

    def _play(self, proposal: Proposal, raw: str | None, source: str,
              expected: int | None = None) -> str:
        with self._lock:
            try:
                move = self.submit(proposal, raw=raw, meta={"input": source}, expected=expected)
            except NotYourTurn as err:
                return self._say(str(err))
            except MoveError as err:  # the record keeps the adapter's message for models
                self.detail = str(err)
                typed = proposal.text if isinstance(proposal, Text) else (raw or "")
                return self._say(refusals.typed(self.spec, err, typed,
                                                allowed=self._allowed_words()))
            return self._say(_sentence(f"Your move: {move.label}"))

    def _refusal(self, expected: int | None = None) -> str:
        self.viewing = None  # any input brings the board back to the game as it is now
        if expected is not None and expected != self.move_number:
            self.detail = (f"Not played: that was sent for move {expected}, but the game is at "
                           f"move {self.move_number} now.")  # for the API and tools
            return ("The board changed before that arrived, so it was not played: "
                    "have a look and play again.")
        if self.over:
            return "This game is over: press Play again for a new one."
        if self._thinking:
            busy = self.agents.busy() or self.agents.to_move()
            self._refused_while_thinking = True
            return f"One moment: {self._names(busy)} {_be(busy)} still thinking."
        if self.human not in self.match.to_move():
            state = self.match.state
            if state.is_simultaneous_node() and len(state.legal_actions(self.human)) > 1:
                return "Your choice for this round is in: waiting for the other players."
            return "It is not your turn."
        return ""

    def _allowed_words(self) -> str:
        """In a talk game, what the person may say now (for a refused typed move)."""
        if not talk_panel.is_talk(self.spec.id):
            return ""
        form = self.spec.grammar.free_text
        return "Now you may: " + talk_panel.forms_now(form.hint if form else "", self.legal())

    def _off_target(self) -> str:
        view = renderer_for(self.spec.id)
        if view.off_target:  # the game's own words
            return view.off_target
        if view.page == "rounds":
            return "The plot only shows the rounds so far: decide with the input below it."
        if view.page == "buttons":
            return "Use the move buttons below the table, or type a move."
        return "That spot is not on the board: click a square."

    def _mover(self, seat: int) -> str:
        return self.seat_name(seat)

    def _names(self, seats: Sequence[int]) -> str:
        seats = seen_to_move(self.spec.id, self.match.state, self.human, seats)
        if len(seats) > 2:
            return f"{len(seats)} players"
        return " and ".join(self.seat_name(s) for s in seats) or "The opponent"

    def _failed(self) -> bool:
        """End the game if an agent crashed (abandoned: nobody lost)."""
        failures = self.agents.failures()
        with self._lock:
            if failures and not self.over:
                self.match.abandon(f"an opponent failed: {failures[0]}")
                self._say(f"The opponent failed ({failures[0]}); the game is abandoned.")
        return bool(failures)

    def _click(self, target: str, expected: int | None) -> str:
        path = (*self._clicks.path, target)
        move = self._clicks.click(self.spec, self.match.state, self.human, target)
        if isinstance(move, str):
            return self._say(move)
        return self._play(ActionId(action=move.action), "click " + " ".join(path), "click",
                          expected)

    def _played(self, move: LegalMove) -> None:
        self.inputs_played += 1
        self.detail = ""
        self._clicks = Selection(last=move.path)
        self.agents.forget_streams()
        self._store_if_over()

    def _note_moves(self, before: Any, count: int) -> None:
        """Mark the last agent move the person may see (sealed bids stay unmarked)."""
        for move in self.match.record.moves[count:]:
            if move.seat not in (CHANCE, self.human) and self._shown(move.seat):
                self._clicks.last = self.spec.grammar.path(before, move.seat, move.action)

    def _shown(self, seat: int) -> bool:
        return seat == self.human or self.spec.visibility.moves or self.over

    def _board_buttons(self) -> list[LegalMove]:
        extra = renderer_for(self.spec.id).buttons
        if extra is None or not self.your_turn:
            return []
        return list(extra(self.match.state, self.human, self.legal()))

    def _say(self, notice: str) -> str:
        unsaved = self.not_saved()
        self.notice = f"{notice} {unsaved}" if unsaved else notice
        return self.notice

    def _store_if_over(self) -> None:
        if not self.over:
            return
        self.agents.close()
        if self._stored or self.store is None:
            return
        spent = session_usage(self.match.record)  # LLM seats: the session's totals
        if spent:
            self.match.record.metrics["usage"] = {str(s): u.to_dict() for s, u in spent.items()}
        self.store.keep(self.match.record)  # or kept and retried: see not_saved()
        self._stored = True

    def not_saved(self) -> str:
        """What the person is told while their finished game waits to be stored ('')."""
        if not self._stored or self.store is None or not self.store.unsaved(self.id):
            return ""
        return NOT_SAVED


def _entry_seat(entry: tuple[int, str]) -> int:
    return entry[0]


def _entry_label(entry: tuple[int, str]) -> str:
    return entry[1]


def _sentence(text: str) -> str:
    """``text`` ended with a full stop unless it ends a sentence already."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def _agent_seat(spec: AgentSpec, game_id: str) -> SeatRecord:
    """An agent's seat; the record keeps its difficulty level when it is one of the game's
    (``settings["level"]``: ``Strong``)."""
    level = level_name(game_id, spec.text)
    return SeatRecord(kind=spec.kind, spec=spec.text, entity=spec.entity,
                      settings={**spec.settings(), **({"level": level} if level else {})})


def _too_long(what: str, text: str) -> str:
    return (f"{what} has {len(text):,} characters; at most {MAX_INPUT:,} are read, so it was "
            "not played (nothing was recorded).")


def _be(seats: Sequence[int]) -> str:
    return "is" if len(seats) < 2 else "are"


def _whole_numbers(values: Sequence[float | None]) -> list[int]:
    if any(v is None for v in values):
        raise ValueError("every share needs a number (0 is fine)")
    if any(not float(v).is_integer() for v in values if v is not None):
        raise ValueError("shares must be whole numbers of golds")
    return [int(v) for v in values if v is not None]


def _seat_index(seat: int | str, players: int) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < players:
            return seat
        raise ValueError(f"seat {seat} does not exist; seats are 0-{players - 1}")
    choice = str(seat).strip().lower()
    if choice == "first":
        return 0
    if choice == "second":
        return 1
    if choice == "random":
        return secrets.randbelow(players)
    if choice.isdigit():
        return _seat_index(int(choice), players)
    raise ValueError(f"seat {seat!r} is not one of {', '.join(SEAT_CHOICES)} or a seat number")


def _opponent_specs(opponents: str | Sequence[str], players: int) -> list[AgentSpec]:
    if not opponents:
        raise ValueError("no opponent chosen: pick one of the offered agents")
    names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(names) != players - 1:
        raise ValueError(f"{players - 1} opponent(s) needed, got {len(names)}")
    specs = [parse_spec(name) for name in names]
    for spec in specs:
        if spec.kind == "human":
            raise ValueError("only one human seat per session: pick an agent as the opponent")
        check_limits(spec)
    return specs


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _half(score: float) -> str:
    return {0.5: "½"}.get(score, _number(score))




class OpenSessions:
    """The unfinished sessions of connected browsers, by browser session id, held weakly.

    The page's per-user state lives in the browser session; this index only lets the
    tab-closed event (which carries the browser session id, not the state) find the game to
    record as abandoned. Finished or replaced sessions drop out by themselves.
    """

    def __init__(self) -> None:
        self._sessions: weakref.WeakValueDictionary[str, PlaySession] = (
            weakref.WeakValueDictionary())
        self._lock = threading.Lock()

    def attach(self, browser: str, session: PlaySession) -> None:
        """Track ``session`` for ``browser``; the game it replaces is abandoned."""
        with self._lock:
            previous = self._sessions.get(browser)
            self._sessions[browser] = session
        if previous is not None and previous is not session:
            previous.abandon("a new game was started")

    def close(self, browser: str, reason: str = "tab closed") -> PlaySession | None:
        """The browser went away: abandon its unfinished game (if any) and forget it."""
        with self._lock:
            session = self._sessions.pop(browser, None)
        if session is not None:
            session.abandon(reason)
        return session

    def get(self, browser: str) -> PlaySession | None:
        """The unfinished game of ``browser``, even while it is still being started."""
        with self._lock:
            return self._sessions.get(browser)

    def close_all(self, reason: str) -> int:
        """Abandon (and store) every unfinished game, stopping its agents: the server is
        going away. How many there were."""
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.abandon(reason)
        return len(sessions)

    def __len__(self) -> int:
        return len(self._sessions)

