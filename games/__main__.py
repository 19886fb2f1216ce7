"""``python -m games``: list every game with its taxonomy and default parameters."""

from __future__ import annotations

import argparse
import json
import sys

from games.registry import all_games, get


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the registry as JSON")
    parser.add_argument("--rules", metavar="GAME", help="print one game's rules")
    args = parser.parse_args(argv)
    if args.rules:
        try:
            spec = get(args.rules)
        except KeyError as err:
            print(f"error: {err.args[0]}", file=sys.stderr)
            return 2
        print(f"# {spec.title}\n\n{spec.rules}")
        return 0
    games = all_games()
    if args.json:
        print(json.dumps([_entry(spec) for spec in games], indent=2))
        return 0
    for spec in games:
        t = spec.taxonomy
        params = ", ".join(f"{k}={v}" for k, v in sorted(spec.params().items())) or "-"
        print(f"{spec.id:<28} {spec.title}")
        print(f"    {spec.summary}")
        print(f"    {t.information} information | {t.chance} | {t.dynamics} | "
              f"{t.players} players | {spec.benchmark}")
        print(f"    parameters: {params}")
        print(f"    moves: {spec.grammar.hint}")
    return 0


def _entry(spec: object) -> dict[str, object]:
    from games.registry import GameSpec

    assert isinstance(spec, GameSpec)
    return {
        "id": spec.id, "title": spec.title, "summary": spec.summary,
        "benchmark": spec.benchmark, "openspiel": spec.openspiel,
        "taxonomy": vars(spec.taxonomy), "default_params": spec.params(),
        "param_notes": spec.param_notes, "move_format": spec.grammar.hint,
    }


if __name__ == "__main__":
    sys.exit(main())
