"""A tournament killed with kill -9 takes its worker processes with it (issue 24, item 10)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            state = _stat(int(entry.name))
            if state is not None and state[1] == pid and state[0] != "Z":
                found.add(int(entry.name))
    return found


def _stat(pid: int) -> tuple[str, int] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def _alive(pid: int) -> bool:
    state = _stat(pid)
    return state is not None and state[0] != "Z"


def test_killing_a_workers_tournament_leaves_no_worker_behind(tmp_path):
    command = [sys.executable, "-m", "sessions", "play", "breakthrough", "mcts:300:0s",
               "mcts:300:0s", "--matches", "20", "--workers", "2", "--quiet",
               "--db", str(tmp_path / "arena.sqlite3")]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline, workers = time.time() + 60, set()
        while time.time() < deadline and len(workers) < 2 and proc.poll() is None:
            time.sleep(0.1)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the tournament did not start its workers"
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, as `kill -9 <pid>` does
        proc.wait()
        deadline = time.time() + 10
        while time.time() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "orphan workers survived"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # whatever is left of the group
        except ProcessLookupError:
            pass
