"""What one seat of Pit knows: its own hand and offer, and the public table.

:func:`observe` is the only way views are built (the text view, the image, the observation
string, the LLM prompt): it reads the seat's own cards, the size of every standing offer,
how many cards each seat holds, the scores, and the events of the hand as that seat saw them
(the cards of a trade only for the two traders). Another seat's hand never enters it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from games.gamebench.pit_cards import (
    BEAR,
    BULL,
    COMMODITIES,
    PENALTY,
    Bundle,
    Corner,
    Event,
    card_name,
    seat_name,
)


class Table(Protocol):
    """What :func:`observe` reads of a Pit state (``pit_rules.PitState``; a protocol, so the
    rules can build their observations here without an import circle)."""

    hands: list[list[int]]
    offers: dict[int, Bundle]
    scores: list[int]
    events: list[Event]
    hand: int
    to_move: int

    @property
    def dealing(self) -> bool: ...

    @property
    def round(self) -> int: ...

    def is_terminal(self) -> bool: ...

    def ended_by(self) -> str: ...

    def get_game(self) -> Any: ...


LOG_LINES = 20
"""Events of the hand shown in the text view (the newest)."""


@dataclass(frozen=True)
class TableSeat:
    """A seat as everyone sees it."""

    seat: int
    score: int
    cards: int
    offer: int | None
    """How many cards its standing offer holds (None: no offer)."""


@dataclass(frozen=True)
class Knowledge:
    """One seat's view of a Pit table."""

    seat: int
    hand: tuple[int, ...]
    """The seat's own cards, by card id (commodities 0-7, Bull 8, Bear 9)."""
    offer: Bundle | None
    table: tuple[TableSeat, ...]
    in_play: tuple[int, ...]
    bull_bear: bool
    to_move: int | None
    hand_number: int
    round: int
    max_rounds: int
    target: int
    log: tuple[str, ...]
    """This hand's events as the seat saw them, oldest first."""
    last_corner: str | None
    """How the previous hand ended."""
    over: bool
    ended_by: str

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(t.score for t in self.table)

    def hand_text(self) -> str:
        """``4 Wheat, 2 Barley, Bear`` (what the seat holds)."""
        parts = [f"{self.hand[c]} {COMMODITIES[c][0]}" for c in self.in_play if self.hand[c]]
        parts += [card_name(c) for c in (BULL, BEAR) if self.hand[c]]
        return ", ".join(parts) or "no cards"

    def summary(self) -> str:
        """A compact observation: whose turn, scores, the seat's hand and the offers."""
        offers = "; ".join(f"{seat_name(t.seat)} {t.offer}" for t in self.table
                           if t.offer is not None) or "none"
        mine = self.offer.text() if self.offer else "none"
        scores = ", ".join(f"{seat_name(t.seat)} {t.score}" for t in self.table)
        turn = "over" if self.over else seat_name(self.to_move or 0)
        return (f"{seat_name(self.seat)} | hand {self.hand_number} round {self.round} | to "
                f"move: {turn} | scores: {scores} | my cards: {self.hand_text()} | my offer: "
                f"{mine} | offers: {offers}")


def observe(state: Table, seat: int, *, events: bool = True, watcher: bool = False) -> Knowledge:
    """What ``seat`` knows of ``state`` (see the module docstring); without the hand's
    ``events`` (an empty log) when only the table is needed (hit-tests); for a ``watcher``
    (a spectator of that seat) the events name the seat instead of saying "you"."""
    game = state.get_game()
    table = tuple(TableSeat(s, state.scores[s], sum(state.hands[s]),
                            state.offers[s].size if s in state.offers else None)
                  for s in range(game.players))
    start = _last_hand_start(state.events) if events else len(state.events)
    previous = [e for e in state.events[:start] if e.kind == "corner"] if events else []
    waiting = not state.is_terminal() and not state.dealing
    return Knowledge(
        seat=seat, hand=tuple(state.hands[seat]), offer=state.offers.get(seat), table=table,
        in_play=tuple(range(game.players)), bull_bear=game.bull_bear,
        to_move=state.to_move if waiting else None, hand_number=state.hand,
        round=min(state.round, game.max_rounds), max_rounds=game.max_rounds,
        target=game.target,
        log=tuple(seen(event, seat, watcher=watcher) for event in state.events[start:]),
        last_corner=corner_text(previous[-1].corner, seat, watcher=watcher)
        if previous and previous[-1].corner
        else None,
        over=state.is_terminal(), ended_by=state.ended_by(),
    )


def _last_hand_start(events: list[Event]) -> int:
    starts = [i for i, event in enumerate(events) if event.kind == "deal"]
    return starts[-1]


def _who(seat: int, viewer: int, *, subject: bool = True, watcher: bool = False) -> str:
    if seat == viewer and not watcher:
        return "You" if subject else "you"
    return seat_name(seat)


def seen(event: Event, viewer: int, *, watcher: bool = False) -> str:
    """One event as ``viewer`` saw it (for a ``watcher``: the viewer named, not "you")."""
    who = _who(event.seat, viewer, watcher=watcher)
    mine = event.seat == viewer and not watcher
    if event.kind == "deal":
        return "New hand dealt; " + ("you start." if mine else f"{seat_name(event.seat)} starts.")
    if event.kind == "pass":
        return f"{who} passed."
    if event.kind == "withdraw":
        return f"{who} withdrew {'your' if mine else 'its'} offer."
    if event.kind == "offer":
        if event.seat == viewer:
            return f"{who} offered {event.private[viewer].text()}."
        return f"{who} offered {_cards(event.count)}."
    if event.kind == "trade":
        assert event.other is not None
        if viewer in event.private:
            partner = event.other if viewer == event.seat else event.seat
            gave, got = event.private[viewer], event.private[partner]
            me = _who(viewer, viewer, subject=False, watcher=watcher)
            deal = f"{me} gave {gave.text()} and got {got.text()}"
            if viewer == event.seat:
                return f"{who} accepted {seat_name(partner)}'s offer: {deal}."
            theirs = f"{seat_name(viewer)}'s" if watcher else "your"
            return f"{seat_name(event.seat)} accepted {theirs} offer: {deal}."
        return (f"{who} accepted {seat_name(event.other)}'s offer: {_cards(event.count)} "
                "each way.")
    assert event.corner is not None
    return corner_text(event.corner, viewer)


def corner_text(corner: Corner, viewer: int, *, watcher: bool = False) -> str:
    if corner.seat is None:
        return "The market closed (the turn limit): this hand scores nothing."
    assert corner.commodity is not None
    name = _who(corner.seat, viewer, watcher=watcher)
    text = (f"{name} cornered {COMMODITIES[corner.commodity][0]} ({corner.kind}): "
            f"+{corner.points}.")
    for seat, card in corner.penalties:
        held = _who(seat, viewer, watcher=watcher)
        text += f" {held} held the {card}: -{PENALTY}."
    return text


def _cards(count: int) -> str:
    return f"{count} card" + ("" if count == 1 else "s")
