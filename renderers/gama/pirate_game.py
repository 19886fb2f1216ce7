"""Pirate Game: every plan put to the vote, how many accepted, your own votes, the plan now.

A plan is public once it is put to the vote; while it is being written only its proposer
sees it. Votes are secret: players learn how many pirates accepted, and their own vote.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

import pyspiel

from games.gama.pirate import Proposal
from renderers.gama.view import (
    Control,
    Entry,
    GamaView,
    Plot,
    choice_control,
    json_answer,
    number_control,
)

PROPOSER, YOU, OTHER, OUT = "#dd8452", "#55a868", "#4c72b0", "#c0c0c0"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def golds(n: int) -> str:
    return f"{n} gold" if n == 1 else f"{n} golds"


def plan_json(plan: tuple[int, ...] | list[int], proposer: int) -> str:
    """GAMA's plan format: golds by rank, from the proposer to the most junior pirate."""
    return json.dumps({str(seat + 1): str(plan[seat]) for seat in range(proposer, len(plan))})


def plan_moves(state: pyspiel.State, seat: int, shares: Sequence[int]) -> list[str]:
    """The answers that write a whole plan, for a page's proposal form: ``shares`` gives the
    golds of each pirate below the proposer, in rank order; the proposer keeps the rest.
    Raises ValueError saying what is wrong, before anything is submitted."""
    if state.deciding is None or seat != state.proposer:
        raise ValueError("it is not your turn to propose a plan")
    below = len(state.plan) - state.proposer - 1
    done = state.deciding - state.proposer - 1
    if len(shares) != below:
        raise ValueError(f"a plan needs {below} shares, one for each of pirates "
                         f"{state.proposer + 2} to {len(state.plan)}; got {len(shares)}")
    if any(share < 0 for share in shares):
        raise ValueError("shares must be whole numbers of golds, 0 or more")
    if list(shares[:done]) != state.plan[state.proposer + 1:state.deciding]:
        raise ValueError("the plan so far cannot be changed")
    golds_total = state.get_game().golds
    if sum(shares) > golds_total:
        raise ValueError(f"the plan gives away {sum(shares)} golds; there are {golds_total}")
    moves, left = [], state.gold_left()
    for share in shares[done:]:
        if left == 0:
            break
        moves.append(str(share))
        left -= share
    return moves


def plan_fields(state: pyspiel.State, seat: int) -> list[tuple[str, int | None]]:
    """The proposal form's fields while ``seat`` writes a plan: (pirate, share already set or
    None) for every pirate below it, in rank order; empty when ``seat`` is not proposing."""
    if state.deciding is None or seat != state.proposer:
        return []
    return [(f"pirate {p + 1}", state.plan[p] if p < state.deciding else None)
            for p in range(state.proposer + 1, len(state.plan))]


class PirateView(GamaView):
    game_id = "pirate_game"
    json_field = "decision"
    unit = "proposal"

    def seat_label(self, seat: int) -> str:
        return f"pirate {seat + 1}"

    def progress(self, state: pyspiel.State) -> str:
        if state.finished:
            return f"The plan of pirate {state.proposer + 1} passed"
        aboard = len(state.plan) - state.proposer
        line = f"Proposal {len(state.proposals) + 1}; {aboard} pirates aboard"
        if state.voting():
            line += (f"; pirate {state.proposer + 1}'s plan is put to the vote: "
                     f"{plan_json(state.plan, state.proposer)}")
        return line

    def identity(self, state: pyspiel.State, seat: int) -> str:
        rank = seat + 1
        if seat < state.proposer:
            return f"You are pirate {rank}; you were thrown overboard."
        return f"You are pirate {rank}, the {_ordinal(rank)} most senior pirate."

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        return [self._entry(i, p, seat) for i, p in enumerate(state.proposals) if p.aboard > 1]

    def _entry(self, i: int, proposal: Proposal, seat: int) -> Entry:
        proposer = proposal.proposer + 1
        facts = (f"The {_ordinal(proposer)} most senior pirate proposed a plan of "
                 f"{plan_json(proposal.plan, proposal.proposer)}. {proposal.accepts} of "
                 f"{proposal.aboard} pirates chose to accept the distribution.")
        if seat == proposal.proposer:
            choice, answer = "You proposed this plan.", plan_json(proposal.plan, proposal.proposer)
        elif proposal.votes[seat] is None:
            choice, answer = "", None
        else:
            vote = "accept" if proposal.votes[seat] else "reject"
            choice, answer = f"You chose to {vote}.", json_answer(self.json_field, vote)
        if proposal.accepted:
            outcome = ("At least half of the pirates accepted the plan. The game ends." +
                       (f" You get {golds(proposal.plan[seat])}." if seat >= proposal.proposer
                        else ""))
        else:
            outcome = (f"Less than half of the pirates accepted the plan. The {_ordinal(proposer)} "
                       "most senior pirate was thrown overboard and eliminated from the game." +
                       (" The game continues." if seat != proposal.proposer else ""))
        mine = "" if proposal.votes[seat] is None else (
            "accept" if proposal.votes[seat] else "reject")
        return Entry(
            f"Round {i + 1}", facts, choice, answer, outcome,
            {"round": str(i + 1), "proposer": f"pirate {proposer}",
             "plan": " ".join(str(g) for g in proposal.plan[proposal.proposer:]),
             "your share": str(proposal.plan[seat]) if seat >= proposal.proposer else "-",
             "your vote": "proposer" if seat == proposal.proposer else mine or "-",
             "accepted": f"{proposal.accepts} of {proposal.aboard}",
             "result": "passed" if proposal.accepted else "overboard"},
        )

    def total(self, state: pyspiel.State, seat: int) -> str:
        if not state.finished:
            return ""
        if seat < state.proposer:
            return "You were thrown overboard"
        return f"Your gold: {golds(state.final_plan()[seat])}"

    def columns(self) -> tuple[str, ...]:
        return ("round", "proposer", "plan", "your share", "your vote", "accepted", "result")

    def ask(self, state: pyspiel.State, seat: int) -> str:
        if state.deciding is not None:
            return (f"choose how many golds pirate {state.deciding + 1} gets, from 0 to "
                    f"{state.gold_left()} (so far: {self._so_far(state)}; you keep what is "
                    "left at the end)")
        return f"accept or reject the plan put to the vote, which gives you {golds(state.plan[seat])}"

    def request(self, state: pyspiel.State, seat: int) -> str:
        proposer = state.proposer + 1
        head = (f"Now the {_ordinal(proposer)} most senior pirate needs to propose a plan. Your "
                "primary goal is to survive. If you survive, your next goal is to maximize the "
                "number of gold coins you receive. You may also prefer to throw another pirate "
                "overboard if it does not negatively impact your other goals.")
        if state.deciding is None:
            return (f"{head}\nThe proposed plan is {plan_json(state.plan, state.proposer)}. "
                    f"You will get {golds(state.plan[seat])} from this plan.\n"
                    "Please provide your decision on the current proposal in the following JSON "
                    "format:\n"
                    '{"decision": "accept_or_reject"}')
        total = state.get_game().golds
        so_far = self._so_far(state)
        return (f"{head}\nYou need to propose a plan to divide {total} golds. The proposed "
                "numbers must be all non-negative integers and sum up to "
                f"{total}. You write the plan one pirate at a time, from the pirate below you to "
                "the most junior, and keep whatever is left for yourself. So far: "
                f"{so_far}.\nHow many golds does pirate {state.deciding + 1} get? "
                f"{state.gold_left()} golds are left.\n"
                "Please provide the number of golds in the following JSON format:\n"
                f'{{"gold": "integer_between_0_and_{state.gold_left()}"}}')

    def _so_far(self, state: pyspiel.State) -> str:
        return ", ".join(f"pirate {s + 1} gets {state.plan[s]}"
                         for s in range(state.proposer + 1, state.deciding)) or "nothing yet"

    def control(self, state: pyspiel.State, seat: int) -> Control:
        if not self.acting(state, seat):
            return choice_control("", [], self.json_field)
        if state.deciding is not None:
            return number_control(f"Golds for pirate {state.deciding + 1} "
                                  "(you keep the rest)", state.legal_actions(seat), "gold")
        return choice_control(f"Accept this plan? You would get {golds(state.plan[seat])}.",
                              ["accept", "reject"], self.json_field)

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        shown: tuple[int, ...] | list[int] | None = None
        proposer = state.proposer
        if state.voting() or (state.deciding is not None and seat == state.proposer):
            shown, title = state.plan, f"Plan of pirate {proposer + 1}"
        elif state.proposals:
            last = state.proposals[-1]
            shown, proposer = last.plan, last.proposer
            title = f"Plan of pirate {proposer + 1} ({'passed' if last.accepted else 'rejected'})"
        else:
            title = f"Pirate {proposer + 1} is writing a plan"
        bars = tuple(
            (f"{'you' if p == seat else p + 1}", float(shown[p]) if shown else 0.0,
             OUT if p < proposer else PROPOSER if p == proposer else YOU if p == seat else OTHER)
            for p in range(len(state.plan))
        )
        return Plot(title=title, ylabel="golds", lines=(), bars=bars)


VIEW = PirateView()
RENDERER = replace(VIEW.renderer(), plan_fields=plan_fields, plan_moves=plan_moves)
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
