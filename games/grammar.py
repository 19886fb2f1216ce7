"""How a game's moves are written: canonical labels, and how to find moves in free text.

A grammar pairs a formatter with a parser, in the way ``Move.uci``/``Move.from_uci`` do:
``label(state, player, action)`` writes the canonical label of a legal action, and
``pattern`` + ``key`` read move mentions back out of any text. The adapter in
``games.actions`` relies on one invariant, checked by the conformance suite for every legal
action of every game: the label, and each alias, parse back to the same key.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pyspiel

LabelFn = Callable[[pyspiel.State, int, int], str]
AliasFn = Callable[[pyspiel.State, int, int], tuple[str, ...]]
PathFn = Callable[[pyspiel.State, int, int], tuple[str, ...]]
KeyFn = Callable[[re.Match[str]], str]
SummaryFn = Callable[[list[int], list[str]], str]
ReadWordsFn = Callable[[pyspiel.State, int, str], "tuple[int, str] | None"]
WriteWordsFn = Callable[[pyspiel.State, int, int, str], str]

WORD_START = r"(?<![0-9A-Za-z])"
"""A left word boundary that treats digits as word characters (``C2R3`` is one word)."""
WORD_END = r"(?![0-9A-Za-z])"
"""The matching right word boundary."""


def squash(text: str) -> str:
    """Lower-case ``text`` and drop everything but letters and digits."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def squash_match(match: re.Match[str]) -> str:
    return squash(match.group(0))


@dataclass(frozen=True)
class FreeText:
    """How a game's free-text moves (a clue, a question, a statement) are read and written.

    - ``read(state, player, text)``: when ``text`` is written as one of the game's free-text
      moves (``clue: ocean 2``), the action id and the words it carries, checked against the
      game's rules for words (a Codenames clue is one word that is no board word); None when
      ``text`` is not written as a free-text move at all. Words that break the form raise
      :class:`games.talk.WordsError` saying what is allowed; they are never repaired.
    - ``write(state, player, action, words)``: the label of that move with those words;
      ``read`` of it gives back the same action and words (a round trip).
    - ``hint``: the form, for error messages and prompts (``clue: <one word> <number>``).

    The action ids of free-text moves are legal actions like any other; their labels carry
    the game's canned words (``games.talk.Speaking.default_words``).
    """

    read: ReadWordsFn
    write: WriteWordsFn
    hint: str


@dataclass(frozen=True)
class MoveGrammar:
    """The move-label grammar of one game.

    - ``label``: the canonical, human-friendly label of a legal action (unique per state).
    - ``pattern``: finds move mentions in free text (case-insensitive); it must match every
      label and alias in full.
    - ``key``: the canonical key of a mention; two mentions of the same move share a key.
    - ``hint``: the expected format, for error messages and LLM prompts.
    - ``aliases``: other ways to write a legal action, accepted when they are the whole answer
      (a bare ``4`` for ``bid 4``), since they are too loose to search for in prose.
    - ``click_path``: the targets a person clicks, in order, to make the move; the default is
      one click on the label (a button).
    - ``json_fields``: JSON field names that hold the answer in this game's prompts (GAMA-Bench
      asks for ``{"chosen_number": 37}``); read before the generic ``move``/``action`` fields.
    - ``free_text``: games whose moves may be words (see :class:`FreeText`).
    - ``summary``: a short description of the legal moves from their action ids and labels,
      used in rejection messages instead of listing every label (``a whole number from 0 to
      100``).
    """

    label: LabelFn
    pattern: re.Pattern[str]
    hint: str
    key: KeyFn = squash_match
    aliases: AliasFn | None = None
    click_path: PathFn | None = None
    json_fields: tuple[str, ...] = ()
    summary: SummaryFn | None = None
    free_text: FreeText | None = None
    """Games played by talking: how their free-text moves are read and written."""

    def key_of(self, text: str) -> str | None:
        """The key of ``text`` if the whole of it is one move mention, else None."""
        match = self.pattern.fullmatch(text.strip())
        return self.key(match) if match else None

    def mentions(self, text: str) -> list[tuple[int, int, str]]:
        """Every move mention in ``text`` as (start, end, key), left to right."""
        return [(m.start(), m.end(), self.key(m)) for m in self.pattern.finditer(text)]

    def path(self, state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
        if self.click_path is None:
            return (self.label(state, player, action),)
        return self.click_path(state, player, action)


def words(*alternatives: str) -> re.Pattern[str]:
    """A case-insensitive pattern matching any of ``alternatives`` as whole words."""
    body = "|".join(alternatives)
    return re.compile(rf"(?<![0-9A-Za-z])(?:{body})(?![0-9A-Za-z])", re.IGNORECASE)
