"""Sealed-Bid Auction: your own valuation and bid, the winning bid and the price paid.

Other players' valuations and bids stay hidden; only the winning bid and the price are
announced.
"""

from __future__ import annotations

import pyspiel

from renderers.gama.view import (
    Entry,
    Plot,
    RoundsView,
    Series,
    json_answer,
)


class AuctionView(RoundsView):
    game_id = "sealed_bid_auction"
    json_field = "bid"
    score_uses_hidden = True
    number_label = "Your bid"

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        out = []
        for r in range(state.settled()):
            result, bid = state.result(r), state.choices[r][seat]
            value, won = state.valuation(seat, r), result.winner == seat
            utility = int(state.round_payoffs(r)[seat])
            out.append(Entry(
                f"Round {r + 1}",
                f"Your valuation for this round's item was {value}. The winning bid was "
                f"{result.winning_bid}. The price paid was {result.price}.",
                f"You bid {bid}.", json_answer(self.json_field, bid),
                f"You {'won' if won else 'lost'}. Your utility is {utility}.",
                {"round": str(r + 1), "your valuation": str(value), "your bid": str(bid),
                 "winning bid": str(result.winning_bid), "price": str(result.price),
                 "result": "won" if won else "lost", "your utility": str(utility)},
            ))
        return out

    def columns(self) -> tuple[str, ...]:
        return ("round", "your valuation", "your bid", "winning bid", "price", "result",
                "your utility")

    def _valuation(self, state: pyspiel.State, seat: int) -> int:
        return state.valuation(seat, min(state.settled(), state.get_game().num_rounds - 1))

    def ask(self, state: pyspiel.State, seat: int) -> str:
        value = self._valuation(state, seat)
        pays = "its bid" if state.get_game().price == "first" else "the second highest bid"
        return (f"your valuation of this round's item is {value}: bid a whole number from 0 to "
                f"{value} (the highest bid wins and pays {pays})")

    def request(self, state: pyspiel.State, seat: int) -> str:
        value = self._valuation(state, seat)
        return (
            f"Now round {state.round_number} starts.\n"
            f"Your goal is to maximize your total utility. Your valuation for this round's item "
            f"is {value}.\n"
            "Please provide your bid in the following JSON format:\n"
            f'{{"bid": "integer_between_0_and_{value}"}}'
        )

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        played = range(state.settled())
        price = state.get_game().price
        return Plot(
            title=f"Sealed-Bid Auction ({price} price)", ylabel="value",
            lines=(Series("your valuation", tuple(float(state.valuation(seat, r))
                                                  for r in played)),
                   Series("your bid", tuple(float(state.choices[r][seat]) for r in played),
                          "--s"),
                   Series("winning bid", tuple(float(state.result(r).winning_bid)
                                               for r in played), ":^")),
        )


VIEW = AuctionView()
RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
