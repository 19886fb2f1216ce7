"""Stored sessions looked back at: the recent list and move-by-move replays.

A replay shows a session from one seat's point of view (the person's, for games a person
played) on the same renderer as the live game, so hidden cards stay hidden until the rules
reveal them. Frame ``i`` is the position before the ``i``-th decision; chance outcomes that
follow a decision (a die roll, a deal) belong to its frame.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games import registry
from renderers import image_view, seat_label, text_view
from renderers.drawing import HEADER, HEADER_INK, centred
from sessions.record import CHANCE, MatchRecord, MoveRecord, replay, shown_label
from sessions.store import Store
from sessions.web import turn_runs
from sessions.web.players import agent_name, opponent_label


@dataclass(frozen=True)
class Frame:
    """One step of a replay: the image and text the seat saw, and the moves so far."""

    index: int
    count: int
    image: Image.Image
    text: str
    caption: str
    moves: list[str]


def recent(store: Store, *, player_id: str | None = None, limit: int = 30) -> list[MatchRecord]:
    """The newest stored sessions, only those ``player_id`` played in when given."""
    return [store.get(row["id"]) for row in store.summaries(limit=limit, player_id=player_id)]


LOOK_BACK = 8
"""History reads this many times its length of recent sessions, so finished games are found
behind a run of abandoned ones (a tab closed or a game switched stores one each time)."""


@dataclass(frozen=True)
class Listing:
    """History's list: finished games first (newest first), then abandoned ones if shown."""

    records: list[MatchRecord]
    finished: int
    abandoned: int
    """Abandoned sessions among those read (listed only when asked for)."""


def listing(store: Store, *, player_id: str | None = None, limit: int = 50,
            abandoned: bool = False) -> Listing:
    """The sessions History lists: finished ones first, abandoned ones after them when
    ``abandoned`` (otherwise only counted), at most ``limit``."""
    rows = store.summaries(limit=limit * LOOK_BACK, player_id=player_id)
    done = [r for r in rows if r["outcome"] != "abandoned"]
    left = [r for r in rows if r["outcome"] == "abandoned"]
    chosen = (done + left if abandoned else done)[:limit]
    return Listing([store.get(r["id"]) for r in chosen], len(done), len(left))


def viewer(record: MatchRecord, player_id: str | None = None) -> int:
    """The seat a replay is shown from: this player's seat, else any human's, else seat 0."""
    humans = [s for s, seat in enumerate(record.seats) if seat.kind == "human"]
    mine = [s for s in humans if player_id and record.seats[s].player_id == player_id]
    return (mine or humans or [0])[0]


def seat_name(record: MatchRecord, seat: int, you: int | None) -> str:
    info = record.seats[seat]
    if seat == you and info.kind == "human":
        return "You"
    if info.kind == "human":
        return info.display_name or "a person"
    return opponent_label(info.spec)


def full_name(record: MatchRecord, seat: int, you: int | None) -> str:
    """:func:`seat_name` with an agent's settings (``MCTS (1000 simulations)``)."""
    info = record.seats[seat]
    return seat_name(record, seat, you) if info.kind == "human" else agent_name(info.spec)


def mover(record: MatchRecord, seat: int, you: int | None) -> str:
    """Who made a move, for move lines: at a table of more than two, with the game's name for
    the seat (``player_3 (Random)``), since several seats may hold the same agent."""
    name = seat_name(record, seat, you)
    if len(record.seats) == 2 or name == "You":
        return name
    return f"{seat_label(record.game, seat)} ({name})"


def outcome_text(record: MatchRecord, seat: int) -> str:
    """The result in a few words, from ``seat``'s side."""
    if record.outcome == "abandoned":
        return "abandoned"
    if record.outcome == "forfeit":
        return "resigned" if record.ended_by == seat and record.seats[seat].kind == "human" \
            else ("forfeited" if record.ended_by == seat else "won (forfeit)")
    if not record.scores:
        return "unfinished"
    score = record.scores[seat]
    returns = record.returns
    if len(record.seats) > 2 and record.seats[seat].team is None and returns:
        place = 1 + sum(1 for r in returns if r > returns[seat])
        return f"placed {ordinal(place)} of {len(returns)}"
    return {1.0: "won", 0.0: "lost", 0.5: "draw"}.get(score, f"scored {score:.0%}")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def summary_row(record: MatchRecord, player_id: str | None = None) -> list[str]:
    """[date, game, seats, result from the viewer's side, session id] for the History table."""
    seat = viewer(record, player_id)
    when = datetime.datetime.fromtimestamp(record.ended_at or record.started_at)
    title = registry.get(record.game).title
    names = [full_name(record, s, seat) for s in range(len(record.seats))]
    seats = " vs ".join(names) if len(names) == 2 else _table(names, seat)
    who = seat_name(record, seat, seat)
    return [when.strftime("%Y-%m-%d %H:%M"), title, seats,
            f"{who}: {outcome_text(record, seat)}", record.id]


def _table(names: list[str], seat: int) -> str:
    """``You vs Equilibrium ×3, Adaptive ×3, Random ×3``: the viewer, then the others."""
    others = names[:seat] + names[seat + 1:]
    counts = {name: others.count(name) for name in others}
    return f"{names[seat]} vs " + ", ".join(
        name if count == 1 else f"{name} ×{count}" for name, count in counts.items())


def boundaries(record: MatchRecord) -> list[int]:
    """Move counts at which a frame is shown: before each decision, and at the end."""
    moves = record.moves
    points = []
    turns = turn_runs.turns_of(record.game)  # a turn built in steps: one frame
    decided = None  # the seat whose turn goes on
    for i in range(len(moves) + 1):
        if i < len(moves) and moves[i].seat == CHANCE:
            continue  # chance outcomes belong to the frame of the decision before them
        if 0 < i < len(moves) and moves[i - 1].seat != CHANCE and moves[i].node == moves[i - 1].node:
            continue  # inside one simultaneous node
        if turns is not None and i < len(moves) and decided == moves[i].seat:
            decided = None if turns.over(moves[i].label) else decided
            continue  # the same seat's turn goes on
        points.append(i)
        if turns is not None and i < len(moves):
            decided = None if turns.over(moves[i].label) else moves[i].seat
    return points


def frame(record: MatchRecord, index: int, *, seat: int | None = None,
          narrow: bool = False, spectator: bool = False,
          names: Sequence[str] | None = None) -> Frame:
    """Frame ``index`` (0 = start; negative counts from the end) seen from ``seat`` (drawn
    in the layout for narrow screens when asked for and the game has one); a ``spectator``
    is not the person in that seat (nobody is called "You"; the pictures and text views are
    the renderers' words for a watcher); ``names``: each seat's name for the move lines and
    the caption (a spectator's, with sides: ``MCTS (X)``)."""
    seat = viewer(record) if seat is None else seat
    you = None if spectator else seat
    points = boundaries(record)
    if not -len(points) <= index < len(points):
        raise IndexError(f"frame {index} does not exist; this replay has frames 0-{len(points) - 1}")
    index %= len(points)
    upto = points[index]
    state = replay(record, upto=upto)
    spec = registry.get(record.game)
    visible = visible_moves(record, upto, seat, final=state.is_terminal())
    last, caption = None, "Start"
    decisions = [(i, label) for i, label in visible if record.moves[i].seat != CHANCE]
    turns = turn_runs.turns_of(record.game)
    if turns is not None:  # a turn built in steps is one line (sessions.web.turn_runs)
        visible = [(group[-1][0], turn_runs.named(group, _label, turns)) for group in
                   turn_runs.fold(visible, lambda e: record.moves[e[0]].seat, _label, turns)]
        decisions = [(i, label) for i, label in visible if record.moves[i].seat != CHANCE]
    if decisions:
        j, label = decisions[-1]
        move = record.moves[j]
        if label == move.label:  # seen whole: mark it on the board
            last = spec.grammar.path(replay(record, upto=_node_start(record, j)), move.seat,
                                     move.action)
        caption = _line(record, move, label, you, names)  # as the move list says it
    elif index:
        caption = "A hidden move was made"
    if index == len(points) - 1 and record.outcome:
        who = names[seat] if names else seat_name(record, seat, you)
        caption += f" · {who} {outcome_text(record, seat)}"
    lines = [_line(record, record.moves[i], label, you, names) for i, label in visible]
    drawn = image_view(record.game, state, seat, last=last, narrow=narrow, watcher=spectator)
    if index == len(points) - 1 and record.outcome in ("forfeit", "abandoned") \
            and not state.is_terminal():  # ended before its rules ended it: say so
        drawn = ended_banner(drawn, f"Game over: {outcome_text(record, seat)}")
    return Frame(index, len(points), drawn,
                 text_view(record.game, state, seat, watcher=spectator),
                 f"Step {index} of {len(points) - 1} — "
                 f"{caption}", [f"{n + 1}. {line}" for n, line in enumerate(lines)])


def _label(entry: tuple[int, str]) -> str:
    return entry[1]


class Replaying:
    """A replay open in one browser tab: the record, the seat it is seen from and the frame
    shown. The frame is kept here, on the server, so that each of several quick presses of
    Previous or Next counts: a press reads where the last one left off, not the slider's
    value as the page had it when the press was sent. Presses may be answered in parallel
    and reach the page in any order, so an answer overtaken by a newer press is ``None``
    (send nothing), and :meth:`catch_up` gives the frame again to a page that shows another."""

    def __init__(self, record: MatchRecord, seat: int) -> None:
        self.record = record
        self.seat = seat
        self.last = len(boundaries(record)) - 1
        self.index = min(1, self.last)  # the first move (the start, if nothing was played)
        self._asked = 0
        self._lock = threading.Lock()

    def go(self, index: int) -> Frame | None:
        """Show frame ``index`` (clamped to the replay's frames)."""
        return self._move(lambda _: int(index))

    def step(self, delta: int) -> Frame | None:
        """Show the frame ``delta`` frames on from the one shown."""
        return self._move(lambda now: now + delta)

    def catch_up(self, shown: float | None) -> Frame | None:
        """The frame to show again when the page shows frame ``shown`` and it is not the
        current one; None when the page is up to date."""
        with self._lock:
            if shown is not None and int(shown) == self.index:
                return None
        return self._move(lambda now: now)

    def _move(self, where: Callable[[int], int]) -> Frame | None:
        with self._lock:
            self._asked += 1
            ticket = self._asked
            self.index = index = max(0, min(where(self.index), self.last))
        shown = frame(self.record, index, seat=self.seat)  # drawn while others may press
        with self._lock:
            return shown if ticket == self._asked else None


def _node_start(record: MatchRecord, j: int) -> int:
    """The move count at the start of move ``j``'s node (simultaneous moves share a node)."""
    while j > 0 and record.moves[j - 1].node == record.moves[j].node:
        j -= 1
    return j


def visible_moves(record: MatchRecord, upto: int, seat: int, *,
                  final: bool) -> list[tuple[int, str]]:
    """(index, label as shown) of the first ``upto`` moves that ``seat`` was shown, whole or
    as the other seats were told them (``final``: the game is over, so every move is
    shown whole)."""
    shown = registry.get(record.game).visibility
    return [(i, label) for i, move in enumerate(record.moves[:upto])
            if (label := shown_label(move, shown, seat, final=final)) is not None]


def _line(record: MatchRecord, move: MoveRecord, label: str, seat: int | None,
          names: Sequence[str] | None = None) -> str:
    if move.seat == CHANCE:
        return f"chance: {label}"
    return f"{names[move.seat] if names else mover(record, move.seat, seat)}: {label}"


BANNER = 46
"""Height of the strip drawn across the top of a board whose game ended early (it covers the
renderers' headers, 44-46 pixels, which still say whose turn it was)."""


def ended_banner(image: Image.Image, text: str) -> Image.Image:
    """``image`` with ``text`` across its header strip."""
    out = image.copy()
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, 0, out.width - 1, BANNER - 1), fill=HEADER)
    centred(draw, (14, BANNER / 2), text, size=17, fill=HEADER_INK, bold=True, anchor="lm")
    return out
