"""Codenames: the 5x5 board of word cards, the text view, and the hit-test.

Spymasters see the key: every hidden card is tinted with its role (a dark card is the
assassin). Operatives see only words until a card is revealed; a revealed card is coloured
with what it was. Click targets are the words of hidden cards (a guess); ending the turn
and giving a clue are not on the board (a button, and the clue form or the talk box).
"""

from __future__ import annotations

import pyspiel
from PIL import Image

from games import talk as talk_
from games.gamebench import codenames as cn
from games.gamebench.codenames import (
    ASSASSIN,
    BLUE,
    BYSTANDER,
    CARDS,
    RED,
    ROLE_NAMES,
    SEAT_NAMES,
    CodenamesState,
)
from renderers.contract import Renderer
from renderers.drawing import HEADER_HEIGHT, INK, MUTED, Canvas, Colour, header

COLUMNS = 5
CELL_W, CELL_H, GAP, MARGIN = 148, 76, 8, 14
TOP = HEADER_HEIGHT + 48
WIDTH = MARGIN * 2 + COLUMNS * CELL_W + (COLUMNS - 1) * GAP
HEIGHT = TOP + COLUMNS * CELL_H + (COLUMNS - 1) * GAP + 40

SOLID: dict[int, Colour] = {RED: (196, 48, 58), BLUE: (36, 96, 190), BYSTANDER: (214, 196, 158),
                           ASSASSIN: (30, 30, 34)}
TINT: dict[int, Colour] = {RED: (246, 206, 208), BLUE: (204, 222, 248),
                           BYSTANDER: (240, 234, 220), ASSASSIN: (88, 88, 96)}
HIDDEN: Colour = (246, 240, 226)
TARGET: Colour = (46, 160, 67)
LAST: Colour = (255, 140, 0)
TEAM_COLOUR = {0: SOLID[RED], 1: SOLID[BLUE]}


def seat_label(seat: int) -> str:
    return SEAT_NAMES[seat]


def talk(state: pyspiel.State, seat: int) -> list[talk_.Utterance]:
    """What ``seat`` heard: every clue, in order (all clues are public)."""
    assert isinstance(state, CodenamesState)
    return talk_.heard(state.talk, seat)


def teams_known(state: pyspiel.State, seat: int) -> list[str | None]:
    """Every seat's team as ``seat`` knows it: in Codenames all teams are public."""
    return [cn.TEAMS[s // 2] for s in range(4)]


def seat_type(state: pyspiel.State, seat: int) -> str:
    """The part a seat plays (golden prompts cover each)."""
    return "spymaster" if is_spymaster(seat) else "operative"


def is_spymaster(seat: int) -> bool:
    return seat % 2 == 0


def card_box(card: int) -> tuple[float, float, float, float]:
    row, column = divmod(card, COLUMNS)
    x0, y0 = MARGIN + column * (CELL_W + GAP), TOP + row * (CELL_H + GAP)
    return (x0, y0, x0 + CELL_W, y0 + CELL_H)


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every card's word and the pixel at its centre: the inverse of :func:`hit_test`."""
    assert isinstance(state, CodenamesState)
    out = {}
    for card in range(len(state.words)):
        x0, y0, x1, y1 = card_box(card)
        out[state.word(card)] = ((x0 + x1) / 2, (y0 + y1) / 2)
    return out


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    """The word of the card at pixel (x, y), or None between and around the cards."""
    assert isinstance(state, CodenamesState)
    for card in range(len(state.words)):
        x0, y0, x1, y1 = card_box(card)
        if x0 <= x < x1 and y0 <= y < y1:
            return state.word(card)
    return None


def buttons(state: pyspiel.State, seat: int, legal: list) -> list:  # noqa: ANN001
    """End turn has a button; clues are given with the clue form (never a canned button)."""
    return [move for move in legal if move.action == cn.END_TURN]


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the seat
named, never "you")."""


def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None, watcher: bool = False) -> Image.Image:
    """The board as ``seat`` sees it: the key only for spymasters."""
    assert isinstance(state, CodenamesState)
    canvas = Canvas(WIDTH, HEIGHT)
    header(canvas, SEAT_NAMES[seat], _status(state, seat, watcher),
           colour=TEAM_COLOUR[seat // 2])
    _clue_strip(canvas, state)
    guessable = _guessable(state, seat)
    marked = _last_card(state) if last is None else None
    for card in range(len(state.words)):
        _card(canvas, state, seat, card, target=card in guessable, last=card == marked)
    canvas.text((MARGIN, HEIGHT - 20), _score(state), size=15, bold=True, fill=INK, anchor="lm")
    if is_spymaster(seat) and not state.is_terminal():
        canvas.text((WIDTH - MARGIN, HEIGHT - 20), "tinted: the key (only spymasters see it)",
                    size=13, fill=MUTED, anchor="rm")
    return canvas.finish()


def _guessable(state: CodenamesState, seat: int) -> set[int]:
    if state.is_terminal() or state.current_player() != seat or not state.guessing:
        return set()
    return {c for c in range(CARDS) if not state.revealed[c]}


def _last_card(state: CodenamesState) -> int | None:
    for _, kind, said in reversed(state.events):
        if kind == "guess":
            word = said.split(":")[0]
            return next((c for c in range(CARDS) if state.word(c) == word), None)
        if kind == "clue":
            return None
    return None


def _card(canvas: Canvas, state: CodenamesState, seat: int, card: int, *, target: bool,
          last: bool) -> None:
    box = card_box(card)
    x0, y0, x1, y1 = box
    role = state.key[card] if card < len(state.key) else None
    shown_role = role if (state.revealed[card] or is_spymaster(seat) or state.is_terminal()) \
        else None
    if state.revealed[card] and role is not None:
        fill, ink = SOLID[role], (255, 255, 255) if role != BYSTANDER else INK
    elif shown_role is not None:
        fill, ink = TINT[shown_role], (255, 255, 255) if shown_role == ASSASSIN else INK
    else:
        fill, ink = HIDDEN, INK
    outline = LAST if last else TARGET if target else (150, 140, 120)
    canvas.rect(box, fill=fill, outline=outline, width=4 if (last or target) else 1.5, radius=9)
    word = canvas.fit(state.word(card), CELL_W - 12, size=19, bold=True)
    canvas.text(((x0 + x1) / 2, (y0 + y1) / 2 - (7 if shown_role is not None else 0)), word,
                size=19, bold=True, fill=ink, anchor="mm")
    if shown_role is not None:
        note = ROLE_NAMES[shown_role] + (" ✓" if state.revealed[card] else "")
        canvas.text(((x0 + x1) / 2, y1 - 14), note, size=12, fill=ink, anchor="mm")


def _clue_strip(canvas: Canvas, state: CodenamesState) -> None:
    if state.clue is not None:
        limit = state.guess_limit()
        left = "any number" if limit is None else f"{limit - state.guesses} left"
        word, action = state.clue
        line = (f"{cn.TEAMS[state.team].title()} clue: {word.upper()} {cn.clue_number(action)}"
                f"  ·  guesses {state.guesses} made, {left}")
    elif state.is_terminal():
        line = _ending(state)
    else:
        line = f"Waiting for the {cn.TEAMS[state.team]} spymaster's clue"
    canvas.text((WIDTH / 2, HEADER_HEIGHT + 24), canvas.fit(line, WIDTH - 20, size=18), size=18,
                bold=True, fill=INK, anchor="mm")


def _score(state: CodenamesState) -> str:
    if len(state.key) < CARDS:
        return ""
    return " · ".join(f"{cn.TEAMS[t].title()}: {state.left(t)} agents to find" for t in (0, 1))


def _ending(state: CodenamesState) -> str:
    assert state.winner is not None
    winner, loser = cn.TEAMS[state.winner].title(), cn.TEAMS[1 - state.winner].title()
    how = f"{loser} hit the assassin" if state.assassin_hit else f"every {winner} agent found"
    return f"{winner} wins: {how}"


def ending(state: pyspiel.State) -> str:
    """What decided the game, in a few words (``Red wins: Blue hit the assassin``)."""
    assert isinstance(state, CodenamesState)
    return _ending(state) if state.is_terminal() else ""


def _status(state: CodenamesState, seat: int, watcher: bool = False) -> str:
    if state.is_terminal():
        won = state.winner == seat // 2
        if watcher:
            return f"Game over: {cn.TEAMS[state.winner or 0].title()} won"
        return f"Game over: {'your team won' if won else 'your team lost'}"
    player = state.current_player()
    if player == seat and not watcher:
        return "Your turn: guess a card" if state.guessing else "Your turn: give a clue"
    return f"{SEAT_NAMES[player]} to {'guess' if state.guessing else 'give a clue'}"


# --- the text view ------------------------------------------------------------------------

def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """Who you are, the board (with the key for spymasters), every clue and guess so far,
    and what is asked now (for a ``watcher``: the seat named, never "you")."""
    assert isinstance(state, CodenamesState)
    team = cn.TEAMS[seat // 2]
    mate = SEAT_NAMES[seat + 1] if is_spymaster(seat) else SEAT_NAMES[seat - 1]
    if watcher:
        role = ("gives one-word clues; the teammate guesses." if is_spymaster(seat)
                else "guesses cards from the spymaster's clues.")
        lines = [f"The {SEAT_NAMES[seat]}'s view ({team} team, with the {mate}): it {role}"]
    else:
        role = ("You give one-word clues; your teammate guesses." if is_spymaster(seat)
                else "Your spymaster gives clues; you guess cards.")
        lines = [f"You are the {SEAT_NAMES[seat]} ({team} team, with the {mate}). {role}"]
    if len(state.key) == CARDS:
        assert state.first is not None
        lines.append(f"{cn.TEAMS[state.first].title()} started with 9 agents. {_score(state)}.")
    see_key = is_spymaster(seat) or state.is_terminal()
    lines.append("Board, row by row" + (" (with the key: what each hidden card is)"
                                        if see_key else " (hidden cards show only their word)")
                 + ":")
    for row in range(COLUMNS):
        cells = []
        for card in range(row * COLUMNS, min(len(state.words), (row + 1) * COLUMNS)):
            cells.append(_cell(state, card, see_key))
        lines.append("  " + " | ".join(cells))
    lines.append("Clues and guesses so far:")
    lines += [f"  {SEAT_NAMES[s]}: {_event(kind, said)}" for s, kind, said in state.events] \
        or ["  none yet"]
    lines.append(_now(state, seat, watcher))
    return "\n".join(lines)


def _cell(state: CodenamesState, card: int, see_key: bool) -> str:
    word = state.word(card)
    role = state.key[card] if card < len(state.key) else None
    if state.revealed[card] and role is not None:
        return f"{word} = {ROLE_NAMES[role]} (revealed)"
    if see_key and role is not None:
        return f"{word} ({ROLE_NAMES[role]})"
    return word


def _event(kind: str, said: str) -> str:
    if kind == "clue":
        return f"clue {said}"
    if kind == "guess":
        return f"guessed {said}"
    return said


def _now(state: CodenamesState, seat: int, watcher: bool = False) -> str:
    if state.is_terminal():
        won = state.winner == seat // 2
        team = f"the {cn.TEAMS[seat // 2]} team" if watcher else "your team"
        return f"Game over: {_ending(state)}; {team} {'won' if won else 'lost'}."
    player = state.current_player()
    if player < 0:
        return "Dealing."
    if not state.guessing:
        if player == seat and not watcher:
            return ("Your turn: give a clue, written " + cn.CLUE_HINT + ". The word may not be "
                    "a hidden card's word, a form of it, or part of a compound card.")
        return f"The {SEAT_NAMES[player]} is giving a clue."
    assert state.clue is not None
    limit = state.guess_limit()
    left = ("as many as wished" if watcher else "as many as you like") if limit is None \
        else f"{limit - state.guesses} more at most"
    who = "Your turn" if player == seat and not watcher else f"The {SEAT_NAMES[player]} guesses"
    end = " or end turn" if state.guesses else " (at least one guess before ending the turn)"
    return (f"{who}: clue {state.clue[0].upper()} {cn.clue_number(state.clue[1])}; "
            f"{state.guesses} guessed, {left}. Write guess <card word>{end}.")


RENDERER = Renderer(
    page="board", text=text, image=image, hit_test=hit_test, watcher=WATCHER, centres=centres,
    buttons=buttons, ending=ending, seat_label=seat_label, seat_type=seat_type, talk=talk,
    teams_known=teams_known,
)
