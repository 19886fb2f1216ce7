"""Results as the fit reads them: two-seat matches as arrays, one Python pass over the list.

A report of 1,000,000 matches spent most of its time in per-result Python (tallies, cells and
ties, once overall and once per game). :class:`Matches` reads the results once: two-seat
matches become columns (game, both seats' entities, both scores) and everything after —
splitting by game, the fit's cells, matches played and win rates, ties — is array work.
Matches of more seats (rarer, and each a standing of its own) are kept as they came.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import attrgetter
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from sessions.ratings import resample
from sessions.ratings.results import MatchResult

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Ties = Literal["half", "drop"]


@dataclass(frozen=True)
class Matches:
    """Results over ``entities`` (sorted names) in ``games`` (sorted ids).

    Two-seat matches are rows of ``game`` (index into ``games``), ``seats`` (entity
    indices) and ``scores``; ``others`` holds the matches of more seats as
    (game index, entity indices, result)."""

    entities: list[str]
    games: list[str]
    game: IntArray  # (P,)
    seats: IntArray  # (P, 2)
    scores: FloatArray  # (P, 2)
    others: tuple[tuple[int, tuple[int, ...], MatchResult], ...]

    @staticmethod
    def of(results: Sequence[MatchResult], entities: Sequence[str] | None = None) -> Matches:
        """``entities`` fixes the entity order (default: every entity of the results, sorted)."""
        seated = list(map(attrgetter("entities"), results))
        names = sorted(set(chain.from_iterable(seated))) if entities is None else list(entities)
        index = {e: i for i, e in enumerate(names)}
        game_of = list(map(attrgetter("game"), results))
        games = sorted(set(game_of))
        game_index = {g: i for i, g in enumerate(games)}
        sizes = np.fromiter(map(len, seated), np.int64, len(seated))
        every = bool((sizes == 2).all())
        two = (sizes == 2).tolist()
        pairs = seated if every else list(compress(seated, two))
        count = len(pairs)
        # each distinct seating once (a few thousand among a million matches), then codes
        seatings: dict[tuple[str, ...], int] = {}
        code = np.fromiter(map(seatings.setdefault, pairs, map(len, repeat(seatings, count))),
                           np.int64, count) if count else np.zeros(0, np.int64)
        table = np.array([[index[a], index[b]] for a, b in seatings], np.int64).reshape(-1, 2)
        first, second = table[code, 0], table[code, 1]
        scored = map(attrgetter("scores"), results if every else compress(results, two))
        scores = np.fromiter(chain.from_iterable(scored), float, 2 * count).reshape(count, 2)
        game = np.fromiter(map(game_index.__getitem__,
                               game_of if every else compress(game_of, two)), np.int64, count)
        others = () if every else tuple(
            (game_index[r.game], tuple(index[e] for e in r.entities), r)
            for r, is_two in zip(results, two, strict=True) if not is_two)
        return Matches(names, games, game, np.stack([first, second], axis=1), scores, others)

    def __len__(self) -> int:
        return len(self.game) + len(self.others)

    def extend(self, more: Matches) -> Matches:
        """These matches followed by ``more`` (entities and games merged, sorted)."""
        entities = sorted(set(self.entities) | set(more.entities))
        games = sorted(set(self.games) | set(more.games))

        def moved(part: Matches) -> tuple[IntArray, IntArray, list[int]]:
            items = np.searchsorted(entities, part.entities).astype(np.int64) \
                if part.entities else np.zeros(0, np.int64)
            where = np.searchsorted(games, part.games).astype(np.int64)
            return items, where, items.tolist()

        mine, theirs = moved(self), moved(more)
        return Matches(
            entities, games,
            np.concatenate([mine[1][self.game], theirs[1][more.game]]),
            np.concatenate([mine[0][self.seats], theirs[0][more.seats]]).reshape(-1, 2),
            np.concatenate([self.scores, more.scores]).reshape(-1, 2),
            tuple((int(where[g]), tuple(items[i] for i in seats), r)
                  for part, (_, where, items) in ((self, mine), (more, theirs))
                  for g, seats, r in part.others))

    def by_game(self) -> list[tuple[str, Matches]]:
        """Each game's matches, over the entities that played it (sorted), games sorted."""
        order = np.argsort(self.game, kind="stable")
        bounds = np.searchsorted(self.game[order], np.arange(len(self.games) + 1))
        others: dict[int, list[tuple[int, tuple[int, ...], MatchResult]]] = {}
        for entry in self.others:
            others.setdefault(entry[0], []).append(entry)
        parts = []
        for g, name in enumerate(self.games):
            rows = order[bounds[g]:bounds[g + 1]]
            mine = others.get(g, [])
            present = np.unique(np.concatenate(
                [self.seats[rows].ravel(), [i for _, seats, _ in mine for i in seats]]
            ).astype(np.int64))
            local = {int(i): k for k, i in enumerate(present)}
            parts.append((name, Matches(
                [self.entities[i] for i in present], [name], np.zeros(len(rows), np.int64),
                np.searchsorted(present, self.seats[rows]).reshape(-1, 2),
                self.scores[rows],
                tuple((0, tuple(local[i] for i in seats), r) for _, seats, r in mine))))
        return parts

    def cells(self, ties: Ties) -> resample.Cells:
        """The fit's cells, pooled in one stratum: two-seat matches as fractional comparisons,
        others as standings, each match weighted 1/N_game."""
        per_game = np.bincount(np.concatenate(
            [self.game, [g for g, _, _ in self.others]]).astype(np.int64),
            minlength=len(self.games)).astype(float)
        shares = self.scores.copy()
        # A tie (equal scores, even 0–0) is half a win each way, or nothing under GameBench's
        # "drop" (the match still takes its resample draw).
        shares[shares[:, 0] == shares[:, 1]] = 0.5 if ties == "half" else 0.0
        standings: list[resample.Standing] = [
            ((), (), 1.0 / per_game[g], 0) if r.tie and ties == "drop"
            else (list(seats), r.scores, 1.0 / per_game[g], 0)
            for g, seats, r in self.others]
        return resample.collapse(len(self.entities), self.seats[:, 0], self.seats[:, 1],
                                 shares[:, 0], shares[:, 1], 1.0 / per_game[self.game],
                                 standings=standings)

    def ties(self) -> int:
        return int((self.scores[:, 0] == self.scores[:, 1]).sum()) \
            + sum(r.tie for _, _, r in self.others)

    def tallies(self) -> tuple[FloatArray, FloatArray]:
        """Matches played and mean score (a tie counts ½) per entity; an entity in several
        seats of one match counts once, with its mean score."""
        n = len(self.entities)
        apart = self.seats[:, 0] != self.seats[:, 1]
        seats = self.seats[apart]
        scores = self.scores[apart].copy()
        scores[scores[:, 0] == scores[:, 1]] = 0.5
        played = np.bincount(seats.ravel(), minlength=n).astype(float)
        total = np.bincount(seats.ravel(), weights=scores.ravel(), minlength=n).astype(float)
        rest: list[tuple[list[int], tuple[float, ...]]] = [
            (seats_, tuple(s)) for seats_, s in zip(
                self.seats[~apart].tolist(), self.scores[~apart].tolist(), strict=True)]
        rest += [(list(seats_), r.scores) for _, seats_, r in self.others]
        for entities, result in rest:
            tie = len(set(result)) == 1
            mine: dict[int, list[float]] = {}
            for e, x in zip(entities, (0.5,) * len(result) if tie else result, strict=True):
                mine.setdefault(e, []).append(x)
            for e, xs in mine.items():
                played[e] += 1
                total[e] += sum(xs) / len(xs)
        return played, total / np.maximum(played, 1)
