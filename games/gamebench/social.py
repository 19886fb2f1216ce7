"""What the hidden-role games share (Are You the Traitor?, Two Rooms and a Boom): seats
named ``player 1`` ... ``player N``, and how their table talk is written and read.

Talk moves carry words (:mod:`games.talk`): ``ask player 3: <question>`` (everyone hears
it; player 3 answers next), ``answer: <words>``, ``say: <statement>``. Other moves are
plain labels built from the same seat names (``stop: accuse player 3``, ``pass``).
"""

from __future__ import annotations

import re

import pyspiel

from games import talk

MAX_TALK = talk.MAX_WORDS_CHARS
CANNED = {"ask": "Which side are you on?", "answer": "I am on the good side.",
          "say": "I am on the good side."}
"""The words of talk moves applied without any (OpenSpiel's checks, random agents)."""


def player(seat: int) -> str:
    """How the games name a seat: ``player 1`` for seat 0."""
    return f"player {seat + 1}"


def seat_of(number: str, players: int) -> int:
    """The seat of ``player <number>`` (1-based), or WordsError."""
    seat = int(number) - 1
    if not 0 <= seat < players:
        raise talk.WordsError(f"there is no player {number}; players are 1-{players}")
    return seat


_TALK = re.compile(r"^(?P<verb>ask|answer|say)\b\s*(?:(?:player\s*)?(?P<who>\d+))?"
                   r"\s*[:,\-]?\s*(?P<words>.*)$", re.IGNORECASE | re.DOTALL)
TALK_HINT = ("ask player <N>: <question> | answer: <words> | say: <statement> "
             f"(at most {MAX_TALK} characters)")


def read_talk(text: str, players: int) -> tuple[str, int | None, str] | None:
    """``(verb, seat asked or None, words)`` when ``text`` is written as talk, None when it
    is not; talk that breaks the form raises WordsError saying what is allowed."""
    if "\n" in text.strip():
        return None  # an answer with reasoning: read line by line
    found = _TALK.match(" ".join(text.split()))
    if found is None:
        return None
    verb, who = found["verb"].lower(), found["who"]
    if verb == "ask" and who is None:
        raise talk.WordsError("say whom you ask: ask player <N>: <question>", "unparseable")
    if verb != "ask" and who is not None and not found["words"]:
        raise talk.WordsError(f"{verb} takes words: {verb}: <words>", "unparseable")
    words = talk.check_length(found["words"].strip(" \"'`*"), MAX_TALK)
    if verb != "ask" and who is not None:
        words = f"{who} {words}"  # "say 3 cheers" keeps its number
    return verb, seat_of(who, players) if verb == "ask" and who is not None else None, words


def write_talk(verb: str, seat: int | None, words: str) -> str:
    if verb == "ask":
        assert seat is not None
        return f"ask {player(seat)}: {words}"
    return f"{verb}: {words}"


TALK_PATTERN = (r"ask\s+(?:player\s*)?(?P<ask>\d+)(?:\s*:[^\n]*)?|(?P<say>say)\s*:[^\n]*"
                r"|(?P<answer>answer)\s*:[^\n]*")
"""Talk mentions in free text (the words run to the end of the line)."""


def talk_key(match: re.Match[str]) -> str | None:
    if match["ask"]:
        return f"ask {int(match['ask'])}"
    if match["say"]:
        return "say"
    if match["answer"]:
        return "answer"
    return None


def players_of(state: pyspiel.State) -> int:
    return int(state.num_players())
