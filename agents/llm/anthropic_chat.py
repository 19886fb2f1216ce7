"""The Messages API through the official ``anthropic`` SDK.

Images go as base64 content blocks before the text; a structured answer is asked for with a
forced tool call whose input schema is the answer schema (the tool input is the answer).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agents.llm.chat import (
    ChatRequest,
    Completion,
    OnOpen,
    OnToken,
    ProviderFault,
    provider_faults,
)

if TYPE_CHECKING:
    import anthropic

ANSWER_TOOL = "play_move"


class AnthropicChat:
    """One Claude model. ``client`` is an ``anthropic.Anthropic``."""

    provider = "anthropic"

    def __init__(self, client: anthropic.Anthropic, model: str) -> None:
        self.client = client
        self.model = model

    def stream(self, request: ChatRequest, *, on_token: OnToken, timeout: float,
               keep_going: Callable[[], None], on_open: OnOpen | None = None) -> Completion:
        text: list[str] = []
        with provider_faults(self.client.api_key, text):
            stream = self.client.messages.create(**self._arguments(request, timeout))
            if on_open is not None:
                on_open(stream.close)
            with stream:
                return _read(stream, text, on_token, keep_going)

    def _arguments(self, request: ChatRequest, timeout: float) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model, "max_tokens": request.max_tokens, "system": request.system,
            "messages": _messages(request), "stream": True, "timeout": timeout,
        }
        if request.temperature is not None:
            arguments["extra_body"] = {"temperature": request.temperature}
        if request.schema is not None:
            arguments["tools"] = [{"name": ANSWER_TOOL, "description": "Play your move.",
                                   "input_schema": request.schema}]
            arguments["tool_choice"] = {"type": "tool", "name": ANSWER_TOOL}
        return arguments


def _messages(request: ChatRequest) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    image_sent = False
    for turn in request.turns:
        content: Any = turn.text
        if turn.role == "user" and request.image is not None and not image_sent:
            data = base64.b64encode(request.image).decode("ascii")
            content = [{"type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": data}},
                       {"type": "text", "text": turn.text}]
            image_sent = True
        messages.append({"role": turn.role, "content": content})
    return messages


def _read(stream: Any, text: list[str], on_token: OnToken,
          keep_going: Callable[[], None]) -> Completion:
    reasoning: list[str] = []
    tool_input: list[str] = []
    stop_reason = None
    finished = False
    prompt_tokens = completion_tokens = None
    for event in stream:
        keep_going()
        kind = event.type
        if kind == "message_start":
            usage = event.message.usage
            prompt_tokens = _input_tokens(usage)
            completion_tokens = usage.output_tokens
        elif kind == "content_block_delta":
            delta = event.delta
            if delta.type == "text_delta":
                text.append(delta.text)
                on_token("answer", delta.text)
            elif delta.type == "thinking_delta":
                reasoning.append(delta.thinking)
                on_token("reasoning", delta.thinking)
            elif delta.type == "input_json_delta":
                tool_input.append(delta.partial_json)
                on_token("answer", delta.partial_json)
        elif kind == "message_delta":
            stop_reason = event.delta.stop_reason or stop_reason
            if event.usage is not None and event.usage.output_tokens is not None:
                completion_tokens = event.usage.output_tokens
        elif kind == "message_stop":
            finished = True
    answer = "".join(tool_input) if tool_input else "".join(text)
    if not finished:
        raise ProviderFault("truncated", "the stream ended before the answer was complete",
                            retryable=True, partial=answer)
    if tool_input:
        answer = _tool_answer(answer, "".join(text))
    return Completion(answer, "".join(reasoning),
                      "length" if stop_reason == "max_tokens" else "stop",
                      prompt_tokens, completion_tokens)


def _tool_answer(arguments: str, said: str) -> str:
    """The tool input (a JSON object) is the answer; text written before the call stays in
    front of it (the adapter reads the object's move field first)."""
    return f"{said}\n{arguments}" if said.strip() else arguments


def _input_tokens(usage: Any) -> int | None:
    total = usage.input_tokens
    for name in ("cache_creation_input_tokens", "cache_read_input_tokens"):
        extra = getattr(usage, name, None)
        if total is not None and extra:
            total += extra
    return total
