"""The match record: the unit of storage, export and rating.

A record holds everything needed to audit and replay a session: the game and its
parameters, the seed, who sat where, every move (with every rejected attempt and why), the
final returns and how the session ended. :func:`replay` rebuilds the final state from it.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import pyspiel

from games import registry, talk
from games.registry import Visibility

SCHEMA_VERSION = 1
APP_VERSION = "0.1.0"
CHANCE = -1

Outcome = Literal["normal", "forfeit", "abandoned"]
TAGS = ("blind", "watch", "showcase")
"""The tags a session may carry (``MatchRecord.tags``)."""


@dataclass
class Attempt:
    """A rejected answer: what was said, why it was refused, and the message sent back."""

    raw: str
    reason: str
    message: str
    at: float
    seat: int | None = None
    """Set for attempts in ``MatchRecord.unplayed`` (on a move, the move's seat is the seat)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """What the attempt cost and how it was produced (an LLM's tokens, latency, calls)."""


@dataclass
class MoveRecord:
    """One applied action. Moves of one simultaneous node share ``node``."""

    seat: int
    action: int
    label: str
    node: int
    started_at: float
    ended_at: float
    raw: str = ""
    rejected: list[Attempt] = field(default_factory=list)
    reasoning: str = ""
    message: str = ""
    fallback: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    text: str | None = None
    """The words the move carried (a clue, a question, a statement: games played by
    talking), fed back to the game on replay; None for moves without words."""
    public: str | None = None
    """What the other seats were told of a move the game hides from them
    (``GameSpec.public_label``: ``play a card face-down to Air``); None when they saw
    nothing of it, or when the move was shown whole (``label``). Records written before
    this field load with None."""


@dataclass
class SeatRecord:
    """Who sat in a seat. ``entity`` is the identity ratings use (spec with its settings).

    ``team``: the side the seat played for in a team game (Codenames' ``red``/``blue``, the
    good or evil side of a hidden-role game), written when the game ends, since a deal may
    decide it; None for a seat that plays for itself. A person on a team with language
    models is still kind and entity ``human``."""

    kind: str
    spec: str
    entity: str
    settings: dict[str, Any] = field(default_factory=dict)
    player_id: str | None = None
    display_name: str | None = None
    team: str | None = None


@dataclass
class MatchRecord:
    game: str
    params: dict[str, Any]
    seed: int
    seats: list[SeatRecord]
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    moves: list[MoveRecord] = field(default_factory=list)
    returns: list[float] | None = None
    scores: list[float] | None = None
    outcome: Outcome | None = None
    ended_by: int | None = None
    end_reason: str = ""
    unplayed: list[Attempt] = field(default_factory=list)
    """Rejected attempts at a decision the session ended before (a forfeit after repeated
    invalid answers, an abandonment while a seat was thinking), each with its seat."""
    research_use: bool = True
    metrics: dict[str, Any] = field(default_factory=dict)
    """Benchmark scores computed when the session ended, by name (``gama``: GAMA-Bench's
    raw score and 0-100 score per seat, per entity and for the whole table)."""
    started_at: float = field(default_factory=time.time)
    ended_at: float | None = None
    tags: list[str] = field(default_factory=list)
    """What kind of session this was beyond its seats (:data:`TAGS`): ``blind`` (a person
    played a model whose name was hidden until the end), ``watch`` (agents played on the
    Watch tab), ``showcase`` (an exhibition game of the landing page)."""
    schema: int = SCHEMA_VERSION
    app_version: str = APP_VERSION

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchRecord:
        data = dict(data)
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(
                f"record schema {data.get('schema')!r} is not supported (expected {SCHEMA_VERSION})"
            )
        data["seats"] = [SeatRecord(**seat) for seat in data["seats"]]
        data["moves"] = [
            MoveRecord(**{**move, "rejected": [Attempt(**a) for a in move["rejected"]]})
            for move in data["moves"]
        ]
        data["unplayed"] = [Attempt(**a) for a in data.get("unplayed", [])]
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        return cls.from_dict(json.loads(text))


def shown_label(move: MoveRecord, visibility: Visibility, seat: int | None, *,
                final: bool) -> str | None:
    """What ``seat`` was shown of ``move``: its whole label (its own move, a move or chance
    outcome everyone sees, any move once the game is ``final``), what the others were told
    (``MoveRecord.public``), or None when it saw nothing of it. ``seat`` None is a spectator
    of the public view: shown what every seat at the table is."""
    if move.seat == CHANCE:
        return move.label if visibility.chance else move.public
    if move.seat == seat or visibility.moves or final:
        return move.label
    return move.public


def team_scores(returns: list[float], teams: list[str | None]) -> list[float]:
    """Scores in [0, 1] of a team game: the share of *opposing* seats a seat beat (ties
    count half); teammates are not compared. Two teams: 1 for the winners, 0 for the losers,
    ½ each for a draw. Seats without a team are opposed to everyone."""
    scores = []
    for i, mine in enumerate(returns):
        rivals = [r for j, r in enumerate(returns)
                  if j != i and (teams[i] is None or teams[j] != teams[i])]
        scores.append(sum(1.0 if mine > r else 0.5 if mine == r else 0.0 for r in rivals)
                      / len(rivals) if rivals else 1.0)
    return scores


def placement_scores(returns: list[float]) -> list[float]:
    """Scores in [0, 1] from returns: the share of other seats a seat beat (ties count half).

    With two seats this is 1 for a win, ½ for a draw and 0 for a loss.
    """
    n = len(returns)
    if n < 2:
        return [1.0] * n
    return [
        sum(1.0 if mine > other else 0.5 if mine == other else 0.0
            for j, other in enumerate(returns) if j != i) / (n - 1)
        for i, mine in enumerate(returns)
    ]


def new_state(record: MatchRecord) -> pyspiel.State:
    spec = registry.get(record.game)
    return spec.load(record.params).new_initial_state()


def replay(record: MatchRecord, *, upto: int | None = None) -> pyspiel.State:
    """The state after the first ``upto`` recorded moves (all of them by default)."""
    state = new_state(record)
    moves = record.moves if upto is None else record.moves[:upto]
    i = 0
    while i < len(moves):
        if state.is_simultaneous_node():
            node = moves[i].node
            joint = [m for m in moves[i:] if m.node == node]
            actions = [0] * len(joint)
            for move in joint:
                actions[move.seat] = move.action
            if len(joint) < state.num_players():
                break  # a partly submitted simultaneous node is not applied
            state.apply_actions(actions)
            i += len(joint)
        else:
            talk.apply(state, moves[i].action, moves[i].text)
            i += 1
    return state
