"""GAMA-Bench's betraying games: Public Goods, Diner's Dilemma, Sealed-Bid Auction.

Each rewards a player who betrays cooperating others; the equilibrium (contribute nothing,
order the costly dish, shade the bid) lowers everyone's welfare.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
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

# --- Public Goods Game -----------------------------------------------------------------------

PUBLIC_GOODS_PARAMS: dict[str, Any] = {
    "num_players": DEFAULT_PLAYERS, "num_rounds": DEFAULT_ROUNDS, "tokens": 20,
    "multiplier": "2",
}
_PUBLIC_GOODS_TYPE = game_type("python_gama_public_goods", "GAMA-Bench Public Goods Game",
                               PUBLIC_GOODS_PARAMS)


class PublicGoodsGame(pyspiel.Game):
    """Each round everyone holds T tokens and secretly puts some in the pot; the pot is
    multiplied by R and shared equally; tokens kept stay with their owner."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**PUBLIC_GOODS_PARAMS, **(params or {})}
        players, self.num_rounds = players_and_rounds(chosen)
        self.tokens = int(chosen["tokens"])
        check_range("tokens", self.tokens, 1, 100)
        self.multiplier: Fraction = parse_ratio("multiplier", chosen["multiplier"])
        check_range("multiplier", float(self.multiplier), 0, 4)
        chosen["multiplier"] = canonical_ratio(self.multiplier)
        best = self.tokens * max(1.0, float(self.multiplier) * players)
        super().__init__(_PUBLIC_GOODS_TYPE, common_info(
            players=players, actions=self.tokens + 1, length=self.num_rounds,
            utility=(0, best * self.num_rounds)), chosen)

    def new_initial_state(self) -> PublicGoodsState:
        return PublicGoodsState(self)


class PublicGoodsState(RoundsState):
    def _legal_actions(self, player: int) -> list[int]:
        return list(range(self.get_game().tokens + 1)) if not self.is_terminal() else []

    def _action_to_string(self, player: int, action: int) -> str:
        return f"contribute {action}"

    def pot(self, r: int) -> int:
        return sum(self.choices[r])

    def share(self, r: int) -> float:
        """What each player gets back from round ``r``'s multiplied pot."""
        game = self.get_game()
        return float(game.multiplier) * self.pot(r) / game.num_players()

    def round_payoffs(self, r: int) -> list[float]:
        tokens, share = self.get_game().tokens, self.share(r)
        return [tokens - c + share for c in self.choices[r]]


# --- Diner's Dilemma -------------------------------------------------------------------------

CHEAP, COSTLY = 0, 1

DINERS_PARAMS: dict[str, Any] = {
    "num_players": DEFAULT_PLAYERS, "num_rounds": DEFAULT_ROUNDS,
    "cheap_price": 10, "cheap_utility": 15, "costly_price": 20, "costly_utility": 20,
}
_DINERS_TYPE = game_type("python_gama_diners_dilemma", "GAMA-Bench Diner's Dilemma",
                         DINERS_PARAMS)


class DinersGame(pyspiel.Game):
    """Everyone orders the cheap or the costly dish; the bill is split equally."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**DINERS_PARAMS, **(params or {})}
        players, self.num_rounds = players_and_rounds(chosen)
        self.cheap_price, self.cheap_utility = int(chosen["cheap_price"]), int(chosen["cheap_utility"])
        self.costly_price, self.costly_utility = (int(chosen["costly_price"]),
                                                  int(chosen["costly_utility"]))
        for name in ("cheap_price", "cheap_utility", "costly_price", "costly_utility"):
            check_range(name, int(chosen[name]), 1, 100)
        _check_dilemma(self.cheap_price, self.cheap_utility, self.costly_price,
                       self.costly_utility, players)
        super().__init__(_DINERS_TYPE, common_info(
            players=players, actions=2, length=self.num_rounds,
            utility=((self.cheap_utility - self.costly_price) * self.num_rounds,
                     self.costly_utility * self.num_rounds)), chosen)

    def new_initial_state(self) -> DinersState:
        return DinersState(self)


def _check_dilemma(pl: int, ul: int, ph: int, uh: int, players: int) -> None:
    """GAMA's two assumptions: alone, the cheap dish is better; shared, the costly one is."""
    if not (ph > pl and uh > ul):
        raise ValueError("the costly dish must cost more and be worth more than the cheap one "
                         f"(cheap {pl}/{ul}, costly {ph}/{uh} as price/utility)")
    if not uh - ph < ul - pl:
        raise ValueError("dining alone the cheap dish must be the better deal: need "
                         f"costly_utility - costly_price < cheap_utility - cheap_price "
                         f"({uh - ph} vs {ul - pl})")
    if not uh - ph / players > ul - pl / players:
        raise ValueError("with the bill split N ways the costly dish must be the better deal: "
                         f"need costly_utility - costly_price/N > cheap_utility - cheap_price/N "
                         f"({uh - ph / players:.2f} vs {ul - pl / players:.2f})")


@dataclass(frozen=True)
class DinersRound:
    costly: int
    cheap: int
    bill: int
    share: float


class DinersState(RoundsState):
    def _legal_actions(self, player: int) -> list[int]:
        return [CHEAP, COSTLY] if not self.is_terminal() else []

    def _action_to_string(self, player: int, action: int) -> str:
        return "costly" if action == COSTLY else "cheap"

    def result(self, r: int) -> DinersRound:
        game, choices = self.get_game(), self.choices[r]
        costly = sum(choices)
        cheap = len(choices) - costly
        bill = costly * game.costly_price + cheap * game.cheap_price
        return DinersRound(costly, cheap, bill, bill / len(choices))

    def round_payoffs(self, r: int) -> list[float]:
        game, share = self.get_game(), self.result(r).share
        return [(game.costly_utility if c == COSTLY else game.cheap_utility) - share
                for c in self.choices[r]]


# --- Sealed-Bid Auction ----------------------------------------------------------------------

AUCTION_PARAMS: dict[str, Any] = {
    "num_players": DEFAULT_PLAYERS, "num_rounds": DEFAULT_ROUNDS, "max_valuation": 200,
    "price": "first", "valuation_seed": -1, "valuations": "",
}
_AUCTION_TYPE = game_type("python_gama_sealed_bid_auction", "GAMA-Bench Sealed-Bid Auction",
                          AUCTION_PARAMS, chance=True, imperfect=True)


class AuctionGame(pyspiel.Game):
    """Every round each player privately values the item (1..V, drawn from the seed) and
    bids at most that; the highest bid wins and pays the first or the second price."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**AUCTION_PARAMS, **(params or {})}
        players, self.num_rounds = players_and_rounds(chosen)
        self.max_valuation = int(chosen["max_valuation"])
        check_range("max_valuation", self.max_valuation, 100, 800)
        self.price = str(chosen["price"]).strip().lower()
        if self.price not in ("first", "second"):
            raise ValueError(f"price must be first or second, got {chosen['price']!r}")
        fixed = str(chosen["valuations"]).strip()
        if fixed:
            self.valuations = _fixed_valuations(fixed, players, self.num_rounds,
                                                self.max_valuation)
            chosen["valuations"] = ";".join(" ".join(map(str, row)) for row in self.valuations)
        else:
            rng = np.random.default_rng(max(int(chosen["valuation_seed"]), 0))
            self.valuations = tuple(
                tuple(int(v) + 1
                      for v in rng.choice(self.max_valuation, size=players, replace=False))
                for _ in range(self.num_rounds)
            )
        super().__init__(_AUCTION_TYPE, common_info(
            players=players, actions=self.max_valuation + 1, length=2 * self.num_rounds,
            utility=(0, self.max_valuation * self.num_rounds), chance_outcomes=players), chosen)

    def new_initial_state(self) -> AuctionState:
        return AuctionState(self)


def _fixed_valuations(text: str, players: int, rounds: int, highest: int
                      ) -> tuple[tuple[int, ...], ...]:
    """``valuations`` written out: rounds separated by ``;``, players by spaces or commas
    (handed to OpenSpiel with spaces: a comma would split its game string)."""
    try:
        table = tuple(tuple(int(v) for v in re.split(r"[,\s]+", row.strip()))
                      for row in text.split(";"))
    except ValueError:
        raise ValueError("valuations must be whole numbers, players separated by spaces and "
                         f"rounds by ';', got {text[:60]!r}") from None
    if len(table) != rounds or any(len(row) != players for row in table):
        raise ValueError(f"valuations must give {rounds} rounds of {players} values")
    if any(not 1 <= v <= highest for row in table for v in row):
        raise ValueError(f"valuations must be between 1 and max_valuation ({highest})")
    return table


@dataclass(frozen=True)
class AuctionRound:
    winner: int
    winning_bid: int
    price: int


class AuctionState(RoundsState):
    """A chance node breaks a tie for the highest bid (uniformly, from the match seed)."""

    def __init__(self, game: AuctionGame) -> None:
        super().__init__(game)
        self.winners: list[int] = []
        self._tied: tuple[int, ...] = ()

    def valuation(self, seat: int, r: int) -> int:
        return self.get_game().valuations[r][seat]

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if self._tied else pyspiel.PlayerId.SIMULTANEOUS

    def is_terminal(self) -> bool:
        return not self._tied and len(self.choices) >= self.get_game().num_rounds

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self._tied:
            return []
        return list(range(self.valuation(player, len(self.choices)) + 1))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(seat, 1 / len(self._tied)) for seat in self._tied]

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self.choices.append(tuple(int(a) for a in actions))
        self._rewards = [0.0] * len(actions)
        top = max(self.choices[-1])
        tied = tuple(p for p, bid in enumerate(self.choices[-1]) if bid == top)
        if len(tied) == 1:
            self._award(tied[0])
        else:
            self._tied = tied

    def _apply_action(self, action: int) -> None:
        self._tied = ()
        self._award(int(action))

    def _award(self, winner: int) -> None:
        self.winners.append(winner)
        self._settle(len(self.choices) - 1)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"tie for the highest bid goes to player {action}"
        return f"bid {action}"

    def result(self, r: int) -> AuctionRound:
        bids = sorted(self.choices[r], reverse=True)
        price = bids[0] if self.get_game().price == "first" else bids[1]
        return AuctionRound(self.winners[r], bids[0], price)

    def round_payoffs(self, r: int) -> list[float]:
        result = self.result(r)
        return [float(self.valuation(p, r) - result.price) if p == result.winner else 0.0
                for p in range(len(self.choices[r]))]

    def settled(self) -> int:
        return len(self.winners)


pyspiel.register_game(_PUBLIC_GOODS_TYPE, PublicGoodsGame)
pyspiel.register_game(_DINERS_TYPE, DinersGame)
pyspiel.register_game(_AUCTION_TYPE, AuctionGame)
