"""The showcase without a browser: its settings, the pairings of ``auto``, what a day of
exhibition games cost, and the fall back to offline agents once the budget is spent.

Language models are the real OpenAI SDK talking to tests/fake_llm_server.py over HTTP.
"""

from __future__ import annotations

import time

import pytest

from agents.llm import opponent_choices
from agents.specs import parse_spec
from sessions.store import Store
from sessions.tournament import play_one
from sessions.web import showcase as showcase_module
from sessions.web.showcase import (
    Pairing,
    Showcase,
    ShowcaseConfig,
    ShowcaseError,
    auto_pairings,
    cost_at_prices,
    day_start,
    load_config,
    offline,
    parse_config,
    spent_today,
)
from tests.fake_llm_server import FakeLLM, answer

GPT = "openai/gpt-4o-mini+prompt"
GPT4O = "openai/gpt-4o+prompt"


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


@pytest.fixture
def fake(monkeypatch, tmp_path):
    with FakeLLM() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-server-key-for-showcase")
        monkeypatch.delenv("ARENA_OPPONENTS", raising=False)
        monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
        yield server


def config(**fields) -> dict:
    return {"pairing": [{"game": "tic_tac_toe", "seats": [GPT, "mcts"]}], **fields}


@pytest.mark.parametrize(("data", "message"), [
    ({"pairing": []}, r"pairing: list at least one \[\[pairing\]\]"),
    (config(budget=3), "budget: unknown field; a showcase has daily_budget_usd"),
    (config(daily_budget_usd=-1), "daily_budget_usd: must be a number from 0 to 10000"),
    (config(delay_seconds="fast"), "delay_seconds: must be a number from 0 to 60"),
    ({"pairing": [{"game": "chess", "seats": ["random", "random"]}]}, "unknown game 'chess'"),
    ({"pairing": [{"game": "nim", "seats": ["random"]}]},
     r"pairing\[0\].seats: Nim \(misère\) has 2 seats"),
    ({"pairing": [{"game": "kuhn_poker", "seats": ["mcts", "random"]}]},
     "mcts would see hidden information"),
    ({"pairing": [{"game": "nim", "seats": ["compat/mystery-7b", "random"]}]},
     "compat/mystery-7b has no price_input/price_output"),
    ({"pairing": [{"game": "nim", "seats": ["random", "random"], "players": 3}]},
     "unknown field 'players'"),
])
def test_bad_settings_name_the_file_and_the_field(data, message):
    with pytest.raises(ShowcaseError, match=f"^show.toml: .*{message}"):
        parse_config(data, source="show.toml")


def test_a_file_and_auto_are_read(tmp_path):
    path = tmp_path / "show.toml"
    path.write_text('daily_budget_usd = 2.5\npause_seconds = 3\n[[pairing]]\ngame = "nim"\n'
                    'seats = ["local/smollm2-135m", "mcts"]\n')
    read = load_config(str(path), env={})
    assert read.daily_budget_usd == 2.5 and read.pause_seconds == 3.0 and read.delay_seconds == 1
    assert read.pairings == (Pairing("nim", ("local/smollm2-135m", "mcts")),)
    with pytest.raises(ShowcaseError, match="cannot read it"):
        load_config(str(tmp_path / "missing.toml"), env={})
    auto = load_config("auto", env={"ARENA_SHOWCASE_BUDGET_USD": "0.5",
                                    "ARENA_DATA_DIR": str(tmp_path)})
    assert auto.daily_budget_usd == 0.5 and auto.pairings
    with pytest.raises(ShowcaseError, match="is not a number of dollars"):
        load_config("auto", env={"ARENA_SHOWCASE_BUDGET_USD": "lots"})


def test_auto_pairs_the_ready_models_with_each_other_or_with_the_best_classic_agent():
    choices = [c for c in opponent_choices(env={}) if c.provider == "openai"]
    none = auto_pairings([], ["tic_tac_toe", "kuhn_poker"])
    assert [p.seats for p in none] == [("mcts", "random"), ("ismcts", "random")]
    one = auto_pairings(choices[:1], ["tic_tac_toe", "kuhn_poker"])
    assert [p.seats for p in one] == [(choices[0].spec, "mcts"), ("ismcts", choices[0].spec)]
    two = auto_pairings(choices[:2], ["nim", "pig"])
    assert [p.seats for p in two] == [(choices[0].spec, choices[1].spec),
                                      (choices[1].spec, choices[0].spec)]


def llm_record(spec: str, prompt: int, completion: int, *, ended_at: float, tags=("showcase",)):
    record = play_one("nim", [parse_spec("random"), parse_spec("random")], seed=1)
    record.seats[0].kind, record.seats[0].spec = "llm", spec
    record.seats[0].entity = spec
    move = next(m for m in record.moves if m.seat == 0)
    move.meta["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                          "calls": 1, "seconds": 1.0, "cost_usd": 99.0}  # the file's price wins
    record.tags, record.ended_at = list(tags), ended_at
    return record


def test_todays_spending_is_the_recorded_tokens_at_the_opponents_file_prices(store):
    now = time.time()
    today = day_start(now)
    store.save(llm_record(GPT, 1_000_000, 1_000_000, ended_at=today + 10))      # $0.75
    store.save(llm_record(GPT4O, 100_000, 10_000, ended_at=today + 20))         # $0.35
    store.save(llm_record(GPT4O, 100_000, 10_000, ended_at=today - 5))          # yesterday
    store.save(llm_record(GPT4O, 100_000, 10_000, ended_at=today + 30, tags=("watch",)))
    assert cost_at_prices(llm_record(GPT, 1_000_000, 0, ended_at=now)) == pytest.approx(0.15)
    assert spent_today(store, now) == pytest.approx(0.75 + 0.35)


def test_once_the_budget_is_spent_paid_seats_give_way_to_offline_agents(store):
    now = time.time()
    store.save(llm_record(GPT, 1_000_000, 0, ended_at=day_start(now) + 1))  # $0.15 today
    pairings = (Pairing("tic_tac_toe", (GPT, "mcts")), Pairing("nim", ("random", "mcts")))
    show = Showcase(ShowcaseConfig(pairings, daily_budget_usd=0.10), store,
                    local="local/smollm2-135m+json")
    assert show.next_pairing().seats == ("local/smollm2-135m+json", "mcts")
    assert "budget ($0.10) is spent" in show.note and "offline agents" in show.note
    assert show.next_pairing().seats == ("random", "mcts")  # free all along
    rich = Showcase(ShowcaseConfig(pairings, daily_budget_usd=1.0), store)
    assert rich.next_pairing().seats == (GPT, "mcts") and rich.note == ""
    assert offline(Pairing("kuhn_poker", (GPT, GPT4O)), None).seats == ("ismcts", "ismcts")


def test_a_game_that_spends_the_budget_is_stopped_and_the_next_one_is_offline(fake, store):
    fake.responder = lambda request: answer(request, request.legal_moves()[0])
    pairings = (Pairing("tic_tac_toe", (GPT, "random")),)
    show = Showcase(ShowcaseConfig(pairings, daily_budget_usd=0.000001, delay_seconds=0.5,
                                   pause_seconds=0.0), store)
    show.start()
    try:
        deadline = time.monotonic() + 30
        while show.games < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert show.games >= 2
        first = store.get(next(iter(store.tagged("showcase"))).id)
        assert first.outcome == "abandoned" and "daily budget" in first.end_reason
        assert cost_at_prices(first) > 0.000001
        current = show.current()
        assert current is not None and current.record.seats[0].spec == "mcts"
        assert "is spent" in show.note
    finally:
        show.stop()


def test_a_bad_setting_leaves_the_showcase_off(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(showcase_module, "_SHOWCASE", None)
    assert showcase_module.showcase(None, env={}) is None
    assert showcase_module.showcase(None, env={"ARENA_SHOWCASE": str(tmp_path / "x")}) is None
    assert "no showcase" in caplog.text and showcase_module._SHOWCASE is None
