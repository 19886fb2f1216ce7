"""Negotiation's bot: it refuses an offer worth nothing to it early, agrees to a good one (and
at its last chance to anything above nothing), proposes legal splits worth much to it,
decides the same whatever the other side's hidden values are, and out-earns random."""

from __future__ import annotations

import re

import numpy as np
import pyspiel
import pytest

from agents.bots.negotiation import Negotiator, read_table
from games.actions import legal_moves
from games.gtbench.catalogue import negotiation_move
from games.registry import get
from games.seat_view import SeatView

SPEC = get("negotiation")
SAY = "say [0, 0, 0]"


def deal(seed: int) -> pyspiel.State:
    state = SPEC.load({"rng_seed": seed}).new_initial_state()
    state.apply_action(0)  # the one chance node draws pool, values and deadline from the seed
    return state


def view(state: pyspiel.State, seat: int) -> SeatView:
    return SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, state, seat)), (), state.clone())


def play(state: pyspiel.State, label: str) -> None:
    moves = {m.label: m.action for m in legal_moves(SPEC, state, state.current_player())}
    state.apply_action(moves[label])


def propose(state: pyspiel.State, keep: list[int]) -> None:
    """The side to move proposes to keep ``keep``, then says the first symbols."""
    play(state, f"propose [{', '.join(map(str, keep))}]")
    play(state, SAY)


def bot(seed: int = 0) -> Negotiator:
    return Negotiator(SPEC, SPEC.params(), np.random.default_rng(seed))


def answer(state: pyspiel.State, seat: int, seed: int = 0) -> str:
    decision = bot(seed).act(view(state, seat))
    assert decision.reasoning
    return decision.raw


def worth_to(state: pyspiel.State, seat: int) -> tuple[np.ndarray, np.ndarray]:
    table = read_table(state, seat)
    return table.pool, table.values


def seeds_where(rule, count: int = 4) -> list[int]:
    found = [seed for seed in range(400) if rule(deal(seed))]
    assert len(found) >= count
    return found[:count]


def _pool_matters(state: pyspiel.State) -> bool:
    """The pool is worth something to both seats, and there is time to bargain."""
    worth = [int(values @ pool) for pool, values in (worth_to(state, s) for s in (0, 1))]
    return min(worth) >= 10 and read_table(state, 1).max_steps >= 5


@pytest.mark.parametrize("seed", seeds_where(_pool_matters))
def test_refuses_an_offer_worth_nothing_early_and_takes_everything(seed):
    """Player 0 opens by keeping the whole pool: worth 0 to the bot, which does not agree.
    Offered the whole pool instead, it agrees at once."""
    greedy = deal(seed)
    pool, _ = worth_to(greedy, 1)
    propose(greedy, list(pool))
    assert answer(greedy, 1).startswith("propose")
    generous = deal(seed)
    propose(generous, [0, 0, 0])
    assert answer(generous, 1) == "agree"


@pytest.mark.parametrize("seed", seeds_where(_pool_matters))
def test_agrees_at_its_last_chance_to_anything_above_nothing(seed):
    """The other side keeps offering the bot a single item it values and the clock runs
    out: at the last proposal turn (its own proposal would end the game unagreed) the bot
    agrees, since no deal pays 0. The last turn is player 1's when the deadline is even."""
    state = deal(seed)
    steps = read_table(state, 0).max_steps
    me = (steps - 1) % 2
    pool, values = worth_to(state, me)
    item = int(np.argmax(values * (pool > 0)))
    keep = list(pool)
    keep[item] -= 1
    while len(read_table(state, me).proposals) < steps - 1:
        propose(state, list(pool) if state.current_player() == me else keep)
    assert state.current_player() == me
    assert read_table(state, me).proposals[-1] == (1 - me, tuple(keep))
    assert answer(state, me) == "agree"


@pytest.mark.parametrize("seed", range(6))
def test_opening_proposal_is_legal_and_worth_most_of_the_pool_to_it(seed):
    state = deal(seed)
    pool, values = worth_to(state, 0)
    label = answer(state, 0)
    legal = {m.label for m in legal_moves(SPEC, state, 0)}
    assert label in legal and label.startswith("propose")
    keep = np.array([int(n) for n in re.findall(r"\d+", label)])
    assert values @ keep >= 0.5 * (values @ pool)


def test_says_something_legal_on_an_utterance_turn():
    state = deal(1)
    play(state, "propose [0, 0, 0]")
    assert answer(state, 0).startswith("say")


def _twins(limit: int = 20000) -> tuple[int, int]:
    """Two seeds that deal player 1 the same pool, values and deadline, and player 0
    different values."""
    first: dict[str, int] = {}
    for seed in range(limit):
        state = pyspiel.load_game("negotiation", {"rng_seed": seed}).new_initial_state()
        state.apply_action(0)
        seen = state.observation_string(1)
        if seen in first:
            twin = deal(first[seen])
            if twin.observation_string(0) != state.observation_string(0):
                return first[seen], seed
        first.setdefault(seen, seed)
    raise AssertionError("no twin deals found")


def test_the_other_sides_values_do_not_change_its_decisions():
    """The same deal for the bot, different hidden values for player 0, the same public
    proposals: the bot decides the same at every turn."""
    one, two = (deal(seed) for seed in _twins())
    pool, _ = worth_to(one, 1)
    opponent_keeps = [list(pool), [max(0, n - 1) for n in pool], [n // 2 for n in pool]]
    for turn, keep in enumerate(opponent_keeps):
        if one.is_terminal():
            break
        for state in (one, two):
            propose(state, keep)
        picks = {answer(state, 1, seed=turn) for state in (one, two)}
        assert len(picks) == 1, picks
        if next(iter(picks)) == "agree":
            break
        for state in (one, two):
            play(state, next(iter(picks)))
            play(state, SAY)


def _duel(seed: int, bot_seat: int) -> tuple[float, float]:
    """One game against uniform random play: (the bot's return, random's return)."""
    state = deal(seed)
    player, rng = bot(seed), np.random.default_rng(seed + 100)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == bot_seat:
            action = player.act(view(state, seat)).proposal.action
        else:
            legal = state.legal_actions(seat)
            action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
    returns = state.returns()
    return returns[bot_seat], returns[1 - bot_seat]


def test_out_earns_and_outscores_random_play():
    """60 games, seats alternating: the bot earns more than random does and wins clearly
    more often than it loses (random against random would be even)."""
    games = [_duel(seed, seed % 2) for seed in range(60)]
    mine, theirs = (sum(g[i] for g in games) for i in (0, 1))
    wins = sum(m > t for m, t in games)
    losses = sum(m < t for m, t in games)
    assert mine > 1.5 * theirs, (mine, theirs)
    assert wins >= 2 * losses, (wins, losses)


def test_negotiation_move_reads_what_the_bot_proposes():
    """The bot's label and the action id name the same split."""
    state = deal(3)
    decision = bot().act(view(state, 0))
    verb, numbers = negotiation_move(state, decision.proposal.action)
    assert decision.raw == f"{verb} [{', '.join(map(str, numbers))}]"
