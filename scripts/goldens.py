"""Writing golden files: one text file per game, reviewed as a diff when it changes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from games.registry import GameSpec


def write_goldens(directory: Path, specs: Iterable[GameSpec],
                  golden_text: Callable[[GameSpec], str]) -> int:
    """Write ``directory/<game id>.txt`` for each spec, saying each file written."""
    directory.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        path = directory / f"{spec.id}.txt"
        path.write_text(golden_text(spec), encoding="utf-8")
        print(f"wrote {path}")
    return 0
