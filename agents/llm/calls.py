"""Making calls within a time budget: retries with exponential backoff and jitter.

A decision gets one deadline, ``turn_seconds`` after it began: every call it makes, every
retry of those calls and every pause between them, and the match's re-asks after a rejected
answer (``LLMAgent`` keeps the deadline across them), must end before it; a call still
running then is cut off. A provider that sends no text for ``first_token_seconds`` after a
try began is silent: the try is a ``timeout`` at once and is not tried again (the HTTP
timeout ends a response that never begins; a watchdog closes a stream that begins but
carries no text, and a stream whose seat is stopped). Other faults that may pass (a stall
after text arrived, 408/409/429/5xx, dropped connections, malformed bodies, cut streams) are
retried after ``Retry-After`` when the server sends one, else after an exponentially
growing, jittered pause; a wrong key or an unknown model is not retried. Every try that
failed is kept in the :class:`CallRecord` with its reason.

Everything the provider sends — streamed pieces, the answer, the reasoning, error texts —
has every key the process holds blanked (``agents.llm.redaction``) before it is emitted or
recorded. A call stops reading once its answer passes the longest answer the adapter reads
(``too_long``) or its reasoning passes ``MAX_REASONING_CHARS``.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from agents.llm.chat import Chat, ChatRequest, Completion, ProviderFault, Stopped
from agents.llm.events import Channel, EventSink, LLMEvent
from agents.llm.redaction import Redactor, StreamCleaner, redact
from agents.llm.usage import estimate_tokens
from games.actions import MAX_LLM_CHARS, clip_text

MAX_REASONING_CHARS = 8 * MAX_LLM_CHARS
"""A call whose reasoning passes this many characters is stopped (``too_long``)."""
_WATCH_POLL = 0.1


@dataclass(frozen=True)
class Budget:
    """Time limits of one decision (seconds) and the retry schedule of each call."""

    turn_seconds: float = 180.0
    """The whole decision, the match's re-asks after rejected answers included."""
    request_timeout: float = 30.0
    """Each network wait: connecting, sending, every read."""
    first_token_seconds: float = 30.0
    """A try with no text this long after it began is a timeout, not tried again."""
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
        """The call as recorded: texts past the longest the adapter reads are cut, with
        their length and the SHA-256 of the rest under ``cut``."""
        data = asdict(self)
        for name in ("text", "reasoning"):
            data[name], cut = clip_text(data[name])
            if cut is not None:
                data.setdefault("cut", {})[name] = cut
        return {name: value for name, value in data.items() if value not in (None, "", [])}


class Caller:
    """Makes the calls of one decision for one seat, emitting events as it goes.

    ``deadline`` (``time.monotonic``) is the decision's; ``keys`` are blanked in everything
    the provider sends."""

    def __init__(self, chat: Chat, budget: Budget, *, seat: int, emit: EventSink,
                 rng: random.Random, cancelled: threading.Event, deadline: float | None = None,
                 keys: Iterable[str] = ()) -> None:
        self.chat = chat
        self.budget = budget
        self.seat = seat
        self.emit = emit
        self.rng = rng
        self.cancelled = cancelled
        self.deadline = time.monotonic() + budget.turn_seconds if deadline is None else deadline
        self.redactor = Redactor(keys)
        self._watches: set[_Watch] = set()
        self._watches_lock = threading.Lock()

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def gives_up_at(self) -> float:
        """When this decision ends at the latest (``time.monotonic``): its deadline, or
        sooner while every request in flight is still silent (their first-token timeout) or
        none is in flight yet (the next one's)."""
        with self._watches_lock:
            if not self._watches:  # between requests: the next one gets the same silence limit
                return min(self.deadline, time.monotonic() + self.budget.first_token_seconds)
            silent = [w.quiet_until for w in self._watches if not w.heard]
            waiting = len(silent) == len(self._watches)
        return min(self.deadline, max(silent)) if waiting else self.deadline

    def call(self, request: ChatRequest, *, purpose: str, stream: str, index: int
             ) -> CallRecord:
        record = CallRecord(purpose=purpose, stream=stream, index=index)
        started = time.monotonic()
        self._event("call", stream, index, data={"purpose": purpose})
        tries = 0
        while True:
            tries += 1
            stop = "cancelled" if self.cancelled.is_set() else \
                "timeout" if self.remaining() <= 0 else None
            if stop is not None:
                self._give_up(record, stop, self._stopped_detail(stop), stream, index)
                break
            try:
                completion = self._try(request, stream, index)
            except Stopped as stopped:
                self._give_up(record, stopped.why, self._stopped_detail(stopped.why), stream,
                              index)
                break
            except ProviderFault as fault:
                record.text = self.redactor.text(fault.partial) or record.text
                if not self._retry(record, fault, tries, stream, index):
                    break
                continue
            self._fill(record, request, completion)
            break
        record.seconds = time.monotonic() - started
        return record

    # --- one try ------------------------------------------------------------------------

    def _try(self, request: ChatRequest, stream: str, index: int) -> Completion:
        """One request to the provider, watched; raises ProviderFault or Stopped."""
        watch = _Watch(self, time.monotonic() + self.budget.first_token_seconds)
        cleaners: dict[Channel, StreamCleaner] = {"answer": self.redactor.stream(),
                                                  "reasoning": self.redactor.stream()}
        received = {"answer": 0, "reasoning": 0}

        def on_token(channel: Channel, piece: str) -> None:
            watch.heard = True
            received[channel] += len(piece)
            limit = MAX_LLM_CHARS if channel == "answer" else MAX_REASONING_CHARS
            if received[channel] > limit:
                raise ProviderFault("too_long", f"the {channel} passed {limit:,} characters "
                                    "(the most that is read); the call was stopped",
                                    retryable=False)
            self._shown(cleaners[channel], channel, piece, stream, index)

        def keep_going() -> None:
            self._keep_going()
            if watch.silent():
                raise watch.fault()

        timeout = max(0.05, min(self.budget.request_timeout, self.budget.first_token_seconds,
                                self.remaining()))
        with self._watches_lock:
            self._watches.add(watch)
        try:
            return self.chat.stream(request, on_token=on_token, timeout=timeout,
                                    keep_going=keep_going, on_open=watch.opened)
        except (ProviderFault, Stopped) as failed:
            why = watch.stop() or self._timed_out(failed, watch)
            if why is not None:
                raise watch.ended(why) from None
            raise
        except Exception:
            why = watch.stop()
            if why is None:
                raise  # a bug, not the watchdog closing the stream
            raise watch.ended(why) from None
        finally:
            watch.stop()
            with self._watches_lock:
                self._watches.discard(watch)
            for channel, cleaner in cleaners.items():
                self._shown(cleaner, channel, None, stream, index)

    def _timed_out(self, failed: Exception, watch: _Watch) -> str | None:
        """Why an HTTP timeout happened: the decision's time ran out, or no text came
        within the silence limit (None: a stall after text, which may be retried)."""
        if not isinstance(failed, ProviderFault) or failed.reason != "timeout":
            return None
        if self.remaining() <= 0.05:
            return "deadline"
        if not watch.heard and time.monotonic() - watch.started >= \
                self.budget.first_token_seconds - 0.05:
            return "silent"
        return None

    def _shown(self, cleaner: StreamCleaner, channel: Channel, piece: str | None, stream: str,
               index: int) -> None:
        text = cleaner.flush() if piece is None else cleaner.feed(piece)
        if text:
            self._event("token", stream, index, channel=channel, text=text)

    # --- internals ------------------------------------------------------------------------

    def _retry(self, record: CallRecord, fault: ProviderFault, tries: int, stream: str,
               index: int) -> bool:
        """Wait before the next try and say whether to make it."""
        wait = fault.retry_after if fault.retry_after is not None \
            else self.budget.backoff(tries, self.rng)
        detail = redact(fault.detail, self.redactor.keys)
        entry = {"reason": fault.reason, "detail": detail, "try": tries}
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
            self._give_up(record, fault.reason, f"{detail}; {why_not}", stream, index)
            return False
        entry["wait"] = round(wait, 3)
        record.faults.append(entry)
        self._event("fault", stream, index, text=detail,
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
        record.text = self.redactor.text(completion.text)
        record.reasoning = self.redactor.text(completion.reasoning)
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

    def _event(self, kind: str, stream: str, index: int, *, channel: Channel = "answer",
               text: str = "", data: dict[str, Any] | None = None) -> None:
        self.emit(LLMEvent(kind, self.seat, stream, index, channel, text,  # type: ignore[arg-type]
                           data or {}))


class _Watch:
    """The watchdog of one try: once the response has begun, it closes the stream when the
    seat is stopped, when the decision's deadline passes, or when no text has come by the
    try's silence limit (a stream of keep-alives only). Before the response begins the HTTP
    timeout does the same (it is never longer than the silence limit or the time left)."""

    def __init__(self, caller: Caller, quiet_until: float) -> None:
        self.caller = caller
        self.quiet_until = quiet_until
        self.started = time.monotonic()
        self.heard = False
        self.why: str | None = None
        self._close: Callable[[], None] | None = None
        self._done = threading.Event()
        self._lock = threading.Lock()

    def opened(self, close: Callable[[], None]) -> None:
        self._close = close
        threading.Thread(target=self._run, name="llm-watch", daemon=True).start()

    def silent(self) -> bool:
        return not self.heard and time.monotonic() >= self.quiet_until

    def stop(self) -> str | None:
        """End the watch; why it closed the stream, if it did."""
        self._done.set()
        with self._lock:
            return self.why

    def ended(self, why: str) -> Exception:
        """What a try the watchdog ended (or the HTTP timeout, for ``timeout``) raises."""
        if why == "silent":
            return self.fault()
        return Stopped("cancelled" if why == "cancelled" else "timeout")

    def fault(self) -> ProviderFault:
        seconds = self.caller.budget.first_token_seconds
        return ProviderFault("timeout", f"the provider sent no text for {seconds:g} s "
                             "(first-token timeout)", retryable=False)

    def _due(self) -> str | None:
        if self.caller.cancelled.is_set():
            return "cancelled"
        if time.monotonic() >= self.caller.deadline:
            return "deadline"
        return "silent" if self.silent() else None

    def _run(self) -> None:
        while not self._done.wait(_WATCH_POLL):
            why = self._due()
            if why is None:
                continue
            with self._lock:
                if self._done.is_set():
                    return
                self.why = why
            try:
                if self._close is not None:
                    self._close()
            except Exception:  # noqa: BLE001 - closing a stream that is ending anyway
                pass
            return
