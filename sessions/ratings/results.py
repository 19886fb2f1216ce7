"""What ratings read: finished matches as :class:`MatchResult`, and why others are left out.

Who is rated: each seat's ``entity`` (one per agent configuration: ``mcts:1000:2s`` is not
``mcts:1000:0s``), and ``human`` for every human seat of a session its player agreed to
share for research (optionally ``human:<player id>`` per player, see :func:`by_player`).
Sessions that were abandoned or unfinished, not shared, or hold bad data (an agent kind
we do not know, a score outside [0, 1], one entity in every seat) are not rated; a
:class:`ResultSet` counts them by reason. Forfeits are rated: the forfeiter lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only for types: the record module loads OpenSpiel
    from sessions.record import MatchRecord

HUMAN = "human"
KINDS = frozenset({"random", "mcts", "ismcts", "tit-for-tat", "equilibrium", "adaptive", "human",
                   "llm", "minilm", "bot", "strategic"})
"""Agent kinds ratings know (agents.specs.CLASSIC, people and LLMs); GAMA-Bench's bots
(equilibrium, adaptive) included."""


@dataclass(frozen=True)
class MatchResult:
    """One finished match as ratings see it: the game, who sat in each seat, their scores."""

    game: str
    entities: tuple[str, ...]
    scores: tuple[float, ...]
    returns: tuple[float, ...] | None = None
    ended_at: float | None = None
    players: tuple[str | None, ...] = ()
    id: str = ""
    teams: tuple[str | None, ...] = ()
    """Each seat's team in a team game (empty otherwise); :func:`opposing_pairs` turns such
    a result into its two-seat comparisons before anything is rated."""
    tags: tuple[str, ...] = ()
    """The session's tags (``blind`` for a blind battle; see ``MatchRecord.tags``)."""

    @property
    def tie(self) -> bool:
        return len(set(self.scores)) == 1

    @property
    def has_human(self) -> bool:
        return any(is_human(e) for e in self.entities)


def is_human(entity: str) -> bool:
    return entity == HUMAN or entity.startswith(HUMAN + ":")


@dataclass
class ResultSet:
    """Rateable results and, by reason, how many sessions were left out."""

    results: list[MatchResult]
    dropped: Counter[str] = field(default_factory=Counter)


def result_of(record: MatchRecord) -> MatchResult | str:
    """The record's result, or the reason it cannot be rated."""
    seats = [{"kind": s.kind, "entity": s.entity, "player_id": s.player_id,
              "score": record.scores[i] if record.scores and i < len(record.scores) else None,
              "return": record.returns[i] if record.returns and i < len(record.returns) else None,
              "team": s.team}
             for i, s in enumerate(record.seats)]
    return _result(record.id, record.game, record.outcome, record.research_use,
                   record.ended_at, seats, tuple(record.tags))


def results_from_records(records: Iterable[MatchRecord]) -> ResultSet:
    out = ResultSet([])
    for record in records:
        _collect(out, result_of(record))
    return out


def results_from_store(store: Any) -> ResultSet:
    """Rateable results of every session in a :class:`sessions.store.Store`."""
    out = ResultSet([])
    for row in store.results():
        _collect(out, result_of_row(row))
    return out


def result_of_row(row: dict[str, Any]) -> MatchResult | str:
    """The result of one row of ``Store.results()``, or the reason it cannot be rated."""
    return _result(row["id"], row["game"], row["outcome"], row["research_use"],
                   row["ended_at"], row["seats"], tuple(row.get("tags", ())))


def _collect(out: ResultSet, result: MatchResult | str) -> None:
    rated = rated_results(result)
    if isinstance(rated, str):
        out.dropped[rated] += 1
    else:
        out.results.extend(rated)


def rated_results(result: MatchResult | str) -> list[MatchResult] | str:
    """What a session adds to the ratings: its result, a team game's opposing pairs, or
    the reason it adds nothing."""
    if isinstance(result, str) or not result.teams:
        return result if isinstance(result, str) else [result]
    return opposing_pairs(result) or "one entity on every opposing pair"


def opposing_pairs(result: MatchResult) -> list[MatchResult]:
    """The two-seat comparisons of a team game: every pair of seats on different teams
    whose entities differ, each with its own two scores."""
    pairs = []
    n = len(result.entities)
    for i in range(n):
        for j in range(i + 1, n):
            same_team = result.teams[i] is not None and result.teams[i] == result.teams[j]
            if same_team or result.entities[i] == result.entities[j]:
                continue
            pick = (i, j)
            pairs.append(replace(
                result, entities=tuple(result.entities[k] for k in pick),
                scores=tuple(result.scores[k] for k in pick),
                returns=None if result.returns is None else tuple(result.returns[k] for k in pick),
                players=tuple(result.players[k] for k in pick) if result.players else (),
                teams=()))
    return pairs


def _result(match_id: str, game: str, outcome: str | None, research_use: bool,
            ended_at: float | None, seats: list[dict[str, Any]],
            tags: tuple[str, ...] = ()) -> MatchResult | str:
    if outcome is None:
        return "unfinished"
    if outcome == "abandoned":
        return "abandoned"
    if not research_use:
        return "not shared for research"
    if "unrated" in tags:  # a model the server's opponents file does not list (llm_page)
        return "a model the server does not list"
    if any(s["kind"] not in KINDS or not s["entity"] for s in seats):
        return "unknown agent"
    scores = [s["score"] for s in seats]
    if any(x is None or not 0.0 <= float(x) <= 1.0 for x in scores):
        return "score missing or outside [0, 1]"
    entities = tuple(HUMAN if s["kind"] == "human" else s["entity"] for s in seats)
    if len(set(entities)) < 2:
        return "one entity in every seat"
    returns = [s["return"] for s in seats]
    teams = tuple(s.get("team") for s in seats)
    return MatchResult(game, entities, tuple(float(x) for x in scores),
                       None if any(r is None for r in returns) else tuple(map(float, returns)),
                       ended_at, tuple(s["player_id"] for s in seats), match_id,
                       teams if any(t is not None for t in teams) else (), tags)


def by_player(results: Sequence[MatchResult], min_matches: int) -> list[MatchResult]:
    """Rate each anonymous human player with ≥ ``min_matches`` matches as ``human:<id>``;
    the other human seats stay pooled as ``human``."""
    counts = Counter(p for r in results for e, p in zip(r.entities, r.players, strict=False)
                     if e == HUMAN and p)
    keep = {p for p, n in counts.items() if n >= min_matches}
    out = []
    for r in results:
        names = tuple(f"{HUMAN}:{p}" if e == HUMAN and p in keep else e
                      for e, p in zip(r.entities, r.players or (None,) * len(r.entities),
                                      strict=True))
        out.append(replace(r, entities=names) if names != r.entities else r)
    return out


def parse_when(value: str | float | None, *, end: bool = False) -> float | None:
    """A time as seconds since the epoch from ``YYYY-MM-DD`` (UTC; ``end`` means the end of
    that day), an ISO date-time, or a number; None or "" for no bound."""
    if value is None or value == "":
        return None
    if isinstance(value, int | float):
        return float(value)
    text = value.strip()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"cannot read the date {value!r}; write YYYY-MM-DD or "
                         "YYYY-MM-DDTHH:MM (UTC unless an offset is given)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if end and len(text) == 10:
        moment += timedelta(days=1)
    return moment.timestamp()


def blind_counted(tags: Iterable[str]) -> bool:
    """Whether a session counts for the blind-battle ratings: a blind battle whose model did
    not name itself (sessions.web.blind.NAMED_ITSELF)."""
    tags = set(tags)
    return "blind" in tags and "named-itself" not in tags


def select(results: Iterable[MatchResult], *, game: str | None = None,
           humans_only: bool = False, since: float | None = None,
           until: float | None = None, blind_only: bool = False) -> list[MatchResult]:
    """Results of one game, with a human seat, ended in [since, until), or blind battles
    (those whose model named itself before the end, tagged ``named-itself``, left out)."""
    return [r for r in results
            if (game is None or r.game == game) and (not humans_only or r.has_human)
            and (not blind_only or blind_counted(r.tags))
            and (since is None or (r.ended_at is not None and r.ended_at >= since))
            and (until is None or (r.ended_at is not None and r.ended_at < until))]
