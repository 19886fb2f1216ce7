"""One streamed chat call, whatever the provider: the request, the completion, the faults.

:class:`Chat` is what a provider adapter implements (``openai_chat`` for OpenAI and every
OpenAI-compatible server, ``anthropic_chat`` for Anthropic). A call streams text pieces to a
callback as they arrive and returns a :class:`Completion`, or raises :class:`ProviderFault`
saying what went wrong and whether trying again may help. The SDKs' own retries are off:
retrying, with backoff and a time budget, is done once for all providers in ``calls``.
"""

from __future__ import annotations

import email.utils
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from agents.llm.events import Channel
from agents.llm.redaction import redact

FaultReason = Literal["api_error", "timeout", "truncated", "too_long"]
Finish = Literal["stop", "length"]
OnToken = Callable[[Channel, str], None]
OnOpen = Callable[[Callable[[], None]], None]

_RETRY_STATUS = {408, 409, 425, 429}


@dataclass(frozen=True)
class Turn:
    role: Literal["user", "assistant"]
    text: str


@dataclass(frozen=True)
class ChatRequest:
    """What to ask. ``image`` (PNG bytes) goes with the first user turn; ``schema`` asks for
    a structured answer (a JSON object matching it)."""

    system: str
    turns: tuple[Turn, ...]
    image: bytes | None = None
    schema: dict[str, Any] | None = None
    max_tokens: int = 1024
    temperature: float | None = 0.2
    seed: int | None = None
    logprobs: bool = False
    """Ask for the top log-probabilities of the answer's first token (providers that have
    them; RAP's yes/no judgements)."""


@dataclass(frozen=True)
class Completion:
    """A finished call. Token counts are None when the server did not report them."""

    text: str
    reasoning: str
    finish: Finish
    prompt_tokens: int | None
    completion_tokens: int | None
    top_logprobs: tuple[tuple[str, float], ...] = ()
    """The first answer token's most likely tokens and their log-probabilities, when asked
    for and returned."""


class ProviderFault(Exception):
    """A call that produced no complete answer. The message never contains a key."""

    def __init__(self, reason: FaultReason, detail: str, *, retryable: bool,
                 retry_after: float | None = None, partial: str = "") -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.retryable = retryable
        self.retry_after = retry_after
        self.partial = partial


class Stopped(Exception):
    """The call was stopped from outside: the time budget ran out or the seat was cancelled."""

    def __init__(self, why: Literal["timeout", "cancelled"]) -> None:
        super().__init__(why)
        self.why = why


class Chat(Protocol):
    provider: str
    model: str

    def stream(self, request: ChatRequest, *, on_token: OnToken, timeout: float,
               keep_going: Callable[[], None], on_open: OnOpen | None = None) -> Completion:
        """Make one call. ``keep_going()`` is called between pieces and raises
        :class:`Stopped` to abandon the call; ``timeout`` bounds each network wait;
        ``on_open(close)`` is given, once the response has begun, a callable that closes
        it from another thread (a watchdog's way to end a stream that sends no text)."""
        ...


# --- faults ------------------------------------------------------------------------------


def _transport_error(err: BaseException) -> bool:
    """Whether ``err`` comes from the HTTP library (the SDKs let some through while a
    stream is read)."""
    for name in ("httpx2", "httpx"):
        module = sys.modules.get(name)
        if module is not None and isinstance(err, module.HTTPError | module.StreamError):
            return True
    return False


@contextmanager
def provider_faults(api_key: object, text: list[str]) -> Iterator[None]:
    """Turn what an SDK raises inside the block into a :class:`ProviderFault` (the key
    redacted, the text streamed so far in ``text`` kept as ``partial``); bugs pass through."""
    try:
        yield
    except ProviderFault:
        raise
    except Exception as err:
        fault = fault_from(err, secrets=[str(api_key or "")], partial="".join(text))
        if fault is None:
            raise
        raise fault from None


def fault_from(err: BaseException, *, secrets: Iterable[str] = (), partial: str = ""
               ) -> ProviderFault | None:
    """What ``err`` means for a call, or None when it is not a provider fault (a bug)."""
    detail = redact(_describe(err), secrets)
    if _sdk_error(err, "APITimeoutError") or _is_timeout(err):
        return ProviderFault("timeout", f"the request timed out ({detail})", retryable=True,
                             partial=partial)
    if _sdk_error(err, "APIStatusError"):
        status = err.status_code  # type: ignore[attr-defined]
        retryable = status in _RETRY_STATUS or status >= 500
        return ProviderFault("api_error", f"HTTP {status}: {detail}", retryable=retryable,
                             retry_after=retry_after(err.response.headers),  # type: ignore[attr-defined]
                             partial=partial)
    if _sdk_error(err, "APIConnectionError") or _transport_error(err):
        return ProviderFault("api_error", f"connection failed or dropped ({detail})",
                             retryable=True, partial=partial)
    if _sdk_error(err, "APIResponseValidationError") \
            or isinstance(err, json.JSONDecodeError | UnicodeDecodeError):
        return ProviderFault("api_error", f"malformed response ({detail})", retryable=True,
                             partial=partial)
    return None


def _sdk_error(err: BaseException, name: str) -> bool:
    """Whether ``err`` is the SDKs' error ``name`` (an SDK not imported raised nothing)."""
    for sdk in ("openai", "anthropic"):
        module = sys.modules.get(sdk)
        if module is not None and isinstance(err, getattr(module, name)):
            return True
    return False


def _is_timeout(err: BaseException) -> bool:
    return any(cls.__name__ in ("TimeoutException", "ReadTimeout", "ConnectTimeout",
                                "WriteTimeout", "PoolTimeout") for cls in type(err).__mro__)


def _describe(err: BaseException) -> str:
    text = " ".join(str(err).split())[:300]
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def retry_after(headers: Any) -> float | None:
    """Seconds to wait from ``Retry-After`` (seconds or an HTTP date) or ``retry-after-ms``."""
    try:
        millis = headers.get("retry-after-ms")
        if millis is not None:
            return max(0.0, float(millis) / 1000)
        value = headers.get("retry-after")
    except AttributeError:
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
