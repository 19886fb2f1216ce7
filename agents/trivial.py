"""Two fixed, trivial strategies the difficulty ladder is calibrated against
(``python -m benchmarks.ladder``): a level worth its name must beat them.

- ``first``: always the first legal move (in the game's own order).
- ``pass``: always pass, stay, stop, end, fold or do nothing when the rules allow it, else
  the first legal move (the "do-nothing plan" that beat search agents in Arctic Scavengers
  and Sea Battle).

They are agents like any other (deterministic, no randomness) but not offered on the page.
"""

from __future__ import annotations

import re
import time

from agents.base import Decision, SeatView
from games.actions import ActionId

TRIVIAL = ("first", "pass")

_PASSIVE = re.compile(r"\b(pass|passes|stay|stays|stop|end|ends|done|fold|check|hold|wait|"
                      r"skip|decline|reject|no deal|nothing|go home|"
                      r"end gathering|end turn)\b", re.IGNORECASE)


def passive(label: str) -> bool:
    """Whether a move's label reads as passing, staying or ending (a do-nothing move)."""
    return _PASSIVE.search(label) is not None


class FirstMove:
    """Always the first legal move."""

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        move = view.legal[0]
        return Decision(ActionId(action=move.action), raw=move.label, seconds=0.0)


class PassMove:
    """Pass, stay or end when allowed, else the first legal move. A multi-part order (Sea
    Battle's "stay, stay") counts as passive when every part does."""

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        move = next((m for m in view.legal if _all_passive(m.label)),
                    next((m for m in view.legal if passive(m.label)), view.legal[0]))
        return Decision(ActionId(action=move.action), raw=move.label,
                        seconds=time.perf_counter() - start)


def _all_passive(label: str) -> bool:
    parts = [p for p in re.split(r"[,;]", label) if p.strip()]
    return bool(parts) and all(passive(p) for p in parts)


def trivial_agent(name: str) -> FirstMove | PassMove:
    """``first`` or ``pass``."""
    if name == "first":
        return FirstMove()
    if name == "pass":
        return PassMove()
    raise ValueError(f"unknown trivial strategy {name!r}; use one of {', '.join(TRIVIAL)}")
