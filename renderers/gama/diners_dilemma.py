"""Diner's Dilemma: how many ordered each dish, the shared bill, your dish and your utility."""

from __future__ import annotations

import pyspiel

from games.gama.betraying import COSTLY
from games.gama.common import number_text
from renderers.gama.view import (
    Entry,
    Plot,
    RoundsView,
    Series,
    json_answer,
)


def _amount(value: float) -> str:
    return number_text(round(value, 2))


class DinersView(RoundsView):
    game_id = "diners_dilemma"
    json_field = "chosen_dish"
    choice_label = "Which dish?"
    choices = ("cheap", "costly")

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        out = []
        for r in range(state.settled()):
            result = state.result(r)
            dish = "costly" if state.choices[r][seat] == COSTLY else "cheap"
            utility = state.round_payoffs(r)[seat]
            out.append(Entry(
                f"Round {r + 1}",
                f"{result.costly} people chose the costly dish, while {result.cheap} chose the "
                f"cheap dish. The total cost is {result.bill}. You need to pay "
                f"{_amount(result.share)}.",
                f"You chose the {dish} dish.", json_answer(self.json_field, dish),
                f"Your utility is {_amount(utility)}.",
                {"round": str(r + 1), "your dish": dish, "costly": str(result.costly),
                 "cheap": str(result.cheap), "bill": str(result.bill),
                 "you paid": _amount(result.share), "your utility": _amount(utility)},
            ))
        return out

    def columns(self) -> tuple[str, ...]:
        return ("round", "your dish", "costly", "cheap", "bill", "you paid", "your utility")

    def ask(self, state: pyspiel.State, seat: int) -> str:
        game = state.get_game()
        return (f"order the cheap dish (price {game.cheap_price}, utility {game.cheap_utility}) "
                f"or the costly one (price {game.costly_price}, utility {game.costly_utility}); "
                "the bill is split equally")

    def request(self, state: pyspiel.State, seat: int) -> str:
        return (
            f"Now round {state.round_number} starts.\n"
            "Your goal is to maximize your overall satisfaction, balancing the quality of the "
            "dish and the cost shared.\n"
            "Please provide your chosen dish in the following JSON format:\n"
            '{"chosen_dish": "costly_or_cheap"}'
        )

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        played = range(state.settled())
        return Plot(
            title="Diner's Dilemma", ylabel="players / utility",
            lines=(Series("ordered the costly dish",
                          tuple(float(state.result(r).costly) for r in played)),
                   Series("your utility", tuple(state.round_payoffs(r)[seat] for r in played),
                          "--s")),
        )


VIEW = DinersView()
RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
