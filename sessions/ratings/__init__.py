"""Records → numbers: everything that turns stored sessions into ratings and scores.

``results`` (a record → a match result per pair of seats; filters), ``matches`` (results as
arrays, read once), ``bradley_terry`` (the fit, with choix's conventions; choix itself only
as the reference), ``resample`` (bootstrap over matches or by game), ``report`` (``rate``:
overall and per-game tables with intervals, 1/N_game weights), ``nra`` (GTBench's normalized
relative advantage), ``gama_table`` (GAMA-Bench's 0-100 scores), ``gamebench_format``
(GameBench's ``matches.json``: read, write, rate its way), ``leaderboard`` (the
Leaderboard's data: filters, tables, plots) and ``live`` (what keeps a live leaderboard
current: incremental reads, point ratings at once, the bootstrap within a CPU budget).

May import ``sessions.record`` and ``games``; never agents, the page or Gradio. Plots import
matplotlib only when drawn.
"""
