"""Codenames' strategy bot: the word-association spymaster and operative of
:mod:`agents.associations` (offline word meanings), built as a ``bot`` so the ladder can
give it slips (``bot:50``)."""

from __future__ import annotations

import numpy as np

from agents.associations import AssociationAgent
from games.registry import GameSpec


class CodenamesBot(AssociationAgent):
    """Gives clues and guesses by word similarity (see :mod:`agents.associations`)."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        super().__init__()
