"""What goes into a dataset build (:class:`Selection`) and what one wrote (:class:`Built`):
shared by :mod:`sessions.dataset` (which builds) and :mod:`sessions.dataset_card` (which
describes the build in the data card)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Selection:
    """Which shared sessions go in: ended in [since, until) (seconds since the epoch),
    of ``games`` (None: all), with a person in a seat (``humans_only``)."""

    since: float | None = None
    until: float | None = None
    games: frozenset[str] | None = None
    humans_only: bool = False

    def admits(self, game: str, ended: float | None, has_human: bool) -> bool:
        """Whether a session of ``game`` that ended at ``ended`` is selected."""
        return ((self.games is None or game in self.games)
                and (not self.humans_only or has_human)
                and (self.since is None or (ended is not None and ended >= self.since))
                and (self.until is None or (ended is not None and ended < self.until)))

    def describe(self) -> str:
        from datetime import UTC, datetime

        def day(t: float) -> str:
            return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")

        parts = []
        if self.games is not None:
            parts.append("games " + ", ".join(sorted(self.games)))
        if self.since is not None:
            parts.append(f"ended on or after {day(self.since)}")
        if self.until is not None:
            parts.append(f"ended before {day(self.until)}")
        if self.humans_only:
            parts.append("only sessions with a person in a seat")
        return "; ".join(parts) or "every shared session"


@dataclass
class Built:
    """What a build wrote: rows per table, sessions per game, seats per agent kind, the
    time span, and the stored sessions it left out, by reason."""

    folder: Path
    rows: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)
    human_games: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    people: int = 0
    first: float | None = None
    last: float | None = None
    left_out: Counter[str] = field(default_factory=Counter)

    def note(self) -> str:
        line = (f"dataset: {self.rows['sessions']} sessions, {self.rows['moves']} moves, "
                f"{self.people} people -> {self.folder}")
        if self.left_out:
            line += "; left out " + ", ".join(f"{n} {why}" for why, n in
                                               sorted(self.left_out.items()))
        return line


EVERYTHING = Selection()
"""The default selection: every shared session."""
