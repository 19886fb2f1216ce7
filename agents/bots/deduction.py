"""What the deduction bots share (Are You the Traitor?, Two Rooms and a Boom): the deals a
seat still thinks possible, weighed by what it saw and heard; claims read out of table talk
(anyone's, a person's free text included); and plain sentences that fit the talk limit.

A *world* is one way the hidden roles (cards) could lie, one role id per seat; the bots keep
every world consistent with what their seat knows and weigh each by how well it explains
the talk (:class:`Beliefs`). Claims are read with a few robust patterns (:func:`read_claims`):
"I am the Guard", "player 3 is not the Traitor", "I suspect player 2", "you are red" in an
answer, a bare "No." to "Are you the Keyholder?". Each claim says that a seat's role is one
of a set; a world where it is false explains it only as a lie (or a mistake).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from games.gamebench.social import player
from games.talk import MAX_WORDS_CHARS

# --- sentences -----------------------------------------------------------------------------


def sentence(text: str) -> str:
    """``text`` as a sentence: spaces tidied, a capital first letter, a closing mark."""
    said = " ".join(text.split())
    if not said:
        return said
    said = said[0].upper() + said[1:]
    return said if said[-1] in ".!?" else said + "."


def speech(parts: Iterable[str], limit: int = MAX_WORDS_CHARS) -> str:
    """Sentences joined in order, as many as fit in ``limit`` characters (at least one)."""
    out = ""
    for part in parts:
        said = sentence(part)
        if not said:
            continue
        joined = f"{out} {said}" if out else said
        if len(joined) > limit:
            if not out:
                out = said[:limit - 1].rsplit(" ", 1)[0] + "."
            break
        out = joined
    return out


def names(seats: Iterable[int]) -> str:
    """``player 1``, ``player 1 and player 3``, ``player 1, player 2 and player 5``."""
    words = [player(s) for s in seats]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class Voice:
    """Picks among ways of saying a thing, with the bot's own generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def pick(self, options: Sequence[str]) -> str:
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)


# --- claims ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """``speaker`` said that ``subject``'s role is one of ``roles``."""

    speaker: int
    subject: int
    roles: frozenset[int]


@dataclass(frozen=True)
class Vocabulary:
    """A game's words for roles: patterns (most specific first) and what each names; what an
    accusation ("I suspect player 2") and trust ("I trust player 2") mean in roles."""

    words: tuple[tuple[re.Pattern[str], frozenset[int]], ...]
    every: frozenset[int]
    suspect: frozenset[int]
    trusted: frozenset[int]

    def named(self, text: str) -> list[tuple[int, int, frozenset[int]]]:
        """(start, end, roles) of each role word in ``text``, left to right, no overlaps."""
        found: list[tuple[int, int, frozenset[int]]] = []
        for pattern, roles in self.words:
            for match in pattern.finditer(text):
                if not any(s < match.end() and match.start() < e for s, e, _ in found):
                    found.append((match.start(), match.end(), roles))
        return sorted(found, key=lambda item: item[0])


_CLAUSES = re.compile(r"(?<=[.!?;])\s+|\s+(?:but|although|whereas|however)\s+|\s*[()]\s*",
                      re.IGNORECASE)
_MENTION = re.compile(
    r"\bplayer\s*#?(?P<n>\d+)|\bp(?P<p>\d+)\b"
    r"|\b(?P<self>i\s+am|i'm|i’m|im|i\s+was\s+dealt|i\s+hold|i\s+have|i've\s+got|i\s+got"
    r"|my\s+(?:card|character|role|colou?r|team|side))\b"
    r"|\b(?P<you>you(?:'re|’re)?|your\s+(?:card|character|role|colou?r|team|side))\b",
    re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|no|nor|hardly)\b|n't\b|n’t\b", re.IGNORECASE)
_OBJECT = re.compile(r"\b(?:for|find|finding|hunt|hunting|catch|catching|seek|seeking|protect|"
                     r"protecting|help|helping|with|against|from|about|at|to|away)\s+"
                     r"(?:the\s+|a\s+|an\s+|our\s+|their\s+|your\s+|my\s+)?$", re.IGNORECASE)
"""Words that make a role the object of a sentence ("looking for the Traitor"), not what
someone is."""
_DOUBT = re.compile(r"^\W*(?:i\s+(?:do\s+not|don't|don’t)\s+(?:think|believe)|i\s+doubt)\b",
                    re.IGNORECASE)
_QUESTION = re.compile(r"^\W*(?:are|is|am|do|does|did|who|what|which|will|would|can|could|"
                       r"should|why|how|where|whom|have|has)\b(?!\s+not\b)", re.IGNORECASE)
_ACCUSE = re.compile(r"\b(?:suspect|accuse|blame|distrust|(?:do\s+not|don't|don’t)\s+trust|"
                     r"watch\s+out\s+for|keep\s+an\s+eye\s+on|(?:call\s+)?stop\s+on|vote\s+(?:for|against))\b",
                     re.IGNORECASE)
_LYING = re.compile(r"\b(?:is|are)\s+lying\b|\bliar\b|\blies\b|\bsuspicious\b|\bshady\b",
                    re.IGNORECASE)
_TRUST = re.compile(r"\b(?:trust|vouch\s+for)\b", re.IGNORECASE)
_HONEST = re.compile(r"\b(?:is|are)\s+(?:honest|innocent|clean|cleared)\b", re.IGNORECASE)
_YES = re.compile(r"^\W*(?:yes|yeah|yep|yup|correct|that's\s+right|indeed)\b", re.IGNORECASE)
_NO = re.compile(r"^\W*(?:no|nope|never|not\s+me|of\s+course\s+not|certainly\s+not)\b",
                 re.IGNORECASE)


def clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSES.split(text) if c and c.strip()]


def _mentions(clause: str, speaker: int, you: int | None,
              players: int) -> list[tuple[int, int, int]]:
    """(start, end, seat) of each seat a clause names: ``player N``, I, you."""
    out = []
    for match in _MENTION.finditer(clause):
        number = match["n"] or match["p"]
        if number is not None:
            seat = int(number) - 1
            if not 0 <= seat < players:
                continue
        elif match["self"]:
            seat = speaker
        elif you is not None:
            seat = you
        else:
            continue
        out.append((match.start(), match.end(), seat))
    return out


def _is_question(clause: str) -> bool:
    return clause.rstrip().endswith("?") or _QUESTION.match(clause) is not None


def read_claims(text: str, speaker: int, vocabulary: Vocabulary, players: int, *,
                you: int | None = None, questions: bool = False) -> list[Claim]:
    """The claims in ``text`` said by ``speaker`` (``you`` is whom "you" means: the asker,
    in an answer). Questions claim nothing unless ``questions`` (to read what a question
    asks about)."""
    found: list[Claim] = []
    for clause in clauses(text):
        if _is_question(clause) and not questions:
            continue
        seats = _mentions(clause, speaker, you, players)
        if not seats:
            continue
        doubt = _DOUBT.match(clause) is not None
        named: set[int] = set()
        for start, end, roles in vocabulary.named(clause):
            if _OBJECT.search(clause[max(0, start - 40):start]):
                continue
            before = [m for m in seats if m[1] <= start]
            after = [m for m in seats if m[0] >= end]
            subject = before[-1] if before else after[0] if after else None
            if subject is None:
                continue
            between = clause[subject[1]:start] if before else clause[end:subject[0]]
            negated = (_NEGATION.search(between) is not None) != doubt
            found.append(Claim(speaker, subject[2],
                               vocabulary.every - roles if negated else roles))
            named.add(subject[2])
        found += _verb_claims(clause, seats, named, speaker, vocabulary, doubt)
    return found


def _verb_claims(clause: str, seats: list[tuple[int, int, int]], named: set[int],
                 speaker: int, vocabulary: Vocabulary, doubt: bool) -> list[Claim]:
    """Accusations and trust said with verbs: "I suspect player 2", "player 4 is lying"."""
    out = []
    for pattern, roles, after_verb in ((_ACCUSE, vocabulary.suspect, True),
                                       (_LYING, vocabulary.suspect, False),
                                       (_TRUST, vocabulary.trusted, True),
                                       (_HONEST, vocabulary.trusted, False)):
        match = pattern.search(clause)
        if match is None:
            continue
        if pattern is _TRUST and _ACCUSE.search(clause):
            continue  # "don't trust" is an accusation
        near = [m for m in seats if m[0] >= match.end()] if after_verb else \
            [m for m in seats if m[1] <= match.start()][-1:]
        if not near or near[0][2] in named or near[0][2] == speaker:
            continue
        before = clause[max(0, match.start() - 12):match.start()]
        denied = _NEGATION.search(before) is not None and \
            not match[0].lower().startswith(("do not", "don't", "don’t"))
        negated = doubt != denied
        out.append(Claim(speaker, near[0][2], vocabulary.every - roles if negated else roles))
    return out


def read_answer(question: str, answer: str, asker: int, answerer: int,
                vocabulary: Vocabulary, players: int) -> list[Claim]:
    """What an answer claims: its own statements ("you" is the asker), and a bare yes or no
    to a question about the answerer ("Are you the Keyholder?" "No.")."""
    found = read_claims(answer, answerer, vocabulary, players, you=asker)
    asked = [] if asks_who(question) else \
        [c for c in read_claims(question, asker, vocabulary, players, you=answerer,
                                questions=True) if c.subject == answerer]
    if len(asked) == 1 and not any(c.subject == answerer for c in found):
        roles = asked[0].roles
        if _NO.match(answer):
            found.append(Claim(answerer, answerer, vocabulary.every - roles))
        elif _YES.match(answer):
            found.append(Claim(answerer, answerer, roles))
    return found


_WHO = re.compile(r"^\W*(?:who|whom|which|what|why|how)\b", re.IGNORECASE)


_YOURS = re.compile(r"\b(?:which|what)\s+(?:side|character|role|card|team|colou?r)\b|"
                    r"\bwhat\s+are\s+you\b|\bwho\s+are\s+you\b|\byour\s+(?:side|character|"
                    r"role|card|team|colou?r)\b", re.IGNORECASE)


def asks_who(question: str) -> bool:
    """Whether a question asks for a name or an opinion ("Who is the Traitor?"), not for a
    yes or a no, nor about the one asked ("Which side are you on?")."""
    asked = [c for c in clauses(question) if _is_question(c)]
    return bool(asked) and _WHO.match(asked[-1]) is not None and not asks_yours(question)


def asks_yours(question: str) -> bool:
    """Whether a question asks the one asked what they are ("Which side are you on?")."""
    asked = [c for c in clauses(question) if _is_question(c)]
    return bool(asked) and _YOURS.search(asked[-1]) is not None


def unique(claims: Iterable[Claim]) -> list[Claim]:
    """Each claim once, in order (saying a thing twice is not twice the evidence)."""
    return list(dict.fromkeys(claims))


# --- worlds ---------------------------------------------------------------------------------


def deals(seats: Sequence[int], allowed: Mapping[int, frozenset[int]],
          cards: Mapping[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Every way to give ``seats`` one card each from the multiset ``cards`` (role -> count,
    possibly more cards than seats: the rest set aside unseen), each seat's card in its
    ``allowed`` set: one row per way (the roles of ``seats`` in order), with each way's
    chance (cards dealt at random, without replacement) up to a common factor."""
    size = max(cards, default=0) + 1
    rows = np.zeros((1, 0), dtype=np.int16)
    left = np.array([[cards.get(role, 0) for role in range(size)]])
    weights = np.ones(1)
    for seat in seats:
        grown = []
        for role in sorted(allowed.get(seat, frozenset(cards))):
            fits = left[:, role] > 0 if role < size else np.zeros(len(rows), dtype=bool)
            if not fits.any():
                continue
            rest = left[fits].copy()
            grown.append((np.column_stack([rows[fits], np.full(int(fits.sum()), role)]),
                          rest, weights[fits] * rest[:, role]))
            rest[:, role] -= 1
        if not grown:
            return np.zeros((0, len(seats)), dtype=np.int16), np.zeros(0)
        rows = np.concatenate([g[0] for g in grown]).astype(np.int16)
        left = np.concatenate([g[1] for g in grown])
        weights = np.concatenate([g[2] for g in grown])
    return rows, weights


class Beliefs:
    """Weighted worlds: ``worlds[w, seat]`` is the role of ``seat`` in world ``w``."""

    def __init__(self, worlds: np.ndarray, weights: np.ndarray) -> None:
        self.worlds = worlds
        self.weights = weights / weights.sum()

    @classmethod
    def dealt(cls, players: int, groups: Sequence[tuple[Sequence[int],
                                                        Mapping[int, frozenset[int]],
                                                        Mapping[int, int]]]) -> Beliefs:
        """The worlds of independent deals (``deals`` arguments per group of seats)."""
        worlds = np.full((1, players), -1, dtype=np.int16)
        weights = np.ones(1)
        for seats, allowed, cards in groups:
            rows, chances = deals(seats, allowed, cards)
            worlds = np.repeat(worlds, len(rows), axis=0)
            worlds[:, list(seats)] = np.tile(rows, (len(weights), 1))
            weights = np.outer(weights, chances).ravel()
        if not len(weights) or weights.sum() <= 0:
            raise ValueError("no deal fits what the seat knows")
        return cls(worlds, weights)

    def weigh(self, factors: np.ndarray) -> None:
        """Multiply each world's weight by its factor (evidence that rules out every world is
        ignored: someone misspoke)."""
        weights = self.weights * factors
        total = weights.sum()
        if total > 0 and math.isfinite(total):
            self.weights = weights / total

    def holds(self, seat: int, roles: Iterable[int]) -> np.ndarray:
        """Per world: whether ``seat``'s role is one of ``roles``."""
        return np.isin(self.worlds[:, seat], list(roles))

    def chance(self, seat: int, roles: Iterable[int]) -> float:
        return float(self.weights[self.holds(seat, roles)].sum())

    def weigh_claims(self, claims: Iterable[Claim],
                     false_rate: Callable[[Claim], np.ndarray]) -> None:
        """Weigh worlds by claims: a true claim explains itself; a false one only as a lie,
        at ``false_rate(claim)`` per world (how likely that speaker there says it falsely)."""
        for claim in unique(claims):
            true = self.holds(claim.subject, claim.roles)
            self.weigh(np.where(true, 1.0, false_rate(claim)))
