"""What a spectator sees of a live game: the views they may choose, and each view's boards,
moves, status and thinking panels, with nothing a seat should not know leaking out.

**The views.** ``all`` ("all cards face up": every seat's view side by side, every move,
every model's words, as poker broadcasts show every hand), ``public`` (only what everyone
at the table sees) and ``seat:N`` (what seat N sees, and that seat's thinking). A spectator
of agents only (the Watch tab, the showcase) may pick any of them. A spectator of a game
with a person in it gets ``public`` only until the game ends, so nobody can watch the
opponent's cards and tell the person; after the end every view is open.

**What "public" is**, per kind of game (``GameSpec.taxonomy`` and ``visibility``):

- complete information, moves shown when made, chance public (or no chance at all):
  any seat's view holds nothing private, so the public view is the board as the person (or
  the first seat) sees it, every move, and the models' words under the usual rules (in
  simultaneous games hidden until the round is played);
- anything else (cards or dice dealt face down, private values, sealed bids or choices):
  no seat's view is public — each shows that seat's own cards or choices — so no board is
  drawn (unless the game names a seat that sees only what everyone sees,
  ``GameSpec.public_seat``: Codenames' operative, whose board the public view draws); the move list keeps the moves everyone saw and shows the others as ``(sealed)``
  or ``(face down)``, and the models' words stay hidden until the game ends (as the person
  at the table is shown them).

Every board drawn is one seat's own view (only what that seat may know), in the renderer's
words for a watcher (``watcher=True``): the seat named by its side, never "you".
"""

from __future__ import annotations

import html
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from games.registry import GameSpec
from renderers import image_view, png, seat_label, seen_to_move, side_name, text_view
from sessions.record import CHANCE, MatchRecord, MoveRecord, replay, shown_label
from sessions.web import llm_page, llm_panel_html, replays
from sessions.web.live import LiveGame
from sessions.web.watch import result_text

ALL = "all"
PUBLIC = "public"
SEALED = "(sealed)"
FACE_DOWN = "(face down)"
HIDDEN_BOARD = ("Cards, dice and sealed choices stay face down for spectators until the game "
                "ends: below are the moves everyone at the table has seen.")


def seat_view(seat: int) -> str:
    return f"seat:{seat}"


@dataclass(frozen=True)
class Board:
    """One seat's view of the position."""

    seat: int
    caption: str
    image: Image.Image
    text: str
    png: bytes = b""
    """The image as PNG bytes, encoded once for every spectator of the move."""


@dataclass(frozen=True)
class Spectated:
    """Everything a spectator's page shows of one game, for one view."""

    id: str
    title: str
    status: str
    view: str
    views: list[tuple[str, str]]
    boards: list[Board]
    hidden: str
    """Why no board is drawn ('' when there are boards)."""
    moves: list[str]
    panels: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per language-model seat: its thinking panel (``Panel.view`` data, that seat only)."""
    names: dict[int, str] = field(default_factory=dict)
    over: bool = False


# --- the views ------------------------------------------------------------------------------


def public_board(spec: GameSpec) -> bool:
    """Whether a seat's view holds nothing private in this game (see the module docstring)."""
    return (spec.taxonomy.information == "complete" and spec.visibility.moves
            and (spec.visibility.chance or spec.taxonomy.chance == "deterministic"))


def views(game: LiveGame) -> list[tuple[str, str]]:
    """(label, view) a spectator may choose now."""
    if game.human is not None and not game.over:
        return [("Public view", PUBLIC)]
    seats = range(len(game.record.seats))
    return [("All cards face up", ALL), ("Public view", PUBLIC),
            *((f"{spectator_name(game, s)}'s view", seat_view(s)) for s in seats)]


def allowed(game: LiveGame, view: str | None) -> str:
    """``view`` if the spectator may have it now, else the public view."""
    return view if view in {v for _, v in views(game)} else PUBLIC


def spectator_name(game: LiveGame, seat: int) -> str:
    """A seat's name for spectators, with its side: never "You"; a person is their display
    name. Two seats: ``MCTS (O)`` (the side the board draws; where a game draws none and
    both seats have the same name, the game's name for the seat: ``seat 1 (MCTS)``); more:
    ``player 3 (Random)``."""
    info = game.record.seats[seat]
    label = seat_label(game.spec.id, seat)
    if len(game.record.seats) != 2:
        if info.kind != "human":
            return game.seat_name(seat)
        return f"{label} ({info.display_name or 'A person'})"
    return with_sides(game.spec.id, [_plain_name(game, s) for s in (0, 1)])[seat]


def with_sides(game_id: str, names: list[str]) -> list[str]:
    """Two seats' names as spectators read them: ``MCTS (O)`` (the side the board draws);
    where a game draws none, the names, or the game's seat names when both are the same
    (``seat 1 (MCTS)``)."""
    sides = [side_name(game_id, s) for s in range(2)]
    if all(sides):
        return [f"{name} ({side})" for name, side in zip(names, sides, strict=True)]
    if names[0] == names[1]:
        return [f"{seat_label(game_id, s)} ({name})" for s, name in enumerate(names)]
    return list(names)


def record_names(record: MatchRecord) -> list[str]:
    """A finished game's seat names for its spectators (its replay): as live, with sides."""
    names = [replays.seat_name(record, s, None) for s in range(len(record.seats))]
    if len(names) != 2:
        return [replays.mover(record, s, None) for s in range(len(names))]
    return with_sides(record.game, names)


def _plain_name(game: LiveGame, seat: int) -> str:
    info = game.record.seats[seat]
    return game.seat_name(seat) if info.kind != "human" else info.display_name or "A person"


def title(game: LiveGame) -> str:
    seats = range(len(game.record.seats))
    if len(seats) == 2:
        return f"{game.spec.title}: " + " vs ".join(spectator_name(game, s) for s in seats)
    return f"{game.spec.title}: {len(seats)} players"


# --- one view of a live game ----------------------------------------------------------------


def spectate(game: LiveGame, view: str | None = PUBLIC) -> Spectated:
    """What a spectator of ``game`` sees with ``view`` (refused views fall back to public)."""
    chosen = allowed(game, view)
    record = game.record
    boards, moves = _frame(game, chosen)
    names = {s: spectator_name(game, s) for s in range(len(record.seats))}
    hidden = "" if boards else HIDDEN_BOARD
    return Spectated(game.id, title(game), status(game, names), chosen, views(game), boards,
                     hidden, moves, panels(game, chosen), names, game.over)


def status(game: LiveGame, names: dict[int, str]) -> str:
    """Who is to move, or how the game ended (never from one seat's side)."""
    if game.over:
        return result_text(game.record, names.__getitem__)
    paused = "Paused. " if getattr(game, "paused", False) else ""
    seats = seen_to_move(game.record.game, game.match.state, None, game.match.to_move())
    if not seats:
        return paused.strip()
    if len(seats) > 2:
        return f"{paused}{len(seats)} players to move."
    who = " and ".join(names[s] for s in seats)
    if game.thinking and all(game.record.seats[s].kind != "human" for s in seats):
        return f"{paused}{who} {'is' if len(seats) == 1 else 'are'} thinking…"
    return f"{paused}{who} to move."


def panels(game: LiveGame, view: str) -> dict[int, dict[str, Any]]:
    """Each language-model seat's thinking panel: its own words open in its seat's view and
    with all cards face up; otherwise under the game's hiding rules."""
    panel = llm_page.panel_of(game)
    if panel is None:
        return {}
    out = {}
    for seat, info in enumerate(game.record.seats):
        if info.kind == "llm":
            reveal = view == ALL or view == seat_view(seat)
            out[seat] = one_seat(panel.view(game, reveal=reveal), seat)
    return out


def one_seat(panel: dict[str, Any], seat: int) -> dict[str, Any]:
    """A panel's data cut down to one seat (its turns, notes and usage rows)."""
    return {**panel,
            "notes": [n for n in panel["notes"] if n["seat"] == seat],
            "turns": [t for t in panel["turns"] if t["seat"] == seat],
            "earlier": [t for t in panel["earlier"] if t["seat"] == seat],
            "moves": [r for r in panel["moves"] if r["seat"] == seat],
            "session": {k: v for k, v in panel["session"].items() if k == str(seat)}}


def panels_html(seen: Spectated) -> str:
    """Every language-model seat's panel side by side, each under its seat's name (every
    model word escaped by :func:`~sessions.web.llm_panel_html.render`)."""
    if not seen.panels:
        return ""
    blocks = [f"<div class='watch-panel'><div class='watch-panel-name'>"
              f"{html.escape(seen.names[seat])}</div>{llm_panel_html.render(panel)}</div>"
              for seat, panel in sorted(seen.panels.items())]
    return f"<div class='watch-panels'>{''.join(blocks)}</div>"


PANELS_CSS = llm_panel_html.CSS + """
.watch-panels { display: grid; gap: 0.8em; grid-template-columns: repeat(auto-fit, minmax(18em, 1fr)); }
.watch-panel-name { font-weight: 600; margin-bottom: 0.2em; }
"""
"""Styles for :func:`panels_html` (the panel's own and the grid of seats)."""


def changed(game: LiveGame) -> tuple[Any, ...]:
    """What a spectator's page compares to know whether to redraw (cheap to compute)."""
    panel = llm_page.panel_of(game)
    return (len(game.record.moves), game.record.outcome, getattr(game, "changes", 0),
            panel.version if panel is not None else 0, game.thinking)


# --- boards and moves, drawn once per move and view -----------------------------------------

_FRAMES: OrderedDict[tuple[Any, ...], tuple[list[Board], list[str]]] = OrderedDict()
_FRAMES_LOCK = threading.Lock()
FRAMES_KEPT = 64


def _frame(game: LiveGame, view: str) -> tuple[list[Board], list[str]]:
    record = game.record
    names = tuple(spectator_name(game, s) for s in range(len(record.seats)))
    key = (game.id, view, len(record.moves), record.outcome, names)
    with _FRAMES_LOCK:
        if key in _FRAMES:
            _FRAMES.move_to_end(key)
            return _FRAMES[key]
    state = game.match.state
    seats = _board_seats(game, view)
    over = game.over
    boards = []
    for s in seats:
        image = image_view(game.spec.id, state, s, watcher=True,  # nobody is "you"
                           last=_last_path(record, game.spec, _shown(game, s, over)))
        boards.append(Board(s, f"As {names[s]} sees it", image,
                            text_view(game.spec.id, state, s, watcher=True), png(image)))
    moves = move_lines(record, game.spec, _seen_by(view, over), names.__getitem__)
    with _FRAMES_LOCK:
        _FRAMES[key] = (boards, moves)
        while len(_FRAMES) > FRAMES_KEPT:
            _FRAMES.popitem(last=False)
    return boards, moves


def _board_seats(game: LiveGame, view: str) -> list[int]:
    anchor = game.human if game.human is not None else 0
    count = len(game.record.seats)
    if view.startswith("seat:"):
        return [int(view[5:])]
    if view != ALL and not game.over and game.spec.public_seat is not None:
        return [game.spec.public_seat]  # a seat that sees only what everyone sees
    if public_board(game.spec):
        return [anchor]
    if view == ALL or game.over:
        return list(range(count))
    return []


def _shown_to(view: str, over: bool) -> Callable[[int, GameSpec], bool]:
    """Whether a move of ``seat`` (CHANCE for chance) is shown in ``view``."""
    if view == ALL or over:
        return lambda seat, spec: True
    viewer = int(view[5:]) if view.startswith("seat:") else None

    def shown(seat: int, spec: GameSpec) -> bool:
        if seat == CHANCE:
            return spec.visibility.chance
        return seat == viewer or spec.visibility.moves
    return shown


def _shown(game: LiveGame, seat: int, over: bool) -> Callable[[int, GameSpec], bool]:
    return _shown_to(seat_view(seat), over)


def _seen_by(view: str, over: bool) -> Callable[[MoveRecord, GameSpec], str | None]:
    """What ``view`` shows of a move: its label, what the other seats were told of it, or
    None (nothing)."""
    if view == ALL or over:
        return lambda move, spec: move.label
    viewer = int(view[5:]) if view.startswith("seat:") else None
    return lambda move, spec: shown_label(move, spec.visibility, viewer, final=False)


def move_lines(record: MatchRecord, spec: GameSpec,
               seen: Callable[[MoveRecord, GameSpec], str | None],
               name: Callable[[int], str]) -> list[str]:
    """The numbered move list. A move seen by nobody but its seat appears as sealed
    (decisions) or face down (chance), so a spectator sees that it happened and nothing
    more; in games that say what the other seats are told of a hidden move
    (``GameSpec.public_label``), that is shown, and a move they are told nothing of is left
    out, as it is from their own lists."""
    lines = []
    for move in record.moves:
        label = seen(move, spec)
        if label is None and spec.public_label is not None:
            continue
        if move.seat == CHANCE:
            lines.append(f"chance: {FACE_DOWN if label is None else label}")
        elif not move.meta.get("forced"):
            lines.append(f"{name(move.seat)}: {SEALED if label is None else label}")
    return [f"{i + 1}. {line}" for i, line in enumerate(lines)]


def _last_path(record: MatchRecord, spec: GameSpec,
               shown: Callable[[int, GameSpec], bool]) -> tuple[str, ...] | None:
    """The click path of the last decision the viewer saw, to mark it on the board."""
    moves = record.moves
    for j in range(len(moves) - 1, -1, -1):
        move = moves[j]
        if move.seat == CHANCE or move.meta.get("forced"):
            continue
        if not shown(move.seat, spec):
            return None
        start = j
        while start > 0 and moves[start - 1].node == move.node:
            start -= 1
        return tuple(spec.grammar.path(replay(record, upto=start), move.seat, move.action))
    return None


# --- a finished game: its replay ------------------------------------------------------------


def replay_frame(record: MatchRecord, index: int, seat: int | None = None) -> replays.Frame:
    """Frame ``index`` of a finished game's replay, from ``seat`` (default: the person's, or
    the first seat)."""
    points = len(replays.boundaries(record))
    return replays.frame(record, max(-points, min(int(index), points - 1)), seat=seat,
                         spectator=True, names=record_names(record))
