"""GameBench's ``matches.json``: read it to rate GameBench's data, write ours in it.

The format is a JSON array of objects, one per match: ``"game"`` plus the two agents' ids,
each mapped to its score in [0, 1], e.g. ``{"game": "hive", "gpt-4": 0.0, "human": 1.0}``.
It has no seats, timestamps, returns or moves, so only two-seat matches with two different
agents fit in it. GameBench's own rating drops ties, regularises with alpha 0.001 and
resamples matches pooled across games (:data:`GAMEBENCH_TIES`, :data:`GAMEBENCH_ALPHA`,
:data:`GAMEBENCH_RESAMPLING`); ``python -m sessions ratings --gamebench`` uses that
convention unless told otherwise.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, TextIO

from sessions.ratings.results import MatchResult

GAMEBENCH_TIES: Literal["drop"] = "drop"
GAMEBENCH_ALPHA = 0.001
GAMEBENCH_RESAMPLING: Literal["pooled"] = "pooled"
_MAX_PROBLEMS = 10


class GameBenchFormatError(ValueError):
    """A file that is not a GameBench matches.json; the message lists what is wrong."""


def read_gamebench(path: str | Path) -> list[MatchResult]:
    """The matches of a GameBench ``matches.json`` file; refuses the whole file if any entry
    is malformed (nothing is rated from a file with bad entries)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise GameBenchFormatError(f"cannot read {path}: {err.strerror or err}") from None
    return parse_gamebench(text, source=str(path))


def parse_gamebench(text: str, *, source: str = "input") -> list[MatchResult]:
    try:
        data = json.loads(text, object_pairs_hook=_pairs)
    except json.JSONDecodeError as err:
        raise GameBenchFormatError(f"{source} is not JSON: {err}") from None
    if not isinstance(data, list):
        raise GameBenchFormatError(
            f"{source}: expected a JSON array of matches like "
            '[{"game": "hive", "gpt-4": 0.0, "human": 1.0}], got a JSON '
            f"{type(data).__name__}")
    results, problems = [], []
    for index, entry in enumerate(data):
        result = _entry(entry)
        if isinstance(result, str):
            problems.append(f"entry {index}: {result}")
        else:
            results.append(result)
    if problems:
        more = len(problems) - _MAX_PROBLEMS
        raise GameBenchFormatError(
            f"{source}: {len(problems)} of {len(data)} entries are not GameBench matches, so "
            "nothing was rated:\n  " + "\n  ".join(problems[:_MAX_PROBLEMS])
            + (f"\n  … and {more} more" if more > 0 else ""))
    return results


_REPEATED = ("repeated keys",)  # not a string, so no JSON key can collide with it


def _pairs(pairs: list[tuple[str, Any]]) -> dict[Any, Any]:
    """A JSON object as a dict that remembers keys given twice (json keeps the last)."""
    out: dict[Any, Any] = {}
    for key, value in pairs:
        if key in out:
            out.setdefault(_REPEATED, []).append(key)
        out[key] = value
    return out


def _entry(entry: Any) -> MatchResult | str:
    allowed = 'an object with "game" and two agent ids mapped to scores in [0, 1]'
    if not isinstance(entry, dict):
        return f"expected {allowed}, got {json.dumps(entry)[:60]}"
    if _REPEATED in entry:
        return f"{entry[_REPEATED][0]!r} appears twice"
    game = entry.get("game")
    if not isinstance(game, str) or not game.strip():
        return f'"game" must be a non-empty string (got {game!r}); expected {allowed}'
    agents = [(k, v) for k, v in entry.items() if k != "game"]
    if len(agents) != 2:
        return f"expected two agents, got {len(agents)} ({', '.join(map(repr, dict(agents)))})"
    for agent, score in agents:
        if not agent.strip():
            return "an agent id is empty"
        if isinstance(score, bool) or not isinstance(score, int | float) \
                or not math.isfinite(score) or not 0.0 <= score <= 1.0:
            return f"score of {agent!r} is {score!r}; scores must be numbers in [0, 1]"
    return MatchResult(game, (agents[0][0], agents[1][0]),
                       (float(agents[0][1]), float(agents[1][1])))


def to_gamebench(results: Iterable[MatchResult]) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Our two-seat results as GameBench entries (seat order kept), and what was skipped."""
    entries: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    for r in results:
        if len(r.entities) != 2:
            skipped[f"{len(r.entities)}-seat match (the format holds two agents)"] += 1
        elif r.entities[0] == r.entities[1]:
            skipped["same agent in both seats"] += 1
        else:
            entries.append({"game": r.game, r.entities[0]: r.scores[0],
                            r.entities[1]: r.scores[1]})
    return entries, skipped


def write_gamebench(results: Iterable[MatchResult], out: TextIO) -> tuple[int, Counter[str]]:
    entries, skipped = to_gamebench(results)
    json.dump(entries, out, indent=4)
    out.write("\n")
    return len(entries), skipped
