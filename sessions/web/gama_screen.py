"""What the Play tab shows for GAMA-Bench's games, besides the plot and the move list.

The seats at the table (which one is the person's, which agent sits in each other one), the
round's decision input (the renderer's ``control``: a number field with its range, or choice
buttons; Pirate Game's whole-plan form when the person proposes), the per-round results
table and the running score, and at the end every seat's result and GAMA 0-100 score. All of
it is built for the person's seat by the game's renderer (renderers/gama/view.py), so it shows
exactly what the rules reveal to that seat. Also how a table is set up before it starts: the
seats a person may take and a sensible mix of agents for the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pyspiel

from games import registry
from games.gama.scoring import MEASURES
from renderers import page_kind, renderer_for, seat_label
from renderers.gama.view import Control, GamaView
from sessions.ratings.gama_table import session_summary
from sessions.web.players import opponent_label, opponents_for
from sessions.web.seated import Seated

MIX = ("equilibrium", "adaptive", "random")
"""The default agents of a table, in turn: the paper's reference, a reactive bot, noise."""


@dataclass(frozen=True)
class TableScreen:
    """One GAMA-Bench table as the person sees it now."""

    seats: tuple[tuple[str, str], ...]
    """(seat name in the game's words, who sits there: ``you`` or the agent), in seat order."""
    control: Control
    """The decision to make now; kind ``wait`` when there is none for the person."""
    plan: tuple[tuple[str, int | None], ...]
    """Pirate Game's proposal form: (pirate, share already set or None) for every pirate
    below the person, when the person is writing a plan; otherwise empty."""
    headers: list[str]
    rows: list[list[str]]
    standing: str
    """Where the game is and the person's running result (``Round 3 of 20. Your total...``)."""
    summary: tuple[list[str], list[list[str]]] | None
    """At the end of a finished session: every seat's result, place and GAMA score."""
    measures: str = ""
    """What the game's 0-100 GAMA score measures (shown with the summary)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the API."""
        c = self.control
        return {
            "table": [{"seat": seat, "player": who} for seat, who in self.seats],
            "control": {"kind": c.kind, "label": c.label, "minimum": c.minimum,
                        "maximum": c.maximum, "options": list(c.options)},
            "plan": [pirate for pirate, _ in self.plan],
            "results": {"headers": self.headers, "rows": self.rows},
            "standing": self.standing,
            "summary": None if self.summary is None else
            {"headers": self.summary[0], "rows": self.summary[1], "measures": self.measures},
        }


def is_table(game_id: str) -> bool:
    """Whether ``game_id`` is played in rounds (GAMA-Bench's games: shown with this screen),
    as its renderer declares (``page == "rounds"``)."""
    return page_kind(game_id) == "rounds"


def _rounds(game_id: str) -> GamaView:
    """The rounds view (control, results, standing) of a game played in rounds."""
    view = renderer_for(game_id).rounds
    if not isinstance(view, GamaView):
        raise KeyError(f"{game_id} is not played in rounds")
    return view


def table_screen(session: Seated) -> TableScreen:
    """The table of ``session`` (a GAMA-Bench game) for the person's seat."""
    game_id, seat, state = session.spec.id, session.human, session.match.state
    view = _rounds(game_id)
    record = session.record
    seats = tuple((seat_label(game_id, s), "you" if s == seat else opponent_label(info.spec))
                  for s, info in enumerate(record.seats))
    control = view.control(state, seat) if session.your_turn else Control(
        "wait", session.status())
    plan = tuple(plan_fields(session)) if control.kind == "number" else ()
    headers, rows = view.table(state, seat)
    told = view.standing(state, seat)
    where = "" if state.is_terminal() else view.progress(state)
    standing = " ".join(part for part in (f"{where}." if where else "", told) if part)
    summary = _summary(session) if record.outcome == "normal" else None
    return TableScreen(seats, control, plan, headers, rows, standing, summary,
                       MEASURES.get(game_id, ""))


def plan_fields(session: Seated) -> list[tuple[str, int | None]]:
    """The proposal form's fields when the person writes a whole plan (Pirate Game's
    ``plan_fields``), else none."""
    fields = renderer_for(session.spec.id).plan_fields
    if fields is None or not session.your_turn:
        return []
    return list(fields(session.match.state, session.human))


def number_field(game_id: str, state: pyspiel.State, seat: int) -> str | None:
    """What the number field takes now, in words (``your number: a whole number from 0 to
    100``), or None when the decision is not a number."""
    control = _rounds(game_id).control(state, seat) if is_table(game_id) else None
    if control is None or control.kind != "number":
        return None
    return f"{control.label.lower()}: a whole number from {control.minimum} to {control.maximum}"


def _summary(session: Seated) -> tuple[list[str], list[list[str]]]:
    """session_summary with seats named as the game names them and agents as the page does."""
    headers, rows = session_summary(session.record)
    named = []
    for row in rows:
        seat = int(row[0])
        who = "you" if seat == session.human else opponent_label(session.record.seats[seat].spec)
        named.append([seat_label(session.spec.id, seat), who, *row[2:]])
    return headers, named


# --- before the game: who sits where ---------------------------------------------------------


@dataclass(frozen=True)
class TableSetup:
    """The choices for a new table of ``players`` seats with the person in ``seat``."""

    seat_choices: list[tuple[str, str]]
    """(label, value) for the person's seat: each seat by the game's name for it, or random."""
    others: list[str]
    """The game's names of the other seats, in order (one agent each)."""
    agents: list[tuple[str, str]]
    """(label, agent spec) of every agent that may sit at this table."""
    defaults: list[str]
    """An agent spec for each other seat: equilibrium, adaptive and random in turn."""


def table_setup(game_id: str, players: int, seat: int | None) -> TableSetup:
    """Seat and agent choices for a table of ``players`` (``seat`` None: not chosen yet)."""
    spec = registry.get(game_id)
    offered = [(o.label, o.spec) for o in opponents_for(spec)]
    specs = [value for _, value in offered]
    mix = [m for m in MIX if m in specs] or specs[:1]
    seat_choices = [(seat_label(game_id, s), str(s)) for s in range(players)]
    others = ([seat_label(game_id, s) for s in range(players) if s != seat] if seat is not None
              else [f"agent {i + 1}" for i in range(players - 1)])
    defaults = [mix[i % len(mix)] for i in range(players - 1)]
    return TableSetup([*seat_choices, ("random", "random")], others, offered, defaults)


def table_params(game_id: str, players: float | None, rounds: float | None) -> dict[str, int]:
    """The parameters a person chose for a new table (None: the game's default); the game
    refuses values outside the paper's ranges when the session starts."""
    defaults = registry.get(game_id).params()
    chosen: dict[str, int] = {}
    for name, value in (("num_players", players), ("num_rounds", rounds)):
        if value is None or name not in defaults:
            continue
        if not float(value).is_integer():
            raise ValueError(f"{name.replace('num_', '')} must be a whole number, got {value}")
        chosen[name] = int(value)
    return chosen


def parse_plan(text: str) -> list[float]:
    """A whole plan typed as numbers (``0 1 0 1`` or ``0,1,0,1``), for the API."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    try:
        return [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"a plan is whole numbers separated by spaces or commas, e.g. "
                         f"'0 1 0 1'; got {text[:80]!r}") from None
