"""GAMA-Bench's cooperative games: Guess 2/3 of the Average, El Farol Bar, Divide the Dollar.

In each, N players choose at once every round (GAMA's defaults: 10 players, 20 rounds), and
no one can gain by deviating when everyone plays the equilibrium, which is also the best
outcome for the group.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pyspiel

from games.gama.common import (
    DEFAULT_PLAYERS,
    DEFAULT_ROUNDS,
    RoundsState,
    canonical_ratio,
    check_range,
    common_info,
    game_type,
    parse_ratio,
    players_and_rounds,
)

# --- Guess 2/3 of the Average ---------------------------------------------------------------

GUESS_PARAMS: dict[str, Any] = {
    "num_players": DEFAULT_PLAYERS, "num_rounds": DEFAULT_ROUNDS,
    "min_number": 0, "max_number": 100, "ratio": "2/3",
}
_GUESS_TYPE = game_type("python_gama_guess_2_3", "GAMA-Bench Guess 2/3 of the Average",
                        GUESS_PARAMS)


class GuessGame(pyspiel.Game):
    """Everyone picks a whole number in [min, max]; closest to ratio × average wins."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**GUESS_PARAMS, **(params or {})}
        players, self.num_rounds = players_and_rounds(chosen)
        self.minimum, self.maximum = int(chosen["min_number"]), int(chosen["max_number"])
        check_range("min_number", self.minimum, 0, 999)
        check_range("max_number", self.maximum, self.minimum + 1, 1000)
        self.ratio: Fraction = parse_ratio("ratio", chosen["ratio"])
        check_range("ratio", float(self.ratio), 0, 2)
        chosen["ratio"] = canonical_ratio(self.ratio)
        super().__init__(_GUESS_TYPE, common_info(
            players=players, actions=self.maximum + 1, length=self.num_rounds,
            utility=(0, self.num_rounds)), chosen)

    def new_initial_state(self) -> GuessState:
        return GuessState(self)


@dataclass(frozen=True)
class GuessRound:
    average: float
    target: float
    winning_numbers: tuple[int, ...]
    winners: tuple[int, ...]


class GuessState(RoundsState):
    def _legal_actions(self, player: int) -> list[int]:
        game = self.get_game()
        return list(range(game.minimum, game.maximum + 1)) if not self.is_terminal() else []

    def _action_to_string(self, player: int, action: int) -> str:
        return f"choose {action}"

    def result(self, r: int) -> GuessRound:
        choices = self.choices[r]
        average = sum(choices) / len(choices)
        target = float(self.get_game().ratio) * average
        best = min(abs(c - target) for c in choices)
        winners = tuple(p for p, c in enumerate(choices) if abs(c - target) == best)
        numbers = tuple(sorted({choices[p] for p in winners}))
        return GuessRound(average, target, numbers, winners)

    def round_payoffs(self, r: int) -> list[float]:
        winners = self.result(r).winners
        return [1.0 if p in winners else 0.0 for p in range(len(self.choices[r]))]


# --- El Farol Bar ----------------------------------------------------------------------------

STAY, GO = 0, 1

EL_FAROL_PARAMS: dict[str, Any] = {
    "num_players": DEFAULT_PLAYERS, "num_rounds": DEFAULT_ROUNDS, "capacity": 60,
    "fun_utility": 10, "crowded_utility": 0, "home_utility": 5, "information": "implicit",
}
_EL_FAROL_TYPE = game_type("python_gama_el_farol", "GAMA-Bench El Farol Bar", EL_FAROL_PARAMS,
                           imperfect=True)


class ElFarolGame(pyspiel.Game):
    """Go to the bar or stay home; going is fun only if at most capacity% go."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**EL_FAROL_PARAMS, **(params or {})}
        players, self.num_rounds = players_and_rounds(chosen)
        self.capacity = int(chosen["capacity"])
        check_range("capacity (percent of the players)", self.capacity, 0, 100)
        self.fun, self.crowded, self.home = (int(chosen["fun_utility"]),
                                             int(chosen["crowded_utility"]),
                                             int(chosen["home_utility"]))
        if not self.crowded < self.home < self.fun:
            raise ValueError("El Farol needs crowded_utility < home_utility < fun_utility "
                             f"(got {self.crowded}, {self.home}, {self.fun})")
        self.information = str(chosen["information"]).strip().lower()
        if self.information not in ("implicit", "explicit"):
            raise ValueError("information must be implicit (those who stay home do not learn "
                             f"the attendance) or explicit, got {chosen['information']!r}")
        super().__init__(_EL_FAROL_TYPE, common_info(
            players=players, actions=2, length=self.num_rounds,
            utility=(self.crowded * self.num_rounds, self.fun * self.num_rounds)), chosen)

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.capacity, 100)

    def new_initial_state(self) -> ElFarolState:
        return ElFarolState(self)


@dataclass(frozen=True)
class ElFarolRound:
    went: int
    stayed: int
    fun: bool
    """True when at most capacity% of the players went (going beat staying home)."""


class ElFarolState(RoundsState):
    def _legal_actions(self, player: int) -> list[int]:
        return [STAY, GO] if not self.is_terminal() else []

    def _action_to_string(self, player: int, action: int) -> str:
        return "go" if action == GO else "stay"

    def result(self, r: int) -> ElFarolRound:
        went = sum(self.choices[r])
        n = len(self.choices[r])
        return ElFarolRound(went, n - went, went * 100 <= self.get_game().capacity * n)

    def round_payoffs(self, r: int) -> list[float]:
        game, fun = self.get_game(), self.result(r).fun
        return [float(game.home if c == STAY else game.fun if fun else game.crowded)
                for c in self.choices[r]]

    def sees_attendance(self, seat: int, r: int) -> bool:
        """Whether ``seat`` learned round ``r``'s attendance (implicit: only if it went)."""
        return self.get_game().information == "explicit" or self.choices[r][seat] == GO


# --- Divide the Dollar -----------------------------------------------------------------------

DIVIDE_PARAMS: dict[str, Any] = {
    "num_players": DEFAULT_PLAYERS, "num_rounds": DEFAULT_ROUNDS, "golds": 100,
}
_DIVIDE_TYPE = game_type("python_gama_divide_dollar", "GAMA-Bench Divide the Dollar",
                         DIVIDE_PARAMS)


class DivideGame(pyspiel.Game):
    """Everyone bids for a share of G golds; if the bids exceed G, nobody gets anything."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**DIVIDE_PARAMS, **(params or {})}
        players, self.num_rounds = players_and_rounds(chosen)
        self.golds = int(chosen["golds"])
        check_range("golds", self.golds, 50, 800)
        super().__init__(_DIVIDE_TYPE, common_info(
            players=players, actions=self.golds + 1, length=self.num_rounds,
            utility=(0, self.golds * self.num_rounds)), chosen)

    def new_initial_state(self) -> DivideState:
        return DivideState(self)


class DivideState(RoundsState):
    def _legal_actions(self, player: int) -> list[int]:
        return list(range(self.get_game().golds + 1)) if not self.is_terminal() else []

    def _action_to_string(self, player: int, action: int) -> str:
        return f"bid {action}"

    def total(self, r: int) -> int:
        return sum(self.choices[r])

    def paid_out(self, r: int) -> bool:
        return self.total(r) <= self.get_game().golds

    def round_payoffs(self, r: int) -> list[float]:
        paid = self.paid_out(r)
        return [float(b) if paid else 0.0 for b in self.choices[r]]


pyspiel.register_game(_GUESS_TYPE, GuessGame)
pyspiel.register_game(_EL_FAROL_TYPE, ElFarolGame)
pyspiel.register_game(_DIVIDE_TYPE, DivideGame)
