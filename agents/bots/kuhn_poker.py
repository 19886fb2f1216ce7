"""Kuhn poker: the game-theory optimal strategy, bluffing as often as that allows.

Kuhn's solution (Kuhn 1950): the first player bets the King three times as often as it
bluffs the Jack (at most a third of the time) and never opens with the Queen; facing a bet
after checking it calls with the Queen a third of the time more often than it bluffs. The
second player always bets and calls with the King, never calls with the Jack, bluffs the
Jack a third of the time after a check, and calls a bet with the Queen a third of the time.
No strategy wins chips from it in the long run (over both seats). Of the first player's
optimal strategies this bot takes the one that bluffs most (a third of the time), so an
opponent who always checks and folds loses the most to it (2/9 of a chip a hand).

It reads only its own card and the public betting (its information state).
"""

from __future__ import annotations

import time

import numpy as np

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.registry import GameSpec

JACK, QUEEN, KING = 0, 1, 2
PASS, BET = 0, 1
BLUFF = 1 / 3
"""How often the first player bluffs the Jack: Kuhn's solutions allow 0 to 1/3."""

BET_CHANCE: dict[tuple[int, str], float] = {
    # first player: open, then after check-bet
    (JACK, ""): BLUFF, (QUEEN, ""): 0.0, (KING, ""): 3 * BLUFF,
    (JACK, "pb"): 0.0, (QUEEN, "pb"): BLUFF + 1 / 3, (KING, "pb"): 1.0,
    # second player: after a check, after a bet
    (JACK, "p"): 1 / 3, (QUEEN, "p"): 0.0, (KING, "p"): 1.0,
    (JACK, "b"): 0.0, (QUEEN, "b"): 1 / 3, (KING, "b"): 1.0,
}
"""(my card, the betting so far as p/b) -> the chance that I bet (or call)."""

_CARDS = {JACK: "Jack", QUEEN: "Queen", KING: "King"}


def read_hand(information_state: str) -> tuple[int, str]:
    """(my card, the betting so far) from OpenSpiel's information state, e.g. "1pb"."""
    return int(information_state[0]), information_state[1:]


class KuhnBot:
    """Plays Kuhn poker's optimal mixed strategy from its card and the betting."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        card, betting = read_hand(view.state.information_state_string(view.seat))
        chance = BET_CHANCE[card, betting]
        action = BET if self._rng.random() < chance else PASS
        move = next(m for m in view.legal if m.action == action)
        reason = f"{_CARDS[card]}, betting so far {betting or 'none'}: bet {chance:.0%} of the time"
        return Decision(ActionId(action=move.action), raw=move.label, reasoning=reason,
                        seconds=time.perf_counter() - start)
