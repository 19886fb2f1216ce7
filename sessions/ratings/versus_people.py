""""Beats X% of people": for every agent (and game) with people's sessions, the share of
those sessions it won, with a 95% interval, sorted by the interval's lower bound; entries
with fewer than :data:`MIN_GAMES` sessions are provisional and say how many they still need.

A session counts once per agent seat facing a person: 1 when the agent's score beat the
person's, ½ for a tie, 0 for a loss (team games: an agent on the person's own team is not
facing them). The interval is Wilson's score interval, which stays inside [0, 1] and is
honest for a few games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from sessions.ratings.results import MatchResult, is_human

MIN_GAMES = 10
"""Sessions against people an entry needs before it is ranked without "provisional"."""
Z95 = 1.959963984540054


@dataclass(frozen=True)
class VersusPeople:
    entity: str
    game: str | None
    """None: all games together."""
    sessions: int
    won: float
    """Sessions won, ties counting half."""
    low: float
    high: float

    @property
    def share(self) -> float:
        return self.won / self.sessions if self.sessions else 0.0

    @property
    def needed(self) -> int:
        """Sessions still needed to stop being provisional (0: none)."""
        return max(0, MIN_GAMES - self.sessions)

    @property
    def provisional(self) -> bool:
        return self.needed > 0

    def label(self) -> str:
        """In people's words: "beats 62% of people (95%: 48-74%)", "provisional: ..."."""
        text = (f"beats {self.share:.0%} of people (95%: {self.low:.0%}–{self.high:.0%}, "
                f"{self.sessions} game{'s' if self.sessions != 1 else ''})")
        if self.provisional:
            text = f"provisional, {self.needed} more game{'s' if self.needed != 1 else ''} " \
                   f"needed: {text}"
        return text


def wilson(won: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``won`` successes out of ``n``."""
    if n <= 0:
        return 0.0, 1.0
    p = won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def versus_people(results: Iterable[MatchResult], *, by_game: bool = False
                  ) -> list[VersusPeople]:
    """Every agent that faced people, overall (and per game with ``by_game``), best lower
    bound first; provisional entries after the others."""
    tally: dict[tuple[str, str | None], list[float]] = {}
    for result in results:
        for entity, won in _faced(result):
            for key in ((entity, None), (entity, result.game)) if by_game else ((entity, None),):
                tally.setdefault(key, []).append(won)
    rows = []
    for (entity, game), outcomes in tally.items():
        low, high = wilson(sum(outcomes), len(outcomes))
        rows.append(VersusPeople(entity, game, len(outcomes), sum(outcomes), low, high))
    return sorted(rows, key=lambda r: (r.provisional, -r.low, -r.share, r.entity,
                                       r.game or ""))


def _faced(result: MatchResult) -> list[tuple[str, float]]:
    """(agent entity, its score against the person) per agent seat facing a person."""
    people = [i for i, e in enumerate(result.entities) if is_human(e)]
    if not people:
        return []
    teams = result.teams or (None,) * len(result.entities)
    out = []
    for i, entity in enumerate(result.entities):
        if is_human(entity):
            continue
        for p in people:
            if teams[i] is not None and teams[i] == teams[p]:
                continue
            mine, theirs = result.scores[i], result.scores[p]
            out.append((entity, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0))
    return out
