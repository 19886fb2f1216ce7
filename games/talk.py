"""Free-text moves and table talk: words that travel with an OpenSpiel action.

OpenSpiel actions are integers, but a Codenames clue, a question or a statement is words.
A game that takes words gives such a move an ordinary action id that says *what kind* of
utterance it is (a clue for 2, a question to seat 3, a public statement) and carries the
words beside it:

- the game's pyspiel state implements :class:`Speaking`: ``set_words(text)`` hands it the
  words of the very next ``apply_action``, which keeps them in the state (so views, prompts
  and renderers read them from the state, per seat). An action applied without words (by
  OpenSpiel's own simulation tests, deserialisation, a search agent's rollout) takes the
  game's *canned* words for it (``default_words(action)``), which are always legal: the
  game stays an ordinary pyspiel game;
- the record stores the words with the move (``MoveRecord.text``) and :func:`apply` feeds
  them back on replay, so a record replays to the same final state, words included;
- who heard an utterance is the game's rule (:class:`Utterance.audience`): public talk
  reaches every seat, a private exchange (showing a card to one player) only its two seats.

Reading and checking the words is the adapter's job (``games.actions``), through the
game's :class:`games.grammar.FreeText`: a form that is wrong (two words for a clue, a board
word, 20,000 characters) is refused with a :class:`WordsError` saying what is allowed, and
is never repaired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import pyspiel

MAX_WORDS_CHARS = 280
"""The longest utterance any game accepts (a question, an answer, a statement)."""

WordsReason = Literal["unparseable", "illegal", "too_long", "empty"]


class WordsError(ValueError):
    """Words that do not fit the move's form; ``reason`` as the adapter's rejections."""

    def __init__(self, problem: str, reason: WordsReason = "illegal") -> None:
        super().__init__(problem)
        self.problem = problem
        self.reason: WordsReason = reason


@runtime_checkable
class Speaking(Protocol):
    """A pyspiel state whose moves may carry words."""

    def set_words(self, text: str) -> None:
        """The words of the next ``apply_action`` (used once, then forgotten)."""

    def default_words(self, action: int) -> str:
        """The canned words an action carries when it is applied without any."""


@dataclass(frozen=True)
class Utterance:
    """Something said at the table: who said it, to whom, and the words.

    ``audience`` None: every seat heard it (public); otherwise the seats that did (always
    including the speaker). ``kind`` names it in the game's words (``clue``, ``question``,
    ``answer``, ``statement``, ``shows card``).
    """

    speaker: int
    text: str
    kind: str = "says"
    audience: frozenset[int] | None = None

    def heard_by(self, seat: int) -> bool:
        return self.audience is None or seat in self.audience

    @property
    def private(self) -> bool:
        """Between two seats only (a card shown to one player)."""
        return self.audience is not None and len(self.audience) <= 2


def apply(state: pyspiel.State, action: int, text: str | None = None) -> None:
    """Apply ``action`` with its words (None: a move without words, or the canned ones)."""
    if text is not None:
        if not isinstance(state, Speaking):
            raise TypeError(f"{type(state).__name__} takes no words (action {action})")
        state.set_words(text)
    state.apply_action(action)


def heard(talk: list[Utterance], seat: int) -> list[Utterance]:
    """What ``seat`` heard, in order."""
    return [line for line in talk if line.heard_by(seat)]


def check_length(text: str, limit: int = MAX_WORDS_CHARS) -> str:
    """``text`` with its outer spaces removed, or a WordsError when empty or too long."""
    said = " ".join(text.split())
    if not said:
        raise WordsError("nothing was said", "empty")
    if len(said) > limit:
        raise WordsError(f"{len(said)} characters is too long; at most {limit}", "too_long")
    return said
