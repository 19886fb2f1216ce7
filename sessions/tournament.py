"""Headless tournaments: the same matches the browser plays, without a browser."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tqdm import tqdm

from agents.specs import AgentSpec, parse_spec
from games import registry
from sessions.engine import FailurePolicy
from sessions.fanout import Job, Runner, Schedule, Serial, play_one
from sessions.record import MatchRecord
from sessions.store import Store

__all__ = ["Standing", "TournamentResult", "match_seed", "play_one", "run_tournament", "seating"]


@dataclass
class Standing:
    """One participant's results over a tournament."""

    participant: int
    spec: str
    entity: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    returns: list[float] = field(default_factory=list)

    @property
    def mean_return(self) -> float | None:
        return sum(self.returns) / len(self.returns) if self.returns else None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("returns")
        data["mean_return"] = self.mean_return
        return data


@dataclass
class TournamentResult:
    game: str
    params: dict[str, Any]
    seed: int
    standings: list[Standing]
    record_ids: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "params": self.params, "seed": self.seed,
                "matches": len(self.record_ids),
                "standings": [s.to_dict() for s in self.standings]}

    def table(self) -> str:
        rows = [("#", "agent", "matches", "wins", "draws", "losses", "forfeits", "mean return")]
        for s in self.standings:
            mean = "-" if s.mean_return is None else f"{s.mean_return:+.3f}"
            rows.append((str(s.participant), s.spec, str(s.matches), str(s.wins), str(s.draws),
                         str(s.losses), str(s.forfeits), mean))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                 for row in rows]
        return "\n".join(lines)


def match_seed(seed: int, index: int) -> int:
    return (seed * 100_003 + index) % 2**31


def seating(index: int, participants: int) -> list[int]:
    """Which participant sits in each seat in match ``index``: rotate so each moves first."""
    return [(seat + index) % participants for seat in range(participants)]


def run_tournament(game_id: str, specs: Sequence[str], *, matches: int, seed: int, store: Store,
                   params: Mapping[str, Any] | None = None,
                   policy: FailurePolicy = FailurePolicy(), progress: bool = True,
                   runner: Runner | None = None) -> TournamentResult:
    """Play ``matches`` matches, rotating seats, storing each record as it completes.

    ``runner`` plays them (sessions.fanout: serial by default, N processes, or Ray); this
    process alone stores them, so each is stored once, and match i's record depends only on
    ``seed`` and i, not on where or when it ran.
    """
    spec = registry.get(game_id)
    parsed: list[AgentSpec] = [parse_spec(s) for s in specs]
    chosen = spec.params(params)
    players = spec.load(chosen).num_players()
    if len(parsed) != players:
        raise ValueError(f"{spec.title} needs {players} agents, got {len(parsed)}")
    standings = [Standing(i + 1, a.text, a.entity) for i, a in enumerate(parsed)]
    jobs = [Job(game_id, tuple(parsed[p] for p in seating(index, players)),
                match_seed(seed, index), dict(chosen), policy, tag=seating(index, players))
            for index in range(matches)]
    ids = []
    bar = tqdm(total=matches, desc=f"{game_id}", unit="match", disable=not progress,
               file=sys.stderr)
    for job, record in Schedule(jobs, runner or Serial()).results():
        store.save(record)
        ids.append(record.id)
        _tally(standings, job.tag, record)
        bar.update(1)
        bar.set_postfix_str(" ".join(f"{s.participant}:{s.wins}W" for s in standings))
    bar.close()
    return TournamentResult(game_id, dict(chosen), seed, standings, ids)


def _tally(standings: list[Standing], order: list[int], record: MatchRecord) -> None:
    for seat, participant in enumerate(order):
        standing = standings[participant]
        standing.matches += 1
        if record.outcome == "forfeit" and record.ended_by == seat:
            standing.forfeits += 1
        score = record.scores[seat] if record.scores else None
        if score is None:
            continue
        if score == 1.0:
            standing.wins += 1
        elif score == 0.0:
            standing.losses += 1
        else:
            standing.draws += 1
        if record.returns is not None:
            standing.returns.append(record.returns[seat])
