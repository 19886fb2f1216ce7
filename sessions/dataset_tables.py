"""One stored record -> rows of the published dataset's tables, with only what its people
agreed to share.

The tables (one Parquet file each, see :mod:`sessions.dataset`): ``sessions``, ``seats``,
``moves``, ``rejected`` (every refused attempt), ``talk`` (the words of games played by
talking) and ``llm_calls`` (each language-model call with its tokens and latency).
:data:`COLUMNS` names and explains every column; the data card prints them.

What never leaves: the page's player ids (each becomes a keyed id, :class:`Pseudonyms`),
display names, API keys (every text is blanked the way providers' texts are,
``agents.llm.redaction``) and the words of a person who did not agree to share their
talk (seat setting ``talk`` not true): those are replaced by :data:`WITHHELD`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Any

from agents.llm.redaction import redact

WITHHELD = "[withheld]"
"""What stands in for a person's words they did not agree to share."""
MARK = "llm-game-arena-dataset"
"""The data card's tag: a folder holding it is a dataset this code wrote (and may replace)."""
KEY_MARKS = ("sk-", "pk-", "rk-", "key-", "***")
"""Substrings any key-shaped text contains (``redaction._KEY_LIKE``): a record without
them and without a held key needs no walk."""

Column = tuple[str, str, str]
"""(name, Arrow type name, what it means)."""

COLUMNS: dict[str, list[Column]] = {
    "sessions": [
        ("session_id", "string", "the session's id (also in every other table)"),
        ("game", "string", "game id (python -m games lists them)"),
        ("params", "string", "the game's parameters, as JSON"),
        ("seed", "int64", "the seed chance nodes were drawn from (the record replays with it)"),
        ("num_seats", "int32", "how many seats the table had"),
        ("num_moves", "int32", "moves applied, chance outcomes included"),
        ("has_human", "bool", "a person sat in at least one seat"),
        ("outcome", "string", "normal (played to the end), forfeit or abandoned"),
        ("end_reason", "string", "how it ended, in words (empty for a normal end)"),
        ("ended_by", "int32", "the seat that forfeited or left (null otherwise)"),
        ("started_at", "timestamp", "when the session started (UTC)"),
        ("ended_at", "timestamp", "when it ended (UTC)"),
        ("duration_s", "float64", "ended_at - started_at, seconds"),
        ("tags", "list<string>", "blind (a person played a hidden model), watch (agents on "
                                 "the Watch tab), showcase (exhibition game)"),
        ("metrics", "string", "benchmark scores computed at the end (GAMA-Bench's), as JSON"),
        ("app_version", "string", "the arena version that recorded it"),
    ],
    "seats": [
        ("session_id", "string", "the session"),
        ("seat", "int32", "seat number, from 0 (the game's player order)"),
        ("kind", "string", "human, llm, mcts, ismcts, random, bot, ... (the agent kind)"),
        ("entity", "string", "what ratings rate: the agent spec with its settings, or human"),
        ("spec", "string", "the agent spec as given (llm: provider/model with its mode)"),
        ("settings", "string", "the seat's settings as JSON (a person's: their consent)"),
        ("player", "string", "a person's keyed id: the same person has the same id within "
                             "this dataset, and it cannot be linked to the page's id "
                             "(null for agents)"),
        ("team", "string", "the side the seat played for in a team game (null otherwise)"),
        ("score", "float64", "share of opposing seats beaten, ties half, in [0, 1]"),
        ("return", "float64", "the game's own final return for the seat"),
    ],
    "moves": [
        ("session_id", "string", "the session"),
        ("move", "int32", "the move's place in the session, from 0"),
        ("node", "int32", "decision node; the moves of one simultaneous node share it"),
        ("seat", "int32", "who moved; -1 for a chance outcome"),
        ("action", "int64", "OpenSpiel action id"),
        ("label", "string", "the move in the game's words (every seat saw it at the end)"),
        ("public_label", "string", "what other seats were told of a hidden move (null: "
                                   "nothing, or the whole label)"),
        ("raw", "string", "what the player sent: clicked target, typed text, model answer"),
        ("reasoning", "string", "a language model's reasoning for the move (empty otherwise)"),
        ("fallback", "bool", "a random move played for a seat that gave no valid answer"),
        ("started_at", "timestamp", "when the seat was asked (UTC)"),
        ("seconds", "float64", "how long the decision took"),
        ("rejected", "int32", "attempts refused before this move (rows in `rejected`)"),
        ("prompt_tokens", "int64", "language-model prompt tokens for this move (null: no model)"),
        ("completion_tokens", "int64", "language-model completion tokens (null: no model)"),
        ("llm_calls", "int32", "language-model calls made for this move"),
        ("cost_usd", "float64", "estimated cost at the opponent's list prices (null: unknown)"),
        ("tokens_estimated", "bool", "token counts estimated from text length"),
    ],
    "rejected": [
        ("session_id", "string", "the session"),
        ("move", "int32", "the move it was an attempt at (null: the session ended first)"),
        ("attempt", "int32", "its order among the attempts at that move, from 0"),
        ("seat", "int32", "who tried"),
        ("raw", "string", "what was sent"),
        ("reason", "string", "why it was refused: illegal, unparseable, ambiguous, ..."),
        ("message", "string", "the message sent back (lists the legal moves)"),
        ("at", "timestamp", "when (UTC)"),
        ("prompt_tokens", "int64", "language-model prompt tokens spent on it"),
        ("completion_tokens", "int64", "language-model completion tokens spent on it"),
        ("cost_usd", "float64", "its estimated cost"),
    ],
    "talk": [
        ("session_id", "string", "the session"),
        ("move", "int32", "the move that carried the words"),
        ("seat", "int32", "who spoke"),
        ("kind", "string", "the seat's agent kind (human, llm, bot, ...)"),
        ("label", "string", "the move: clue, question, answer or statement with its words"),
        ("words", "string", "the words said; [withheld] for a person who did not agree to "
                            "share their talk"),
        ("public_label", "string", "what the other seats were told, when it was not all"),
    ],
    "llm_calls": [
        ("session_id", "string", "the session"),
        ("move", "int32", "the move the call was for (null: the session ended first)"),
        ("attempt", "int32", "null for the call that produced the move; else the refused "
                             "attempt's number (rows in `rejected`)"),
        ("seat", "int32", "the model's seat"),
        ("entity", "string", "the rated model configuration"),
        ("provider", "string", "openai, anthropic, hf, local, ..."),
        ("model", "string", "the model name"),
        ("reasoning_mode", "string", "prompt, cot, sc-cot, tot, rap"),
        ("purpose", "string", "what the call was for (the move, a vote, a plan...)"),
        ("call", "int32", "the call's number within the decision"),
        ("prompt_tokens", "int64", "prompt tokens of this call"),
        ("completion_tokens", "int64", "completion tokens of this call"),
        ("tokens_estimated", "bool", "counts estimated from text length"),
        ("seconds", "float64", "the call's latency"),
        ("finish", "string", "the provider's finish reason"),
        ("failure", "string", "what went wrong (timeout, refusal, ...; null when nothing)"),
        ("instruction", "string", "the instruction the prompt ended with"),
        ("answer", "string", "the model's answer text"),
        ("answer_reasoning", "string", "the model's reasoning text, when separate"),
        ("decision_cost_usd", "float64", "estimated cost of the whole decision this call "
                                         "belongs to (repeated on each of its calls)"),
    ],
}
TABLES = tuple(COLUMNS)


class Pseudonyms:
    """Player ids keyed with a secret salt: stable within one salt, unlinkable without it."""

    def __init__(self, salt: bytes) -> None:
        if len(salt) < 16:
            raise ValueError("the dataset salt must have at least 16 bytes")
        self._salt = salt
        self._known: dict[str, str] = {}
        self._made: set[str] = set()

    def of(self, player_id: str | None) -> str | None:
        """The keyed id of a page id (a keyed id this object made stays as it is)."""
        if not player_id:
            return None
        if player_id in self._made:
            return player_id
        known = self._known.get(player_id)
        if known is None:
            digest = hmac.new(self._salt, player_id.encode(), hashlib.sha256).hexdigest()
            known = self._known[player_id] = "p" + digest[:20]
            self._made.add(known)
        return known


def load_clean(text: str, keys: Iterable[str], *, suspect: bool = True) -> dict[str, Any]:
    """A stored record's JSON, decoded, with every held key and key-shaped text blanked.
    ``suspect`` False: the caller found no key nor key mark in it (:func:`suspect`)."""
    keys = list(keys)
    data: dict[str, Any] = _loads(text)
    if suspect and _may_hold_key(text, keys):
        data = _blank(data, keys)
    return data


def suspect(text: str, keys: Iterable[str]) -> bool:
    """Whether ``text`` (many records at once, say) may hold a key or key-shaped text."""
    return _may_hold_key(text, keys)


def _may_hold_key(text: str, keys: Iterable[str]) -> bool:
    if any(key in text for key in keys):
        return True
    # the marks ending in "k-" are looked for only where "k-" is: one pass over the text
    # instead of four (the scans were a seventh of a build's time)
    return (("k-" in text and any(mark in text for mark in _K_MARKS))
            or any(mark in text for mark in _OTHER_MARKS))


_K_MARKS = tuple(mark for mark in KEY_MARKS if mark.endswith("k-"))
_OTHER_MARKS = tuple(mark for mark in KEY_MARKS if not mark.endswith("k-"))


def _loads(text: str) -> Any:
    """``json.loads``, by orjson (gradio's dependency: several times faster) when present."""
    try:
        import orjson
    except ImportError:  # pragma: no cover
        return json.loads(text)
    return orjson.loads(text)


def _blank(value: Any, keys: list[str]) -> Any:
    if isinstance(value, str):
        return redact(value, keys)
    if isinstance(value, list):
        return [_blank(v, keys) for v in value]
    if isinstance(value, dict):
        return {k: _blank(v, keys) for k, v in value.items()}
    return value


def talk_shared(seat: dict[str, Any]) -> bool:
    """Whether a seat's words may be published: an agent's always, a person's only when
    their consent covered talk (seat setting ``talk``)."""
    return seat.get("kind") != "human" or (seat.get("settings") or {}).get("talk") is True


Rows = dict[str, list[tuple[Any, ...]]]
"""Rows by table, each a tuple in :data:`COLUMNS`' order (cheap to make, and a table's
columns are one ``zip`` away)."""


def new_rows() -> Rows:
    return {name: [] for name in TABLES}


def rows_of(record: dict[str, Any], names: Pseudonyms, out: Rows, *, talking: bool) -> None:
    """Add the rows of ``record`` (a decoded, cleaned record) to ``out``. ``talking``: the
    game takes words, so a person's refused attempts may hold words too."""
    sid = record["id"]
    seats = record["seats"]
    returns, scores = record.get("returns") or [], record.get("scores") or []
    out["sessions"].append(_session_row(record))
    for i, seat in enumerate(seats):
        out["seats"].append((
            sid, i, seat["kind"], seat["entity"], seat["spec"],
            _json(seat.get("settings") or {}), names.of(seat.get("player_id")),
            seat.get("team"), scores[i] if i < len(scores) else None,
            returns[i] if i < len(returns) else None))
    quiet = [not talk_shared(seat) for seat in seats]
    kinds = [seat["kind"] for seat in seats]
    moves, talk = out["moves"], out["talk"]
    for index, move in enumerate(record["moves"]):
        seat, words = move["seat"], move.get("text")
        label, raw, public = move["label"], move.get("raw", ""), move.get("public")
        hush = seat >= 0 and quiet[seat]
        if hush and words is not None:
            label, public = _withhold(label, words), _withhold(public, words)
            raw = words = WITHHELD
        meta = move.get("meta")
        usage = meta.get("usage") if meta else None
        rejected = move.get("rejected")
        started = move["started_at"]
        if usage:
            moves.append((sid, index, move["node"], seat, move["action"], label, public, raw,
                          move.get("reasoning", ""), bool(move.get("fallback")), started,
                          move["ended_at"] - started, len(rejected) if rejected else 0,
                          *_usage(usage)))
        else:  # no model's usage (most moves): the row written out, no tuple unpacked
            moves.append((sid, index, move["node"], seat, move["action"], label, public, raw,
                          move.get("reasoning", ""), True if move.get("fallback") else False,
                          started, move["ended_at"] - started,
                          len(rejected) if rejected else 0, None, None, 0, None, False))
        if words is not None:
            talk.append((sid, index, seat, kinds[seat] if seat >= 0 else "chance", label,
                         words, public))
        if meta and "llm" in meta:
            _call_rows(out, sid, index, None, seat, meta)
        for n, attempt in enumerate(rejected or ()):
            _attempt_rows(out, sid, index, n, seat, attempt, hush and talking)
    for n, attempt in enumerate(record.get("unplayed") or ()):
        seat = attempt.get("seat")
        hide = talking and seat is not None and 0 <= seat < len(seats) and quiet[seat]
        _attempt_rows(out, sid, None, n, seat, attempt, hide)


def _session_row(record: dict[str, Any]) -> tuple[Any, ...]:
    started, ended = record.get("started_at"), record.get("ended_at")
    return (record["id"], record["game"], _json(record["params"]), record["seed"],
            len(record["seats"]), len(record["moves"]),
            any(s["kind"] == "human" for s in record["seats"]), record.get("outcome"),
            record.get("end_reason") or "", record.get("ended_by"), started, ended,
            ended - started if started is not None and ended is not None else None,
            list(record.get("tags") or []), _json(record.get("metrics") or {}),
            record.get("app_version"))


def _attempt_rows(out: Rows, sid: str, move: int | None, n: int, seat: int | None,
                  attempt: dict[str, Any], hide: bool) -> None:
    raw, message = attempt.get("raw", ""), attempt.get("message", "")
    if hide:
        message = message.replace(raw, WITHHELD) if raw else message
        raw = WITHHELD
    meta = attempt.get("meta") or {}
    spent = _usage(meta["usage"]) if meta.get("usage") else NO_USAGE
    out["rejected"].append((sid, move, n, seat, raw, attempt.get("reason", ""), message,
                            attempt.get("at"), spent[0], spent[1], spent[3]))
    if "llm" in meta:
        _call_rows(out, sid, move, n, seat, meta)


def _call_rows(out: Rows, sid: str, move: int | None, attempt: int | None, seat: int | None,
               meta: dict[str, Any]) -> None:
    llm = meta.get("llm")
    if not llm:
        return
    cost = (meta.get("usage") or {}).get("cost_usd")
    for n, call in enumerate(llm.get("calls") or []):
        out["llm_calls"].append((
            sid, move, attempt, seat, llm.get("entity"), llm.get("provider"),
            llm.get("model"), llm.get("reasoning"), call.get("purpose"), call.get("index", n),
            call.get("prompt_tokens", 0), call.get("completion_tokens", 0),
            bool(call.get("estimated")), call.get("seconds", 0.0), call.get("finish"),
            call.get("failure"), call.get("instruction", ""), call.get("text", ""),
            call.get("reasoning", ""), cost))


NO_USAGE = (None, None, 0, None, False)


def _usage(usage: dict[str, Any]) -> tuple[Any, ...]:
    """(prompt tokens, completion tokens, calls, cost, estimated) of a move's usage."""
    return (usage.get("prompt_tokens"), usage.get("completion_tokens"), usage.get("calls", 0),
            usage.get("cost_usd"), bool(usage.get("estimated")))


def _withhold(text: str | None, words: str | None) -> str | None:
    if text is None or not words:
        return text
    return text.replace(words, WITHHELD)


def _json(value: Any) -> str:
    try:
        import orjson
    except ImportError:  # pragma: no cover
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
