"""Guess 2/3 of the Average: each round's average, target and winning number, and your pick.

Players learn the average, the target and the winning number, not each other's choices.
"""

from __future__ import annotations

import pyspiel

from games.gama.common import number_text, ratio_text
from renderers.gama.view import (
    Entry,
    Plot,
    RoundsView,
    Series,
    json_answer,
)


class GuessView(RoundsView):
    game_id = "guess_2_3"
    json_field = "chosen_number"
    number_label = "Your number"

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        ratio = ratio_text(state.get_game().ratio)
        out = []
        for r in range(state.settled()):
            result, mine = state.result(r), state.choices[r][seat]
            won = seat in result.winners
            average, target = number_text(round(result.average, 2)), number_text(
                round(result.target, 2))
            winning = " and ".join(map(str, result.winning_numbers))
            out.append(Entry(
                heading=f"Round {r + 1}",
                facts=f"Average number chosen: {average}. Target number ({ratio} of average): "
                      f"{target}. Winning number: {winning}.",
                choice=f"You chose {mine}.",
                answer=json_answer(self.json_field, mine),
                outcome="Congratulations, you won." if won else "Unfortunately, you lost.",
                row={"round": str(r + 1), "you chose": str(mine), "average": average,
                     "target": target, "winning number": winning,
                     "result": "won" if won else "lost"},
            ))
        return out

    def columns(self) -> tuple[str, ...]:
        return ("round", "you chose", "average", "target", "winning number", "result")

    def ask(self, state: pyspiel.State, seat: int) -> str:
        game = state.get_game()
        return (f"choose a whole number from {game.minimum} to {game.maximum}; the winner is "
                f"closest to {ratio_text(game.ratio)} of the average")

    def request(self, state: pyspiel.State, seat: int) -> str:
        game = state.get_game()
        return (
            f"Now round {state.round_number} starts.\n"
            f"Your goal is to choose a number that you believe will be closest to "
            f"{ratio_text(game.ratio)} of the average of all numbers chosen by players, "
            "including your selection.\n"
            "Please provide your chosen number in the following JSON format:\n"
            f'{{"chosen_number": "integer_between_{game.minimum}_and_{game.maximum}"}}'
        )

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        played = range(state.settled())
        results = [state.result(r) for r in played]
        game = state.get_game()
        return Plot(
            title=f"Guess {ratio_text(game.ratio)} of the average", ylabel="number",
            lines=(
                Series("your number", tuple(float(state.choices[r][seat]) for r in played)),
                Series("average", tuple(r.average for r in results), "-s"),
                Series("target", tuple(r.target for r in results), "--"),
                Series("winning number", tuple(float(min(r.winning_numbers)) for r in results),
                       ":^"),
            ),
        )


VIEW = GuessView()
RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
