"""The published dataset (python -m sessions dataset), pushing it, forgetting a person and
retention: only what people shared leaves, and a forgotten person leaves no trace."""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from agents.specs import parse_spec  # noqa: E402
from games import registry  # noqa: E402
from sessions.cli import main  # noqa: E402
from sessions.dataset import Selection, build  # noqa: E402
from sessions.dataset_hub import Publisher, PushError, plan_upload, push  # noqa: E402
from sessions.fanout import play_one  # noqa: E402
from sessions.forget import apply_retention, player_games  # noqa: E402
from sessions.record import Attempt, MatchRecord, SeatRecord  # noqa: E402
from sessions.store import Store  # noqa: E402
from sessions.web.players import Person  # noqa: E402

KEY = "sk-test-0123456789abcdefXYZ"
"""A key the process holds (an environment variable) that a model quoted."""
SHAPED = "key-9f8e7d6c5b4a39281706"
"""Text shaped like a key that no variable holds."""
ALICE, BOB, CAROL = "alice-player-0001", "bob-player-00002", "carol-player-0003"


def _played(game: str, seed: int) -> MatchRecord:
    players = registry.get(game).taxonomy.players
    return play_one(game, [parse_spec("random")] * players, seed=seed)


def _with_person(record: MatchRecord, person: Person, seat: int = 0) -> MatchRecord:
    seats = list(record.seats)
    seats[seat] = dataclasses.replace(person.seat(), team=seats[seat].team)
    return dataclasses.replace(record, seats=seats, research_use=person.consent)


def _with_model(record: MatchRecord, seat: int) -> MatchRecord:
    """Seat ``seat`` as a language model whose answers quote a key."""
    seats = list(record.seats)
    seats[seat] = SeatRecord(kind="llm", spec="openai/gpt-test", entity="openai/gpt-test:cot")
    moves = []
    for move in record.moves:
        if move.seat == seat:  # each answer came after a refused one
            move = dataclasses.replace(move, rejected=[Attempt(
                f"C9R9 {KEY}", "illegal", "C9R9 is not a legal move; legal: ...", 1.0,
                meta={"usage": {"prompt_tokens": 90, "completion_tokens": 4, "calls": 1,
                                "seconds": 0.2, "cost_usd": 0.0001, "estimated": False}})])
        if move.seat == seat:
            call = {"purpose": "move", "index": 0, "text": f"my key is {KEY}; {move.label}",
                    "reasoning": f"also {SHAPED}", "prompt_tokens": 120,
                    "completion_tokens": 30, "seconds": 0.4, "finish": "stop"}
            move = dataclasses.replace(move, reasoning=f"thinking with {KEY}", meta={
                "usage": {"prompt_tokens": 120, "completion_tokens": 30, "calls": 1,
                          "seconds": 0.4, "cost_usd": 0.0002, "estimated": False},
                "llm": {"entity": "openai/gpt-test:cot", "provider": "openai",
                        "model": "gpt-test", "reasoning": "cot", "calls": [call]}})
        moves.append(move)
    return dataclasses.replace(record, seats=seats, moves=moves)


@pytest.fixture
def stored(tmp_path, monkeypatch):
    """A store with people (consenting or not, sharing talk or not), a model, classic
    agents, a team game with talk and a GAMA-Bench table."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    alice = Person(ALICE, "Alice Display", consent=True, talk=False)
    bob = Person(BOB, "Bob Display", consent=True, talk=True)
    carol = Person(CAROL, "Carol Display", consent=False)
    records = {
        "alice_ttt": _with_model(_with_person(_played("tic_tac_toe", 1), alice), 1),
        "alice_kuhn": _with_person(_played("kuhn_poker", 2), alice, seat=1),
        "alice_talk": _with_person(_played("are_you_the_traitor", 3), alice),
        "bob_talk": _with_person(_played("are_you_the_traitor", 4), bob),
        "carol_nim": _with_person(_played("nim", 5), carol),
        "agents_rooms": _played("two_rooms_and_a_boom", 6),
        "agents_gama": _played("battle_royale", 7),
    }
    records["alice_kuhn"].metrics = {"note": f"played by {ALICE}"}  # a page id elsewhere
    for n, record in enumerate(records.values()):
        record.ended_at = 1_780_000_000 + n * 86400  # a day apart, in this order
    path = tmp_path / "arena.sqlite3"
    with Store(path) as store:
        for record in records.values():
            store.save(record)
    return path, records


def _tables(folder: Path) -> dict[str, list[dict]]:
    import pyarrow.parquet as pq

    return {p.parent.name: pq.read_table(p).to_pylist()
            for p in sorted((folder / "data").glob("*/*.parquet"))}


def _every_text(folder: Path) -> str:
    tables = _tables(folder)
    return (folder / "README.md").read_text() + json.dumps(tables, default=str)


def test_the_dataset_loads_with_datasets_and_holds_only_what_people_shared(stored, tmp_path,
                                                                         monkeypatch):
    import datasets

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    cache = str(tmp_path / "cache")
    path, records = stored
    with Store(path, readonly=True) as store:
        built = build(store, tmp_path / "out", salt=b"s" * 32)
    out = tmp_path / "out"
    sessions = datasets.load_dataset(str(out), cache_dir=cache)["train"]
    assert sorted(sessions["session_id"]) == sorted(
        r.id for name, r in records.items() if name != "carol_nim")
    moves = datasets.load_dataset(str(out), "moves", cache_dir=cache)["train"]
    assert moves.num_rows == sum(len(r.moves) for n, r in records.items() if n != "carol_nim")
    rejected = datasets.load_dataset(str(out), "rejected", cache_dir=cache)["train"]
    assert rejected.num_rows == sum(1 for m in records["alice_ttt"].moves if m.seat == 1)
    assert set(rejected["raw"]) == {"C9R9 [key]"} and set(rejected["prompt_tokens"]) == {90}
    calls = datasets.load_dataset(str(out), "llm_calls", cache_dir=cache)["train"]
    assert set(calls["prompt_tokens"]) == {120} and calls.num_rows == sum(
        1 for m in records["alice_ttt"].moves if m.seat == 1)
    assert built.left_out == {"not shared for research": 1}

    text = _every_text(out)
    for secret in (KEY, SHAPED, ALICE, BOB, CAROL, "Display", records["carol_nim"].id):
        assert secret not in text, secret  # no key, page id, name or unshared session
    tables = _tables(out)
    players = {(row["session_id"], row["player"]) for row in tables["seats"] if row["player"]}
    alice_keys = {key for sid, key in players if sid in
                  {records[n].id for n in ("alice_ttt", "alice_kuhn", "alice_talk")}}
    assert len(alice_keys) == 1 and len({key for _, key in players}) == 2  # stable, distinct
    kuhn = next(r for r in tables["sessions"] if r["session_id"] == records["alice_kuhn"].id)
    assert json.loads(kuhn["metrics"]) == {"note": f"played by {alice_keys.pop()}"}

    talk = tables["talk"]
    said_by = {(row["session_id"], row["seat"]): row["words"] for row in talk}
    assert said_by[(records["alice_talk"].id, 0)] == "[withheld]"  # no talk consent
    assert said_by[(records["bob_talk"].id, 0)] != "[withheld]"  # talk shared
    assert all(words != "[withheld]" for (sid, seat), words in said_by.items() if seat != 0)
    alice_moves = [row for row in tables["moves"] if row["session_id"] ==
                   records["alice_talk"].id and row["seat"] == 0]
    spoken = {m.text for m in records["alice_talk"].moves if m.seat == 0 and m.text}
    assert spoken and not any(words in json.dumps(alice_moves, default=str) for words in spoken)
    card = (out / "README.md").read_text()
    assert "May we keep your games for research?" in card and "Also share what I write" in card
    assert "| are_you_the_traitor | 2 | 2 |" in card and "| `decision_cost_usd` |" in card


def test_worker_processes_write_the_same_tables_and_card(stored, tmp_path, monkeypatch):
    """The command decodes records in worker processes (one a core): the tables, their
    order and the data card are those of a build in one process, keys blanked the same."""
    import sessions.dataset

    monkeypatch.setattr(sessions.dataset, "CHUNK", 2)  # the fixture's 6 shared: 3 chunks
    path, _ = stored
    with Store(path, readonly=True) as store:
        alone = build(store, tmp_path / "one", salt=b"s" * 32, workers=1)
        shared = build(store, tmp_path / "two", salt=b"s" * 32, workers=2)
    assert dataclasses.replace(shared, folder=alone.folder) == alone
    assert _tables(tmp_path / "two") == _tables(tmp_path / "one")
    assert (tmp_path / "two" / "README.md").read_text() == \
        (tmp_path / "one" / "README.md").read_text()
    assert KEY not in _every_text(tmp_path / "two") and ALICE not in _every_text(
        tmp_path / "two")


def test_the_command_filters_and_refuses_bad_input_without_writing(stored, tmp_path,
                                                                    capsys):
    path, records = stored
    out = tmp_path / "picked"
    assert main(["dataset", str(out), "--db", str(path), "--games", "are_you_the_traitor,nim",
                 "--since", "2026-05-31"]) == 0
    ids = {row["session_id"] for row in _tables(out)["sessions"]}
    assert ids == {records["bob_talk"].id}  # alice's is older; carol's nim is not shared
    card = (out / "README.md").read_text()  # no model here: no llm_calls rows, no config
    assert "config_name: talk" in card and "config_name: llm_calls" not in card
    assert not (out / "data" / "llm_calls").exists() and "No rows in this dataset" in card
    assert main(["dataset", str(out), "--db", str(path), "--humans-only",
                 "--until", "2026-05-30"]) == 0  # an earlier dataset is replaced
    ids = {row["session_id"] for row in _tables(out)["sessions"]}
    assert ids == {records[n].id for n in ("alice_ttt", "alice_kuhn", "alice_talk")}

    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    capsys.readouterr()
    for argv, message in (([str(foreign)], "not empty"),
                          ([str(tmp_path / "x"), "--games", "chess"], "unknown game chess"),
                          ([str(tmp_path / "x"), "--push", "no slash"], "--push"),
                          ([str(tmp_path / "x"), "--dry-run"], "--dry-run goes with --push")):
        assert main(["dataset", *argv, "--db", str(path)]) == 2
        assert message in capsys.readouterr().err
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
    assert not (tmp_path / "x").exists()


def test_push_dry_run_lists_the_files_and_push_hands_them_to_the_hub(stored, tmp_path,
                                                                     capsys, monkeypatch):
    path, _ = stored
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert main(["dataset", str(tmp_path / "d"), "--db", str(path), "--push", "arena/games",
                 "--dry-run"]) == 0
    said = capsys.readouterr().out
    assert "would push 7 files" in said and "data/moves/train.parquet" in said  # 6 tables
    assert main(["dataset", str(tmp_path / "e"), "--db", str(path), "--push",
                 "arena/games"]) == 2  # no token: refused before anything is built
    assert "HF_TOKEN" in capsys.readouterr().err and not (tmp_path / "e").exists()

    class Hub:  # records the calls huggingface_hub's HfApi would get
        calls: list = []

        def create_repo(self, repo_id, **options):
            self.calls.append(("create_repo", repo_id, options))

        def upload_folder(self, **options):
            self.calls.append(("upload_folder", options))
            return type("Info", (), {"commit_url": "https://hub/commit/1"})()

    upload = plan_upload(tmp_path / "d", "arena/games")
    assert push(upload, token="hf_write_token", api=Hub()) == "https://hub/commit/1"
    assert Hub.calls[0] == ("create_repo", "arena/games",
                            {"repo_type": "dataset", "exist_ok": True, "token": "hf_write_token"})
    assert Hub.calls[1][1]["folder_path"] == tmp_path / "d"
    assert Hub.calls[1][1]["repo_type"] == "dataset"

    from huggingface_hub import HfApi  # the real client, against a Hub that is not there

    with pytest.raises(PushError, match="pushing to arena/games failed") as err:
        push(upload, token="hf_secret_token_123456",
             api=HfApi(endpoint="http://127.0.0.1:9", token="hf_secret_token_123456"))
    assert "hf_secret_token_123456" not in str(err.value)


def test_the_scheduled_push_rebuilds_the_store_s_own_shard(stored, tmp_path):
    path, records = stored

    class Hub:
        folders: list = []

        def create_repo(self, repo_id, **options):
            pass

        def upload_folder(self, **options):
            self.folders.append(sorted(p.name for p in Path(options["folder_path"]).rglob("*")))
            return "done"

    publisher = Publisher("arena/games", data_dir=tmp_path / "data", minutes=60,
                          store=path, token="t", api=Hub())
    assert publisher.publish_once() == "done"
    shard = (tmp_path / "data" / "dataset-shard").read_text()
    assert f"{shard}.parquet" in Hub.folders[0]
    with Store(path) as store:
        store.forget(ALICE)
    publisher.publish_once()  # the next push leaves the forgotten person out
    sessions = _tables(tmp_path / "data" / "dataset")["sessions"]
    assert len(sessions) == 3 and (tmp_path / "data" / "dataset-salt").exists()


def test_forgetting_a_person_removes_every_session_of_theirs(store_location, tmp_path,
                                                              capsys):
    person = Person(ALICE, consent=True)
    theirs = [_with_person(_played("tic_tac_toe", s), person, seat=s % 2) for s in range(3)]
    others = [_played("nim", 9)]
    with Store(store_location) as store:
        for record in theirs + others:
            store.save(record)
        mine = list(player_games(store, ALICE))
        assert sorted(json.loads(line)["id"] for line in mine) == sorted(r.id for r in theirs)
    assert main(["forget", ALICE, "--db", store_location]) == 0
    assert "removed 3 sessions" in capsys.readouterr().out
    with Store(store_location) as store:
        assert [r.id for r in store.records()] == [others[0].id]
        assert not store.summaries(player_id=ALICE)
        assert all(ALICE not in json.dumps(row) for row in store.results())
        assert store.forget(ALICE) == 0
        build(store, tmp_path / "after", salt=b"s" * 32)
    assert {row["session_id"] for row in _tables(tmp_path / "after")["sessions"]} == \
        {others[0].id}


def test_retention_removes_only_old_sessions_not_shared(tmp_path, capsys, monkeypatch):
    now = time.time()
    old_private = _with_person(_played("nim", 1), Person(CAROL, consent=False))
    old_shared = _with_person(_played("nim", 2), Person(BOB, consent=True))
    new_private = _with_person(_played("nim", 3), Person(CAROL, consent=False))
    old_private.ended_at = old_shared.ended_at = now - 40 * 86400
    path = tmp_path / "arena.sqlite3"
    with Store(path) as store:
        for record in (old_private, old_shared, new_private):
            store.save(record)
        assert apply_retention(store, 60) == 0
    monkeypatch.setenv("ARENA_RETENTION_DAYS", "30")
    assert main(["retention", "--db", str(path)]) == 0
    assert "removed 1 session" in capsys.readouterr().out
    with Store(path) as store:
        assert {r.id for r in store.records()} == {old_shared.id, new_private.id}
    assert main(["retention", "--db", str(path), "--days", "soon"]) == 2
    assert main(["forget", ALICE, "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "no store at" in capsys.readouterr().err and not (tmp_path / "none.sqlite3").exists()
    assert os.environ["ARENA_RETENTION_DAYS"] == "30"


def test_a_dataset_selection_reads_dates_games_and_people():
    picked = Selection(since=50, until=150, games=frozenset({"nim"}), humans_only=True)
    assert picked.admits("nim", 100.0, True)
    assert not Selection(since=101).admits("nim", 100.0, True)
    assert not Selection(until=100).admits("nim", 100.0, True)
    assert not picked.admits("nim", 100.0, False) and not picked.admits("pig", 100.0, True)


def test_your_data_downloads_and_forgets_this_browser_s_games(tmp_path, monkeypatch):
    from sessions.web.tabs import your_games

    path = tmp_path / "arena.sqlite3"
    mine = [_with_person(_played("nim", s), Person(ALICE, consent=s == 0)) for s in range(2)]
    with Store(path) as store:
        for record in [*mine, _with_person(_played("nim", 5), Person(BOB, consent=True))]:
            store.save(record)
        monkeypatch.setattr(your_games, "store", lambda: store)
        profile = {"player_id": ALICE, "consent": True, "name": ""}
        file, said = your_games.download_games(profile)
        lines = Path(file["value"]).read_text().splitlines()
        assert sorted(json.loads(line)["id"] for line in lines) == sorted(r.id for r in mine)
        assert said == "2 games ready to download."
        assert your_games.ask_forget(profile)[1].startswith("Delete your 2 stored games")
        assert your_games.forget_games(profile)[1].startswith("Removed 2 games from the store")
        assert your_games.download_games(profile)[1] == "No stored games of yours yet."
        assert store.count() == 1
        fresh = {"player_id": "", "consent": None, "name": ""}  # a browser with no id yet
        assert your_games.ask_forget(fresh)[1] == "No stored games of yours to forget."
