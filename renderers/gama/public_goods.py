"""Public Goods Game: everyone's contributions (GAMA reveals them), the pot and your tokens."""

from __future__ import annotations

from statistics import fmean

import pyspiel

from games.gama.common import number_text, player_name, ratio_text
from renderers.gama.view import (
    Entry,
    Plot,
    RoundsView,
    Series,
    json_answer,
)


def _tokens(value: float) -> str:
    return number_text(round(value, 2))


class PublicGoodsView(RoundsView):
    game_id = "public_goods"
    json_field = "tokens_contributed"
    number_label = "Tokens to contribute"

    def identity(self, state: pyspiel.State, seat: int) -> str:
        return f"You are {player_name(seat)}."

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        out = []
        for r in range(state.settled()):
            given, mine = state.choices[r], state.choices[r][seat]
            gain = state.share(r) - mine
            totals = state.totals_after(r)
            out.append(Entry(
                f"Round {r + 1}",
                "Contributed tokens of each player: " + ", ".join(map(str, given)) + ".",
                f"You contributed {mine}.", json_answer(self.json_field, mine),
                f"Tokens in the public pot: {state.pot(r)}. Your gain: {_tokens(gain)}. "
                f"Your tokens after round {r + 1}: {_tokens(totals[seat])}. Tokens of each "
                f"player after round {r + 1}: {', '.join(_tokens(t) for t in totals)}.",
                {"round": str(r + 1), "you contributed": str(mine),
                 "all contributions": " ".join(map(str, given)), "pot": str(state.pot(r)),
                 "your gain": _tokens(gain), "your tokens": _tokens(totals[seat])},
            ))
        return out

    def columns(self) -> tuple[str, ...]:
        return ("round", "you contributed", "all contributions", "pot", "your gain",
                "your tokens")

    def ask(self, state: pyspiel.State, seat: int) -> str:
        game = state.get_game()
        return (f"contribute a whole number of tokens from 0 to {game.tokens} to the pot (it is "
                f"multiplied by {ratio_text(game.multiplier)} and shared by all)")

    def request(self, state: pyspiel.State, seat: int) -> str:
        tokens = state.get_game().tokens
        return (
            f"Now round {state.round_number} starts.\n"
            f"Your goal is to maximize your total token count by the end of the game. "
            f"Currently you have {tokens} tokens. You need to decide the number of tokens to be "
            "contributed to the public pot.\n"
            "Please provide the number of tokens in the following JSON format:\n"
            f'{{"tokens_contributed": "integer_between_0_and_{tokens}"}}'
        )

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        played = range(state.settled())
        return Plot(
            title="Public Goods Game", ylabel="tokens",
            lines=(Series("your contribution",
                          tuple(float(state.choices[r][seat]) for r in played)),
                   Series("average contribution",
                          tuple(fmean(state.choices[r]) for r in played), "--s")),
            guides=((f"all {state.get_game().tokens} tokens", float(state.get_game().tokens)),),
        )


VIEW = PublicGoodsView()
RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
