"""RAP's search over a model's predictions, with a scripted world model (no LLM)."""

from __future__ import annotations

import pytest

from agents.llm.planner import BRANCHING, DEPTH, OutOfCalls, Planner, call_bound


class Scripted:
    """A toy world: a position is the path of actions taken ("" at the root); each action's
    worth is given per name, and the model proposes the same three actions everywhere."""

    def __init__(self, worth: dict[str, float], actions: tuple[str, ...] = ("a", "b", "c")):
        self.worth = worth
        self.actions = actions
        self.log: list[tuple[str, ...]] = []

    def propose(self, position: str, depth: int) -> list[str]:
        self.log.append(("propose", position))
        return list(self.actions)

    def predict(self, position: str, action: str) -> str:
        self.log.append(("predict", position, action))
        return f"{position}/{action}"

    def judge(self, position: str, action: str, after: str) -> float:
        self.log.append(("judge", position, action))
        return self.worth.get(action, 0.0)


def test_it_picks_the_action_the_model_judges_best():
    model = Scripted({"a": -0.5, "b": 0.8, "c": 0.1})
    plan = Planner(model).plan("")
    assert plan.action == "b"
    chosen = next(c for c in plan.summary()["candidates"] if c["action"] == "b")
    assert chosen["visits"] >= max(c["visits"] for c in plan.summary()["candidates"]) - 1


def test_looking_ahead_changes_the_choice():
    """'a' looks good now but every position after it is bad; 'b' looks worse now but leads
    to a strong follow-up: depth 2 prefers 'b', depth 1 'a'."""

    class Trap(Scripted):
        def propose(self, position: str, depth: int) -> list[str]:
            self.log.append(("propose", position))
            if position.startswith("/a"):
                return ["x"]
            if position.startswith("/b"):
                return ["y"]
            return ["a", "b"]

        def judge(self, position: str, action: str, after: str) -> float:
            return {"a": 0.3, "b": 0.1, "x": -1.0, "y": 1.0}[action]

    assert Planner(Trap({}), depth=1).plan("").action == "a"
    assert Planner(Trap({}), depth=2).plan("").action == "b"


def test_every_node_and_edge_is_asked_about_once_and_the_bound_holds():
    model = Scripted({"a": 0.2, "b": 0.1, "c": 0.3})
    plan = Planner(model, iterations=50).plan("")
    assert len(model.log) == len(set(model.log)), "a node or edge was asked about twice"
    assert plan.calls == len(model.log) <= call_bound(DEPTH, BRANCHING) == 28
    # depth 2: proposals only at the root and its children, never deeper
    assert max(entry[1].count("/") for entry in model.log if entry[0] == "propose") == 1


def test_the_call_budget_stops_the_search_with_an_answer():
    model = Scripted({"a": 0.9, "b": 0.1, "c": 0.3})
    plan = Planner(model, iterations=10, max_calls=8).plan("")
    assert plan.calls == len(model.log) == 8
    assert plan.stopped and plan.action in {"a", "b", "c"}


def test_no_candidates_means_no_action():
    plan = Planner(Scripted({}, actions=())).plan("")
    assert plan.action is None and plan.calls == 1


def test_duplicate_proposals_are_one_candidate():
    model = Scripted({"a": 0.5}, actions=("a", "a", "b"))
    plan = Planner(model, depth=1).plan("")
    assert [c["action"] for c in plan.summary()["candidates"]] == ["a", "b"]


def test_settings_are_checked():
    with pytest.raises(ValueError):
        Planner(Scripted({}), depth=0)
    with pytest.raises(ValueError):
        Planner(Scripted({}), iterations=0)


def test_a_model_out_of_calls_mid_search_keeps_what_was_learnt():
    class Flaky(Scripted):
        def judge(self, position: str, action: str, after: str) -> float:
            if position:  # any judgement below the root fails: the budget is spent
                raise OutOfCalls
            return super().judge(position, action, after)

    plan = Planner(Flaky({"a": 0.1, "b": 0.7, "c": 0.2})).plan("")
    assert plan.stopped and plan.action == "b"
