"""Chat Completions through the official ``openai`` SDK: OpenAI, and any compatible server
(Ollama, vLLM, llama.cpp's server, Hugging Face's router, OpenRouter) by base URL."""

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

# Fields some compatible servers use for a reasoning model's thinking (DeepSeek, vLLM: the
# first; Ollama, OpenRouter: the second).
_REASONING_FIELDS = ("reasoning_content", "reasoning")

if TYPE_CHECKING:
    import openai


class OpenAIChat:
    """One model on one OpenAI-compatible endpoint. ``client`` is an ``openai.OpenAI``."""

    logprobs = True
    """Chat Completions can return log-probabilities (``ChatRequest.logprobs``)."""
    top_logprobs = 5

    def __init__(self, client: openai.OpenAI, model: str, *, provider: str = "openai",
                 structured: str = "json_schema",
                 token_limit_field: str = "max_completion_tokens") -> None:
        self.client = client
        self.model = model
        self.provider = provider
        self.structured = structured
        self.token_limit_field = token_limit_field

    def stream(self, request: ChatRequest, *, on_token: OnToken, timeout: float,
               keep_going: Callable[[], None], on_open: OnOpen | None = None) -> Completion:
        text: list[str] = []
        with provider_faults(self.client.api_key, text):
            stream = self.client.chat.completions.create(**self._arguments(request, timeout))
            if on_open is not None:
                on_open(stream.close)
            with stream:
                return self._read(stream, text, on_token, keep_going)

    def _arguments(self, request: ChatRequest, timeout: float) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model, "messages": self._messages(request), "stream": True,
            "stream_options": {"include_usage": True}, "timeout": timeout,
            self.token_limit_field: request.max_tokens,
        }
        if request.temperature is not None:
            arguments["temperature"] = request.temperature
        if request.seed is not None:
            arguments["seed"] = request.seed
        if request.schema is not None:
            arguments["response_format"] = self._response_format(request.schema)
        if request.logprobs:
            arguments["logprobs"] = True
            arguments["top_logprobs"] = self.top_logprobs
        return arguments

    def _response_format(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.structured == "json_object":  # llama.cpp's server: a schema-constrained object
            return {"type": "json_object", "schema": schema}
        return {"type": "json_schema",
                "json_schema": {"name": "move", "strict": True, "schema": schema}}

    def _messages(self, request: ChatRequest) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}]
        image_sent = False
        for turn in request.turns:
            content: Any = turn.text
            if turn.role == "user" and request.image is not None and not image_sent:
                url = "data:image/png;base64," + base64.b64encode(request.image).decode("ascii")
                content = [{"type": "text", "text": turn.text},
                           {"type": "image_url", "image_url": {"url": url}}]
                image_sent = True
            messages.append({"role": turn.role, "content": content})
        return messages

    def _read(self, stream: Any, text: list[str], on_token: OnToken,
              keep_going: Callable[[], None]) -> Completion:
        reasoning: list[str] = []
        finish = None
        prompt_tokens = completion_tokens = None
        first: tuple[tuple[str, float], ...] = ()
        for chunk in stream:
            keep_going()
            if chunk.usage is not None:
                prompt_tokens = chunk.usage.prompt_tokens
                completion_tokens = chunk.usage.completion_tokens
            for choice in chunk.choices:
                delta = choice.delta
                thought = _reasoning_piece(delta)
                if thought:
                    reasoning.append(thought)
                    on_token("reasoning", thought)
                if delta is not None and delta.content:
                    text.append(delta.content)
                    on_token("answer", delta.content)
                first = first or _top_logprobs(choice)
                if choice.finish_reason:
                    finish = choice.finish_reason
        if finish is None:
            raise ProviderFault("truncated", "the stream ended before the answer was complete",
                                retryable=True, partial="".join(text))
        return Completion("".join(text), "".join(reasoning),
                          "length" if finish == "length" else "stop",
                          prompt_tokens, completion_tokens, first)


def _top_logprobs(choice: Any) -> tuple[tuple[str, float], ...]:
    """The top log-probabilities of the first token in ``choice``, if it carries any."""
    content = getattr(getattr(choice, "logprobs", None), "content", None) or []
    if not content:
        return ()
    top = getattr(content[0], "top_logprobs", None) or []
    return tuple((str(t.token), float(t.logprob)) for t in top
                 if getattr(t, "logprob", None) is not None)


def _reasoning_piece(delta: Any) -> str:
    if delta is None:
        return ""
    extra = getattr(delta, "model_extra", None) or {}
    for name in _REASONING_FIELDS:
        value = extra.get(name) or getattr(delta, name, None)
        if isinstance(value, str) and value:
            return value
    return ""
