"""``python -m sessions ratings`` and ``export --format gamebench`` on a store of real matches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.actions import ActionId
from sessions.cli import main
from sessions.engine import FailurePolicy
from sessions.match import Match
from sessions.record import SeatRecord
from sessions.store import Store
from sessions.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]


def human_match(seed: int, *, research_use: bool) -> Match:
    """A human (first legal move every time) against random, finished."""
    match = Match("tic_tac_toe",
                  [SeatRecord(kind="human", spec="human", entity="human", player_id="p-1"),
                   SeatRecord(kind="random", spec="random", entity="random")],
                  seed=seed, research_use=research_use)
    while not match.over:
        for seat in match.to_move():
            match.submit(seat, ActionId(action=match.legal(seat)[0].action))
    return match


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ratings") / "arena.sqlite3"
    with Store(path) as store:
        policy = FailurePolicy()
        run_tournament("tic_tac_toe", ["random", "mcts:25:0s"], matches=8, seed=1, store=store,
                       policy=policy, progress=False)
        run_tournament("kuhn_poker", ["random", "ismcts:25:0s"], matches=6, seed=2,
                       store=store, policy=policy, progress=False)
        store.save(human_match(3, research_use=True).record)
        store.save(human_match(4, research_use=False).record)
        abandoned = Match("tic_tac_toe", [SeatRecord("random", "random", "random"),
                                          SeatRecord("mcts", "mcts:25:0s", "mcts:25:0s")],
                          seed=5)
        abandoned.abandon("tab closed")
        store.save(abandoned.record)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def ratings_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code, out, err = run(capsys, "ratings", *args, "--json", "--bootstrap", "200")
    assert code == 0, err
    return json.loads(out)


def test_table_shows_every_entity_with_game_columns_and_what_was_left_out(store_path, capsys):
    code, out, _ = run(capsys, "ratings", "--db", str(store_path), "--bootstrap", "200")
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("rank"))
    assert header.split()[:8] == ["rank", "entity", "rating", "90%", "CI", "matches", "win",
                                  "rate"]
    assert header.split()[-2:] == ["kuhn_poker", "tic_tac_toe"]  # from the data, sorted
    rows = {line.split()[1]: line.split() for line in lines[2:] if line[:4].strip().isdigit()}
    assert set(rows) == {"mcts:25:0s", "ismcts:25:0s", "random", "human"}
    assert rows["random"][-2] != "–" and rows["mcts:25:0s"][-2] == "–"  # mcts: no Kuhn poker
    assert "15 matches in 2 games" in out
    assert "not rated: 2 sessions (1 abandoned, 1 not shared for research)" in out


def test_json_is_reproducible_for_a_seed(store_path, capsys):
    first = ratings_json(capsys, "--db", str(store_path), "--seed", "4")
    again = ratings_json(capsys, "--db", str(store_path), "--seed", "4")
    other = ratings_json(capsys, "--db", str(store_path), "--seed", "5")
    assert first == again
    assert first["overall"]["ratings"] != other["overall"]["ratings"]
    fits = {r["entity"]: r["fit"] for r in first["overall"]["ratings"]}
    assert fits == {r["entity"]: r["fit"] for r in other["overall"]["ratings"]}
    assert first["settings"] == {"bootstrap": 200, "seed": 4, "ties": "half", "alpha": 0.01,
                                 "level": 0.9, "resampling": "game"}
    assert first["dropped"] == {"abandoned": 1, "not shared for research": 1}
    random = next(r for r in first["overall"]["ratings"] if r["entity"] == "random")
    assert random["matches"] == 15 and random["low"] <= random["rating"] <= random["high"]


def test_one_game_alone_matches_its_column_in_the_full_report(store_path, capsys):
    full = ratings_json(capsys, "--db", str(store_path))
    kuhn = ratings_json(capsys, "--db", str(store_path), "--game", "kuhn_poker")
    assert kuhn["games"] == {}
    assert kuhn["overall"]["matches"] == 6
    assert {r["entity"] for r in kuhn["overall"]["ratings"]} == {"random", "ismcts:25:0s"}
    assert kuhn["overall"]["ratings"] == full["games"]["kuhn_poker"]["ratings"]


def test_humans_only_keeps_the_consenting_human_session(store_path, capsys):
    report = ratings_json(capsys, "--db", str(store_path), "--humans-only")
    assert report["overall"]["matches"] == 1
    assert {r["entity"] for r in report["overall"]["ratings"]} == {"human", "random"}


def test_nra_is_printed_per_pair(store_path, capsys):
    code, out, _ = run(capsys, "ratings", "--db", str(store_path), "--bootstrap", "50", "--nra")
    assert code == 0
    nra = out[out.index("GTBench NRA"):]
    assert "kuhn_poker   ismcts:25:0s  random" in nra
    assert "tic_tac_toe  mcts:25:0s    random" in nra


@pytest.mark.parametrize(("args", "message"), [
    (("--game", "chess"), "no rated matches of 'chess'; games with rated matches: "
                          "kuhn_poker, tic_tac_toe"),
    (("--bootstrap", "0"), "--bootstrap must be at least 1"),
    (("--since", "last week"), "cannot read the date 'last week'"),
])
def test_bad_requests_are_refused_with_a_reason(store_path, capsys, args, message):
    code, _, err = run(capsys, "ratings", "--db", str(store_path), *args)
    assert code == 2
    assert message in err


def test_export_to_gamebench_and_rate_the_file_the_same(store_path, tmp_path, capsys):
    exported = tmp_path / "matches.json"
    code, _, err = run(capsys, "export", "--db", str(store_path), "--format", "gamebench",
                       "--out", str(exported))
    assert code == 0
    assert ("exported 15 matches in GameBench's format; skipped 2 (1 abandoned, "
            "1 not shared for research)") in err
    entries = json.loads(exported.read_text())
    assert len(entries) == 15 and all(set(e) >= {"game"} and len(e) == 3 for e in entries)
    # Read back with our own conventions (the store's ratings hold the ladder's shipped
    # anchors), the file rates exactly as the store does.
    ours = ratings_json(capsys, "--db", str(store_path))
    theirs = ratings_json(capsys, "--gamebench", str(exported), "--ties", "half",
                          "--alpha", "0.01", "--resample", "game", "--anchors",
                          str(ROOT / "sessions" / "ratings" / "anchors.json"))
    assert theirs["overall"]["ratings"] == ours["overall"]["ratings"]


def test_a_gamebench_file_is_rated_by_gamebenchs_convention_unless_told(tmp_path, capsys):
    path = tmp_path / "matches.json"
    path.write_text(json.dumps([{"game": "hive", "gpt-4": 1, "random": 0},
                                {"game": "hive", "gpt-4": 0.5, "random": 0.5},
                                {"game": "pit", "human": 0.7, "gpt-4": 0.3}]))
    code, out, _ = run(capsys, "ratings", "--gamebench", str(path), "--bootstrap", "100")
    assert code == 0
    assert "pooled across games" in out and "alpha 0.001" in out
    assert "1 tie left out of the fit (GameBench's convention)" in out
    code, out, _ = run(capsys, "ratings", "--gamebench", str(path), "--bootstrap", "100",
                       "--ties", "half")
    assert "1 tie counts as half a win each way" in out


def test_a_bad_gamebench_file_is_refused_whole(tmp_path, capsys):
    path = tmp_path / "matches.json"
    path.write_text(json.dumps([{"game": "hive", "gpt-4": 1, "random": 0},
                                {"game": "hive", "gpt-4": 3, "random": 0}]))
    code, out, err = run(capsys, "ratings", "--gamebench", str(path))
    assert code == 2 and out == ""
    assert "entry 1: score of 'gpt-4' is 3; scores must be numbers in [0, 1]" in err


def test_the_module_entry_point_runs(store_path):
    done = subprocess.run([sys.executable, "-m", "sessions", "ratings", "--db", str(store_path),
                           "--bootstrap", "20", "--game", "tic_tac_toe"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "mcts:25:0s" in done.stdout and "kuhn_poker" not in done.stdout


def test_a_gamebench_files_game_tables_rate_only_the_agents_of_each_game(tmp_path, capsys):
    # The overall table follows GameBench (all agents, ties dropped, alpha 0.001, pooled);
    # a game's table holds only the agents that played it, centred over them (GameBench's
    # per-game table fitted all seven agents, so absent ones sat at the prior's centre).
    path = tmp_path / "matches.json"
    path.write_text(json.dumps(
        [{"game": "hive", "gpt-4": 1, "random": 0}] * 3
        + [{"game": "hive", "gpt-4": 0, "random": 1}]
        + [{"game": "pit", "human": 1, "gpt-3": 0}, {"game": "pit", "human": 0, "gpt-3": 1}]))
    data = json.loads(run(capsys, "ratings", "--gamebench", str(path), "--bootstrap", "100",
                          "--json")[1])
    assert {r["entity"] for r in data["overall"]["ratings"]} == {"gpt-4", "random", "human",
                                                                 "gpt-3"}
    hive = data["games"]["hive"]["ratings"]
    assert {r["entity"] for r in hive} == {"gpt-4", "random"}
    assert sum(r["fit"] for r in hive) == pytest.approx(0.0, abs=1e-9)


CLI_NEEDS_NOT = ("gradio", "matplotlib", "choix", "scipy.stats", "pyspiel", "agents")


def test_rating_a_gamebench_file_loads_no_ui_no_game_engine_and_no_choix(tmp_path):
    # What the command imports is what people wait for before anything is rated.
    path = tmp_path / "matches.json"
    path.write_text(json.dumps([{"game": "hive", "gpt-4": 1, "random": 0},
                                {"game": "pit", "human": 0.7, "gpt-4": 0.3}]))
    script = ("import sys; from sessions.cli import main; "
              f"main(['ratings', '--gamebench', {str(path)!r}, '--bootstrap', '50']); "
              f"print(sorted(m for m in {CLI_NEEDS_NOT!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Bradley–Terry ratings: 2 matches in 2 games" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_cli_default_alpha_is_the_fits():
    from sessions import cli
    from sessions.ratings import bradley_terry

    assert cli.DEFAULT_ALPHA == bradley_terry.DEFAULT_ALPHA
