"""A person playing against agents, without a browser: everything the Play tab does.

A :class:`PlaySession` wraps one :class:`~sessions.match.Match` with one human seat and agent
seats. The page only translates events: a click at (x, y) goes through the renderer's
hit-test to a target and then to the legal-action adapter (two-click moves keep a selection
and highlight what may come next); typed text and move buttons go to the adapter too. Input
that cannot be played now (not your turn, the game is over, an opponent is thinking, a spot
that is not a move) gets a short notice and changes nothing.

Agents move in :meth:`PlaySession.advance`, a generator that runs their turns in worker
threads and yields :class:`Thinking` while they take longer than a poll interval, so a page
can show "thinking…" and whatever the agent streams. An agent object with an ``on_event``
attribute gets it set, before each of its turns, to a callable ``on_event(kind, text)``;
every call appends ``text`` to what the page shows (``kind`` is e.g. ``"reasoning"`` or
``"answer"``; a ``kind`` of ``"reset"`` clears the panel, for a retried answer).

Completed sessions (won, lost, drawn, resigned, forfeited, abandoned) are written to the
store once. The human seat is recorded as kind ``human`` (entity ``human``, so ratings pool
consenting people as GameBench did) with the anonymous player id and optional display name;
the record's ``research_use`` is the person's consent.
"""

from __future__ import annotations

import secrets
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from agents.base import Agent
from agents.specs import AgentSpec, make_agent, parse_spec, seat_seed
from games import registry
from games.actions import ActionId, Click, LegalMove, MoveError, NeedsMore, Text, resolve
from renderers import click_target, image_view, renderer, text_view
from sessions.engine import FailurePolicy, play_turn
from sessions.match import Match, NotYourTurn
from sessions.players import SEAT_CHOICES, Person, opponent_label
from sessions.record import CHANCE, MatchRecord, SeatRecord
from sessions.store import Store

MAX_BUTTONS = 16
"""Table games with more legal moves than this get a searchable list instead of buttons."""
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


# --- the session ----------------------------------------------------------------------------


@dataclass
class _Clicks:
    selection: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    last: tuple[str, ...] | None = None


@dataclass
class _Agents:
    by_seat: dict[int, Agent] = field(default_factory=dict)
    streamed: dict[int, list[str]] = field(default_factory=dict)
    busy: tuple[int, ...] = ()
    since: float = 0.0


class PlaySession:
    """One game between a person and agents, with the page's selection and notices."""

    def __init__(self, game_id: str, opponents: str | Sequence[str], *, person: Person,
                 seat: int | str = "first", seed: int | None = None,
                 params: Mapping[str, Any] | None = None, store: Store | None = None,
                 policy: FailurePolicy = FailurePolicy(),
                 build_agent: AgentBuilder = make_agent) -> None:
        self.spec = registry.get(game_id)
        players = self.spec.load(self.spec.params(params)).num_players()
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.human = _seat_index(seat, players)
        specs = _opponent_specs(opponents, players)
        seats: list[SeatRecord] = []
        others = iter(specs)
        for s in range(players):
            if s == self.human:
                seats.append(person.seat())
            else:
                spec = next(others)
                seats.append(SeatRecord(kind=spec.kind, spec=spec.text, entity=spec.entity,
                                        settings=spec.settings()))
        self.person = person
        self.match = Match(game_id, seats, seed=self.seed, params=params,
                           research_use=person.consent)
        self.store = store
        self.policy = policy
        self.notice = ""
        self._clicks = _Clicks()
        self._agents = _Agents()
        for s, info in enumerate(seats):
            if s != self.human:
                self._agents.by_seat[s] = build_agent(
                    parse_spec(info.spec), self.spec, self.match.record.params,
                    seed=seat_seed(self.seed, s, info.spec))
        self._lock = threading.RLock()
        self._legal: tuple[int, list[LegalMove]] = (-1, [])
        self._stored = False
        self._thinking = False

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
        return self._thinking

    @property
    def your_turn(self) -> bool:
        return not self._thinking and self.human in self.match.to_move()

    @property
    def selection(self) -> tuple[str, ...]:
        return self._clicks.selection

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
        return label if len(self.match.record.seats) == 2 else f"Seat {seat + 1} ({label})"

    def legal(self) -> list[LegalMove]:
        """The person's legal moves now (none when it is not their turn)."""
        if not self.your_turn:
            return []
        key = len(self.match.record.moves)  # the person's moves change only when one is made
        if self._legal[0] != key:
            self._legal = (key, self.match.legal(self.human))
        return list(self._legal[1])

    def image(self) -> Image.Image:
        c = self._clicks
        return image_view(self.spec.id, self.match.state, self.human, selection=c.selection,
                          targets=c.targets, last=c.last)

    def text(self) -> str:
        return text_view(self.spec.id, self.match.state, self.human)

    def moves(self) -> list[str]:
        """The move list as the person saw it, numbered."""
        lines = []
        for move in self.match.visible_moves(self.human):
            if move.seat == CHANCE:
                lines.append(f"chance: {move.label}")
            else:
                lines.append(f"{self.seat_name(move.seat)}: {move.label}")
        return [f"{i + 1}. {line}" for i, line in enumerate(lines)]

    def status(self) -> str:
        if self.over:
            return self.result()
        if self._thinking:
            busy = self._agents.busy or tuple(s for s in self.match.to_move() if s != self.human)
            names = " and ".join(self.seat_name(s) for s in busy) or "The opponent"
            seconds = time.monotonic() - self._agents.since
            return f"{names} {'is' if len(busy) < 2 else 'are'} thinking… {seconds:.0f} s"
        if self.your_turn:
            return "Your turn."
        waiting = ", ".join(self.seat_name(s) for s in self.match.to_move())
        return f"Waiting for {waiting}." if waiting else ""

    def result(self) -> str:
        """How the game ended, from the person's side ('' while it runs)."""
        record = self.match.record
        if record.outcome == "abandoned":
            return f"Game abandoned ({record.end_reason}); it does not count as a loss."
        if record.outcome == "forfeit":
            if record.ended_by == self.human:
                return f"You resigned ({record.end_reason}): a loss."
            name = self.seat_name(record.ended_by or 0)
            return f"{name} forfeited ({record.end_reason}): you win."
        if record.outcome != "normal" or record.scores is None:
            return ""
        score = record.scores[self.human]
        verdict = {1.0: "You won", 0.0: "You lost", 0.5: "Draw"}.get(
            score, f"You beat {score:.0%} of the other seats")
        returns = ", ".join(f"{self.seat_name(s).lower() if s == self.human else self.seat_name(s)}"
                            f" {_number(r)}" for s, r in enumerate(record.returns or []))
        return f"Game over: {verdict}. Final returns: {returns}."

    def reasoning(self) -> str:
        """What the last agent streamed, or the reasoning recorded with its last move.

        In hidden-information games an agent's reasoning may name its own cards or dice, so
        it is withheld until the game is over."""
        if self.spec.taxonomy.information == "incomplete" and not self.over:
            return ""
        streamed = [text for seat in self._agents.streamed
                    for text in self._agents.streamed[seat]]
        if streamed:
            return "".join(streamed)
        for move in reversed(self.match.record.moves):
            if move.seat not in (CHANCE, self.human):
                return move.reasoning if self._shown(move.seat) else ""
        return ""

    def screen(self, *, image: bool = True) -> Screen:
        with self._lock:
            legal = [m.label for m in self.legal()]
            table = self.spec.board == "table"
            if table:
                buttons = legal if len(legal) <= MAX_BUTTONS else []
            else:
                buttons = [m.label for m in self._board_buttons()]
            menu = legal if table and len(legal) > MAX_BUTTONS else []
            return Screen(image=self.image() if image else None, status=self.status(),
                          notice=self.notice,
                          moves=self.moves(), buttons=buttons, menu=menu, text=self.text(),
                          over=self.over, your_turn=self.your_turn, thinking=self._thinking,
                          reasoning=self.reasoning())

    def snapshot(self) -> dict[str, Any]:
        """The session as plain data (the API's answer)."""
        with self._lock:
            record = self.match.record
            return {
                "session": record.id, "game": self.spec.id, "seat": self.human,
                "seats": [s.entity for s in record.seats], "status": self.status(),
                "notice": self.notice, "view": self.text(),
                "legal": [m.label for m in self.legal()], "moves": self.moves(),
                "over": self.over, "outcome": record.outcome, "returns": record.returns,
                "scores": record.scores, "result": self.result(),
                "research_use": record.research_use,
            }

    # --- the person's input -----------------------------------------------------------------

    def click(self, x: float, y: float) -> str:
        """A click at pixel (x, y) of the person's image; returns the notice."""
        with self._lock:
            refusal = self._refusal()
            if refusal:
                return self._say(refusal)
            target = click_target(self.spec.id, self.match.state, self.human, x, y,
                                  selection=self._clicks.selection)
            if target is None:
                where = ("Use the move buttons below the table, or type a move."
                         if self.spec.board == "table" else
                         "That spot is not on the board: click a square.")
                return self._say(where)
            return self._click(target)

    def click_target(self, target: str) -> str:
        """A click on ``target`` (a name from ``LegalMove.path``), as the hit-test gives it."""
        with self._lock:
            refusal = self._refusal()
            return self._say(refusal) if refusal else self._click(target)

    def play_text(self, text: str) -> str:
        """A typed move, read like an LLM answer; a rejection is recorded as an attempt."""
        with self._lock:
            refusal = self._refusal()
            if refusal:
                return self._say(refusal)
            try:
                move = self.match.submit(self.human, Text(text=text, source="typed"),
                                         meta={"input": "typed"})
            except MoveError as err:
                return self._say(str(err))
            return self._played(move)

    def play_label(self, label: str) -> str:
        """A move button or list entry: the label of one legal move."""
        with self._lock:
            refusal = self._refusal()
            if refusal:
                return self._say(refusal)
            chosen = next((m for m in self.legal() if m.label == label), None)
            if not label:
                return self._say("Pick a move first.")
            if chosen is None:
                return self._say(f"{label!r} is not a legal move now.")
            move = self.match.submit(self.human, ActionId(action=chosen.action), raw=label,
                                     meta={"input": "button"})
            return self._played(move)

    def resign(self) -> str:
        with self._lock:
            if self.over:
                return self._say("The game is already over.")
            self.match.forfeit(self.human, "resigned")
            self._clicks.selection, self._clicks.targets = (), ()
            self._store_if_over()
            return self._say("You resigned.")

    def abandon(self, reason: str = "abandoned") -> None:
        """End an unfinished game without a result (tab closed, new game) and store it."""
        with self._lock:
            if not self.over:
                self.match.abandon(reason)
            self._store_if_over()

    # --- agents -----------------------------------------------------------------------------

    def advance(self, *, poll: float = 0.2) -> Iterator[Thinking]:
        """Let agent seats move until the person must act or the game ends.

        Yields a :class:`Thinking` every ``poll`` seconds while an agent takes longer than
        that (never for agents that answer at once). Returns at once if agents are already
        moving (another caller runs them).
        """
        with self._lock:
            if self._thinking or self.over:
                return
            self._thinking = True
        pool = ThreadPoolExecutor(max_workers=max(1, len(self._agents.by_seat)))
        try:
            while not self.over:
                seats = tuple(s for s in self.match.to_move() if s in self._agents.by_seat)
                if not seats:
                    break
                yield from self._turn(pool, seats, poll)
        finally:
            pool.shutdown(wait=False)
            with self._lock:
                self._thinking = False
                self._agents.busy = ()
                self._store_if_over()

    def run_agents(self) -> None:
        """:meth:`advance` to the end, without progress reports."""
        for _ in self.advance():
            pass

    def _turn(self, pool: ThreadPoolExecutor, seats: tuple[int, ...],
              poll: float) -> Iterator[Thinking]:
        before, count = self.match.state, len(self.match.record.moves)
        self._agents.busy, self._agents.since = seats, time.monotonic()
        self._agents.streamed = {s: [] for s in seats}
        futures: list[Future[None]] = [pool.submit(self._agent_turn, s) for s in seats]
        while True:
            done, pending = wait(futures, timeout=poll)
            if not pending:
                break
            yield Thinking(seats, time.monotonic() - self._agents.since, self.reasoning())
        failures = [f.exception() for f in futures if f.exception() is not None]
        with self._lock:
            self._note_moves(before, count)
            if failures and not self.over:
                self.match.abandon(f"an opponent failed: {failures[0]}")
                self._say(f"The opponent failed ({failures[0]}); the game is abandoned.")

    def _agent_turn(self, seat: int) -> None:
        agent = self._agents.by_seat[seat]
        if hasattr(agent, "on_event"):
            agent.on_event = lambda kind, text: self._heard(seat, kind, text)
        try:
            play_turn(self.match, seat, agent, policy=self.policy)
        except NotYourTurn:
            pass  # the game ended while the agent thought (resigned, abandoned)

    def _heard(self, seat: int, kind: str, text: str) -> None:
        lines = self._agents.streamed.setdefault(seat, [])
        if kind == "reset":
            lines.clear()
        else:
            lines.append(text)

    # --- internals --------------------------------------------------------------------------

    def _refusal(self) -> str:
        if self.over:
            return "The game is over: start a new game to play again."
        if self._thinking:
            names = " and ".join(self.seat_name(s) for s in self._agents.busy) or "The opponent"
            return f"Wait: {names} {'is' if len(self._agents.busy) < 2 else 'are'} thinking."
        if self.human not in self.match.to_move():
            return "It is not your turn."
        return ""

    def _click(self, target: str) -> str:
        """One click of a multi-step move. Clicking the last selected target again steps
        back (only the last: a Santorini worker may build on the square it just left, the
        first of its path); a click that does not continue the selection starts a new one
        when it can (another piece)."""
        clicks = self._clicks
        if clicks.selection and target == clicks.selection[-1]:
            clicks.selection = clicks.selection[:-1]
            clicks.targets = self._next_targets(clicks.selection)
            return self._say("Selection cleared." if not clicks.selection
                             else f"Back to {' then '.join(clicks.selection)}.")
        state = self.match.state
        path = (*clicks.selection, target)
        try:
            move = resolve(self.spec, state, self.human, Click(path=path))
        except NeedsMore as more:
            clicks.selection, clicks.targets = path, tuple(more.options)
            return self._say(f"{' then '.join(path)} selected: click a highlighted spot, "
                             f"or {target} again to cancel.")
        except MoveError:
            if clicks.selection and self._next_targets((target,)):
                clicks.selection, clicks.targets = (target,), self._next_targets((target,))
                return self._say(f"{target} selected: click a highlighted spot, or {target} "
                                 "again to cancel.")
            after = f" after {' then '.join(clicks.selection)}" if clicks.selection else ""
            return self._say(f"{target} is not a legal move{after}.")
        played = self.match.submit(self.human, ActionId(action=move.action),
                                   raw="click " + " ".join(path), meta={"input": "click"})
        return self._played(played)

    def _next_targets(self, path: tuple[str, ...]) -> tuple[str, ...]:
        if not path:
            return ()
        try:
            resolve(self.spec, self.match.state, self.human, Click(path=path))
        except NeedsMore as more:
            return tuple(more.options)
        except MoveError:
            return ()
        return ()

    def _played(self, move: LegalMove) -> str:
        self._clicks = _Clicks(last=move.path)
        self._agents.streamed = {}
        self._store_if_over()
        return self._say(f"You played {move.label}.")

    def _note_moves(self, before: Any, count: int) -> None:
        """Mark the last agent move the person may see (sealed bids stay unmarked)."""
        for move in self.match.record.moves[count:]:
            if move.seat not in (CHANCE, self.human) and self._shown(move.seat):
                self._clicks.last = self.spec.grammar.path(before, move.seat, move.action)

    def _shown(self, seat: int) -> bool:
        return seat == self.human or self.spec.visibility.moves or self.over

    def _board_buttons(self) -> list[LegalMove]:
        extra = getattr(renderer(self.spec.id), "buttons", None)
        if extra is None or not self.your_turn:
            return []
        return list(extra(self.match.state, self.human, self.legal()))

    def _say(self, notice: str) -> str:
        self.notice = notice
        return notice

    def _store_if_over(self) -> None:
        if not self.over or self._stored or self.store is None:
            return
        try:
            self.store.save(self.match.record)
            self._stored = True
        except Exception as err:  # noqa: BLE001 - the game must go on; say what failed
            self.notice = f"The session could not be saved: {err}"


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
    return specs


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


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

    def __len__(self) -> int:
        return len(self._sessions)

