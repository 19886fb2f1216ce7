"""Two Rooms and a Boom: the two rooms as one seat sees them, the text view, the talk it heard.

Both rooms are drawn with their members (room membership and leaders are public); each
member shows what this seat knows of their card — its own card always, what shares and
reveals showed it, ``?`` otherwise — until the end, when every card is shown. Talk is what
the seat heard: its room's statements, and the private results of its own shares.
"""

from __future__ import annotations

import pyspiel
from PIL import Image

from games import talk as talk_
from games.gamebench import two_rooms_and_a_boom as tr
from games.gamebench.social import player
from renderers.contract import Renderer
from renderers.drawing import HEADER_HEIGHT, INK, MUTED, Canvas, Colour, header

WIDTH = 760
ROOM_W = 360
ROW_H = 44
SPEAKING: Colour = (255, 236, 170)
YOU: Colour = (37, 99, 235)
INKS: dict[str, Colour] = {"red": (180, 40, 50), "blue": (36, 96, 190), "grey": (90, 90, 90)}


def seat_label(seat: int) -> str:
    return player(seat)


def seat_type(state: pyspiel.State, seat: int) -> str:
    """The part a seat plays now (golden prompts cover each)."""
    assert isinstance(state, tr.TwoRoomsState)
    if state.offer is not None and state.offer[1] == seat:
        return "answering a share"
    if state.choosing and seat in state.leaders:
        return "leader sending a hostage"
    return tr.CARDS[state.cards[seat]] if len(state.cards) > seat else "dealing"


def talk(state: pyspiel.State, seat: int) -> list[talk_.Utterance]:
    assert isinstance(state, tr.TwoRoomsState)
    return talk_.heard(state.talk, seat)


def teams_known(state: pyspiel.State, seat: int) -> list[str | None]:
    assert isinstance(state, tr.TwoRoomsState)
    known = state.known(seat)
    out: list[str | None] = []
    for s in range(state.players):
        name = known.get(s)
        if name is None:
            out.append(None)
        elif name.endswith(" team"):
            out.append(name.split()[0])
        else:
            out.append(tr.COLOURS[tr.CARDS.index(name)])
    return out


def seen_to_move(state: pyspiel.State, seat: int | None, to_move: list[int]) -> list[int]:
    """The seats ``seat`` (None: a spectator) is shown as acting: the answer to a share is
    hidden from the other room (see :meth:`TwoRoomsState.seen_acting`)."""
    assert isinstance(state, tr.TwoRoomsState)
    return [state.seen_acting(seat)] if to_move else []


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    """Nothing in the rooms is clicked: moves are buttons and the talk box."""
    return None


def _height(players: int) -> int:
    return HEADER_HEIGHT + 70 + ((players + 1) // 2 + 1) * ROW_H + 40


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the seat
named, never "you")."""


def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None, watcher: bool = False) -> Image.Image:
    assert isinstance(state, tr.TwoRoomsState)
    height = _height(state.players)
    canvas = Canvas(WIDTH, height)
    mine = state.known(seat).get(seat, "")
    colour = INKS.get(state.team(seat), MUTED) if mine else MUTED
    header(canvas, f"{player(seat).title()}: {mine or 'dealing'}",
           _status(state, seat, watcher), colour=colour)
    line = _progress(state)
    canvas.text((WIDTH / 2, HEADER_HEIGHT + 22), line, size=17, bold=True, fill=INK,
                anchor="mm")
    if len(state.leaders) == 2:
        known, acting = state.known(seat), state.seen_acting(seat)
        for room in (0, 1):
            x0 = 14 + room * (ROOM_W + 12)
            y0 = HEADER_HEIGHT + 44
            canvas.rect((x0, y0, x0 + ROOM_W, height - 36), fill=(245, 242, 234),
                        outline=(170, 160, 140), width=2, radius=12)
            canvas.text((x0 + 12, y0 + 10), f"Room {room + 1}", size=17, bold=True, fill=INK)
            members = [s for s in range(state.players) if state.rooms[s] == room]
            for i, s in enumerate(members):
                y = y0 + 40 + i * ROW_H
                fill = SPEAKING if s == acting else (255, 255, 255)
                canvas.rect((x0 + 8, y, x0 + ROOM_W - 8, y + ROW_H - 6), fill=fill,
                            outline=YOU if s == seat else (200, 200, 200),
                            width=3 if s == seat else 1, radius=8)
                lead = " ★ leader" if s in state.leaders else ""
                name = player(s) + (" (you)" if s == seat and not watcher else "") + lead
                canvas.text((x0 + 18, y + 19), name, size=15, bold=True, fill=INK, anchor="lm")
                card = known.get(s, "?")
                ink = INKS.get(teams_known(state, seat)[s] or "", MUTED)
                canvas.text((x0 + ROOM_W - 18, y + 19), card, size=15, bold=card != "?",
                            fill=ink, anchor="rm")
    heard = talk(state, seat)
    if heard:
        said = heard[-1]
        who = "table" if said.speaker < 0 else player(said.speaker)
        canvas.text((16, height - 18), canvas.fit(f"{who} {said.kind}: {said.text}",
                                                  WIDTH - 32, size=14),
                    size=14, fill=INK, anchor="lm")
    return canvas.finish()


def _progress(state: tr.TwoRoomsState) -> str:
    if state.over:
        return "Red wins: the Bomber is with the President" if state.red_wins() else \
            "Blue wins: the Bomber is not with the President"
    if state.round >= tr.ROUNDS:
        return "The Gambler bets"
    return (f"Round {state.round + 1} of {tr.ROUNDS}: "
            + ("leaders choose hostages" if state.choosing else
               f"turn {state.turns + 1} of {state.lap_turns()}"))


def _status(state: tr.TwoRoomsState, seat: int, watcher: bool = False) -> str:
    if state.over:
        won = "won" if state.returns()[seat] > 0 else "lost"
        return f"Game over: {player(seat)} {won}" if watcher else f"Game over: you {won}"
    acting = state.seen_acting(seat)
    if acting < 0:
        return "Dealing"
    return "Your turn" if acting == seat and not watcher else f"{player(acting).title()} to act"


# --- the text view ------------------------------------------------------------------------

def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """Your card, the rooms and leaders, what you know of others, what you heard, now (for a
    ``watcher``: the same, the seat named instead of "you")."""
    assert isinstance(state, tr.TwoRoomsState)
    name = player(seat).title()
    who = f"{name}'s view, one of" if watcher else f"You are {player(seat)} of"
    lines = [f"{who} {state.players}. Red wins if the Bomber ends in the "
             "President's room; otherwise Blue wins."]
    known = state.known(seat)
    if seat in known:
        card = state.cards[seat]
        are = f"{name} is" if watcher else "You are"
        goal = {tr.GAMBLER: f"{are} grey: bet on the winning team at the end.",
                tr.PRESIDENT: f"{are} the President (Blue): stay away from the Bomber.",
                tr.BOMBER: f"{are} the Bomber (Red): end in the President's room."}
        whose = f"{name}'s" if watcher else "Your"
        lines.append(f"{whose} card: {tr.CARDS[card]} ({tr.COLOURS[card]}). "
                     + goal.get(card, f"{are} on the {tr.COLOURS[card]} team."))
    if len(state.leaders) == 2:
        for room in (0, 1):
            members = [player(s) + (" (leader)" if s in state.leaders else "")
                       for s in range(state.players) if state.rooms[s] == room]
            lines.append(f"Room {room + 1}: {', '.join(members)}.")
        others = [f"{player(s)}: {name}" for s, name in sorted(known.items()) if s != seat]
        lines.append((f"{name} knows: " if watcher else "You know: ")
                     + ("; ".join(others) if others else "nobody else's card") + ".")
    lines.append(_progress(state) + ".")
    lines.append(f"What {name} heard, in order:" if watcher else "What you heard, in order:")
    lines += [f"  {'table' if u.speaker < 0 else player(u.speaker)} {u.kind}"
              + (" (privately)" if u.private else "")
              + f": {u.text}" for u in talk(state, seat)[-40:]] or ["  nothing yet"]
    lines.append(_now(state, seat, watcher))
    return "\n".join(lines)


def _now(state: tr.TwoRoomsState, seat: int, watcher: bool = False) -> str:
    if state.over:
        return "Game over: " + _progress(state) + "."
    acting = state.seen_acting(seat)
    if acting != seat or watcher:
        return f"{player(acting).title()} is to act." if acting >= 0 else "Dealing."
    if state.betting():
        return "Your turn: bet red or bet blue (which team wins)."
    if state.offer is not None:
        giver, _, action = state.offer
        kind = "card" if action < tr.COLOUR_SHARE else "colour"
        return f"Your turn: {player(giver)} offers a {kind} share: accept or refuse."
    if state.choosing:
        return "Your turn as leader: send player <N> (a hostage from your room, not you)."
    return ("Your turn: say: <statement>, card share with player <N>, colour share with "
            "player <N> (someone in your room), reveal my card, or pass.")


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    seat_label=seat_label, seen_to_move=seen_to_move, seat_type=seat_type, talk=talk,
    teams_known=teams_known,
)
