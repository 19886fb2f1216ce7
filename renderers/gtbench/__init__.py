"""Renderers of GTBench's ten games (boards drawn for clicking, tables with one button per
move). May import ``games`` and ``renderers.common``/``renderers.drawing``; never agents."""
