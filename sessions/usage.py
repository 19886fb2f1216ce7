"""What each seat's language-model calls cost in one session, from its record."""

from __future__ import annotations

from typing import Any

from agents.llm.usage import Usage
from sessions.record import MatchRecord


def session_usage(record: MatchRecord) -> dict[int, Usage]:
    """Per seat: everything its LLM calls cost in this session, rejected attempts included."""
    totals: dict[int, Usage] = {}
    for move in record.moves:
        _count(totals, move.seat, move.meta)
        for attempt in move.rejected:
            _count(totals, move.seat, attempt.meta)
    for attempt in record.unplayed:
        if attempt.seat is not None:
            _count(totals, attempt.seat, attempt.meta)
    return totals


def _count(totals: dict[int, Usage], seat: int, meta: dict[str, Any]) -> None:
    if "usage" in meta:
        totals.setdefault(seat, Usage()).add(Usage.from_dict(meta["usage"]))
