"""Regenerate the golden text views: python -m scripts.golden_views [GAME...]

Each file holds every seat's view at each step of one seeded random playout, so a change
in what a person or a model is shown is seen in review.
"""

from __future__ import annotations

import sys
from pathlib import Path

from games.registry import GameSpec, all_games, get
from renderers import text_view
from scripts.goldens import write_goldens

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden" / "views"
MAX_STEPS = 12


def golden_text(spec: GameSpec) -> str:
    """The views of every seat along a seeded playout (at most ``MAX_STEPS`` decisions)."""
    from agents.specs import parse_spec
    from sessions.record import replay
    from sessions.tournament import play_one

    players = spec.load().num_players()
    record = play_one(spec.id, [parse_spec("random")] * players, seed=2024)
    decisions = [i for i, move in enumerate(record.moves) if move.seat >= 0]
    steps = decisions[:MAX_STEPS] + [len(record.moves)]
    out = [f"# {spec.title}: views along a random playout (seed 2024)\n"]
    for step in dict.fromkeys(steps):
        state = replay(record, upto=step)
        played = record.moves[step - 1].label if step else "(start)"
        out.append(f"== after {step} moves; last: {played}")
        for seat in range(players):
            out.append(f"-- seat {seat}\n{text_view(spec.id, state, seat)}")
        out.append("")
    return "\n".join(out)


def main(names: list[str]) -> int:
    specs = [get(name) for name in names] if names else all_games()
    return write_goldens(GOLDEN_DIR, specs, golden_text)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
