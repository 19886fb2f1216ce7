"""The Leaderboard tab's tables in people's words: what the page shows of a
:class:`~sessions.ratings.leaderboard.LeaderboardView`, without changing how ratings are
computed (the API and the CSV keep the raw tables).

- Entries are named as people say them (``MCTS (25 simulations, no time cap)``, ``People``),
  with the raw entity in the cell's hover text.
- An interval of no width (every bootstrap resample saw the same data: one match, or an
  entry that won every match) says "too few games" instead of a false certainty.
- Ranked entries are listed by their interval's lower bound, highest first (an entry is
  placed by what its games make sure of, not by a lucky streak); the rank counts the ranked
  entries whose interval lies wholly above.
- An entry with fewer rated matches than the minimum is listed after the ranked ones,
  labelled "provisional, N more games needed" instead of a rank.
- Beside the rating, "beats X% of people": the share of people's sessions the agent won,
  with its 95% interval (:mod:`sessions.ratings.versus_people`), provisional in the same
  way when it faced people in fewer sessions than the minimum.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from games import registry
from sessions.ratings.leaderboard import LeaderboardView, Table
from sessions.ratings.report import Rating, RatingTable
from sessions.ratings.results import is_human
from sessions.ratings.versus_people import VersusPeople
from sessions.web.plain import escape
from sessions.web.players import agent_name

MIN_GAMES_ENV = "ARENA_MIN_GAMES"
DEFAULT_MIN_GAMES = 10
BEATS_PEOPLE = "beats people (95% interval)"
NEVER_MET = "no games against people"
TOO_FEW = "too few games"
PENDING = "being computed"


def min_games(value: float | None = None) -> int:
    """The minimum number of rated matches before an entry is ranked: ``value`` when given,
    else ``$ARENA_MIN_GAMES``, else :data:`DEFAULT_MIN_GAMES`."""
    if value is None:
        raw = os.environ.get(MIN_GAMES_ENV, "")
        value = int(raw) if raw.strip().isdigit() else DEFAULT_MIN_GAMES
    return max(0, int(value))


@dataclass(frozen=True)
class Standing:
    """One row of a ranking as the page shows it."""

    rating: Rating
    name: str
    rank: int | None
    """None: fewer matches than the minimum (listed after the ranked entries)."""
    needed: int = 0
    """Rated matches still needed before the entry is ranked."""

    @property
    def place(self) -> int | str:
        """The rank, or "provisional, N more games needed"."""
        return self.rank if self.rank is not None else provisional(self.needed)

    @property
    def interval(self) -> str:
        r = self.rating
        if math.isnan(r.low) or math.isnan(r.high):
            return PENDING  # a live leaderboard's newest entry, before its bootstrap
        return TOO_FEW if r.high - r.low < 1e-9 else f"{_two(r.low)} to {_two(r.high)}"


def names(entities: list[str]) -> dict[str, str]:
    """Display names for ``entities``; two entities that read the same keep their raw id."""
    shown = {e: agent_name(e) for e in entities}
    twice = Counter(shown.values())
    return {e: (n if twice[n] == 1 else f"{n} [{e}]") for e, n in shown.items()}


def standings(table: RatingTable, minimum: int) -> list[Standing]:
    """``table``'s rows, ranked among entries with at least ``minimum`` matches, by their
    interval's lower bound; then the provisional entries, in the same order."""
    named = names(table.entities)
    ranked = [r for r in table.rows if r.matches >= minimum]
    out = [Standing(r, named[r.entity], 1 + sum(1 for o in ranked if _low(o) > _high(r)))
           for r in ranked]
    out += [Standing(r, named[r.entity], None, minimum - r.matches)
            for r in table.rows if r.matches < minimum]
    return sorted(out, key=lambda s: (s.rank is None, -_low(s.rating), -s.rating.rating))


def provisional(needed: int) -> str:
    """The label of an entry below the minimum, in people's words."""
    return f"provisional, {needed} more game{'s' if needed != 1 else ''} needed"


def beats_people(entity: str, found: VersusPeople | None, minimum: int) -> str:
    """"62% (48–74%), 25 games": the share of people's sessions the agent won, with its 95%
    interval; provisional below ``minimum`` sessions; empty for People themselves."""
    if is_human(entity):
        return ""
    if found is None:
        return NEVER_MET
    text = (f"{found.share:.0%} ({100 * found.low:.0f}–{found.high:.0%}), {found.sessions} "
            f"game{'s' if found.sessions != 1 else ''}")
    needed = minimum - found.sessions
    return f"{text}; {provisional(needed)}" if needed > 0 else text


def name_cell(name: str, entity: str) -> str:
    """A name with its raw entity on hover (HTML, both escaped)."""
    return f"<span title=\"{escape(entity)}\">{escape(name)}</span>"


def overall(view: LeaderboardView, minimum: int) -> Table:
    """Rank, name, rating, interval, matches, win rate, then one rating per game."""
    report = view.report
    games = list(report.games)
    level = f"{report.settings.level:.0%}"
    met = {v.entity: v for v in view.people if v.game is None}
    rows = []
    for s in standings(report.overall, minimum):
        r = s.rating
        per_game = [report.games[g].get(r.entity) for g in games]
        rows.append([s.place, name_cell(s.name, r.entity), round(r.rating, 2), s.interval,
                     beats_people(r.entity, met.get(r.entity), minimum), r.matches,
                     round(r.win_rate, 2),
                     *("" if x is None else round(x.rating, 2) for x in per_game)])
    return Table(["rank", "player", "rating", f"{level} interval", BEATS_PEOPLE, "matches",
                  "win rate", *(_title(g) for g in games)], rows)


def per_game(view: LeaderboardView, minimum: int) -> Table:
    level = f"{view.report.settings.level:.0%}"
    met = {(v.entity, v.game): v for v in view.people if v.game is not None}
    rows = [[_title(game), s.place, name_cell(s.name, s.rating.entity),
             round(s.rating.rating, 2), s.interval,
             beats_people(s.rating.entity, met.get((s.rating.entity, game)), minimum),
             s.rating.matches, round(s.rating.win_rate, 2)]
            for game, table in view.report.games.items()
            for s in standings(table, minimum)]
    return Table(["game", "rank", "player", "rating", f"{level} interval", BEATS_PEOPLE,
                  "matches", "win rate"], rows)


def renamed(table: Table, columns: tuple[str, ...] = ("entity", "opponent")) -> Table:
    """``table`` with its entity columns in people's words (raw ids on hover) and game ids
    as titles (the NRA table)."""
    headers = list(table.headers)
    shown = names(sorted({str(row[headers.index(c)]) for row in table.rows
                          for c in columns if c in headers}))
    rows = []
    for row in table.rows:
        cells: list[Any] = []
        for header, cell in zip(headers, row, strict=True):
            if header in columns:
                cells.append(name_cell(shown[str(cell)], str(cell)))
            elif header == "game":
                cells.append(_title(str(cell)))
            else:
                cells.append(cell)
        rows.append(cells)
    return Table(["player" if h == "entity" else h for h in headers], rows)


def head_to_head(table: Table) -> Table:
    """The win-probability table (``entity``, then one column per entity) named for people."""
    entities = [str(h) for h in table.headers[1:]]
    shown = names(entities)
    rows = [[name_cell(shown[str(row[0])], str(row[0])), *row[1:]] for row in table.rows]
    return Table(["P(row beats column)", *(shown[e] for e in entities)], rows)


def plotted(table: RatingTable, minimum: int) -> RatingTable:
    """``table`` for the plots: display names, the page's ranks (provisional entries last)."""
    rows = [replace(s.rating, entity=s.name if s.rank is not None else f"{s.name} (provisional)",
                    rank=s.rank or 0) for s in standings(table, minimum)]
    order = [table.entities.index(s.rating.entity) for s in standings(table, minimum)]
    return replace(table, rows=rows, samples=table.samples[:, order]
                   if table.samples.size else table.samples)


def plot_labels(table: RatingTable) -> list[str]:
    """The forest plot's row labels for a :func:`plotted` table: ``1. Name``, and provisional
    entries (rank 0) without a number."""
    return [r.entity if r.rank == 0 else f"{r.rank}. {r.entity}" for r in table.rows]


def note(minimum: int, table: RatingTable) -> str:
    """The line under the summary: the order, the minimum and who is below it."""
    below = sum(1 for r in table.rows if r.matches < minimum)
    text = (f"Ranked from {minimum} rated matches, listed by the interval's lower bound; "
            f"{below} entr{'y is' if below == 1 else 'ies are'} provisional, listed last "
            "with the games still needed."
            if minimum else "Every entry is ranked, listed by the interval's lower bound.")
    text += (f" '{BEATS_PEOPLE.split(' (')[0]}': the share of people's sessions the agent "
             "won (ties half), with its 95% interval; provisional below the same minimum.")
    return text + f" '{TOO_FEW}': an interval of no width, which a bootstrap gives when " \
                  "it saw too little to vary. Hover a name for its exact configuration."


def _low(r: Rating) -> float:
    """The interval's low end (the rating itself while the interval is being computed)."""
    return r.rating if math.isnan(r.low) else r.low


def _high(r: Rating) -> float:
    return r.rating if math.isnan(r.high) else r.high


def _two(x: float) -> str:
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text


def _title(game: str) -> str:
    try:
        return registry.get(game).title
    except KeyError:
        return game


def ladder_table() -> Table:
    """The difficulty ladder of every game in people's words, with what the calibration
    (``python -m benchmarks.ladder --write``) measured for each level: its score against
    the level below, and the top level's against the two trivial strategies."""
    from agents.ladder import ladders
    from games.registry import get

    rows: list[list[Any]] = []
    for game_id, rungs in ladders().items():
        measured = list(rungs.measured)
        below = measured[:len(rungs.levels) - 1]
        trivial = measured[len(rungs.levels) - 1:]
        for i, level in enumerate(rungs.levels):
            if i == 0:
                shown = "—"
            elif i - 1 < len(below):
                shown = _measured(below[i - 1], "vs the level below")
            else:
                shown = "not measured yet"
            if i == len(rungs.levels) - 1 and trivial:
                shown += "; " + "; ".join(_measured(row, _trivial_words(row["pairing"]))
                                          for row in trivial)
            rows.append([get(game_id).title, level.name, agent_name(level.spec), shown])
    return Table(["Game", "Level", "Opponent", "Measured (score, 95% interval)"], rows)


def _measured(row: dict[str, Any], what: str) -> str:
    mark = "" if row.get("met") else " (target not met)"
    return (f"{what}: {row['mean']:.0%} [{row['low']:.0%}, {row['high']:.0%}] over "
            f"{row['games']} games{mark}")


def _trivial_words(pairing: str) -> str:
    return ("vs always the first move" if "first legal move" in pairing
            else "vs always pass/stay/end")
