"""Agents playing each other while people watch: the Watch tab's game, without Gradio.

A :class:`WatchSession` seats an agent in every seat (language models with any reasoning
mode, MCTS, random, GAMA-Bench's bots...) and plays the game in a background thread, one
move (one round in simultaneous games) at a time, at least ``delay`` seconds apart, so the
board can be followed move by move. The person who started it can :meth:`~WatchSession.pause`
(the move being thought about is held back until play resumes, so the board stops at once),
:meth:`~WatchSession.resume`, :meth:`~WatchSession.step` (one move, then paused again),
change the delay, and :meth:`~WatchSession.stop` it, which ends the game as abandoned (a
language model's call is cancelled). Anyone else only reads it (sessions/web/spectate.py).

A finished game is stored and rated like any other match between agents (tagged ``watch``,
or what the caller asks, e.g. ``showcase``), with its language-model seats' totals in
``record.metrics["usage"]`` as the Play tab stores them.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agents.base import Agent, Decision, SeatView
from agents.naming import check_limits
from agents.specs import make_agent, parse_spec, seat_seed
from games import registry
from renderers import seat_label
from sessions.engine import FailurePolicy
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord
from sessions.seats import AgentSeats
from sessions.store import Store
from sessions.usage import session_usage
from sessions.web.blind import ready_models
from sessions.web.live import LIVE
from sessions.web.play import NOT_SAVED, TABLE_POLICY, AgentBuilder
from sessions.web.players import opponent_label, opponents_for

DELAYS = (0.0, 0.5, 1.0, 2.0, 5.0)
"""The speeds the Watch tab offers: the least time between two moves, in seconds."""
MAX_DELAY = 60.0
MAX_RUNNING = 8
"""Watched games one app process plays at once (each holds agents, maybe model calls)."""
PER_CLIENT = int(os.environ.get("ARENA_WATCH_PER_CLIENT", "2"))
"""Watched games one client address may have playing at once."""
UNWATCHED_PAUSE = float(os.environ.get("ARENA_WATCH_UNWATCHED_PAUSE", "10"))
"""Seconds a watched game plays on with nobody watching it before it pauses."""
UNWATCHED_END = float(os.environ.get("ARENA_WATCH_UNWATCHED_END", "120"))
"""Seconds with nobody watching after which it ends (abandoned, not counted)."""
POLL = 0.1


class WatchError(ValueError):
    """A watched game that cannot start; the message says what to choose instead."""


class WatchSession:
    """One game with an agent in every seat, played in a background thread."""

    human: int | None = None
    """No person plays (the :class:`~sessions.web.live.LiveGame` field)."""

    def __init__(self, game_id: str, seats: Sequence[str], *, seed: int | None = None,
                 params: Mapping[str, Any] | None = None, store: Store | None = None,
                 delay: float = 1.0, build_agent: AgentBuilder = make_agent,
                 tags: Sequence[str] = ("watch",),
                 watchers: Callable[[], int] | None = None) -> None:
        try:
            self.spec = registry.get(game_id)
        except KeyError as err:
            raise WatchError(str(err.args[0])) from None
        players = self.spec.load(self.spec.params(params)).num_players()
        if len(seats) != players:
            raise WatchError(f"{self.spec.title} has {players} seats: pick an agent for "
                             f"each (got {len(seats)})")
        specs = [parse_spec(text) for text in seats]
        if any(spec.kind == "human" for spec in specs):
            raise WatchError("the Watch tab seats agents only: play on the Play tab")
        for spec in specs:
            check_limits(spec)  # the page's search limits (SpecError says them)
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.params = dict(params or {})
        records = [SeatRecord(kind=s.kind, spec=s.text, entity=s.entity, settings=s.settings())
                   for s in specs]
        self.match = Match(game_id, records, seed=self.seed, params=params, research_use=True)
        self.match.record.tags = list(tags)
        self.store = store
        self._cond = threading.Condition(threading.RLock())
        self._paused = False
        self._stepping = False
        self._stopped = False
        self._stored = False
        self._started = False
        self._last_move = 0.0
        self.changes = 0
        """Counts what a spectator would see change (moves, pause, speed, the end)."""
        self.ended = threading.Event()
        """Set once the game is over and stored (or kept for the store: see ``status``)."""
        self.delay = 0.0
        self.set_delay(delay)
        self.notice = ""
        built = {s: build_agent(spec, self.spec, self.match.record.params,
                                seed=seat_seed(self.seed, s, spec.text))
                 for s, spec in enumerate(specs)}
        for s, agent in built.items():
            settings = getattr(agent, "settings", None)  # an LLM seat's full settings
            if callable(settings):
                records[s].settings = {**records[s].settings, **settings()}
        policy = FailurePolicy() if players == 2 else TABLE_POLICY
        self.agents = AgentSeats(self.match, {s: _Gate(a, self) for s, a in built.items()},
                                 policy)
        self._thread = threading.Thread(target=self._run, name=f"watch-{self.id[:8]}",
                                        daemon=True)
        self.watchers = watchers
        """How many pages watch the game now (its host's included); None: not counted (a
        showcase, a test). A game nobody watches pauses, then ends (:class:`Keeper`)."""
        self.unwatched = False
        """Paused because nobody watches (play resumes by itself when someone does)."""
        self.client = ""
        """The address of the client that started it (for :data:`PER_CLIENT`)."""

    # --- reading (the LiveGame protocol) ----------------------------------------------------

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
        return bool(self.agents.busy())

    @property
    def paused(self) -> bool:
        return self._paused and not self.over

    @property
    def started(self) -> bool:
        return self._started

    def seat_name(self, seat: int) -> str:
        label = opponent_label(self.match.record.seats[seat].spec)
        if len(self.match.record.seats) == 2:
            return label
        return f"{seat_label(self.spec.id, seat)} ({label})"

    def status(self) -> str:
        """One line: who is thinking, paused, or how it ended."""
        if self.over:
            kept = self._stored and self.store is not None and self.store.unsaved(self.id)
            return f"{self.result()} {NOT_SAVED}" if kept else self.result()
        busy = self.agents.busy()
        if self._paused and self.unwatched:
            return "Paused: nobody is watching. It goes on when someone does."
        if self._paused:
            held = " (the move being thought about waits)" if busy else ""
            return f"Paused{held}: press Resume or Step."
        if busy:
            seconds = time.monotonic() - self.agents.since(busy)
            return f"{_names(self, busy)} {'is' if len(busy) == 1 else 'are'} thinking… " \
                   f"{seconds:.0f} s"
        if not self._started:
            return "Ready: press Start."
        waiting = self.match.to_move()
        return f"Next: {_names(self, waiting)}." if waiting else ""

    def result(self) -> str:
        """How the game ended ('' while it runs)."""
        return result_text(self.match.record, self.seat_name)

    # --- control (the person who started it) ------------------------------------------------

    def start(self) -> None:
        """Start playing (once); the game is listed for spectators from now on."""
        with self._cond:
            if self._started:
                return
            with _RUNNING_LOCK:
                if len(_RUNNING) >= MAX_RUNNING:
                    raise WatchError(f"{MAX_RUNNING} watched games are playing on this server "
                                     "already: watch one of them, or try again when one ends")
                mine = sum(1 for game in _RUNNING if self.client and game.client == self.client)
                if mine >= PER_CLIENT:
                    raise WatchError(f"{mine} watched games started from your address are "
                                     f"playing already (at most {PER_CLIENT}): stop one of "
                                     "them, or wait for one to end")
                _RUNNING.add(self)
            self._started = True
            LIVE.add(self)
        self._thread.start()
        if self.watchers is not None:
            Keeper(self).start()

    def nobody_watching(self, seconds: float) -> None:
        """Nobody has watched for ``seconds``: pause after :data:`UNWATCHED_PAUSE`, end
        after :data:`UNWATCHED_END` (the :class:`Keeper`'s call)."""
        if seconds >= UNWATCHED_END:
            self.stop(f"nobody watched it for {UNWATCHED_END:g} s")
        elif seconds >= UNWATCHED_PAUSE and not self._paused:
            with self._cond:
                self.unwatched = True
                self._paused, self._stepping = True, False
                self._changed()

    def watched_again(self) -> None:
        """Someone watches again: a game paused for want of watchers goes on."""
        with self._cond:
            if self.unwatched:
                self.unwatched = False
                self._paused = False
                self._changed()

    def pause(self) -> None:
        with self._cond:
            self._paused, self._stepping, self.unwatched = True, False, False
            self._changed()

    def resume(self) -> None:
        with self._cond:
            self._paused, self._stepping, self.unwatched = False, False, False
            self._changed()

    def step(self) -> None:
        """Play one move (one round of a simultaneous game), then stay paused."""
        with self._cond:
            self._paused, self._stepping, self.unwatched = True, True, False
            self._changed()

    def set_delay(self, seconds: float | None) -> None:
        """The least time between two moves (0 to :data:`MAX_DELAY` seconds)."""
        value = float(seconds if seconds is not None else 0.0)
        if not 0.0 <= value <= MAX_DELAY:
            raise WatchError(f"the delay between moves must be 0 to {MAX_DELAY:g} s, "
                             f"not {value:g}")
        with self._cond:
            self.delay = value
            self._changed()

    def stop(self, reason: str = "stopped by the person watching") -> None:
        """End the game now, recorded as abandoned (not rated); thinking agents are stopped."""
        with self._cond:
            self.match.abandon(reason)
            self._stopped = True
            self._changed()
        self.agents.cancel()
        if not self._started:
            self._store_if_over()
            self.ended.set()

    # --- the game loop ----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while self._wait_for_turn():
                seats = self.agents.to_move()
                if not seats:
                    break
                self.agents.ask(seats)
                with self._cond:
                    self._changed()
                for _ in self.agents.wait(seats, POLL):
                    pass
                failures = self.agents.failures()
                with self._cond:
                    if failures and not self.over:
                        self.match.abandon(f"an agent failed: {failures[0]}")
                    self._last_move = time.monotonic()
                    if self._stepping and not self.agents.busy():
                        self._stepping = False
                    self._changed()
        finally:
            with self._cond:
                self._store_if_over()
                self._changed()
            with _RUNNING_LOCK:
                _RUNNING.discard(self)
            self.ended.set()

    def _wait_for_turn(self) -> bool:
        """Wait while paused and for the delay since the last move; False once it is over."""
        with self._cond:
            while not (self._stopped or self.over):
                if self._paused and not self._stepping:
                    self._cond.wait()
                    continue
                left = self._last_move + self.delay - time.monotonic()
                if self._stepping or left <= 0:
                    return True
                self._cond.wait(timeout=left)
            return False

    def release(self) -> bool:
        """For a seat's gate: may a decision be played now? (not paused, or stepping)"""
        with self._cond:
            return self._stopped or self.over or not self._paused or self._stepping

    def wait_released(self) -> None:
        with self._cond:
            while not self.release():
                self._cond.wait()

    def _changed(self) -> None:
        self.changes += 1
        self._cond.notify_all()

    def _store_if_over(self) -> None:
        if not self.over:
            return
        self.agents.close()
        if self._stored or self.store is None:
            return
        spent = session_usage(self.match.record)
        if spent:
            self.match.record.metrics["usage"] = {str(s): u.to_dict() for s, u in spent.items()}
        self.store.keep(self.match.record)  # or kept, and retried until stored (status)
        self._stored = True


class _Gate:
    """An agent whose decision waits while its game is paused (so the board stops at once)."""

    def __init__(self, agent: Agent, game: WatchSession) -> None:
        self.agent = agent
        self.game = game

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        decision = self.agent.act(view, feedback=feedback)
        self.game.wait_released()
        return decision

    def cancel(self) -> None:
        cancel = getattr(self.agent, "cancel", None)
        if callable(cancel):
            cancel()

    @property
    def deadline(self) -> float | None:
        """The agent's own time limit for the move it thinks about (an LLM seat's)."""
        return getattr(self.agent, "deadline", None)

    @property
    def silence_seconds(self) -> float | None:
        return getattr(self.agent, "silence_seconds", None)


class Keeper(threading.Thread):
    """Looks once a second whether anyone watches a game, until it is over."""

    EVERY = 1.0

    def __init__(self, game: WatchSession) -> None:
        super().__init__(name=f"watch-keeper-{game.id[:8]}", daemon=True)
        self.game = game

    def run(self) -> None:
        game, seen = self.game, time.monotonic()
        while not game.ended.wait(self.EVERY):
            count = game.watchers() if game.watchers is not None else 1
            now = time.monotonic()
            if count:
                seen = now
                game.watched_again()
            else:
                game.nobody_watching(now - seen)


class Hosts:
    """The watched game each browser tab started, by browser session id: closing the tab
    stops its game (agents, and model calls that cost money, do not play on unwatched)."""

    def __init__(self) -> None:
        self._games: dict[str, WatchSession] = {}
        self._lock = threading.Lock()

    def attach(self, browser: str, game: WatchSession) -> None:
        """``game`` is this tab's now; the one it replaces is stopped."""
        with self._lock:
            previous = self._games.get(browser)
            self._games[browser] = game
        if previous is not None and previous is not game:
            previous.stop("a new game was started")

    def close(self, browser: str, reason: str = "the tab that started it was closed") -> None:
        with self._lock:
            game = self._games.pop(browser, None)
        if game is not None:
            game.stop(reason)

    def __len__(self) -> int:
        return len(self._games)


HOSTS = Hosts()


def seat_agents(spec: registry.GameSpec) -> list[tuple[str, str]]:
    """(label, spec) of every agent that can sit at ``spec``'s table on the Watch tab."""
    return [(o.label, o.spec) for o in opponents_for(spec) if o.status != "unavailable"]


def default_seats(spec: registry.GameSpec, players: int) -> list[str]:
    """A first pairing to offer: a ready language model in the first seat when there is one,
    the classic agents that fit in the others, in turn."""
    options = opponents_for(spec)
    classic = [o.spec for o in options if not o.llm] or ["random"]
    ready = [c.spec for c in ready_models()]
    seats = [classic[i % len(classic)] for i in range(players)]
    if ready:
        seats[0] = ready[0]
    return seats


_RUNNING: set[WatchSession] = set()
_RUNNING_LOCK = threading.Lock()


def running() -> int:
    """Watched games playing now in this process."""
    return len(_RUNNING)


def _names(game: WatchSession, seats: Sequence[int]) -> str:
    if len(seats) > 2:
        return f"{len(seats)} players"
    return " and ".join(game.seat_name(s) for s in seats)


def result_text(record: MatchRecord, name: Callable[[int], str]) -> str:
    """How a game between named seats ended, in a sentence ('' while it runs)."""
    if record.outcome == "abandoned":
        return f"Stopped ({record.end_reason}): not counted."
    if record.outcome == "forfeit":
        loser = record.ended_by or 0
        return f"{name(loser)} forfeited ({record.end_reason})."
    if record.outcome != "normal" or record.scores is None:
        return ""
    scores = record.scores
    seats = range(len(scores))
    returns = record.returns or [0.0] * len(scores)
    shown = ", ".join(f"{name(s)} {_number(returns[s])}" for s in seats)
    if len(scores) == 2:
        if scores[0] == scores[1]:
            return f"Game over: a draw. Final returns: {shown}."
        winner = 0 if scores[0] > scores[1] else 1
        return f"Game over: {name(winner)} won. Final returns: {shown}."
    best = max(returns)
    winners = [name(s) for s in seats if returns[s] == best]
    return f"Game over: {' and '.join(winners)} placed first. Final returns: {shown}."


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
