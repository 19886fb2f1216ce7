"""LLM agent specs, the opponents file, and the opponent list the page shows."""

from __future__ import annotations

import pytest

from agents.llm import ConfigError, MissingKey, load_opponents, opponent_choices
from agents.llm.config import gguf_path, parse_opponents
from agents.specs import SpecError, make_agent, parse_spec
from games import registry

TIC = registry.get("tic_tac_toe")


@pytest.mark.parametrize(("spec", "entity"), [
    ("openai/gpt-4o-mini", "openai/gpt-4o-mini+prompt+vision"),
    ("anthropic/claude-sonnet-4-5+cot", "anthropic/claude-sonnet-4-5+cot+vision"),
    ("compat/qwen2.5:7b+sc-cot", "compat/qwen2.5:7b+sc-cot"),
    ("local/smollm2-135m", "local/smollm2-135m+prompt+json"),
    ("local/smollm2-135m+text", "local/smollm2-135m+prompt+text"),
    ("openai/gpt-4o-mini+json+tot", "openai/gpt-4o-mini+tot+json+vision"),
    ("openai/gpt-4o-mini+tot+json", "openai/gpt-4o-mini+tot+json+vision"),
    ("openai/gpt-4o-mini+novision", "openai/gpt-4o-mini+prompt+novision"),
    ("compat/qwen2.5:7b+text+novision", "compat/qwen2.5:7b+prompt"),
    ("compat/meta-llama/Llama-3.1-8B-Instruct+cot+vision",
     "compat/meta-llama/Llama-3.1-8B-Instruct+cot+vision"),
    ("OpenAI/some-new-model", "openai/some-new-model+prompt"),
])
def test_specs_have_one_canonical_entity(spec, entity):
    parsed = parse_spec(spec)
    assert parsed.kind == "llm"
    assert parsed.entity == entity
    assert parse_spec(parsed.entity).entity == entity  # canonical is a fixed point


def test_structured_answers_are_a_different_entity():
    assert parse_spec("openai/gpt-4o-mini+cot").entity != \
        parse_spec("openai/gpt-4o-mini+cot+json").entity


@pytest.mark.parametrize(("spec", "says"), [
    ("openai/gpt-4o-mini+fast", r"unknown mode\(s\) fast"),
    ("openai/gpt-4o-mini+cot+tot", "choose one reasoning mode"),
    ("openai/gpt-4o-mini+json+text", "contradict"),
    ("local/smollm2-135m+vision", "reads text only"),
])
def test_bad_modes_are_refused_with_the_allowed_ones(spec, says):
    with pytest.raises(SpecError, match=says) as err:
        parse_spec(spec)
    if "fast" in spec:
        assert "prompt | cot | sc-cot | tot" in str(err.value)


def test_unknown_provider_lists_the_known_ones():
    with pytest.raises(SpecError, match="known: anthropic, compat, hf, local, openai"):
        make_agent("gemini/pro", TIC, TIC.params(), seed=1)


def test_a_missing_key_says_where_to_put_one():
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    with pytest.raises(MissingKey, match="OPENAI_API_KEY") as err:
        make_agent("openai/gpt-4o-mini", TIC, TIC.params(), seed=1, env=env)
    assert "enter a key" in str(err.value)
    agent = make_agent("openai/gpt-4o-mini", TIC, TIC.params(), seed=1, env=env,
                       api_key="typed-by-the-person")
    assert agent.chat.client.api_key == "typed-by-the-person"


def test_compat_never_borrows_the_openai_key():
    env = {"OPENAI_API_KEY": "sk-openai-secret-0001", "ARENA_COMPAT_BASE_URL":
           "http://127.0.0.1:9/v1"}
    agent = make_agent("compat/some-model", TIC, TIC.params(), seed=1, env=env)
    assert agent.chat.client.api_key != env["OPENAI_API_KEY"]
    assert str(agent.chat.client.base_url).startswith("http://127.0.0.1:9/v1")


def test_unknown_options_are_an_error():
    with pytest.raises(TypeError, match="colour"):
        make_agent("compat/m", TIC, TIC.params(), seed=1, colour="red")


def test_classic_agents_ignore_llm_options():
    agent = make_agent("random", TIC, TIC.params(), seed=1, api_key="k", on_event=print)
    assert agent is not None


# --- the opponents file ---------------------------------------------------------------------


def test_the_packaged_opponents_parse_and_have_prices():
    opponents = load_opponents(env={})
    ids = [o.id for o in opponents]
    assert {"gpt-4o-mini", "claude-sonnet-4-5", "smollm2-135m"} <= set(ids)
    mini = opponents.find("openai", "gpt-4o-mini")
    assert mini.vision and mini.price_input == 0.15 and mini.key_env == "OPENAI_API_KEY"
    assert opponents.find("openai", "unlisted").price_input is None


def test_a_user_file_adds_and_replaces_entries(tmp_path):
    path = tmp_path / "opponents.toml"
    path.write_text('[[opponent]]\nid = "gpt-4o-mini"\nprovider = "openai"\nmodel = "gpt-4o-mini"\n'
                    'price_input = 1.0\nprice_output = 2.0\nmode = "cot+json"\n'
                    '[[opponent]]\nid = "router"\nprovider = "compat"\nmodel = "x/y"\n'
                    'base_url = "https://router.example/v1"\nkey_env = "HF_TOKEN"\n')
    opponents = load_opponents(env={"ARENA_OPPONENTS": str(path)})
    assert opponents.find("openai", "gpt-4o-mini").price_input == 1.0
    assert opponents.get("router").key_names() == ["HF_TOKEN", "ARENA_COMPAT_API_KEY"]
    choices = {c.id: c for c in opponent_choices(env={"ARENA_OPPONENTS": str(path)})}
    assert choices["gpt-4o-mini"].spec == "openai/gpt-4o-mini+cot+json"
    assert choices["gpt-4o-mini"].entity == "openai/gpt-4o-mini+cot+json"


@pytest.mark.parametrize(("text", "says"), [
    ('[[opponent]]\nid = "a"\nprovider = "openai"\n', "model is required"),
    ('[[opponent]]\nid = "a"\nprovider = "gemini"\nmodel = "m"\n', "provider 'gemini'"),
    ('[[opponent]]\nid = "a"\nprovider = "openai"\nmodel = "m"\napi_key = "sk-1"\n',
     "unknown field(s) api_key"),
    ('[[opponent]]\nid = "a"\nprovider = "openai"\nmodel = "m"\nvision = "yes"\n',
     "vision has the wrong type"),
    ('[[opponent]]\nid = "a"\nprovider = "openai"\nmodel = "m"\nprice_input = -1\n', "≥ 0"),
    ('[[opponent]]\nid = "a"\nprovider = "openai"\nmodel = "m"\n'
     '[[opponent]]\nid = "b"\nprovider = "openai"\nmodel = "m"\n', "both describe"),
    ('[[opponents]]\nid = "a"\n', "unknown table"),
    ("[[opponent]\n", "not valid TOML"),
])
def test_bad_opponent_files_say_what_is_wrong(text, says):
    with pytest.raises(ConfigError, match="mine.toml") as err:
        parse_opponents(text, source="mine.toml")
    assert says in str(err.value)


def test_a_missing_user_file_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the opponents file"):
        load_opponents(env={"ARENA_OPPONENTS": str(tmp_path / "nope.toml")})


def test_choices_say_which_opponents_need_a_key():
    choices = {c.id: c for c in opponent_choices(env={"ANTHROPIC_API_KEY": "k"})}
    assert choices["gpt-4o-mini"].status == "needs_key"
    assert choices["gpt-4o-mini"].key_names == ("OPENAI_API_KEY",)
    assert choices["claude-sonnet-4-5"].status == "ready"
    assert choices["qwen2.5-7b-ollama"].status == "ready"  # a local server needs no key
    local = choices["smollm2-135m"]
    installed = gguf_path(load_opponents(env={}).get("smollm2-135m")) is not None
    assert local.status == ("ready" if installed else "unavailable")
    assert local.spec == "local/smollm2-135m+prompt+json"
