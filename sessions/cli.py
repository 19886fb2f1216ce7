"""Command line: ``python -m sessions play | tournament | ratings | gama | export | dataset |
forget | retention``.

Each command imports what it uses when it runs: ``ratings --gamebench FILE`` reads no store,
plays nothing and draws nothing, so it loads neither OpenSpiel, the agents, choix nor
matplotlib (``python -X importtime -m sessions ratings ...`` shows it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sessions.ratings.bradley_terry import DEFAULT_ALPHA
from sessions.ratings.gamebench_format import (
    GAMEBENCH_ALPHA,
    GAMEBENCH_RESAMPLING,
    GAMEBENCH_TIES,
)

if TYPE_CHECKING:
    from sessions.ratings.anchors import Anchors
    from sessions.ratings.nra import PairNRA
    from sessions.ratings.results import ResultSet

DB_HELP = ("the store: an SQLite file or a postgresql:// URL (default $DATABASE_URL when set, "
           "else $ARENA_DATA_DIR/arena.sqlite3, ARENA_DATA_DIR being ./data unless set)")


def _location(text: str) -> str | Path:
    from sessions.store import is_url

    return text if is_url(text) else Path(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (KeyError, ValueError) as err:  # agents.specs.SpecError is a ValueError
        return _refuse(err)
    except RuntimeError as err:
        from sessions.store import StoreError  # already loaded if the store raised it

        if not isinstance(err, StoreError):
            raise
        return _refuse(err)
    except OSError as err:  # an --out file or plan that cannot be written or read
        print(f"error: {err.filename or ''}: {err.strerror or err}", file=sys.stderr)
        return 2


def _refuse(err: Exception) -> int:
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
    play.add_argument("--db", type=_location, default=None, help=DB_HELP)
    play.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                      help="override a game parameter (repeatable)")
    play.add_argument("--retries", type=int, default=2,
                      help="re-asks after an invalid answer (default 2)")
    play.add_argument("--on-failure", choices=["forfeit", "random"], default="forfeit",
                      help="after the retries: forfeit (default) or a flagged random move")
    play.add_argument("--json", action="store_true", help="print the summary as JSON")
    play.add_argument("--quiet", action="store_true", help="no progress bar")
    _fanout_arguments(play)
    play.set_defaults(run=_play)

    _tournament_parser(sub)
    _ratings_parser(sub)

    gama = sub.add_parser("gama", help="GAMA-Bench's table: 0-100 scores per game and overall")
    gama.add_argument("--db", type=_location, default=None, help=DB_HELP)
    gama.add_argument("--by-player", action="store_true",
                      help="one row per person (human:<player id>) instead of one for all")
    gama.add_argument("--json", action="store_true", help="print the table as JSON")
    gama.set_defaults(run=_gama)

    export = sub.add_parser("export", help="write stored matches")
    export.add_argument("--db", type=_location, default=None, help=DB_HELP)
    export.add_argument("--format", choices=["jsonl", "gamebench"], default="jsonl",
                        help="jsonl: whole replayable records (default); gamebench: "
                             "GameBench's matches.json (rated two-seat matches only)")
    export.add_argument("--game", default=None)
    export.add_argument("--out", type=Path, default=None, help="file (default: stdout)")
    export.set_defaults(run=_export)
    _dataset_parsers(sub)
    return parser


def _dataset_parsers(sub: argparse._SubParsersAction) -> None:
    data = sub.add_parser(
        "dataset", help="write the shared sessions as a Hugging Face dataset folder",
        description="Write the sessions their players shared for research as a Hugging Face "
                    "dataset: one Parquet file per table and a README.md data card "
                    "(docs/dataset.md). Needs pyarrow (the 'dataset' extra).")
    data.add_argument("out", type=Path, metavar="OUT", help="the dataset folder (new, empty, "
                      "or an earlier dataset, which is replaced)")
    data.add_argument("--db", type=_location, default=None, help=DB_HELP)
    data.add_argument("--since", default=None, metavar="DATE", help="ended on or after (UTC)")
    data.add_argument("--until", default=None, metavar="DATE", help="ended on or before (UTC)")
    data.add_argument("--games", default=None, metavar="ID,ID",
                      help="only these games (comma-separated ids)")
    data.add_argument("--humans-only", action="store_true",
                      help="only sessions with a person in a seat")
    data.add_argument("--push", default=None, metavar="REPO_ID",
                      help="then upload it to this Hugging Face dataset repo (token: HF_TOKEN)")
    data.add_argument("--dry-run", action="store_true",
                      help="with --push: print what would be pushed, push nothing")
    data.add_argument("--workers", type=int, default=1, metavar="N",
                      help="worker processes decoding the records (default 1: none, all in "
                           "this process; more may help on an idle multi-core machine)")
    data.set_defaults(run=_dataset)

    forget = sub.add_parser("forget", help="delete every stored session of one person",
                            description="Delete every session PLAYER_ID sat in (the page's "
                                        "anonymous id); later datasets and the next "
                                        "scheduled push leave them out.")
    forget.add_argument("player_id", metavar="PLAYER_ID")
    forget.add_argument("--db", type=_location, default=None, help=DB_HELP)
    forget.set_defaults(run=_forget)

    keep = sub.add_parser("retention", help="delete sessions not shared for research that "
                                            "are older than N days")
    keep.add_argument("--days", default=None, metavar="N",
                      help="default: $ARENA_RETENTION_DAYS")
    keep.add_argument("--db", type=_location, default=None, help=DB_HELP)
    keep.set_defaults(run=_retention)


def _dataset(args: argparse.Namespace) -> int:
    import os

    from sessions.dataset import Selection, build, check_folder, salt_for
    from sessions.ratings.results import parse_when
    from sessions.store import Store, default_path

    games = None
    if args.games is not None:
        from games import registry

        games = frozenset(g.strip() for g in args.games.split(",") if g.strip())
        unknown = sorted(g for g in games if g not in {s.id for s in registry.all_games()})
        if unknown or not games:
            raise ValueError(f"--games: unknown game {', '.join(unknown) or '(none given)'}; "
                             "python -m games lists them")
    if args.dry_run and not args.push:
        raise ValueError("--dry-run goes with --push REPO_ID")
    if args.workers < 1:
        raise ValueError(f"--workers {args.workers}: give 1 or more")
    if args.push:
        from sessions.dataset_hub import check_repo_id

        check_repo_id(args.push)  # before anything is built
        if not args.dry_run and not os.environ.get("HF_TOKEN"):
            raise ValueError("set HF_TOKEN to a Hugging Face token with write access to push")
    check_folder(args.out)
    selection = Selection(since=parse_when(args.since), until=parse_when(args.until, end=True),
                          games=games, humans_only=args.humans_only)
    data_dir = default_path().parent if args.db is None or isinstance(args.db, str) \
        else args.db.parent
    with Store(args.db, readonly=True) as store:
        built = build(store, args.out, salt=salt_for(data_dir), selection=selection,
                      workers=args.workers)
    print(built.note(), file=sys.stderr)
    if args.push:
        from sessions.dataset_hub import plan_upload, push

        upload = plan_upload(args.out, args.push)
        if args.dry_run:
            print(upload.describe())
            return 0
        print(f"pushed: {push(upload, token=os.environ.get('HF_TOKEN'))}")
    return 0


def _existing(db: str | Path | None) -> str | Path:
    """The store to delete from, which must exist (forgetting creates nothing)."""
    from sessions.store import default_location

    where = default_location() if db is None else db
    if isinstance(where, Path) and not where.exists():
        raise ValueError(f"no store at {where}: nothing to delete")
    return where


def _forget(args: argparse.Namespace) -> int:
    from sessions.forget import forget_player
    from sessions.store import Store

    with Store(_existing(args.db)) as store:
        removed = forget_player(store, args.player_id)
    print(f"removed {removed} session{'s' if removed != 1 else ''} of {args.player_id} from "
          f"{store.where}")
    return 0


def _retention(args: argparse.Namespace) -> int:
    from sessions.forget import RETENTION_ENV, apply_retention, retention_days
    from sessions.store import Store

    days = retention_days(args.days)
    if days is None:
        raise ValueError(f"give --days N or set {RETENTION_ENV}")
    with Store(_existing(args.db)) as store:
        removed = apply_retention(store, days)
    print(f"removed {removed} session{'s' if removed != 1 else ''} not shared for research "
          f"older than {days:g} days from {store.where}")
    return 0


def _fanout_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="play N matches at once in N processes on this machine "
                             "(with --ray: at most N at once on the cluster)")
    parser.add_argument("--ray", nargs="?", const=True, default=None, metavar="ADDRESS",
                        help="play the matches as tasks on a Ray cluster (needs the ray "
                             "extra): ADDRESS of a running cluster, or none to start a local "
                             "one")


def _tournament_parser(sub: argparse._SubParsersAction) -> None:
    plan = sub.add_parser(
        "tournament", help="play a tournament plan (games x agents x matches, round robin)",
        description="Play every match of a TOML plan (see sessions/plan.py and the README) "
                    "that is not stored yet, with a progress bar of matches, ETA and spend.")
    plan.add_argument("plan", type=Path, metavar="PLAN.toml")
    plan.add_argument("--resume", action="store_true",
                      help="continue a plan that was stopped: play only its matches that are "
                           "not stored yet")
    plan.add_argument("--db", type=_location, default=None, help=DB_HELP)
    plan.add_argument("--json", action="store_true", help="print the summary as JSON")
    plan.add_argument("--quiet", action="store_true", help="no progress bar")
    _fanout_arguments(plan)
    plan.set_defaults(run=_tournament)


def _tournament(args: argparse.Namespace) -> int:
    from sessions.fanout import runner
    from sessions.plan import load_plan, run_plan, summary
    from sessions.store import Store

    plan = load_plan(args.plan)
    with Store(args.db) as store:
        run = run_plan(plan, store, runner=runner(workers=args.workers, ray=args.ray),
                       resume=args.resume, progress=not args.quiet)
    print(json.dumps(run.to_dict(), indent=2) if args.json else summary(plan, run))
    return 3 if run.stopped_by_spending else 0


def _ratings_parser(sub: argparse._SubParsersAction) -> None:
    rate = sub.add_parser(
        "ratings", help="Bradley–Terry ratings with bootstrap intervals (and NRA)",
        description="Rate every agent configuration and the pooled human player from the "
                    "stored matches, or from a GameBench matches.json file.")
    source = rate.add_mutually_exclusive_group()
    source.add_argument("--db", type=_location, default=None, help=DB_HELP)
    source.add_argument("--gamebench", type=Path, default=None, metavar="FILE",
                        help="rate a GameBench matches.json instead (GameBench's convention: "
                             f"ties dropped, alpha {GAMEBENCH_ALPHA:g}, pooled resampling, "
                             "unless told otherwise)")
    rate.add_argument("--game", default=None, help="rate one game only")
    rate.add_argument("--bootstrap", type=int, default=1000,
                      help="bootstrap resamples (default 1000, as GameBench ran; 10000 for "
                           "publication)")
    rate.add_argument("--seed", type=int, default=0)
    rate.add_argument("--ties", choices=["half", "drop"], default=None,
                      help="a tie is half a win each way (default) or dropped as GameBench did "
                           "(default for --gamebench)")
    rate.add_argument("--alpha", type=float, default=None,
                      help=f"choix regularisation (default {DEFAULT_ALPHA:g}; "
                           f"{GAMEBENCH_ALPHA:g} for --gamebench)")
    rate.add_argument("--resample", choices=["game", "pooled"], default=None,
                      help="game: redraw each game's matches within the game (default; "
                           "intervals hold their level when games have unequal match counts); "
                           "pooled: draw across games with weights 1/N_game, as GameBench did "
                           "(default for --gamebench)")
    rate.add_argument("--level", type=float, default=0.90, help="interval level (default 0.90)")
    rate.add_argument("--humans-only", action="store_true",
                      help="only sessions with a human seat")
    rate.add_argument("--since", default=None, metavar="DATE", help="ended on or after (UTC)")
    rate.add_argument("--until", default=None, metavar="DATE", help="ended on or before (UTC)")
    rate.add_argument("--by-player", type=int, default=None, metavar="MIN",
                      help="rate each anonymous human player with at least MIN matches apart")
    rate.add_argument("--anchors", default=None, metavar="FILE|none",
                      help="hold these ratings fixed (default for stored matches: the "
                           "ladder's shipped sessions/ratings/anchors.json; none for "
                           "--gamebench); 'none' centres every table instead")
    rate.add_argument("--nra", action="store_true", help="also print GTBench's NRA per pair")
    rate.add_argument("--json", action="store_true", help="print the report as JSON")
    rate.set_defaults(run=_ratings)


def _ratings(args: argparse.Namespace) -> int:
    from sessions.ratings import report as ratings
    from sessions.ratings.results import by_player, parse_when, select

    gamebench = args.gamebench is not None
    ties: ratings.Ties = args.ties or (GAMEBENCH_TIES if gamebench else "half")
    resampling: ratings.Resampling = args.resample or (
        GAMEBENCH_RESAMPLING if gamebench else "game")
    settings = ratings.Settings(
        bootstrap=args.bootstrap, seed=args.seed, ties=ties,
        alpha=args.alpha if args.alpha is not None else
        (GAMEBENCH_ALPHA if gamebench else DEFAULT_ALPHA), level=args.level,
        resampling=resampling, anchors=_anchors(args.anchors, gamebench))
    settings.check()
    found = _gamebench_results(args.gamebench) if gamebench else _stored_results(args.db)
    results = found.results
    if args.by_player:
        results = by_player(results, args.by_player)
    chosen = select(results, game=args.game, humans_only=args.humans_only,
                            since=parse_when(args.since), until=parse_when(args.until, end=True))
    if args.game and not chosen:
        known = sorted({r.game for r in results})
        raise ValueError(f"no rated matches of {args.game!r}; games with rated matches: "
                         f"{', '.join(known) or 'none'}")
    report = ratings.rate(chosen, settings, dropped=found.dropped, per_game=not args.game)
    pairs, skipped = _nra(chosen) if args.nra else ([], None)
    if args.json:
        data = report.to_dict()
        if args.nra:
            data["nra"] = [vars(p) for p in pairs]
            data["nra_skipped"] = dict(skipped or {})
        print(json.dumps(data, indent=2))
        return 0
    print(ratings.format_report(report))
    if args.nra:
        print()
        print(_nra_text(pairs, skipped or {}))
    return 0


def _anchors(given: str | None, gamebench: bool) -> Anchors:
    from sessions.ratings import anchors

    if given == "none" or (given is None and gamebench):
        return anchors.NONE
    return anchors.load(None if given is None else Path(given))


def _gamebench_results(path: Path) -> ResultSet:
    from sessions.ratings.gamebench_format import read_gamebench
    from sessions.ratings.results import ResultSet

    return ResultSet(read_gamebench(path))


def _stored_results(db: str | Path | None) -> ResultSet:
    from sessions.ratings.results import results_from_store
    from sessions.store import Store

    with Store(db, readonly=True) as store:
        return results_from_store(store)


def _nra(results: list) -> tuple[list[PairNRA], Mapping[str, int]]:
    from sessions.ratings.nra import nra_table

    return nra_table(results)


def _nra_text(pairs: list, skipped: Mapping[str, int]) -> str:
    rows = [("game", "entity", "opponent", "matches", "NRA")] + [
        (p.game, p.entity, p.opponent, str(p.matches), f"{p.nra:+.3f}") for p in pairs]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["GTBench NRA (win/draw/loss or rewards, per game; see sessions/ratings/nra.py)"]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
              for r in rows]
    if skipped:
        lines.append("left out of NRA: " + ", ".join(f"{n} {why}" for why, n in skipped.items()))
    return "\n".join(lines)


def _params(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--param expects NAME=VALUE, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


def _play(args: argparse.Namespace) -> int:
    from sessions.engine import FailurePolicy
    from sessions.fanout import runner
    from sessions.store import Store
    from sessions.tournament import run_tournament

    if args.matches < 1:
        raise ValueError("--matches must be at least 1")
    with Store(args.db) as store:
        result = run_tournament(
            args.game, args.agents, matches=args.matches, seed=args.seed, store=store,
            params=_params(args.param),
            policy=FailurePolicy(max_retries=args.retries, on_failure=args.on_failure),
            progress=not args.quiet, runner=runner(workers=args.workers, ray=args.ray),
        )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(f"{args.game}: {args.matches} matches, seed {args.seed}, stored in {store.where}")
        print(result.table())
    return 0


def _gama(args: argparse.Namespace) -> int:
    from sessions.ratings.gama_table import GAMES, gama_table, markdown
    from sessions.store import Store

    with Store(args.db, readonly=True) as store:
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
    from sessions.store import Store, export_jsonl

    if args.format == "gamebench":
        return _export_gamebench(args)
    with Store(args.db, readonly=True) as store:
        if args.out is None:
            done = export_jsonl(store, sys.stdout, game=args.game)
        else:
            with args.out.open("w", encoding="utf-8") as out:
                done = export_jsonl(store, out, game=args.game)
    print(done.note(), file=sys.stderr)
    return 0


def _export_gamebench(args: argparse.Namespace) -> int:
    from sessions.ratings.gamebench_format import write_gamebench
    from sessions.ratings.results import select

    found = _stored_results(args.db)
    results = select(found.results, game=args.game)
    if args.out is None:
        count, skipped = write_gamebench(results, sys.stdout)
    else:
        with args.out.open("w", encoding="utf-8") as out:
            count, skipped = write_gamebench(results, out)
    left_out = found.dropped + skipped
    note = ", ".join(f"{n} {why}" for why, n in sorted(left_out.items()))
    print(f"exported {count} matches in GameBench's format"
          + (f"; skipped {sum(left_out.values())} ({note})" if left_out else ""),
          file=sys.stderr)
    return 0
