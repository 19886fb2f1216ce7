"""Which language models the page and the API may seat (issue 24 item 4): the opponents
file's, or any valid name of a provider the owner opened, stored but not rated unless the
owner allows it."""

from __future__ import annotations

import pytest

from agents.llm.config import check_model_name
from sessions.ratings.results import results_from_store
from sessions.store import Store
from sessions.web.llm_page import Keyring, Seating
from sessions.web.play import PlaySession
from sessions.web.players import Person

PERSON = Person("offered-tester-01", consent=True)


def _resigned(store: Store, opponent: str) -> list[str]:
    seating = Seating(Keyring())
    session = PlaySession("nim", opponent, person=PERSON, store=store,
                          build_agent=seating.build)
    seating.attach(session)
    session.resign()
    return store.get(session.id).tags


@pytest.mark.parametrize("name", ["", "a b", "x\u200by", "x\u202ey", "x+cot", "-flag",
                                  "n" * 201, "evil\x00"])
def test_model_names_with_spaces_control_zero_width_or_direction_characters_are_refused(name):
    with pytest.raises(ValueError, match="is not valid: use 1-200 letters"):
        check_model_name(name)
    assert check_model_name("meta-llama/Llama-3.1-8B-Instruct") == \
        "meta-llama/Llama-3.1-8B-Instruct"


def test_an_opened_provider_plays_any_model_stored_unrated_unless_the_owner_rates_them(
        monkeypatch, tmp_path):
    monkeypatch.delenv("ARENA_OPPONENTS", raising=False)
    with Store(tmp_path / "arena.sqlite3") as store:
        with pytest.raises(ValueError, match="is not offered on this server"):
            _resigned(store, "compat/my-own-7b")
        monkeypatch.setenv("ARENA_OPEN_PROVIDERS", "compat")
        assert _resigned(store, "compat/my-own-7b") == ["unrated"]
        assert _resigned(store, "compat/qwen2.5:7b") == []  # listed in the opponents file
        rated = results_from_store(store).results
        assert [r.entities[1] for r in rated] == ["compat/qwen2.5:7b+prompt"]
        monkeypatch.setenv("ARENA_RATE_OPEN_MODELS", "1")
        assert _resigned(store, "compat/my-own-7b") == []
        assert len(results_from_store(store).results) == 2
