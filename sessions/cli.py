"""Command line: ``python -m sessions play | gama | export``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from agents.specs import SpecError
from sessions.engine import FailurePolicy
from sessions.store import Store, StoreError, default_path, export_jsonl
from sessions.tournament import run_tournament


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (SpecError, StoreError, KeyError, ValueError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else str(err)
        print(f"error: {message}", file=sys.stderr)
        return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m sessions",
                                     description="Play, store and export LLM Game Arena matches.")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a headless tournament and store every match")
    play.add_argument("game", help="game id (python -m games lists them)")
    play.add_argument("agents", nargs="+", metavar="AGENT",
                      help="one agent spec per seat, e.g. mcts random (see README)")
    play.add_argument("--matches", type=int, default=10)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--db", type=Path, default=None, help=f"store file (default {default_path()})")
    play.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                      help="override a game parameter (repeatable)")
    play.add_argument("--retries", type=int, default=2,
                      help="re-asks after an invalid answer (default 2)")
    play.add_argument("--on-failure", choices=["forfeit", "random"], default="forfeit",
                      help="after the retries: forfeit (default) or a flagged random move")
    play.add_argument("--json", action="store_true", help="print the summary as JSON")
    play.add_argument("--quiet", action="store_true", help="no progress bar")
    play.set_defaults(run=_play)

    gama = sub.add_parser("gama", help="GAMA-Bench's table: 0-100 scores per game and overall")
    gama.add_argument("--db", type=Path, default=None)
    gama.add_argument("--by-player", action="store_true",
                      help="one row per person (human:<player id>) instead of one for all")
    gama.add_argument("--json", action="store_true", help="print the table as JSON")
    gama.set_defaults(run=_gama)

    export = sub.add_parser("export", help="write stored matches")
    export.add_argument("--db", type=Path, default=None)
    export.add_argument("--format", choices=["jsonl"], default="jsonl")
    export.add_argument("--game", default=None)
    export.add_argument("--out", type=Path, default=None, help="file (default: stdout)")
    export.set_defaults(run=_export)
    return parser


def _params(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--param expects NAME=VALUE, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


def _play(args: argparse.Namespace) -> int:
    if args.matches < 1:
        raise ValueError("--matches must be at least 1")
    with Store(args.db) as store:
        result = run_tournament(
            args.game, args.agents, matches=args.matches, seed=args.seed, store=store,
            params=_params(args.param),
            policy=FailurePolicy(max_retries=args.retries, on_failure=args.on_failure),
            progress=not args.quiet,
        )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(f"{args.game}: {args.matches} matches, seed {args.seed}, stored in {store.path}")
        print(result.table())
    return 0


def _gama(args: argparse.Namespace) -> int:
    from sessions.gama_table import GAMES, gama_table, markdown

    with Store(args.db) as store:
        rows = gama_table((r for g in GAMES for r in store.records(game=g)),
                          by_player=args.by_player)
    if args.json:
        print(json.dumps([row.to_dict() for row in rows], indent=2))
    elif rows:
        print(markdown(rows))
    else:
        print("no finished GAMA-Bench sessions in the store", file=sys.stderr)
    return 0


def _export(args: argparse.Namespace) -> int:
    with Store(args.db) as store:
        if args.out is None:
            count = export_jsonl(store, sys.stdout, game=args.game)
        else:
            with args.out.open("w", encoding="utf-8") as out:
                count = export_jsonl(store, out, game=args.game)
    print(f"exported {count} records", file=sys.stderr)
    return 0
