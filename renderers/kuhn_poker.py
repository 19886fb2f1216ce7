"""Kuhn poker: your card, the betting so far and the pot; never the other card in play."""

from __future__ import annotations

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["player 0", "player 1"]
CARDS = ["J", "Q", "K"]


def private_card(state: pyspiel.State, seat: int) -> str | None:
    info = state.information_state_string(seat)
    return CARDS[int(info[0])] if info[:1].isdigit() else None


def betting(state: pyspiel.State, seat: int) -> str:
    """The public betting sequence as 'p'/'b' letters, from the seat's information state."""
    info = state.information_state_string(seat)
    return info[1:] if info[:1].isdigit() else info


def pot(actions: str) -> int:
    return 2 + actions.count("b")


def text(state: pyspiel.State, seat: int) -> str:
    card = private_card(state, seat)
    actions = betting(state, seat)
    said = [f"{NAMES[i % 2]} {'bet' if a == 'b' else 'passed'}" for i, a in enumerate(actions)]
    lines = [
        seat_line(seat, NAMES),
        f"Your card: {card or 'not dealt yet'}",
        f"Betting so far: {', '.join(said) if said else 'none'}",
        f"Pot: {pot(actions)} chips (each player anted 1)",
    ]
    if state.is_terminal() and actions not in ("bp", "pbp"):  # a showdown: both cards shown
        other = CARDS[state.history()[1 - seat]]
        lines.append(f"Showdown: the other player had {other}.")
    lines.append(turn_line(state, seat, NAMES))
    return "\n".join(lines)
