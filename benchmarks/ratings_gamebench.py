"""GameBench's own file: our whole command against GameBench's method, the same ratings.

Part of ``python -m benchmarks.ratings --gamebench PATH`` (its first target). PATH is
GameBench's ``matches.json`` or a checkout of github.com/Joshuaclymer/GameBench holding it;
neither is part of this repository.

* GameBench's method, as its ``rating.py`` does it (re-expressed here, not copied): per
  resample, draw n matches with weights 1/N_game (``random.choices``), drop ties, and fit
  the match list by I-LSR — Luce Spectral Ranking steps, each a pass over the match list
  in Python building the Markov chain (rates start at alpha 0.001), its stationary
  distribution, until the parameters move less than 1e-8 (at most 100 steps); the overall
  table and one per game over all agents. Timed at a few hundred resamples per table and
  scaled to 10,000 (it is a loop: the time is linear in the resamples).
* Ours: the whole ``python -m sessions ratings --gamebench FILE --bootstrap 10000`` process
  (start-up, imports, reading, all tables, printing), best of three.
* The same ratings: the command's numbers are those of ``rate`` in this process, and the
  fits behind them equal choix's own I-LSR on the very same resamples (a sample of them per
  table); with ``--reference`` (the command's JSON from before this change, same seed and
  settings) the largest difference of any rating, interval end or fit is printed too.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sessions.ratings import bradley_terry as bt
from sessions.ratings import report as ratings
from sessions.ratings.gamebench_format import (
    GAMEBENCH_ALPHA,
    GAMEBENCH_RESAMPLING,
    GAMEBENCH_TIES,
    read_gamebench,
)
from sessions.ratings.matches import Matches

HOW_TO_GET = ("git clone https://github.com/Joshuaclymer/GameBench /tmp/GameBench, then "
              "python -m benchmarks.ratings --gamebench /tmp/GameBench")
BOOTSTRAP = 10_000


def find(path: Path) -> Path:
    """GameBench's matches.json: ``path`` itself, or the one in the checkout ``path``."""
    file = path / "matches.json" if path.is_dir() else path
    if not file.is_file():
        raise SystemExit(f"no GameBench matches.json at {path}; {HOW_TO_GET}")
    return file


# --- GameBench's method -------------------------------------------------------------------

def _lsr_step(n: int, wins: list[tuple[int, int, float, float]], alpha: float,
              params: np.ndarray | None) -> np.ndarray:
    import choix.utils

    weights = np.ones(n) if params is None else np.exp(params - params.max())
    if params is not None:
        weights *= n / weights.sum()
    chain = np.full((n, n), alpha)
    for i, j, score_i, score_j in wins:  # one Python pass over the matches, as GameBench's
        chain[i, j] += score_j / (weights[i] + weights[j])
        chain[j, i] += score_i / (weights[i] + weights[j])
    chain -= np.diag(chain.sum(axis=1))
    return np.asarray(choix.utils.log_transform(choix.utils.statdist(chain)))


def _ilsr(n: int, wins: list[tuple[int, int, float, float]], alpha: float) -> np.ndarray:
    params = None
    for _ in range(100):
        new = _lsr_step(n, wins, alpha, params)
        if params is not None and np.abs(new - params).sum() < 1e-8:
            return new
        params = new
    raise RuntimeError("I-LSR did not converge in 100 steps")


def gamebench_method(entries: list[dict[str, Any]], agents: list[str], resamples: int,
                     draw: random.Random) -> int:
    """GameBench's bootstrap of ``entries`` (``resamples`` fits); the fits that failed."""
    index = {a: i for i, a in enumerate(agents)}
    per_game = Counter(e["game"] for e in entries)
    weights = [1 / per_game[e["game"]] for e in entries]
    failed = 0
    for _ in range(resamples):
        wins = []
        for entry in draw.choices(entries, weights=weights, k=len(entries)):
            (a, sa), (b, sb) = [(k, v) for k, v in entry.items() if k != "game"]
            if sa != sb:
                wins.append((index[a], index[b], sa, sb))
        try:
            _ilsr(len(agents), wins, GAMEBENCH_ALPHA)
        except RuntimeError:
            failed += 1
    return failed


@dataclass
class GameBenchRun:
    matches: int
    games: int
    method: float  # GameBench's method, seconds at BOOTSTRAP resamples per table (scaled)
    method_measured: int  # resamples per table it was timed at
    command: float  # our whole command, best wall seconds
    command_cpu: float  # its CPU seconds (user + system)
    imports: float  # seconds the command spends importing (python -X importtime)
    heavy: list[str]  # Gradio, matplotlib, choix, scipy.stats, OpenSpiel: those it loads
    same_as_rate: float  # max |command − rate in this process|
    same_as_choix: float  # max |our fit − choix's I-LSR| on the same resamples
    reference: float | None  # max |command − the reference JSON|, with --reference


def run(path: Path, resamples: int, reference: Path | None) -> GameBenchRun:
    file = find(path)
    entries = json.loads(file.read_text(encoding="utf-8"))
    agents = sorted({k for e in entries for k in e if k != "game"})
    games = sorted({e["game"] for e in entries})
    draw = random.Random(0)
    started = time.perf_counter()
    for scope in [None, *games]:  # the overall table and one per game, all seven agents
        gamebench_method([e for e in entries if scope in (None, e["game"])], agents,
                         resamples, draw)
    method = (time.perf_counter() - started) * BOOTSTRAP / resamples
    command, cpu, printed = _command(file)
    imports, heavy = _imports(file)
    settings = ratings.Settings(bootstrap=BOOTSTRAP, seed=0, ties=GAMEBENCH_TIES,
                                alpha=GAMEBENCH_ALPHA, resampling=GAMEBENCH_RESAMPLING)
    results = read_gamebench(file)
    here = ratings.rate(results, settings)
    return GameBenchRun(len(entries), len(games), method, resamples, command, cpu, imports,
                        heavy, _largest_difference(printed, here.to_dict()),
                        _against_choix(results, settings, here),
                        None if reference is None else _largest_difference(
                            printed, json.loads(reference.read_text(encoding="utf-8"))))


def _command(file: Path) -> tuple[float, float, dict[str, Any]]:
    argv = [sys.executable, "-m", "sessions", "ratings", "--gamebench", str(file),
            "--bootstrap", str(BOOTSTRAP), "--json"]
    best, best_cpu, printed = float("inf"), 0.0, {}
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if wall < best:
            best = wall
            best_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            printed = json.loads(done.stdout)
    return best, best_cpu, printed


HEAVY = ("gradio", "matplotlib", "choix", "scipy.stats", "pyspiel")


def _imports(file: Path) -> tuple[float, list[str]]:
    """Seconds of imports of the command (the top-level entries of -X importtime), and
    which heavy packages it loads."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "sessions", "ratings",
                           "--gamebench", str(file), "--bootstrap", "1"],
                          capture_output=True, text=True, check=True)
    total, loaded = 0, set()
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|")
        if name.strip() in HEAVY:
            loaded.add(name.strip())
        if not name.startswith("  ") and cumulative.strip().isdigit():
            total += int(cumulative)  # top level: what the interpreter itself waited for
    return total / 1e6, sorted(loaded)


def _largest_difference(one: dict[str, Any], other: dict[str, Any]) -> float:
    def values(report: dict[str, Any]) -> dict[tuple[str | None, str, str], float]:
        out = {}
        for scope, table in [(None, report["overall"]), *report["games"].items()]:
            for row in table["ratings"]:
                for key in ("rating", "low", "high", "fit"):
                    out[(scope, row["entity"], key)] = row[key]
        return out

    a, b = values(one), values(other)
    if a.keys() != b.keys():
        raise ValueError("the two reports rate different entities or games")
    return max(abs(a[k] - b[k]) for k in a)


def _against_choix(results: list, settings: ratings.Settings, report: ratings.RatingReport,
                   per_table: int = 40) -> float:
    """Refit ``per_table`` resamples of every table with choix's I-LSR: the largest
    difference from the fits the report is made of."""
    worst = 0.0
    scopes: list[tuple[str | None, list]] = [(None, results)]
    scopes += [(g, [r for r in results if r.game == g]) for g in report.games]
    for game, rows in scopes:
        matches = Matches.of(rows)
        cells = matches.cells(settings.ties)
        table = report.overall if game is None else report.games[game]
        sample = ratings._draws(cells, settings, game)
        order = [matches.entities.index(e) for e in table.entities]
        for b in np.linspace(0, settings.bootstrap - 1, per_table).astype(int):
            choix_fit = bt.fit_choix(cells, sample.row(int(b)), alpha=settings.alpha)
            worst = max(worst, float(np.abs(choix_fit[order] - table.samples[b]).max()))
    return worst


def report(run: GameBenchRun) -> list[str]:
    return [
        f"  GameBench's matches.json: {run.matches} matches in {run.games} games, "
        f"{BOOTSTRAP:,} resamples per table",
        f"  GameBench's method (overall + {run.games} game tables, measured at "
        f"{run.method_measured} resamples each, scaled): {run.method:.1f} s",
        f"  ours, the whole command (best of 3): {run.command:.2f} s wall, "
        f"{run.command_cpu:.2f} s CPU -> {run.method / run.command:.0f}x faster",
        f"  imports: {run.imports:.2f} s (python -X importtime); heavy packages loaded: "
        f"{', '.join(run.heavy) or 'none'} (of {', '.join(HEAVY)})",
        f"  same ratings: command vs rate() here max |diff| {run.same_as_rate:.1e}; our fits "
        f"vs choix's I-LSR on the same resamples max |diff| {run.same_as_choix:.1e}"
        + ("" if run.reference is None else
           f"; vs the reference (before) max |diff| {run.reference:.1e}")]


# --- one interleaved run ------------------------------------------------------------------

def interleaved(path: Path, rounds: int, resamples: int) -> list[tuple[float, float, float,
                                                                        float]]:
    """``rounds`` times in turn: GameBench's method (all tables, ``resamples`` each, scaled
    to 10,000) then our whole command once, so both see the same load. Per round: (method
    wall, method CPU, command wall, command CPU), seconds."""
    file = find(path)
    entries = json.loads(file.read_text(encoding="utf-8"))
    agents = sorted({k for e in entries for k in e if k != "game"})
    games = sorted({e["game"] for e in entries})
    argv = [sys.executable, "-m", "sessions", "ratings", "--gamebench", str(file),
            "--bootstrap", str(BOOTSTRAP)]  # the per-game tables printed, as people run it
    draw = random.Random(0)
    out = []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        for scope in [None, *games]:
            gamebench_method([e for e in entries if scope in (None, e["game"])], agents,
                             resamples, draw)
        scale = BOOTSTRAP / resamples
        method = ((time.perf_counter() - wall) * scale, (time.process_time() - cpu) * scale)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        subprocess.run(argv, capture_output=True, text=True, check=True)
        command_wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        command_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        out.append((*method, command_wall, command_cpu))
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse
    import os
    import statistics

    parser = argparse.ArgumentParser(description="GameBench's method and our whole ratings "
                                                 "command, in turn, on GameBench's file")
    parser.add_argument("path", type=Path, help="GameBench's matches.json or its checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--resamples", type=int, default=200,
                        help="GameBench's method per table per round (scaled to 10,000)")
    args = parser.parse_args(argv)
    rows = interleaved(args.path, args.rounds, args.resamples)
    for n, (mw, mc, cw, cc) in enumerate(rows, 1):
        print(f"round {n}: GameBench's method {mw:.1f} s wall ({mc:.1f} s CPU); ours "
              f"{cw:.2f} s wall ({cc:.2f} s CPU): {mw / cw:.0f}x wall, {mc / cc:.0f}x CPU")
    wall = statistics.median(mw / cw for mw, _, cw, _ in rows)
    cpu = statistics.median(mc / cc for _, mc, _, cc in rows)
    print(f"median: {wall:.0f}x wall, {cpu:.0f}x CPU (load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores); target >= 50x: "
          f"{'met' if min(wall, cpu) >= 50 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
