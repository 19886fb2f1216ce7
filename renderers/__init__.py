"""What people and vision models see: one renderer module per game.

The modules are grouped like the games, one package per benchmark: ``renderers/gtbench/``,
``renderers/gamebench/`` and ``renderers/gama/``; :func:`renderer` finds a game's module by
its id wherever it lives. Shared fonts, colours and geometry are in :mod:`renderers.drawing`
and :mod:`renderers.common`. This package may import ``games`` (the rules and the shared
``games.seat_view`` type); it never imports ``agents`` or ``sessions``, and the rules never
import it.

Each module ``renderers/<benchmark>/<game_id>.py`` is a set of pure functions of (state, seat),
declared at its end as one typed :class:`~renderers.contract.Renderer` (``RENDERER =
Renderer(page=..., text=text, image=image, hit_test=hit_test, <its optional hooks>)``; a
GAMA-Bench module ``RENDERER = VIEW.renderer()``). Callers get it with :func:`renderer_for`
and read its fields (an absent hook is None), and ask :func:`page_kind` how the game is played
on the page (``board``, ``buttons``, ``rounds``) instead of testing its id or benchmark.
``tests/test_renderer_contract.py`` checks every game's declaration. The module itself
(:func:`renderer`) is for its internals (layouts, ``centres`` in tests). The functions:

- ``text(state, seat) -> str``: the seat's view as text (for LLM prompts, screen readers
  and golden files). It shows only what the rules reveal to that seat.
- ``image(state, seat, *, selection=(), targets=(), last=None) -> PIL.Image.Image`` (RGB):
  the board or table as the seat sees it. ``selection`` is the click path chosen so far
  (highlighted), ``targets`` are the click targets that may come next (highlighted as
  legal destinations), ``last`` is the click path of the last move played (marked).
  Targets are the strings of ``LegalMove.path`` from the legal-action adapter. Like the
  text view it is built from what the seat may know, never from ``str(state)`` of a hidden
  information game, so the same image can go to a vision model.
- ``hit_test(state, seat, x, y, *, selection=()) -> str | None``: the click target at pixel
  (x, y) of that same image (its own pixel space), or None outside every target. Table
  games (``GameSpec.board == "table"``) are played with one button per legal move; their
  ``hit_test`` returns None everywhere unless a spot on the table is a move (nim's sticks).
- ``centres(state, seat) -> dict[str, (x, y)]`` (games with click targets): every target
  with a pixel at its centre, the inverse of ``hit_test`` (used by tests and benchmarks to
  click like a person).
- optional ``buttons(state, seat, legal) -> list[LegalMove]``: for a board game, the legal
  moves that have no spot on the board and need a button (a Hive ``pass``). Table games get a
  button for every legal move without it.

- optional ``OFF_TARGET``: the notice for a click that hits no target (instead of the page's
  "click a square").
- optional ``legal_summary(state, seat, labels) -> str``: the legal moves described in a few
  lines, with example labels, for the LLM prompt of a game with hundreds of them (Sea Battle's
  512 orders); ``agents.llm.prompts`` lists every label otherwise.

- optional ``ending(state) -> str``: what decided a finished game in a few words
  (Codenames' ``Red wins: Blue hit the assassin``), added to the page's result line.
- optional ``seat_label(seat) -> str``: how the game's texts name a seat (``player 3``,
  ``pirate 4``); pages and replays use it for tables of more than two (:func:`seat_label`).
- optional ``NARROW = True``: ``image``, ``hit_test`` and ``centres`` also take
  ``narrow=True``, a layout for narrow screens (a phone held upright: taller than wide, the
  same board and targets rearranged). A vision model always gets the default layout.
- optional ``seen_to_move(state, seat, to_move) -> list[int]``: who a viewer (``seat``, or
  None for a spectator) is shown as acting, where the game hides it (:func:`seen_to_move`).
- optional ``WATCHER = True``: ``text`` and ``image`` also take ``watcher=True``: the
  seat's view for someone who is not that player (a spectator, a watcher): the same facts
  (only what that seat may know), the seat named by its side instead of "you" ("Red's
  hand", "Blue to move", "Red won"). The player's own view (and every LLM prompt) is
  unchanged. Every renderer declares it (``tests/test_watch_views.py``).
- optional ``SIDES``: the name of each seat's side as the image draws it (``("X", "O")``,
  ``("White", "Black")``, the table games' ``("red", "blue")``); the page says "You (X)"
  (:func:`side_name`).

Games played by talking (Codenames, Are You the Traitor?, Two Rooms and a Boom) add
``talk(state, seat) -> list[games.talk.Utterance]`` (what the seat heard, in order: public
talk and the private exchanges it was part of) and ``teams_known(state, seat)`` (each seat's
team as this seat may know it, None where hidden); their text views include the talk, so a
language model gets the conversation as its seat heard it.

GAMA-Bench's renderers (``renderers/gama/view.py``) add, for the page and the LLM agents:
``control(state, seat)`` (the input to show: a number field with its range, or choice
buttons), ``table(state, seat)`` (the per-round results as the seat saw them: headers, rows),
``prompt(state, seat)`` / ``messages(state, seat)`` (GAMA's prompt: rules with the session's
parameters, previous rounds as the seat saw them, one JSON field to answer); their
``image`` is the plot of the rounds so far (its title names the seat) and their ``hit_test``
is None everywhere: decisions go through ``control``. Pirate Game's renderer also has
``plan_fields`` and ``plan_moves``, a whole proposal as one form.

"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import io
from collections.abc import Sequence
from types import ModuleType

import pyspiel
from PIL import Image, PngImagePlugin

from renderers.contract import PageKind, Renderer

__all__ = ["GROUPS", "PageKind", "Renderer", "click_target", "ending", "image_view", "page_kind",
           "png", "renderer", "renderer_for", "seat_label", "seen_to_move", "side_name",
           "text_view"]

GROUPS = ("gtbench", "gamebench", "gama")
"""The renderer packages, one per benchmark (as in ``games/``)."""


@functools.cache
def renderer(game_id: str) -> ModuleType:
    """The renderer module of ``game_id``, from whichever benchmark package holds it (its
    internals: layouts, colours; the views and hooks are :func:`renderer_for`'s)."""
    for group in GROUPS:
        name = f"renderers.{group}.{game_id}"
        if importlib.util.find_spec(name) is not None:
            return importlib.import_module(name)
    raise KeyError(f"no renderer for game {game_id!r}")


def renderer_for(game_id: str) -> Renderer:
    """The :class:`~renderers.contract.Renderer` ``game_id``'s module declares (``RENDERER``;
    read each time, so a test may put another in its place)."""
    declared = vars(renderer(game_id)).get("RENDERER")
    if not isinstance(declared, Renderer):
        raise TypeError(f"renderers.{game_id} declares no RENDERER = Renderer(...)")
    return declared


def text_view(game_id: str, state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """The text view of ``state`` for ``seat``; ``watcher`` for someone who is not that
    player (a spectator): the same facts, the seat named instead of "you", where the game
    has such a view (``watcher``)."""
    view = renderer_for(game_id)
    if watcher and view.watcher:
        return str(view.text(state, seat, watcher=True))
    return str(view.text(state, seat))


def image_view(game_id: str, state: pyspiel.State, seat: int, *,
               selection: Sequence[str] = (), targets: Sequence[str] = (),
               last: Sequence[str] | None = None, narrow: bool = False,
               watcher: bool = False) -> Image.Image:
    """The image of ``state`` as ``seat`` sees it (see the module docstring for options);
    ``narrow`` asks for the layout for narrow screens where the game has one; ``watcher``
    for a spectator's copy (no "(you)") where the game draws one."""
    view = renderer_for(game_id)
    extra: dict[str, bool] = {"narrow": True} if narrow and view.narrow else {}
    if watcher and view.watcher:
        extra["watcher"] = True
    return view.image(state, seat, selection=tuple(selection), targets=tuple(targets),
                      last=last, **extra)


def click_target(game_id: str, state: pyspiel.State, seat: int, x: float, y: float, *,
                 selection: Sequence[str] = (), narrow: bool = False) -> str | None:
    """The click target at (x, y) of ``seat``'s image (the ``narrow`` layout's when asked
    for and the game has one), or None (also for games without targets)."""
    view = renderer_for(game_id)
    extra = {"narrow": True} if narrow and view.narrow else {}
    return view.hit_test(state, seat, x, y, selection=tuple(selection), **extra)


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes, encoded the way the page encodes the board it shows (Gradio's
    ``gr.Image(format="png")``: PIL's PNG writer, the image's text metadata kept), so a
    vision model is sent the very file the person's browser gets."""
    info = PngImagePlugin.PngInfo()
    for key, value in image.info.items():
        if isinstance(key, str) and isinstance(value, str):
            info.add_text(key, value)
    with io.BytesIO() as out:
        image.save(out, "png", pnginfo=info)
        return out.getvalue()


def side_name(game_id: str, seat: int) -> str:
    """The side ``seat`` plays as the image draws it (``X``, ``White``, ``red``), or ''."""
    sides = renderer_for(game_id).sides
    return str(sides[seat]) if 0 <= seat < len(sides) else ""


def ending(game_id: str, state: pyspiel.State) -> str:
    """What decided a finished game in a few words (a renderer's optional ``ending``:
    ``Red wins: Blue hit the assassin``), or '' when the renderer does not say."""
    said = renderer_for(game_id).ending
    return said(state) if said is not None and state.is_terminal() else ""


def seen_to_move(game_id: str, state: pyspiel.State, seat: int | None,
                 to_move: Sequence[int]) -> list[int]:
    """The seats a viewer is shown as acting: ``seat``'s view (None: a spectator's public
    view). ``to_move`` unless the game hides who acts (a renderer's optional
    ``seen_to_move``: in Two Rooms and a Boom the other room must not see that a share was
    offered, so it sees the giver's turn go on while the other player answers)."""
    seen = renderer_for(game_id).seen_to_move
    return list(to_move) if seen is None else seen(state, seat, list(to_move))


def seat_label(game_id: str, seat: int) -> str:
    """How ``game_id``'s texts name ``seat`` (``player 3``, ``pirate 4``); ``seat N`` (from 1)
    for games whose renderer does not say."""
    name = renderer_for(game_id).seat_label
    return name(seat) if name is not None else f"seat {seat + 1}"


def page_kind(game_id: str) -> PageKind:
    """How a person plays ``game_id`` on the page: ``board``, ``buttons`` or ``rounds``
    (GAMA-Bench's rounds), as its renderer declares."""
    return renderer_for(game_id).page
