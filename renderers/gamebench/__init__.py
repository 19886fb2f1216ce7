"""Renderers of GameBench's games: one module per game (Hive's text view has its own), each a
board or table a person plays by clicking. May import ``games`` and the shared
``renderers.common``/``renderers.drawing``; never agents."""
