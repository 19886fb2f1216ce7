"""Are You the Traitor?: a bot that deduces, talks and calls stop by evidence.

Every decision it rebuilds what its seat knows this round — its character, who the Wizards
are, the Keyholder or fellow Traitors where the rules show them — and weighs every deal of
the hidden characters that fits (:mod:`agents.bots.deduction`) by what the table did and
said this round: a seat that had turns without calling stop looks more like a Traitor (who
may not call it), and claims and accusations, read from anyone's words, count as evidence
with lies allowed for. From the rounds already revealed it learns each seat's habits (how
often it calls stop, how often the table's stops were right). It calls stop when the call is
worth more to its standing than waiting; otherwise it talks: it claims a character (the
evil side and the hiding Keyholder lie), accuses or questions the seat it suspects, answers
what it is asked, or passes. It never says it is a Traitor or the Evil Wizard.

It reads only what its seat may know: ``state.known(seat)``, the public talk, the revealed
rounds, the treasure counts and its own points, the moves it was shown and its legal moves.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from agents.base import Decision, SeatView
from agents.bots.deduction import (
    Beliefs,
    Claim,
    Vocabulary,
    Voice,
    asks_who,
    read_answer,
    read_claims,
    speech,
)
from games import talk
from games.actions import ActionId, Text
from games.gamebench import are_you_the_traitor as ayt
from games.gamebench.social import player
from games.registry import GameSpec

KEYHOLDER, GUARD, TRAITOR, GOOD_WIZARD, EVIL_WIZARD = range(5)
NAMES = ("Keyholder", "Guard", "Traitor", "Good Wizard", "Evil Wizard")
ROLE_OF = {name: role for role, name in enumerate(NAMES)}
GOOD = frozenset({KEYHOLDER, GUARD, GOOD_WIZARD})
EVIL = frozenset({TRAITOR, EVIL_WIZARD})
EVERY = GOOD | EVIL
TARGETS: dict[int, frozenset[int]] = {
    KEYHOLDER: frozenset({GOOD_WIZARD}), GUARD: frozenset({TRAITOR}),
    GOOD_WIZARD: frozenset({TRAITOR}), EVIL_WIZARD: frozenset({KEYHOLDER}),
    TRAITOR: frozenset()}
"""Whom each character's stop must find."""
COVER = {KEYHOLDER: GUARD, GUARD: GUARD, TRAITOR: GUARD, GOOD_WIZARD: GOOD_WIZARD,
         EVIL_WIZARD: GOOD_WIZARD}
"""The character each says it has: the evil side lies, and so does the Keyholder (the Evil
Wizard hunts it)."""

_VALUES = {value: n / sum(ayt.TREASURE.values()) for value, n in ayt.TREASURE.items()}
CARD_MEAN = sum(v * p for v, p in _VALUES.items())
CARD_VAR = sum(v * v * p for v, p in _VALUES.items()) - CARD_MEAN ** 2


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


VOCABULARY = Vocabulary(
    words=((_words(r"\bgood\s+wizard\b"), frozenset({GOOD_WIZARD})),
           (_words(r"\b(?:evil|bad)\s+wizard\b"), frozenset({EVIL_WIZARD})),
           (_words(r"\bkey\s*-?\s*holder\b|(?:(?<=\bhold\s)|(?<=\bholds\s)|(?<=\bhas\s)|"
                   r"(?<=\bhave\s))the\s+key\b"), frozenset({KEYHOLDER})),
           (_words(r"\bguards?\b"), frozenset({GUARD})),
           (_words(r"\btraitors?\b"), frozenset({TRAITOR})),
           (_words(r"\bwizard\b"), frozenset({GOOD_WIZARD, EVIL_WIZARD})),
           (_words(r"\bevil\b|\bbad\s+(?:side|team|guys?)\b"), EVIL),
           (_words(r"\bgood\s+(?:side|team|guys?|ones?)\b|\bon\s+the\s+good\b"
                   r"|\b(?:is|am|are|'m|'re)\s+good\b"), GOOD)),
    every=EVERY, suspect=EVIL, trusted=GOOD)

_ASKED = re.compile(r"^\(to player (\d+)\)\s*(.*)$", re.DOTALL)
_ROUND_END = ("calls", "round ends")


# --- what the seat knows ------------------------------------------------------------------

@dataclass
class Sight:
    """Everything one seat knows at its decision."""

    seat: int
    players: int
    role: int
    known: dict[int, str]
    wizards: list[int]
    first: int
    turns: int
    said: list[talk.Utterance]
    """This round's talk."""
    past: list[tuple[list[int], list[tuple[int, bool]], tuple[int, int, bool] | None]]
    """Revealed rounds: characters, turns (seat, called stop), the stop."""
    points: int
    cards: list[int]
    asked_by: int | None
    question: str = ""
    claims: list[Claim] = field(default_factory=list)

    @classmethod
    def read(cls, view: SeatView) -> Sight:
        state = view.state
        assert isinstance(state, ayt.TraitorState)
        seat, players = view.seat, state.players
        known = state.known(seat)
        every = state.talk
        ends = [i for i, u in enumerate(every) if u.kind in _ROUND_END]
        said = every[ends[-1] + 1:] if ends else every
        turns = _rounds(view.history, players)
        past = [([_role(name) for name in done["characters"]], moves, done["stop"])
                for done, moves in zip(state.history_rounds, turns, strict=False)]
        question = ""
        if state.asked == seat and said and said[-1].kind == "asks":
            question = _question(said[-1])[1]
        sight = cls(seat, players, _role(known[seat]), known,
                    [s for s, name in known.items() if name.endswith("Wizard")],
                    state.first, state.turns, said, past, state.points(seat),
                    [len(cards) for cards in state.treasure],
                    state.asker if state.asked == seat else None, question)
        sight.claims = _claims(sight)
        return sight

    def speakers(self) -> list[int]:
        """The seats that have had a turn this round, in order."""
        return [(self.first + i) % self.players for i in range(self.turns)]


def _role(name: str) -> int:
    return ROLE_OF.get(name, GOOD_WIZARD if name == "Wizard" else GUARD)


def _rounds(history: tuple, players: int) -> list[list[tuple[int, bool]]]:
    """The moves the seat saw, cut into rounds: (seat, called stop) per turn."""
    rounds: list[list[tuple[int, bool]]] = [[]]
    for move in history:
        label = move.label.lower()
        if move.seat < 0 or label.startswith("answer"):
            continue
        stopped = label.startswith("stop")
        rounds[-1].append((move.seat, stopped))
        if stopped or len(rounds[-1]) >= ayt.LAPS * players:
            rounds.append([])
    return rounds


def _question(said: talk.Utterance) -> tuple[int | None, str]:
    found = _ASKED.match(said.text)
    return (int(found[1]) - 1, found[2]) if found else (None, said.text)


def _claims(sight: Sight) -> list[Claim]:
    """What the others claimed this round (the seat's own words are no evidence to it)."""
    out: list[Claim] = []
    asker, asked, question = -1, None, ""
    for said in sight.said:
        if said.speaker < 0:
            continue
        if said.kind == "asks":
            asker, (asked, question) = said.speaker, _question(said)
            found = read_claims(question, said.speaker, VOCABULARY, sight.players, you=asked)
        elif said.kind == "answers" and asked == said.speaker:
            found = read_answer(question, said.text, asker, said.speaker, VOCABULARY,
                                sight.players)
        else:
            found = read_claims(said.text, said.speaker, VOCABULARY, sight.players)
        out += [c for c in found if c.speaker != sight.seat]
    return out


@dataclass
class Habits:
    """What the revealed rounds taught about the others."""

    stop_rate: list[float]
    """Per seat: how often it called stop on a turn when it could."""
    accuracy: float
    """How often the others' stops were right."""


def habits(sight: Sight) -> Habits:
    chances, stops = Counter[int](), Counter[int]()
    right = calls = 0
    for roles, moves, stop in sight.past:
        for seat, stopped in moves:
            if seat != sight.seat and seat < len(roles) and roles[seat] != TRAITOR:
                chances[seat] += 1
                stops[seat] += stopped
        if stop is not None and stop[0] != sight.seat:
            calls += 1
            right += stop[2]
    rates = [(1 + stops[s]) / (4 + chances[s]) for s in range(sight.players)]
    return Habits(rates, (2 + right) / (5 + calls))


def beliefs(sight: Sight, habit: Habits) -> Beliefs:
    """The deals of this round that fit what the seat knows, weighed by the round so far."""
    keys, guards, traitors, _ = ayt.CHART[sight.players]
    good, evil = ayt.ALIGNMENT_CARDS[len(sight.wizards)]
    others = [s for s in range(sight.players) if s not in sight.wizards]
    fixed = {s: frozenset({_role(sight.known[s])}) for s in sight.known
             if sight.known[s] != "Wizard"}
    wizard_roles = frozenset({GOOD_WIZARD, EVIL_WIZARD})
    found = Beliefs.dealt(sight.players, [
        (sight.wizards, {w: fixed.get(w, wizard_roles) for w in sight.wizards},
         {GOOD_WIZARD: good, EVIL_WIZARD: evil}),
        (others, {s: fixed[s] for s in others if s in fixed},
         {KEYHOLDER: keys, GUARD: guards, TRAITOR: traitors})])
    for seat in sight.speakers():
        if seat != sight.seat:
            found.weigh(np.where(found.worlds[:, seat] == TRAITOR, 1.0,
                                 1.0 - habit.stop_rate[seat]))
    worlds = found.worlds

    def false_rate(claim: Claim) -> np.ndarray:
        """How likely a speaker says this though it is false: the evil side claims good
        characters freely, the Keyholder hides, nobody falsely owns up to being evil."""
        speaker = worlds[:, claim.speaker]
        evil_side = np.isin(speaker, list(EVIL))
        if claim.subject != claim.speaker:
            return np.where(evil_side, 0.8, 0.45)
        if claim.roles <= EVIL:
            return np.where(evil_side, 0.1, 0.05)
        return np.where(evil_side, 0.85, np.where(speaker == KEYHOLDER, 0.6, 0.15))

    found.weigh_claims(sight.claims, false_rate)
    return found


# --- what a stop is worth ----------------------------------------------------------------

def _beat(mine: float, mean: float, var: float) -> float:
    """The chance of having more points than a seat whose points are about ``mean``."""
    if var <= 0:
        return 1.0 if mine > mean else 0.5 if mine == mean else 0.0
    return 0.5 * (1 + math.erf((mine - mean) / math.sqrt(2 * (var + 0.25))))


@dataclass
class Stakes:
    """The seat's expected standing (share of seats it beats) now, if its side is paid,
    and if the other side is."""

    now: float
    mine: float
    theirs: float

    def call(self, p: float) -> float:
        return p * self.mine + (1 - p) * self.theirs


def stakes(sight: Sight, found: Beliefs) -> Stakes:
    my_side = GOOD if sight.role in GOOD else EVIL
    others = [s for s in range(sight.players) if s != sight.seat]
    rows = []
    for s in others:
        same = found.chance(s, my_side)
        mean, var = CARD_MEAN * sight.cards[s], CARD_VAR * sight.cards[s]
        rows.append((same, mean, var))

    def standing(mine: float, paid_same: bool | None) -> float:
        total = 0.0
        for same, mean, var in rows:
            hit = same if paid_same else (1 - same) if paid_same is not None else 0.0
            total += hit * _beat(mine, mean + CARD_MEAN, var + CARD_VAR) + \
                (1 - hit) * _beat(mine, mean, var)
        return total / len(rows)

    mine = sum(p * standing(sight.points + v, True) for v, p in _VALUES.items())
    return Stakes(standing(sight.points, None), mine, standing(sight.points, False))


def waiting(sight: Sight, found: Beliefs, habit: Habits, stake: Stakes, best: float) -> float:
    """What passing the chance to call is worth: others may call (rightly or not) before the
    seat's next turn this round, which is worth calling then (or nothing, after its last)."""
    my_side = GOOD if sight.role in GOOD else EVIL
    end = ayt.LAPS * sight.players
    later = sight.turns + sight.players
    value, reach = 0.0, 1.0
    for turn in range(sight.turns + 1, min(later, end)):
        seat = (sight.first + turn) % sight.players
        same = found.chance(seat, my_side - {TRAITOR})
        other = found.chance(seat, (EVERY - my_side) - {TRAITOR})
        rate, right = habit.stop_rate[seat], habit.accuracy
        ours = rate * (same * right + other * (1 - right))
        theirs = rate * (same * (1 - right) + other * right)
        value += reach * (ours * stake.mine + theirs * stake.theirs)
        reach *= 1 - ours - theirs
    after = max(stake.now, stake.call(best)) if later < end else stake.now
    return value + reach * after


# --- the bot -----------------------------------------------------------------------------

class TraitorBot:
    """Deduces from what its seat saw and heard, talks for its side, calls stop by evidence."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self.game = game
        self.voice = Voice(rng)

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        sight = Sight.read(view)
        found = beliefs(sight, habits(sight))
        legal = {move.action for move in view.legal}
        words: str | None
        if ayt.ANSWER in legal:
            action, words, why = ayt.ANSWER, self._answer(sight, found), "answering the question"
        else:
            action, words, why = self._turn(sight, found, legal)
        if words is None:
            return Decision(ActionId(action=action), raw=view.label(action), reasoning=why,
                            seconds=time.perf_counter() - start)
        form = self.game.grammar.free_text
        assert form is not None
        text = form.write(view.state, view.seat, action, words)
        return Decision(Text(text=text, source="llm"), raw=text, reasoning=why,
                        seconds=time.perf_counter() - start)

    # --- choosing the move ---------------------------------------------------------------

    def _turn(self, sight: Sight, found: Beliefs,
              legal: set[int]) -> tuple[int, str | None, str]:
        if sight.role != TRAITOR:
            target, p = suspect(sight, found, TARGETS[sight.role])
            stake = stakes(sight, found)
            wait = waiting(sight, found, habits(sight), stake, p)
            if ayt.STOP + target in legal and stake.call(p) > wait + 0.002:
                return (ayt.STOP + target, None,
                        f"{player(target)} is my target with chance {p:.2f}: calling stop")
        spoken = sum(u.speaker == sight.seat and u.kind != "answers" for u in sight.said)
        roll = self.voice.rng.random()
        if spoken == 0 or roll < 0.35:
            return ayt.SAY, self._statement(sight, found, first=spoken == 0), \
                "telling the table where I stand"
        if roll < 0.85:
            asked = self._whom_to_ask(sight, found)
            if ayt.ASK + asked in legal:
                return ayt.ASK + asked, self._question_for(sight, found, asked), \
                    f"questioning {player(asked)}"
        return ayt.PASS, None, "nothing useful to add this turn"

    def _whom_to_ask(self, sight: Sight, found: Beliefs) -> int:
        if sight.role == KEYHOLDER and sight.wizards:
            return max(sight.wizards, key=lambda w: (found.chance(w, {GOOD_WIZARD}), -w))
        if sight.role == TRAITOR:
            return frame(sight, found)
        return suspect(sight, found, TARGETS[sight.role])[0]

    # --- words ---------------------------------------------------------------------------

    def _statement(self, sight: Sight, found: Beliefs, *, first: bool) -> str:
        parts = [self._claim(sight)] if first or self.voice.chance(0.3) else []
        accused, why, target = self._accusation(sight, found)
        if accused is not None and not any(player(accused) in part for part in parts):
            parts.append(self.voice.pick([
                f"I suspect {player(accused)} of being the {target}: {why}",
                f"My money is on {player(accused)} as the {target}, because {why}",
                f"{why}, so I think {player(accused)} is the {target}",
                f"Keep an eye on {player(accused)}: {why}"]))
        keyholder = [s for s, name in sight.known.items() if name == "Keyholder"]
        if sight.role == TRAITOR and keyholder and self.voice.chance(0.5):
            parts.append(self.voice.pick([  # the Evil Wizard hunts the Keyholder
                f"I am fairly sure {player(keyholder[0])} is the Keyholder",
                f"If you ask me, {player(keyholder[0])} holds the key"]))
        if not parts or (accused is None and not first):
            parts.append(self._opinion(sight, found, self._whom_to_ask(sight, found)))
        return speech(parts)

    def _claim(self, sight: Sight) -> str:
        cover = COVER[sight.role]
        if cover == GOOD_WIZARD:
            others = [w for w in sight.wizards if w != sight.seat]
            if len(others) == 1 and self.voice.chance(0.6):
                return self.voice.pick([
                    f"I am the Good Wizard, so {player(others[0])} is the Evil Wizard",
                    f"{player(others[0])} is the Evil Wizard; I am the good one",
                    f"Believe me: I am the Good Wizard and {player(others[0])} is not"])
            return self.voice.pick(["I am the Good Wizard", "I'm the Good Wizard this round",
                                    "For the record, I am the Good Wizard"])
        return self.voice.pick(["I am a Guard and I am looking for the Traitor",
                                "I'm a Guard this round", "For the record, I am a Guard",
                                "My character is a Guard, so I am on the good side"])

    def _accusation(self, sight: Sight, found: Beliefs) -> tuple[int | None, str, str]:
        """Whom to accuse (of what, with which reason): the good side its real suspect, the
        evil side someone it can frame."""
        if sight.role == EVIL_WIZARD:
            others = [w for w in sight.wizards if w != sight.seat]
            if others and self.voice.chance(0.5):
                return others[0], self._reason(sight, others[0]), "Evil Wizard"
            accused = frame(sight, found)
        elif sight.role == TRAITOR:
            accused = frame(sight, found)
        else:
            accused, p = suspect(sight, found, {TRAITOR})
            candidates = sight.players - len(sight.wizards) - (sight.seat not in sight.wizards)
            if p < 1.2 / max(1, candidates):
                return None, "", ""
        return accused, self._reason(sight, accused), "Traitor"

    def _reason(self, sight: Sight, seat: int) -> str:
        name = player(seat)
        quiet = sum(s == seat for s in sight.speakers())
        claimed = [c.speaker for c in sight.claims
                   if c.subject == c.speaker and c.roles == frozenset({GUARD})]
        guards = ayt.CHART[sight.players][1]
        reasons = []
        if seat in claimed and len(set(claimed)) > guards:
            rivals = [s for s in dict.fromkeys(claimed) if s != seat]
            reasons.append(f"{name} and {player(rivals[0])} both claim to be a Guard, and "
                           f"there {'is only one Guard' if guards == 1 else f'are {guards} Guards'}"
                           f" among {sight.players} players")
        if quiet:
            reasons.append(f"{name} has had {quiet} turn{'s' if quiet > 1 else ''} this round "
                           "and never called stop")
        pointed = [c.subject for c in sight.claims if c.speaker == seat and c.subject != seat
                   and c.roles <= EVIL]
        if pointed:
            reasons.append(f"{name} was quick to point at {player(pointed[0])}")
        if seat in sight.wizards:
            reasons.append(f"{name}'s story about the Wizards does not add up")
        if not reasons:
            answered = any(u.speaker == seat and u.kind == "answers" for u in sight.said)
            owned = any(c.speaker == seat == c.subject for c in sight.claims)
            reasons.append(f"{name}'s answers do not add up" if answered else
                           f"{name} has been vague about their character" if owned else
                           f"{name} has not said which character they hold")
        return self.voice.pick(reasons)

    def _opinion(self, sight: Sight, found: Beliefs, seat: int) -> str:
        name = player(seat)
        if seat == sight.seat:
            return self._claim(sight)
        evil = found.chance(seat, EVIL)
        if sight.role in EVIL:  # the evil side vouches for no one and points at the good
            evil = 1.0 - evil
        if evil > 0.6:
            return self.voice.pick([f"I think {name} is on the evil side",
                                    f"I don't trust {name}", f"{name} looks evil to me"])
        if evil < 0.25:
            return self.voice.pick([f"I trust {name}", f"{name} seems honest to me",
                                    f"I believe {name} is on the good side"])
        return self.voice.pick([f"I am not sure about {name} yet",
                                f"{name} could go either way",
                                f"I have no read on {name} so far"])

    def _question_for(self, sight: Sight, found: Beliefs, seat: int) -> str:
        role = sight.role
        if role == KEYHOLDER and seat in sight.wizards:
            options = ["Are you the Good Wizard?", "Why should I believe you are the Good Wizard?",
                       "Which of the Wizards is the good one, in your view?"]
        elif role == EVIL_WIZARD:
            options = ["Are you the Keyholder?", "Who do you think is the Keyholder?",
                       "Are you a Guard or the Keyholder?"]
        else:
            options = ["Are you the Traitor?", "Which character did you get this round?",
                       "Who do you think the Traitor is?",
                       "Tell us your character: are you a Guard or the Traitor?"]
            if sum(s == seat for s in sight.speakers()):
                options.append("You had a turn and did not call stop. Are you the Traitor?")
        return self.voice.pick(options)

    def _answer(self, sight: Sight, found: Beliefs) -> str:
        asker = sight.asked_by if sight.asked_by is not None else sight.seat
        question = sight.question
        who = asks_who(question)
        asked = [] if who else [c for c in read_claims(question, asker, VOCABULARY,
                                                       sight.players, you=sight.seat,
                                                       questions=True)
                                if c.subject == sight.seat]
        cover = COVER[sight.role]
        if len(asked) > 1:  # "a Guard or the Traitor?"
            return speech([self._claim(sight)])
        if asked:
            yes = cover in asked[0].roles
            if yes:
                head = self.voice.pick(["Yes", "Yes, that's right", "Yes, I am"])
            else:
                head = self.voice.pick(["No", "No, not me", "Certainly not"])
            return speech([head, self._claim(sight)])
        mentioned = [int(n) - 1 for n in re.findall(r"\bplayer\s*(\d+)", question, re.I)
                     if 0 < int(n) <= sight.players and int(n) - 1 not in (sight.seat, asker)]
        if mentioned:
            return speech([self._opinion(sight, found, mentioned[0])])
        if who:
            accused, why, target = self._accusation(sight, found)
            if accused is not None:
                return speech([f"I suspect {player(accused)} of being the {target}: {why}"])
            return speech([self.voice.pick(["I don't know yet, it is too early to say",
                                            "Nobody stands out to me yet"]),
                           self._opinion(sight, found, asker)])
        return speech([self._claim(sight), self._opinion(sight, found, asker)])


def suspect(sight: Sight, found: Beliefs, roles: frozenset[int] | set[int]) -> tuple[int, float]:
    """The other seat most likely to hold one of ``roles``, and that chance."""
    others = [s for s in range(sight.players) if s != sight.seat]
    if not roles:
        return others[0], 0.0
    chances = [(found.chance(s, roles), -s) for s in others]
    p, seat = max(chances)
    return -seat, p


def frame(sight: Sight, found: Beliefs) -> int:
    """Whom the evil side points at: the good non-Wizard that looks most like a Traitor to
    the table (turns without a stop), never a known fellow Traitor."""
    others = [s for s in range(sight.players) if s != sight.seat and s not in sight.wizards
              and sight.known.get(s) != "Traitor"]
    if not others:
        others = [s for s in range(sight.players) if s != sight.seat]
    quiet = Counter(sight.speakers())
    return max(others, key=lambda s: (found.chance(s, GOOD), quiet[s], -s))
