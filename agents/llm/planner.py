"""Monte Carlo tree search over a model's own predictions: the planner of RAP.

RAP (Reasoning via Planning; GameBench's best scaffold, after Hao et al. 2023 and the
llm-reasoners MCTS GameBench vendored) uses the language model three ways: to *propose*
candidate actions at a position, as a *world model* that predicts the other seats' replies
and the position that follows an action, and as a *reward* that judges an action. This
module is the search; :mod:`agents.llm.rap` asks the model. The search knows nothing of
models, so it is tested with a scripted :class:`WorldModel`.

The tree alternates nothing: a node is a position the planning seat is to act in (the root is
the real one, deeper ones are predicted text), an edge is one of the seat's candidate actions
together with the predicted replies of the others, so a depth limit of 2 looks two of the
seat's own moves ahead. Each iteration selects by UCT (exploration weight ``w_exp``) down
expanded nodes, expands the node it reaches (asks for candidates), simulates by following the
best-judged edge down to the depth limit (expanding on the way), and backs the sum of rewards
along the path up to every node on it. Proposals, predictions and judgements are made once per
node and edge and cached, so a decision costs at most :func:`call_bound` model calls (and
never more than ``max_calls``, after which the search stops and answers with what it has).
The answer is the root action with the highest mean return (ties: more visits, then the
order proposed); if the budget ran out before any return was backed up, the best-judged one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

T = TypeVar("T")

DEPTH = 2
"""GameBench's ``depth_limit``: the seat's own moves looked ahead."""
ITERATIONS = 10
"""GameBench's ``n_iters``."""
BRANCHING = 3
"""Candidate actions asked for at each position."""
W_EXP = 1.0
"""GameBench's UCT exploration weight."""


class OutOfCalls(Exception):
    """The model's call budget for this decision is spent."""


class WorldModel(Protocol):
    """The model's three roles. Each method is one model call (or raises :class:`OutOfCalls`)."""

    def propose(self, position: str, depth: int) -> list[str]:
        """Up to ``BRANCHING`` candidate actions at ``position`` (at depth 0 the real one:
        only legal moves, in the order the model gave them)."""
        ...

    def predict(self, position: str, action: str) -> str:
        """The position after ``action`` and the other seats' predicted replies."""
        ...

    def judge(self, position: str, action: str, after: str) -> float:
        """How good ``action`` is, in [-1, 1] (1: surely winning)."""
        ...


@dataclass
class Node:
    position: str
    depth: int
    edges: list[Edge] | None = None
    """None until expanded (the model asked for candidates)."""
    visits: int = 0


@dataclass
class Edge:
    action: str
    parent: Node
    child: Node | None = None
    """The predicted position after the action (None until the model predicted it)."""
    reward: float | None = None
    visits: int = 0
    returns: list[float] = field(default_factory=list)

    @property
    def value(self) -> float:
        return sum(self.returns) / len(self.returns) if self.returns else 0.0


@dataclass
class Plan:
    """What the search decided and what it looked at."""

    action: str | None
    root: Node
    iterations: int
    calls: int
    stopped: str = ""
    """Why the search stopped early (the call budget), or empty."""

    def summary(self) -> dict[str, object]:
        """Per root action: visits, mean return, the model's judgement and prediction."""
        edges = self.root.edges or []
        return {
            "chosen": self.action, "iterations": self.iterations, "calls": self.calls,
            "stopped": self.stopped,
            "candidates": [{"action": e.action, "visits": e.visits, "value": round(e.value, 3),
                            "reward": None if e.reward is None else round(e.reward, 3),
                            "predicted": e.child.position if e.child else None}
                           for e in edges],
        }


def call_bound(depth: int = DEPTH, branching: int = BRANCHING) -> int:
    """The most model calls one decision can make: one proposal per node, a prediction and
    a judgement per edge, over a full tree of ``depth`` levels of ``branching`` actions."""
    nodes = sum(branching ** level for level in range(depth))  # nodes that get expanded
    return nodes + 2 * nodes * branching


class Planner:
    """MCTS with a depth limit over ``model``'s predictions."""

    def __init__(self, model: WorldModel, *, depth: int = DEPTH, iterations: int = ITERATIONS,
                 w_exp: float = W_EXP, max_calls: int | None = None) -> None:
        if depth < 1 or iterations < 1:
            raise ValueError("RAP needs a depth and an iteration count of at least 1")
        self.model = model
        self.depth = depth
        self.iterations = iterations
        self.w_exp = w_exp
        self.max_calls = max_calls
        self.calls = 0

    def plan(self, position: str) -> Plan:
        root = Node(position, 0)
        done = 0
        stopped = ""
        try:
            while done < self.iterations:
                path = self._select(root)
                self._simulate(root, path)
                self._back_propagate(path)
                done += 1
        except OutOfCalls as out:
            stopped = str(out) or "the model's budget for this decision was spent"
        return Plan(self._best(root), root, done, self.calls, stopped)

    # --- the four steps -----------------------------------------------------------------

    def _select(self, node: Node) -> list[Edge]:
        """Down expanded nodes by UCT to a node not yet expanded or at the depth limit."""
        path: list[Edge] = []
        while node.edges and node.depth < self.depth:
            fresh = [e for e in node.edges if e.visits == 0]
            edge = fresh[0] if fresh else max(node.edges, key=lambda e: self._uct(node, e))
            child = self._realise(edge)
            path.append(edge)
            node = child
        return path

    def _simulate(self, root: Node, path: list[Edge]) -> None:
        """From the end of ``path``, expand and follow the best-judged edge to the limit
        (ties: the first proposed)."""
        node = path[-1].child if path else root
        while node is not None and node.depth < self.depth:
            self._expand(node)
            edges = node.edges or []
            if not edges:
                return
            for edge in edges:
                self._realise(edge)
            best = max(range(len(edges)), key=lambda i: (edges[i].reward or 0.0, -i))
            path.append(edges[best])
            node = edges[best].child

    def _back_propagate(self, path: list[Edge]) -> None:
        total = 0.0
        for edge in reversed(path):
            total += edge.reward or 0.0
            edge.returns.append(total)
            edge.visits += 1
            edge.parent.visits += 1

    # --- helpers -------------------------------------------------------------------------

    def _expand(self, node: Node) -> None:
        if node.edges is None:
            actions = self._call(lambda: self.model.propose(node.position, node.depth))
            node.edges = [Edge(action, node) for action in dict.fromkeys(actions)]

    def _realise(self, edge: Edge) -> Node:
        """Ask the model what ``edge`` leads to and how good it is (once each)."""
        if edge.child is None:
            after = self._call(lambda: self.model.predict(edge.parent.position, edge.action))
            edge.child = Node(after, edge.parent.depth + 1)
        child = edge.child
        if edge.reward is None:
            judged = self._call(
                lambda: self.model.judge(edge.parent.position, edge.action, child.position))
            edge.reward = max(-1.0, min(1.0, judged))
        return child

    def _call(self, ask: Callable[[], T]) -> T:
        if self.max_calls is not None and self.calls >= self.max_calls:
            raise OutOfCalls(f"the call budget ({self.max_calls} calls) was spent")
        self.calls += 1
        return ask()

    def _uct(self, node: Node, edge: Edge) -> float:
        return edge.value + self.w_exp * math.sqrt(math.log(max(node.visits, 1)) / edge.visits)

    @staticmethod
    def _best(root: Node) -> str | None:
        edges = root.edges or []
        if not edges:
            return None
        order = {e.action: i for i, e in enumerate(edges)}
        visited = [e for e in edges if e.visits]
        if not visited:  # stopped before any return was backed up: the model's judgement
            return max(edges, key=lambda e: (e.reward or 0.0, -order[e.action])).action
        return max(visited, key=lambda e: (e.value, e.visits, -order[e.action])).action
