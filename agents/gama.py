"""Built-in bots for GAMA-Bench's games: ``equilibrium`` and ``adaptive``.

``equilibrium`` plays each game's equilibrium as the paper states it: the minimum in Guess
2/3 (the maximum when R > 1), go with probability R in El Farol, G/N in Divide the Dollar,
nothing in Public Goods, the costly dish, (N-1)/N of the valuation in the first-price auction
(the risk-neutral equilibrium for uniform valuations) and the valuation in the second-price
one, Stewart's plan and votes in the Pirate Game. In Battle Royale it shoots the strongest
opponent left, the move GAMA scores as right (the game's true equilibrium is unknown for N > 3).

``adaptive`` reacts to the last round it saw: a best response to last round's average or
total, the others' average contribution, the majority dish, a bid shade nudged by whether it
won, retaliation in Battle Royale, and votes against offers worse than the last one.

Both read only what their seat may know: the round results the rules reveal to it and its own
valuations, never another seat's hidden information.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from statistics import fmean

import numpy as np
import pyspiel

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.gama.betraying import CHEAP, COSTLY
from games.gama.cooperative import GO, STAY
from games.gama.pirate import Proposal, optimal_plan, share_if_overboard
from games.registry import GameSpec

Strategy = Callable[[pyspiel.State, int, np.random.Generator], tuple[int, str]]


class GamaBot:
    """Plays one of the strategies below through the adapter, as an action id."""

    def __init__(self, name: str, strategy: Strategy, rng: np.random.Generator) -> None:
        self.name = name
        self._strategy = strategy
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        action, why = self._strategy(view.state, view.seat, self._rng)
        legal = [move.action for move in view.legal]
        if action not in legal:  # never expected; stay legal and say so
            why += f" (wanted action {action}, not legal: took the nearest legal one)"
            action = min(legal, key=lambda a: abs(a - action))
        return Decision(ActionId(action=action), raw=view.label(action), reasoning=why,
                        seconds=time.perf_counter() - start)


# --- equilibrium -----------------------------------------------------------------------------

def _eq_guess(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    if game.ratio > 1:
        return game.maximum, "R > 1: everyone choosing the maximum is the equilibrium"
    return game.minimum, "everyone choosing the minimum is the equilibrium"


def _eq_el_farol(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    ratio = float(state.get_game().ratio)
    go = bool(rng.random() < ratio)
    return (GO if go else STAY), f"mixed equilibrium: go with probability {ratio:g}"


def _eq_divide(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    return game.golds // game.num_players(), "equilibrium: bid G/N"


def _eq_public_goods(state: pyspiel.State, seat: int, rng: np.random.Generator
                     ) -> tuple[int, str]:
    return 0, "each token given returns R/N < 1: contribute nothing"


def _eq_diners(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    return COSTLY, "with the bill shared the costly dish is the better deal"


def _eq_auction(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game, value = state.get_game(), state.valuation(seat, state.settled())
    if game.price == "second":
        return value, "second price: bidding the valuation is dominant"
    n = game.num_players()
    return (n - 1) * value // n, f"first price: bid (N-1)/N of the valuation {value}"


def _strongest(state: pyspiel.State, seat: int) -> int:
    return min(state.strongest_opponents(seat))


def _eq_battle(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    target = _strongest(state, seat)
    return target, f"shoot the strongest opponent left (player {target})"


def _eq_pirate(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    if state.deciding is not None:
        plan = optimal_plan(state.proposer, game.num_players(), game.golds)
        return min(plan[state.deciding], state.gold_left()), "Stewart's optimal plan"
    offered = state.plan[seat]
    fallback = share_if_overboard(state.proposer, seat, game.num_players(), game.golds)
    if offered > fallback:
        return game.accept, f"{offered} beats the {fallback} I get if the proposer goes"
    return game.reject, f"{offered} is no better than the {fallback} I get if the proposer goes"


# --- adaptive --------------------------------------------------------------------------------

def _ad_guess(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    if state.settled() == 0:
        base, why = (game.minimum + game.maximum) / 2, "no results yet: aim at R x the middle"
    else:
        base, why = state.result(state.settled() - 1).average, "aim at R x last round's average"
    return _clamp(round(float(game.ratio) * base), game.minimum, game.maximum), why


def _ad_el_farol(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    for r in reversed(range(state.settled())):
        if state.sees_attendance(seat, r):
            fun = state.result(r).fun
            return (GO if fun else STAY), f"the bar was {'fun' if fun else 'crowded'} last time"
    ratio = float(state.get_game().ratio)
    return (GO if rng.random() < ratio else STAY), "no attendance seen yet: go with probability R"


def _ad_divide(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    if state.settled() == 0:
        return game.golds // game.num_players(), "first round: bid G/N"
    r = state.settled() - 1
    others = state.total(r) - state.choices[r][seat]
    return _clamp(game.golds - others, 0, game.golds), "what the others left last round"


def _ad_public_goods(state: pyspiel.State, seat: int, rng: np.random.Generator
                     ) -> tuple[int, str]:
    tokens = state.get_game().tokens
    if state.settled() == 0:
        return tokens // 2, "first round: half the tokens"
    last = state.choices[state.settled() - 1]
    others = [c for p, c in enumerate(last) if p != seat]
    return _clamp(round(fmean(others)), 0, tokens), "match the others' average last round"


def _ad_diners(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    if state.settled() == 0:
        return CHEAP, "first round: cheap"
    result = state.result(state.settled() - 1)
    others_costly = result.costly - (state.choices[state.settled() - 1][seat] == COSTLY)
    others = state.num_players() - 1
    if 2 * others_costly > others:
        return COSTLY, "most others ordered the costly dish last round"
    return CHEAP, "most others ordered the cheap dish last round"


def _ad_auction(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    shade = 0.8
    for r in range(state.settled()):
        won = state.result(r).winner == seat
        if won:
            shade -= 0.05
        elif state.valuation(seat, r) > state.result(r).winning_bid:
            shade += 0.05
        shade = min(1.0, max(0.3, shade))
    value = state.valuation(seat, state.settled())
    return math.floor(shade * value), f"bid {shade:.2f} of the valuation after last results"


def _ad_battle(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    for turn in reversed(state.turns):
        if turn.target == seat and state.alive[turn.shooter]:
            return turn.shooter, f"player {turn.shooter} shot at me"
    for turn in reversed(state.turns):
        if turn.hit and state.alive[turn.shooter] and turn.shooter != seat:
            return turn.shooter, f"player {turn.shooter} hit someone last"
    target = _strongest(state, seat)
    return target, "nobody has shot yet: the strongest opponent"


def _ad_pirate(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    previous = state.proposals[-1] if state.proposals else None
    if state.deciding is not None:
        share = _adaptive_plan(state, previous)[state.deciding]
        return min(share, state.gold_left()), "buy the cheapest votes needed"
    offered = state.plan[seat]
    before = previous.plan[seat] if previous is not None else 0
    if offered > 0 and offered >= before:
        return game.accept, f"offered {offered}, at least the {before} offered last time"
    return game.reject, f"offered {offered}, less than wanted"


def _adaptive_plan(state: pyspiel.State, previous: Proposal | None) -> list[int]:
    """One gold more than last time for the cheapest votes needed, the rest kept."""
    game = state.get_game()
    aboard = list(range(state.proposer + 1, game.num_players()))
    needed = math.ceil((len(aboard) + 1) / 2) - 1
    price = {p: (previous.plan[p] + 1 if previous is not None else 1) for p in aboard}
    buy = sorted(aboard, key=lambda p: (price[p], -p))[:needed]
    plan = [0] * game.num_players()
    left = game.golds
    for p in aboard:
        plan[p] = min(price[p], left) if p in buy else 0
        left -= plan[p]
    return plan


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, int(value)))


STRATEGIES: dict[str, dict[str, Strategy]] = {
    "equilibrium": {
        "guess_2_3": _eq_guess, "el_farol": _eq_el_farol, "divide_dollar": _eq_divide,
        "public_goods": _eq_public_goods, "diners_dilemma": _eq_diners,
        "sealed_bid_auction": _eq_auction, "battle_royale": _eq_battle,
        "pirate_game": _eq_pirate,
    },
    "adaptive": {
        "guess_2_3": _ad_guess, "el_farol": _ad_el_farol, "divide_dollar": _ad_divide,
        "public_goods": _ad_public_goods, "diners_dilemma": _ad_diners,
        "sealed_bid_auction": _ad_auction, "battle_royale": _ad_battle,
        "pirate_game": _ad_pirate,
    },
}


def make_bot(name: str, game: GameSpec, rng: np.random.Generator) -> GamaBot:
    """The ``name`` bot (equilibrium | adaptive) for ``game``."""
    return GamaBot(name, STRATEGIES[name][game.id], rng)
