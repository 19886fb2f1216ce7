"""Built-in bots for GAMA-Bench's games: ``equilibrium``, ``adaptive`` and ``strategic``.

``equilibrium`` plays each game's equilibrium as the paper states it: the minimum in Guess
2/3 (the maximum when R > 1), go with probability R in El Farol, G/N in Divide the Dollar,
nothing in Public Goods, the costly dish, (N-1)/N of the valuation in the first-price auction
(the risk-neutral equilibrium for uniform valuations) and the valuation in the second-price
one, Stewart's plan and votes in the Pirate Game. In Battle Royale it shoots the strongest
opponent left, the move GAMA scores as right (the game's true equilibrium is unknown for N > 3).

``adaptive`` reacts to the last round it saw: a best response to last round's average or
total, the others' average contribution, the majority dish, a bid shade nudged by whether it
won, retaliation in Battle Royale, and votes against offers worse than the last one.

``strategic`` best-responds to what it has seen of the others: it forecasts their next moves
from the results so far (whichever simple forecast has been right lately: level-k thinking in
Guess 2/3, the attendance trend in El Farol, whether the others give way in Divide the
Dollar, the shading of the winning bids in the auction) and plays the best reply; in Battle
Royale it reads each opponent's way of choosing targets and tries its own moves in quick
play-outs; in the Pirate Game it reads what kind of pirates the others are from their plans
and the vote counts and looks ahead through the proposals to come. Where one move is best
whatever the others do (keep your tokens, order the costly dish) it plays that move.

All three read only what their seat may know: the round results the rules reveal to it and its
own valuations, never another seat's hidden information (Guess 2/3: the average, not the
numbers; El Farol: the attendance only of nights it went, with GAMA's implicit information;
Divide the Dollar: the total; the auction: the winning bid; the Pirate Game: how many
accepted, not who).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean, stdev

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
    return _adaptive_split(state.proposer, game.num_players(), game.golds,
                           previous.plan if previous is not None else None)


def _adaptive_split(proposer: int, players: int, golds: int,
                    previous: tuple[int, ...] | None) -> list[int]:
    aboard = list(range(proposer + 1, players))
    needed = math.ceil((len(aboard) + 1) / 2) - 1
    price = {p: (previous[p] + 1 if previous is not None else 1) for p in aboard}
    buy = sorted(aboard, key=lambda p: (price[p], -p))[:needed]
    plan = [0] * players
    left = golds
    for p in aboard:
        plan[p] = min(price[p], left) if p in buy else 0
        left -= plan[p]
    return plan


# --- strategic: the simultaneous games --------------------------------------------------------
#
# Each reads the round results its seat was shown, forecasts what the others will do next
# (several simple forecasts, the one that has been right so far wins) and plays the best reply
# to that forecast.

def _forecast(series: list[float], follow: list[float] | None = None,
              follow_name: str = "what last round's result suggests") -> tuple[float, str]:
    """The next value of ``series`` by whichever forecast has erred least over the last five
    rounds: the last value again, the mean so far, the mean of the last three, a trend going
    on, or ``follow`` (``follow[t]`` is what round t's result suggests for round t + 1, e.g.
    R x its average; preferred on a tie, and while there is nothing to judge by)."""
    def forecasts(t: int) -> dict[str, float]:
        """Forecasts of ``series[t]`` from what was known before it."""
        past = series[:t]
        out = {"the same as last round": past[-1], "their usual level": fmean(past),
               "their recent level": fmean(past[-3:])}
        if t >= 2 and past[-2] > 0:
            out["the trend going on"] = past[-1] * past[-1] / past[-2]
        if follow is not None:
            out[follow_name] = follow[t - 1]
        return out

    now = forecasts(len(series))
    errors: dict[str, list[float]] = {name: [] for name in now}
    for t in range(max(1, len(series) - 5), len(series)):
        for name, value in forecasts(t).items():
            if name in errors:
                errors[name].append(abs(value - series[t]))
    judged = {name: fmean(e) for name, e in errors.items() if e}
    first = follow_name if follow is not None else "the same as last round"
    if not judged:
        return now[first], first
    name = min(judged, key=lambda k: (round(judged[k], 6), k != first))
    return now[name], name


def _st_guess(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    n, ratio, rounds = game.num_players(), float(game.ratio), state.settled()
    if rounds == 0:
        number, _ = _eq_guess(state, seat, rng)
        return number, "nothing seen yet: the equilibrium number, which nobody can beat outright"
    averages = [state.result(r).average for r in range(rounds)]
    others = [(n * averages[r] - state.choices[r][seat]) / (n - 1) for r in range(rounds)]
    expected, how = _forecast(others, follow=[_clamp_f(ratio * a, game.minimum, game.maximum)
                                              for a in averages])
    if n > ratio:
        number = ratio * (n - 1) * expected / (n - ratio)  # the target this number makes
    else:
        number = game.maximum
    number = _clamp(round(number), game.minimum, game.maximum)
    return number, (f"the others should average about {expected:.1f} ({how}): {number} is "
                    f"{game.ratio} of the average that makes")


def _st_el_farol(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    n, rounds = game.num_players(), state.settled()
    seen = [r for r in range(rounds) if state.sees_attendance(seat, r)]
    # The others' rate: the equilibrium's as if seen on three nights, then the nights seen,
    # older ones counting a little less.
    weight, going = 3.0, 3.0 * float(game.ratio)
    for r in seen:
        w = 0.97 ** (rounds - 1 - r)
        others = state.result(r).went - state.choices[r][seat]
        weight, going = weight + w, going + w * others / (n - 1)
    rate = going / weight
    room = math.floor(game.capacity * n / 100) - 1  # others who may go with me, still fun
    # Going pays for itself when the bar is fun at least half the time with the n - 1 others
    # (``mine``). Against a rival who stays home, going also crowds the bar for every rival who
    # goes, so it pays while the bar is fun at least half the time with n - 2 others
    # (``against``). Between the two it goes with a chance that falls from 1 to 0, so that a
    # table of such bots settles where neither staying home nor always going beats it.
    mine = _binomial_cdf(room, n - 1, rate)
    against = _binomial_cdf(room, n - 2, rate)
    chance = 1.0 if mine >= 0.5 else \
        _clamp_f((against - 0.5) / (against - mine), 0.0, 1.0) if against > mine else 0.0
    blind = rounds - 1 - seen[-1] if seen else rounds
    if rng.random() < chance:
        return GO, (f"the others go about {rate:.0%} of the time: the bar should be fun "
                    f"{mine:.0%} of the time, and my going crowds it for them")
    if game.information == "implicit" and blind >= 2 and rng.random() < float(game.ratio):
        return GO, f"not been to the bar for {blind} rounds: go and see how busy it is"
    return STAY, (f"the others go about {rate:.0%} of the time: the bar would be fun only "
                  f"{mine:.0%} of the time")


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(0, min(k, n) + 1))


def _st_divide(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    golds, n, rounds = game.golds, game.num_players(), state.settled()
    if rounds == 0:
        return golds // n, "first round: bid the fair share G/N"
    mine = [state.choices[r][seat] for r in range(rounds)]
    others = [state.total(r) - mine[r] for r in range(rounds)]
    probed = any(mine[r] > golds - others[r - 1] for r in range(1, rounds))
    left = game.num_rounds - rounds
    if not probed and left >= 3 and state.paid_out(rounds - 1) and others[-1] * 2 >= golds:
        ask = _clamp(golds - round(others[-1] * (n - 2) / (n - 1)), 0, golds)
        return ask, (f"the others took {others[-1]} and left {golds - others[-1]}: ask for "
                     f"{ask} once, to see whether they give way")
    each = [max(0.0, golds - state.total(r) + others[r] / (n - 1)) for r in range(rounds)]
    expected, how = _forecast([float(o) for o in others],  # that, once it can be judged
                              [(n - 1) * e for e in each] if rounds > 1 else None,
                              "each taking what the others left")
    if expected >= golds:
        return golds // n, (f"the others bid about {expected:.0f} in all ({how}): nothing will "
                            "be paid out, bid the fair share")
    bid = _clamp(math.floor(golds - expected), 0, golds)
    return bid, f"the others should bid about {expected:.0f} in all ({how}): take what they leave"


def _st_public_goods(state: pyspiel.State, seat: int, rng: np.random.Generator
                     ) -> tuple[int, str]:
    game, rounds = state.get_game(), state.settled()
    n, back = game.num_players(), float(game.multiplier) / game.num_players()
    seen = ""
    if rounds:
        others = [c for p, c in enumerate(state.choices[rounds - 1]) if p != seat]
        seen = f"the others gave {fmean(others):.1f} on average last round; "
    if back > 1:
        return game.tokens, seen + f"each token given comes back as {back:g}: give everything"
    return 0, (seen + f"each token given comes back as {back:g} to me and {back:g} to each of "
               f"the other {n - 1}: keep everything")


def _st_diners(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game, rounds = state.get_game(), state.settled()
    n = game.num_players()
    gain = (game.costly_utility - game.cheap_utility) - (game.costly_price - game.cheap_price) / n
    seen = ""
    if rounds:
        result = state.result(rounds - 1)
        others = result.costly - (state.choices[rounds - 1][seat] == COSTLY)
        seen = f"{others} of the others ordered the costly dish last round; "
    return COSTLY, seen + f"whatever they order, the costly dish is worth {gain:g} more to me"


_FRACTIONS = tuple(i / 20 for i in range(21))
"""Bid shades the auction bot considers for the others: each bids this share of its
valuation ("steady"), or a share drawn evenly up to it ("erratic", as random bidders do)."""


_DENIAL = 0.5
"""How much a round the bot wins is worth to it for what the rival who would have won it
loses (the ladder and people count places, not golds)."""
_MEMORY = 0.85
_BETTER = 0.03
"""How much each round older than the last counts less when reading the others' bids."""


@functools.lru_cache(maxsize=8)
def _rival_bids(players: int, top: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Under each shade hypothesis (rows: the steady shades, then the erratic ones), the chance
    that the highest rival bid is below each whole number 0..top, that it equals it, and what
    the rival with that bid gains from it when it is that number or more (from samples of the
    others' valuations, drawn once)."""
    draws = np.random.default_rng(20240611)
    values = np.array([draws.choice(top, size=players - 1, replace=False) + 1
                       for _ in range(2000)])
    spread = draws.random(values.shape)
    bids = [np.floor(s * values) for s in _FRACTIONS]
    bids += [np.floor(spread * (s * values + 1)) for s in _FRACTIONS[1:]]
    equal, denied = [], []
    for table in bids:
        best = table.argmax(axis=1)
        high = table.max(axis=1).astype(int)
        margin = values[np.arange(len(values)), best] - high
        equal.append(np.bincount(high, minlength=top + 1)[:top + 1])
        at = np.bincount(high, weights=margin, minlength=top + 1)[:top + 1]
        denied.append(np.cumsum(at[::-1])[::-1])
    count = values.shape[0]
    pmf = np.array(equal) / count
    return np.cumsum(pmf, axis=1) - pmf, pmf, np.array(denied) / count


def _st_auction(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game, rounds = state.get_game(), state.settled()
    value = state.valuation(seat, rounds)
    if game.price == "second":
        return value, "second price: bidding the valuation is dominant"
    below, equal, denied = _rival_bids(game.num_players(), game.max_valuation)
    belief = np.zeros(len(below))
    for r in range(rounds):
        result, mine = state.result(r), state.choices[r][seat]
        if result.winner == seat:  # the best rival bid was at most mine
            seen = below[:, mine] + equal[:, mine]
        else:  # the winning bid was the best rival bid (give or take a little)
            near = range(max(0, result.winning_bid - 2), min(game.max_valuation,
                                                              result.winning_bid + 2) + 1)
            seen = equal[:, list(near)].mean(axis=1)
        belief += _MEMORY ** (rounds - 1 - r) * np.log(1e-4 + seen)
    weights = np.exp(belief - belief.max())
    weights /= weights.sum()
    wins = weights @ (below[:, :value + 1] + equal[:, :value + 1] / 2)
    spoils = weights @ denied[:, :value + 1]  # what the rival who wins instead gains
    worth = (value - np.arange(value + 1)) * wins - _DENIAL * spoils
    bid = int(np.argmax(worth))
    shade = (game.num_players() - 1) * value // game.num_players()
    if worth[bid] - worth[shade] <= _BETTER * value:
        return shade, (f"the winning bids so far show no clear way to beat the equilibrium's "
                       f"shade: bid {shade}, (N-1)/N of my valuation {value}")
    return bid, (f"from the winning bids so far, a bid of {bid} should win with chance "
                 f"{wins[bid]:.0%}: the best trade between my gain on my valuation {value} "
                 "and what a rival would gain instead")


# --- strategic: Battle Royale ----------------------------------------------------------------
#
# Each opponent's way of choosing targets is read from the shots it has taken (one of a few
# rules: the first seat in order, the strongest, whoever shot at it, at random, or a
# deliberate miss); each move of the bot's is then tried in many quick plays of the rest of
# the game, with the opponents shooting by those rules and the bot by "the strongest", and
# the move that outlasts the most opponents on average is played.

_RULES = ("first", "strongest", "retaliate", "random", "miss")
_ROLLOUTS = 40
_SURER = 1.0
"""How many standard errors better than shooting the strongest a move must do in the
play-outs to be played instead."""
_PLANS = ("first", "strongest", "threat")
"""How the bot may go on shooting in its play-outs: the weakest, the strongest, or the
opponent likeliest to hit it next."""


@dataclass
class _Shootout:
    """A light copy of a Battle Royale position for quick play-outs."""

    rates: tuple[float, ...]
    order: tuple[int, ...]
    alive: list[bool]
    shots: list[tuple[int, int | None, bool]]
    out: list[int]
    shooter: int
    turns: int
    max_turns: int

    def copy(self) -> _Shootout:
        return _Shootout(self.rates, self.order, list(self.alive), list(self.shots),
                         list(self.out), self.shooter, self.turns, self.max_turns)

    def over(self) -> bool:
        return sum(self.alive) <= 1 or self.turns >= self.max_turns

    def targets(self, seat: int) -> list[int]:
        return [p for p in range(len(self.alive)) if self.alive[p] and p != seat]

    def shoot(self, target: int | None, luck: random.Random) -> None:
        hit = target is not None and luck.random() < self.rates[self.shooter]
        if hit and target is not None:
            self.alive[target] = False
            self.out.append(target)
        self.shots.append((self.shooter, target, hit))
        self.turns += 1
        at = self.order.index(self.shooter)
        for step in range(1, len(self.order) + 1):
            following = self.order[(at + step) % len(self.order)]
            if self.alive[following]:
                self.shooter = following
                break

    def outlasted(self, seat: int) -> int:
        return self.out.index(seat) if seat in self.out else len(self.out)


def _rule_target(rule: str, game: _Shootout, seat: int, luck: random.Random) -> int | None:
    targets = game.targets(seat)
    if rule == "first":
        return targets[0]
    if rule == "strongest":
        return _strongest_of(game, targets)
    if rule == "retaliate":
        return _retaliation(game, seat, targets)
    if rule == "random":
        pick = luck.randrange(len(targets) + 1)
        return targets[pick] if pick < len(targets) else None
    return None


def _strongest_of(game: _Shootout, targets: list[int]) -> int:
    return min(targets, key=lambda p: (-game.rates[p], p))


def _retaliation(game: _Shootout, seat: int, targets: list[int]) -> int:
    """``adaptive``'s rule: whoever last shot at the seat, else whoever last hit someone."""
    for shooter, target, _ in reversed(game.shots):
        if target == seat and game.alive[shooter]:
            return shooter
    for shooter, _, hit in reversed(game.shots):
        if hit and game.alive[shooter] and shooter != seat:
            return shooter
    return _strongest_of(game, targets)


def _shootout(state: pyspiel.State) -> _Shootout:
    game = state.get_game()
    return _Shootout(tuple(r / 100 for r in game.hit_rates), game.order,
                     [True] * game.num_players(), [], [], game.order[0], 0, game.max_turns)


def _rules_read(state: pyspiel.State, seat: int) -> list[list[float]]:
    """Per seat, how likely each of :data:`_RULES` is to be how it picks targets, from the
    shots seen (all shots are public); a seat not seen yet is taken to be like the others."""
    replay = _shootout(state)
    belief = [[0.0] * len(_RULES) for _ in range(len(replay.alive))]
    for turn in state.turns:
        targets = replay.targets(turn.shooter)
        if turn.shooter != seat:
            for i, rule in enumerate(_RULES):
                if rule == "random":
                    chance = 1 / (len(targets) + 1)
                else:
                    chance = float(_rule_target(rule, replay, turn.shooter, random.Random(0))
                                   == turn.target)
                belief[turn.shooter][i] += math.log(0.95 * chance + 0.05 / (len(targets) + 1))
        replay.shooter = turn.shooter
        if turn.hit and turn.target is not None:
            replay.alive[turn.target] = False
            replay.out.append(turn.target)
        replay.shots.append((turn.shooter, turn.target, turn.hit))
    table = _normalised([sum(logs[i] for logs in belief) for i in range(len(_RULES))])
    prior = [0.8 * w + 0.2 / len(_RULES) for w in table]  # seats are alike until seen apart
    return [_normalised([math.log(p) + v for p, v in zip(prior, logs, strict=True)])
            for logs in belief]


def _normalised(logs: list[float]) -> list[float]:
    top = max(logs)
    raw = [math.exp(v - top) for v in logs]
    return [w / sum(raw) for w in raw]


def _threat(game: _Shootout, seat: int, aims: dict[int, float]) -> int:
    """The opponent most likely to hit the seat next: hit rate x the chance it aims at it."""
    targets = game.targets(seat)
    best = max(targets, key=lambda p: (game.rates[p] * aims.get(p, 0.0), game.rates[p], -p))
    return best if aims.get(best, 0.0) > 0 else _strongest_of(game, targets)


def _aims(game: _Shootout, seat: int, rules: dict[int, list[float]]) -> dict[int, float]:
    """The chance each opponent aims at the seat on its next shot, by the rules read."""
    aims = {}
    for p in game.targets(seat):
        chance = 0.0
        for rule, weight in zip(_RULES, rules[p], strict=True):
            if rule == "random":
                chance += weight / (len(game.targets(p)) + 1)
            elif rule != "miss":
                chance += weight * (_rule_target(rule, game, p, random.Random(0)) == seat)
        aims[p] = chance
    return aims


def _my_target(plan: str, game: _Shootout, seat: int, picked: dict[int, str],
               luck: random.Random) -> int | None:
    if plan != "threat":
        return _rule_target(plan, game, seat, luck)
    one_hot = {p: [float(r == picked[p]) for r in _RULES] for p in game.targets(seat)}
    return _threat(game, seat, _aims(game, seat, one_hot))


def _st_battle(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    now = _shootout(state)
    now.alive = list(state.alive)
    now.out = list(state.eliminated)
    now.shots = [(t.shooter, t.target, t.hit) for t in state.turns]
    now.shooter, now.turns = seat, len(state.turns)
    rules = _rules_read(state, seat)
    read = dict(enumerate(rules))
    targets = now.targets(seat)
    threat = _threat(now, seat, _aims(now, seat, read))
    openings: dict[int | None, str] = {None: "missing on purpose"}
    openings[targets[0]] = f"shooting player {targets[0]}, the weakest"
    openings[_strongest_of(now, targets)] = \
        f"shooting player {_strongest_of(now, targets)}, the strongest"
    openings[threat] = f"shooting player {threat}, the likeliest to hit me next"
    seed = int(rng.integers(2**31))
    outcomes: dict[tuple[int | None, str], list[int]] = {}
    rollouts = max(_ROLLOUTS, 6000 // sum(now.alive) ** 2)  # with few left, plays are short
    for move in openings:
        for plan in _PLANS:
            outcomes[move, plan] = []
            for k in range(rollouts):  # the same luck for every move and plan
                luck = random.Random(seed + k)
                play = now.copy()
                picked = {p: luck.choices(_RULES, weights=rules[p])[0] for p in range(len(rules))}
                play.shoot(move, luck)
                while not play.over():
                    shooter = play.shooter
                    play.shoot(_my_target(plan, play, shooter, picked, luck) if shooter == seat
                               else _rule_target(picked[shooter], play, shooter, luck), luck)
                outcomes[move, plan].append(play.outlasted(seat))
    worth = {key: fmean(values) for key, values in outcomes.items()}
    eq = (_strongest_of(now, targets), "strongest")
    best = max(worth, key=lambda key: (round(worth[key], 6), key == eq))
    gains = [a - b for a, b in zip(outcomes[best], outcomes[eq], strict=True)]
    if fmean(gains) <= _SURER * stdev(gains) / math.sqrt(len(gains)):
        best = eq  # not clearly better than shooting the strongest: the play-outs are few
    move = best[0]
    seen = ", ".join(f"player {p}: {_RULES[max(range(len(_RULES)), key=rules[p].__getitem__)]}"
                     for p in targets if any(t.shooter == p for t in state.turns))
    why = (f"{openings[move]} outlasts {worth[best]:.1f} opponents on average in play-outs"
           + (f" (how they choose targets, as read so far: {seen})" if seen else ""))
    return (game.miss if move is None else move), why


# --- strategic: the Pirate Game ---------------------------------------------------------------
#
# The bot reads what kind of pirates the others are from the plans they proposed and how many
# accepted each plan (votes are secret: only the count is public): Stewart's reasoning
# (``equilibrium``), a proposer who keeps everything and voters who always accept, or always
# reject, random pirates, or ``adaptive`` ones. Under each kind it works out, by looking ahead
# through the proposals still to come, what accepting, rejecting or each plan of its own is
# worth to it, and weighs the kinds by how well they explain what it saw.

_KINDS = ("stewart", "accepting", "rejecting", "random", "adaptive")
_PRIOR = {"stewart": 0.4, "accepting": 0.1, "rejecting": 0.1, "random": 0.2, "adaptive": 0.2}
_SLIP = 0.02
"""How often a pirate of a kind is taken to vote or propose against its kind when reading the
others (no kind explains every count exactly, and people are none of them)."""
_SURE = 0.001
"""The same when looking ahead, once the kind is read (erratic pirates are read as random)."""


@dataclass(frozen=True)
class _Table:
    players: int
    golds: int
    seat: int


def _kind_accepts(kind: str, table: _Table, proposer: int, voter: int, plan: Sequence[int],
                  previous: tuple[int, ...] | None, slip: float = _SLIP) -> float:
    """The chance a pirate of ``kind`` accepts ``plan``."""
    if kind == "stewart":
        fallback = share_if_overboard(proposer, voter, table.players, table.golds)
        chance = float(plan[voter] > fallback)
    elif kind == "adaptive":
        before = previous[voter] if previous is not None else 0
        chance = float(plan[voter] > 0 and plan[voter] >= before)
    else:
        chance = {"accepting": 1.0, "rejecting": 0.0, "random": 0.5}[kind]
    return slip + (1 - 2 * slip) * chance


def _kind_plan(kind: str, table: _Table, proposer: int, previous: tuple[int, ...] | None
               ) -> tuple[int, ...] | None:
    """The plan a proposer of ``kind`` puts forward (None: a random one)."""
    if kind == "stewart":
        return optimal_plan(proposer, table.players, table.golds)
    if kind == "adaptive":
        plan = _adaptive_split(proposer, table.players, table.golds, previous)
        plan[proposer] = table.golds - sum(plan)
        return tuple(plan)
    if kind == "random":
        return None
    return tuple(table.golds if p == proposer else 0 for p in range(table.players))


def _plan_chance(kind: str, table: _Table, proposer: int, plan: Sequence[int],
                 previous: tuple[int, ...] | None) -> float:
    """The chance a proposer of ``kind`` writes ``plan``."""
    written = _kind_plan(kind, table, proposer, previous)
    random_chance = _random_plan_chance(proposer, plan, table.golds)
    if written is None:
        return random_chance
    return (1 - _SLIP) * (tuple(plan) == written) + _SLIP * random_chance


def _random_plan_chance(proposer: int, plan: Sequence[int], golds: int) -> float:
    """The chance a random proposer writes ``plan`` (each share drawn from what is left)."""
    chance, left = 1.0, golds
    for share in plan[proposer + 1:]:
        if left == 0:
            break
        chance /= left + 1
        left -= share
    return chance


def _at_least(chances: Sequence[float], count: int) -> float:
    """The chance that at least ``count`` of independent events with ``chances`` happen."""
    if count <= 0:
        return 1.0
    ways = [1.0] + [0.0] * len(chances)
    for p in chances:
        for k in range(len(chances), 0, -1):
            ways[k] = ways[k] * (1 - p) + ways[k - 1] * p
        ways[0] *= 1 - p
    return sum(ways[count:])


def _exactly(chances: Sequence[float], count: int) -> float:
    return _at_least(chances, count) - _at_least(chances, count + 1)


def _needed(table: _Table, proposer: int) -> int:
    """Accepting votes a plan needs besides the proposer's own."""
    return math.ceil((table.players - proposer) / 2) - 1


def _pirate_kinds(state: pyspiel.State, table: _Table) -> dict[str, float]:
    """How likely each kind is, from the public plans and counts and the bot's own votes."""
    logs = {kind: math.log(_PRIOR[kind]) for kind in _KINDS}
    previous: tuple[int, ...] | None = None
    for proposal in state.proposals:
        q, plan = proposal.proposer, proposal.plan
        voters = [v for v in range(q + 1, table.players) if v != table.seat]
        mine = 1 if proposal.votes[table.seat] else 0
        others = proposal.accepts - 1 - mine
        for kind in _KINDS:
            chance = _exactly([_kind_accepts(kind, table, q, v, plan, previous)
                               for v in voters], others)
            if q != table.seat:
                chance *= _plan_chance(kind, table, q, plan, previous)
            logs[kind] += math.log(max(chance, 1e-300))
        previous = plan
    if state.deciding is None and state.proposer != table.seat:  # the plan now put to the vote
        for kind in _KINDS:
            logs[kind] += math.log(max(_plan_chance(kind, table, state.proposer, state.plan,
                                                    previous), 1e-300))
    top = max(logs.values())
    weights = {kind: math.exp(v - top) for kind, v in logs.items()}
    total = sum(weights.values())
    return {kind: w / total for kind, w in weights.items()}


class _PirateLookahead:
    """What the seat can expect, under one kind of others, from each point of the game."""

    def __init__(self, kind: str, table: _Table) -> None:
        self.kind, self.table = kind, table
        self._memo: dict[tuple[int, tuple[int, ...] | None], float] = {}
        self._draws = random.Random(7)

    def passes(self, proposer: int, plan: Sequence[int], previous: tuple[int, ...] | None,
               *, mine: bool | None) -> float:
        """The chance the plan passes, the seat voting ``mine`` (None: it does not vote)."""
        t = self.table
        voters = [v for v in range(proposer + 1, t.players) if v != t.seat]
        chances = [_kind_accepts(self.kind, t, proposer, v, plan, previous, _SURE)
                   for v in voters]
        return _at_least(chances, _needed(t, proposer) - (1 if mine else 0))

    def vote(self, proposer: int, plan: Sequence[int], previous: tuple[int, ...] | None
             ) -> tuple[float, float]:
        """What accepting and rejecting are worth to the seat."""
        later = self.value(proposer + 1, tuple(plan))
        share = plan[self.table.seat]
        worth = []
        for mine in (True, False):
            chance = self.passes(proposer, plan, previous, mine=mine)
            worth.append(chance * share + (1 - chance) * later)
        return worth[0], worth[1]

    def proposal_worth(self, plan: Sequence[int], previous: tuple[int, ...] | None) -> float:
        t = self.table
        chance = self.passes(t.seat, plan, previous, mine=None)
        return chance * plan[t.seat] - (1 - chance) * _overboard(t)

    def value(self, proposer: int, previous: tuple[int, ...] | None) -> float:
        """The seat's expected golds when ``proposer`` proposes next."""
        t = self.table
        key = (proposer, previous if self.kind == "adaptive" else None)
        if key not in self._memo:
            if proposer == t.seat:
                worth = max(self.proposal_worth(plan, previous)
                            for plan in _candidate_plans(t, previous))
            else:
                plan = _kind_plan(self.kind, t, proposer, previous)
                plans = [plan] if plan is not None else \
                    [_random_plan(t, proposer, self._draws) for _ in range(12)]
                worth = fmean(max(self.vote(proposer, p, previous)) for p in plans)
            self._memo[key] = worth
        return self._memo[key]


def _overboard(table: _Table) -> float:
    """What going overboard is worth: survival comes first (GAMA's rules), so it weighs as
    losing the whole treasure, not as the -1 the score counts."""
    return float(table.golds)


def _random_plan(table: _Table, proposer: int, draws: random.Random) -> tuple[int, ...]:
    plan, left = [0] * table.players, table.golds
    for p in range(proposer + 1, table.players):
        plan[p] = draws.randint(0, left)
        left -= plan[p]
    plan[proposer] = left
    return tuple(plan)


def _candidate_plans(table: _Table, previous: tuple[int, ...] | None
                     ) -> list[tuple[int, ...]]:
    """Plans worth weighing: keep everything, Stewart's, and the cheapest votes needed (and one
    or two more, for safety) at the prices a Stewart or an adaptive pirate asks."""
    me, n, golds = table.seat, table.players, table.golds
    voters = list(range(me + 1, n))
    plans = {tuple(golds if p == me else 0 for p in range(n)), optimal_plan(me, n, golds)}
    stewart = {v: share_if_overboard(me, v, n, golds) + 1 for v in voters}
    adaptive = {v: max(1, previous[v] if previous is not None else 1) for v in voters}
    both = {v: max(stewart[v], adaptive[v]) for v in voters}
    for price in (stewart, adaptive, both):
        for extra in (0, 1, 2):
            buy = sorted(voters, key=lambda v: (price[v], -v))[:_needed(table, me) + extra]
            plan = [price[v] if v in buy else 0 for v in range(n)]
            if sum(plan) <= golds:
                plan[me] = golds - sum(plan)
                plans.add(tuple(plan))
    return sorted(plans)


def _st_pirate(state: pyspiel.State, seat: int, rng: np.random.Generator) -> tuple[int, str]:
    game = state.get_game()
    table = _Table(game.num_players(), game.golds, seat)
    kinds = _pirate_kinds(state, table)
    looks = {kind: _PirateLookahead(kind, table) for kind, w in kinds.items() if w > 1e-4}
    weight = {kind: kinds[kind] / sum(kinds[k] for k in looks) for kind in looks}
    previous = state.proposals[-1].plan if state.proposals else None
    read = max(kinds, key=kinds.__getitem__)
    if state.deciding is not None and not state.proposals:
        plan = optimal_plan(seat, table.players, table.golds)
        return min(plan[state.deciding], state.gold_left()), \
            "nothing seen of the others yet: Stewart's plan, which reasoning pirates accept"
    if state.deciding is not None:
        plans = _candidate_plans(table, previous)
        worth = {plan: sum(w * looks[k].proposal_worth(plan, previous)
                           for k, w in weight.items()) for plan in plans}
        plan = max(plans, key=lambda p: (worth[p], p[seat]))
        share = min(plan[state.deciding], state.gold_left())
        return share, (f"the others look like {_KIND_WORDS[read]} pirates ({kinds[read]:.0%}): "
                       f"my plan {list(plan)} is worth {worth[plan]:.1f} to me")
    if seat < state.proposer:
        return game.no_vote, "overboard: no vote"
    if seat == state.proposer:
        return game.accept, "my own plan"
    accept = reject = 0.0
    for kind, w in weight.items():
        yes, no = looks[kind].vote(state.proposer, state.plan, previous)
        accept, reject = accept + w * yes, reject + w * no
    offered = state.plan[seat]
    why = (f"offered {offered}; the others look like {_KIND_WORDS[read]} pirates "
           f"({kinds[read]:.0%}): accepting is worth {accept:.1f}, rejecting {reject:.1f}")
    return (game.accept if accept > reject else game.reject), why


_KIND_WORDS = {"stewart": "Stewart's (equilibrium)", "accepting": "always-accepting",
               "rejecting": "always-rejecting", "random": "random", "adaptive": "adaptive"}


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, int(value)))


def _clamp_f(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


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
    "strategic": {
        "guess_2_3": _st_guess, "el_farol": _st_el_farol, "divide_dollar": _st_divide,
        "public_goods": _st_public_goods, "diners_dilemma": _st_diners,
        "sealed_bid_auction": _st_auction, "battle_royale": _st_battle,
        "pirate_game": _st_pirate,
    },
}


def make_bot(name: str, game: GameSpec, rng: np.random.Generator) -> GamaBot:
    """The ``name`` bot (equilibrium | adaptive | strategic) for ``game``."""
    return GamaBot(name, STRATEGIES[name][game.id], rng)


class StrategicBot(GamaBot):
    """``strategic`` built the way :mod:`agents.bots` builds a game's bot (the game, its
    parameters, a generator), so that ``bot`` and ``bot:SLIPS`` (the bot playing SLIPS percent
    of its moves at random: a middle level of the ladder) can name it for these games."""

    def __init__(self, game: GameSpec, params: Mapping[str, object],
                 rng: np.random.Generator) -> None:
        super().__init__("strategic", STRATEGIES["strategic"][game.id], rng)
