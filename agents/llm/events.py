"""What an LLM seat reports while it decides: the hook behind the page's "thinking" panel.

Pass ``on_event=callback`` to ``agents.specs.make_agent`` (or to :class:`LLMAgent`). The
callback receives one :class:`LLMEvent` at a time:

``start``     a decision begins (``data``: entity, mode, ``retry`` = how many times this
              move was asked again after a rejection, ``streams`` = the streams planned)
``call``      a request to the provider begins on ``stream`` (``data``: purpose)
``token``     text arrived on ``stream``; ``channel`` is ``reasoning`` (a provider's thinking
              channel) or ``answer`` (the visible answer, which holds the chain of thought in
              CoT modes); ``text`` is the new piece only
``fault``     the provider failed (``text``: what happened, with no secrets; ``data``:
              reason ``api_error``/``timeout``/``truncated``, ``wait`` seconds before the
              next try, or ``gave_up`` = True)
``restart``   ``stream`` is being retried from scratch: drop the text shown for it so far
``result``    a call ended (``data``: finish, tokens, seconds, ``label`` = the legal move the
              adapter read from it or None, ``rejected`` = the adapter's reason)
``vote``      a vote was counted (``data``: ``votes`` {label: count}, ``winner``)
``decision``  the decision is made (``data``: label or None, failure, prompt/completion
              tokens, cost in USD or None, seconds)

``stream`` names where text goes: ``answer`` for one-call modes, ``sample 1/5`` … ``sample
5/5`` for SC-CoT, ``step 1 · thought 2`` / ``step 1 · vote 3`` / ``step 2 · move 1`` for
ToT; ``index`` is its position among the streams of this decision (stable, from 0).

The callback runs on the agent's worker threads (SC-CoT samples stream concurrently), so it
must be thread-safe and quick: put events on a ``queue.Queue`` and let the page drain it.
An exception in the callback is logged and ignored; it never breaks the agent. Events never
carry API keys.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

EventKind = Literal["start", "call", "token", "fault", "restart", "result", "vote", "decision"]
Channel = Literal["reasoning", "answer"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LLMEvent:
    """One thing an LLM seat did while deciding a move."""

    kind: EventKind
    seat: int
    stream: str = ""
    index: int = 0
    channel: Channel = "answer"
    text: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)


EventSink = Callable[[LLMEvent], None]


def emitter(sink: EventSink | None) -> EventSink:
    """A callable that forwards events to ``sink`` and never raises."""

    def emit(event: LLMEvent) -> None:
        if sink is None:
            return
        try:
            sink(event)
        except Exception:  # a broken panel must not break the player
            _log.exception("the LLM event callback failed on a %s event", event.kind)

    return emit
