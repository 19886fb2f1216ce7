"""Rules: the registry, THE legal-action adapter, move grammars, and the games themselves.

``registry`` (one ``GameSpec`` per game; ``get``, ``all_games``), ``actions`` (the one gate
from any proposal — a click path, typed text, an LLM answer — to a legal action id, or a typed
rejection), ``grammar`` (labels and how to read them back), ``seat_view`` (what one seat knows,
the type agents and renderers share), ``rules/<id>.md`` (rules for people and for language
models). One package per benchmark: ``gtbench/`` (OpenSpiel's games with GTBench's
parameters), ``gamebench/`` (one module per game), ``gama/`` (GAMA-Bench's N-player games and
their 0-100 scores).

Imports only OpenSpiel, the standard library and NumPy: never presentation, agents or
sessions.
"""
