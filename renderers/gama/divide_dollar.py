"""Divide the Dollar: your bid, the sum of all bids and what you received, round by round.

Players learn the sum of the bids, not each other's bids.
"""

from __future__ import annotations

import pyspiel

from games.gama.common import number_text
from renderers.gama.view import (
    Entry,
    Plot,
    RoundsView,
    Series,
    json_answer,
)


class DivideView(RoundsView):
    game_id = "divide_dollar"
    json_field = "bid_amount"
    number_label = "Your bid"

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        golds = state.get_game().golds
        out = []
        for r in range(state.settled()):
            mine, total, paid = state.choices[r][seat], state.total(r), state.paid_out(r)
            received = mine if paid else 0
            out.append(Entry(
                f"Round {r + 1}",
                f"The sum of all bids was {total}. The sum "
                f"{'does not exceed' if paid else 'exceeds'} {golds}.",
                f"You bid {mine}.", json_answer(self.json_field, mine),
                f"You received {received} golds.",
                {"round": str(r + 1), "your bid": str(mine), "sum of bids": str(total),
                 "paid out": "yes" if paid else f"no (over {golds})",
                 "you received": str(received)},
            ))
        return out

    def columns(self) -> tuple[str, ...]:
        return ("round", "your bid", "sum of bids", "paid out", "you received")

    def ask(self, state: pyspiel.State, seat: int) -> str:
        golds = state.get_game().golds
        return (f"bid a whole number of golds from 0 to {golds}; if all bids add up to more "
                f"than {golds}, nobody gets anything")

    def request(self, state: pyspiel.State, seat: int) -> str:
        golds = state.get_game().golds
        return (
            f"Now round {state.round_number} starts.\n"
            f"Your goal is to maximize your individual gain without causing the total sum of "
            f"bids to exceed {golds} golds.\n"
            "Please provide your bid amount in the following JSON format:\n"
            f'{{"bid_amount": "integer_between_0_and_{golds}"}}'
        )

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        game, played = state.get_game(), range(state.settled())
        fair = game.golds / game.num_players()
        return Plot(
            title="Divide the Dollar", ylabel="golds",
            lines=(Series("sum of all bids", tuple(float(state.total(r)) for r in played)),
                   Series("your bid", tuple(float(state.choices[r][seat]) for r in played),
                          "--s")),
            guides=((f"G = {game.golds}", float(game.golds)),
                    (f"G/N = {number_text(round(fair, 2))}", fair)),
        )


VIEW = DivideView()
RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
