"""GAMA-Bench's tables on the Play tab: the setup (players, rounds, the person's seat, an agent
for every other seat) and the panel while playing (who sits where, the decision field, Pirate
Game's proposal form, the results and, at the end, every seat's GAMA score)."""

from __future__ import annotations

from typing import Any

import gradio as gr

from games.gama.common import MAX_PLAYERS
from games.registry import get
from sessions.web import gama_screen, talk
from sessions.web.plain import escape, tag

SHARES = MAX_PLAYERS - 1  # Pirate Game's proposal form: one field per pirate below you


def show_table(table: gama_screen.TableScreen | None) -> list[Any]:
    """Updates for the GAMA table panel, in the order build_table_view lists them."""
    if table is None:
        return [gr.update(visible=False)] * 2 + [gr.skip()] * (SHARES + 7)
    c, plan = table.control, dict(enumerate(table.plan))
    number = c.kind == "number" and not plan
    seats = " · ".join(tag("b", f"{seat}: you") if who == "you" else escape(f"{seat}: {who}")
                       for seat, who in table.seats)
    shares = [gr.update(visible=i in plan, **_share(plan.get(i))) for i in range(SHARES)]
    summary = table.summary or ([], [])
    return [
        gr.update(visible=True), gr.update(visible=True),
        f"<div>{tag('b', 'At the table:')} {seats}</div>",
        "<div>" + escape(table.standing) + (f"<br>{tag('b', c.label)}" if c.kind == "choice"
                                            else "") + "</div>" + _measures(table),
        gr.update(visible=number),
        gr.update(label=c.label, info=f"a whole number from {c.minimum} to {c.maximum}")
        if number else gr.skip(),
        gr.update(visible=bool(plan)), *shares,
        {"headers": table.headers, "data": table.rows},
        gr.update(value={"headers": summary[0], "data": summary[1]},
                  visible=table.summary is not None),
    ]


def _measures(table: gama_screen.TableScreen) -> str:
    """At the end: what the 0-100 GAMA score measures in this game."""
    if table.summary is None or not table.measures:
        return ""
    return "<div class='arena-note'>" + escape(table.measures) + "</div>"


def _share(field: tuple[str, int | None] | None) -> dict[str, Any]:
    """A proposal-form field: its pirate, and the share already set (then not editable)."""
    if field is None:
        return {}
    pirate, fixed = field
    return {"label": pirate, "interactive": fixed is None,
            **({"value": fixed} if fixed is not None else {})}


def choose_table(game_id: str) -> list[Any]:
    """Show the table setup for GAMA-Bench's games, the one-opponent setup for the others."""
    table = gama_screen.is_table(game_id)
    seated = table or talk.is_talk(game_id)  # talking games have their own setup
    duel = [gr.update(visible=not seated)] * 4  # opponent, its note, seat, start
    if not table:
        return [*duel, gr.update(visible=False)] + [gr.skip()] * (SHARES + 3)
    defaults = get(game_id).params()
    count, rounds = int(defaults["num_players"]), defaults.get("num_rounds")
    return [*duel, gr.update(visible=True), count,
            gr.update(value=rounds, visible=rounds is not None),
            *arrange_table(game_id, count, "0", *([None] * SHARES))]


def arrange_table(game_id: str, count: float | None, seat: str | None,
                  *agents: str | None) -> list[Any]:
    """Seat choices and one agent picker per other seat, named as the game names seats; a
    picker keeps its agent if it may sit at this game, else gets the default mix."""
    count = max(2, min(MAX_PLAYERS, int(count or 2)))
    if seat != "random" and not (seat and seat.isdigit() and int(seat) < count):
        seat = "0"
    setup = gama_screen.table_setup(game_id, count, None if seat == "random" else int(seat))
    allowed = {spec for _, spec in setup.agents}
    pickers = [gr.update(visible=i < count - 1, choices=setup.agents,
                         label=setup.others[i] if i < count - 1 else "agent",
                         value=agents[i] if agents[i] in allowed else
                         setup.defaults[i % len(setup.defaults)])
               for i in range(SHARES)]
    return [gr.update(choices=setup.seat_choices, value=seat), *pickers]


def build_table_setup() -> dict[str, Any]:
    """GAMA-Bench's games: players, rounds, the person's seat and an agent for every other
    seat (shown instead of the one-opponent setup when such a game is chosen)."""
    with gr.Group(visible=False) as box:
        with gr.Row():
            count = gr.Number(10, label="Players", precision=0, min_width=90,
                              elem_id="table-players")
            rounds = gr.Number(20, label="Rounds", precision=0, min_width=90,
                               elem_id="table-rounds")
        seat = gr.Dropdown([], label="Your seat", elem_id="table-seat")
        with gr.Accordion("Agents at the other seats", open=True), gr.Row():
            agents = [gr.Dropdown([], visible=False, min_width=150,
                                  elem_id=f"table-agent-{i}") for i in range(SHARES)]
        begin = gr.Button("Start", variant="primary", elem_id="start-table")
    return {"box": box, "count": count, "rounds": rounds, "seat": seat, "agents": agents,
            "start": begin}


def build_table_view() -> dict[str, Any]:
    """GAMA-Bench's games while playing, in two parts: under the board the round's decision
    (the number field; choices use the move buttons) and Pirate Game's proposal form
    (``controls``); beside it who sits where, the score so far, the results table and, at
    the end, everyone's GAMA score with what it measures (``info``, rendered by the caller
    with ``build_table_info``). Outputs in show_table's order."""
    with gr.Column(visible=False) as box:
        with gr.Row(visible=False, equal_height=True) as number_row:
            number = gr.Number(label="Your number", elem_id="decision", scale=3)
            decide_button = gr.Button("Submit", variant="primary", scale=1, elem_id="decide")
        with gr.Group(visible=False) as plan_box:
            gr.HTML("<b>Your plan:</b> golds for each pirate below you; you keep the rest.")
            with gr.Row(elem_id="plan"):
                shares = [gr.Number(0, visible=False, min_width=80, precision=0)
                          for _ in range(SHARES)]
            propose_button = gr.Button("Propose this plan", variant="primary",
                                       elem_id="propose")
    return {"box": box, "number_row": number_row, "plan_box": plan_box,
            "number": number, "decide": decide_button, "shares": shares,
            "propose": propose_button}


def build_table_info(view: dict[str, Any]) -> None:
    """The table's seats, standing, results and summary (beside the board); completes
    ``view["outputs"]``."""
    with gr.Column(visible=False) as info:
        seats = gr.HTML(elem_id="table-seats")
        standing = gr.HTML(elem_id="standing")
        # wrapped: six columns in the side column cut the last header to "resul"
        results = gr.Dataframe(label="Results by round", interactive=False, max_height=320,
                               elem_id="results", wrap=True)
        summary = gr.Dataframe(label="Final results and GAMA scores (0-100)", visible=False,
                               interactive=False, elem_id="summary", wrap=True)
    view["outputs"] = [view["box"], info, seats, standing, view["number_row"], view["number"],
                       view["plan_box"], *view["shares"], results, summary]
