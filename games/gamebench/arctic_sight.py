"""What one seat of Arctic Scavengers knows: the only source of its views and of its
information state string.

Everything a tribe does while gathering is done face up (the cards it plays, what it digs
up and keeps, whom it hires, what it trashes), so every tribe's size and the make-up of the
supply, the junkyard and the contested pile are public. Hidden from a seat: the other
tribes' hands, the order of any deck, what another tribe discarded without showing it
(its kept cards in rounds 1-2, or before the skirmish reveals them), and the contested card
the initiator peeked at. A seat's own deck make-up is known to it (not its order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.gamebench.arctic_cards import (
    MERCENARIES,
    NUM_CARDS,
    SABOTEUR,
    SKIRMISH_FROM,
    SNIPER,
    people,
)


@dataclass(frozen=True)
class TribeSight:
    """One tribe as the viewing seat sees it (``hand``, ``deck`` and ``force`` are None when
    hidden from it; ``deck`` is the make-up, sorted, never the order)."""

    seat: int
    hand: tuple[int, ...] | None
    hand_count: int
    deck: tuple[int, ...] | None
    deck_count: int
    discard_seen: tuple[int, ...]
    discard_count: int
    played: tuple[int, ...]
    force: tuple[int, ...] | None
    force_count: int
    gathered: bool
    food: int
    used: tuple[str, ...]
    spent: tuple[int, int]
    """Snipes and sabotages made this skirmish."""
    won: tuple[int, ...]
    people: int
    fight: int | None
    """Fight in the skirmish, once the forces are revealed."""
    cancels: int


@dataclass(frozen=True)
class Sight:
    seat: int
    players: int
    round: int
    initiator: int
    phase: str
    actor: int | None
    """The seat that must act (None while chance deals or when the game is over)."""
    over: bool
    returns: tuple[float, ...] | None
    tribes: tuple[TribeSight, ...]
    mercs: tuple[int, ...]
    """Cards left in each mercenary pile, in ``MERCENARIES`` order."""
    junk: tuple[int, ...]
    """The junkyard's make-up (sorted cards, its order unknown to all)."""
    bottom: tuple[int, ...]
    contested: tuple[int, ...]
    """The contested resources still to fight for (the peeked one included), sorted."""
    peeked: int | None
    pick_kind: str
    picked: tuple[int, ...]
    hiring: int | None
    paid: tuple[int, ...]
    due: int
    dug: tuple[int, ...]
    log: tuple[str, ...]

    @property
    def me(self) -> TribeSight:
        return self.tribes[self.seat]

    @property
    def skirmish_round(self) -> bool:
        return self.round >= SKIRMISH_FROM


def _cards(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(c for c in range(NUM_CARDS) for _ in range(counts[c]))


def sight(state: Any, seat: int) -> Sight:
    """What ``seat`` knows in ``state`` (an ``ArcticState``)."""
    tribes = []
    for p, t in enumerate(state.tribes):
        mine = p == seat
        shown = mine or state.revealed
        tribes.append(TribeSight(
            seat=p, hand=tuple(t.hand) if mine else None, hand_count=len(t.hand),
            deck=_cards(t.deck) if mine else None, deck_count=sum(t.deck),
            discard_seen=tuple(sorted(c for c, seen in t.discard if seen or mine)),
            discard_count=len(t.discard), played=tuple(t.played),
            force=tuple(sorted(t.force)) if shown and t.gathered else None,
            force_count=len(t.force), gathered=t.gathered, food=t.food,
            used=tuple(sorted(t.used)), spent=(t.spent[SNIPER], t.spent[SABOTEUR]),
            won=tuple(t.won), people=people(state.owned(p)),
            fight=state.fight(p) if state.revealed else None, cancels=t.cancels))
    over = state.is_terminal()
    chance = bool(state.pending)
    contested = list(state.contested)
    if state.top is not None:
        contested[state.top] += 1
    return Sight(
        seat=seat, players=state.players, round=state.round, initiator=state.initiator,
        phase=state.phase, actor=None if over or chance else state.actor, over=over,
        returns=tuple(state.returns()) if over else None, tribes=tuple(tribes),
        mercs=tuple(state.mercs[c] for c in MERCENARIES),
        junk=_cards(state.junk), bottom=tuple(state.bottom), contested=_cards(contested),
        peeked=state.top if seat == state.initiator else None,
        pick_kind=state.pick_kind if state.phase == "pick" else "",
        picked=tuple(state.picked), hiring=state.hiring, paid=tuple(state.paid),
        due=state.due if state.hiring is not None else 0, dug=tuple(state.dug),
        log=state.log,
    )


def sight_key(state: Any, seat: int) -> str:
    """The information state string of ``seat``: its sight, written out."""
    return repr(sight(state, seat))


# --- what the seat does not know, dealt again ----------------------------------------------

def redeal(world: Any, player: int, sampler: Callable[[], float]) -> None:
    """Deal again, in ``world`` (a copy of an ``ArcticState``), every card ``player`` cannot
    see: others' hands, decks, face-down discards and unrevealed kept cards, and a contested
    card peeked by someone else. ``sampler()`` gives floats in [0, 1). The result depends
    only on what ``player`` knows (and the sampler), never on where the cards really were."""
    for seat, t in enumerate(world.tribes):
        if seat != player:
            _redeal(t, not world.revealed, sampler)
    if world.top is not None and world.initiator != player:
        world.contested[world.top] += 1
        world.top = _pick(world.contested, sampler)
        world.contested[world.top] -= 1


def _redeal(t: Any, force_hidden: bool, sampler: Callable[[], float]) -> None:
    hidden_discard = [i for i, (_, seen) in enumerate(t.discard) if not seen]
    pool = list(t.hand) + [c for c in range(NUM_CARDS) for _ in range(t.deck[c])]
    pool += [t.discard[i][0] for i in hidden_discard]
    pool += t.force if force_hidden else []
    pool.sort()  # from what the viewer knows only: the shuffle must not depend on the truth
    for i in range(len(pool) - 1, 0, -1):  # Fisher-Yates with the caller's randomness
        j = min(i, int(sampler() * (i + 1)))
        pool[i], pool[j] = pool[j], pool[i]
    t.hand = sorted(pool[:len(t.hand)])
    rest = pool[len(t.hand):]
    for i in hidden_discard:
        t.discard[i] = (rest.pop(), False)
    if force_hidden:
        t.force = sorted(rest[:len(t.force)])
        rest = rest[len(t.force):]
    t.deck = [0] * NUM_CARDS
    for card in rest:
        t.deck[card] += 1


def _pick(counts: list[int], sampler: Callable[[], float]) -> int:
    point = sampler() * sum(counts)
    for card, count in enumerate(counts):
        point -= count
        if point < 0 and count:
            return card
    return max(c for c, n in enumerate(counts) if n)
