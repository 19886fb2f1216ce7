"""GTBench's ten games: OpenSpiel's built-in games with GTBench's parameters and our labels.

``catalogue`` holds the registry entries (parameters, move grammars, NRA objectives); the
rules themselves are OpenSpiel's. Importing this package registers the games. May import
``games.registry`` and ``games.grammar``; never presentation or agents.
"""

from games.gtbench import catalogue  # noqa: F401  (registers the games)
