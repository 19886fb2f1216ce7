"""What a model is told: golden prompts per game, built from the seat's own view only."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.llm import prompts
from games.registry import all_games
from renderers import renderer, text_view
from scripts.golden_prompts import GOLDEN_DIR, decision_view, golden_text

GAMES = [spec.id for spec in all_games()]


@pytest.mark.parametrize("game", GAMES)
def test_prompts_match_the_golden_files(game):
    spec = next(s for s in all_games() if s.id == game)
    golden = Path(GOLDEN_DIR) / f"{game}.txt"
    assert golden.exists(), "run: python -m scripts.golden_prompts"
    assert golden_text(spec) == golden.read_text(encoding="utf-8"), (
        f"the {game} prompts changed; review the diff, then run: "
        f"python -m scripts.golden_prompts {game}")


@pytest.mark.parametrize("game", GAMES)
def test_a_prompt_has_the_four_parts_from_the_seats_view(game):
    spec = next(s for s in all_games() if s.id == game)
    view = decision_view(spec)
    where = prompts.position(view, image=False)
    what = prompts.instruction("cot", False, where)
    text = prompts.ask(where, what)
    assert spec.title in where.system  # 1. system
    assert text.endswith(what)  # 4. the mode's instruction
    own = getattr(renderer(spec.id), "prompt", None)
    if own is not None:  # GAMA-Bench's own structure: rules, rounds seen, one JSON field
        assert where.own_format
        assert own(view.state, view.seat).strip() in text
        assert "JSON format" in text and "step by step" in what
        return
    assert spec.rules_for_llm.strip() in text  # 2. rules
    assert view.text.strip() in text  # 3. the observation: the seat's view…
    plain = [m.label for m in view.legal if not m.says]
    summary = getattr(renderer(spec.id), "legal_summary", None)
    if summary is not None:  # hundreds of moves: how to write one, with legal examples
        assert summary(view.state, view.seat, plain) in text
        examples = text.split("examples:\n", 1)[1].split("\n\n")[0].splitlines()
        assert examples and set(examples) <= set(plain)
        return
    if plain:
        listed = text.split("written as shown (one per line):\n", 1)[1].split("\n\n")[0]
        assert listed.splitlines() == plain  # …and its legal moves
    if any(m.says for m in view.legal):  # moves in the seat's own words: their form
        assert f"own words, written as {spec.grammar.free_text.hint}" in text


@pytest.mark.parametrize("game", GAMES)
def test_a_prompt_never_shows_what_only_the_other_seat_sees(game):
    spec = next(s for s in all_games() if s.id == game)
    view = decision_view(spec)
    text = prompts.ask(prompts.position(view, image=False), prompts.instruction("cot", False))
    mine = set(view.text.splitlines())
    for other in range(view.state.num_players()):
        if other == view.seat:
            continue
        for line in text_view(spec.id, view.state, other).splitlines():
            if line.strip() and line not in mine and len(line.strip()) > 3:
                assert line not in text, f"seat {other}'s {line!r} leaked into the prompt"


def test_votes_are_read_from_their_last_line():
    assert prompts.read_vote("1 is fine but\nThe best choice is 2", 3) == 1
    assert prompts.read_vote("The best choice is **3**.", 3) == 2
    assert prompts.read_vote("The best choice is 1. No wait, the best choice is 3", 3) == 2
    assert prompts.read_vote("The best choice is 7", 3) is None
    assert prompts.read_vote("I like the second one", 3) is None


def test_the_answer_schema_allows_only_legal_labels():
    schema = prompts.answer_schema(("C1R1", "C2R2"), thinking=True)
    assert schema["properties"]["move"] == {"type": "string", "enum": ["C1R1", "C2R2"]}
    assert schema["required"] == ["thinking", "move"]
    assert schema["additionalProperties"] is False
