"""Blind auction: your valuation and your bid; the other bid only once the auction is over."""

from __future__ import annotations

import re

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["player 0", "player 1"]
_INFO = re.compile(r"p\d+ val (?P<value>\d+)(?: bid (?P<bid>\d+))?")


def valuation_and_bid(state: pyspiel.State, seat: int) -> tuple[int | None, int | None]:
    match = _INFO.match(state.information_state_string(seat))
    if match is None:
        return None, None
    bid = match.group("bid")
    return int(match.group("value")), (int(bid) if bid is not None else None)


def text(state: pyspiel.State, seat: int) -> str:
    value, bid = valuation_and_bid(state, seat)
    lines = [
        seat_line(seat, NAMES),
        f"Your valuation of the item: {value if value is not None else 'not drawn yet'}",
        f"Your bid: {bid if bid is not None else 'not placed yet'}",
        "The other player's valuation and bid are hidden.",
    ]
    if state.is_terminal():
        bids = [h.action for h in state.full_history() if h.player >= 0]
        returns = state.returns()
        winner = max(range(2), key=lambda p: (returns[p] > 0, -p)) if any(returns) else None
        lines[3] = f"Bids revealed: player 0 bid {bids[0]}, player 1 bid {bids[1]}."
        if winner is not None:
            lines.append(f"{NAMES[winner]} won the item.")
    lines.append(turn_line(state, seat, NAMES))
    return "\n".join(lines)
