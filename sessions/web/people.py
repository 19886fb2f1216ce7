"""People's own ratings: each person (their anonymous id) rated on the scale of every agent,
for "Your rating" on the Play tab and the Leaderboard's "People" view.

The Leaderboard pools every person as one entity, ``human`` (research compares people with
programs); here each person who shared games for research is their own entity,
``human:<player id>`` (:func:`sessions.ratings.results.by_player`), rated with the agents
they played, per game and overall, with a bootstrap interval. The People view lists only
those who chose a display name; nobody is listed by their id. Computed when asked for and
kept until the store changes.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from games import registry
from sessions.ratings.report import Rating, RatingReport, RatingTable, Settings, rate
from sessions.ratings.results import HUMAN, by_player, results_from_store
from sessions.web.replays import ordinal

BOOTSTRAP = 200
"""Resamples for people's intervals (the Leaderboard uses 1000; 200 keeps a request short
and the 5th-95th percentiles within a few hundredths of theirs)."""
LEVEL = 0.90


def entity(player_id: str) -> str:
    return f"{HUMAN}:{player_id}"


@dataclass(frozen=True)
class PeopleRatings:
    """Every person's ratings (overall and per game) and the display names people chose."""

    report: RatingReport
    names: dict[str, str]
    """player id -> the display name of their newest shared session (only those with one)."""
    computed_at: float = field(default_factory=time.time)
    updating: bool = False
    """The store has changed since: newer ratings are being computed."""

    def people(self, table: RatingTable) -> list[Rating]:
        """The people in ``table``, best first."""
        return [r for r in table.rows if r.entity.startswith(HUMAN + ":")]

    def place(self, player_id: str, table: RatingTable | None = None) -> tuple[int, int] | None:
        """(place, of how many people) by rating, or None when not rated there."""
        rows = self.people(self.report.overall if table is None else table)
        mine = next((r for r in rows if r.entity == entity(player_id)), None)
        if mine is None:
            return None
        return 1 + sum(1 for r in rows if r.rating > mine.rating), len(rows)


def compute(store: Any, *, bootstrap: int = BOOTSTRAP) -> PeopleRatings:
    """Ratings with each person as their own entity, and their chosen display names."""
    results = results_from_store(store).results
    report = rate(by_player(results, 1), Settings(bootstrap=bootstrap, level=LEVEL))
    newest: dict[str, str] = {}
    for r in results:  # oldest first: the last one seen is the newest
        for e, player in zip(r.entities, r.players, strict=False):
            if e == HUMAN and player:
                newest[player] = r.id
    names = {}
    for player, match_id in newest.items():
        seat = next(s for s in store.get(match_id).seats if s.player_id == player)
        if seat.display_name:
            names[player] = seat.display_name
    return PeopleRatings(report, names)


class Cache:
    """:func:`compute` for a store, kept until the store changes. After a change the kept
    ratings are still answered at once while one background thread computes the new ones
    (a thousand matches take a second or two, thousands of people much longer: nobody waits
    for them but the very first request); ``fresh=True`` waits for them instead."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._first = threading.Lock()
        self._kept: tuple[Any, PeopleRatings] | None = None
        self._working = False

    def get(self, store: Any, *, fresh: bool = False) -> PeopleRatings:
        revision = store.revision()
        with self._lock:
            kept = self._kept
            if kept is not None and kept[0] == revision:
                return kept[1]
            if kept is not None and not fresh:
                if not self._working:
                    self._working = True
                    threading.Thread(target=self._refresh, args=(store, revision),
                                     daemon=True, name="people-ratings").start()
                return replace(kept[1], updating=True)
        with self._first:  # the first request (or a fresh one) computes, one at a time
            with self._lock:
                if self._kept is not None and self._kept[0] == revision:
                    return self._kept[1]
            ratings = compute(store)
            self._keep(revision, ratings)
            return ratings

    def _refresh(self, store: Any, revision: Any) -> None:
        try:
            self._keep(revision, compute(store))
        finally:
            with self._lock:
                self._working = False

    def _keep(self, revision: Any, ratings: PeopleRatings) -> None:
        with self._lock:
            if self._kept is None or self._kept[1].computed_at <= ratings.computed_at:
                self._kept = (revision, ratings)


def _two(x: float) -> str:
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text


def span(r: Rating) -> str:
    """``-0.31 to 1.12``, or ``too few games`` for an interval of no width."""
    return "too few games" if r.high - r.low < 1e-9 else f"{_two(r.low)} to {_two(r.high)}"


def interval(r: Rating) -> str:
    return f"{LEVEL:.0%} interval: {span(r)}"


def games(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def your_rating(ratings: PeopleRatings, player_id: str, consent: bool | None) -> list[str]:
    """What "Your rating" says, line by line: overall (rating, interval, games, place among
    people), then one line per game."""
    report = ratings.report
    mine = report.overall.get(entity(player_id))
    if mine is None:
        if ratings.updating:
            return ["Your latest games are being counted: Refresh in a moment."]
        if consent is not True:
            return ["Your games are rated once you allow research use (under Your data); "
                    "games played before that are not rated."]
        return ["No rated games yet: your rating appears after your first finished game."]
    lines = [f"Overall: {_two(mine.rating)} ({interval(mine)}) over {games(mine.matches)}"
             + _placed(ratings.place(player_id)) + "."
             + (" Your latest games are being counted: Refresh in a moment." if ratings.updating
                else "")]
    for game, table in sorted(report.games.items(), key=lambda kv: registry.get(kv[0]).title):
        r = table.get(entity(player_id))
        if r is not None:
            lines.append(f"{registry.get(game).title}: {_two(r.rating)} ({interval(r)}) over "
                         f"{games(r.matches)}" + _placed(ratings.place(player_id, table)) + ".")
    return lines


def _placed(place: tuple[int, int] | None) -> str:
    if place is None:
        return ""
    n, of = place
    return f"; {ordinal(n)} of {of} {'person' if of == 1 else 'people'}"


def people_table(ratings: PeopleRatings) -> tuple[list[str], list[list[Any]]]:
    """The Leaderboard's People view: people who chose a display name, best first (place
    among everyone rated, name, rating, interval, games)."""
    rows = []
    everyone = ratings.people(ratings.report.overall)
    for r in everyone:
        player = r.entity.split(":", 1)[1]
        name = ratings.names.get(player)
        if name is None:
            continue
        place = 1 + sum(1 for o in everyone if o.rating > r.rating)
        rows.append([place, name, round(r.rating, 2), span(r),
                     r.matches])
    return ["place", "person", "rating", f"{LEVEL:.0%} interval", "games"], rows
