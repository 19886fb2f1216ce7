"""Regenerate the golden text views and LLM prompts of GAMA-Bench's games.

    python scripts/gama_golden.py        # rewrites tests/golden/gama/<game>.txt

Each file is one seeded session of bots seen from seat 3 at its first decision after a few
rounds: the text view a person reads, then the GAMA-style prompt a language model gets.
tests/test_gama_prompts.py fails when either changes; review the diff, then rerun this.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.specs import parse_spec  # noqa: E402
from games.gama.catalogue import GAMES  # noqa: E402
from renderers import renderer  # noqa: E402
from scripts.goldens import write_goldens  # noqa: E402
from sessions.record import replay  # noqa: E402
from sessions.tournament import play_one  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "gama"
SEAT = 3
SEATS = ["equilibrium", "adaptive", "random"] * 3 + ["adaptive"]
PLAYED = {"battle_royale": 8, "pirate_game": 12}
"""Moves to let pass before looking (30 = three rounds of the simultaneous games)."""


def snapshot(game_id: str) -> str:
    """The first seed from 21 on where seat 3 decides after the wanted number of moves."""
    view = renderer(game_id)
    wanted = PLAYED.get(game_id, 30)
    for seed in range(21, 60):
        record = play_one(game_id, [parse_spec(s) for s in SEATS], seed=seed)
        decisions = [upto for upto in range(wanted, len(record.moves))
                     if view.VIEW.acting(replay(record, upto=upto), SEAT)]
        if decisions:
            break
    else:
        raise RuntimeError(f"seat {SEAT} never decides in {game_id} after {wanted} moves")
    upto = decisions[0]
    state = replay(record, upto=upto)
    return (f"# {game_id}, seed {seed}, seat {SEAT}, after {upto} moves\n\n"
            f"## Text view\n\n{view.text(state, SEAT)}\n\n"
            f"## Prompt\n\n{view.prompt(state, SEAT)}\n")


def main() -> int:
    return write_goldens(GOLDEN, GAMES, lambda spec: snapshot(spec.id))


if __name__ == "__main__":
    sys.exit(main())
