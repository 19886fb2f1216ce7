"""Two Rooms and a Boom (Tuesday Knight Games, the basic game) as an OpenSpiel Python game.

Six to ten players. The deck is the President (Blue), the Bomber (Red) and as many Red Team
as Blue Team cards, one per player, plus the Gambler (grey) with an odd number of players.
Players are split at random into two rooms, as evenly as possible, and each is dealt a card
face down: every seat is told its own card. Each room has a leader. The game has 3 rounds;
in each, players talk in turns (what is said is heard by the speaker's room only), offer a
**card share** (both players see each other's whole card) or a **colour share** (only the
team colours) to someone in their room, which that player accepts or refuses, or reveal
their card to the whole room. At the end of each round each leader sends one hostage (not
themselves) to the other room, and the hostages swap rooms. After the last exchange the
Gambler bets on the winner, then all cards are shown: if the Bomber is in the same room as
the President, Red wins; otherwise Blue wins. The Gambler wins when the bet was right.

Turn-based play needs bounds the party game leaves to a clock (``games/rules/
two_rooms_and_a_boom.md`` lists the deviations): timed rounds become laps of turns (two
in the first round, one in each of the others), and each room's leader is drawn at random
at the start (no appointing or usurping). Statements carry words (:mod:`games.talk`).
"""

from __future__ import annotations

import re
from typing import Any

import pyspiel

from games import talk
from games.gamebench import social
from games.grammar import WORD_END, WORD_START, FreeText, MoveGrammar
from games.registry import GameSpec, Taxonomy, Visibility, register

RED_TEAM, BLUE_TEAM, PRESIDENT, BOMBER, GAMBLER = range(5)
CARDS = ("Red Team", "Blue Team", "President", "Bomber", "Gambler")
COLOURS = ("red", "blue", "blue", "red", "grey")
MAX_PLAYERS = 10
ROUNDS = 3
LAPS = (2, 1, 1)
HOSTAGES = (1, 1, 1)
"""Hostages each leader sends per round (the official count for 6-10 players)."""

SAY = 0
CARD_SHARE = 1
COLOUR_SHARE = CARD_SHARE + MAX_PLAYERS
REVEAL = COLOUR_SHARE + MAX_PLAYERS
PASS = REVEAL + 1
ACCEPT = PASS + 1
REFUSE = ACCEPT + 1
SEND = REFUSE + 1
BET_RED = SEND + MAX_PLAYERS
BET_BLUE = BET_RED + 1
NUM_ACTIONS = BET_BLUE + 1

_DEFAULTS = {"num_players": 6}
_GAME_TYPE = pyspiel.GameType(
    short_name="python_two_rooms_and_a_boom",
    long_name="Python Two Rooms and a Boom (basic game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=6,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS,
)


def deck(players: int) -> list[int]:
    """The cards of a game: President, Bomber, equal Red and Blue Team, the Gambler if odd."""
    pairs = (players - 2) // 2
    return [PRESIDENT, BOMBER] + [RED_TEAM] * pairs + [BLUE_TEAM] * pairs + \
        ([GAMBLER] if players % 2 else [])


class TwoRoomsGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.players = int(params["num_players"])
        if not 6 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Two Rooms and a Boom is played here by 6-{MAX_PLAYERS} players, "
                             f"not {self.players}")
        length = 3 * self.players + 2 + sum(LAPS) * self.players * 2 + 2 * ROUNDS + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=MAX_PLAYERS,
            num_players=self.players, min_utility=-1.0, max_utility=1.0, utility_sum=None,
            max_game_length=length)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> TwoRoomsState:
        return TwoRoomsState(self)


class TwoRoomsState(pyspiel.State):
    """Cards, rooms, leaders, what each seat has seen, the talk, the rounds."""

    def __init__(self, game: TwoRoomsGame) -> None:
        super().__init__(game)
        self.players = game.players
        self.cards: list[int] = []
        self.rooms: list[int] = []
        self.leaders: list[int] = []
        self.seen: list[dict[int, str]] = [{} for _ in range(self.players)]
        """What each seat has been shown of others: seat -> card name or colour."""
        self.talk_log: list[talk.Utterance] = []
        self.round = 0
        self.turns = 0
        self.offer: tuple[int, int, int] | None = None
        """(from, to, action) of a share waiting for its answer."""
        self.sending = 0
        """Which room's leader is choosing hostages (0 or 1), while ``hostages`` fill up."""
        self.hostages: list[int] = []
        self.bet: int | None = None
        self.over = False
        self._words: str | None = None

    # --- reading --------------------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        return len(self.leaders) < 2

    @property
    def choosing(self) -> bool:
        """Leaders are choosing hostages."""
        return not self.dealing and not self.over and self.turns >= self.lap_turns()

    def lap_turns(self) -> int:
        return LAPS[min(self.round, ROUNDS - 1)] * self.players

    def speaker(self) -> int:
        return (self.round + self.turns) % self.players

    def room_of(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if self.rooms[s] == self.rooms[seat]]

    def seen_acting(self, seat: int | None) -> int:
        """Who ``seat`` (None: the whole table, as spectators see it) is shown to be acting.
        A share is offered aloud in the giver's room only: there everyone sees the other
        player answer; the other room must not learn that a share was offered, so it sees
        the giver, whose turn it still is (the turn ends with the answer)."""
        acting = self.current_player()
        if self.offer is None:
            return acting
        giver = self.offer[0]
        if seat is not None and 0 <= seat < self.players and \
                self.rooms[seat] == self.rooms[giver]:
            return acting
        return giver

    def gambler(self) -> int | None:
        return self.cards.index(GAMBLER) if GAMBLER in self.cards else None

    def betting(self) -> bool:
        return self.round >= ROUNDS and self.gambler() is not None and self.bet is None

    def red_wins(self) -> bool:
        return self.rooms[self.cards.index(BOMBER)] == self.rooms[self.cards.index(PRESIDENT)]

    def team(self, seat: int) -> str:
        return COLOURS[self.cards[seat]]

    def known(self, seat: int) -> dict[int, str]:
        """What ``seat`` knows of each seat's card: its own, what it was shown; all at the
        end."""
        if len(self.cards) < self.players:
            return {}
        if self.over:
            return {s: CARDS[c] for s, c in enumerate(self.cards)}
        return {**self.seen[seat], seat: CARDS[self.cards[seat]]}

    @property
    def talk(self) -> list[talk.Utterance]:
        return list(self.talk_log)

    # --- words ----------------------------------------------------------------------------

    def set_words(self, text: str) -> None:
        self._words = text

    def default_words(self, action: int) -> str | None:
        return social.CANNED["say"] if action == SAY else None

    # --- OpenSpiel hooks ------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return pyspiel.PlayerId.TERMINAL
        if self.dealing:
            return pyspiel.PlayerId.CHANCE
        if self.betting():
            return self.gambler() or 0
        if self.offer is not None:
            return self.offer[1]
        if self.choosing:
            return self.leaders[self.sending]
        return self.speaker()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if len(self.cards) < self.players:
            left = deck(self.players)
            for card in self.cards:
                left.remove(card)
            return [(c, left.count(c) / len(left)) for c in sorted(set(left))]
        if len(self.rooms) < self.players:
            sizes = [(self.players + 1) // 2, self.players // 2]
            free = [sizes[r] - self.rooms.count(r) for r in (0, 1)]
            total = sum(free)
            return [(r, free[r] / total) for r in (0, 1) if free[r]]
        members = [s for s in range(self.players) if self.rooms[s] == len(self.leaders)]
        return [(s, 1 / len(members)) for s in members]

    def _legal_actions(self, player: int) -> list[int]:
        if self.over or player != self.current_player():
            return []
        if self.betting():
            return [BET_RED, BET_BLUE]
        if self.offer is not None:
            return [ACCEPT, REFUSE]
        mates = [s for s in self.room_of(player) if s != player]
        if self.choosing:
            return [SEND + s for s in mates if s not in self.hostages]
        return [SAY] + [CARD_SHARE + s for s in mates] + [COLOUR_SHARE + s for s in mates] + \
            [REVEAL, PASS]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._deal(action)
        else:
            self._act(self.current_player(), action)
        self._words = None

    def _deal(self, action: int) -> None:
        if len(self.cards) < self.players:
            self.cards.append(action)
        elif len(self.rooms) < self.players:
            self.rooms.append(action)
        else:
            self.leaders.append(action)

    def _act(self, seat: int, action: int) -> None:
        if action in (BET_RED, BET_BLUE):
            self.bet = action
            self._say(seat, f"{'Red' if action == BET_RED else 'Blue'} wins", "bets", None)
            self.over = True
            return
        if action in (ACCEPT, REFUSE):
            self._answer(seat, action == ACCEPT)
            return
        if SEND <= action < BET_RED:
            self._send(action - SEND)
            return
        if action == SAY:
            words = self._words if self._words is not None else self.default_words(action)
            self._say(seat, words or "", "says", self.room_of(seat))
        elif CARD_SHARE <= action < REVEAL:
            kind = "card" if action < COLOUR_SHARE else "colour"
            other = action - (CARD_SHARE if kind == "card" else COLOUR_SHARE)
            self.offer = (seat, other, action)
            self._say(seat, f"a {kind} share to {social.player(other)}", "offers",
                      self.room_of(seat))
            return  # the turn goes on once the other player answers
        elif action == REVEAL:
            for s in self.room_of(seat):
                self.seen[s][seat] = CARDS[self.cards[seat]]
            self._say(seat, f"their card to the room: {CARDS[self.cards[seat]]}",
                      "reveals", self.room_of(seat))
        self._next_turn()

    def _answer(self, seat: int, yes: bool) -> None:
        assert self.offer is not None
        giver, taker, action = self.offer
        kind = "card" if action < COLOUR_SHARE else "colour"
        self.offer = None
        if yes:
            for a, b in ((giver, taker), (taker, giver)):
                self.seen[a].setdefault(b, "")
                shown = CARDS[self.cards[b]] if kind == "card" else f"{self.team(b)} team"
                if kind == "card" or not self.seen[a][b]:
                    self.seen[a][b] = shown
            self._say(giver, f"a {kind} share with {social.player(taker)}",
                      "shared", self.room_of(giver))
            for a, b in ((giver, taker), (taker, giver)):  # only the two see these
                shown = CARDS[self.cards[b]] if kind == "card" else f"{self.team(b)} team"
                self._say(b, f"shows {social.player(a)}: {shown}", f"{kind} share", [a, b])
        else:
            self._say(seat, f"the {kind} share", "refuses", self.room_of(seat))
        self._next_turn()

    def _say(self, seat: int, text: str, kind: str, audience: list[int] | None) -> None:
        self.talk_log.append(talk.Utterance(
            seat, text, kind, None if audience is None else frozenset(audience)))

    def _next_turn(self) -> None:
        self.turns += 1

    def _send(self, hostage: int) -> None:
        self.hostages.append(hostage)
        if len(self.hostages) % HOSTAGES[self.round] == 0:
            self.sending += 1
        if self.sending < 2:
            return
        for seat in self.hostages:
            self.rooms[seat] = 1 - self.rooms[seat]
        names = ", ".join(social.player(s) for s in self.hostages)
        self._say(-1, f"end of round {self.round + 1}: {names} change rooms", "exchange", None)
        self.round += 1
        self.turns, self.sending, self.hostages = 0, 0, []
        if self.round >= ROUNDS and self.gambler() is None:
            self.over = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if len(self.cards) < self.players:
                return f"{social.player(len(self.cards))} is dealt {CARDS[action]}"
            if len(self.rooms) < self.players:
                return f"{social.player(len(self.rooms))} starts in room {action + 1}"
            return f"{social.player(action)} leads room {len(self.leaders) + 1}"
        if action == SAY:
            return social.write_talk("say", None, self.default_words(action) or "")
        if CARD_SHARE <= action < COLOUR_SHARE:
            return f"card share with {social.player(action - CARD_SHARE)}"
        if COLOUR_SHARE <= action < REVEAL:
            return f"colour share with {social.player(action - COLOUR_SHARE)}"
        if SEND <= action < BET_RED:
            return f"send {social.player(action - SEND)}"
        return {REVEAL: "reveal my card", PASS: "pass", ACCEPT: "accept", REFUSE: "refuse",
                BET_RED: "bet red", BET_BLUE: "bet blue"}[action]

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.players
        red = self.red_wins()
        out = []
        for card in self.cards:
            if card == GAMBLER:
                out.append(1.0 if (self.bet == BET_RED) == red else -1.0)
            else:
                out.append(1.0 if (COLOURS[card] == "red") == red else -1.0)
        return out

    def __str__(self) -> str:
        cards = ", ".join(f"{s}:{CARDS[c]}" for s, c in enumerate(self.cards))
        said = " | ".join(f"{u.speaker}:{u.kind}:{u.text}" for u in self.talk_log)
        return (f"round {self.round} turns {self.turns} rooms {self.rooms} leaders "
                f"{self.leaders} offer {self.offer} hostages {self.hostages}\n{cards}\n{said}")


pyspiel.register_game(_GAME_TYPE, TwoRoomsGame)


# --- the grammar ---------------------------------------------------------------------------

SAY_HINT = f"say: <statement> (heard by your room; at most {social.MAX_TALK} characters)"


def read_words(state: pyspiel.State, player: int, text: str) -> tuple[int, str] | None:
    found = social.read_talk(text, social.players_of(state))
    if found is None:
        return None
    verb, _, words = found
    if verb != "say":
        raise talk.WordsError(f"in Two Rooms and a Boom you talk with {SAY_HINT}")
    return SAY, words


def write_words(state: pyspiel.State, player: int, action: int, words: str) -> str:
    return social.write_talk("say", None, words)


_MOVE = re.compile(
    rf"{WORD_START}(?:(?P<say>say)\s*:[^\n]*|(?P<kind>card|colou?r)\s+share\s+(?:with\s+)?"
    rf"(?:player\s*)?(?P<share>\d+)|send\s+(?:player\s*)?(?P<send>\d+)|bet\s+(?P<bet>red|blue)"
    rf"|(?P<word>reveal\s+my\s+card|pass|accept|refuse)){WORD_END}", re.IGNORECASE)


def _key(match: re.Match[str]) -> str:
    if match["say"]:
        return "say"
    if match["share"]:
        kind = "card" if match["kind"].lower() == "card" else "colour"
        return f"{kind} {int(match['share'])}"
    if match["send"]:
        return f"send {int(match['send'])}"
    if match["bet"]:
        return f"bet {match['bet'].lower()}"
    return " ".join(match["word"].lower().split())


def _label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


def _public_label(state: pyspiel.State, player: int, action: int) -> str | None:
    """What the whole table is told of a move. Rooms and leaders are public; a card is
    not. A turn is heard in the speaker's room only (its words reach that room through
    the talk), so the others learn only that it was taken; the answer to a share would
    tell that one was offered, so nobody else sees it; a hostage is announced when both
    leaders have chosen (by the exchange); the Gambler's bet is called aloud."""
    assert isinstance(state, TwoRoomsState)
    if player == pyspiel.PlayerId.CHANCE:
        dealing_cards = len(state.cards) < state.players
        return None if dealing_cards else state.action_to_string(player, action)
    if action in (ACCEPT, REFUSE):
        return None
    if SEND <= action < BET_RED:
        return "choose a hostage"
    if action in (BET_RED, BET_BLUE):
        return state.action_to_string(player, action)
    return f"take a turn in room {state.rooms[player] + 1}"


def _summary(actions: list[int], labels: list[str]) -> str:
    plain = [label for a, label in zip(actions, labels, strict=True) if a != SAY]
    return "; ".join(([SAY_HINT] if SAY in actions else []) + plain)


def _teams(state: pyspiel.State) -> list[str | None]:
    assert isinstance(state, TwoRoomsState)
    return [state.team(s) for s in range(state.players)]


def _rule_values(params: Any) -> dict[str, str]:
    return {"players": str(params.get("num_players", 6))}


TWO_ROOMS = GameSpec(
    id="two_rooms_and_a_boom",
    title="Two Rooms and a Boom",
    summary="Red wants its Bomber in the President's room at the end; Blue keeps them apart. "
            "Share cards, talk, and trade hostages between two rooms.",
    openspiel="python_two_rooms_and_a_boom",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 6),
    default_params=dict(_DEFAULTS),
    param_notes=("The basic game for 6-10 players (num_players): President, Bomber, Red and "
                 "Blue Team cards, the Gambler with an odd count; 3 rounds, one hostage per "
                 "leader per round. GameBench never told the President or the Bomber who "
                 "they were."),
    benchmark="GameBench",
    board="table",
    visibility=Visibility(moves=False, chance=False),
    teams=_teams,
    public_label=_public_label,
    rule_values=_rule_values,
    grammar=MoveGrammar(
        label=_label,
        pattern=_MOVE,
        key=_key,
        summary=_summary,
        free_text=FreeText(read=read_words, write=write_words, hint=SAY_HINT),
        hint=(f"{SAY_HINT}; card share with player <N>; colour share with player <N>; reveal "
              "my card; pass; accept; refuse; send player <N>; bet red; bet blue"),
    ),
)


register(TWO_ROOMS)
