"""El Farol Bar: your decisions and utility; the attendance only when the rules reveal it.

With implicit information (GAMA's default) a player who stayed home learns nothing about the
bar that round: not how many went, nor whether it was fun.
"""

from __future__ import annotations

import pyspiel

from games.gama.cooperative import GO
from renderers.gama.view import (
    Entry,
    Plot,
    RoundsView,
    Series,
    json_answer,
)


class ElFarolView(RoundsView):
    game_id = "el_farol"
    json_field = "decision"
    choice_label = "Go to the bar or stay home?"
    choices = ("go", "stay")

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        game = state.get_game()
        out = []
        for r in range(state.settled()):
            mine = "go" if state.choices[r][seat] == GO else "stay"
            gained = int(state.round_payoffs(r)[seat])
            row = {"round": str(r + 1), "you": mine, "went": "?", "stayed home": "?",
                   "bar": "?", "your utility": str(gained)}
            facts = "You stayed home and did not learn what happened at the bar."
            if state.sees_attendance(seat, r):
                result = state.result(r)
                more = "equal to or less" if result.fun else "more"
                facts = (f"{result.went} players went to the bar, while {result.stayed} players "
                         f"stayed home. {result.went}/{game.num_players()}, which is {more} than "
                         f"{game.capacity}% of the players, went to the bar. It was "
                         f"{'more' if result.fun else 'less'} fun to go to the bar this round.")
                row.update({"went": str(result.went), "stayed home": str(result.stayed),
                            "bar": "fun" if result.fun else "crowded"})
            out.append(Entry(f"Round {r + 1}", facts, f"You chose to {mine}.",
                             json_answer(self.json_field, mine), f"You gained {gained}.", row))
        return out

    def columns(self) -> tuple[str, ...]:
        return ("round", "you", "went", "stayed home", "bar", "your utility")

    def ask(self, state: pyspiel.State, seat: int) -> str:
        return (f"go to the bar or stay home (fun if at most {state.get_game().capacity}% of "
                "the players go)")

    def request(self, state: pyspiel.State, seat: int) -> str:
        capacity = state.get_game().capacity
        return (
            f"Now round {state.round_number} starts.\n"
            f"Your goal is to maximize your fun. Choose to go to the bar when you predict fewer "
            f"than {capacity}% of the players will go, and choose to stay home otherwise.\n"
            "Please provide your decision in the following JSON format:\n"
            '{"decision": "go_or_stay"}'
        )

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        game, played = state.get_game(), range(state.settled())
        n = game.num_players()
        seen = tuple(100 * state.result(r).went / n if state.sees_attendance(seat, r) else None
                     for r in played)
        mine = [state.choices[r][seat] for r in played]
        rate = tuple(100 * sum(mine[: r + 1]) / (r + 1) for r in played)
        return Plot(
            title="El Farol Bar", ylabel="percent of the players",
            lines=(Series("went to the bar (when you learned it)", seen),
                   Series("how often you went", rate, "--")),
            guides=((f"capacity {game.capacity}%", float(game.capacity)),),
        )


VIEW = ElFarolView()
RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
