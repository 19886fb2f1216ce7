"""Codenames' clue rule: which clue words a visible card bars, and why.

The official rule (Czech Games Edition's rulebook, "Valid clues"): until a card is covered,
the clue may not be its word, nor **any form of it** (BREAK: break, broken, breakage), nor
**part of a compound word** on the table (HORSESHOE: horse, shoe, unhorsed, snowshoe). A
clue that merely holds a card's letters is fine: THINK beside INK, EDUCATION beside CAT,
WHAT beside HAT, BIOLOGY beside LOG.

How this module reads it:

- **Forms** of a word are made by rule: the inflections and common derivations (-s, -ed,
  -ing, -er, -est, -y, -ly, -ness, -less, -ful, -age, -able, -ment, -ish, -ist, -ery...,
  with English spelling: RUN: running, BERRY: berries, HORSE: horsed), then a plural or
  -ly/-ness on those (BREAKAGES), and the prefixes un-, dis-, mis-, non- (UNHORSED); plus
  the irregular forms and bases of the card words, listed by hand (:data:`RELATED`: LEAD:
  led, MOUSE: mice, RULER: rule). Forms made with re- are not barred: REPAINT is a form of
  PAINT but RETIRE is no form of TIRE, and a program cannot tell them apart.
- **Compound cards** are listed by hand (:data:`COMPOUNDS`: AIRPORT is AIR + PORT; CARPET
  is no CAR + PET). Their parts, and the parts' forms, are barred like the card.
- **A compound clue** is barred when it reads as two words, one barred by a card and the
  other a common English word of 3 letters or more (SNOWMAN beside SNOW, SNOWSHOE beside
  HORSESHOE). THINK stays free: TH is no word. A chance split of a common word is barred
  too (CATION beside CAT reads as CAT + ION): the refusal says so, and another word does.

Rules about meaning (no clue about a word's letters or position) are left to the players.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

ENGLISH = Path(__file__).with_name("codenames_english.txt")
"""Common English words (written by ``python -m scripts.codenames_english``)."""

COMPOUNDS: dict[str, tuple[str, str]] = {
    "airport": ("air", "port"), "cowboy": ("cow", "boy"), "football": ("foot", "ball"),
    "highway": ("high", "way"), "notebook": ("note", "book"), "popcorn": ("pop", "corn"),
    "rainbow": ("rain", "bow"), "submarine": ("sub", "marine"), "horseshoe": ("horse", "shoe"),
}
"""The card words that are compounds of two words, with their parts (and the rulebook's own
example, HORSESHOE)."""

RELATED: dict[str, tuple[str, ...]] = {
    "lead": ("led",), "spring": ("sprang", "sprung"), "string": ("strung",),
    "stick": ("stuck",), "tooth": ("teeth",), "mouse": ("mice",), "knife": ("knives",),
    "leaf": ("leaves",), "wolf": ("wolves",), "scarf": ("scarves",), "foot": ("feet",),
    "saw": ("sawn",), "dice": ("die", "dies"), "scissors": ("scissor",),
    "elevator": ("elevate",), "eraser": ("erase",), "ruler": ("rule",),
    "slipper": ("slip",), "zipper": ("zip",), "break": ("broke", "broken"),
}
"""Irregular forms and bases of card words and compound parts that no suffix rule makes (and
the rulebook's own example, BREAK)."""

LOOKALIKES = frozenset({
    "apply", "applies", "applied", "badger", "badgers", "beer", "beers", "being", "beings",
    "belly", "bellies", "bully", "bullies", "capable", "corner", "corners", "cornered",
    "hawker", "hawkers", "pier", "piers", "polish", "policy", "policies", "wander",
    "wanders", "wandered", "wandering",
})
"""English words the suffix rules would make from a card word or part that are other words
(CORNER is no form of CORN, POLICY none of POLICE, BEING none of BEE): never barred as forms
(found by listing every form the rules make that the common-word list holds)."""

_SUFFIXES = ("s", "ed", "ing", "er", "ers", "est", "y", "ly", "ness", "less", "ful", "age",
             "able", "ment", "ish", "ist", "ism", "ery", "let", "ie", "ette", "ings")
_THEN = ("s", "ly", "ness")
_PREFIXES = ("un", "dis", "mis", "non")
_VOWELS = set("aeiou")
SHIPS = frozenset({"air", "battle", "flag", "gun", "long", "mother", "space", "star", "steam",
                   "war"})
"""The words that make a compound with SHIP (WARSHIP); elsewhere -ship is a suffix."""
MIN_PART = 3
"""The shortest word a compound clue is read as being made of."""


@dataclass(frozen=True)
class Bar:
    """Why a word is barred: the ``card`` on the board, the ``part`` of that compound card it
    comes from (None: the card itself), and whether it is a ``form`` of that word."""

    card: str
    part: str | None
    form: bool

    def says(self, word: str) -> str:
        """``word``'s clash in a person's words: 'BROKEN is a form of BREAK, a card...'."""
        card = self.card.upper()
        if self.part is not None:
            whole = f"part of {card} ({' + '.join(p.upper() for p in COMPOUNDS[self.card])})"
            if self.form:
                return f"{word.upper()} is a form of {self.part.upper()}, {whole} on the board"
            return f"{word.upper()} is {whole}, a card on the board"
        if self.form:
            return f"{word.upper()} is a form of {card}, a card on the board"
        return f"{word.upper()} is a card on the board"


def _syllables(word: str) -> int:
    groups, before = 0, False
    for letter in word:
        vowel = letter in _VOWELS or letter == "y"
        groups += vowel and not before
        before = vowel
    return groups


def _attach(stem: str, suffix: str) -> set[str]:
    """``stem`` + ``suffix`` spelt as English spells it (both spellings where it varies)."""
    last, consonant_y = stem[-1], len(stem) > 1 and stem[-1] == "y" and stem[-2] not in _VOWELS
    if suffix == "s":
        if stem.endswith(("s", "x", "z", "ch", "sh")):
            return {stem + "es"}
        if consonant_y:
            return {stem[:-1] + "ies"}
        return {stem + "s", stem + "es"} if last == "o" else {stem + "s"}
    if suffix[0] not in _VOWELS and suffix[0] != "y":
        return {stem[:-1] + "i" + suffix, stem + suffix} if consonant_y else {stem + suffix}
    if last == "e":
        return {stem[:-1] + suffix, stem + suffix} if suffix[0] == "a" else {stem[:-1] + suffix}
    if consonant_y:
        return {stem + suffix} if suffix[0] == "i" else {stem[:-1] + "i" + suffix}
    short = (len(stem) >= 3 and last not in _VOWELS and last not in "wxy"
             and stem[-2] in _VOWELS and stem[-3] not in _VOWELS)
    if short:  # CAT: catty (never CATER); ORBIT: orbited and orbitted alike
        doubled = {stem + last + suffix}
        return doubled | {stem + suffix} if _syllables(stem) > 1 else doubled
    return {stem + suffix}


@functools.cache
def forms(word: str) -> frozenset[str]:
    """``word``'s forms, itself included (see the module docstring)."""
    stems = {word, *RELATED.get(word, ())}
    made = set(stems)
    for stem in stems:
        for suffix in _SUFFIXES:
            for first in _attach(stem, suffix):
                made.add(first)
                for then in _THEN:
                    made |= _attach(first, then)
    made |= {prefix + form for prefix in _PREFIXES for form in made}
    return frozenset(made - (LOOKALIKES - {word}))


@functools.cache
def english() -> frozenset[str]:
    """The common English words a compound clue may be read as made of."""
    lines = ENGLISH.read_text("utf-8").split("\n")
    return frozenset(line for line in lines if line and not line.startswith("#"))


def _is_word(piece: str) -> bool:
    if len(piece) < MIN_PART:
        return False
    known = english()
    return piece in known or any(piece.endswith(s) and piece[: -len(s)] in known
                                 for s in ("s", "es"))


@functools.lru_cache(maxsize=64)
def barred(visible: tuple[str, ...]) -> dict[str, Bar]:
    """Every word the visible cards bar, with why (a card's word wins over its parts)."""
    found: dict[str, Bar] = {}
    for card in visible:
        for part in COMPOUNDS.get(card, ()):
            for form in forms(part):
                found.setdefault(form, Bar(card, part, form != part))
    for card in visible:
        for form in forms(card):
            found[form] = Bar(card, None, form != card)
    return found


def clash(word: str, visible: list[str] | tuple[str, ...]) -> str | None:
    """Why the visible cards bar ``word`` as a clue, in a person's words; None when free."""
    word = word.lower()
    bars = barred(tuple(sorted(visible)))
    if word in bars:
        return bars[word].says(word)
    whole = _base(word)
    for cut in range(MIN_PART, len(whole) - MIN_PART + 1):
        left, right = whole[:cut], whole[cut:]
        if right in ("ship", "ships") and left not in SHIPS:
            continue  # the suffix -ship (PARTNERSHIP), not a SHIP
        for piece, other in ((left, right), (right, left)):
            if piece in bars and _is_word(other):
                return (f"{word.upper()} is made of {left.upper()} + {right.upper()}, and "
                        + bars[piece].says(piece))
    return None


def _base(word: str) -> str:
    """The shortest common word ``word`` is an inflection of (MARKINGS: mark, TRAVELLED:
    travel), or ``word``: a compound is read in the word itself, not in its ending."""
    known, found = english(), word
    for suffix in ("ings", "ing", "ers", "er", "ed", "es", "s", "d"):
        stem = word[: -len(suffix)]
        if not word.endswith(suffix) or len(stem) < MIN_PART:
            continue
        for base in (stem, stem + "e", stem[:-1] if stem[-1] == stem[-2] else stem):
            if base in known and len(base) < len(found):
                found = base
    return found
