"""A game being played and its record: the match, its seats, the store, tournaments, the CLI.

``record`` (the unit of storage: seats, moves, attempts, outcome; replays to the final state),
``match`` (owns the pyspiel state, applies what the adapter resolved, resolves chance nodes
from the seed), ``engine`` (asks a seat's agent, retries and forfeits by one policy),
``seats`` (agents replying in the background), ``store`` (SQLite by default, PostgreSQL by
``DATABASE_URL``: ``store_schema``, ``store_sqlite``, ``store_postgres``), ``tournament``,
``fanout`` (where matches are played: serially, in N processes, on Ray) and ``plan``
(tournament plans with resume, concurrency caps and a spending cap), ``cli``
(``python -m sessions``), ``usage`` (what LLM seats spent, from a record).

Subpackages: ``ratings/`` turns records into numbers; ``web/`` is the page's side of play.
Modules here may import ``agents``, ``renderers`` and ``games``; never ``sessions.web`` or
Gradio. The CLI imports what a command uses when it runs (rating a GameBench file loads
neither OpenSpiel, the agents, choix nor matplotlib).
"""
