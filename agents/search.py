"""Search agents: MCTS (OpenSpiel's C++ bot) and information-set MCTS that never peeks.

MCTS searches the true state, so it is offered only for games of complete information.
IS-MCTS searches worlds sampled from what its seat knows: it rebuilds every history that
matches the seat's information states along the way (chance outcomes weighted by their
probabilities, hidden opponent moves uniformly) and samples from those, so the opponent's
real hidden cards never enter the search. Games with too many such histories to list (Air,
Land & Sea deals 12 of 18 cards every battle) sample their own worlds instead: their state
implements OpenSpiel's ``resample_from_infostate`` in Python, dealing the cards the seat
cannot see at random into the places it cannot see.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms import mcts as py_mcts

from agents.base import Decision, SeatView
from agents.naming import DEFAULT_SECONDS, GTBENCH_SIMULATIONS
from games.actions import ActionId

MAX_WORLDS = 200_000
SAMPLED_WORLDS = 3
"""Worlds :func:`consistent_worlds` draws for a game that samples its own (a spread for the
tests that check views are the same in every world; the agent draws one per simulation)."""


class MCTSAgent:
    """OpenSpiel's MCTS with GTBench's setting: UCT c=2, one random rollout, solver on.

    A reply runs at most ``simulations`` simulations and ends at its clock ``seconds``,
    whichever comes first (``0`` = no clock: exactly ``simulations``, as GTBench ran it),
    and :meth:`cancel` stops it. OpenSpiel's C++ search can be told a simulation count or a
    clock but not both, and cannot be interrupted, so a reply with a clock is a sequence of
    searches of bounded size: a probe of a few simulations measures the rate, then each
    search is sized to fit both the simulations left and the time left, and to take at most
    ``_CHUNK`` seconds, so the count is never passed, the clock is checked, and a cancel or a
    shutdown waits at most for one such search. Their root statistics are pooled (solved
    outcomes, then visits, then rewards, as OpenSpiel's own final choice), and a search that
    proves the position ends the reply. Where the rest of the count fits in ``_CHUNK``
    (1000 simulations of tic-tac-toe or connect four take milliseconds), the reply is the
    probe plus one search of the rest. ``meta["simulations"]`` says how many ran in all.

    Games written in Python (Santorini) use OpenSpiel's Python MCTS the same way, except
    that its rollouts check the clock and the cancel flag, so its searches need no
    ``_CHUNK`` limit (one the clock cuts short is dropped). The C++ bot crashes the process
    on Python games in open_spiel 2.0.2, even on OpenSpiel's own python_tic_tac_toe.
    """

    _PROBE = 8
    """Simulations of the probe: on Hive one random rollout takes ~10-50 ms."""
    _MARGIN = 0.15
    """Seconds kept back for the search running when the clock strikes (a random Hive
    rollout can take 100 ms)."""
    _CHUNK = 0.1
    """The longest a C++ search is planned to take, by the rate measured so far. OpenSpiel's
    C++ search holds Python's GIL throughout, so every other thread of the app (a page's
    request, a store write) that lets go of the GIL (for I/O, SQLite) may wait that long to
    get it back: 0.25 s made storing an abandoned Hive game take 1.7-3.3 s while its search
    ran; 0.1 s keeps it under a second (0.65-1.0 s), and a 2 s Hive reply still runs ~245
    simulations (benchmarks.mcts_reply)."""
    _SAFE = 0.7
    """The share of the time left a search plans to use, by the rate measured so far."""

    def __init__(self, game: pyspiel.Game, *, seed: int, simulations: int = GTBENCH_SIMULATIONS,
                 seconds: float = DEFAULT_SECONDS, uct_c: float = 2.0, rollouts: int = 1,
                 solve: bool = True) -> None:
        in_python = not type(game).__module__.startswith("pyspiel")
        cancelled = threading.Event()

        def bot(count: int, bot_seed: int) -> Any:
            if in_python:
                return _PythonMCTS(game, uct_c, count, rollouts, solve, bot_seed, cancelled)
            return pyspiel.MCTSBot(
                game, pyspiel.RandomRolloutEvaluator(rollouts, bot_seed), uct_c, count, 1000,
                solve, bot_seed, False, pyspiel.ChildSelectionPolicy.UCT,
            )

        self._bot = bot
        self._in_python = in_python
        self._seed = seed
        self._replies = 0
        self._cancelled = cancelled
        self._exact = bot(simulations, seed)
        self.simulations = simulations
        self.seconds = seconds

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        self._replies += 1
        tally = _Tally(view.state.current_player())
        stopped = self._search(view.state, start, tally)
        elapsed = time.perf_counter() - start
        meta = {"simulations": tally.simulations, "searches": tally.searches,
                "stopped": stopped, "time_cap": self.seconds}
        if stopped == "cancelled" or not tally.visits:
            return Decision(None, failure="cancelled", seconds=elapsed,
                            meta={**meta, "failure_detail": "the search was stopped"})
        action = tally.best()
        return Decision(ActionId(action=action), raw=view.label(action), seconds=elapsed,
                        meta=meta)

    def cancel(self) -> None:
        """Stop searching: a reply in progress ends after its current search (within about
        ``_CHUNK`` seconds) with failure ``cancelled``, and so do later ones."""
        self._cancelled.set()

    def _search(self, state: pyspiel.State, start: float, tally: _Tally) -> str:
        """Fill ``tally``; why the reply stopped: ``count``, ``clock``, ``solved`` or
        ``cancelled``."""
        if self._cancelled.is_set():
            return "cancelled"
        if self.seconds <= 0:  # no clock: one search of exactly `simulations`
            root = _run(self._exact, state, None)
            if root is None:
                return "cancelled"
            tally.add(root)
            return "solved" if tally.solved else "count"
        deadline = start + self.seconds - self._MARGIN
        size = min(self._PROBE, self.simulations)
        while True:
            seed = (self._seed + 1 + 7919 * self._replies + tally.searches) % 2**31
            root = _run(self._bot(size, seed), state, deadline)
            if self._cancelled.is_set():
                return "cancelled"
            if root is None:
                return "clock"  # a Python search the clock stopped: its work is lost
            tally.add(root)
            if tally.solved or root.explore_count < size:
                return "solved"  # proven, or the only move
            if tally.simulations >= self.simulations:
                return "count"
            now = time.perf_counter()
            rate = (now - start) / tally.simulations  # seconds per simulation so far
            planned = self._SAFE * (deadline - now)
            if not self._in_python:
                planned = min(planned, self._CHUNK)
            size = min(self.simulations - tally.simulations, math.floor(planned / rate))
            if size < 1:
                return "clock"


@dataclass
class _Tally:
    """The root statistics of one reply's searches, pooled by action."""

    player: int
    visits: dict[int, int] = field(default_factory=dict)
    rewards: dict[int, float] = field(default_factory=dict)
    outcomes: dict[int, float] = field(default_factory=dict)
    simulations: int = 0
    searches: int = 0
    solved: bool = False

    def add(self, root: Any) -> None:
        self.searches += 1
        self.simulations += int(root.explore_count)
        self.solved = self.solved or _proven(root.outcome)
        for child in root.children:
            action = int(child.action)
            self.visits[action] = self.visits.get(action, 0) + int(child.explore_count)
            self.rewards[action] = self.rewards.get(action, 0.0) + float(child.total_reward)
            if _proven(child.outcome):
                self.outcomes[action] = float(child.outcome[self.player])

    def best(self) -> int:
        """OpenSpiel's final choice over the pooled statistics: the best proven outcome,
        then the most visits, then the most reward."""
        return max(self.visits, key=lambda a: (self.outcomes.get(a, 0.0), self.visits[a],
                                               self.rewards[a]))


def _proven(outcome: Any) -> bool:
    return outcome is not None and len(outcome) > 0


def _run(bot: Any, state: pyspiel.State, deadline: float | None) -> Any:
    """One search's root, or None when a Python search was stopped (clock or cancel)."""
    if isinstance(bot, _PythonMCTS):
        return bot.search_until(state, deadline)
    return bot.mcts_search(state)


class _Stop(Exception):
    pass


class _ClockedRollouts(py_mcts.RandomRolloutEvaluator):
    """Random rollouts that stop the search once ``deadline`` has passed or the agent was
    cancelled."""

    deadline: float | None = None

    def __init__(self, rollouts: int, rng: np.random.RandomState,
                 cancelled: threading.Event) -> None:
        super().__init__(rollouts, rng)
        self.cancelled = cancelled

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if self.cancelled.is_set() or (
                self.deadline is not None and time.perf_counter() > self.deadline):
            raise _Stop
        return super().evaluate(state)


class _PythonMCTS(py_mcts.MCTSBot):
    """OpenSpiel's Python MCTS, whose search can be stopped by a clock or a cancel (then
    it has no answer: the caller falls back on what it searched before)."""

    def __init__(self, game: pyspiel.Game, uct_c: float, count: int, rollouts: int,
                 solve: bool, seed: int, cancelled: threading.Event) -> None:
        rng = np.random.RandomState(seed % 2**32)
        self._rollouts = _ClockedRollouts(rollouts, rng, cancelled)
        super().__init__(game, uct_c, count, self._rollouts, solve=solve, random_state=rng)

    def search_until(self, state: pyspiel.State, deadline: float | None) -> Any:
        self._rollouts.deadline = deadline
        try:
            return self.mcts_search(state)
        except _Stop:
            return None
        finally:
            self._rollouts.deadline = None


class _TimedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS with a wall-clock cap on the search loop and a cancel flag
    (it stops at its simulation count or its clock, whichever comes first).

    The cap counts from ``started`` (when the reply began, set by the agent) and keeps
    :data:`_MARGIN` back for the simulation running when it strikes."""

    _MARGIN = 0.15
    """An Air, Land & Sea simulation (a random game to the end of the war) takes ~5 ms, and
    up to ~100 ms on a loaded machine (as MCTSAgent._MARGIN)."""

    def __init__(self, *args: object, seconds: float, cancelled: threading.Event,
                 **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = seconds
        self._cancelled = cancelled
        self.simulations_run = 0
        self.started: float | None = None

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        start = time.perf_counter() if self.started is None else self.started
        deadline = start + self._seconds - self._MARGIN if self._seconds > 0 else None
        self.simulations_run = 0
        for _ in range(max(2, self._max_simulations)):
            if self._cancelled.is_set():
                break
            if deadline is not None and self.simulations_run >= 2 \
                    and time.perf_counter() > deadline:
                break  # the first two always run: the first only opens the root, and the
                # final policy needs a visited child (a late first one crashed it)
            self.run_simulation(self.sample_root_state(state))
            self.simulations_run += 1
        return self.get_final_policy(state, self._root_node)


class ISMCTSAgent:
    """Information-set MCTS over worlds consistent with the seat's information state."""

    def __init__(self, game: pyspiel.Game, *, seed: int, simulations: int = GTBENCH_SIMULATIONS,
                 seconds: float = DEFAULT_SECONDS, uct_c: float = 2.0,
                 rollouts: int = 1) -> None:
        self._random = np.random.RandomState(seed % 2**32)
        self._cancelled = threading.Event()
        evaluator = py_mcts.RandomRolloutEvaluator(rollouts, self._random)
        self._bot = _TimedISMCTS(
            game, evaluator, uct_c, simulations, random_state=self._random,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, seconds=seconds,
            cancelled=self._cancelled,
        )
        self.simulations = simulations
        self.seconds = seconds

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        if self._cancelled.is_set():
            return Decision(None, failure="cancelled",
                            meta={"failure_detail": "the search was stopped"})
        if samples_own_worlds(view.state):
            def sample(state: pyspiel.State, player: int) -> pyspiel.State:
                return state.resample_from_infostate(player, self._random.random_sample)

            count: int | str = "sampled"
        else:
            worlds, weights = consistent_worlds(view.state, view.seat)

            def sample(state: pyspiel.State, player: int) -> pyspiel.State:
                return worlds[self._random.choice(len(worlds), p=weights)].clone()

            count = len(worlds)
        self._bot.set_resampler(sample)
        self._bot.started = start
        action = int(self._bot.step(sample(view.state, view.seat)))
        seconds = time.perf_counter() - start
        meta = {"simulations": self._bot.simulations_run, "worlds": count}
        if self._cancelled.is_set():
            return Decision(None, failure="cancelled", seconds=seconds,
                            meta={**meta, "failure_detail": "the search was stopped"})
        return Decision(ActionId(action=action), raw=view.label(action), seconds=seconds,
                        meta=meta)

    def cancel(self) -> None:
        """Stop searching: a reply in progress ends after its current simulation."""
        self._cancelled.set()


def _information(state: pyspiel.State, player: int) -> str | None:
    if state.is_chance_node() or state.is_terminal():
        return None
    return state.information_state_string(player)


def samples_own_worlds(state: pyspiel.State) -> bool:
    """The game's state implements ``resample_from_infostate`` (in Python)."""
    return type(state).resample_from_infostate is not pyspiel.State.resample_from_infostate


def consistent_worlds(state: pyspiel.State, player: int) -> tuple[list[pyspiel.State], np.ndarray]:
    """Every state ``player`` cannot tell apart from ``state``, with its probability.

    Built only from the player's own information states along the history (what a player with
    perfect recall remembers) and the history's length; the hidden parts are re-enumerated.
    A game that samples its own worlds gives :data:`SAMPLED_WORLDS` of them instead (drawn
    with a fixed seed, equally likely).
    """
    if samples_own_worlds(state):
        rng = np.random.default_rng(len(state.history()))
        worlds = [state.resample_from_infostate(player, rng.random)
                  for _ in range(SAMPLED_WORLDS)]
        return worlds, np.full(SAMPLED_WORLDS, 1.0 / SAMPLED_WORLDS)
    game = state.get_game()
    remembered: list[str | None] = []
    prefix = game.new_initial_state()
    for item in state.full_history():
        prefix.apply_action(item.action)
        remembered.append(_information(prefix, player))
    frontier: list[tuple[pyspiel.State, float]] = [(game.new_initial_state(), 1.0)]
    for target in remembered:
        grown = []
        for world, weight in frontier:
            for action, probability in _branches(world):
                child = world.child(action)
                if target is None or _information(child, player) == target:
                    grown.append((child, weight * probability))
        if len(grown) > MAX_WORLDS:
            raise ValueError(f"IS-MCTS: more than {MAX_WORLDS} consistent worlds")
        frontier = grown
    if not frontier:
        raise ValueError("IS-MCTS: no world matches the seat's information state")
    weights = np.array([weight for _, weight in frontier], dtype=float)
    return [world for world, _ in frontier], weights / weights.sum()


def _branches(world: pyspiel.State) -> list[tuple[int, float]]:
    if world.is_chance_node():
        return [(int(a), p) for a, p in world.chance_outcomes()]
    legal = world.legal_actions()
    return [(a, 1.0 / len(legal)) for a in legal]
