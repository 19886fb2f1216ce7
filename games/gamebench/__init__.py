"""GameBench's games, one module each: the rules as a pyspiel game (or OpenSpiel's own, for
Hive), then the registry entry with its move grammar, registered last.

Importing this package registers every game in ``GAMES`` (in this order). A module may import
``games.registry``, ``games.grammar`` and ``games.actions``; never presentation or agents.
"""

import importlib

GAMES = ("hive", "santorini", "air_land_sea", "sea_battle", "arctic_scavengers", "pit",
         "codenames", "are_you_the_traitor", "two_rooms_and_a_boom")
"""Module names, in the order the games are listed."""

for _name in GAMES:
    importlib.import_module(f"games.gamebench.{_name}")
