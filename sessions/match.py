"""The match engine: owns one pyspiel state, routes every proposal through the adapter.

A :class:`Match` resolves chance nodes from its recorded seed, knows which seats must act
(one in sequential games, every seat in simultaneous ones, N seats in multi-player ones),
and appends each applied move, with the attempts rejected before it, to its record. It is
the only caller of ``apply_action``; it is safe to call from several threads. Of any raw
input (a typed move, an agent's answer or reasoning) the record keeps at most
``games.actions.MAX_KEPT_CHARS`` characters, with the whole length and the SHA-256 of the
rest in the move's or attempt's ``meta`` (``raw_cut``, ``reasoning_cut``).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pyspiel

from games import registry, talk
from games.actions import (
    LegalMove,
    MoveError,
    Proposal,
    Text,
    clip_text,
    legal_moves,
    resolve,
)
from games.seat_view import PublicMove, SeatView
from renderers import text_view
from sessions.record import (
    CHANCE,
    Attempt,
    MatchRecord,
    MoveRecord,
    SeatRecord,
    placement_scores,
    shown_label,
    team_scores,
)


class NotYourTurn(ValueError):
    """A proposal from a seat that is not to move now (a stale click, a finished game)."""


class Match:
    """One session of one game: its live state and its record."""

    def __init__(self, game_id: str, seats: list[SeatRecord], *, seed: int,
                 params: Mapping[str, Any] | None = None, research_use: bool = True) -> None:
        self.spec = registry.get(game_id)
        chosen = self.spec.params(params)
        if self.spec.seed_param and int(chosen.get(self.spec.seed_param, -1)) < 0:
            chosen[self.spec.seed_param] = seed % 2**31
        self.game = self.spec.load(chosen)
        if len(seats) != self.game.num_players():
            raise ValueError(
                f"{self.spec.title} needs {self.game.num_players()} seats, got {len(seats)}"
            )
        seats = _distinct(seats)
        self.record = MatchRecord(game=game_id, params=dict(chosen), seed=seed, seats=seats,
                                  research_use=research_use)
        self._state = self.game.new_initial_state()
        self._chance = np.random.default_rng(seed)
        self._lock = threading.RLock()
        self._pending: dict[int, MoveRecord] = {}
        self._attempts: dict[int, list[Attempt]] = defaultdict(list)
        self._turn_started: dict[int, float] = {}
        self._node = 0
        self._advance()

    # --- reading --------------------------------------------------------------------------

    @property
    def state(self) -> pyspiel.State:
        """A copy of the current state (changing it changes nothing here)."""
        with self._lock:
            return self._state.clone()

    @property
    def over(self) -> bool:
        return self.record.finished

    def to_move(self) -> list[int]:
        """The seats that must act now; empty when the game is over."""
        with self._lock:
            if self.over or self._state.is_terminal():
                return []
            if self._state.is_simultaneous_node():
                return [p for p in range(self.game.num_players())
                        if p not in self._pending and self._state.legal_actions(p)]
            return [self._state.current_player()]

    def legal(self, seat: int) -> list[LegalMove]:
        with self._lock:
            return legal_moves(self.spec, self._state, seat)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows now: its text view, legal moves and the moves it saw."""
        with self._lock:
            state = self._state.clone()
            legal = tuple(legal_moves(self.spec, state, seat)) if seat in self.to_move() else ()
            return SeatView(
                game=self.spec, seat=seat, text=text_view(self.spec.id, state, seat),
                legal=legal, history=tuple(self.visible_moves(seat)), state=state,
            )

    def visible_moves(self, seat: int) -> list[PublicMove]:
        """The recorded moves ``seat`` was shown, in order, as it was shown them: whole, or
        what the rules tell the other seats (``GameSpec.public_label``)."""
        shown = self.spec.visibility
        finished = self.over
        return [
            PublicMove(move.seat, label)
            for move in self.record.moves
            if (label := shown_label(move, shown, seat, final=finished)) is not None
        ]

    # --- acting ---------------------------------------------------------------------------

    def submit(self, seat: int, proposal: Proposal, *, raw: str | None = None,
               reasoning: str = "", meta: dict[str, Any] | None = None,
               fallback: bool = False) -> LegalMove:
        """Apply ``seat``'s proposal, or raise and change nothing but the attempt log.

        Raises :class:`NotYourTurn` for a seat that is not to move (nothing is recorded) and
        a :class:`MoveError` when the adapter rejects the proposal (the attempt is recorded
        and is stored with the move that finally gets played).
        """
        with self._lock:
            if seat not in self.to_move():
                raise NotYourTurn(self._not_your_turn(seat))
            said, kept = _kept(raw if raw is not None else _raw_text(proposal), meta)
            try:
                move = resolve(self.spec, self._state, seat, proposal)
            except MoveError as err:
                self._attempts[seat].append(
                    Attempt(said, err.reason, str(err), time.time(), meta=kept))
                raise
            reasoning, cut = clip_text(reasoning)
            if cut is not None:
                kept["reasoning_cut"] = cut
            entry = MoveRecord(
                seat=seat, action=move.action, label=move.label, node=self._node,
                started_at=self._turn_started.pop(seat, time.time()), ended_at=time.time(),
                raw=said, rejected=self._attempts.pop(seat, []), reasoning=reasoning,
                message=proposal.message, fallback=fallback, meta=kept,
                text=move.text, public=self._public(seat, move.action),
            )
            if self._state.is_simultaneous_node():
                self._pending[seat] = entry
                if not self.to_move():
                    self._apply_joint()
            else:
                talk.apply(self._state, move.action, move.text)
                self.record.moves.append(entry)
                self._node += 1
            self._advance()
            return move

    def reject(self, seat: int, raw: str, reason: str, message: str, *,
               meta: dict[str, Any] | None = None) -> None:
        """Record a failed attempt that never reached the adapter (an API error, a timeout)."""
        with self._lock:
            said, kept = _kept(raw, meta)
            self._attempts[seat].append(Attempt(said, reason, message, time.time(), meta=kept))

    def attempts(self, seat: int) -> list[Attempt]:
        """The failed attempts of ``seat`` at the current decision."""
        with self._lock:
            return list(self._attempts.get(seat, []))

    def forfeit(self, seat: int, reason: str) -> None:
        """End the session with ``seat`` losing (resignation, or too many bad answers)."""
        with self._lock:
            if self.over:
                raise NotYourTurn("the game is already over")
            teams = self._teams()
            standing = [-1.0 if p == seat or (teams[seat] is not None and team == teams[seat])
                        else 0.0 for p, team in enumerate(teams)]
            self._finish("forfeit", scores=self._scores(standing), ended_by=seat,
                         reason=reason)

    def abandon(self, reason: str = "abandoned") -> None:
        """End the session without a result (a closed tab, a stopped tournament)."""
        with self._lock:
            if not self.over:
                self._finish("abandoned", scores=None, ended_by=None, reason=reason)

    # --- internals ------------------------------------------------------------------------

    def _apply_joint(self) -> None:
        entries = [self._pending[p] for p in sorted(self._pending)]
        self._state.apply_actions([entry.action for entry in entries])
        self.record.moves.extend(entries)
        self._pending.clear()
        self._node += 1

    def _advance(self) -> None:
        while True:
            self._resolve_chance()
            if self._state.is_terminal():
                if not self.over:
                    returns = [float(r) for r in self._state.returns()]
                    self.record.returns = returns
                    self._finish("normal", scores=self._scores(returns), ended_by=None,
                                 reason="")
                return
            if not (self._state.is_simultaneous_node() and self._play_forced()):
                break
        now = time.time()
        for seat in self.to_move():
            self._turn_started.setdefault(seat, now)

    def _resolve_chance(self) -> None:
        while self._state.is_chance_node():
            outcomes = self._state.chance_outcomes()
            probabilities = np.array([p for _, p in outcomes], dtype=float)
            pick = self._chance.choice(len(outcomes), p=probabilities / probabilities.sum())
            action = int(outcomes[pick][0])
            label = self._state.action_to_string(CHANCE, action)
            public = self._public(CHANCE, action)
            now = time.time()
            self._state.apply_action(action)
            self.record.moves.append(MoveRecord(CHANCE, action, label, self._node, now, now,
                                                public=public))
            self._node += 1

    def _public(self, seat: int, action: int) -> str | None:
        """What the other seats are told of ``seat``'s ``action`` (CHANCE: of a chance
        outcome) about to be applied, when the game hides it but has a public label for it;
        None otherwise (the move is seen whole, or not at all)."""
        spec = self.spec
        hidden = not (spec.visibility.chance if seat == CHANCE else spec.visibility.moves)
        if spec.public_label is None or not hidden:
            return None
        return spec.public_label(self._state, seat, action)

    def _play_forced(self) -> bool:
        """Record the only move of seats with no choice at this simultaneous node (OpenSpiel
        gives a seat that sits a node out one no-op action); True when that completed it."""
        for seat in range(self.game.num_players()):
            legal = self._state.legal_actions(seat)
            if seat in self._pending or len(legal) != 1:
                continue
            now = time.time()
            label = self.spec.grammar.label(self._state, seat, legal[0])
            self._pending[seat] = MoveRecord(seat, legal[0], label, self._node, now, now,
                                             meta={"forced": True},
                                             public=self._public(seat, legal[0]))
        if self._pending and not self.to_move():
            self._apply_joint()
            return True
        return False

    def _teams(self) -> list[str | None]:
        """Each seat's team (None everywhere in games without teams)."""
        players = self.game.num_players()
        if self.spec.teams is None or self._state.is_chance_node():
            return [None] * players
        return list(self.spec.teams(self._state))

    def _scores(self, standing: list[float]) -> list[float]:
        teams = self._teams()
        if any(team is not None for team in teams):
            return team_scores(standing, teams)
        return placement_scores(standing)

    def _finish(self, outcome: str, *, scores: list[float] | None, ended_by: int | None,
                reason: str) -> None:
        for info, team in zip(self.record.seats, self._teams(), strict=True):
            info.team = team
        for seat in sorted(self._attempts):
            for attempt in self._attempts[seat]:
                attempt.seat = seat
                self.record.unplayed.append(attempt)
        self._attempts.clear()
        self.record.outcome = outcome  # type: ignore[assignment]
        self.record.scores = scores
        self.record.ended_by = ended_by
        self.record.end_reason = reason
        self.record.ended_at = time.time()
        if self.spec.metrics is not None and outcome != "abandoned":
            self.record.metrics = _metrics(self.spec, self._state, self.record.seats)

    def _not_your_turn(self, seat: int) -> str:
        if self.over:
            return "the game is over; start a new game to play again"
        if seat in self._pending:
            return "your move for this round is already in; waiting for the other players"
        waiting = ", ".join(f"seat {p}" for p in self.to_move())
        return f"it is not seat {seat}'s turn (waiting for {waiting})"


def _metrics(spec: registry.GameSpec, state: pyspiel.State,
             seats: list[SeatRecord]) -> dict[str, Any]:
    """The spec's session metrics; a failure is stored as an error, never loses the record."""
    assert spec.metrics is not None
    try:
        return spec.metrics(state, [seat.entity for seat in seats])
    except Exception as err:  # noqa: BLE001 - the record must survive a scoring bug
        return {"error": f"{type(err).__name__}: {err}"}


def _distinct(seats: list[SeatRecord]) -> list[SeatRecord]:
    """``seats`` with a copy wherever one record object sits in several seats (each seat
    gets its own team); callers keep the objects they passed in."""
    seen: set[int] = set()
    out = []
    for seat in seats:
        out.append(replace(seat) if id(seat) in seen else seat)
        seen.add(id(seat))
    return out


def _kept(raw: str, meta: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """What the record keeps of raw input: at most ``MAX_KEPT_CHARS`` of it, with its length
    and the SHA-256 of the rest in ``meta["raw_cut"]`` when it was longer."""
    said, cut = clip_text(raw)
    kept = dict(meta or {})
    if cut is not None:
        kept["raw_cut"] = cut
    return said, kept


def _raw_text(proposal: Proposal) -> str:
    if isinstance(proposal, Text):
        return proposal.text
    return repr(proposal)
