"""Making calls within a time budget: retries with exponential backoff and jitter.

A decision gets one :class:`Budget`: every call it makes, and every retry of those calls,
must end before its deadline, so a person is never left waiting longer than
``turn_seconds`` (plus one network timeout at most) for a move. Provider faults that may
pass (timeouts, 408/409/429/5xx, dropped connections, malformed bodies, cut streams) are
retried after ``Retry-After`` when the server sends one, else after an exponentially growing,
jittered pause; other faults (a wrong key, an unknown model) are not retried. Every try that
failed is kept in the :class:`CallRecord` with its reason.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from agents.llm.chat import Chat, ChatRequest, Completion, ProviderFault, Stopped
from agents.llm.events import Channel, EventSink, LLMEvent
from agents.llm.usage import estimate_tokens


@dataclass(frozen=True)
class Budget:
    """Time limits of one decision (seconds) and the retry schedule of each call."""

    turn_seconds: float = 180.0
    request_timeout: float = 60.0
    max_tries: int = 4
    backoff_base: float = 1.0
    backoff_max: float = 20.0

    def backoff(self, tries: int, rng: random.Random) -> float:
        """The pause after the ``tries``-th failed try: base·2^(tries-1), capped, jittered
        to between half and all of it (so concurrent samples do not retry in step)."""
        ceiling = min(self.backoff_max, self.backoff_base * 2 ** (tries - 1))
        return ceiling * (0.5 + 0.5 * rng.random())


@dataclass
class CallRecord:
    """One logical call (all its tries) as recorded with the move."""

    purpose: str
    stream: str
    index: int = 0
    instruction: str = ""
    """The instruction this call ended its prompt with (the rest is the decision's prompt)."""
    text: str = ""
    reasoning: str = ""
    finish: str | None = None
    failure: str | None = None
    failure_detail: str = ""
    faults: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False
    seconds: float = 0.0
    label: str | None = None
    rejected: str | None = None
    top_logprobs: list[tuple[str, float]] = field(default_factory=list)
    """The first token's top log-probabilities, when the request asked for them."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {name: value for name, value in data.items() if value not in (None, "", [])}


class Caller:
    """Makes the calls of one decision for one seat, emitting events as it goes."""

    def __init__(self, chat: Chat, budget: Budget, *, seat: int, emit: EventSink,
                 rng: random.Random, cancelled: threading.Event) -> None:
        self.chat = chat
        self.budget = budget
        self.seat = seat
        self.emit = emit
        self.rng = rng
        self.cancelled = cancelled
        self.deadline = time.monotonic() + budget.turn_seconds

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def call(self, request: ChatRequest, *, purpose: str, stream: str, index: int
             ) -> CallRecord:
        record = CallRecord(purpose=purpose, stream=stream, index=index)
        started = time.monotonic()
        self._event("call", stream, index, data={"purpose": purpose})
        tries = 0
        while True:
            tries += 1
            if self.cancelled.is_set():
                self._give_up(record, "cancelled", self._stopped_detail("cancelled"), stream,
                              index)
                break
            try:
                completion = self.chat.stream(
                    request, on_token=self._on_token(stream, index),
                    timeout=max(0.05, min(self.budget.request_timeout, self.remaining())),
                    keep_going=self._keep_going)
            except Stopped as stop:
                self._give_up(record, stop.why, self._stopped_detail(stop.why), stream, index)
                break
            except ProviderFault as fault:
                record.text = fault.partial or record.text
                if not self._retry(record, fault, tries, stream, index):
                    break
                continue
            self._fill(record, request, completion)
            break
        record.seconds = time.monotonic() - started
        return record

    # --- internals ------------------------------------------------------------------------

    def _retry(self, record: CallRecord, fault: ProviderFault, tries: int, stream: str,
               index: int) -> bool:
        """Wait before the next try and say whether to make it."""
        wait = fault.retry_after if fault.retry_after is not None \
            else self.budget.backoff(tries, self.rng)
        entry = {"reason": fault.reason, "detail": fault.detail, "try": tries}
        left = self.remaining()
        why_not = None
        if not fault.retryable:
            why_not = "not retryable"
        elif tries >= self.budget.max_tries:
            why_not = f"gave up after {tries} tries"
        elif wait >= left:
            why_not = f"a {wait:.1f} s wait would pass the time limit ({max(left, 0):.1f} s left)"
        if why_not is not None:
            record.faults.append(entry)
            self._give_up(record, fault.reason, f"{fault.detail}; {why_not}", stream, index)
            return False
        entry["wait"] = round(wait, 3)
        record.faults.append(entry)
        self._event("fault", stream, index, text=fault.detail,
                    data={"reason": fault.reason, "wait": round(wait, 3), "try": tries})
        if self.cancelled.wait(wait):
            self._give_up(record, "cancelled", "the seat was stopped", stream, index)
            return False
        self._event("restart", stream, index, data={"try": tries + 1})
        return True

    def _give_up(self, record: CallRecord, reason: str, detail: str, stream: str,
                 index: int) -> None:
        record.failure = reason
        record.failure_detail = detail
        self._event("fault", stream, index, text=detail, data={"reason": reason, "gave_up": True})

    def _fill(self, record: CallRecord, request: ChatRequest, completion: Completion) -> None:
        record.text = completion.text
        record.reasoning = completion.reasoning
        record.finish = completion.finish
        record.top_logprobs = list(completion.top_logprobs)
        if completion.finish == "length":
            record.failure = "truncated"
            record.failure_detail = (f"the answer was cut off at the {request.max_tokens}-token "
                                     "limit before it named a move")
        if completion.prompt_tokens is None:
            record.estimated = True
            words = request.system + "".join(turn.text for turn in request.turns)
            record.prompt_tokens = estimate_tokens(words)
        else:
            record.prompt_tokens = completion.prompt_tokens
        if completion.completion_tokens is None:
            record.estimated = True
            record.completion_tokens = estimate_tokens(completion.text + completion.reasoning)
        else:
            record.completion_tokens = completion.completion_tokens

    def _keep_going(self) -> None:
        if self.cancelled.is_set():
            raise Stopped("cancelled")
        if time.monotonic() > self.deadline:
            raise Stopped("timeout")

    def _stopped_detail(self, why: str) -> str:
        if why == "cancelled":
            return "the seat was stopped"
        return f"no complete answer within the {self.budget.turn_seconds:g} s time limit"

    def _on_token(self, stream: str, index: int) -> Callable[[Channel, str], None]:
        def on_token(channel: Channel, text: str) -> None:
            self._event("token", stream, index, channel=channel, text=text)
        return on_token

    def _event(self, kind: str, stream: str, index: int, *, channel: Channel = "answer",
               text: str = "", data: dict[str, Any] | None = None) -> None:
        self.emit(LLMEvent(kind, self.seat, stream, index, channel, text,  # type: ignore[arg-type]
                           data or {}))
