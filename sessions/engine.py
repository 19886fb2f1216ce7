"""Driving agents through a match: the one place that applies the retry and failure policy.

An agent's answer that the adapter rejects is sent back to the agent with the adapter's
message, up to ``max_retries`` times; after that the policy applies: ``forfeit`` (the
default for rated play) or ``random``, a random legal move flagged as a fallback. A decision
that failed for lack of time (``timeout``: the agent's time limit for the move, which its
re-asks share, ran out, or its provider sent nothing) or because the seat was stopped
(``cancelled``) is not asked again: the policy applies at once. A seat whose provider never
answered once in the session (every try an API error, no move made) does not
forfeit: the session is abandoned as ``provider unreachable`` and is not rated (the record
keeps every try). A provider that took the request and then stayed silent (``timeout``)
still forfeits. Seats that act in the same node (simultaneous games) are asked
concurrently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

import numpy as np

from agents.base import Agent, Decision
from games.actions import ActionId, MoveError
from sessions.match import Match, NotYourTurn
from sessions.record import MatchRecord

UNREACHABLE = "provider unreachable"
"""The end reason of a session abandoned because an agent's provider never answered."""
NO_ANSWER = ("api_error",)
"""Failure reasons of a try that got no answer because the provider could not be reached or
failed (a refused answer is not one; nor is silence from a server that took the request,
``timeout``: that is the model's time running out, a forfeit)."""


@dataclass(frozen=True)
class FailurePolicy:
    max_retries: int = 2
    on_failure: Literal["forfeit", "random"] = "forfeit"
    final: frozenset[str] = frozenset({"timeout", "cancelled"})
    """Failures after which the seat is not asked again (its time is spent, or it stopped)."""


def play_turn(match: Match, seat: int, agent: Agent, *, policy: FailurePolicy = FailurePolicy(),
              rng: np.random.Generator | None = None) -> None:
    """Ask ``agent`` for ``seat``'s move until the adapter accepts one or the policy applies."""
    feedback: str | None = None
    asked, why = 0, ""
    while asked <= policy.max_retries:
        asked += 1
        decision = agent.act(match.view(seat), feedback=feedback)
        if match.over:
            return  # ended while the agent thought (abandoned from the page, a forfeit)
        if decision.proposal is None:
            reason = decision.failure or "empty"
            detail = decision.meta.get("failure_detail") or f"no answer was received ({reason})"
            feedback = f"{detail}; answer with one legal move"
            match.reject(seat, decision.raw, reason, feedback, meta=_meta(decision))
            if reason in policy.final:
                why = f": {detail}"
                break
            continue
        try:
            match.submit(seat, decision.proposal, raw=decision.raw or None,
                         reasoning=decision.reasoning, meta=_meta(decision))
            return
        except MoveError as err:
            feedback = str(err)
    if match.over:
        return
    if policy.on_failure == "random":
        legal = match.legal(seat)
        rng = rng or np.random.default_rng([match.record.seed, seat, len(match.record.moves)])
        choice = legal[int(rng.integers(len(legal)))]
        match.submit(seat, ActionId(action=choice.action), raw="", fallback=True,
                     reasoning=f"random legal move after {asked} failed attempt"
                               f"{'s' if asked > 1 else ''}{why}")
    elif never_answered(match, seat):
        match.abandon(UNREACHABLE)  # no result to rate: the model never got to play
    else:
        match.forfeit(seat, f"no legal move after {asked} attempt{'s' if asked > 1 else ''}{why}")


def never_answered(match: Match, seat: int) -> bool:
    """Whether every try of ``seat`` in this session failed before any answer arrived (the
    provider could not be reached, or answered only with errors), so it never made a move."""
    attempts = match.attempts(seat)
    return (bool(attempts) and all(a.reason in NO_ANSWER for a in attempts)
            and not any(m.seat == seat for m in match.record.moves))


def play_match(match: Match, agents: Sequence[Agent], *, policy: FailurePolicy = FailurePolicy(),
               rng: np.random.Generator | None = None,
               on_move: Callable[[Match], None] | None = None) -> MatchRecord:
    """Play ``match`` to the end with one agent per seat and return its record."""
    if len(agents) != len(match.record.seats):
        raise ValueError(f"{len(match.record.seats)} seats but {len(agents)} agents")
    with ThreadPoolExecutor(max_workers=max(1, len(agents))) as pool:
        while not match.over:
            seats = match.to_move()
            if len(seats) == 1:
                play_turn(match, seats[0], agents[seats[0]], policy=policy, rng=rng)
            else:
                futures = [pool.submit(play_turn, match, s, agents[s], policy=policy, rng=rng)
                           for s in seats]
                for future in futures:
                    _result_unless_over(future.result)
            if on_move is not None:
                on_move(match)
    return match.record


def _result_unless_over(result: Callable[[], None]) -> None:
    try:
        result()
    except NotYourTurn:
        pass  # another seat's forfeit ended the game first


def _meta(decision: Decision) -> dict[str, object]:
    meta = dict(decision.meta)
    meta["seconds"] = round(decision.seconds, 6)
    return meta
