"""Phrases shared by the text views."""

from __future__ import annotations

import pyspiel


def turn_line(state: pyspiel.State, seat: int, names: list[str], *,
              watcher: bool = False) -> str:
    """Whose turn it is, or how the game ended, from ``seat``'s point of view (for a
    ``watcher``, who is not that player: the seats by name, never "you")."""
    if state.is_terminal():
        returns = state.returns()
        mine, best = returns[seat], max(returns)
        if all(r == returns[0] for r in returns):
            verdict = "a draw"
        elif watcher:
            verdict = winners(returns, names)
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
    if player == seat and not watcher:
        return "Your turn."
    return f"{capital(names[player])} to move."


def winners(returns: list[float], names: list[str]) -> str:
    """``Red won`` (or ``Red and Blue won``): the seats with the best return, by name."""
    best = max(returns)
    return " and ".join(capital(names[p]) for p, r in enumerate(returns) if r == best) + " won"


def seat_line(seat: int, names: list[str], *, watcher: bool = False) -> str:
    """Who the view is for: ``You are X.``, or for a watcher ``X's view.``"""
    return f"{capital(names[seat])}'s view." if watcher else f"You are {names[seat]}."


def capital(name: str) -> str:
    """``name`` with its first letter a capital (``player 3`` -> ``Player 3``)."""
    return name[:1].upper() + name[1:]


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
