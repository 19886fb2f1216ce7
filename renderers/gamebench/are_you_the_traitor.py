"""Are You the Traitor?: the table as one seat sees it, the text view, the talk it heard.

Each seat is a card around the table: its name, what this seat knows of its character this
round (its own character, the Wizards, the Keyholder or fellow Traitors where the rules show
them, ``?`` otherwise), and how many treasure cards it holds (their values are private
until the end). Moves are buttons and the talk box; nothing on the table is clicked.
"""

from __future__ import annotations

from typing import Any

import pyspiel
from PIL import Image

from games import talk as talk_
from games.gamebench import are_you_the_traitor as ayt
from games.gamebench.social import player
from renderers.contract import Renderer
from renderers.drawing import HEADER_HEIGHT, INK, MUTED, Canvas, Colour, header

WIDTH = 740
CARD_W, CARD_H, GAP = 344, 74, 12
SPEAKING: Colour = (255, 236, 170)
YOU: Colour = (37, 99, 235)
SIDE_COLOUR: dict[str, Colour] = {"good": (46, 125, 80), "evil": (170, 40, 50)}


def seat_label(seat: int) -> str:
    return player(seat)


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    """Nothing on the table is clicked: moves are buttons and the talk box."""
    return None


def seat_type(state: pyspiel.State, seat: int) -> str:
    """The part a seat plays now: its character, or ``answering`` a question."""
    assert isinstance(state, ayt.TraitorState)
    if state.asked == seat:
        return "answering"
    return state.character_name(seat) if len(state.characters) > seat else "dealing"


def _height(players: int) -> int:
    rows = (players + 1) // 2
    return HEADER_HEIGHT + 52 + rows * (CARD_H + GAP) + 40


def talk(state: pyspiel.State, seat: int) -> list[talk_.Utterance]:
    """Everything said at the table (all talk in this game is public), in order."""
    assert isinstance(state, ayt.TraitorState)
    return talk_.heard(state.talk, seat)


def teams_known(state: pyspiel.State, seat: int) -> list[str | None]:
    """Each seat's side as ``seat`` knows it this round (None where hidden)."""
    assert isinstance(state, ayt.TraitorState)
    known = state.known(seat)
    sides: list[str | None] = []
    for s in range(state.players):
        name = known.get(s, "")
        if name.startswith(("Good", "Evil")):
            sides.append(name.split()[0].lower())
        elif name in ("Keyholder", "Guard"):
            sides.append("good")
        elif name == "Traitor":
            sides.append("evil")
        else:
            sides.append(None)
    return sides


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the seat
named, never "you")."""


def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None, watcher: bool = False) -> Image.Image:
    assert isinstance(state, ayt.TraitorState)
    height = _height(state.players)
    canvas = Canvas(WIDTH, height)
    mine = state.known(seat).get(seat, "")
    header(canvas, f"{player(seat).title()}: {mine or 'dealing'}",
           _status(state, seat, watcher),
           colour=SIDE_COLOUR.get(_side(mine), MUTED))
    line = f"Round {min(state.round + 1, state.max_rounds)} of at most {state.max_rounds} · " \
        f"first to {ayt.GOAL} treasure points"
    canvas.text((WIDTH / 2, HEADER_HEIGHT + 24), line, size=17, bold=True, fill=INK,
                anchor="mm")
    known = state.known(seat)
    acting = state.current_player()
    for s in range(state.players):
        row, column = divmod(s, 2)
        x0 = 16 + column * (CARD_W + GAP)
        y0 = HEADER_HEIGHT + 48 + row * (CARD_H + GAP)
        fill = SPEAKING if s == acting else (255, 255, 255)
        canvas.rect((x0, y0, x0 + CARD_W, y0 + CARD_H), fill=fill,
                    outline=YOU if s == seat else (180, 180, 180), width=3 if s == seat else 1.5,
                    radius=10)
        name = player(s) + (" (you)" if s == seat and not watcher else "")
        canvas.text((x0 + 12, y0 + 10), name, size=17, bold=True, fill=INK)
        role = known.get(s, "?")
        colour = SIDE_COLOUR.get(_side(role), INK)
        canvas.text((x0 + 12, y0 + 40), canvas.fit(role, CARD_W - 150, size=16), size=16,
                    fill=colour, bold=role != "?")
        cards = len(state.treasure[s])
        worth = f" = {state.points(s)} pts" if s == seat or state.is_terminal() else ""
        canvas.text((x0 + CARD_W - 12, y0 + 40), f"{cards} treasure{worth}", size=14,
                    fill=MUTED, anchor="ra")
    said = state.talk_log[-1] if state.talk_log else None
    if said is not None:
        who = "table" if said.speaker < 0 else player(said.speaker)
        text = canvas.fit(f"{who} {said.kind}: {said.text}", WIDTH - 32, size=15)
        canvas.text((16, height - 22), text, size=15, fill=INK, anchor="lm")
    return canvas.finish()


def _side(name: str) -> str:
    if name.startswith("Good") or name in ("Keyholder", "Guard"):
        return "good"
    if name.startswith("Evil") or name == "Traitor":
        return "evil"
    return ""


def _status(state: ayt.TraitorState, seat: int, watcher: bool = False) -> str:
    if state.is_terminal():
        best = max(state.points(s) for s in range(state.players))
        if watcher:
            return "Game over: " + " and ".join(
                player(s) for s in range(state.players) if state.points(s) == best) + " won"
        return "Game over: you won" if state.points(seat) == best else "Game over"
    acting = state.current_player()
    if acting < 0:
        return "Dealing"
    if acting == seat and not watcher:
        return "Your turn: answer" if state.asked == seat else "Your turn"
    return f"{player(acting).title()} {'answers' if state.asked == acting else 'speaks'}"


# --- the text view ------------------------------------------------------------------------

def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """Who you are this round, what you know, the treasure, the talk, what is asked now (for
    a ``watcher``: the same, the seat named instead of "you")."""
    assert isinstance(state, ayt.TraitorState)
    name = player(seat).title()
    who = f"{name}'s view, one of" if watcher else f"You are {player(seat)} of"
    lines = [f"{who} {state.players}. First to {ayt.GOAL} treasure points "
             f"wins; at most {state.max_rounds} rounds."]
    known = state.known(seat)
    if state.is_terminal():
        lines.append("Game over. Last round's characters: " + ", ".join(
            f"{player(s)} {known[s]}" for s in sorted(known)) + ".")
    elif known:
        mine = state.characters[seat]
        side = ayt.SIDES[state.sides[seat]] if state.sides else "?"
        whose, looks = (f"{name}'s", f"{name} looks") if watcher else ("Your", "You look")
        lines.append(f"Round {state.round + 1}. {whose} character: {known[seat]} ({side} side). "
                     f"{looks} for {ayt.target_of(mine, state.sides[seat])}.")
        others = [f"{player(s)} is {name}" for s, name in sorted(known.items()) if s != seat]
        wizard_note = " (each Wizard is Good or Evil; only they know which)" \
            if mine != ayt.WIZARD or len(state.wizards()) > 1 else ""
        lines.append((f"{name} knows: " if watcher else "You know: ")
                     + ("; ".join(others) if others else "nothing more")
                     + wizard_note + ".")
    lines.append("Treasure: " + ", ".join(
        f"{player(s)} {len(state.treasure[s])} card(s)"
        + (f" = {state.points(s)} points" if s == seat or state.is_terminal() else "")
        for s in range(state.players)) + ".")
    for past in state.history_rounds:
        lines.append(_past(past))
    lines.append("Talk this game, in order:")
    lines += [f"  {'table' if u.speaker < 0 else player(u.speaker)} {u.kind}: {u.text}"
              for u in state.talk_log[-40:]] or ["  nothing said yet"]
    lines.append(_now(state, seat, watcher))
    return "\n".join(lines)


def _past(past: dict[str, Any]) -> str:
    stop = past["stop"]
    shown = ", ".join(f"{player(s)} {name}" for s, name in enumerate(past["characters"]))
    if stop is None:
        return f"Round {past['round']}: nobody called stop. Characters were: {shown}."
    caller, accused, right = stop
    return (f"Round {past['round']}: {player(caller)} called stop on {player(accused)} "
            f"({'right' if right else 'wrong'}); the {ayt.SIDES[past['winners']]} side took "
            f"treasure. Characters were: {shown}.")


def _now(state: ayt.TraitorState, seat: int, watcher: bool = False) -> str:
    if state.is_terminal():
        best = max(state.points(s) for s in range(state.players))
        winners = [player(s) for s in range(state.players) if state.points(s) == best]
        return f"Winner(s): {', '.join(winners)} with {best} points."
    acting = state.current_player()
    if acting < 0:
        return "Dealing."
    if acting != seat or watcher:
        what = "answers" if state.asked == acting else "has the turn"
        return f"{player(acting).title()} {what}."
    if state.asked == seat:
        assert state.asker is not None
        return f"Your turn: answer {player(state.asker)}'s question: answer: <your words>."
    stop = "" if state.characters[seat] == ayt.TRAITOR else \
        ", stop: accuse player <N> (ends the round)"
    return ("Your turn: ask player <N>: <question>, say: <statement>" + stop + ", or pass. "
            f"Turn {state.turns + 1} of {ayt.LAPS * state.players} this round.")


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    seat_label=seat_label, seat_type=seat_type, talk=talk, teams_known=teams_known,
)
