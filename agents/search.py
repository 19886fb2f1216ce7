"""Search agents: MCTS (OpenSpiel's C++ bot) and information-set MCTS that never peeks.

MCTS searches the true state, so it is offered only for games of complete information.
IS-MCTS searches worlds sampled from what its seat knows: it rebuilds every history that
matches the seat's information states along the way (chance outcomes weighted by their
probabilities, hidden opponent moves uniformly) and samples from those, so the opponent's
real hidden cards never enter the search. Games with far too many hidden deals to enumerate
(Arctic Scavengers' decks) deal the unseen cards again themselves: their state defines
``resample_from_infostate(player, sampler)`` (OpenSpiel's name for it), whose result depends
only on what the seat knows; the agent samples through it instead.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms import mcts as py_mcts

from agents.base import Decision, SeatView
from agents.naming import DEFAULT_SECONDS, GTBENCH_SIMULATIONS
from games.actions import ActionId

MAX_WORLDS = 200_000


class MCTSAgent:
    """OpenSpiel's MCTS with GTBench's setting: UCT c=2, one random rollout, solver on.

    It runs exactly ``simulations`` simulations when a short probe predicts they fit well
    within ``seconds``; otherwise it searches only for the time the probe left of
    ``seconds`` (0 = never cap), so the whole reply stays within ``seconds``.

    C++ games use the C++ bot. Its clock option runs until the clock, whatever the
    simulation count, so the clock-capped bot is a separate one, built for each reply with
    the time that is left. Games written in Python (Santorini) use OpenSpiel's Python MCTS:
    the C++ bot crashes the process on Python games in open_spiel 2.0.2 (even on OpenSpiel's
    own python_tic_tac_toe). See :class:`_PythonMCTS` for its clock.
    """

    _PROBE = 8
    """Simulations of the probe: on Hive one random rollout takes ~10-50 ms, so a probe of
    32 used up to 1.6 s of a 2 s budget."""
    _MARGIN = 0.15
    """Seconds kept back for the simulation running when the clock strikes (a random Hive
    rollout can take 100 ms)."""
    _CLEAR = 0.25
    """The C++ search without a clock cannot be stopped, so it runs only when the probe
    predicts at most this share of ``seconds``: 8 random rollouts can under-predict badly on
    Hive, whose random games end after anything from 5 to 500 moves (one reply took 10 s)."""
    _SAFE = 0.7
    """The share of the time left that a Python search plans to use, by the probe's rate
    (a rough guide: past the clock the search stops and the probe's move is played)."""

    def __init__(self, game: pyspiel.Game, *, seed: int, simulations: int = GTBENCH_SIMULATIONS,
                 seconds: float = DEFAULT_SECONDS, uct_c: float = 2.0, rollouts: int = 1,
                 solve: bool = True) -> None:
        in_python = not type(game).__module__.startswith("pyspiel")

        def bot(count: int, clock: float, bot_seed: int) -> pyspiel.Bot:
            if in_python:
                return _PythonMCTS(game, uct_c, count, rollouts, solve, bot_seed)
            return pyspiel.MCTSBot(
                game, pyspiel.RandomRolloutEvaluator(rollouts, bot_seed), uct_c, count, 1000,
                solve, bot_seed, False, pyspiel.ChildSelectionPolicy.UCT, clock,
            )

        self._bot = bot
        self._in_python = in_python
        self._seed = seed
        self._replies = 0
        self._exact = bot(simulations, -1.0, seed)
        self._probe = bot(self._PROBE, -1.0, seed + 1) if seconds > 0 else None
        self.simulations = simulations
        self.seconds = seconds

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        self._replies += 1
        action, how = self._search(view.state, start)
        elapsed = time.perf_counter() - start
        return Decision(ActionId(action=action), raw=view.label(action), seconds=elapsed,
                        meta={"simulations": how, "time_cap": self.seconds})

    def _search(self, state: pyspiel.State, start: float) -> tuple[int, int | str]:
        """The move, and how it was searched: ``simulations``, ``"time-capped"``, or
        ``"probe only"`` when the probe used up the time."""
        if self._probe is None:
            return int(self._exact.step(state)), self.simulations
        probed = int(self._probe.step(state))
        spent = time.perf_counter() - start
        per_simulation = spent / self._PROBE
        deadline = start + self.seconds - self._MARGIN
        left = self.seconds - spent - max(self._MARGIN, 2 * per_simulation)
        if self._in_python and per_simulation * self.simulations <= self._SAFE * left:
            action = self._exact.step_until(state, deadline)
            return (probed, "probe only") if action is None else (action, self.simulations)
        if not self._in_python and per_simulation * self.simulations <= self._CLEAR * self.seconds:
            return int(self._exact.step(state)), self.simulations
        action = self._capped_step(state, left, per_simulation, deadline) if left > 0 else None
        return (probed, "probe only") if action is None else (action, "time-capped")

    def _capped_step(self, state: pyspiel.State, left: float, per_simulation: float,
                     deadline: float) -> int | None:
        seed = self._seed + 1 + self._replies
        if self._in_python:  # the probe's rate is a rough guide; the deadline is firm
            count = max(1, int(self._SAFE * left / per_simulation))
            return self._bot(count, -1.0, seed).step_until(state, deadline)
        return int(self._bot(10**9, left, seed).step(state))


class _OutOfTime(Exception):
    pass


class _ClockedRollouts(py_mcts.RandomRolloutEvaluator):
    """Random rollouts that stop the search once ``deadline`` has passed."""

    deadline: float | None = None

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfTime
        return super().evaluate(state)


class _PythonMCTS(py_mcts.MCTSBot):
    """OpenSpiel's Python MCTS, whose search can be stopped by a clock (then it has no
    answer: the caller falls back on its probe's)."""

    def __init__(self, game: pyspiel.Game, uct_c: float, count: int, rollouts: int,
                 solve: bool, seed: int) -> None:
        rng = np.random.RandomState(seed % 2**32)
        self._rollouts = _ClockedRollouts(rollouts, rng)
        super().__init__(game, uct_c, count, self._rollouts, solve=solve, random_state=rng)

    def step_until(self, state: pyspiel.State, deadline: float | None) -> int | None:
        self._rollouts.deadline = deadline
        try:
            return int(self.step(state))
        except _OutOfTime:
            return None
        finally:
            self._rollouts.deadline = None


class _TimedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS with a wall-clock cap on the search loop: it stops when one
    more simulation of average length would end past the clock (long card games play
    hundreds of moves per random rollout)."""

    _MARGIN = 0.05
    """Seconds kept back for what follows the loop (the final policy) and a slow rollout."""

    def __init__(self, *args: object, seconds: float, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = seconds
        self.simulations_run = 0

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        started = time.perf_counter()
        deadline = started + self._seconds if self._seconds > 0 else None
        self.simulations_run = 0
        for _ in range(max(2, self._max_simulations)):
            now = time.perf_counter()
            each = (now - started) / max(1, self.simulations_run)
            if deadline is not None and self.simulations_run >= 2 \
                    and now + max(2 * each, self._MARGIN) > deadline:
                break  # the next simulation could end past the clock (the first two always
                # run: the first only opens the root, and a move needs a visited child)
            self.run_simulation(self.sample_root_state(state))
            self.simulations_run += 1
        return self.get_final_policy(state, self._root_node)


class ISMCTSAgent:
    """Information-set MCTS over worlds consistent with the seat's information state."""

    def __init__(self, game: pyspiel.Game, *, seed: int, simulations: int = GTBENCH_SIMULATIONS,
                 seconds: float = DEFAULT_SECONDS, uct_c: float = 2.0,
                 rollouts: int = 1) -> None:
        self._random = np.random.RandomState(seed % 2**32)
        evaluator = py_mcts.RandomRolloutEvaluator(rollouts, self._random)
        self._bot = _TimedISMCTS(
            game, evaluator, uct_c, simulations, random_state=self._random,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, seconds=seconds,
        )
        self.simulations = simulations
        self.seconds = seconds

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        root, seat = view.state, view.seat
        if redeals_itself(root):
            counted: int | str = "redealt"

            def sample(_state: pyspiel.State, _player: int) -> pyspiel.State:
                return root.resample_from_infostate(seat, self._random.random_sample)
        else:
            worlds, weights = consistent_worlds(root, seat)
            counted = len(worlds)

            def sample(_state: pyspiel.State, _player: int) -> pyspiel.State:
                return worlds[self._random.choice(len(worlds), p=weights)].clone()

        self._bot.set_resampler(sample)
        action = int(self._bot.step(sample(root, seat)))
        return Decision(
            ActionId(action=action), raw=view.label(action),
            seconds=time.perf_counter() - start,
            meta={"simulations": self._bot.simulations_run, "worlds": counted},
        )


def redeals_itself(state: pyspiel.State) -> bool:
    """Whether the game deals a seat's unseen cards again itself: its Python state defines
    ``resample_from_infostate`` (C++ games inherit pyspiel's, which most do not implement)."""
    return any("resample_from_infostate" in vars(klass) for klass in type(state).__mro__
               if not klass.__module__.startswith("pyspiel"))


def redealt_worlds(state: pyspiel.State, player: int, count: int,
                   rng: np.random.Generator) -> list[pyspiel.State]:
    """``count`` states ``player`` cannot tell from ``state``, dealt by the game itself."""
    return [state.resample_from_infostate(player, rng.random) for _ in range(count)]


def _information(state: pyspiel.State, player: int) -> str | None:
    if state.is_chance_node() or state.is_terminal():
        return None
    return state.information_state_string(player)


def consistent_worlds(state: pyspiel.State, player: int) -> tuple[list[pyspiel.State], np.ndarray]:
    """Every state ``player`` cannot tell apart from ``state``, with its probability.

    Built only from the player's own information states along the history (what a player with
    perfect recall remembers) and the history's length; the hidden parts are re-enumerated.
    """
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
