"""Search agents: MCTS (OpenSpiel's C++ bot) and information-set MCTS that never peeks.

MCTS searches the true state, so it is offered only for games of complete information.
IS-MCTS searches worlds sampled from what its seat knows: it rebuilds every history that
matches the seat's information states along the way (chance outcomes weighted by their
probabilities, hidden opponent moves uniformly) and samples from those, so the opponent's
real hidden cards never enter the search.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms import mcts as py_mcts

from agents.base import Decision, SeatView
from games.actions import ActionId

GTBENCH_SIMULATIONS = 1000
DEFAULT_SECONDS = 2.0
MAX_WORLDS = 200_000


class MCTSAgent:
    """OpenSpiel's C++ MCTS with GTBench's setting: UCT c=2, one random rollout, solver on.

    It runs exactly ``simulations`` simulations unless a short probe predicts that would take
    longer than ``seconds``; then it searches for ``seconds`` instead (0 = never cap). The
    C++ bot's own clock option runs until the clock, whatever the simulation count, so the
    two are kept as separate bots.
    """

    _PROBE = 32

    def __init__(self, game: pyspiel.Game, *, seed: int, simulations: int = GTBENCH_SIMULATIONS,
                 seconds: float = DEFAULT_SECONDS, uct_c: float = 2.0, rollouts: int = 1,
                 solve: bool = True) -> None:
        def bot(count: int, clock: float, bot_seed: int) -> pyspiel.MCTSBot:
            return pyspiel.MCTSBot(
                game, pyspiel.RandomRolloutEvaluator(rollouts, bot_seed), uct_c, count, 1000,
                solve, bot_seed, False, pyspiel.ChildSelectionPolicy.UCT, clock,
            )

        self._exact = bot(simulations, -1.0, seed)
        self._probe = bot(self._PROBE, -1.0, seed + 1) if seconds > 0 else None
        self._capped = bot(10**9, seconds, seed + 2) if seconds > 0 else None
        self.simulations = simulations
        self.seconds = seconds

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        capped = False
        if self._probe is not None and self._capped is not None:
            self._probe.step(view.state)
            per_simulation = (time.perf_counter() - start) / self._PROBE
            capped = per_simulation * self.simulations > self.seconds
        bot = self._capped if capped and self._capped is not None else self._exact
        action = int(bot.step(view.state))
        elapsed = time.perf_counter() - start
        return Decision(ActionId(action=action), raw=view.label(action), seconds=elapsed,
                        meta={"simulations": "time-capped" if capped else self.simulations,
                              "time_cap": self.seconds})


class _TimedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS with a wall-clock cap on the search loop."""

    def __init__(self, *args: object, seconds: float, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._seconds = seconds
        self.simulations_run = 0

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self._seconds if self._seconds > 0 else None
        self.simulations_run = 0
        for _ in range(self._max_simulations):
            if deadline is not None and self.simulations_run and time.perf_counter() > deadline:
                break
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
        worlds, weights = consistent_worlds(view.state, view.seat)

        def sample(_state: pyspiel.State, _player: int) -> pyspiel.State:
            return worlds[self._random.choice(len(worlds), p=weights)].clone()

        self._bot.set_resampler(sample)
        action = int(self._bot.step(sample(view.state, view.seat)))
        return Decision(
            ActionId(action=action), raw=view.label(action),
            seconds=time.perf_counter() - start,
            meta={"simulations": self._bot.simulations_run, "worlds": len(worlds)},
        )


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
