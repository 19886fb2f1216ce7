"""GAMA-Bench's eight multi-player games as OpenSpiel Python games.

``cooperative`` (Guess 2/3 of the Average, El Farol Bar, Divide the Dollar), ``betraying``
(Public Goods, Diner's Dilemma, Sealed-Bid Auction), ``battle_royale`` and ``pirate`` define
and register the pyspiel games; ``scoring`` holds GAMA's raw scores S1-S8 and their 0-100
rescaling; ``catalogue`` holds the registry entries (move grammars, rules, defaults). Importing
the package registers the games. May import ``games.registry`` and ``games.grammar``; never
presentation or agents.
"""

from games.gama import catalogue  # noqa: F401  (registers the games)
