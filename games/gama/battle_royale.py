"""GAMA-Bench's Battle Royale: N shooters, each with a hit rate, the last one standing wins.

Seat i's hit rate is spread evenly over [min, max] (GAMA: 35%, 40%, ..., 80% for 10 players),
so seat 0 is the weakest shot. Players shoot in order of increasing hit rate, skipping the
eliminated, and may miss on purpose. A chance node decides each shot (hit with the shooter's
hit rate, from the match seed). The game ends when one player remains, or after
``max_turns`` turns (survivors then tie).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pyspiel

from games.gama.common import DEFAULT_PLAYERS, MAX_PLAYERS, check_range, common_info, game_type

MISSED, HIT = 0, 1

BATTLE_ROYALE_PARAMS: dict[str, Any] = {
    "num_players": DEFAULT_PLAYERS, "min_hit_rate": 35, "max_hit_rate": 80, "max_turns": 100,
}
_TYPE = game_type("python_gama_battle_royale", "GAMA-Bench Battle Royale",
                  BATTLE_ROYALE_PARAMS, chance=True, sequential=True)


class BattleRoyaleGame(pyspiel.Game):
    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**BATTLE_ROYALE_PARAMS, **(params or {})}
        players = int(chosen["num_players"])
        check_range("num_players", players, 2, MAX_PLAYERS)
        low, high = int(chosen["min_hit_rate"]), int(chosen["max_hit_rate"])
        check_range("min_hit_rate (percent)", low, 10, 100)
        check_range("max_hit_rate (percent)", high, low, 100)
        self.max_turns = int(chosen["max_turns"])
        check_range("max_turns", self.max_turns, 10, 500)
        self.hit_rates = tuple(round(low + seat * (high - low) / (players - 1))
                               for seat in range(players))
        self.order = tuple(sorted(range(players), key=lambda seat: (self.hit_rates[seat], seat)))
        self.miss = players
        super().__init__(_TYPE, common_info(
            players=players, actions=players + 1, length=2 * self.max_turns,
            utility=(0, players - 1), chance_outcomes=2), chosen)

    def new_initial_state(self) -> BattleRoyaleState:
        return BattleRoyaleState(self)


@dataclass(frozen=True)
class Turn:
    """One shooter's turn: the target (None for a deliberate miss) and whether it hit."""

    shooter: int
    target: int | None
    hit: bool
    strongest: tuple[int, ...]
    """The opponents with the highest hit rate still in the game when the shot was taken."""
    left: int
    """Players still in the game after this turn."""


class BattleRoyaleState(pyspiel.State):
    def __init__(self, game: BattleRoyaleGame) -> None:
        super().__init__(game)
        self.alive = [True] * game.num_players()
        self.turns: list[Turn] = []
        self.eliminated: list[int] = []
        self.shooter = game.order[0]
        self.aiming_at: int | None = None
        self._rewards = [0.0] * game.num_players()

    # --- reading ----------------------------------------------------------------------------

    def remaining(self) -> list[int]:
        """The players still in the game, in shooting order."""
        return [seat for seat in self.get_game().order if self.alive[seat]]

    def strongest_opponents(self, seat: int) -> tuple[int, ...]:
        rates = self.get_game().hit_rates
        others = [p for p in self.remaining() if p != seat]
        best = max(rates[p] for p in others)
        return tuple(p for p in others if rates[p] == best)

    # --- OpenSpiel --------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.aiming_at is not None:
            return pyspiel.PlayerId.CHANCE
        return self.shooter

    def is_terminal(self) -> bool:
        if self.aiming_at is not None:
            return False
        return sum(self.alive) <= 1 or len(self.turns) >= self.get_game().max_turns

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self.aiming_at is not None or player != self.shooter:
            return []
        targets = [p for p in range(len(self.alive)) if self.alive[p] and p != player]
        return [*targets, self.get_game().miss]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rate = self.get_game().hit_rates[self.shooter] / 100
        return [(outcome, p) for outcome, p in ((MISSED, 1 - rate), (HIT, rate)) if p > 0]

    def _apply_action(self, action: int) -> None:
        before = self.returns()
        self._act(action)
        self._rewards = [a - b for a, b in zip(self.returns(), before, strict=True)]

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def _act(self, action: int) -> None:
        if self.aiming_at is None:
            if action == self.get_game().miss:
                self._end_turn(None, hit=False)
            else:
                self.aiming_at = int(action)
            return
        target, self.aiming_at = self.aiming_at, None
        self._end_turn(target, hit=action == HIT)

    def _end_turn(self, target: int | None, *, hit: bool) -> None:
        strongest = self.strongest_opponents(self.shooter)
        if hit and target is not None:
            self.alive[target] = False
            self.eliminated.append(target)
        self.turns.append(Turn(self.shooter, target, hit, strongest, sum(self.alive)))
        order = self.get_game().order
        at = order.index(self.shooter)
        for step in range(1, len(order) + 1):
            following = order[(at + step) % len(order)]
            if self.alive[following]:
                self.shooter = following
                break

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "hit" if action == HIT else "missed"
        return "miss" if action == self.get_game().miss else f"shoot player {action}"

    def returns(self) -> list[float]:
        """How many opponents each player outlasted (the sole survivor: N - 1)."""
        out = float(len(self.eliminated))
        return [float(self.eliminated.index(p)) if p in self.eliminated else out
                for p in range(len(self.alive))]

    def __str__(self) -> str:
        return "\n".join(
            f"player {t.shooter}: " + ("miss" if t.target is None
                                       else f"player {t.target} {'hit' if t.hit else 'missed'}")
            for t in self.turns)


pyspiel.register_game(_TYPE, BattleRoyaleGame)
