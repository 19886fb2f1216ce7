"""The showcase: exhibition games one after another on the landing page, within a daily budget.

With ``ARENA_SHOWCASE`` set, the page opens on the Watch tab following the current
exhibition game, so a visitor sees models playing at once. The variable is either ``auto``
(the ready models: the offline one when installed, those whose key the server holds, each
against another or against the best classic agent, over a few quick games) or a TOML file::

    daily_budget_usd = 1.0          # what language-model seats may cost per UTC day
    delay_seconds = 1.0             # the least time between two moves
    pause_seconds = 8               # between two games

    [[pairing]]
    game = "tic_tac_toe"
    seats = ["openai/gpt-4o-mini+cot", "local/smollm2-135m"]
    params = { }                    # optional

Pairings are played in order, round and round. **Spending** is what today's (UTC) stored
showcase games cost — their recorded tokens at the opponents file's prices — plus what the
game being played has used so far; every language model of a pairing must have prices in
the opponents file (free for the offline model). Before each game, and every second while
it runs, the spending is compared with the budget: once it is spent, the game in progress is
stopped (recorded as abandoned) and the showcase falls back to offline agents (the offline
model when installed, else the classic agents that fit) until midnight UTC, and says so.
``auto`` takes its budget from ``ARENA_SHOWCASE_BUDGET_USD`` (default 1.0).

Showcase games are stored with the tag ``showcase`` and rated like any match between agents.
Each app replica runs its own showcase; they share the budget through the store, checked
between games.
"""

from __future__ import annotations

import datetime
import logging
import os
import threading
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agents.llm import Choice, load_opponents
from agents.llm.usage import cost
from agents.naming import check_limits
from agents.specs import SpecError, agents_for, check_fits, parse_spec
from games import registry
from sessions.record import MatchRecord
from sessions.store import Store
from sessions.usage import session_usage
from sessions.web.blind import ready_models
from sessions.web.llm_page import Keyring, Seating
from sessions.web.watch import WatchSession

AUTO = "auto"
AUTO_GAMES = ("tic_tac_toe", "connect_four", "kuhn_poker", "nim", "liars_dice", "breakthrough")
"""The games ``auto`` cycles through: quick ones, with boards and with cards."""
DEFAULT_BUDGET = 1.0
CLASSIC_ORDER = ("mcts", "ismcts", "equilibrium", "tit-for-tat", "random")
_log = logging.getLogger(__name__)


class ShowcaseError(ValueError):
    """A showcase setting that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class Pairing:
    game: str
    seats: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ShowcaseConfig:
    pairings: tuple[Pairing, ...]
    daily_budget_usd: float = DEFAULT_BUDGET
    delay_seconds: float = 1.0
    pause_seconds: float = 8.0
    source: str = AUTO


# --- the settings ---------------------------------------------------------------------------


def load_config(value: str, *, env: Mapping[str, str] | None = None) -> ShowcaseConfig:
    """``ARENA_SHOWCASE``'s value: ``auto`` or the path of a TOML file."""
    env = os.environ if env is None else env
    if value.strip().lower() == AUTO:
        budget = _budget(env.get("ARENA_SHOWCASE_BUDGET_USD", str(DEFAULT_BUDGET)),
                         "ARENA_SHOWCASE_BUDGET_USD")
        return ShowcaseConfig(auto_pairings(ready_models(env)), budget)
    path = Path(value)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except OSError as err:
        raise ShowcaseError(f"ARENA_SHOWCASE={value}: cannot read it ({err.strerror}); give "
                            "a TOML file of pairings or 'auto'") from None
    except tomllib.TOMLDecodeError as err:
        raise ShowcaseError(f"{path} is not valid TOML: {err}") from None
    return parse_config(data, source=str(path))


def parse_config(data: Mapping[str, Any], *, source: str) -> ShowcaseConfig:
    def fail(where: str, what: str) -> ShowcaseError:
        return ShowcaseError(f"{source}: {where}: {what}")

    known = {"daily_budget_usd", "delay_seconds", "pause_seconds", "pairing"}
    for key in data:
        if key not in known:
            raise fail(key, f"unknown field; a showcase has {', '.join(sorted(known))}")
    items = data.get("pairing")
    if not isinstance(items, list) or not items:
        raise fail("pairing", 'list at least one [[pairing]] with game = "..." and '
                              'seats = ["...", "..."]')
    pairings = tuple(_pairing(item, i, fail) for i, item in enumerate(items))
    numbers = {}
    for name, default, top in (("daily_budget_usd", DEFAULT_BUDGET, 10_000.0),
                               ("delay_seconds", 1.0, 60.0), ("pause_seconds", 8.0, 3600.0)):
        number = data.get(name, default)
        if isinstance(number, bool) or not isinstance(number, int | float) \
                or not 0 <= number <= top:
            raise fail(name, f"must be a number from 0 to {top:g}")
        numbers[name] = float(number)
    return ShowcaseConfig(pairings, numbers["daily_budget_usd"], numbers["delay_seconds"],
                          numbers["pause_seconds"], source)


def _pairing(item: Any, index: int, fail: Callable[[str, str], ShowcaseError]) -> Pairing:
    where = f"pairing[{index}]"
    if not isinstance(item, dict) or "game" not in item:
        raise fail(where, 'needs game = "GAME" (python -m games lists them)')
    unknown = set(item) - {"game", "seats", "params"}
    if unknown:
        raise fail(where, f"unknown field {sorted(unknown)[0]!r}; a pairing has game, seats, "
                          "params")
    try:
        spec = registry.get(item["game"])
    except KeyError as err:
        raise fail(f"{where}.game", str(err.args[0])) from None
    params = item.get("params") or {}
    if not isinstance(params, dict):
        raise fail(f"{where}.params", "must be a table, e.g. params = { rows = 6 }")
    try:
        players = spec.load(spec.params(params)).num_players()
    except (ValueError, KeyError) as err:
        raise fail(f"{where}.params", str(err)) from None
    seats = item.get("seats")
    if not isinstance(seats, list) or len(seats) != players \
            or not all(isinstance(s, str) for s in seats):
        raise fail(f"{where}.seats", f"{spec.title} has {players} seats: list an agent spec "
                                     "for each")
    for text in seats:
        try:
            agent = parse_spec(text)
            check_fits(agent, spec)
            check_limits(agent)
        except SpecError as err:
            raise fail(f"{where}.seats", str(err)) from None
        if agent.kind == "human":
            raise fail(f"{where}.seats", "the showcase seats agents only")
        if agent.kind == "llm" and price_of(text) is None:
            raise fail(f"{where}.seats", f"{text} has no price_input/price_output in the "
                                         "opponents file, so its spending cannot be counted "
                                         "against the budget; add them (ARENA_OPPONENTS)")
    return Pairing(spec.id, tuple(seats), dict(params))


def _budget(text: str, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ShowcaseError(f"{name}={text!r} is not a number of dollars") from None
    if not 0 <= value <= 10_000:
        raise ShowcaseError(f"{name} must be 0 to 10000 dollars, not {value:g}")
    return value


def auto_pairings(ready: Sequence[Choice], games: Sequence[str] = AUTO_GAMES
                  ) -> tuple[Pairing, ...]:
    """Each ready model against the next one (or against the best classic agent when there
    is one model), game after game; classic agents alone when no model is ready."""
    models = [c.spec for c in ready]
    pairings = []
    for n, game in enumerate(games):
        spec = registry.get(game)
        if len(models) >= 2:
            first = models[n % len(models)]
            second = models[(n + 1) % len(models)]
            seats = (first, second)
        elif models:
            seats = (models[0], best_classic(spec)) if n % 2 == 0 else \
                (best_classic(spec), models[0])
        else:
            seats = (best_classic(spec), "random")
        pairings.append(Pairing(game, seats))
    return tuple(pairings)


def best_classic(spec: registry.GameSpec) -> str:
    fits = agents_for(spec)
    return next((name for name in CLASSIC_ORDER if name in fits), "random")


# --- spending -------------------------------------------------------------------------------


def price_of(agent: str) -> tuple[float, float] | None:
    """(input, output) USD per million tokens of an LLM spec, from the opponents file; (0, 0)
    for the offline model; None when unknown."""
    parsed = parse_spec(agent)
    if parsed.kind != "llm":
        return (0.0, 0.0)
    if parsed.provider == "local":
        return (0.0, 0.0)
    entry = load_opponents().find(parsed.provider or "", parsed.model or "")
    if entry.price_input is None or entry.price_output is None:
        return None
    return (entry.price_input, entry.price_output)


def cost_at_prices(record: MatchRecord) -> float:
    """What the record's language-model seats cost: their recorded tokens at the opponents
    file's prices (a seat without prices counts what its record says, or nothing)."""
    total = 0.0
    for seat, usage in session_usage(record).items():
        agent = parse_spec(record.seats[seat].spec)
        if agent.kind != "llm" or agent.provider == "local":
            continue
        entry = load_opponents().find(agent.provider or "", agent.model or "")
        priced = cost(entry, usage.prompt_tokens, usage.completion_tokens)
        total += priced if priced is not None else (usage.cost_usd or 0.0)
    return total


def day_start(now: float) -> float:
    """Midnight UTC before ``now``."""
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    return datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC).timestamp()


def spent_today(store: Store, now: float) -> float:
    """What today's (UTC) stored showcase games cost at the opponents file's prices."""
    return sum(cost_at_prices(record) for record in store.tagged("showcase",
                                                                 since=day_start(now)))


def is_free(agent: str) -> bool:
    price = price_of(agent)
    return price is not None and price == (0.0, 0.0)


def offline(pairing: Pairing, local: str | None) -> Pairing:
    """The pairing with every paid seat replaced by an offline agent: the offline model when
    installed (``local``), else the best classic agent for the game."""
    spec = registry.get(pairing.game)
    seats = tuple(seat if is_free(seat) else (local or best_classic(spec))
                  for seat in pairing.seats)
    return replace(pairing, seats=seats)


# --- the runner -----------------------------------------------------------------------------


class Showcase:
    """Plays the configured pairings one after another in a background thread."""

    def __init__(self, config: ShowcaseConfig, store: Store | None, *,
                 clock: Callable[[], float] = time.time,
                 local: str | None = None) -> None:
        self.config = config
        self.store = store
        self.clock = clock
        self.local = local
        """The offline model's spec for the fallback (None: classic agents)."""
        self.note = ""
        """What the visitor is told about the showcase now (the budget spent, a failure)."""
        self.games = 0
        self._next = 0
        self._current: WatchSession | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def current(self) -> WatchSession | None:
        """The game being shown (the last one, during the pause between games)."""
        return self._current

    def start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="showcase",
                                                daemon=True)
                self._thread.start()

    def stop(self, *, wait: float = 40.0) -> None:
        """Stop the game being shown and wait up to ``wait`` seconds for it to be stored
        (a store closed after this is no longer written to)."""
        self._stop.set()
        game = self._current
        if game is not None and not game.over:
            game.stop("the showcase stopped")
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(wait)

    def spent(self) -> float:
        """Today's spending on stored showcase games (read from the store)."""
        return spent_today(self.store, self.clock()) if self.store is not None else 0.0

    def over_budget(self, stored: float, game: WatchSession | None = None) -> bool:
        """Whether ``stored`` (today's stored spending) and ``game`` so far reach the budget."""
        live = cost_at_prices(game.record) if game is not None else 0.0
        return stored + live >= self.config.daily_budget_usd

    def next_pairing(self) -> Pairing:
        """The next pairing, moved to offline agents when today's budget is spent."""
        pairing = self.config.pairings[self._next % len(self.config.pairings)]
        self._next += 1
        if all(is_free(seat) for seat in pairing.seats) or not self.over_budget(self.spent()):
            self.note = ""
            return pairing
        self.note = self._spent_note()
        return offline(pairing, self.local)

    def _spent_note(self) -> str:
        return (f"Today's showcase budget (${self.config.daily_budget_usd:.2f}) is spent: "
                "offline agents play until midnight UTC.")

    def play_one(self) -> WatchSession | None:
        """Start the next game (None when it could not be built: the note says why)."""
        pairing = self.next_pairing()
        seating = Seating(Keyring())  # the server's keys only
        try:
            game = WatchSession(pairing.game, list(pairing.seats), params=pairing.params,
                                store=self.store, delay=self.config.delay_seconds,
                                build_agent=seating.build, tags=("showcase",))
        except Exception as err:  # noqa: BLE001 - the showcase goes on with the next pairing
            _log.warning("showcase pairing %s %s could not start: %s", pairing.game,
                         pairing.seats, err)
            self.note = f"An exhibition game could not start ({err}); trying the next one."
            return None
        seating.attach(game)
        self._current = game
        self.games += 1
        game.start()
        return game

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            game = self.play_one()
            if game is None:
                failures += 1
                self._stop.wait(min(60.0, 2.0 * failures))
                continue
            failures = 0
            paid = not all(is_free(seat.spec) for seat in game.record.seats)
            stored = self.spent() if paid else 0.0
            while not game.over and not self._stop.wait(1.0):
                if paid and self.over_budget(stored, game):
                    game.stop("the showcase's daily budget was spent")
                    self.note = self._spent_note()
            game.ended.wait(30.0)  # stored, so the next game's budget check counts it
            self._stop.wait(self.config.pause_seconds)


_SHOWCASE: Showcase | None = None
_SHOWCASE_LOCK = threading.Lock()


def showcase(store: Store | None, *, env: Mapping[str, str] | None = None) -> Showcase | None:
    """The process's showcase, started on first use when ``ARENA_SHOWCASE`` is set (None
    otherwise). A bad setting is logged and leaves the showcase off."""
    global _SHOWCASE
    env = os.environ if env is None else env
    value = env.get("ARENA_SHOWCASE", "").strip()
    if not value:
        return None
    with _SHOWCASE_LOCK:
        if _SHOWCASE is None:
            try:
                config = load_config(value, env=env)
            except ShowcaseError as err:
                _log.error("no showcase: %s", err)
                return None
            local = next((c.spec for c in ready_models(env) if c.provider == "local"), None)
            _SHOWCASE = Showcase(config, store, local=local)
            _SHOWCASE.start()
        return _SHOWCASE
