"""What a seat sees in GAMA-Bench's games, built once and shown four ways.

A game's view lists the history as the seat saw it (one :class:`Entry` per round, turn or
proposal: what it was told, its own answer, what it learned after), the request for the
current decision, the lines to plot and the input control. From those, :class:`GamaView`
makes the text view, the results table, the plot image and the LLM prompt in GAMA's
structure (the rules with the session's parameters, previous rounds as the seat saw them,
one JSON field for the answer). Nothing here reads another seat's private information:
each game's ``entries`` is the only place that decides what a seat was told.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import pyspiel
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from games import registry
from games.gama import scoring
from games.gama.common import number_text, player_name
from games.seat_view import SeatView
from renderers.contract import Renderer

WIDTH, HEIGHT, DPI = 8.0, 4.2, 100
RENDERER_API = ("text", "image", "table", "control", "prompt", "messages", "hit_test",
                "seat_label", "WATCHER")


@dataclass(frozen=True)
class Entry:
    """One round (turn, proposal) as one seat saw it."""

    heading: str
    facts: str
    """What the seat was told about the round's outcome (GAMA's report before "You chose")."""
    choice: str
    """The seat's own move in words (``You chose 40.``), empty if it did not act."""
    answer: str | None
    """The seat's own answer as GAMA echoes it (a JSON object), None if it did not act."""
    outcome: str
    """What the seat learned about its own result (GAMA's report after the answer)."""
    row: dict[str, str]
    """The results-table row."""


@dataclass(frozen=True)
class Control:
    """The input a page shows for the current decision.

    ``number``: a number field or slider from ``minimum`` to ``maximum`` (submit the number as
    text, or the action id, which equals the number); ``choice``: one button per label in
    ``options`` (submit the label); ``wait``: nothing to decide now.
    """

    kind: Literal["number", "choice", "wait"]
    label: str
    minimum: int | None = None
    maximum: int | None = None
    options: tuple[str, ...] = ()
    json_field: str = ""


@dataclass(frozen=True)
class Series:
    """A line on the plot: one value per round (None where the seat did not learn it)."""

    name: str
    values: tuple[float | None, ...]
    style: str = "-o"


@dataclass(frozen=True)
class Plot:
    title: str
    ylabel: str
    lines: tuple[Series, ...]
    xlabel: str = "round"
    guides: tuple[tuple[str, float], ...] = ()
    """Horizontal reference lines (name, value): capacity, G, ..."""
    bars: tuple[tuple[str, float, str], ...] = field(default=())
    """A bar chart instead of lines: (label, value, colour)."""


def json_answer(name: str, value: Any) -> str:
    return json.dumps({name: str(value)})


class GamaView:
    """The shared presentation of one GAMA-Bench game; subclasses supply the game's parts."""

    game_id: str = ""
    json_field: str = ""
    unit: str = "round"
    score_uses_hidden: bool = False
    """True when the seat's GAMA score depends on what it may not see (the auction divides
    by the highest valuation of the session): then it is shown only once the game is over."""

    # --- what a subclass provides ------------------------------------------------------------

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        raise NotImplementedError

    def identity(self, state: pyspiel.State, seat: int) -> str:
        """Who the seat is (``You are player 3.``), when the game names players."""
        return ""

    def request(self, state: pyspiel.State, seat: int) -> str:
        """GAMA's request for the decision the seat must make now, ending in the JSON format."""
        raise NotImplementedError

    def ask(self, state: pyspiel.State, seat: int) -> str:
        """The decision in a few words, for the text view (``choose a number from 0 to 100``)."""
        raise NotImplementedError

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        raise NotImplementedError

    def control(self, state: pyspiel.State, seat: int) -> Control:
        raise NotImplementedError

    def columns(self) -> tuple[str, ...]:
        raise NotImplementedError

    def progress(self, state: pyspiel.State) -> str:
        """``Round 5 of 20``, ``Turn 12``..."""
        return ""

    # --- what the page and the prompts use ---------------------------------------------------

    def module_attribute(self, name: str) -> Any:
        """The renderer function ``name`` of this view, for the game's renderer module to
        export (``RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute``): the module then has the renderer
        contract of :mod:`renderers` and nothing else (no ``centres``, no ``buttons``)."""
        if name in RENDERER_API:
            return getattr(self, name)
        raise AttributeError(f"module renderers.{self.game_id} has no attribute {name!r}")


    def renderer(self) -> Renderer:
        """This view as the game's :class:`~renderers.contract.Renderer` (a ``rounds`` page)."""
        return Renderer(page="rounds", text=self.text, image=self.image, hit_test=self.hit_test,
                        watcher=self.WATCHER, seat_label=self.seat_label, prompt=self.prompt,
                        messages=self.messages, rounds=self)

    def acting(self, state: pyspiel.State, seat: int) -> bool:
        if state.is_terminal() or state.is_chance_node():
            return False
        if state.is_simultaneous_node():
            return len(state.legal_actions(seat)) > 1
        return state.current_player() == seat

    WATCHER = True
    """``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the
    seat named, never "you"; the rounds as the results table has them)."""

    def text(self, state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
        if watcher:
            return self.watched_text(state, seat)
        spec = registry.get(self.game_id)
        lines = [f"{spec.title}. {self.identity(state, seat)}".strip()]
        if self.progress(state):
            lines.append(self.progress(state) + ".")
        history = self.entries(state, seat)
        lines.append("Results so far:" if history else "No results yet.")
        for entry in history:
            told = " ".join(part for part in (entry.facts, entry.choice, entry.outcome) if part)
            lines.append(f"  {entry.heading}: {told}")
        lines.append(self.standing(state, seat))
        lines.append(self.status(state, seat))
        return "\n".join(line for line in lines if line)

    def watched_text(self, state: pyspiel.State, seat: int) -> str:
        """The seat's view for a watcher: the same facts, each round as a row of the results
        table, the seat named instead of "you" (GAMA's sentences speak to the seat)."""
        spec = registry.get(self.game_id)
        name = self.watched_name(seat)
        lines = [f"{spec.title}. {capital(name)}'s view."]
        if self.progress(state):
            lines.append(self.progress(state) + ".")
        history = self.entries(state, seat)
        lines.append(f"Results so far, as {name} saw them:" if history else "No results yet.")
        for entry in history:
            cells = "; ".join(f"{watched(column, name)}: {watched(value, name)}"
                              for column, value in entry.row.items() if column != "round")
            lines.append(f"  {entry.heading}: {cells}.")
        lines.append(watched(self.standing(state, seat), name))
        if state.is_terminal():
            returns = state.returns()
            rank = 1 + sum(1 for r in returns if r > returns[seat])
            lines.append(f"Game over: {name} placed {rank} of {len(returns)} (ties share a "
                         "place).")
        else:
            lines.append(f"{capital(name)} decides now." if self.acting(state, seat)
                         else f"{capital(name)} waits for the other players.")
        return "\n".join(line for line in lines if line)

    def watched_name(self, seat: int) -> str:
        """The seat as a watcher's view names it (as the results table does)."""
        return self.seat_label(seat)

    def total(self, state: pyspiel.State, seat: int) -> str:
        """The seat's running result in words (``Your total: 15``)."""
        return f"Your total: {number_text(round(state.returns()[seat], 2))}"

    def standing(self, state: pyspiel.State, seat: int) -> str:
        hidden = self.score_uses_hidden and not state.is_terminal()
        gama = None if hidden else scoring.score(state, [seat]).score
        so_far = "" if state.is_terminal() else " so far"
        score = f"GAMA score{so_far} {gama:.1f} of 100" if gama is not None else ""
        told = "; ".join(part for part in (self.total(state, seat), score) if part)
        return f"{told}." if told else ""

    def status(self, state: pyspiel.State, seat: int) -> str:
        if state.is_terminal():
            returns = state.returns()
            rank = 1 + sum(1 for r in returns if r > returns[seat])
            return f"Game over: you placed {rank} of {len(returns)} (ties share a place)."
        if self.acting(state, seat):
            return f"Your decision: {self.ask(state, seat)}."
        return "Waiting for the other players."

    def table(self, state: pyspiel.State, seat: int) -> tuple[list[str], list[list[str]]]:
        """The results table for the page: headers and one row per round, as the seat saw it."""
        columns = list(self.columns())
        return columns, [[entry.row.get(c, "") for c in columns]
                         for entry in self.entries(state, seat)]

    def image(self, state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
              targets: Sequence[str] = (), last: Sequence[str] | None = None,
              watcher: bool = False) -> Image.Image:
        """The plot of the rounds so far; its title names the seat whose view it is (for a
        ``watcher``, every label names the seat instead of saying "you")."""
        plot = self.plot(state, seat)
        name = self.seat_label(seat) if not watcher else self.watched_name(seat)
        if not watcher:
            return _drawn(replace(plot, title=f"{plot.title} (you: {name})")).copy()
        return _drawn(replace(
            plot, title=f"{plot.title} ({name}'s view)",
            lines=tuple(replace(s, name=watched(s.name, name)) for s in plot.lines),
            bars=tuple((watched(label, name), value, colour)
                       for label, value, colour in plot.bars))).copy()

    def hit_test(self, state: pyspiel.State, seat: int, x: float, y: float, *,
                 selection: Sequence[str] = ()) -> str | None:
        """Nothing on the plot is a move: decisions go through :meth:`control`."""
        return None

    def seat_label(self, seat: int) -> str:
        """How the game's texts name ``seat`` (``player 3``, ``pirate 4``, ``player_3``)."""
        return player_name(seat)

    def rules(self, state: pyspiel.State) -> str:
        spec = registry.get(self.game_id)
        return spec.rules_with(state.get_game().get_parameters(), for_llm=True)

    def messages(self, state: pyspiel.State, seat: int) -> list[dict[str, str]]:
        """GAMA's conversation: the rules as the system message, then per round the report,
        the seat's own answer as the assistant's turn and what it learned, then the request."""
        system = "\n".join(part for part in (self.rules(state), self.identity(state, seat))
                           if part)
        out = [{"role": "system", "content": system}]
        for entry in self.entries(state, seat):
            report = f"Game results for {entry.heading.lower()}:\n{entry.facts}".strip()
            if entry.answer is None:
                out.append({"role": "user", "content": f"{report}\n{entry.outcome}".strip()})
                continue
            out.append({"role": "user", "content": f"{report}\nYou chose:"})
            out.append({"role": "assistant", "content": entry.answer})
            if entry.outcome:
                out.append({"role": "user", "content": entry.outcome})
        out.append({"role": "user", "content": self.request(state, seat)})
        return _merge_users(out)

    def prompt(self, state: pyspiel.State, seat: int) -> str:
        """The same conversation as one text, for agents that send a single message."""
        parts = ["\n".join(part for part in (self.rules(state), self.identity(state, seat))
                           if part)]
        for entry in self.entries(state, seat):
            lines = [f"Game results for {entry.heading.lower()}:", entry.facts]
            if entry.answer is not None:
                lines.append(f"You chose: {entry.answer}")
            lines.append(entry.outcome)
            parts.append("\n".join(line for line in lines if line))
        parts.append(self.request(state, seat))
        return "\n\n".join(parts)


def _merge_users(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    merged: list[dict[str, str]] = []
    for message in messages:
        if merged and message["role"] == "user" and merged[-1]["role"] == "user":
            merged[-1] = {"role": "user", "content": merged[-1]["content"] + "\n\n" +
                          message["content"]}
        else:
            merged.append(message)
    return merged


_SAID_TO_YOU = ((r"\b[Yy]ou have\b", "{} has"), (r"\b[Yy]ou were\b", "{} was"),
                (r"\b[Yy]ou are\b", "{} is"), (r"\b[Yy]our\b", "{}'s"), (r"\b[Yy]ou\b", "{}"))


def watched(words: str, name: str) -> str:
    """Short words written to a seat (a column head ``your bid``, a plot label ``how often
    you went``, ``You have outlasted 3 players``) with the seat named instead, for a
    watcher: ``player 3's bid``, ``how often player 3 went``."""
    said = words
    for pattern, replacement in _SAID_TO_YOU:
        said = re.sub(pattern, replacement.format(name.replace("\\", "\\\\")), said)
    return capital(said) if words[:1].isupper() else said


def capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def view_of(game_id: str) -> GamaView:
    from renderers import renderer_for

    view = renderer_for(game_id).rounds
    if not isinstance(view, GamaView):
        raise KeyError(f"{game_id} is not a GAMA-Bench game")
    return view


def gama_prompt(view: SeatView) -> str:
    """The GAMA-style prompt for ``view``'s seat: rules with the session's parameters, the
    previous rounds as the seat saw them, and the request for one JSON field."""
    return view_of(view.game.id).prompt(view.state, view.seat)


def gama_messages(view: SeatView) -> list[dict[str, str]]:
    """The same prompt as chat messages (system, user/assistant per round, user request)."""
    return view_of(view.game.id).messages(view.state, view.seat)


def number_control(label: str, actions: Sequence[int], json_field: str) -> Control:
    if not actions:
        return Control("wait", "Waiting for the other players.")
    return Control("number", label, min(actions), max(actions), json_field=json_field)


def choice_control(label: str, options: Sequence[str], json_field: str) -> Control:
    if len(options) < 2:
        return Control("wait", "Waiting for the other players.")
    return Control("choice", label, options=tuple(options), json_field=json_field)


class RoundsView(GamaView):
    """A game of a fixed number of simultaneous rounds, each decided by one number (the
    field ``number_label``) or by one of a few words (``choices``, asked by ``choice_label``)."""

    number_label: str = ""
    choice_label: str = ""
    choices: tuple[str, ...] = ()

    def progress(self, state: pyspiel.State) -> str:
        return f"Round {state.round_number} of {state.get_game().num_rounds}"

    def control(self, state: pyspiel.State, seat: int) -> Control:
        acting = self.acting(state, seat)
        if self.choices:
            return choice_control(self.choice_label, self.choices if acting else (),
                                  self.json_field)
        return number_control(self.number_label, state.legal_actions(seat) if acting else [],
                              self.json_field)


# --- drawing ---------------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _drawn(plot: Plot) -> Image.Image:
    """:func:`draw`, remembered: a page redraws the same plot until a round is settled
    (plots are values, so equal plots are the same picture)."""
    return draw(plot)


def draw(plot: Plot) -> Image.Image:
    """The plot as an RGB image (matplotlib's object API: safe from several threads)."""
    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    axes = figure.add_subplot()
    if plot.bars:
        labels = [b[0] for b in plot.bars]
        bars = axes.bar(range(len(labels)), [b[1] for b in plot.bars],
                        color=[b[2] for b in plot.bars])
        axes.bar_label(bars, fmt="%g", fontsize=8)
        axes.set_ylim(0, max(1.0, *(b[1] for b in plot.bars)) * 1.12)  # all zero: not ±0.05
        axes.set_xticks(range(len(labels)), labels, fontsize=8)
    elif not any(s.values for s in plot.lines):
        return _waiting(figure, plot)
    else:
        played = max(len(s.values) for s in plot.lines)
        for series in plot.lines:  # a round the seat did not learn leaves a gap
            xs = list(range(1, len(series.values) + 1))
            ys = [math.nan if v is None else v for v in series.values]
            axes.plot(xs, ys, series.style, label=series.name, markersize=4)
        for name, value in plot.guides:
            axes.axhline(value, linestyle="--", color="grey", linewidth=1)
            axes.annotate(name, (1, value), xycoords=("axes fraction", "data"),
                          ha="right", va="bottom", fontsize=8, color="grey")
        axes.legend(loc="best", fontsize=8)
        # whole rounds from the first on: round 1 alone is one tick, not 0.95 to 1.05
        axes.set_xlim(0.5, max(played, 2) + 0.5)
        axes.set_xticks(round_ticks(played))
        axes.set_xlabel(plot.xlabel)
    axes.set_title(plot.title)
    axes.set_ylabel(plot.ylabel)
    axes.grid(alpha=0.3)
    # fixed margins (room for the tick labels, axis labels and title at this size):
    # tight_layout measured every label first and took 40% of the time
    figure.subplots_adjust(left=0.085, right=0.98, bottom=0.12, top=0.91)
    return _pixels(figure)


def round_ticks(played: int) -> list[int]:
    """Where the round axis is labelled: every round up to 12, else round 1 and every 2nd,
    5th, 10th... round (at most 12 labels)."""
    if played <= 12:
        return list(range(1, played + 1))
    step = next(s for s in (2, 5, 10, 20, 50, 100, 200, 500, 1000) if played / s <= 11)
    return [1, *range(step, played + 1, step)]


def _waiting(figure: Figure, plot: Plot) -> Image.Image:
    """Before the first result: the title and a line saying what the plot will show (no
    empty axes)."""
    figure.clear()
    figure.text(0.5, 0.91, plot.title, ha="center", va="center", fontsize=14)
    figure.text(0.5, 0.5, f"No {plot.xlabel} played yet.\nThe plot of {plot.ylabel} per "
                f"{plot.xlabel} starts after {plot.xlabel} 1.", ha="center", va="center",
                fontsize=20, color="#555555", linespacing=1.6)
    return _pixels(figure)


def _pixels(figure: Figure) -> Image.Image:
    canvas = FigureCanvasAgg(figure)  # the pixels directly: a PNG round trip took 40% longer
    canvas.draw()
    rgba = Image.frombuffer("RGBA", canvas.get_width_height(), bytes(canvas.buffer_rgba()))
    return rgba.convert("RGB")


def percent(value: float) -> str:
    return f"{number_text(round(value * 100, 1))}%"
