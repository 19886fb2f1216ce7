"""Pit, the commodity-trading card game, as an OpenSpiel Python game (turn-based).

The official game (Parker Brothers 1904; the Winning Moves deck of eight commodities with the
Bull and the Bear) has no turns: everyone shouts offers at once. Here the seats take turns,
and on a turn a seat does one thing: post an offer (1-4 cards, said by count only), accept a
standing offer of another seat (giving the same number of cards), withdraw its own offer, or
pass. Everything else follows the published rules:

- One 9-card suit per seat (the first ``num_players`` of Wheat 100, Barley 85, Coffee 80,
  Corn 75, Sugar 65, Oats 60, Soybeans 55, Oranges 50), with the Bull and the Bear shuffled
  in (``bull_bear``): every card is dealt, so two seats hold ten. Chance nodes deal card by
  card, round the table from the seat that starts the hand.
- A trade is 1-4 cards of one commodity, and the Bull and the Bear may go with them (or
  alone). The cards of a standing offer are set aside: they stay in the hand but cannot be
  given in another trade until the offer is withdrawn or replaced. Offers stand until
  accepted, replaced, withdrawn or the hand ends. Nobody sees what another seat holds, offers
  or gives: only how many cards.
- A corner is all nine cards of a commodity, or eight and the Bull (a Bull corner); nine and
  the Bull is a double Bull corner (double value). A seat holding the Bear cannot corner. The
  corner is called the moment a trade (or the deal) makes one, the accepting seat first: the
  cornering seat scores the commodity's value, the seat holding the Bear loses 20, and a seat
  other than the cornering one holding the Bull loses 20. Then the next hand is dealt.
- The first seat to reach ``target`` points (500) wins; the game ends after that hand.

Turn cap: after ``max_rounds`` rounds of turns (every seat once a round; rounds count across
hands) the market closes: the hand in play scores nothing and the game ends. The returns are
the seats' points; the highest wins, and equal points tie.

Action ids: 0 pass, 1 withdraw, ``2 + b`` offer bundle ``b``, ``2 + B + t * B + b`` accept
seat ``t``'s offer giving bundle ``b``, where ``B`` is the number of bundles
(:data:`BUNDLES`). Chance outcomes are card ids: commodities 0-7, Bull 8, Bear 9.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyspiel

from games.gamebench.pit_cards import (
    ACCEPT,
    BEAR,
    BULL,
    BUNDLES,
    CARDS,
    COMMODITIES,
    DEFAULTS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TRADE,
    MIN_PLAYERS,
    NUM_ACTIONS,
    OFFER,
    PASS,
    PENALTY,
    SUIT,
    WITHDRAW,
    Bundle,
    Corner,
    Event,
    card_name,
    seat_name,
)
from games.gamebench.pit_view import observe

__all__ = ["ACCEPT", "BEAR", "BULL", "BUNDLES", "CARDS", "COMMODITIES", "DEFAULTS", "MAX_PLAYERS",
           "MAX_TRADE", "OFFER", "PASS", "PENALTY", "WITHDRAW", "Bundle", "Corner", "Event",
           "PitGame", "PitState", "card_name", "seat_name"]

class PitGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        chosen = {**DEFAULTS, **(params or {})}
        self.players = int(chosen["num_players"])
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"num_players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, "
                             f"got {self.players}")
        self.target = int(chosen["target"])
        if not 50 <= self.target <= 5000:
            raise ValueError(f"target must be between 50 and 5000 points, got {self.target}")
        self.max_rounds = int(chosen["max_rounds"])
        if not 1 <= self.max_rounds <= MAX_ROUNDS:
            raise ValueError(f"max_rounds must be between 1 and {MAX_ROUNDS}, "
                             f"got {self.max_rounds}")
        self.bull_bear = bool(chosen["bull_bear"])
        self.deck = [SUIT] * self.players + [0] * (CARDS - self.players)
        self.deck[BULL] = self.deck[BEAR] = int(self.bull_bear)
        dealt = sum(self.deck)
        turns = self.max_rounds * self.players
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=CARDS,
            num_players=self.players, min_utility=-2.0 * PENALTY * (turns + 1),
            max_utility=float(self.target + 2 * COMMODITIES[0][1]), utility_sum=None,
            max_game_length=turns + dealt * (turns + 1)), chosen)

    def new_initial_state(self) -> PitState:
        return PitState(self)

    def value(self, commodity: int) -> int:
        return COMMODITIES[commodity][1]

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Any:
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("Pit provides observations, not perfect-recall information states")
        return PitObserver(params)


_GAME_TYPE = pyspiel.GameType(
    short_name="python_pit",
    long_name="Python Pit (commodity trading, turn-based)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=DEFAULTS,
)


class PitState(pyspiel.State):
    def __init__(self, game: PitGame) -> None:
        super().__init__(game)
        n = game.players
        self.hands = [[0] * CARDS for _ in range(n)]
        self.offers: dict[int, Bundle] = {}
        self.scores = [0] * n
        self.hand = 1
        self.turns = 0
        """Turns taken in the whole game (the cap counts them)."""
        self.to_move = 0
        self.events: list[Event] = [Event("deal", 0)]
        self.corners: list[Corner] = []
        self._deck = list(game.deck)
        self._next_card = 0
        self._over = False

    def set_position(self, hands: Sequence[dict[str, int]], *, to_move: int = 0,
                     offers: dict[int, Bundle] | None = None,
                     scores: Sequence[int] | None = None) -> None:
        """Deal ``hands`` (per seat, card name -> count: ``{"Wheat": 5, "Bull": 1}``) instead
        of the chance nodes, with standing ``offers`` and ``scores``. For tests and puzzles;
        the cards must be exactly the deck, and a position that is not possible changes
        nothing."""
        game = self.get_game()
        names = [card_name(card) for card in range(CARDS)]
        dealt = [[0] * CARDS for _ in range(game.players)]
        if len(hands) != game.players:
            raise ValueError(f"give {game.players} hands")
        for seat, hand in enumerate(hands):
            for name, count in hand.items():
                dealt[seat][names.index(name)] = count
        if [sum(h[c] for h in dealt) for c in range(CARDS)] != game.deck:
            raise ValueError("the hands must hold exactly the deck")
        for seat, bundle in (offers or {}).items():
            if not all(h >= n for h, n in zip(dealt[seat], bundle.cards(), strict=True)):
                raise ValueError(f"{seat_name(seat)} cannot offer {bundle.text()}")
        self.hands, self.offers, self._deck = dealt, dict(offers or {}), [0] * CARDS
        self.to_move = to_move
        self.scores = list(scores) if scores is not None else [0] * game.players

    # --- reading ----------------------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        return sum(self._deck) > 0

    @property
    def round(self) -> int:
        """The round of turns in play, from 1 (rounds count across hands)."""
        return self.turns // self.get_game().players + 1

    @property
    def starter(self) -> int:
        """The seat that starts the hand in play (and is dealt to first)."""
        return (self.hand - 1) % self.get_game().players

    def free(self, seat: int) -> list[int]:
        """``seat``'s cards not set aside in its own standing offer."""
        held = list(self.hands[seat])
        offer = self.offers.get(seat)
        if offer is not None:
            held = [h - o for h, o in zip(held, offer.cards(), strict=True)]
        return held

    def can_give(self, seat: int, bundle: Bundle, cards: Sequence[int] | None = None) -> bool:
        have = self.free(seat) if cards is None else cards
        return all(h >= need for h, need in zip(have, bundle.cards(), strict=True))

    def corner_of(self, seat: int) -> tuple[int, str, int] | None:
        """(commodity, kind, points) if ``seat`` holds a corner now."""
        hand = self.hands[seat]
        if hand[BEAR]:
            return None
        for commodity in range(self.get_game().players):
            value = self.get_game().value(commodity)
            if hand[commodity] == SUIT:
                return (commodity, "double Bull corner", 2 * value) if hand[BULL] else (
                    commodity, "corner", value)
            if hand[commodity] == SUIT - 1 and hand[BULL]:
                return commodity, "Bull corner", value
        return None

    def decode(self, action: int) -> tuple[str, int | None, Bundle | None]:
        """(``pass``/``withdraw``/``offer``/``accept``, the seat accepted from, the bundle)."""
        if action == PASS:
            return "pass", None, None
        if action == WITHDRAW:
            return "withdraw", None, None
        if action < ACCEPT:
            return "offer", None, BUNDLES[action - OFFER]
        seat, index = divmod(action - ACCEPT, len(BUNDLES))
        return "accept", seat, BUNDLES[index]

    def label(self, action: int) -> str:
        kind, seat, bundle = self.decode(action)
        if kind == "pass":
            return "pass"
        if kind == "withdraw":
            return "withdraw my offer"
        assert bundle is not None
        if kind == "offer":
            return f"offer {bundle.text()}"
        assert seat is not None
        return f"accept {seat_name(seat)}'s offer of {bundle.size}, giving {bundle.text()}"

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [seat for seat, score in enumerate(self.scores) if score == best]

    def ended_by(self) -> str:
        if not self._over:
            return ""
        return "target" if max(self.scores) >= self.get_game().target else "turn cap"

    # --- OpenSpiel hooks --------------------------------------------------------------------

    def current_player(self) -> int:
        if self._over:
            return pyspiel.PlayerId.TERMINAL
        if self.dealing:
            return pyspiel.PlayerId.CHANCE
        return self.to_move

    def is_terminal(self) -> bool:
        return self._over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sum(self._deck)
        return [(card, count / left) for card, count in enumerate(self._deck) if count]

    def _legal_actions(self, player: int) -> list[int]:
        if self._over or self.dealing or player != self.to_move:
            return []
        actions = [PASS]
        if player in self.offers:
            actions.append(WITHDRAW)
        mine = self.offers.get(player)
        held = self.hands[player]
        free = self.free(player)
        for index, bundle in enumerate(BUNDLES):
            if bundle != mine and self.can_give(player, bundle, held):
                actions.append(OFFER + index)
        for seat in sorted(self.offers):
            if seat == player:
                continue
            size = self.offers[seat].size
            for index, bundle in enumerate(BUNDLES):
                if bundle.size == size and self.can_give(player, bundle, free):
                    actions.append(ACCEPT + seat * len(BUNDLES) + index)
        return actions

    def _apply_action(self, action: int) -> None:
        if self.dealing:
            self._deal(action)
            return
        player = self.to_move
        kind, seat, bundle = self.decode(action)
        self.turns += 1
        if kind == "pass":
            self.events.append(Event("pass", player))
        elif kind == "withdraw":
            del self.offers[player]
            self.events.append(Event("withdraw", player))
        elif kind == "offer":
            assert bundle is not None
            self.offers[player] = bundle
            self.events.append(Event("offer", player, bundle.size, private={player: bundle}))
        else:
            assert seat is not None and bundle is not None
            self._trade(player, seat, bundle)
        if self.dealing or self._over:
            return
        self.to_move = (player + 1) % self.get_game().players
        if self._capped():
            self._close(Corner(self.hand, None, None, "market closed", 0, ()))

    def _capped(self) -> bool:
        """The turn cap: ``max_rounds`` rounds of turns (and as many hands, which only a run
        of corners dealt straight to a seat could reach)."""
        game = self.get_game()
        return (self.turns >= game.max_rounds * game.players
                or self.hand >= game.max_rounds * game.players)

    def _deal(self, card: int) -> None:
        game = self.get_game()
        self._deck[card] -= 1
        self.hands[(self.starter + self._next_card) % game.players][card] += 1
        self._next_card += 1
        if not self.dealing:
            self._after(list(range(self.starter, self.starter + game.players)))

    def _trade(self, player: int, seat: int, given: Bundle) -> None:
        taken = self.offers.pop(seat)
        for card, (out, back) in enumerate(zip(given.cards(), taken.cards(), strict=True)):
            self.hands[player][card] += back - out
            self.hands[seat][card] += out - back
        self.events.append(Event("trade", player, given.size, seat,
                                 {player: given, seat: taken}))
        self._after([player, seat])

    def _after(self, seats: list[int]) -> None:
        """Call the first corner among ``seats`` (in that order), if any."""
        n = self.get_game().players
        for seat in (s % n for s in seats):
            found = self.corner_of(seat)
            if found is not None:
                commodity, kind, points = found
                self._close(Corner(self.hand, seat, commodity, kind, points,
                                   self._penalties(seat)))
                return

    def _penalties(self, cornering: int) -> tuple[tuple[int, str], ...]:
        found = []
        for seat, hand in enumerate(self.hands):
            if hand[BEAR]:
                found.append((seat, "Bear"))
            if hand[BULL] and seat != cornering:
                found.append((seat, "Bull"))
        return tuple(found)

    def _close(self, corner: Corner) -> None:
        """Score the hand, then deal the next one unless the game is over."""
        if corner.seat is not None:
            self.scores[corner.seat] += corner.points
        for seat, _ in corner.penalties:
            self.scores[seat] -= PENALTY
        self.corners.append(corner)
        self.events.append(Event("corner", corner.seat if corner.seat is not None else -1,
                                 corner=corner))
        game = self.get_game()
        if corner.seat is None or max(self.scores) >= game.target or self._capped():
            self._over = True
            return
        self.hand += 1
        self.hands = [[0] * CARDS for _ in range(game.players)]
        self.offers = {}
        self._deck = list(game.deck)
        self._next_card = 0
        self.to_move = self.starter
        self.events.append(Event("deal", self.starter))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_name(action)}"
        return self.label(action)

    def returns(self) -> list[float]:
        if not self._over:
            return [0.0] * self.get_game().players
        return [float(score) for score in self.scores]

    def __str__(self) -> str:
        """Everything, hands included: for debugging, never for a seat's view."""
        hands = " | ".join(",".join(map(str, hand)) for hand in self.hands)
        offers = " ".join(f"{s}:{b.text()}" for s, b in sorted(self.offers.items()))
        return (f"hand {self.hand} turn {self.turns} to move {self.to_move} scores "
                f"{self.scores} hands {hands} offers {offers}")


class PitObserver:
    """A seat's observation as text (its own hand, the public table): see ``observe``."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: PitState, player: int) -> None:
        pass

    def string_from(self, state: PitState, player: int) -> str:
        return observe(state, player).summary()


pyspiel.register_game(_GAME_TYPE, PitGame)
