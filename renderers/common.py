"""Phrases shared by the text views."""

from __future__ import annotations

import pyspiel


def turn_line(state: pyspiel.State, seat: int, names: list[str]) -> str:
    """Whose turn it is, or how the game ended, from ``seat``'s point of view."""
    if state.is_terminal():
        returns = state.returns()
        mine, best = returns[seat], max(returns)
        if all(r == returns[0] for r in returns):
            verdict = "a draw"
        elif mine == best:
            verdict = "you won"
        else:
            verdict = "you lost"
        scores = ", ".join(f"{names[p]} {_number(r)}" for p, r in enumerate(returns))
        return f"Game over: {verdict} (returns: {scores})."
    if state.is_simultaneous_node():
        return "Both players choose now."
    player = state.current_player()
    if player < 0:
        return "Waiting for chance."
    if player == seat:
        return "Your turn."
    name = names[player]
    return f"{name[:1].upper()}{name[1:]} to move."


def seat_line(seat: int, names: list[str]) -> str:
    return f"You are {names[seat]}."


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
