"""GAMA-Bench's raw scores S1-S8 and their rescaling to 0-100 (the paper's §3 and Appendix E).

Every raw score is the paper's formula over a set of seats: all seats gives the paper's own
number for a table of ten copies of one model; one agent configuration's seats gives that
configuration's number; one seat gives the seat's. Two formulas are about the group and are
read for a subset as follows: S3 scales the subset's bids up to the whole table
(N/|E| times their sum, so a lone seat scores best by bidding G/N), and S2, the distance
between the share of players who went and the capacity, is taken per round for two or more
seats but over the rounds for a single seat (one seat's mixed strategy shows only over time).

Where the paper's formula breaks outside its own settings we say so and fix it: S1 for
R < 1 is (MAX - MIN - S1)/(MAX - MIN), equal to the paper's (MAX - S1)/(MAX - MIN) at its
MIN = 0; rescaled scores are clipped to [0, 100] (S3 goes below 0 when bids exceed 2G, which
GAMA's own code also clips).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from statistics import fmean
from typing import Any

import pyspiel

from games.gama.battle_royale import BattleRoyaleState
from games.gama.betraying import CHEAP, AuctionState, DinersState, PublicGoodsState
from games.gama.common import RoundsState
from games.gama.cooperative import DivideState, ElFarolState, GuessState
from games.gama.pirate import PirateState, optimal_plan

METRICS_VERSION = 1

FORMULAS = {
    "guess_2_3": "S1", "el_farol": "S2", "divide_dollar": "S3", "public_goods": "S4",
    "diners_dilemma": "S5", "sealed_bid_auction": "S6", "battle_royale": "S7",
    "pirate_game": "S8",
}

MEASURES = {
    "guess_2_3": (
        "The GAMA score (0-100) measures how low your numbers were: 100 means you always "
        "chose the minimum, which is where the game ends up when every player reasons it "
        "through (with a ratio above 1, the maximum). Winning rounds does not count."),
    "el_farol": (
        "The GAMA score (0-100) measures how close the share of rounds you went to the bar "
        "came to its capacity: 100 means you went exactly as often as the bar can hold, the "
        "equilibrium when everyone mixes. A good night out does not count."),
    "divide_dollar": (
        "The GAMA score (0-100) measures how close the bids, scaled up to the whole table, "
        "came to the golds there are: 100 means they added up exactly (nothing left on the "
        "table, nothing lost to greed). Your own golds do not count."),
    "public_goods": (
        "The GAMA score (0-100) measures how little you contributed: 100 means you kept "
        "every token, the selfish equilibrium. Contributing helps the group, and lowers "
        "this score."),
    "diners_dilemma": (
        "The GAMA score (0-100) measures how often you ordered the costly dish: 100 means "
        "always, the equilibrium when the bill is split. Ordering the cheap dish saves "
        "everyone money, and lowers this score."),
    "sealed_bid_auction": (
        "The GAMA score (0-100) measures how far below your valuation you bid, against the "
        "highest valuation of the session: shading your bid raises it. Winning items does "
        "not count."),
    "battle_royale": (
        "The GAMA score (0-100) measures how often you shot at the strongest player still "
        "standing, the rational target: 100 means every shot. Surviving does not count."),
    "pirate_game": (
        "The GAMA score (0-100) is half how close your proposals were to the rational plan "
        "and half how often your votes matched the rational vote: a pirate thrown overboard "
        "can score 95 for having proposed a rational plan. Golds kept do not count."),
}
"""What the 0-100 score measures in each game, in people's words (the end screen says it:
it often is not how well the seat did, which surprises people)."""


@dataclass(frozen=True)
class GamaScore:
    """A raw score and its 0-100 rescaling (None when the seats made no scored decision)."""

    raw: float | None
    score: float | None
    parts: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.parts:
            data.pop("parts")
        return data


NO_SCORE = GamaScore(None, None)


def _clip(value: float) -> float:
    return max(0.0, min(100.0, value))


# --- the formulas ----------------------------------------------------------------------------

def s1(choices: Sequence[int], minimum: int) -> float:
    """Mean distance of the chosen numbers above MIN."""
    return fmean(c - minimum for c in choices)


def rescale_s1(raw: float, ratio: Fraction, minimum: int, maximum: int) -> float:
    span = maximum - minimum
    if ratio < 1:
        return _clip((span - raw) / span * 100)
    if ratio == 1:
        return _clip(abs(2 * raw - span) / span * 100)
    return _clip(raw / span * 100)


def s2(rows: Sequence[Sequence[int]], ratio: float) -> float:
    """Mean distance between the share of seats that went (1) and the capacity R."""
    if len(rows[0]) == 1:
        return abs(fmean(row[0] for row in rows) - ratio)
    return fmean(abs(fmean(row) - ratio) for row in rows)


def rescale_s2(raw: float, ratio: float) -> float:
    worst = max(ratio, 1 - ratio)
    return _clip((worst - raw) / worst * 100)


def s3(rows: Sequence[Sequence[int]], players: int, golds: int) -> float:
    """Mean distance between the (scaled) sum of bids and G."""
    return fmean(abs(players / len(row) * sum(row) - golds) for row in rows)


def rescale_s3(raw: float, golds: int) -> float:
    return _clip((golds - raw) / golds * 100)


def s4(contributions: Sequence[int]) -> float:
    return fmean(contributions)


def rescale_s4(raw: float, tokens: int) -> float:
    return _clip((tokens - raw) / tokens * 100)


def s5(cheap: Sequence[bool]) -> float:
    """Share of cheap dishes ordered."""
    return fmean(1.0 if c else 0.0 for c in cheap)


def rescale_s5(raw: float) -> float:
    return _clip((1 - raw) * 100)


def s6(valuation_minus_bid: Sequence[int]) -> float:
    return fmean(valuation_minus_bid)


def rescale_s6(raw: float, highest_valuation: int) -> float:
    return _clip(raw / highest_valuation * 100)


def s7(targeted_strongest: Sequence[bool]) -> float:
    return fmean(1.0 if t else 0.0 for t in targeted_strongest)


def rescale_s7(raw: float) -> float:
    return _clip(raw * 100)


def s8(distances: Sequence[int], correct_votes: Sequence[bool], golds: int) -> GamaScore:
    """S8P (mean L1 distance of the proposals from the optimal plan) and S8V (share of
    correct votes), rescaled as (2G - S8P)/(2G)*50 + S8V*50; a seat with only votes (or only
    a proposal) is scored on that half alone. S8 has two raw parts, so ``raw`` is None."""
    parts: dict[str, float] = {}
    halves = []
    if distances:
        parts["S8P"] = fmean(distances)
        halves.append(_clip((2 * golds - parts["S8P"]) / (2 * golds) * 100))
    if correct_votes:
        parts["S8V"] = fmean(1.0 if c else 0.0 for c in correct_votes)
        halves.append(_clip(parts["S8V"] * 100))
    if not halves:
        return NO_SCORE
    return GamaScore(None, fmean(halves), parts)


def correct_vote(proposer: int, voter: int, offered: int) -> bool:
    """The paper's voting rule: accept with 2+ golds, reject with 0, and with exactly 1
    accept only when the voter's rank has the proposer's parity."""
    if offered >= 2:
        return True
    if offered == 0:
        return False
    return (voter - proposer) % 2 == 0


# --- per game: the formula over a set of seats ----------------------------------------------

def score(state: pyspiel.State, seats: Sequence[int]) -> GamaScore:
    """GAMA's score of ``seats`` over what has been played in ``state`` so far."""
    for kind, scorer in _SCORERS:
        if isinstance(state, kind):
            return scorer(state, list(seats))
    raise TypeError(f"not a GAMA-Bench state: {type(state).__name__}")


def _rows(state: RoundsState, seats: list[int]) -> list[list[int]]:
    return [[state.choices[r][s] for s in seats] for r in range(state.settled())]


def _flat(state: RoundsState, seats: list[int]) -> list[int]:
    return [c for row in _rows(state, seats) for c in row]


def _guess(state: GuessState, seats: list[int]) -> GamaScore:
    choices, game = _flat(state, seats), state.get_game()
    if not choices:
        return NO_SCORE
    raw = s1(choices, game.minimum)
    return GamaScore(raw, rescale_s1(raw, game.ratio, game.minimum, game.maximum))


def _el_farol(state: ElFarolState, seats: list[int]) -> GamaScore:
    rows, ratio = _rows(state, seats), float(state.get_game().ratio)
    if not rows:
        return NO_SCORE
    raw = s2(rows, ratio)
    return GamaScore(raw, rescale_s2(raw, ratio))


def _divide(state: DivideState, seats: list[int]) -> GamaScore:
    rows, game = _rows(state, seats), state.get_game()
    if not rows:
        return NO_SCORE
    raw = s3(rows, game.num_players(), game.golds)
    return GamaScore(raw, rescale_s3(raw, game.golds))


def _public_goods(state: PublicGoodsState, seats: list[int]) -> GamaScore:
    flat = _flat(state, seats)
    if not flat:
        return NO_SCORE
    raw = s4(flat)
    return GamaScore(raw, rescale_s4(raw, state.get_game().tokens))


def _diners(state: DinersState, seats: list[int]) -> GamaScore:
    flat = _flat(state, seats)
    if not flat:
        return NO_SCORE
    raw = s5([c == CHEAP for c in flat])
    return GamaScore(raw, rescale_s5(raw))


def _auction(state: AuctionState, seats: list[int]) -> GamaScore:
    played = range(state.settled())
    gaps = [state.valuation(s, r) - state.choices[r][s] for r in played for s in seats]
    if not gaps:
        return NO_SCORE
    highest = max(state.valuation(s, r) for r in played for s in range(state.num_players()))
    raw = s6(gaps)
    return GamaScore(raw, rescale_s6(raw, highest))


def _battle_royale(state: BattleRoyaleState, seats: list[int]) -> GamaScore:
    flags = [t.target in t.strongest for t in state.turns if t.shooter in seats]
    if not flags:
        return NO_SCORE
    raw = s7(flags)
    return GamaScore(raw, rescale_s7(raw))


def _pirate(state: PirateState, seats: list[int]) -> GamaScore:
    game = state.get_game()
    players, golds = game.num_players(), game.golds
    distances, votes = [], []
    for proposal in state.proposals:
        if proposal.aboard < 2:
            continue  # the last pirate aboard takes everything: nothing was proposed
        if proposal.proposer in seats:
            best = optimal_plan(proposal.proposer, players, golds)
            distances.append(sum(abs(a - b) for a, b in zip(proposal.plan, best, strict=True)))
        for voter, vote in enumerate(proposal.votes):
            if vote is not None and voter in seats:
                offered = proposal.plan[voter]
                votes.append(vote == correct_vote(proposal.proposer, voter, offered))
    return s8(distances, votes, golds)


_SCORERS: tuple[tuple[type, Any], ...] = (
    (GuessState, _guess), (ElFarolState, _el_farol), (DivideState, _divide),
    (PublicGoodsState, _public_goods), (DinersState, _diners), (AuctionState, _auction),
    (BattleRoyaleState, _battle_royale), (PirateState, _pirate),
)


# --- what a session stores -------------------------------------------------------------------

def comparable(game_id: str, params: Mapping[str, Any]) -> bool:
    """Whether GAMA scores this variant: El Farol only with implicit information, the
    auction only at the first price (the paper's footnotes 3 and 4)."""
    if game_id == "el_farol":
        return str(params.get("information", "implicit")) == "implicit"
    if game_id == "sealed_bid_auction":
        return str(params.get("price", "first")) == "first"
    return True


def session_metrics(game_id: str, state: pyspiel.State, entities: Sequence[str]
                    ) -> dict[str, Any]:
    """The ``gama`` entry of a record: the score of the table, of each seat and of each
    entity (agent configuration), for the rounds played so far."""
    params = state.get_game().get_parameters()
    groups: dict[str, list[int]] = {}
    for seat, entity in enumerate(entities):
        groups.setdefault(entity, []).append(seat)
    return {"gama": {
        "version": METRICS_VERSION,
        "game": game_id,
        "formula": FORMULAS[game_id],
        "comparable": comparable(game_id, params),
        "complete": state.is_terminal(),
        "table": score(state, range(len(entities))).to_dict(),
        "seats": [score(state, [seat]).to_dict() for seat in range(len(entities))],
        "entities": {entity: {**score(state, seats).to_dict(), "seats": seats}
                     for entity, seats in groups.items()},
    }}
