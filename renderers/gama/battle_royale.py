"""Battle Royale: hit rates, shooting order, who is still standing and every shot so far.

Everything is public: all players see every shot and its result.
"""

from __future__ import annotations

import json

import pyspiel

from games.gama.common import player_name
from renderers.gama.view import Control, Entry, GamaView, Plot, choice_control

ALIVE, YOU, OUT = "#4c72b0", "#dd8452", "#c0c0c0"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _player_id(seat: int) -> str:
    return f"player_{seat}"


class BattleRoyaleView(GamaView):
    game_id = "battle_royale"
    json_field = "target"
    unit = "turn"

    def seat_label(self, seat: int) -> str:
        return _player_id(seat)

    def watched_name(self, seat: int) -> str:
        return player_name(seat)  # as the results table names the shooters

    def progress(self, state: pyspiel.State) -> str:
        left = len(state.remaining())
        return (f"Round {len(state.turns) + 1} (the game stops after "
                f"{state.get_game().max_turns}); {left} players left")

    def _standing(self, state: pyspiel.State) -> str:
        rates = state.get_game().hit_rates
        return json.dumps({_player_id(p): f"{rates[p]}%" for p in state.remaining()})

    def identity(self, state: pyspiel.State, seat: int) -> str:
        rate = state.get_game().hit_rates[seat]
        if not state.alive[seat]:
            return f"You are {_player_id(seat)} (hit rate {rate}%); you have been eliminated."
        place = state.remaining().index(seat) + 1
        return (f"You are {_player_id(seat)}. Your hit rate is {rate}%. You are the "
                f"{_ordinal(place)} to shoot.")

    def entries(self, state: pyspiel.State, seat: int) -> list[Entry]:
        out = []
        for i, turn in enumerate(state.turns):
            shooter = _player_id(turn.shooter)
            if turn.target is None:
                did, answer = "intentionally missed the shot", "miss"
            else:
                target = _player_id(turn.target)
                did = f"shot at {target} and hit" if turn.hit else f"shot at {target} but missed"
                answer = target
            mine = turn.shooter == seat
            left = f"There are {turn.left} players left."
            out.append(Entry(
                f"Round {i + 1}", "" if mine else f"{shooter} {did}.", "",
                json.dumps({"target": answer}) if mine else None,
                f"You {did}. {left}" if mine else left,
                {"round": str(i + 1), "shooter": "you" if mine else player_name(turn.shooter),
                 "action": "miss" if turn.target is None else f"shoot {player_name(turn.target)}",
                 "result": "-" if turn.target is None else ("hit" if turn.hit else "missed"),
                 "players left": str(turn.left)},
            ))
        return out

    def columns(self) -> tuple[str, ...]:
        return ("round", "shooter", "action", "result", "players left")

    def ask(self, state: pyspiel.State, seat: int) -> str:
        return "shoot at a player still in the game, or miss on purpose"

    def total(self, state: pyspiel.State, seat: int) -> str:
        if state.alive[seat]:
            return f"You have outlasted {len(state.eliminated)} players so far"
        return f"You were eliminated after {state.eliminated.index(seat)} others"

    def request(self, state: pyspiel.State, seat: int) -> str:
        return (
            f"Now round {len(state.turns) + 1} starts.\n"
            "Your goal is to eliminate other players to survive until the end and win the game. "
            "The remaining players' names and hit rates ranked by shooting order are: "
            f"{self._standing(state)}. {self.identity(state, seat)} Please decide whether to "
            "shoot at a player or intentionally miss.\n"
            "Please provide your action in the following JSON format:\n"
            '{"target": "player_ID_or_miss"}'
        )

    def control(self, state: pyspiel.State, seat: int) -> Control:
        if not self.acting(state, seat):
            return choice_control("", [], self.json_field)
        miss = state.get_game().miss
        options = [("miss" if a == miss else f"shoot player {a}")
                   for a in state.legal_actions(seat)]
        return choice_control("Shoot at whom?", options, self.json_field)

    def plot(self, state: pyspiel.State, seat: int) -> Plot:
        rates = state.get_game().hit_rates
        bars = tuple(
            (f"{'you' if p == seat else p}", float(rates[p]),
             OUT if not state.alive[p] else YOU if p == seat else ALIVE)
            for p in state.get_game().order
        )
        return Plot(title="Battle Royale: hit rates in shooting order (grey: out)",
                    ylabel="hit rate (%)", lines=(), bars=bars)


VIEW = BattleRoyaleView()
RENDERER = VIEW.renderer()
__getattr__ = VIEW.module_attribute  # text, image, table, control, prompt, ...
