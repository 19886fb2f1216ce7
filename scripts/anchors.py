"""Calibrate the anchors: play the difficulty ladder's levels against each other and write
their ratings to ``sessions/ratings/anchors.json`` (the fixed points every fit holds).

    python -m scripts.anchors [--games ID,ID] [--matches 20] [--db STORE] [--out FILE]

For each game of ``agents/ladder.json`` (or those named): every pair of adjacent levels and
the lowest against the highest play ``--matches`` matches each, seats rotating (an N-seat
game seats the two levels alternately). The ladder's entities are then rated from those
matches alone, centred, each game on its own and all games together (the point fit on the
whole data, matches weighted 1/N_game), and the ratings are written per game and overall.
``--db`` keeps the calibration's matches in that store (and plays only what is missing
there); by default they go to a temporary store.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from agents.ladder import ladders
from agents.specs import parse_spec
from games import registry
from sessions.ratings.report import Settings, rate
from sessions.ratings.results import results_from_store
from sessions.store import Store
from sessions.tournament import run_tournament

OUT = Path("sessions/ratings/anchors.json")


def pairs(specs: list[str]) -> list[tuple[str, str]]:
    """Adjacent levels, and the lowest against the highest."""
    found = list(zip(specs, specs[1:], strict=False))
    if len(specs) > 2:
        found.append((specs[0], specs[-1]))
    return found


def play(store: Store, game: str, matches: int, seed: int) -> None:
    rungs = ladders()[game]
    players = registry.get(game).taxonomy.players
    for n, (low, high) in enumerate(pairs([level.spec for level in rungs.levels])):
        seats = [(low, high)[i % 2] for i in range(players)]
        start = time.perf_counter()
        run_tournament(game, seats, matches=matches, seed=seed + 1000 * n, store=store,
                       progress=False)
        print(f"{game}: {low} vs {high}, {matches} matches, "
              f"{time.perf_counter() - start:.0f} s", file=sys.stderr)


def anchors_of(store: Store, games: list[str]) -> dict[str, object]:
    entities = {g: {parse_spec(level.spec).entity for level in ladders()[g].levels}
                for g in games}
    results = [r for r in results_from_store(store).results
               if r.game in entities and set(r.entities) <= entities[r.game]]
    report = rate(results, Settings(bootstrap=1))
    return {"overall": {row.entity: round(row.fit, 4) for row in report.overall.rows},
            "games": {game: {row.entity: round(row.fit, 4) for row in table.rows}
                      for game, table in sorted(report.games.items())}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=None, help="comma-separated game ids (default: all)")
    parser.add_argument("--matches", type=int, default=20, help="matches per pair of levels")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    games = args.games.split(",") if args.games else sorted(ladders())
    unknown = [g for g in games if g not in ladders()]
    if unknown:
        print(f"error: no ladder for {', '.join(unknown)}", file=sys.stderr)
        return 2
    path = args.db or Path(tempfile.mkdtemp(prefix="arena-anchors-")) / "arena.sqlite3"
    with Store(path) as store:
        for game in games:
            play(store, game, args.matches, args.seed)
        found = anchors_of(store, games)
    document = {"about": "Fixed ratings of the difficulty ladder's levels (agents/ladder.json): "
                         "every fit holds them (sessions/ratings/anchors.py). Written by "
                         "python -m scripts.anchors from the matches it played.",
                "calibrated": datetime.now(UTC).strftime("%Y-%m-%d"),
                "matches_per_pair": args.matches, **found}
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(found['games'])} games")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
