"""The offline Codenames agents (``minilm``): the NumPy MiniLM encoder (where its optional
package is installed), legal and useful clues, guesses that never read the key, and whole
games without a key or a network."""

from __future__ import annotations

import numpy as np
import pytest

from agents import embedding
from agents.associations import AssociationAgent
from agents.specs import SpecError, agents_for, make_agent, parse_spec
from games import registry
from games.actions import resolve
from games.gamebench import codenames as cn
from sessions.match import Match
from sessions.record import SeatRecord
from sessions.tournament import play_one

SPEC = registry.get("codenames")
pytestmark = pytest.mark.skipif(embedding.missing() is not None,
                                reason=str(embedding.missing()))


@pytest.mark.skipif(embedding.model_missing() is not None,
                    reason=f"the live encoder needs its package: {embedding.model_missing()}")
def test_the_encoder_reads_meanings():
    words = embedding.encoder()
    vectors = words.encode(["doctor", "nurse", "pencil", "ocean", "wave"])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > sims[0, 2] + 0.15  # doctor-nurse >> doctor-pencil
    assert sims[3, 4] > sims[3, 2]
    assert np.array_equal(words.encode(["doctor"]), words.encode(["Doctor"]))
    assert len(words.tokens("unbelievableness")) > 3  # WordPiece splits rare words


def _first_turn(seed: int) -> tuple[Match, list]:
    match = Match("codenames", [SeatRecord("minilm", "minilm", "minilm")] * 4, seed=seed)
    agent = AssociationAgent()
    seat = match.to_move()[0]
    decision = agent.act(match.view(seat))
    return match, [seat, decision, agent]


@pytest.mark.parametrize("seed", range(4))
def test_the_spymaster_gives_a_legal_clue_that_its_operative_reads(seed):
    match, (seat, decision, agent) = _first_turn(seed)
    move = resolve(SPEC, match.state, seat, decision.proposal)  # the adapter accepts it
    assert move.says and move.action != cn.CLUE
    match.submit(seat, decision.proposal)
    state = match.state
    assert decision.reasoning.split(" links ")[0] == move.text
    guess = agent.act(match.view(seat + 1))
    assert not resolve(SPEC, state, seat + 1, guess.proposal).says  # a legal guess


def test_clues_lead_the_operative_to_its_own_agents_far_more_often_than_chance():
    hits = 0
    for seed in range(8):
        match, (seat, decision, agent) = _first_turn(seed)
        match.submit(seat, decision.proposal)
        guess = agent.act(match.view(seat + 1))
        state = match.state
        card = next(c for c in range(25) if f"guess {state.word(c)}" == guess.raw)
        hits += state.key[card] == state.team
    assert hits >= 6  # a random first guess finds its own agent 9 or 8 times in 25


def test_the_operative_never_reads_the_key():
    base = cn.CodenamesState(SPEC.load())  # a hand-made deal, then two keys
    for action in [*range(25), 0]:
        base.apply_action(action)
    key = [cn.RED] * 9 + [cn.BLUE] * 8 + [cn.BYSTANDER] * 7 + [cn.ASSASSIN]
    states = []
    for order in (key, key[::-1]):
        state = base.clone()
        for role in order:
            state.apply_action(role)
        state.set_words("SEA")
        state.apply_action(cn.CLUE + 2)
        states.append(state)
    agent = AssociationAgent()
    seen = [agent.act(_view(state, 1)).raw for state in states]
    assert seen[0] == seen[1]


def _view(state, seat):
    from games.actions import legal_moves
    from games.seat_view import SeatView

    return SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, state, seat)), (), state)


def test_minilm_teams_beat_random_teams():
    wins = 0
    for seed in range(6):
        specs = ["minilm", "minilm", "random", "random"] if seed % 2 else \
            ["random", "random", "minilm", "minilm"]
        record = play_one("codenames", [parse_spec(s) for s in specs], seed=seed)
        mine = 0 if specs[0] == "minilm" else 2
        wins += record.scores[mine] == 1.0
        assert all(not m.rejected for m in record.moves)  # every clue was legal
    assert wins >= 5


def test_minilm_plays_only_word_games_and_says_when_the_model_is_missing(monkeypatch):
    assert "minilm" in agents_for(SPEC)
    with pytest.raises(SpecError, match="only codenames"):
        make_agent("minilm", registry.get("tic_tac_toe"), {}, seed=1)
    monkeypatch.setattr(embedding, "missing", lambda: "not installed: pip install ...")
    with pytest.raises(SpecError, match="unavailable: not installed"):
        make_agent("minilm", SPEC, {}, seed=1)
    assert "minilm" not in agents_for(SPEC)
