"""Renderers of GAMA-Bench's eight N-player games: ``view`` holds what they share (the round
plot, the decision control, the results table, GAMA's own prompt); one module per game adds
its texts. May import ``games`` (and ``games.seat_view``); never agents."""
