"""GAMA-Bench prompts: golden snapshots, GAMA's structure, and answers the adapter reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.specs import parse_spec
from games.actions import Text, resolve
from games.gama.catalogue import GAMES
from renderers import renderer
from renderers.gama.view import gama_messages, gama_prompt
from scripts.gama_golden import GOLDEN, snapshot
from sessions.match import Match
from sessions.record import SeatRecord, replay
from sessions.tournament import play_one

GAMA_IDS = [spec.id for spec in GAMES]


@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_golden_text_view_and_prompt(game_id):
    golden = (GOLDEN / f"{game_id}.txt").read_text(encoding="utf-8")
    assert snapshot(game_id) == golden, (
        f"the text view or prompt of {game_id} changed; if that is intended, run "
        "python scripts/gama_golden.py and review the diff"
    )


@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_prompts_follow_gamas_structure(game_id):
    seats = [SeatRecord(kind="x", spec="x", entity="x") for _ in range(10)]
    match = Match(game_id, seats, seed=5)
    spec = match.spec
    seat = match.to_move()[0]
    view = match.view(seat)
    messages = gama_messages(view)
    assert messages[0]["role"] == "system"
    assert messages[0]["content"].startswith(spec.rules_with(match.record.params, for_llm=True))
    assert messages[-1]["role"] == "user" and "JSON format" in messages[-1]["content"]
    requested = json.loads(messages[-1]["content"].splitlines()[-1])
    assert set(requested) <= set(spec.grammar.json_fields)
    assert gama_prompt(view).startswith(messages[0]["content"])
    assert gama_prompt(view).endswith(messages[-1]["content"].split("\n\n")[-1])


@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_the_answers_echoed_in_prompts_are_answers_the_adapter_reads(game_id):
    """Every 'You chose: {...}' in a later prompt resolves to the move actually played."""
    record = play_one(game_id, [parse_spec("random")] * 10, seed=8)
    view = renderer(game_id)
    final = replay(record)
    for seat in range(10):
        echoed = [m["content"] for m in view.messages(final, seat) if m["role"] == "assistant"]
        played = [m for m in record.moves if m.seat == seat and not m.meta.get("forced")]
        if game_id == "pirate_game":
            played = [m for m in played if m.label in ("accept", "reject")]
            echoed = [e for e in echoed if "decision" in e]
        assert len(echoed) == len(played), seat
        for answer, move in zip(echoed, played, strict=True):
            before = replay(record, upto=record.moves.index(move))
            got = resolve(_spec(game_id), before, seat, Text(text=answer, source="llm"))
            assert got.action == move.action, (answer, move.label)


def _spec(game_id: str):
    return next(spec for spec in GAMES if spec.id == game_id)


def test_golden_files_exist_for_every_game():
    assert sorted(p.stem for p in Path(GOLDEN).glob("*.txt")) == sorted(GAMA_IDS)
