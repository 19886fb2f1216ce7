"""``bot``: hand-written strategy bots for the games where search alone plays badly or
cannot play (simultaneous orders, trading, negotiation, talking and deduction).

One bot per game, named here by module and class and imported on first use. A bot is built
as ``Class(game, params, rng)`` and answers :meth:`act` like every other agent; it reads only
what its seat may know (its information state, its own view, the public history and the
legal moves), never ``view.state``'s hidden parts, and it proposes through the one adapter
(an action id, or an action id with words for talk).

``bot:SLIPS`` is the same bot making mistakes: on SLIPS percent of its decisions it plays a
uniformly random legal move instead (the ladder's middle levels), drawn from its own seeded
generator.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from typing import Any

import numpy as np

from agents.base import Agent, Decision, SeatView
from games.actions import ActionId
from games.registry import GameSpec

BOTS: dict[str, str] = {
    "sea_battle": "agents.bots.sea_battle:SeaBattleBot",
    "pit": "agents.bots.pit:PitTrader",
    "negotiation": "agents.bots.negotiation:Negotiator",
    "are_you_the_traitor": "agents.bots.traitor:TraitorBot",
    "two_rooms_and_a_boom": "agents.bots.two_rooms:TwoRoomsBot",
    "arctic_scavengers": "agents.bots.arctic:ArcticBot",
    "codenames": "agents.bots.codenames:CodenamesBot",
    "kuhn_poker": "agents.bots.kuhn_poker:KuhnBot",
    "liars_dice": "agents.bots.liars_dice:LiarsDiceBot",
    "first_sealed_auction": "agents.bots.auction:AuctionBot",
    "pig": "agents.bots.pig:PigBot",
    "iterated_prisoners_dilemma": "agents.bots.prisoners:PrisonersBot",
    "santorini": "agents.bots.santorini:SantoriniBot",
    "hive": "agents.bots.hive:HiveBot",
}
"""Game id -> ``module:Class`` of its bot."""

NOTES: dict[str, str] = {
    "sea_battle": "plans each ship's orders: steers clear of rocks and hunts the enemy fleet",
    "pit": "trades toward the commodity it holds most of and corners it",
    "negotiation": "proposes splits that pay it well but that the other side can accept",
    "are_you_the_traitor": "keeps track of what it has seen and heard, talks, accuses "
                           "and votes by evidence",
    "two_rooms_and_a_boom": "keeps track of what it has seen and heard, talks, shares and "
                            "sends hostages by evidence",
    "arctic_scavengers": "builds its tribe: digs, hires and fights by the cards it holds",
    "codenames": "gives clues and guesses by word meaning (offline word vectors)",
    "kuhn_poker": "plays Kuhn poker's game-theory optimal strategy: always bets the King, "
                  "bluffs the Jack a third of the time; nobody beats it in the long run",
    "liars_dice": "bids and calls by the odds from its own die, reading your bids as evidence",
    "first_sealed_auction": "bids about 70% of its valuation, the bid that out-earns any other "
                            "bidder on average",
    "pig": "plays perfect Pig: with the goal at 20 it keeps rolling until it can stop on 20",
    "iterated_prisoners_dilemma": "never lets you get ahead: defects until it leads, then "
                                  "cooperates while it can afford to",
    "santorini": "looks at its turn and every reply: climbs, blocks climbs onto level 3 "
                 "and keeps its workers high and central",
    "hive": "looks at its move and every reply: crowds your queen, keeps its own free",
}
"""One line about each game's bot, in people's words (the page's opponent note)."""


def bot_games() -> tuple[str, ...]:
    """The games that have a bot (whose module is present)."""
    return tuple(game for game, where in BOTS.items()
                 if importlib.util.find_spec(where.partition(":")[0]) is not None)


def make_bot(game: GameSpec, params: dict[str, object], *, seed: int,
             slips: int = 0) -> Agent:
    """The bot for ``game``; with ``slips`` > 0 it plays that percent of moves at random."""
    module, _, name = BOTS[game.id].partition(":")
    cls = getattr(importlib.import_module(module), name)
    rng = np.random.default_rng(seed)
    bot = cls(game, params, rng)
    return Slipping(bot, slips, np.random.default_rng(seed + 1)) if slips else bot


class Slipping:
    """A bot that plays a uniformly random legal move on ``percent`` of its decisions."""

    def __init__(self, bot: Any, percent: int, rng: np.random.Generator) -> None:
        self.bot = bot
        self.percent = percent
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        if self._rng.random() * 100 < self.percent:
            start = time.perf_counter()
            move = view.legal[int(self._rng.integers(len(view.legal)))]
            return Decision(ActionId(action=move.action), raw=move.label,
                            reasoning="a slip: a random legal move",
                            seconds=time.perf_counter() - start, meta={"slip": True})
        return self.bot.act(view, feedback=feedback)

    def cancel(self) -> None:
        cancel = getattr(self.bot, "cancel", None)
        if cancel is not None:
            cancel()
