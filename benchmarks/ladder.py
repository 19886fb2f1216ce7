"""The difficulty ladder, calibrated: python -m benchmarks.ladder [--games ID ...] [--write]

For every game, each level of ``agents/ladder.json`` plays the level below it, and the top
level plays the two trivial strategies of :mod:`agents.trivial` ("always the first legal
move", "always pass/stay/end when allowed"). Two-seat games alternate seats; in N-seat games
the level sits in each seat in turn among N-1 copies of the other side, and its mean return
is compared with what the strategy in its place would have scored there (GAMA-Bench's
``equilibrium`` in its games, else the trivial strategy itself).

Prints, per pairing: games, the level's mean score (win 1, draw 1/2, loss 0) with its 95%
Wilson interval, and whether the target is met: the interval's lower bound above 50% for a
level against the one below; >= 90% wins against each trivial strategy for the top level of
a two-seat game; for N-seat games, a mean return at least the reference's. ``--write`` stores
the measured numbers in ``agents/ladder.json`` (the Leaderboard shows them);
``--stored`` prints the stored table of every game without playing (``--markdown``: as the
table of docs/benchmarks.md).

Where a target cannot be met by the game's nature the criterion stays as it is, the row says
NOT MET, and :data:`BY_NATURE` says why (printed under the row):

- Kuhn poker against either trivial plan: single hands are mostly the deal; optimal play
  wins about 61% of them, so the level counts when it out-earns the plan.
- Pig against "always roll": at GTBench's goal of 20 that plan is perfect play.
- Divide the Dollar, a level against the one below: a pot is paid only when the bids fit
  in it, so among fair-share bidders no bid earns more than theirs (asking for more breaks
  the pot for everyone), and among bidders who bid at random, even now and then, most
  rounds pay nobody: ties are most of what can happen there.
- Pit among N-1 seats that never trade: a trade needs a partner, so nobody can corner and
  the market closes at the turn cap with every seat at 0 points. That is a tie, not a win
  for anyone: the target (a return at least the trivial seat's in its place) is met by
  equality, and Pit's bot is also measured among random traders (``EXTRA``).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from agents.specs import make_agent, parse_spec, seat_seed
from agents.trivial import TRIVIAL, trivial_agent
from games import registry
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord


def seat_record(name: str) -> SeatRecord:
    if name in TRIVIAL:
        return SeatRecord(kind=name, spec=name, entity=name)
    spec = parse_spec(name)
    return SeatRecord(kind=spec.kind, spec=spec.text, entity=spec.entity,
                      settings=spec.settings())


def play(game_id: str, lineup: Sequence[str], *, seed: int) -> MatchRecord:
    """One game of ``game_id`` with one agent name (a spec, ``first`` or ``pass``) per seat."""
    match = Match(game_id, [seat_record(name) for name in lineup], seed=seed)
    agents = [trivial_agent(name) if name in TRIVIAL else
              make_agent(name, match.spec, match.record.params, seed=seat_seed(seed, i, name))
              for i, name in enumerate(lineup)]
    return play_match(match, agents)


@dataclass
class Tally:
    """A side's results over several games."""

    scores: list[float] = field(default_factory=list)
    """Per game: 1 win, 1/2 draw, 0 loss (placement among the seats)."""
    returns: list[float] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)
    """N-seat games: what the reference strategy returned in the same seat and deal."""
    gaps: list[float] = field(default_factory=list)
    """Per game: the side's return minus the other seats' mean return (chips, points)."""
    seconds: float = 0.0
    slowest: float = 0.0
    """The side's slowest move, seconds."""

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores) if self.scores else float("nan")

    def interval(self) -> tuple[float, float]:
        return wilson(self.mean, self.games)

    def gap(self) -> tuple[float, float, float]:
        """The mean return gap over the others and its 95% interval (normal)."""
        if len(self.gaps) < 2:
            return (float("nan"),) * 3
        mean = statistics.fmean(self.gaps)
        half = 1.96 * statistics.stdev(self.gaps) / math.sqrt(len(self.gaps))
        return mean, mean - half, mean + half

    def add(self, outcome: Outcome) -> None:
        score, ret, others, seconds, slowest = outcome
        self.slowest = max(self.slowest, slowest)
        self.scores.append(score)
        self.returns.append(ret)
        self.gaps.append(ret - others)
        self.seconds += seconds


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate ``p`` seen over ``n`` games (draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


Outcome = tuple[float, float, float, float, float]
"""One game of a side: its score, its return, the others' mean return, the seconds the game
took, the side's slowest move (seconds)."""


def _one(job: tuple[str, tuple[str, ...], int, int]) -> Outcome:
    game_id, lineup, seed, seat = job
    start = time.perf_counter()
    record = play(game_id, lineup, seed=seed)
    returns = record.returns or [0.0] * len(lineup)
    others = statistics.fmean(r for i, r in enumerate(returns) if i != seat)
    slowest = max((m.ended_at - m.started_at for m in record.moves if m.seat == seat),
                  default=0.0)
    return ((record.scores or [0.0] * len(lineup))[seat], returns[seat], others,
            time.perf_counter() - start, slowest)


def _run(jobs: list[tuple[str, tuple[str, ...], int, int]], workers: int) -> list[Outcome]:
    if workers <= 1:
        return [_one(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_one, jobs))


def duel(game_id: str, a: str, b: str, games: int, *, seed: int = 0, workers: int = 1) -> Tally:
    """``a`` against ``b`` over ``games`` two-seat games, seats alternating: ``a``'s tally."""
    jobs: list[tuple[str, tuple[str, ...], int, int]] = []
    for g in range(games):
        seat = g % 2
        lineup = (a, b) if seat == 0 else (b, a)
        jobs.append((game_id, lineup, seed + g, seat))
    tally = Tally()
    for outcome in _run(jobs, workers):
        tally.add(outcome)
    return tally


def fixed_teams(game_id: str) -> list[str | None] | None:
    """The seats' teams when the seating decides them (Codenames: red, red, blue, blue), or
    None when there are no teams or a deal does (hidden roles)."""
    spec = registry.get(game_id)
    if spec.teams is None:
        return None
    seen = []
    for seed in (1, 2, 3):
        state = spec.load(spec.params({spec.seed_param: seed} if spec.seed_param else None)
                          ).new_initial_state()
        rng = np.random.default_rng(seed)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        seen.append(spec.teams(state))
    return seen[0] if all(t == seen[0] for t in seen) and None not in seen[0] else None


def team_duel(game_id: str, a: str, b: str, games: int, *, seed: int = 0,
              workers: int = 1) -> Tally:
    """A team of ``a`` against a team of ``b`` (teams fixed by the seating), the sides
    alternating: the score of ``a``'s team."""
    teams = fixed_teams(game_id) or []
    sides = list(dict.fromkeys(teams))
    jobs = []
    for g in range(games):
        mine = sides[g % len(sides)]
        lineup = tuple(a if team == mine else b for team in teams)
        jobs.append((game_id, lineup, seed + g, teams.index(mine)))
    tally = Tally()
    for outcome in _run(jobs, workers):
        tally.add(outcome)
    return tally


def among(game_id: str, a: str, others: str, games: int, *, reference: str | None = None,
          players: int | None = None, seed: int = 0, workers: int = 1) -> Tally:
    """``a`` in one seat (each seat in turn) among copies of ``others``; with ``reference``,
    the same deals are played again with ``reference`` in ``a``'s place, for comparison."""
    n = players or registry.get(game_id).load().num_players()
    jobs, ref_jobs = [], []
    for g in range(games):
        seat = g % n
        lineup = tuple(a if i == seat else others for i in range(n))
        jobs.append((game_id, lineup, seed + g, seat))
        if reference is not None:
            ref = tuple(reference if i == seat else others for i in range(n))
            ref_jobs.append((game_id, ref, seed + g, seat))
    tally = Tally()
    for outcome in _run(jobs, workers):
        tally.add(outcome)
    for outcome in _run(ref_jobs, workers):
        tally.reference.append(outcome[1])
    return tally


# --- the calibration ------------------------------------------------------------------------

GAMES_PER_PAIRING = 40
TRIVIAL_TARGET = 0.9


@dataclass
class Row:
    """One measured pairing of a game's ladder."""

    game: str
    pairing: str
    games: int
    mean: float
    low: float
    high: float
    target: str
    met: bool
    seconds_per_game: float
    returns: float | None = None
    reference: float | None = None
    gap: tuple[float, float, float] | None = None
    """Games scored by what is earned (chips, points): the mean return gap, 95% interval."""
    why: str = ""
    """Why the target cannot be met by the game's nature (:data:`BY_NATURE`), or ""."""
    slowest_move: float | None = None
    """The measured level's slowest move over these games, seconds (wall clock)."""

    def as_dict(self) -> dict[str, object]:
        def rounded(value: object) -> object:
            if isinstance(value, float):
                return round(value, 4)
            if isinstance(value, tuple):
                return [rounded(v) for v in value]
            return value

        return {k: rounded(v) for k, v in self.__dict__.items() if k != "game"}


BY_NATURE: dict[tuple[str, str], str] = {
    ("kuhn_poker", "first"): "single hands are mostly the deal: optimal play wins about 61% "
                             "of them against any plan; it counts when it out-earns the plan",
    ("kuhn_poker", "pass"): "single hands are mostly the deal: optimal play wins about 61% "
                            "of them against any plan; it counts when it out-earns the plan",
    ("pig", "first"): "at the goal of 20 'always roll' is perfect play itself: no player "
                      "beats it more than about half the time",
    ("divide_dollar", "step"): "a pot is paid only when the bids fit in it: a table of "
                               "fair-share bidders cannot be out-earned (asking more breaks the "
                               "pot for all), and one random bid among nine seats breaks it, so "
                               "most games against bidders who slip end in a tie",
    ("pit", "first"): "nobody else trades, so nobody can corner: the market closes with every "
                      "seat at 0 points, a tie (met by equality); see the row among random "
                      "traders",
    ("pit", "pass"): "nobody else trades, so nobody can corner: the market closes with every "
                     "seat at 0 points, a tie (met by equality); see the row among random "
                     "traders",
}
"""(game, ``step`` | ``first`` | ``pass``) -> why that target cannot be met as stated."""

EXTRA: dict[str, str] = {"pit": "random"}
"""Games whose top level is also measured among N-1 copies of another agent (against that
agent in its place): Pit's trivial tables cannot trade at all."""


def _reference(game_id: str) -> str | None:
    return "equilibrium" if registry.get(game_id).benchmark == "GAMA-Bench" else None


def calibrate(game_id: str, games: int, *, workers: int = 1, seed: int = 0,
              trivial_games: int | None = None) -> list[Row]:
    """Every pairing of ``game_id``'s ladder, measured (the top level against the trivial
    strategies over ``trivial_games``, default ``games``)."""
    from agents.ladder import ladder

    rungs = ladder(game_id)
    if rungs is None:
        raise SystemExit(f"{game_id} has no ladder in agents/ladder.json")
    players = registry.get(game_id).load().num_players()
    earns = registry.get(game_id).objective == "earn" and players == 2
    teams = fixed_teams(game_id)
    rows = []
    levels = rungs.levels
    for lower, upper in zip(levels, levels[1:], strict=False):
        pairing = f"{upper.name} ({upper.spec}) vs {lower.name} ({lower.spec})"
        if players == 2:
            tally = duel(game_id, upper.spec, lower.spec, games, seed=seed, workers=workers)
        elif teams:
            pairing = f"{upper.name} ({upper.spec}) team vs {lower.name} ({lower.spec}) team"
            tally = team_duel(game_id, upper.spec, lower.spec, games, seed=seed,
                              workers=workers)
        else:
            tally = among(game_id, upper.spec, lower.spec, games, seed=seed, workers=workers)
        low, high = tally.interval()
        gap = tally.gap() if earns or players > 2 else None
        rows.append(Row(game_id, pairing, tally.games, tally.mean, low, high,
                        "lower bound > 50%" + (" or out-earns it" if earns else ""),
                        low > 0.5 or (earns and gap is not None and gap[1] > 0),
                        tally.seconds / max(1, tally.games), gap=gap,
                        slowest_move=tally.slowest,
                        why=BY_NATURE.get((game_id, "step"), "")))
    top = levels[-1]
    games = trivial_games or games
    for trivial in ("first", "pass"):
        words = {"first": "always the first legal move", "pass": "always pass/stay/end"}[trivial]
        if players == 2 or teams:
            tally = (duel(game_id, top.spec, trivial, games, seed=seed, workers=workers)
                     if players == 2 else
                     team_duel(game_id, top.spec, trivial, games, seed=seed, workers=workers))
            low, high = tally.interval()
            gap = tally.gap() if earns else None
            rows.append(Row(game_id, f"{top.name} ({top.spec}) vs {words}", tally.games,
                            tally.mean, low, high, f"wins >= {TRIVIAL_TARGET:.0%}"
                            + (" or out-earns it" if earns else ""),
                            tally.mean >= TRIVIAL_TARGET or (gap is not None and gap[1] > 0),
                            tally.seconds / max(1, tally.games), gap=gap,
                            slowest_move=tally.slowest,
                            why=BY_NATURE.get((game_id, trivial), "")))
            continue
        reference = _reference(game_id) or trivial
        tally = among(game_id, top.spec, trivial, games, reference=reference, seed=seed,
                      workers=workers)
        low, high = tally.interval()
        mine = statistics.fmean(tally.returns)
        theirs = statistics.fmean(tally.reference)
        rows.append(Row(game_id, f"{top.name} ({top.spec}) among {players - 1} x {words}",
                        tally.games, tally.mean, low, high,
                        f"return >= {reference}'s in its place", mine >= theirs - 1e-9,
                        tally.seconds / max(1, tally.games), mine, theirs,
                        slowest_move=tally.slowest,
                        why=BY_NATURE.get((game_id, trivial), "")))
    if game_id in EXTRA:
        other = EXTRA[game_id]
        tally = among(game_id, top.spec, other, games, reference=other, seed=seed,
                      workers=workers)
        low, high = tally.interval()
        mine, theirs = statistics.fmean(tally.returns), statistics.fmean(tally.reference)
        rows.append(Row(game_id, f"{top.name} ({top.spec}) among {players - 1} x {other}",
                        tally.games, tally.mean, low, high,
                        f"return >= {other}'s in its place", mine >= theirs - 1e-9,
                        tally.seconds / max(1, tally.games), mine, theirs,
                        slowest_move=tally.slowest))
    return rows


def _extra(row: Row) -> str:
    parts = []
    if row.returns is not None and row.reference is not None:
        parts.append(f"return {row.returns:.2f} vs {row.reference:.2f}")
    if row.gap is not None:
        parts.append(f"earns {row.gap[0]:+.2f} [{row.gap[1]:+.2f}, {row.gap[2]:+.2f}] a game")
    if row.slowest_move is not None:
        parts.append(f"slowest move {row.slowest_move:.1f}s")
    return "  ".join(parts)


def _print(rows: list[Row]) -> None:
    for row in rows:
        extra = _extra(row)
        print(f"{row.game:<28}{row.pairing:<72}{row.games:>5}{row.mean:>7.0%}"
              f"  [{row.low:.0%}, {row.high:.0%}]  {row.target:<42} "
              f"{'met' if row.met else 'NOT MET':<8}{row.seconds_per_game:>7.1f}s"
              + (f"  {extra}" if extra else ""), flush=True)
        if _why_shown(row):
            print(f"{'':<28}  why: {row.why}", flush=True)


def _why_shown(row: Row) -> bool:
    """Whether the row's note on the game's nature is worth printing: not when its score
    meets the score target anyway."""
    if not row.why:
        return False
    if "lower bound" in row.target:
        return row.low <= 0.5
    if "wins >=" in row.target:
        return row.mean < TRIVIAL_TARGET
    return row.mean <= 0.5


def stored_rows(game_id: str) -> list[Row]:
    """The rows ``--write`` stored for ``game_id`` (none when it was never measured)."""
    from agents.ladder import ladder

    rungs = ladder(game_id)
    out = []
    for entry in (*rungs.measured, *rungs.also_measured) if rungs is not None else ():
        fields = dict(entry)
        gap = fields.pop("gap", None)
        if not fields.get("why"):
            fields["why"] = BY_NATURE.get((game_id, _kind(str(fields["pairing"]))), "")
        out.append(Row(game_id, **fields, gap=tuple(gap) if gap else None))
    return out


def _kind(pairing: str) -> str:
    """``first``, ``pass`` or ``step``: what a stored row's pairing measured."""
    if "first legal move" in pairing:
        return "first"
    if "pass/stay/end" in pairing:
        return "pass"
    return "step" if " vs " in pairing else "other"


def _markdown(results: dict[str, list[Row]]) -> None:
    print("| game | pairing | games | score [95% interval] | target | met | s/game | notes |")
    print("|---|---|--:|---|---|---|--:|---|")
    for game_id, rows in results.items():
        if not rows:
            print(f"| {game_id} | not measured | | | | | | |")
        for row in rows:
            notes = "; ".join(x for x in (_extra(row), row.why if _why_shown(row) else "")
                              if x)
            print(f"| {game_id} | {row.pairing} | {row.games} | {row.mean:.0%} "
                  f"[{row.low:.0%}, {row.high:.0%}] | {row.target} | "
                  f"{'met' if row.met else '**NOT MET**'} | {row.seconds_per_game:.1f} | "
                  f"{notes} |")


def _header() -> None:
    print(f"{'game':<28}{'pairing':<72}{'games':>5}{'mean':>7}  {'95% interval':<12}"
          f"{'target':<43}{'':<8}{'s/game':>8}")


def _summary(results: dict[str, list[Row]]) -> None:
    unmet = [row for rows in results.values() for row in rows if not row.met]
    missing = [game_id for game_id, rows in results.items() if not rows]
    print(f"{sum(len(r) for r in results.values())} pairings over {len(results)} games; "
          f"{len(unmet)} target(s) not met"
          + (f" ({sum(1 for row in unmet if _why_shown(row))} of them by the game's nature)"
             if unmet else "")
          + (f"; not measured: {', '.join(missing)}" if missing else ""))


def _write(results: dict[str, list[Row]]) -> None:
    import json
    from datetime import UTC, datetime
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "agents" / "ladder.json"
    data = json.loads(path.read_text("utf-8"))
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    for game_id, rows in results.items():
        entry = data["games"][game_id]
        entry["measured"] = [row.as_dict() for row in rows if _kind(row.pairing) != "other"]
        also = [row.as_dict() for row in rows if _kind(row.pairing) == "other"]
        if also:  # beside the targets, where the Leaderboard does not look for them
            entry["also_measured"] = also
        else:
            entry.pop("also_measured", None)
        data["games"][game_id]["measured_at"] = stamp
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote the measurements of {len(results)} games to {path}")


def main() -> None:
    import argparse

    from agents.ladder import ladders

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None, metavar="ID",
                        help="only these games (default: every game with a ladder)")
    parser.add_argument("-n", "--per-pairing", type=int, default=None,
                        help="games per pairing (default: the game's 'games' in "
                             f"agents/ladder.json, else {GAMES_PER_PAIRING})")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true",
                        help="store the measurements in agents/ladder.json")
    parser.add_argument("--stored", action="store_true",
                        help="print the measurements stored in agents/ladder.json (no games)")
    parser.add_argument("--markdown", action="store_true",
                        help="with --stored: as a Markdown table")
    args = parser.parse_args()
    chosen = args.games or list(ladders())
    if args.stored:
        stored = {game_id: stored_rows(game_id) for game_id in chosen}
        if args.markdown:
            _markdown(stored)
        else:
            _header()
            for rows in stored.values():
                _print(rows)
            _summary(stored)
        return
    _header()
    results = {}
    start = time.perf_counter()
    for game_id in chosen:
        count = args.per_pairing or ladders()[game_id].games or GAMES_PER_PAIRING
        trivial = None if args.per_pairing else ladders()[game_id].trivial_games
        rows = calibrate(game_id, count, workers=args.workers, seed=args.seed,
                         trivial_games=trivial)
        _print(rows)
        results[game_id] = rows
    _summary(results)
    print(f"measured in {time.perf_counter() - start:.0f} s")
    if args.write:
        _write(results)


if __name__ == "__main__":
    main()
