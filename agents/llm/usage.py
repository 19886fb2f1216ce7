"""Tokens, latency and estimated cost: per call, per move and per session.

Every LLM move's record carries ``meta["usage"]`` (see :meth:`Usage.to_dict`), and so does
every rejected attempt; ``sessions.usage.session_usage`` adds them up per seat from a
stored record.
When a server does not report token counts (llama.cpp's server does not while streaming),
they are estimated from the text length and marked ``estimated``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.llm.config import Opponent

CHARS_PER_TOKEN = 4


@dataclass
class Usage:
    """Tokens and time spent; ``cost_usd`` is None when the price is unknown."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    seconds: float = 0.0
    cost_usd: float | None = 0.0
    estimated: bool = False

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.calls += other.calls
        self.seconds += other.seconds
        self.estimated = self.estimated or other.estimated
        if self.cost_usd is None or other.cost_usd is None:
            self.cost_usd = None
        else:
            self.cost_usd += other.cost_usd

    def to_dict(self) -> dict[str, Any]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "calls": self.calls, "seconds": round(self.seconds, 3),
                "cost_usd": None if self.cost_usd is None else round(self.cost_usd, 8),
                "estimated": self.estimated}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Usage:
        return cls(int(data.get("prompt_tokens", 0)), int(data.get("completion_tokens", 0)),
                   int(data.get("calls", 0)), float(data.get("seconds", 0.0)),
                   data.get("cost_usd"), bool(data.get("estimated", False)))


def cost(opponent: Opponent, prompt_tokens: int, completion_tokens: int) -> float | None:
    """Estimated USD for these tokens at the opponent's list prices (None if unknown)."""
    if opponent.price_input is None or opponent.price_output is None:
        return None
    return (prompt_tokens * opponent.price_input
            + completion_tokens * opponent.price_output) / 1_000_000


def estimate_tokens(text: str) -> int:
    """A rough token count for servers that report none."""
    return max(1, round(len(text) / CHARS_PER_TOKEN)) if text else 0
