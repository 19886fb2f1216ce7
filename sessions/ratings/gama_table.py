"""GAMA-Bench's leaderboard table from stored sessions: per game and overall, per agent.

Each finished session of a GAMA game stores its 0-100 scores (``record.metrics["gama"]``) per
entity (agent configuration) and per seat. A cell is the mean over sessions of an entity's
score in that game, with its standard deviation and session count, as in the paper's Table 1;
``overall`` is the mean of the eight game means, given only when all eight were played.
The spread is the sample standard deviation (n − 1 in the denominator), as GAMA-Bench
reports it; one session has none, and its cell shows "± —".
Sessions that GAMA does not score (El Farol with explicit information, the second-price
auction) and unfinished ones are left out; so are records without GAMA scores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from sessions.record import MatchRecord

GAMES = ("guess_2_3", "el_farol", "divide_dollar", "public_goods", "diners_dilemma",
         "sealed_bid_auction", "battle_royale", "pirate_game")
TITLES = {
    "guess_2_3": "Guess 2/3 of the Average", "el_farol": "El Farol Bar",
    "divide_dollar": "Divide the Dollar", "public_goods": "Public Goods Game",
    "diners_dilemma": "Diner's Dilemma", "sealed_bid_auction": "Sealed-Bid Auction",
    "battle_royale": "Battle Royale", "pirate_game": "Pirate Game",
}


@dataclass(frozen=True)
class Cell:
    mean: float
    std: float | None  # the sample standard deviation; None for a single session
    sessions: int

    @staticmethod
    def of(values: list[float]) -> Cell:
        mean = fmean(values)
        if len(values) < 2:
            return Cell(mean, None, len(values))
        # statistics.stdev's value, without its exact fractions (5 ms per thousand sessions)
        spread = math.sqrt(math.fsum([(x - mean) ** 2 for x in values]) / (len(values) - 1))
        return Cell(mean, spread, len(values))

    def text(self) -> str:
        spread = "—" if self.std is None else f"{self.std:.1f}"
        return f"{self.mean:.1f} ± {spread} ({self.sessions})"


@dataclass
class GamaRow:
    """One agent configuration (or one person) across GAMA's games."""

    entity: str
    cells: dict[str, Cell] = field(default_factory=dict)

    @property
    def overall(self) -> float | None:
        if any(game not in self.cells for game in GAMES):
            return None
        return fmean(self.cells[game].mean for game in GAMES)

    def to_dict(self) -> dict[str, Any]:
        return {"entity": self.entity, "overall": self.overall,
                "games": {g: vars(c) for g, c in self.cells.items()}}


def gama_table(records: Iterable[MatchRecord], *, by_player: bool = False) -> list[GamaRow]:
    """Rows sorted by overall score (then by games played and mean), best first.

    ``by_player`` gives each person (``human:<player id>``) a row from their own seat's
    score, instead of pooling all people as ``human``.
    """
    tally = GamaTally(by_player=by_player)
    for record in records:
        tally.add(record)
    return tally.rows()


class GamaTally:
    """GAMA-Bench's table, one session at a time: a live leaderboard adds the sessions
    stored since it last looked, and only the cells they touch are worked out again."""

    def __init__(self, *, by_player: bool = False) -> None:
        self.by_player = by_player
        self.seen: set[str] = set()
        self.scores: dict[str, dict[str, list[float]]] = {}
        self._cells: dict[tuple[str, str], Cell] = {}

    def add(self, record: MatchRecord) -> None:
        """Count ``record`` (once, however often it is added)."""
        if record.id in self.seen:
            return
        self.seen.add(record.id)
        for entity, score in _session_scores(record, by_player=self.by_player):
            self.scores.setdefault(entity, {}).setdefault(record.game, []).append(score)
            self._cells.pop((entity, record.game), None)

    def rows(self, game: str | None = None) -> list[GamaRow]:
        """The table (of one game's cells only, with ``game``), best first."""
        rows = []
        for entity, games in self.scores.items():
            cells = {}
            for name, values in games.items():
                if game is None or name == game:
                    cell = self._cells.get((entity, name))
                    if cell is None:
                        cell = self._cells[(entity, name)] = Cell.of(values)
                    cells[name] = cell
            if cells:
                rows.append(GamaRow(entity, cells))
        return sorted(rows, key=_rank)


def _rank(row: GamaRow) -> tuple[float, int, float]:
    overall = row.overall
    played = fmean(c.mean for c in row.cells.values())
    return (-(overall if overall is not None else -1.0), -len(row.cells), -played)


def _session_scores(record: MatchRecord, *, by_player: bool) -> list[tuple[str, float]]:
    gama = record.metrics.get("gama")
    if (record.game not in GAMES or not gama or record.outcome != "normal"
            or not gama.get("complete") or not gama.get("comparable")):
        return []
    out = []
    for entity, result in gama["entities"].items():
        if by_player and entity == "human":
            continue
        if result.get("score") is not None:
            out.append((entity, float(result["score"])))
    if by_player:
        for seat, info in enumerate(record.seats):
            score = gama["seats"][seat].get("score")
            if info.kind == "human" and score is not None:
                out.append((f"human:{info.player_id or 'anonymous'}", float(score)))
    return out


def session_summary(record: MatchRecord) -> tuple[list[str], list[list[str]]]:
    """The end-of-game table of one session: each seat's player, result, place and GAMA
    score (0-100), best result first."""
    gama = record.metrics.get("gama", {})
    seats = gama.get("seats", [{}] * len(record.seats))
    returns = record.returns or [0.0] * len(record.seats)
    order = sorted(range(len(record.seats)), key=lambda s: -returns[s])
    rows = []
    for seat in order:
        info, score = record.seats[seat], seats[seat].get("score")
        who = info.display_name or ("you" if info.kind == "human" else info.entity)
        place = 1 + sum(1 for r in returns if r > returns[seat])
        rows.append([str(seat), who, f"{returns[seat]:g}", str(place),
                     "—" if score is None else f"{score:.1f}"])
    return ["seat", "player", "result", "place", "GAMA score"], rows


def table_rows(rows: list[GamaRow]) -> tuple[list[str], list[list[str]]]:
    """Headers and cells for a page's data frame (``mean ± std (sessions)``)."""
    headers = ["agent", *(TITLES[g] for g in GAMES), "Overall"]
    body = []
    for row in rows:
        cells = [row.cells[g].text() if g in row.cells else "—" for g in GAMES]
        overall = f"{row.overall:.1f}" if row.overall is not None else "—"
        body.append([row.entity, *cells, overall])
    return headers, body


def markdown(rows: list[GamaRow]) -> str:
    headers, body = table_rows(rows)
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)
