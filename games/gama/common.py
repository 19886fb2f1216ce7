"""What GAMA-Bench's games share: parameters, the repeated simultaneous round, seat names.

Six of the eight games are the same shape: N players choose at once, round after round, and
each round's outcome is settled from the joint choice. :class:`RoundsState` plays that shape
as one OpenSpiel simultaneous node per round; a game supplies the legal choices and how a
round pays out. Battle Royale and the Pirate Game are sequential and stand alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import pyspiel

DEFAULT_PLAYERS = 10
DEFAULT_ROUNDS = 20
MAX_PLAYERS = 20
MAX_ROUNDS = 100


def game_type(short_name: str, long_name: str, parameters: Mapping[str, Any], *,
              chance: bool = False, imperfect: bool = False,
              sequential: bool = False) -> pyspiel.GameType:
    """The OpenSpiel type of one of GAMA's games (general sum; simultaneous nodes unless
    ``sequential``)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=(pyspiel.GameType.Dynamics.SEQUENTIAL if sequential
                  else pyspiel.GameType.Dynamics.SIMULTANEOUS),
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if imperfect
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification=dict(parameters),
    )


def check_range(name: str, value: float, low: float, high: float) -> None:
    """Refuse a parameter outside [low, high], saying what is allowed."""
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {_plain(low)} and {_plain(high)}, "
                         f"got {_plain(value)}")


def parse_ratio(name: str, text: str) -> Fraction:
    """A ratio written as ``2/3``, ``0.5`` or ``1``."""
    try:
        return Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{name} must be a number or a fraction such as 2/3, got {text!r}") \
            from None


def canonical_ratio(ratio: Fraction) -> str:
    """``n/d`` always: OpenSpiel reads ``2`` in a serialized game string back as an integer,
    which a string parameter refuses, but keeps ``2/1`` a string."""
    return f"{ratio.numerator}/{ratio.denominator}"


def ratio_text(ratio: Fraction) -> str:
    """``2/3`` for fractions, ``1`` or ``0.5`` when that is exact and short."""
    if ratio.denominator == 1:
        return str(ratio.numerator)
    if ratio.denominator in (2, 4, 5, 10, 20, 25, 50, 100):
        return f"{float(ratio):g}"
    return f"{ratio.numerator}/{ratio.denominator}"


def number_text(value: float) -> str:
    """A number as people write it: 12, 12.5, 33.33."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _plain(value: float) -> str:
    return number_text(value)


def player_name(seat: int) -> str:
    return f"player {seat}"


def common_info(*, players: int, actions: int, length: int,
                utility: tuple[float, float], chance_outcomes: int = 0) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=chance_outcomes,
        num_players=players,
        min_utility=float(utility[0]),
        max_utility=float(utility[1]),
        utility_sum=None,
        max_game_length=length,
    )


def players_and_rounds(params: Mapping[str, Any]) -> tuple[int, int]:
    players, rounds = int(params["num_players"]), int(params["num_rounds"])
    check_range("num_players", players, 2, MAX_PLAYERS)
    check_range("num_rounds", rounds, 1, MAX_ROUNDS)
    return players, rounds


class RoundsState(pyspiel.State):
    """A repeated simultaneous game: one simultaneous node per round.

    ``choices[r][p]`` is player p's action in round r. Subclasses define ``_legal_actions``,
    ``round_payoffs(r)`` and ``_action_to_string``; a subclass may put a chance node between
    rounds by overriding ``current_player``/``_apply_action``.
    """

    def __init__(self, game: pyspiel.Game) -> None:
        super().__init__(game)
        self.choices: list[tuple[int, ...]] = []
        self._totals = [0.0] * game.num_players()
        self._rewards = [0.0] * game.num_players()

    @property
    def rounds_played(self) -> int:
        return len(self.choices)

    def settled(self) -> int:
        """How many rounds have their outcome (a chance node may still be breaking a tie)."""
        return len(self.choices)

    @property
    def round_number(self) -> int:
        """The round being played now, from 1 (the last round once the game is over)."""
        return min(len(self.choices) + 1, self.get_game().num_rounds)

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.SIMULTANEOUS

    def is_terminal(self) -> bool:
        return len(self.choices) >= self.get_game().num_rounds

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self.choices.append(tuple(int(a) for a in actions))
        self._settle(len(self.choices) - 1)

    def _settle(self, r: int) -> None:
        self._rewards = self.round_payoffs(r)
        for seat, payoff in enumerate(self._rewards):
            self._totals[seat] += payoff

    def rewards(self) -> list[float]:
        """What each player gained at the last step (a round's payoffs when it settles)."""
        return list(self._rewards)

    def round_payoffs(self, r: int) -> list[float]:
        raise NotImplementedError

    def returns(self) -> list[float]:
        return list(self._totals)

    def totals_after(self, r: int) -> list[float]:
        """Each player's total after round ``r`` (0-based)."""
        totals = [0.0] * self.get_game().num_players()
        for i in range(r + 1):
            for seat, payoff in enumerate(self.round_payoffs(i)):
                totals[seat] += payoff
        return totals

    def __str__(self) -> str:
        return "\n".join(f"round {r + 1}: {list(c)}" for r, c in enumerate(self.choices))
