"""The command lines a researcher uses: python -m games and python -m sessions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.registry import all_games
from sessions.record import MatchRecord, replay

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_games_lists_every_game_with_taxonomy_and_parameters():
    out = _run("-m", "games").stdout
    for spec in all_games():
        assert spec.id in out
    assert "incomplete information | probabilistic | sequential | 2 players" in out
    assert "pile_sizes=1;3;5;7" in out and "winscore=20" in out and "numdice=1" in out
    data = json.loads(_run("-m", "games", "--json").stdout)
    nim = next(entry for entry in data if entry["id"] == "nim")
    assert nim["default_params"] == {"pile_sizes": "1;3;5;7", "is_misere": True}
    assert nim["taxonomy"]["information"] == "complete"


def test_play_alternates_first_seat_and_prints_results(tmp_path):
    db = tmp_path / "t.sqlite3"
    done = _run("-m", "sessions", "play", "tic_tac_toe", "mcts:200:0s", "random",
                "--matches", "6", "--seed", "3", "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    first, second = summary["standings"]
    assert summary["matches"] == 6
    assert first["entity"] == "mcts:200:0s" and first["losses"] == 0
    assert first["wins"] + first["draws"] + first["losses"] == 6
    assert second["wins"] == first["losses"]
    exported = _run("-m", "sessions", "export", "--db", str(db), "--format", "jsonl")
    records = [MatchRecord.from_dict(json.loads(line)) for line in exported.stdout.splitlines()]
    assert len(records) == 6
    starters = [r.seats[0].entity for r in records]
    assert starters.count("mcts:200:0s") == 3  # each agent moved first in half the matches
    assert all(replay(r).is_terminal() for r in records)


def test_play_reports_bad_arguments_clearly(tmp_path):
    db = str(tmp_path / "x.sqlite3")
    cases = [
        (("chess", "random", "random"), "unknown game 'chess'"),
        (("kuhn_poker", "mcts", "random"), "use ismcts"),
        (("tic_tac_toe", "random"), "needs 2 agents"),
        (("nim", "random", "random", "--param", "piles=3"), "no parameter 'piles'"),
        (("nim", "random", "alphazero"), "unknown agent"),
    ]
    for args, message in cases:
        done = _run("-m", "sessions", "play", *args, "--db", db, "--quiet")
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_a_corrupt_store_is_reported_not_overwritten(tmp_path):
    db = tmp_path / "bad.sqlite3"
    db.write_bytes(b"\x00garbage" * 100)
    done = _run("-m", "sessions", "play", "nim", "random", "random", "--db", str(db), "--quiet")
    assert done.returncode == 2
    assert "not a usable" in done.stderr
    assert db.read_bytes() == b"\x00garbage" * 100


def test_parameters_can_be_overridden(tmp_path):
    db = tmp_path / "p.sqlite3"
    done = _run("-m", "sessions", "play", "pig", "random", "random", "--matches", "2",
                "--param", "winscore=10", "--db", str(db), "--json", "--quiet")
    assert json.loads(done.stdout)["params"]["winscore"] == 10
