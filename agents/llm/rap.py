"""RAP as a reasoning mode: the model proposes, predicts and judges; MCTS plans.

Mode ``rap`` (depth 2, 10 iterations: GameBench's defaults) or ``rap:DEPTH:ITERATIONS``. The
search is :mod:`agents.llm.planner`; here the model plays its three parts, each one call
made through the decision's :class:`~agents.llm.calls.Caller` (so the decision's time budget,
retries, cancellation, usage and the thinking panel's streams apply to every call):

- **propose**: at the real position, "list up to 3 candidate moves, one per line"; each line
  is read by the legal-action adapter and only legal moves are kept. Below the root the
  positions are the model's own predictions, so its candidates there are kept as written.
- **predict**: "you play X: predict the other players' replies and the position after them"
  (``<others>…</others>`` and ``<state>…</state>``; the whole answer if the tags are missing).
- **judge**: "after X and those replies, are you more likely to win than to lose?" Where the
  provider returns log-probabilities (OpenAI and compatible servers that support them) the
  answer is one token and the reward is 2·P(yes) − 1 from the top log-probabilities, as
  GameBench did; otherwise (Anthropic, servers without them) the model scores its chances
  0–10 and the reward is score/5 − 1. Each judgement records which it was.

GameBench summed three signals per action (an intuition from the proposal's log-probability,
a self-evaluation and the win probability); RAP here asks one question per edge, the last
of these, which bounds a decision at :func:`planner.call_bound` calls (28 at the defaults).
The chosen root move goes to the adapter again when the match applies it; if the model
proposes no legal move at all, its first line is submitted so the adapter's rejection (and
the engine's re-ask with that message) works as in every other mode.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from agents.llm import planner
from agents.llm.calls import CallRecord
from games.actions import MoveError, Text, resolve

NAME = "rap"
_SETTINGS = re.compile(r"^rap(?::(\d+):(\d+))?$")
MAX_DEPTH = 4
MAX_ITERATIONS = 50
JUDGE_TOKENS = 4
"""Tokens for a yes/no judgement read from log-probabilities (the first one is read)."""

PROPOSE = (
    "List up to {branching} different moves worth considering now, the most promising "
    "first, one per line, each written exactly as in the list of legal moves. Write the "
    "moves only."
)
PROPOSE_PREDICTED = (
    "Suppose the game goes on like this:\n{path}\n\nYou are to move again. List up to "
    "{branching} moves you could then make, the most promising first, one per line. Write "
    "the moves only."
)
PREDICT = (
    "{path}\n\nPredict what the other players do in reply, and describe the position that "
    "follows as you would then see it. Answer in exactly this form:\n"
    "<others>their replies</others>\n<state>the position after them</state>"
)
JUDGE_YES_NO = (
    "{path}\n\nAfter this, are you more likely to win the game than to lose it? Answer with "
    "one word: yes or no."
)
JUDGE_SCORE = (
    "{path}\n\nAfter this, how likely are you to win the game? Answer with one whole number "
    "from 0 (a sure loss) to 10 (a sure win) and nothing else."
)
_TAG = re.compile(r"<state>(.*?)(?:</state>|$)", re.IGNORECASE | re.DOTALL)
_NUMBER = re.compile(r"\b(10|[0-9])\b")


def settings(mode: str) -> tuple[int, int] | None:
    """(depth, iterations) of a RAP mode (``rap`` → the defaults), None for other modes;
    out-of-range settings are a ValueError naming the limits."""
    found = _SETTINGS.match(mode)
    if found is None:
        return None
    depth = int(found[1] or planner.DEPTH)
    iterations = int(found[2] or planner.ITERATIONS)
    if not (1 <= depth <= MAX_DEPTH and 1 <= iterations <= MAX_ITERATIONS):
        raise ValueError(f"rap:{depth}:{iterations}: RAP takes a depth of 1-{MAX_DEPTH} and "
                         f"1-{MAX_ITERATIONS} iterations (rap = rap:{planner.DEPTH}:"
                         f"{planner.ITERATIONS})")
    return depth, iterations


def canonical(mode: str) -> str:
    """``rap`` → ``rap:2:10``: the entity names the search it plays."""
    depth, iterations = settings(mode) or (planner.DEPTH, planner.ITERATIONS)
    return f"rap:{depth}:{iterations}"


def planned_streams(mode: str) -> list[str]:
    """Every stream a decision may open, in order: one per call, each named with the bound
    (the thinking panel shows "rap · call 3 of at most 28")."""
    bound = call_bound(mode)
    return [stream_name(i, bound) for i in range(bound)]


def stream_name(index: int, bound: int) -> str:
    return f"rap · call {index + 1} of at most {bound}"


def call_bound(mode: str) -> int:
    depth, _ = settings(mode) or (planner.DEPTH, planner.ITERATIONS)
    return planner.call_bound(depth, planner.BRANCHING)


@dataclass
class ModelOfTheGame:
    """The three parts, asked through a mode's :class:`~agents.llm.modes.Ask`."""

    ask: Any
    """``agents.llm.modes.Ask`` (not imported: modes imports this module)."""
    bound: int = planner.call_bound()
    """The most calls the decision may make (named in each call's stream)."""
    calls: list[CallRecord] = field(default_factory=list)
    sources: dict[str, int] = field(default_factory=dict)
    """How judgements were read: ``logprobs``, ``yes/no text`` or ``score``."""
    first_lines: list[str] = field(default_factory=list)

    def propose(self, position: str, depth: int) -> list[str]:
        record = self._call(propose_instruction(position, depth), "propose", max_tokens=None)
        lines = [line.strip(" -*•\t") for line in record.text.splitlines() if line.strip()]
        if depth > 0:
            record.label = " | ".join(lines[: planner.BRANCHING]) or None
            self.ask.finished(record)
            return lines[: planner.BRANCHING]
        self.first_lines = self.first_lines or lines[:1]
        legal: list[str] = []
        for line in lines:
            try:
                move = resolve(self.ask.view.game, self.ask.view.state, self.ask.view.seat,
                               Text(text=line, source="llm"))
            except MoveError:
                continue
            if move.label not in legal:
                legal.append(move.label)
            if len(legal) == planner.BRANCHING:
                break
        record.label = " | ".join(legal) or None
        if not legal and record.failure is None:
            record.rejected = "no legal move among the candidates"
        self.ask.finished(record)
        return legal

    def predict(self, position: str, action: str) -> str:
        record = self._call(predict_instruction(position, action), "predict", max_tokens=None)
        self.ask.finished(record)
        found = _TAG.search(record.text)
        state = (found[1] if found else record.text).strip() or "(no prediction)"
        return _path(position, f"You play: {action}\nThen: {_others(record.text)}\n"
                               f"Position: {state}")

    def judge(self, position: str, action: str, after: str) -> float:
        if getattr(self.ask.caller.chat, "logprobs", False):
            record = self._call(judge_instruction(after, logprobs=True), "judge",
                                max_tokens=JUDGE_TOKENS, logprobs=True)
            reward, source = _yes_no(record)
        else:
            record = self._call(judge_instruction(after, logprobs=False), "judge",
                                max_tokens=8)
            reward, source = _score(record.text)
        record.label = f"{reward:+.2f} ({source})"
        self.sources[source] = self.sources.get(source, 0) + 1
        self.ask.finished(record)
        return reward

    def _call(self, what: str, purpose: str, *, max_tokens: int | None,
              logprobs: bool = False) -> CallRecord:
        if self.ask.caller.remaining() <= 0 or self.ask.caller.cancelled.is_set():
            raise planner.OutOfCalls("the decision's time budget was spent")
        ask = self.ask
        index = next(ask.streams)
        request = replace(ask.request(what, sample=index, answer=False),
                          max_tokens=max_tokens or ask.max_tokens, logprobs=logprobs)
        record = ask.caller.call(request, purpose=f"rap {purpose}",
                                 stream=stream_name(index, self.bound), index=index)
        record.instruction = what
        self.calls.append(record)
        if record.failure in ("timeout", "cancelled"):
            raise planner.OutOfCalls(record.failure_detail or record.failure)
        return record


def propose_instruction(position: str, depth: int) -> str:
    """Ask for candidate moves: at the real position (depth 0), or after a predicted path."""
    if depth == 0:
        return PROPOSE.format(branching=planner.BRANCHING)
    return PROPOSE_PREDICTED.format(path=position, branching=planner.BRANCHING)


def predict_instruction(position: str, action: str) -> str:
    """Ask what the others reply to ``action`` and what position follows."""
    return PREDICT.format(path=_path(position, f"You play: {action}"))


def judge_instruction(after: str, *, logprobs: bool) -> str:
    """Ask how good the path ``after`` is: yes/no (read by log-probabilities) or 0-10."""
    return (JUDGE_YES_NO if logprobs else JUDGE_SCORE).format(path=after)


def explain(plan: planner.Plan) -> str:
    """The search in words: each candidate with its visits, mean return, the model's
    judgement and what it predicted (the seat's reasoning, shown when the rules allow)."""
    lines = [f"RAP searched {plan.iterations} iteration(s) with {plan.calls} model call(s)"
             + (f"; stopped early: {plan.stopped}" if plan.stopped else "") + "."]
    for edge in plan.root.edges or []:
        judged = "not judged" if edge.reward is None else f"judged {edge.reward:+.2f}"
        lines.append(f"- {edge.action}: {edge.visits} visit(s), mean return {edge.value:+.2f}, "
                     f"{judged}")
        if edge.child is not None:
            predicted = edge.child.position.split("Position:", 1)[-1].strip()
            lines.append(f"  predicted: {predicted[:300]}")
    lines.append(f"Chosen: {plan.action}" if plan.action else "No legal move was proposed.")
    return "\n".join(lines)


def _path(position: str, step: str) -> str:
    return f"{position}\n\n{step}" if position else step


def _others(text: str) -> str:
    found = re.search(r"<others>(.*?)(?:</others>|$)", text, re.IGNORECASE | re.DOTALL)
    return (found[1] if found else "").strip() or "(not predicted)"


def _yes_no(record: CallRecord) -> tuple[float, str]:
    """2·P(yes) − 1 from the first token's top log-probabilities, else from the word."""
    yes = no = 0.0
    for token, logprob in record.top_logprobs:
        word = token.strip().lower()
        if word.startswith("yes"):
            yes += math.exp(logprob)
        elif word.startswith("no"):
            no += math.exp(logprob)
    if yes + no > 0:
        return 2 * yes / (yes + no) - 1, "logprobs"
    word = record.text.strip().lower()
    if word.startswith("yes"):
        return 0.5, "yes/no text"
    if word.startswith("no"):
        return -0.5, "yes/no text"
    return 0.0, "yes/no text"


def _score(text: str) -> tuple[float, str]:
    found = _NUMBER.search(text)
    return (int(found[1]) / 5 - 1 if found else 0.0), "score"
