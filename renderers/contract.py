"""The renderer contract as a type: one :class:`Renderer` per game, declared by the game's
renderer module as ``RENDERER`` and found with :func:`renderers.renderer_for`.

The required views are fields every renderer fills (``text``, ``image``, ``hit_test``); the
optional hooks are fields that are None (or False, or empty) where a game has none, so a
caller asks ``view.ending is not None`` instead of probing a module with ``getattr``. The
page a game is played on is declared (``page``), not guessed from its id or its benchmark.
What each hook means is in :mod:`renderers`' docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import pyspiel
from PIL import Image

if TYPE_CHECKING:
    from games.actions import LegalMove
    from games.talk import Utterance

PageKind = Literal["board", "buttons", "rounds"]
"""How a person plays the game on the page: ``board``: by clicking the image (a grid
game); ``buttons``: one button per legal move (a table game; spots on the image may be moves
too); ``rounds``: GAMA-Bench's rounds, a number field or choice buttons and the results
table (:attr:`Renderer.rounds`)."""


class Rounds(Protocol):
    """What a ``rounds`` page reads of a game played in rounds (``renderers.gama.view``'s
    ``GamaView``; named here by its methods so this module imports no renderer)."""

    def control(self, state: pyspiel.State, seat: int) -> Any: ...
    def table(self, state: pyspiel.State, seat: int) -> tuple[list[str], list[list[str]]]: ...
    def standing(self, state: pyspiel.State, seat: int) -> str: ...
    def progress(self, state: pyspiel.State) -> str: ...


@dataclass(frozen=True, kw_only=True)
class Renderer:
    """A game's views and hooks (see :mod:`renderers` for what each one returns)."""

    page: PageKind
    text: Callable[..., str]
    """``text(state, seat, *, watcher=False)``: the seat's view as text."""
    image: Callable[..., Image.Image]
    """``image(state, seat, *, selection, targets, last[, narrow][, watcher])``."""
    hit_test: Callable[..., str | None]
    """``hit_test(state, seat, x, y, *, selection[, narrow])``: the target at a pixel."""
    watcher: bool = False
    """``text`` and ``image`` take ``watcher=True`` (a spectator's copy of a seat's view)."""
    narrow: bool = False
    """``image``, ``hit_test`` and ``centres`` take ``narrow=True`` (a phone's layout)."""
    sides: tuple[str, ...] = ()
    """Each seat's side as the image draws it (``X``, ``White``, ``red``)."""
    off_target: str | None = None
    """The notice for a click on no target, in the game's words."""
    centres: Callable[..., dict[str, tuple[float, float]]] | None = None
    buttons: Callable[[pyspiel.State, int, list[LegalMove]], list[LegalMove]] | None = None
    selected: Callable[..., str] | None = None
    legal_summary: Callable[..., str] | None = None
    ending: Callable[[pyspiel.State], str] | None = None
    seat_label: Callable[[int], str] | None = None
    seen_to_move: Callable[[pyspiel.State, int | None, list[int]], list[int]] | None = None
    seat_type: Callable[[pyspiel.State, int], str] | None = None
    talk: Callable[[pyspiel.State, int], list[Utterance]] | None = None
    teams_known: Callable[[pyspiel.State, int], list[str | None]] | None = None
    turn_summary: Callable[[list[str]], str] | None = None
    """A run of one seat's moves in a row (a turn built in steps) named as one move."""
    turn_over: Callable[[str], bool] | None = None
    """Whether a move ends its seat's turn (with ``turn_summary``)."""
    prompt: Callable[[pyspiel.State, int], str] | None = None
    messages: Callable[[pyspiel.State, int], list[dict[str, str]]] | None = None
    rounds: Rounds | None = None
    """A ``rounds`` page's view: its control, results table, standing and progress."""
    plan_fields: Callable[[pyspiel.State, int], list[tuple[str, int | None]]] | None = None
    plan_moves: Callable[[pyspiel.State, int, Sequence[int]], list[str]] | None = None
