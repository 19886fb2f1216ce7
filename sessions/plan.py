"""Tournament plans: games × agent specs × matches, round robin, from a TOML file.

```toml
name = "classic ladder"        # shown on the progress bar (default: the file's name)
seed = 1
matches = 4                    # per pairing and game; seats rotate, so each agent of a
                               # two-seat pairing moves first in half of them
agents = ["mcts:200:0s", "random", "openai/gpt-4o-mini"]   # every game's, unless it says
spend_limit_usd = 2.0          # stop starting matches once this much is spent (optional)

[concurrency]                  # matches with a seat of this provider running at once
openai = 2

[[games]]
id = "tic_tac_toe"

[[games]]
id = "kuhn_poker"
agents = ["ismcts", "random"]
params = { }
```

Each game pits every combination of as many distinct agents as it has seats (pairs for
two-seat games) against each other ``matches`` times. Every planned match has a name (its
record id) and a seed derived from the plan's seed, the game, its parameters, who sits
where and the match number, so a resumed run (``--resume``) knows which matches are
already stored and plays only the others, with the seeds they would have had. Spending is
what the stored records say the language-model seats cost at the opponents file's prices;
with ``spend_limit_usd`` every LLM of the plan must have prices there.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from agents.naming import AgentSpec
from agents.specs import check_fits, parse_spec
from games import registry
from sessions.engine import FailurePolicy
from sessions.fanout import Job, Runner, Schedule, Serial
from sessions.record import MatchRecord
from sessions.store import Store
from sessions.tournament import seating
from sessions.usage import session_usage


class PlanError(ValueError):
    """A plan that cannot be run; the message names the file and the field."""


@dataclass(frozen=True)
class PlannedGame:
    id: str
    agents: tuple[AgentSpec, ...]
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    name: str
    seed: int
    matches: int
    games: tuple[PlannedGame, ...]
    spend_limit: float | None = None
    concurrency: Mapping[str, int] = field(default_factory=dict)
    policy: FailurePolicy = FailurePolicy()

    def jobs(self) -> list[Job]:
        """Every match of the plan, in a fixed order (game, pairing, match number)."""
        out = []
        for game in self.games:
            seats = registry.get(game.id).load(game.params).num_players()
            for group in itertools.combinations(game.agents, seats):
                for index in range(self.matches):
                    order = tuple(group[p] for p in seating(index, seats))
                    key = json.dumps([self.seed, game.id, dict(game.params),
                                      [a.text for a in order], index], sort_keys=True)
                    digest = hashlib.sha256(key.encode()).hexdigest()
                    out.append(Job(game.id, order, int(digest[32:40], 16) % 2**31,
                                   dict(game.params), self.policy, record_id=digest[:32],
                                   tag=providers(order)))
        return out


def providers(seats: tuple[AgentSpec, ...]) -> frozenset[str]:
    return frozenset(a.provider for a in seats if a.kind == "llm" and a.provider)


def load_plan(path: Path) -> Plan:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except OSError as err:
        raise PlanError(f"cannot read the plan {path}: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise PlanError(f"{path} is not valid TOML: {err}") from None
    return parse_plan(data, source=str(path), name=path.stem)


def parse_plan(data: Mapping[str, Any], *, source: str, name: str = "plan") -> Plan:
    def fail(where: str, what: str) -> PlanError:
        return PlanError(f"{source}: {where}: {what}")

    known = {"name", "seed", "matches", "agents", "games", "spend_limit_usd", "concurrency",
             "retries", "on_failure"}
    for key in data:
        if key not in known:
            raise fail(key, f"unknown field; a plan has {', '.join(sorted(known))}")
    matches, seed = data.get("matches", 1), data.get("seed", 0)
    if not isinstance(matches, int) or matches < 1:
        raise fail("matches", "must be a whole number of at least 1")
    if not isinstance(seed, int):
        raise fail("seed", "must be a whole number")
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise fail("games", "list at least one game as [[games]] with id = \"...\"")
    default_agents = data.get("agents")
    planned = tuple(_game(item, i, default_agents, fail) for i, item in enumerate(games))
    limit = data.get("spend_limit_usd")
    if limit is not None and (not isinstance(limit, int | float) or limit < 0):
        raise fail("spend_limit_usd", "must be a number of dollars, 0 or more")
    caps = data.get("concurrency", {})
    if not isinstance(caps, dict) or any(not isinstance(v, int) or v < 1 for v in caps.values()):
        raise fail("concurrency", "give each provider a whole number of matches, at least 1 "
                                  "(e.g. openai = 2)")
    policy = FailurePolicy(max_retries=int(data.get("retries", 2)),
                           on_failure=data.get("on_failure", "forfeit"))
    plan = Plan(str(data.get("name", name)), seed, matches, planned,
                None if limit is None else float(limit), dict(caps), policy)
    if limit is not None:
        _check_prices(plan, fail)
    return plan


def _game(item: Any, index: int, default_agents: Any, fail: Any) -> PlannedGame:
    where = f"games[{index}]"
    if not isinstance(item, dict) or "id" not in item:
        raise fail(where, "needs id = \"GAME\" (python -m games lists them)")
    try:
        spec = registry.get(item["id"])
    except KeyError as err:
        raise fail(f"{where}.id", str(err.args[0] if err.args else err)) from None
    texts = item.get("agents", default_agents)
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise fail(f"{where}.agents", "list the agent specs (or give agents = [...] at the top)")
    params = spec.params(item.get("params") or {})
    seats = spec.load(params).num_players()
    if len(set(texts)) < seats:
        raise fail(f"{where}.agents", f"{spec.title} has {seats} seats; list at least {seats} "
                                      "different agents")
    agents = []
    for text in texts:
        agent = parse_spec(text)
        try:
            check_fits(agent, spec)
        except ValueError as err:
            raise fail(f"{where}.agents", str(err)) from None
        agents.append(agent)
    return PlannedGame(spec.id, tuple(agents), params)


def _check_prices(plan: Plan, fail: Any) -> None:
    from agents.llm.config import load_opponents

    opponents = load_opponents()
    for game in plan.games:
        for agent in game.agents:
            if agent.kind != "llm":
                continue
            entry = opponents.find(agent.provider or "", agent.model or "")
            if entry.price_input is None or entry.price_output is None:
                raise fail("spend_limit_usd", f"{agent.text} has no price_input/price_output in "
                                              "the opponents file, so its spending cannot be "
                                              "counted; add them (ARENA_OPPONENTS) or drop the "
                                              "limit")


def spent(record: MatchRecord) -> float:
    """What the record's language-model seats cost (USD; unknown prices count 0)."""
    return sum(u.cost_usd or 0.0 for u in session_usage(record).values())


@dataclass
class PlanRun:
    planned: int
    already: int = 0
    played: int = 0
    not_started: int = 0
    spent_usd: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)

    @property
    def stopped_by_spending(self) -> bool:
        return self.not_started > 0

    def to_dict(self) -> dict[str, Any]:
        return {"planned": self.planned, "already_stored": self.already,
                "played": self.played, "not_started": self.not_started,
                "spent_usd": round(self.spent_usd, 6), "outcomes": dict(self.outcomes)}


def run_plan(plan: Plan, store: Store, *, runner: Runner | None = None, resume: bool = False,
             progress: bool = True, out: TextIO = sys.stderr) -> PlanRun:
    """Play the plan's matches that are not stored yet (all of them unless ``resume``),
    storing each as it completes; stop starting new ones at the spending cap."""
    jobs = plan.jobs()
    stored = store.stored(job.record_id or "" for job in jobs)
    if stored and not resume:
        raise PlanError(f"{len(stored)} of this plan's {len(jobs)} matches are already in "
                        f"{store.where}; pass --resume to play the other "
                        f"{len(jobs) - len(stored)}, or change the plan's seed")
    run = PlanRun(len(jobs), already=len(stored))
    if any(providers(job.seats) for job in jobs):
        run.spent_usd = sum(spent(store.get(i)) for i in stored)
    todo = [job for job in jobs if job.record_id not in stored]
    running: Counter[str] = Counter()

    def admit(job: Job) -> bool:
        if any(running[p] >= plan.concurrency.get(p, 10**9) for p in job.tag):
            return False
        running.update(job.tag)
        return True

    def stop() -> bool:
        return plan.spend_limit is not None and run.spent_usd >= plan.spend_limit

    print(f"{plan.name}: {len(jobs)} matches planned, {len(stored)} already stored in "
          f"{store.where}, {len(todo)} to play", file=out)
    bar = tqdm(total=len(jobs), initial=len(stored), desc=plan.name, unit="match",
               disable=not progress, file=out, dynamic_ncols=True)
    schedule = Schedule(todo, runner or Serial(), admit=admit, stop=stop)
    for job, record in schedule.results():
        store.save(record)
        running.subtract(job.tag)
        run.played += 1
        run.outcomes[record.outcome or "unfinished"] += 1
        run.spent_usd += spent(record)
        bar.update(1)
        bar.set_postfix_str(_spend_text(run.spent_usd, plan.spend_limit))
    bar.close()
    run.not_started = len(schedule.left)
    return run


def _spend_text(amount: float, limit: float | None) -> str:
    return f"spent ${amount:.4f}" + (f" of ${limit:.2f}" if limit is not None else "")


def summary(plan: Plan, run: PlanRun) -> str:
    """What happened, for the person who ran the plan."""
    lines = [f"{plan.name}: {run.already + run.played} of {run.planned} matches stored "
             f"({run.played} played now, {run.already} before); "
             + _spend_text(run.spent_usd, plan.spend_limit)]
    if run.not_started:
        lines.append(f"stopped at the spending cap: {run.not_started} matches not started; "
                     "raise spend_limit_usd and run again with --resume")
    return "\n".join(lines)
