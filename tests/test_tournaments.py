"""Tournaments past one process: --workers N, Ray, plans with resume, caps and spending.

Every completed match is stored exactly once, by the process that runs the tournament; the
same seed gives the same records whether matches run serially, in processes or on Ray; a
plan killed halfway and resumed plays only the matches it had not stored.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sessions.fanout import Processes, RayCluster, Serial
from sessions.plan import PlanError, load_plan, parse_plan, run_plan
from sessions.record import MatchRecord, replay
from sessions.store import Store, StoreError
from sessions.tournament import run_tournament
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

ROOT = Path(__file__).resolve().parents[1]
SPECS = ["mcts:40:0s", "random"]


def _timeless(record: MatchRecord) -> dict:
    """The record without its id and clock times: what the seed decides."""
    data = record.to_dict()
    data.pop("id")
    for key in ("started_at", "ended_at"):
        data.pop(key)
    for move in data["moves"]:
        move.pop("started_at"), move.pop("ended_at"), move["meta"].pop("seconds", None)
        for attempt in move["rejected"]:
            attempt.pop("at")
    return data


def _played(store_location: str, runner) -> list[dict]:
    with Store(store_location) as store:
        result = run_tournament("connect_four", SPECS, matches=6, seed=11, store=store,
                                progress=False, runner=runner)
        assert store.count() == 6 and sorted(store.stored(result.record_ids)) == \
            sorted(result.record_ids)
        records = {r.seed: _timeless(r) for r in store.records()}
    assert len(records) == 6
    return [records[seed] for seed in sorted(records)]


def test_workers_store_each_match_once_with_the_records_of_a_serial_run(tmp_path):
    serial = _played(str(tmp_path / "serial.sqlite3"), Serial())
    parallel = _played(str(tmp_path / "parallel.sqlite3"), Processes(2))
    assert parallel == serial


# --- plans -----------------------------------------------------------------------------------

PLAN = """
name = "kill test"
seed = 5
matches = {matches}
agents = ["mcts:300:0s", "random", "mcts:30:0s"]

[[games]]
id = "breakthrough"
params = {{ columns = 8 }}
"""


def _cli(*args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sessions", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, **kw)


def _kill_when_stored(command: list[str], location: str, at_least: int) -> None:
    """Start ``command`` in a process group of its own, SIGKILL the whole group once the
    store holds ``at_least`` sessions."""
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline, count = time.time() + 120, 0
    try:
        while time.time() < deadline and count < at_least and proc.poll() is None:
            time.sleep(0.2)
            try:
                with Store(location, readonly=True) as store:
                    count = store.count()
            except StoreError:
                count = 0
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert count >= at_least, "the plan stored too little before the deadline"


@pytest.mark.parametrize(("store_location", "where"), [("sqlite", "workers"),
                                                       ("postgresql", "ray")],
                         indirect=["store_location"])
def test_a_killed_plan_resumes_without_replaying_and_stores_each_match_once(
        tmp_path, where, store_location):
    if where == "ray":
        pytest.importorskip("ray")
    plan_file = tmp_path / "plan.toml"
    plan_file.write_text(PLAN.format(matches=8))  # 3 pairings x 8 = 24 matches
    fanout = ["--workers", "2"] if where == "workers" else ["--ray", "--workers", "2"]
    command = [sys.executable, "-m", "sessions", "tournament", str(plan_file), "--db",
               store_location, "--quiet", *fanout]
    _kill_when_stored(command, store_location, at_least=4)
    with Store(store_location) as store:
        before = {r.id: r for r in store.records()}
    assert 4 <= len(before) < 24
    done = _cli("tournament", str(plan_file), "--db", store_location, "--quiet", "--resume",
                *fanout)
    assert done.returncode == 0, done.stderr
    assert f"{len(before)} already stored" in done.stderr
    assert f"24 of 24 matches stored ({24 - len(before)} played now, {len(before)} before)" \
        in done.stdout
    planned = {job.record_id for job in load_plan(plan_file).jobs()}
    with Store(store_location) as store:
        after = {r.id: r for r in store.records()}
    assert set(after) == planned and len(after) == 24
    for record_id, record in before.items():  # not replayed: the very same records
        assert after[record_id] == record
    for record in after.values():
        assert record.outcome == "normal" and replay(record).is_terminal()
    again = _cli("tournament", str(plan_file), "--db", store_location, "--quiet")
    assert again.returncode == 2 and "pass --resume" in again.stderr


def test_a_plan_names_what_is_wrong_with_it(tmp_path):
    bad = {"games": [{"id": "tic_tac_toe"}], "agents": ["random"], "matches": 2}
    with pytest.raises(PlanError, match=r"p.toml: games\[0\].agents: .* 2 seats"):
        parse_plan(bad, source="p.toml")
    with pytest.raises(PlanError, match="p.toml: games: list at least one game"):
        parse_plan({"agents": ["random"]}, source="p.toml")
    with pytest.raises(PlanError, match=r"games\[0\].agents: mcts would see hidden"):
        parse_plan({"games": [{"id": "kuhn_poker", "agents": ["mcts", "random"]}]},
                   source="p.toml")
    with pytest.raises(PlanError, match="concurrency: give each provider"):
        parse_plan({"games": [{"id": "nim", "agents": ["random", "mcts"]}],
                    "concurrency": {"openai": 0}}, source="p.toml")
    plan = parse_plan({"games": [{"id": "nim", "agents": ["random", "mcts:10:0s", "mcts"]}],
                       "matches": 3}, source="p.toml")
    assert len(plan.jobs()) == 9 and len({j.record_id for j in plan.jobs()}) == 9
    assert {j.seats[0].text for j in plan.jobs()} == {"random", "mcts:10:0s", "mcts"}


# --- language models: spending cap and per-provider concurrency ---------------------------


@pytest.fixture
def priced_llm(tmp_path, monkeypatch):
    """The scripted LLM server as two compat models priced at $1000 per million tokens."""
    calls: list[tuple[float, float]] = []

    def respond(request: Request) -> Reply:
        reply = answer(request, request.legal_moves()[0])
        reply.delay = 0.05
        return reply

    with FakeLLM(respond) as server:
        opponents = tmp_path / "opponents.toml"
        opponents.write_text("".join(
            f'[[opponent]]\nid = "{m}"\nprovider = "compat"\nmodel = "{m}"\n'
            f'base_url = "{server.openai_url}"\nprice_input = 1000.0\nprice_output = 1000.0\n'
            for m in ("fake-a", "fake-b")))
        monkeypatch.setenv("ARENA_OPPONENTS", str(opponents))
        monkeypatch.setenv("ARENA_COMPAT_BASE_URL", server.openai_url)
        yield server, calls


def test_a_spending_cap_stops_new_matches_and_resume_goes_on(tmp_path, priced_llm):
    plan_file = tmp_path / "llm.toml"
    plan_file.write_text('seed = 2\nmatches = 4\nagents = ["compat/fake-a", "random"]\n'
                         'spend_limit_usd = 0.05\n[[games]]\nid = "tic_tac_toe"\n')
    db = str(tmp_path / "llm.sqlite3")
    first = _cli("tournament", str(plan_file), "--db", db, "--quiet", "--json")
    assert first.returncode == 3, first.stderr
    summary = json.loads(first.stdout)
    assert summary["played"] == 1 and summary["not_started"] == 3
    assert summary["spent_usd"] >= 0.05  # one match of 3-5 calls at ~$0.02-0.03 a call
    plan_file.write_text(plan_file.read_text().replace("0.05", "10"))
    rest = _cli("tournament", str(plan_file), "--db", db, "--quiet", "--resume")
    assert rest.returncode == 0, rest.stderr
    assert "4 of 4 matches stored (3 played now, 1 before)" in rest.stdout
    assert "1 already stored" in rest.stderr
    spent_now = float(rest.stdout.split("spent $")[1].split()[0])
    assert spent_now > summary["spent_usd"] * 3  # the first match's cost is counted again


def test_a_spending_cap_needs_prices_for_every_model(tmp_path, priced_llm):
    with pytest.raises(PlanError, match="compat/unpriced has no price_input"):
        parse_plan({"games": [{"id": "nim", "agents": ["compat/unpriced", "random"]}],
                    "spend_limit_usd": 1.0}, source="p.toml")


def test_provider_concurrency_cap_holds_with_two_workers(tmp_path, priced_llm):
    plan = parse_plan({"seed": 4, "matches": 2, "concurrency": {"compat": 1},
                       "agents": ["compat/fake-a", "compat/fake-b", "random", "mcts:20:0s"],
                       "games": [{"id": "tic_tac_toe"}]}, source="caps.toml")
    with Store(tmp_path / "caps.sqlite3") as store:
        run = run_plan(plan, store, runner=Processes(2), progress=False)
        records = list(store.records())
    assert run.played == 12 and len(records) == 12
    llm = sorted((r.started_at, r.ended_at) for r in records
                 if any(s.kind == "llm" for s in r.seats))
    assert len(llm) == 10
    for (_, end), (start, _) in zip(llm, llm[1:], strict=False):
        assert start >= end, "two matches with a compat seat ran at once"


# --- Ray in this process (last: its cluster lives until the module ends) -------------------


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_stores_each_match_once_with_the_records_of_a_serial_run(tmp_path, ray_cluster):
    serial = _played(str(tmp_path / "serial.sqlite3"), Serial())
    assert _played(str(tmp_path / "ray.sqlite3"), RayCluster()) == serial
