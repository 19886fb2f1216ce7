"""Reasoning modes, GTBench's four, with the voting done for real.

- ``prompt``: one call, the move only.
- ``cot``: one call, step-by-step reasoning, then a ``Final answer:`` line.
- ``sc-cot``: five CoT samples requested at once (wall time ≈ one call); each is read by
  the legal-action adapter and the legal moves are majority-voted. Ties go to the move
  whose first vote came from the lowest-numbered sample. (GTBench's code configured a vote
  but used the last sample.)
- ``tot``: GTBench's tree of thoughts: 2 steps, 3 proposals per step, 3 votes, keep 1 —
  three analyses, a vote keeps the best; three moves built on it, a vote picks the move.
  A vote is skipped when there is nothing to choose between (one analysis, or every
  proposal names the same legal move).
- ``rap`` (``rap:DEPTH:ITERATIONS``; ``rap`` is ``rap:2:10``): GameBench's Reasoning via
  Planning — the model proposes moves, predicts the replies and the next position, judges
  them, and MCTS over those predictions picks the move (:mod:`agents.llm.rap`).

Structured answers (``+json``) change only the answer format: the move comes as a JSON
object whose ``move`` must be one of the legal labels. Every answer, sampled or not, is
read by ``games.actions.resolve``; the mode's chosen move is then submitted as text and read
by the adapter again when the match applies it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from agents.base import SeatView
from agents.llm import planner, prompts, rap
from agents.llm.calls import Caller, CallRecord
from agents.llm.chat import ChatRequest, Turn
from agents.llm.events import LLMEvent
from agents.llm.prompts import Position
from games.actions import LegalMove, MoveError, Proposal, Text, resolve

REASONING = ("prompt", "cot", "sc-cot", "tot", "rap")
"""The reasoning modes; ``rap`` may carry its settings (``rap:3:20``, see :func:`base`)."""
SAMPLES = 5
TOT_PROPOSALS = 3
TOT_VOTES = 3

T = TypeVar("T")


@dataclass
class Outcome:
    """What a mode decided, and every call it made."""

    proposal: Proposal | None
    raw: str = ""
    reasoning: str = ""
    failure: str | None = None
    failure_detail: str = ""
    calls: list[CallRecord] = field(default_factory=list)
    votes: dict[str, Any] | None = None


@dataclass
class Ask:
    """Everything a mode needs for one decision."""

    caller: Caller
    view: SeatView
    where: Position
    structured: bool
    image: bytes | None
    retry: tuple[tuple[str, str], ...]
    max_tokens: int
    temperature: float | None
    sample_temperature: float | None
    seed: int
    streams: itertools.count = field(default_factory=itertools.count)
    """Numbers the streams of this decision in the order they are planned."""

    def request(self, what: str, *, sample: int = 0, varied: bool = False,
                answer: bool = True, thinking: bool = True) -> ChatRequest:
        """A request with the observation and ``what``. ``answer`` marks one that produces a
        move: it follows the earlier rejected answers, and in ``+json`` modes it asks for the
        answer object (with a ``thinking`` field when ``thinking``)."""
        turns = [Turn("user", prompts.ask(self.where, what))]
        if answer:
            for said, feedback in self.retry:
                turns.extend(prompts.ask_again(said, feedback, what))
        schema = None
        if answer and self.structured:
            schema = prompts.answer_schema(self.where.labels, thinking=thinking,
                                           free=self.where.free_form is not None)
        return ChatRequest(
            system=self.where.system, turns=tuple(turns), image=self.image, schema=schema,
            max_tokens=self.max_tokens,
            temperature=self.sample_temperature if varied else self.temperature,
            seed=(self.seed + sample) % 2**31,
        )

    def job(self, what: str, purpose: str, stream: str, *, sample: int = 0,
            varied: bool = False, answer: bool = True, thinking: bool = True
            ) -> Callable[[], CallRecord]:
        """A call to run now or concurrently; its stream index is fixed here, in order."""
        request = self.request(what, sample=sample, varied=varied, answer=answer,
                               thinking=thinking)
        index = next(self.streams)

        def run() -> CallRecord:
            record = self.caller.call(request, purpose=purpose, stream=stream, index=index)
            record.instruction = what
            return record

        return run

    def read(self, record: CallRecord) -> LegalMove | None:
        """The legal move the adapter reads in ``record`` (noting the rejection if none)."""
        move = None
        if record.failure is None:
            try:
                move = resolve(self.view.game, self.view.state, self.view.seat,
                               Text(text=record.text, source="llm"))
                record.label = move.label
            except MoveError as err:
                record.rejected = err.reason
        self.finished(record)
        return move

    def finished(self, record: CallRecord) -> None:
        """Tell the page a call is over: how it ended, what it cost, what was read."""
        self.emit("result", record.stream, record.index, {
            "purpose": record.purpose, "finish": record.finish, "failure": record.failure,
            "label": record.label, "rejected": record.rejected,
            "prompt_tokens": record.prompt_tokens, "completion_tokens": record.completion_tokens,
            "seconds": round(record.seconds, 3)})

    def emit(self, kind: str, stream: str, index: int, data: dict[str, Any]) -> None:
        self.caller.emit(LLMEvent(kind, self.view.seat, stream, index,  # type: ignore[arg-type]
                                  data=data))


def base(mode: str) -> str | None:
    """The reasoning mode ``mode`` names (``rap:3:20`` → ``rap``), or None if it names none;
    RAP settings out of range are a ValueError naming the limits."""
    if mode in REASONING:
        return mode
    return rap.NAME if rap.settings(mode) is not None else None


def canonical(mode: str) -> str:
    """The canonical form of a reasoning mode (``rap`` → ``rap:2:10``)."""
    return rap.canonical(mode) if base(mode) == rap.NAME else mode


def planned_streams(mode: str) -> list[str]:
    """The streams a decision in ``mode`` may open, in order (ToT skips votes it does not
    need), so a page can lay out one pane per stream before the first token."""
    if base(mode) == rap.NAME:
        return rap.planned_streams(mode)
    if mode == "sc-cot":
        return [f"sample {i + 1}/{SAMPLES}" for i in range(SAMPLES)]
    if mode == "tot":
        return ([f"step 1 · thought {i + 1}" for i in range(TOT_PROPOSALS)]
                + [f"step 1 · vote {i + 1}" for i in range(TOT_VOTES)]
                + [f"step 2 · move {i + 1}" for i in range(TOT_PROPOSALS)]
                + [f"step 2 · vote {i + 1}" for i in range(TOT_VOTES)])
    return ["answer"]


def decide(mode: str, ask: Ask) -> Outcome:
    """Run reasoning ``mode`` for one decision."""
    if mode in ("prompt", "cot"):
        return single(ask, mode)
    if mode == "sc-cot":
        return self_consistency(ask)
    if mode == "tot":
        return tree_of_thought(ask)
    if base(mode) == rap.NAME:
        return reasoning_via_planning(ask, mode)
    raise ValueError(f"unknown reasoning mode {mode!r}; modes: {', '.join(REASONING)}")


def single(ask: Ask, mode: str) -> Outcome:
    what = prompts.instruction(mode, ask.structured, ask.where)
    record = ask.job(what, "move", "answer", thinking=mode == "cot")()
    ask.read(record)
    return _from_answers([record], [record], votes=None)


def self_consistency(ask: Ask, samples: int = SAMPLES) -> Outcome:
    what = prompts.instruction("cot", ask.structured, ask.where)
    records = concurrently([
        ask.job(what, "sample", f"sample {i + 1}/{samples}", sample=i, varied=True)
        for i in range(samples)])
    votes = tally([ask.read(record) for record in records])
    ask.emit("vote", "vote", next(ask.streams), votes)
    return _from_answers(records, records, votes=votes)


def tree_of_thought(ask: Ask) -> Outcome:
    calls: list[CallRecord] = []
    thoughts = concurrently([
        ask.job(prompts.THOUGHT, "thought", f"step 1 · thought {i + 1}", sample=i, varied=True,
                answer=False) for i in range(TOT_PROPOSALS)])
    calls += thoughts
    for thought in thoughts:
        ask.finished(thought)
    usable = list(dict.fromkeys(t.text for t in thoughts if t.failure is None and t.text.strip()))
    if not usable:
        return _failed(calls, thoughts)
    chosen, thought_votes = _vote(ask, calls, "thought", usable, step=1)
    what = prompts.move_after_thought(usable[chosen], ask.structured)
    proposals = concurrently([
        ask.job(what, "move", f"step 2 · move {i + 1}", sample=10 + i, varied=True)
        for i in range(TOT_PROPOSALS)])
    calls += proposals
    moves = [ask.read(record) for record in proposals]
    distinct = list(dict.fromkeys(move.label for move in moves if move is not None))
    if not distinct:
        outcome = _from_answers(calls, proposals, votes=None)
        outcome.votes = {"thoughts": thought_votes}
        return outcome
    entries = [f"{label}\n{_reasons_for(label, proposals)}" for label in distinct]
    pick, move_votes = _vote(ask, calls, "move", entries, step=2)
    winner = distinct[pick]
    chosen_record = next(r for r in proposals if r.label == winner)
    return Outcome(Text(text=winner, source="llm"), raw=chosen_record.text,
                   reasoning=chosen_record.reasoning, calls=calls,
                   votes={"thoughts": thought_votes, "moves": move_votes, "winner": winner})


def reasoning_via_planning(ask: Ask, mode: str) -> Outcome:
    """RAP: MCTS over the model's proposals, predictions and judgements (at most
    ``rap.call_bound(mode)`` calls); the votes hold the search's summary."""
    depth, iterations = rap.settings(mode) or (planner.DEPTH, planner.ITERATIONS)
    bound = rap.call_bound(mode)
    model = rap.ModelOfTheGame(ask, bound=bound)
    plan = planner.Planner(model, depth=depth, iterations=iterations, max_calls=bound).plan("")
    votes = {**plan.summary(), "winner": plan.action, "judged_by": model.sources,
             "call_bound": bound}
    ask.emit("vote", "rap · plan", next(ask.streams), votes)
    if not model.calls:
        return Outcome(None, failure="cancelled", failure_detail=plan.stopped, votes=votes)
    proposal = model.calls[0]
    if plan.action is not None:
        return Outcome(Text(text=plan.action, source="llm"), raw=proposal.text,
                       reasoning=rap.explain(plan), calls=model.calls, votes=votes)
    if proposal.failure is None and model.first_lines:
        return Outcome(Text(text=model.first_lines[0], source="llm"), raw=proposal.text,
                       calls=model.calls, votes=votes)
    return _failed(model.calls, [proposal], votes)


# --- voting ------------------------------------------------------------------------------


def tally(moves: list[LegalMove | None]) -> dict[str, Any]:
    """Votes per legal move, and the winner: most votes, ties to the earliest sample."""
    counts = Counter(move.label for move in moves if move is not None)
    first: dict[str, int] = {}
    for i, move in enumerate(moves):
        if move is not None:
            first.setdefault(move.label, i)
    winner = min(counts, key=lambda label: (-counts[label], first[label])) if counts else None
    return {"votes": dict(counts), "winner": winner,
            "invalid": sum(move is None for move in moves)}


def _vote(ask: Ask, calls: list[CallRecord], kind: str, entries: list[str], *, step: int
          ) -> tuple[int, dict[str, Any]]:
    """Pick one of ``entries`` by TOT_VOTES votes (greedy: keep the most voted, ties to the
    first); no vote when there is only one."""
    if len(entries) == 1:
        return 0, {"skipped": "only one to choose from"}
    text = prompts.vote(kind, entries)
    ballots = concurrently([
        ask.job(text, "vote", f"step {step} · vote {i + 1}", sample=20 + 10 * step + i,
                varied=True, answer=False) for i in range(TOT_VOTES)])
    calls.extend(ballots)
    picks = [None if b.failure else prompts.read_vote(b.text, len(entries)) for b in ballots]
    for ballot, pick in zip(ballots, picks, strict=True):
        ballot.label = None if pick is None else f"{pick + 1}"
        if pick is None and ballot.failure is None:
            ballot.rejected = "no choice found"
        ask.finished(ballot)
    counts = Counter(p for p in picks if p is not None)
    chosen = min(range(len(entries)), key=lambda i: (-counts.get(i, 0), i))
    result = {"votes": {str(i + 1): counts.get(i, 0) for i in range(len(entries))},
              "winner": str(chosen + 1), "invalid": sum(p is None for p in picks)}
    ask.emit("vote", f"step {step} · vote", next(ask.streams), result)
    return chosen, result


def _reasons_for(label: str, proposals: list[CallRecord]) -> str:
    record = next(r for r in proposals if r.label == label)
    return record.text.strip()


# --- outcomes ----------------------------------------------------------------------------


def _from_answers(calls: list[CallRecord], answers: list[CallRecord],
                  votes: dict[str, Any] | None) -> Outcome:
    """The outcome of answer calls: the voted (or only) legal move, else the first answer
    for the adapter to reject with its reason, else the provider's failure."""
    winner = votes["winner"] if votes else next((a.label for a in answers if a.label), None)
    if winner is not None:
        chosen = next(a for a in answers if a.label == winner)
        proposal_text = winner if votes else chosen.text
        return Outcome(Text(text=proposal_text, source="llm"), raw=chosen.text,
                       reasoning=chosen.reasoning, calls=calls, votes=votes)
    spoken = [a for a in answers if a.failure is None]
    if spoken:
        return Outcome(Text(text=spoken[0].text, source="llm"), raw=spoken[0].text,
                       reasoning=spoken[0].reasoning, calls=calls, votes=votes)
    return _failed(calls, answers, votes)


def _failed(calls: list[CallRecord], answers: list[CallRecord],
            votes: dict[str, Any] | None = None) -> Outcome:
    first = answers[0]
    return Outcome(None, raw=first.text, reasoning=first.reasoning,
                   failure=first.failure or "empty", failure_detail=first.failure_detail,
                   calls=calls, votes=votes)


def concurrently(jobs: list[Callable[[], T]]) -> list[T]:
    """Run ``jobs`` at the same time; results in job order."""
    if len(jobs) == 1:
        return [jobs[0]()]
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = [pool.submit(job) for job in jobs]
        return [future.result() for future in futures]
