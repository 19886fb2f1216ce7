"""Two Rooms and a Boom: a bot that shares, talks and sends hostages by evidence.

Every decision it rebuilds what its seat knows — its own card, what shares and reveals
showed it, the rooms and leaders — and weighs every deal of the hidden cards that fits
(:mod:`agents.bots.deduction`) by what its room said: each claim ("I am blue", "player 3 is
the Bomber"), read from anyone's words, counts as evidence, a Red speaker being the likelier
liar. It offers shares to learn the others' colours (card shares when its card gives little
away, colour shares for the President and the Bomber, whose cards only a known teammate
sees), accepts or refuses shares the same way, reports what it learned when that helps its
team (and misleads when its room's leader is an opponent), claims a colour (Red lies), and
never reveals its card to the room. As a leader it sends the hostage that gives its team
the best chance of winning, looking ahead over the exchanges left with each leader playing
half at random and half for its team; the Gambler bets on what it believes.

It reads only what its seat may know: ``state.known(seat)``, the talk it heard, the public
rooms, leaders and round, the moves it was shown and its legal moves.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from agents.base import Decision, SeatView
from agents.bots.deduction import Beliefs, Claim, Vocabulary, Voice, read_claims, speech
from games import talk
from games.actions import ActionId, Text
from games.gamebench import two_rooms_and_a_boom as tr
from games.gamebench.social import player
from games.registry import GameSpec

RED_TEAM, BLUE_TEAM, PRESIDENT, BOMBER, GAMBLER = (tr.RED_TEAM, tr.BLUE_TEAM, tr.PRESIDENT,
                                                    tr.BOMBER, tr.GAMBLER)
EVERY = frozenset(range(len(tr.CARDS)))
RED = frozenset({RED_TEAM, BOMBER})
BLUE = frozenset({BLUE_TEAM, PRESIDENT})
TEAM_OF = {card: tr.COLOURS[card] for card in EVERY}
P_SEND, B_SEND, OTHER = "P", "B", "O"


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


VOCABULARY = Vocabulary(
    words=((_words(r"\bpresident\b"), frozenset({PRESIDENT})),
           (_words(r"\bbomb(?:er)?\b"), frozenset({BOMBER})),
           (_words(r"\bgambler\b|\bgr[ae]y\b"), frozenset({GAMBLER})),
           (_words(r"\bred\s+team\s+card\b"), frozenset({RED_TEAM})),
           (_words(r"\bblue\s+team\s+card\b"), frozenset({BLUE_TEAM})),
           (_words(r"\bred\b"), RED),
           (_words(r"\bblue\b"), BLUE)),
    every=EVERY, suspect=RED, trusted=BLUE)

_OFFER = re.compile(r"a (card|colour) share to player (\d+)")


# --- what the seat knows ------------------------------------------------------------------

@dataclass
class Sight:
    """Everything one seat knows at its decision."""

    seat: int
    players: int
    card: int
    known: dict[int, str]
    rooms: list[int]
    leaders: list[int]
    round: int
    heard: list[talk.Utterance]
    offer: tuple[int, str] | None
    """Who offers this seat a share now, and which kind."""
    refused: Counter[int] = field(default_factory=Counter)
    """How often each seat refused this seat's offers."""
    claims: list[Claim] = field(default_factory=list)

    @classmethod
    def read(cls, view: SeatView) -> Sight:
        state = view.state
        assert isinstance(state, tr.TwoRoomsState)
        seat = view.seat
        known = state.known(seat)
        heard = talk.heard(state.talk, seat)
        offer = None
        if any(move.action == tr.ACCEPT for move in view.legal):
            offered = [u for u in heard if u.kind == "offers"][-1]
            found = _OFFER.match(offered.text)
            offer = (offered.speaker, found[1] if found else "card")
        sight = cls(seat, state.players, tr.CARDS.index(known[seat]), known,
                    list(state.rooms), list(state.leaders), state.round, heard, offer)
        pending: dict[int, int] = {}
        for said in heard:
            found = _OFFER.match(said.text) if said.kind == "offers" else None
            if found and said.speaker == seat:
                pending[int(found[2]) - 1] = 1
            elif said.kind == "refuses" and pending.pop(said.speaker, 0):
                sight.refused[said.speaker] += 1
            if said.kind == "says" and said.speaker not in (-1, seat):
                sight.claims += read_claims(said.text, said.speaker, VOCABULARY, state.players)
        return sight

    @property
    def team(self) -> str:
        return TEAM_OF[self.card]

    def room(self) -> list[int]:
        return [s for s in range(self.players) if self.rooms[s] == self.rooms[self.seat]]

    def leader(self) -> int:
        return self.leaders[self.rooms[self.seat]]

    def colour_known(self, seat: int) -> str | None:
        name = self.known.get(seat)
        if not name:
            return None
        return TEAM_OF[tr.CARDS.index(name)] if name in tr.CARDS else name.split()[0]

    def card_known(self, seat: int) -> int | None:
        name = self.known.get(seat)
        return tr.CARDS.index(name) if name in tr.CARDS else None


def _allowed(name: str) -> frozenset[int]:
    if name in tr.CARDS:
        return frozenset({tr.CARDS.index(name)})
    colour = name.split()[0] if name else ""
    fits = frozenset(c for c in EVERY if TEAM_OF[c] == colour)
    return fits or EVERY


def beliefs(sight: Sight) -> Beliefs:
    """The deals that fit what the seat saw, weighed by what its room said."""
    cards = Counter(tr.deck(sight.players))
    allowed = {s: _allowed(name) for s, name in sight.known.items()}
    found = Beliefs.dealt(sight.players, [(list(range(sight.players)), allowed, cards)])
    worlds = found.worlds

    def false_rate(claim: Claim) -> np.ndarray:
        speaker = worlds[:, claim.speaker]
        return np.where(np.isin(speaker, list(RED)), 0.75,
                        np.where(speaker == GAMBLER, 0.3, 0.15))

    found.weigh_claims(sight.claims, false_rate)
    return found


# --- hostages ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """What decides the end in one world: where the President and the Bomber are, whether
    either is a leader (leaders never move), each room's movable players, each leader's
    team, and how often each leader plays for its team rather than at random (this seat
    knows its own room; the other leader is half a guess)."""

    movable: tuple[int, int]
    teams: tuple[str, str]
    president_leads: bool
    bomber_leads: bool
    sense: tuple[float, float]


def _wanted(table: Table, room: int, where: tuple[int, int], final: bool) -> dict[str, float]:
    """Whom a leader who knows where the President and the Bomber are sends, by category
    (the President, the Bomber, someone else). Before the last exchange both teams keep
    what they hold (a Bomber sent early can be sent back); at the last, Red brings the two
    together and Blue parts them, guessing when both leaders could move one."""
    r_p, r_b = where
    here_p = r_p == room and not table.president_leads
    here_b = r_b == room and not table.bomber_leads
    team, rival = table.teams[room], table.teams[1 - room]
    both = r_p == r_b == room
    if team == "blue" and both and (here_b or here_p):
        return {B_SEND: 1.0} if here_b else {P_SEND: 1.0}
    if not final or team not in ("red", "blue") or both:
        return {OTHER: 1.0}
    if team == "red" and (here_b or here_p):
        mover, fixed = (B_SEND, table.president_leads) if here_b else \
            (P_SEND, table.bomber_leads)
        share = 1.0 if fixed or rival != "red" else 0.5
        return {mover: share, OTHER: 1 - share}
    if team == "blue" and here_p and rival == "red" and not table.bomber_leads:
        return {P_SEND: 0.5, OTHER: 0.5}
    return {OTHER: 1.0}


def _policy(table: Table, room: int, where: tuple[int, int],
            final: bool) -> dict[str, float]:
    """How a room's leader sends, by category: at random, or as its team wants."""
    r_p, r_b = where
    here_p = r_p == room and not table.president_leads
    here_b = r_b == room and not table.bomber_leads
    movable = table.movable[room]
    others = movable - here_p - here_b
    uniform = {P_SEND: here_p / movable, B_SEND: here_b / movable, OTHER: others / movable}
    want = _wanted(table, room, where, final)
    if want.get(OTHER, 0.0) > 0 and not others:
        want = uniform
    sense = table.sense[room]
    return {k: (1 - sense) * uniform[k] + sense * want.get(k, 0.0) for k in uniform}


def _moved(where: tuple[int, int], sent: tuple[str, str]) -> tuple[int, int]:
    r_p, r_b = where
    if P_SEND in sent:
        r_p = 1 - r_p
    if B_SEND in sent:
        r_b = 1 - r_b
    return r_p, r_b


@lru_cache(maxsize=4096)
def red_chance(table: Table, where: tuple[int, int], exchanges: int) -> float:
    """The chance the President and the Bomber end in one room, ``exchanges`` exchanges
    from now, both leaders playing :func:`_policy`."""
    if exchanges == 0:
        return 1.0 if where[0] == where[1] else 0.0
    total = 0.0
    final = exchanges == 1
    for a, pa in _policy(table, 0, where, final).items():
        for b, pb in _policy(table, 1, where, final).items():
            if pa * pb:
                total += pa * pb * red_chance(table, _moved(where, (a, b)), exchanges - 1)
    return total


def hostage_chances(sight: Sight, found: Beliefs, candidates: list[int]) -> dict[int, float]:
    """Per candidate hostage: the chance Red wins if this seat's leader sends it."""
    mine = sight.rooms[sight.seat]
    sizes = Counter(sight.rooms)
    movable = (sizes[0] - 1, sizes[1] - 1)
    sense = (0.8, 0.5) if mine == 0 else (0.5, 0.8)
    left = tr.ROUNDS - sight.round - 1
    worlds, weights = found.worlds, found.weights
    presidents = np.argmax(worlds == PRESIDENT, axis=1)
    bombers = np.argmax(worlds == BOMBER, axis=1)
    keys = np.stack([presidents, bombers, worlds[:, sight.leaders[0]],
                     worlds[:, sight.leaders[1]]], axis=1)
    groups, inverse = np.unique(keys, axis=0, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=weights, minlength=len(groups))
    out = dict.fromkeys(candidates, 0.0)
    for (p, b, lead0, lead1), weight in zip(groups.tolist(), sums.tolist(), strict=True):
        table = Table(movable, (TEAM_OF[lead0], TEAM_OF[lead1]), p in sight.leaders,
                      b in sight.leaders, sense)
        where = (sight.rooms[p], sight.rooms[b])
        theirs = _policy(table, 1 - mine, where, left == 0)
        for seat in candidates:
            sent = P_SEND if seat == p else B_SEND if seat == b else OTHER
            chance = sum(q * red_chance(table, _moved(where, (sent, other)), left)
                         for other, q in theirs.items() if q)
            out[seat] += weight * chance
    return out


# --- the bot -----------------------------------------------------------------------------

class TwoRoomsBot:
    """Shares and talks for its team, reads the room, sends hostages by evidence."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self.game = game
        self.voice = Voice(rng)

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        sight = Sight.read(view)
        found = beliefs(sight)
        legal = {move.action for move in view.legal}
        action, words, why = self._choose(sight, found, legal)
        if words is None:
            return Decision(ActionId(action=action), raw=view.label(action), reasoning=why,
                            seconds=time.perf_counter() - start)
        form = self.game.grammar.free_text
        assert form is not None
        text = form.write(view.state, view.seat, action, words)
        return Decision(Text(text=text, source="llm"), raw=text, reasoning=why,
                        seconds=time.perf_counter() - start)

    def _choose(self, sight: Sight, found: Beliefs,
                legal: set[int]) -> tuple[int, str | None, str]:
        if tr.BET_RED in legal:
            red = red_now(sight, found)
            bet = tr.BET_RED if red >= 0.5 else tr.BET_BLUE
            return bet, None, f"Red wins with chance {red:.2f} by what I know"
        if tr.ACCEPT in legal:
            yes = self._accepts(sight)
            return (tr.ACCEPT if yes else tr.REFUSE), None, \
                "the share tells me more than it gives away" if yes else \
                "my card is not for this player's eyes"
        sends = sorted(a - tr.SEND for a in legal if tr.SEND <= a < tr.BET_RED)
        if sends:
            return self._hostage(sight, found, sends)
        return self._turn(sight, found, legal)

    # --- shares ----------------------------------------------------------------------------

    def _accepts(self, sight: Sight) -> bool:
        assert sight.offer is not None
        giver, kind = sight.offer
        theirs = sight.colour_known(giver)
        if sight.card == PRESIDENT:
            return kind == "colour" and theirs != "red" or theirs == "blue"
        if sight.card == BOMBER:
            return kind == "colour" and theirs != "blue" or theirs == "red"
        return True

    def _share_with(self, sight: Sight, seat: int) -> int | None:
        """The share this seat would offer ``seat`` (an action), or None."""
        if sight.refused[seat] >= 2 or sight.card_known(seat) is not None:
            return None
        theirs = sight.colour_known(seat)
        key = {PRESIDENT: "blue", BOMBER: "red"}.get(sight.card)
        if key is None:
            return tr.CARD_SHARE + seat
        if theirs is None and sight.refused[seat] == 0:
            return tr.COLOUR_SHARE + seat
        if theirs == key:
            return tr.CARD_SHARE + seat
        return None

    # --- hostages and bets -----------------------------------------------------------------

    def _hostage(self, sight: Sight, found: Beliefs,
                 candidates: list[int]) -> tuple[int, None, str]:
        red = hostage_chances(sight, found, candidates)
        if sight.team == "red":
            value = red
        elif sight.team == "blue":
            value = {s: 1 - p for s, p in red.items()}
        else:
            value = {s: max(p, 1 - p) for s, p in red.items()}
        friend = BLUE if sight.team == "blue" else RED if sight.team == "red" else frozenset()

        def order(seat: int) -> tuple[float, float, int]:
            return round(value[seat], 3), -found.chance(seat, friend), -seat

        best = max(candidates, key=order)
        return tr.SEND + best, None, \
            f"sending {player(best)}: my team then wins with chance {value[best]:.2f}"

    # --- a turn in the room ------------------------------------------------------------------

    def _turn(self, sight: Sight, found: Beliefs,
              legal: set[int]) -> tuple[int, str | None, str]:
        leader = sight.leader()
        room = [s for s in sight.room() if s != sight.seat]
        mine = self._spoken(sight)
        if leader != sight.seat and sight.colour_known(leader) is None:
            share = self._share_with(sight, leader)
            if share in legal:
                return share, None, f"learning the colour of my leader, {player(leader)}"
            revealed = any(u.speaker == sight.seat and u.kind == "reveals" for u in sight.heard)
            if sight.card == BLUE_TEAM and sight.refused[leader] and not revealed and \
                    tr.REVEAL in legal:
                return tr.REVEAL, None, (f"{player(leader)} will not share: showing my Blue "
                                         "Team card to the room earns its trust")
        for seat, words in self._report(sight, found):
            if seat not in mine:
                return tr.SAY, words, f"telling the room about {player(seat)}"
        for seat in sorted(room, key=lambda s: (s != leader, s)):
            share = self._share_with(sight, seat)
            if share in legal and self.voice.chance(0.8):
                return share, None, f"learning the card of {player(seat)}"
        if sight.seat not in mine or self.voice.chance(0.5):
            return tr.SAY, self._chatter(sight, found, room), "telling the room where I stand"
        return tr.PASS, None, "nothing new to say or learn"

    def _spoken(self, sight: Sight) -> set[int]:
        """The seats this seat has already talked about to the company it is in (itself for a
        claim of its own): since neither it nor they last changed rooms."""
        moved: dict[int, int] = {}
        told: dict[int, int] = {}
        for i, said in enumerate(sight.heard):
            if said.kind == "exchange":
                for number in re.findall(r"player (\d+)", said.text):
                    moved[int(number) - 1] = i
            elif said.speaker == sight.seat and said.kind == "says":
                for claim in read_claims(said.text, sight.seat, VOCABULARY, sight.players):
                    told[claim.subject] = i
        return {seat for seat, i in told.items()
                if i > max(moved.get(seat, -1), moved.get(sight.seat, -1))}

    def _report(self, sight: Sight, found: Beliefs) -> list[tuple[int, str]]:
        """What this seat learned that its room should hear (or a useful lie), each with the
        seat it is about."""
        room = set(sight.room())
        leader = sight.leader()
        friend = BLUE if sight.team == "blue" else RED
        leader_friend = leader == sight.seat or found.chance(leader, friend) > 0.9
        seen = [(s, sight.known[s]) for s in sorted(sight.known)
                if s != sight.seat and s in room]
        out: list[tuple[int, str]] = []
        if sight.team in ("blue", "grey"):
            for seat, name in seen:
                how = "card" if name in tr.CARDS else "colour"
                if name == "Bomber":
                    out.append((seat, self.voice.pick([
                        f"{player(seat)} showed me their card: the Bomber. Keep them away "
                        "from the President",
                        f"Careful, {player(seat)} is the Bomber; I saw the card myself",
                        f"I have seen {player(seat)}'s card and it is the Bomber"])))
                elif name.lower() == "red team" and sight.team == "blue":
                    out.append((seat, self.voice.pick([
                        f"{player(seat)} is red: I have seen their {how}",
                        f"Do not trust {player(seat)}, they are on the red team",
                        f"I checked {player(seat)}'s {how}: red"])))
                elif name == "President" and not leader_friend and sight.team == "blue":
                    continue
                elif name == "President" and leader != sight.seat:
                    out.append((seat, f"{player(seat)} is our President; keep the Bomber "
                                "out of this room"))
                elif name.lower() == "blue team" and sight.team == "blue":
                    out.append((seat, self.voice.pick([
                        f"{player(seat)} is blue, I have seen their {how}",
                        f"I can vouch for {player(seat)}: blue"])))
        elif leader_friend and leader != sight.seat:
            out += [(seat, self.voice.pick([
                f"{player(seat)} showed me their card: the President is in this room",
                f"I have seen it: {player(seat)} is the President"]))
                for seat, name in seen if name == "President"]
        elif leader != sight.seat and sight.colour_known(leader) == "blue":
            out += [(seat, self.voice.pick([
                f"{player(seat)} is the Bomber, I saw the card",
                f"Watch out, {player(seat)} showed me the Bomber card"]))
                for seat, name in seen if name.lower() == "blue team" and seat != leader]
        weight = ("Bomber", "red", "President")  # the news that matters most first
        out.sort(key=lambda item: next((i for i, w in enumerate(weight) if w in item[1]),
                                       len(weight)))
        return [(seat, speech([words])) for seat, words in out]

    def _chatter(self, sight: Sight, found: Beliefs, room: list[int]) -> str:
        parts = [self._claim(sight)]
        leader = sight.leader()
        if leader == sight.seat:
            parts.append(self.voice.pick([
                f"I lead room {sight.rooms[sight.seat] + 1}: show me your colours, or you "
                "are the first I send away",
                "As leader I send whoever I trust least, so share with me",
                f"I will keep the players I can vouch for in room "
                f"{sight.rooms[sight.seat] + 1}"]))
        else:
            unknown = [s for s in room if sight.colour_known(s) is None]
            if unknown:
                who = unknown[int(self.voice.rng.integers(len(unknown)))]
                parts.append(self.voice.pick([
                    f"{player(who)}, will you colour share with me?",
                    f"{player(who)}, what colour are you?",
                    f"I have not seen {player(who)}'s card yet"]))
            else:
                parts.append(self.voice.pick([
                    f"{player(leader)}, who are you sending this round?",
                    f"I know everyone's colour in room {sight.rooms[sight.seat] + 1} now",
                    f"{player(leader)}, I can vouch for what I have seen"]))
        return speech(parts)

    def _claim(self, sight: Sight) -> str:
        """What this seat says it is: Blue tells its colour (the President no more than
        that), Red says it is blue, the Gambler owns up."""
        if sight.card == GAMBLER:
            return self.voice.pick(["I am the Gambler, so I only want to back the winner",
                                    "Grey here: I am the Gambler"])
        return self.voice.pick(["I am on the blue team", "I'm blue, happy to colour share",
                                "Blue here, for what it's worth",
                                "I hold a blue card"])


def red_now(sight: Sight, found: Beliefs) -> float:
    """The chance the President and the Bomber share a room as things stand."""
    worlds = found.worlds
    rooms = np.array(sight.rooms)
    president = rooms[np.argmax(worlds == PRESIDENT, axis=1)]
    bomber = rooms[np.argmax(worlds == BOMBER, axis=1)]
    return float(found.weights[president == bomber].sum())
