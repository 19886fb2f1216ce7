"""The LLM seat: builds the prompt from the seat's view, runs the reasoning mode, and returns
a decision with everything it cost.

An :class:`LLMAgent` is made by ``agents.specs.make_agent`` from a spec such as
``openai/gpt-4o-mini+cot`` (see ``agents.llm.providers``). One agent plays one seat of one
match. Its decision's ``meta`` holds ``usage`` (tokens, latency, estimated cost) and ``llm``
(the prompt, every call with its text, faults and the move the adapter read, and the votes),
which the match stores with the move or with the rejected attempt. A call's exact request is
``prompt.system`` as the system prompt, then the user turn ``prompt.context`` + "## What to
answer" + the call's ``instruction``, then, for calls that answer with a move, each earlier
rejected answer and the message sent back (``prompt.retry``).

A decision has one deadline, ``budget.turn_seconds`` after it began: when the match asks
again after a rejected answer (``feedback``), the same deadline holds, and a re-ask with no
time left returns at once with failure ``timeout``. :attr:`LLMAgent.deadline` tells a page
how long the seat may still take. Every key the process holds (``keys``) is blanked in what
the provider sends before it is emitted or recorded.
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from agents.base import Decision, SeatView
from agents.llm import modes, prompts
from agents.llm.calls import Budget, Caller, CallRecord
from agents.llm.chat import Chat
from agents.llm.config import Opponent
from agents.llm.events import EventSink, LLMEvent, emitter
from agents.llm.usage import Usage, cost
from renderers import png, renderer_for

SAMPLE_TEMPERATURE = 0.7
_NO_ANSWER = ("api_error", "timeout", "cancelled", "too_long")
_log = logging.getLogger(__name__)


class LLMAgent:
    """A language model playing one seat.

    ``reasoning`` is one of ``prompt``, ``cot``, ``sc-cot``, ``tot``, ``rap[:D:N]``; ``structured`` asks for
    JSON answers; ``vision`` sends the board image (when the game's renderer draws one).
    """

    def __init__(self, chat: Chat, opponent: Opponent, *, entity: str, reasoning: str,
                 structured: bool = False, vision: bool = False, seed: int = 0,
                 budget: Budget | None = None, on_event: EventSink | None = None,
                 keys: Callable[[], Iterable[str]] = tuple) -> None:
        if modes.base(reasoning) is None:
            raise ValueError(f"unknown reasoning mode {reasoning!r}; "
                             f"modes: {', '.join(modes.REASONING)}")
        self.chat = chat
        self.opponent = opponent
        self.entity = entity
        self.reasoning = reasoning
        self.structured = structured
        self.vision = vision
        self.seed = seed
        self.budget = budget or Budget()
        self.usage = Usage()
        """Everything this seat's calls cost so far in the session."""
        self._emit = emitter(on_event)
        self._rng = random.Random(seed)
        self._cancelled = threading.Event()
        self._decisions = 0
        self._retry: list[tuple[str, str]] = []
        self._last_answer = ""
        self._keys = keys
        self._deadline: float | None = None
        self._caller: Caller | None = None

    # --- the Agent protocol ------------------------------------------------------------

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        started = time.monotonic()
        self._decisions += 1
        if feedback is None or self._deadline is None:
            self._retry = []
            self._deadline = started + self.budget.turn_seconds
        elif self._last_answer:  # show the model what it said and why it was refused
            self._retry.append((self._last_answer, feedback))
        deadline = self._deadline
        if started >= deadline:
            return self._out_of_time()
        try:
            return self._decide(view, started, deadline)
        finally:
            self._caller = None

    def _decide(self, view: SeatView, started: float, deadline: float) -> Decision:
        image, image_note = self._image(view)
        where = prompts.position(view, image=image is not None)
        self._emit(LLMEvent("start", view.seat, data={
            "entity": self.entity, "mode": self.reasoning, "structured": self.structured,
            "retry": len(self._retry), "image": image is not None,
            "streams": modes.planned_streams(self.reasoning),
            "seconds_left": round(deadline - started, 3)}))  # of the move's time limit
        self._caller = Caller(self.chat, self.budget, seat=view.seat, emit=self._emit,
                              rng=self._rng, cancelled=self._cancelled, deadline=deadline,
                              keys=self._keys())
        ask = modes.Ask(
            caller=self._caller,
            view=view, where=where, structured=self.structured, image=image,
            retry=tuple(self._retry), max_tokens=self.opponent.max_tokens,
            temperature=self.opponent.temperature,
            sample_temperature=None if self.opponent.temperature is None else SAMPLE_TEMPERATURE,
            seed=(self.seed + 7919 * self._decisions) % 2**31,
        )
        outcome = modes.decide(self.reasoning, ask)
        seconds = time.monotonic() - started
        spent = self._spent(outcome.calls, seconds)
        self.usage.add(spent)
        self._last_answer = "" if outcome.failure in _NO_ANSWER else outcome.raw
        meta = self._meta(ask, outcome, spent, image, image_note)
        label = outcome.votes.get("winner") if outcome.votes else None
        self._emit(LLMEvent("decision", view.seat, data={
            "label": label or _first_label(outcome.calls), "failure": outcome.failure,
            **spent.to_dict()}))
        return Decision(outcome.proposal, raw=outcome.raw, reasoning=outcome.reasoning,
                        seconds=seconds, failure=outcome.failure, meta=meta)

    def _out_of_time(self) -> Decision:
        detail = (f"no time left of the {self.budget.turn_seconds:g} s time limit for this "
                  "move")
        return Decision(None, failure="timeout", meta={"failure_detail": detail})

    # --- controls for the page ---------------------------------------------------------

    @property
    def deadline(self) -> float | None:
        """When the decision in progress ends at the latest (``time.monotonic``): its time
        limit, or sooner while the provider has sent nothing (the first-token timeout);
        None when the seat is not deciding."""
        caller = self._caller
        return None if caller is None else caller.gives_up_at()

    @property
    def silence_seconds(self) -> float:
        """How long a decision that has not heard from the provider yet lasts at most: the
        first-token timeout, or the move's time limit when shorter (a page counts down from
        it while the seat is asked but has not begun its first request)."""
        return min(self.budget.first_token_seconds, self.budget.turn_seconds)

    def cancel(self) -> None:
        """Stop thinking: a stream in flight is closed within a tenth of a second (a
        request still waiting for its response ends at its network timeout), and later
        decisions return at once with failure ``cancelled`` (the page ends the match)."""
        self._cancelled.set()

    def settings(self) -> dict[str, Any]:
        """How this seat is configured, for the seat record (no key, no key value)."""
        entry = self.opponent
        return {"provider": entry.provider, "model": entry.model, "reasoning": self.reasoning,
                "structured": self.structured, "vision": self.vision,
                "temperature": entry.temperature, "max_tokens": entry.max_tokens,
                "base_url": entry.base_url, "opponent": entry.id,
                "price_input_per_mtok": entry.price_input,
                "price_output_per_mtok": entry.price_output,
                "turn_seconds": self.budget.turn_seconds}

    # --- internals ---------------------------------------------------------------------

    def _image(self, view: SeatView) -> tuple[bytes | None, str]:
        if not self.vision:
            return None, "text only"
        draw = renderer_for(view.game.id).image
        try:  # the seat's board, encoded as the page encodes the one the person sees
            encoded = png(draw(view.state, view.seat))
        except Exception as err:  # a drawing bug must not cost the model its move
            _log.warning("no board image for %s: %s", view.game.id, err)
            return None, f"the board image failed: {type(err).__name__}"
        return encoded, "sent"

    def _spent(self, calls: list[CallRecord], seconds: float) -> Usage:
        prompt_tokens = sum(c.prompt_tokens for c in calls)
        completion_tokens = sum(c.completion_tokens for c in calls)
        return Usage(prompt_tokens, completion_tokens, len(calls), seconds,
                     cost(self.opponent, prompt_tokens, completion_tokens),
                     any(c.estimated for c in calls))

    def _meta(self, ask: modes.Ask, outcome: modes.Outcome, spent: Usage,
              image: bytes | None, image_note: str) -> dict[str, Any]:
        llm: dict[str, Any] = {
            "entity": self.entity, "provider": self.chat.provider, "model": self.chat.model,
            "reasoning": self.reasoning, "structured": self.structured,
            "image": ({"sha256": hashlib.sha256(image).hexdigest(), "bytes": len(image)}
                      if image is not None else {"sent": False, "why": image_note}),
            "retry": len(ask.retry),
            "prompt": {"system": ask.where.system, "context": ask.where.context,
                       "retry": [list(pair) for pair in ask.retry]},
            "calls": [call.to_dict() for call in outcome.calls],
        }
        if outcome.votes is not None:
            llm["votes"] = outcome.votes
        meta: dict[str, Any] = {"usage": spent.to_dict(), "llm": llm}
        if outcome.failure:
            meta["failure_detail"] = outcome.failure_detail or outcome.failure
        return meta


def _first_label(calls: list[CallRecord]) -> str | None:
    return next((c.label for c in calls if c.label), None)
