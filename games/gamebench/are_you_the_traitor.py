"""Are You the Traitor? (Looney Labs, 4-10 players) as an OpenSpiel Python game.

Every round deals new characters at random (the official chart: a Keyholder, Guards,
Traitors and Wizards for the number of players); each Wizard gets a secret alignment, Good
or Evil (at 4 and 10 players one alignment card is set aside unseen, so the table does not
know the mix). Everyone sees who the Wizards are; from 6 players the Keyholder is shown to
every non-Wizard; from 8 the Traitors know each other. The Good side is the Keyholder,
the Guards and the Good Wizard(s); the Evil side the Traitors and the Evil Wizard(s).

Talk goes round the table from the round's first player (it moves on each round): on a turn
a player asks someone a question (that player answers at once), makes a statement, calls
**stop** on someone, or passes. A stop names the caller's target — the Keyholder looks for
the Good Wizard, Guards and the Good Wizard for a Traitor, the Evil Wizard for the
Keyholder; Traitors may not call stop. Everyone's character is then revealed: a right call
gives every member of the caller's side a Treasure card, a wrong one gives them to the other
side. The first player to 10 treasure points ends the game; the most points wins.

Turn-based play needs bounds the table game leaves to the players (``games/rules/traitor.md``
lists them): two laps of talk without a stop end a round with no treasure, and the game ends
after ``max_rounds`` rounds. Talk moves carry words (:mod:`games.gamebench.social`).
"""

from __future__ import annotations

import re
from typing import Any

import pyspiel

from games import talk
from games.gamebench import social
from games.grammar import WORD_END, WORD_START, FreeText, MoveGrammar
from games.registry import GameSpec, Taxonomy, Visibility, register

KEYHOLDER, GUARD, TRAITOR, WIZARD = range(4)
CHARACTERS = ("Keyholder", "Guard", "Traitor", "Wizard")
GOOD, EVIL = 0, 1
SIDES = ("good", "evil")
CHART = {4: (1, 1, 1, 1), 5: (1, 1, 1, 2), 6: (1, 2, 1, 2), 7: (1, 3, 1, 2),
         8: (1, 3, 2, 2), 9: (1, 4, 2, 2), 10: (1, 4, 2, 3)}
"""Players -> (Keyholders, Guards, Traitors, Wizards)."""
ALIGNMENT_CARDS = {1: (1, 1), 2: (1, 1), 3: (2, 2)}
"""Wizards -> (Good, Evil) alignment cards offered (one set aside unseen at 1 and 3)."""
TREASURE = {1: 12, 2: 10, 3: 8, 4: 7, 5: 5}
"""Our 42-card treasure deck: value -> cards."""
GOAL = 10
LAPS = 2
MAX_PLAYERS = 10

ASK = 0
SAY = MAX_PLAYERS
ANSWER = SAY + 1
STOP = ANSWER + 1
PASS = STOP + MAX_PLAYERS
NUM_ACTIONS = PASS + 1

_DEFAULTS = {"num_players": 5, "max_rounds": 8}
_GAME_TYPE = pyspiel.GameType(
    short_name="python_are_you_the_traitor",
    long_name="Python Are You the Traitor?",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=4,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS,
)


def target_of(character: int, side: int) -> str:
    """Whom a character looks for, in words."""
    if character == KEYHOLDER:
        return "the Good Wizard"
    if character == WIZARD and side == EVIL:
        return "the Keyholder"
    if character == TRAITOR:
        return "nobody (a Traitor may not call stop)"
    return "a Traitor"


class TraitorGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        players = int(params["num_players"])
        if players not in CHART:
            raise ValueError(f"Are You the Traitor? is for 4-10 players, not {players}")
        self.players, self.max_rounds = players, int(params["max_rounds"])
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        per_round = LAPS * players * 2 + players + players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=6, num_players=players,
            min_utility=0.0, max_utility=float(sum(v * n for v, n in TREASURE.items())),
            utility_sum=None, max_game_length=self.max_rounds * per_round + 1)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> TraitorState:
        return TraitorState(self)


class TraitorState(pyspiel.State):
    """Characters, alignments, the talk, the treasure; one round after another."""

    def __init__(self, game: TraitorGame) -> None:
        super().__init__(game)
        self.players, self.max_rounds = game.players, game.max_rounds
        self.round = 0
        self.characters: list[int] = []
        self.sides: list[int] = []
        """Each seat's side this round (a Wizard's once its alignment is dealt)."""
        self.alignments: dict[int, int] = {}
        self.deck = dict(TREASURE)
        self.treasure: list[list[int]] = [[] for _ in range(self.players)]
        self.talk_log: list[talk.Utterance] = []
        self.history_rounds: list[dict[str, Any]] = []
        self.first = 0
        self.turns = 0
        self.asked: int | None = None
        self.asker: int | None = None
        self.stop: tuple[int, int, bool] | None = None
        """(caller, accused, right) of the round's stop."""
        self.payees: list[int] = []
        self.over = False
        self._words: str | None = None

    # --- reading --------------------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        if len(self.characters) < self.players:
            return True
        wizards = [s for s, c in enumerate(self.characters) if c == WIZARD]
        return len(self.alignments) < len(wizards)

    def points(self, seat: int) -> int:
        return sum(self.treasure[seat])

    def speaker(self) -> int:
        return (self.first + self.turns) % self.players

    def wizards(self) -> list[int]:
        return [s for s, c in enumerate(self.characters) if c == WIZARD]

    def character_name(self, seat: int) -> str:
        character = self.characters[seat]
        if character == WIZARD and seat in self.alignments:
            return f"{SIDES[self.alignments[seat]].title()} Wizard"
        return CHARACTERS[character]

    def right_call(self, caller: int, accused: int) -> bool:
        me, them = self.characters[caller], self.characters[accused]
        if me == KEYHOLDER:
            return them == WIZARD and self.alignments.get(accused) == GOOD
        if me == WIZARD and self.alignments.get(caller) == EVIL:
            return them == KEYHOLDER
        return them == TRAITOR

    @property
    def talk(self) -> list[talk.Utterance]:
        return list(self.talk_log)

    def known(self, seat: int) -> dict[int, str]:
        """What ``seat`` knows of each seat's character this round (the rules' reveals):
        its own character (a Wizard's alignment too), who the Wizards are, the Keyholder
        for non-Wizards from 6 players, fellow Traitors from 8; everything once the game is
        over."""
        if self.dealing and not self.over:
            return {}
        if self.over:
            return {s: self.character_name(s) for s in range(len(self.characters))}
        out = {s: "Wizard" for s in self.wizards()}
        mine = self.characters[seat]
        if self.players >= 6 and mine != WIZARD:
            out.update({s: "Keyholder" for s, c in enumerate(self.characters) if c == KEYHOLDER})
        if self.players >= 8 and mine == TRAITOR:
            out.update({s: "Traitor" for s, c in enumerate(self.characters) if c == TRAITOR})
        out[seat] = self.character_name(seat)
        return out

    # --- words ----------------------------------------------------------------------------

    def set_words(self, text: str) -> None:
        self._words = text

    def default_words(self, action: int) -> str | None:
        if action < SAY:
            return social.CANNED["ask"]
        if action == SAY:
            return social.CANNED["say"]
        if action == ANSWER:
            return social.CANNED["answer"]
        return None

    # --- OpenSpiel hooks ------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return pyspiel.PlayerId.TERMINAL
        if self.dealing or self.payees:
            return pyspiel.PlayerId.CHANCE
        return self.asked if self.asked is not None else self.speaker()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.payees:
            total = sum(self.deck.values())
            return [(value, n / total) for value, n in self.deck.items() if n]
        if len(self.characters) < self.players:
            left = list(CHART[self.players])
            for character in self.characters:
                left[character] -= 1
            total = sum(left)
            return [(c, n / total) for c, n in enumerate(left) if n]
        good, evil = ALIGNMENT_CARDS[len(self.wizards())]
        for side in self.alignments.values():
            good, evil = (good - 1, evil) if side == GOOD else (good, evil - 1)
        return [(side, n / (good + evil)) for side, n in ((GOOD, good), (EVIL, evil)) if n]

    def _legal_actions(self, player: int) -> list[int]:
        if self.over or player != self.current_player():
            return []
        if self.asked is not None:
            return [ANSWER]
        others = [s for s in range(self.players) if s != player]
        stops = [] if self.characters[player] == TRAITOR else [STOP + s for s in others]
        return [ASK + s for s in others] + [SAY] + stops + [PASS]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._chance(action)
        else:
            self._act(self.current_player(), action)
        self._words = None

    def _chance(self, action: int) -> None:
        if self.payees:
            self.deck[action] -= 1
            self.treasure[self.payees.pop(0)].append(action)
            if not self.payees:
                self._end_round()
        elif len(self.characters) < self.players:
            self.characters.append(action)
        else:
            wizard = self.wizards()[len(self.alignments)]
            self.alignments[wizard] = action
            if not self.dealing:
                self.sides = [self.alignments[s] if c == WIZARD else
                              EVIL if c == TRAITOR else GOOD
                              for s, c in enumerate(self.characters)]

    def _act(self, seat: int, action: int) -> None:
        words = self._words if self._words is not None else self.default_words(action)
        if action < SAY:
            assert words is not None
            self.talk_log.append(talk.Utterance(seat, f"(to {social.player(action)}) {words}",
                                                "asks"))
            self.asked, self.asker = action, seat
            return
        if action == ANSWER:
            assert words is not None
            self.talk_log.append(talk.Utterance(seat, words, "answers"))
            self.asked = None
        elif action == SAY:
            assert words is not None
            self.talk_log.append(talk.Utterance(seat, words, "says"))
        elif STOP <= action < PASS:
            self._call(seat, action - STOP)
            return
        self.turns += 1
        if self.turns >= LAPS * self.players:
            self.history_rounds.append({"round": self.round + 1, "stop": None,
                                        "characters": self._revealed()})
            self.talk_log.append(talk.Utterance(-1, "nobody called stop: no treasure this "
                                                "round", "round ends"))
            self._end_round()

    def _call(self, caller: int, accused: int) -> None:
        right = self.right_call(caller, accused)
        self.stop = (caller, accused, right)
        winners = self.sides[caller] if right else 1 - self.sides[caller]
        self.talk_log.append(talk.Utterance(
            caller, f"stop! {social.player(accused)} is {self.character_name(accused)}: "
            f"{'right' if right else 'wrong'}; the {SIDES[winners]} side takes treasure",
            "calls"))
        self.history_rounds.append({"round": self.round + 1, "stop": (caller, accused, right),
                                    "characters": self._revealed(), "winners": winners})
        self.payees = [s for s in range(self.players) if self.sides[s] == winners]
        if sum(self.deck.values()) < len(self.payees):
            self.payees = []
            self.over = True

    def _revealed(self) -> list[str]:
        return [self.character_name(s) for s in range(self.players)]

    def _end_round(self) -> None:
        self.round += 1
        if self.round >= self.max_rounds or any(self.points(s) >= GOAL
                                                for s in range(self.players)):
            self.over = True
            return
        self.characters, self.alignments, self.sides = [], {}, []
        self.first = self.round % self.players
        self.turns, self.asked, self.asker, self.stop = 0, None, None, None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.payees:
                return f"{social.player(self.payees[0])} draws a treasure worth {action}"
            if len(self.characters) < self.players:
                return f"{social.player(len(self.characters))} is dealt {CHARACTERS[action]}"
            return f"{social.player(self.wizards()[len(self.alignments)])} is {SIDES[action]}"
        if action < SAY or action in (SAY, ANSWER):
            seat = action if action < SAY else None
            verb = "ask" if action < SAY else "say" if action == SAY else "answer"
            return social.write_talk(verb, seat, self.default_words(action) or "")
        if action == PASS:
            return "pass"
        return f"stop: accuse {social.player(action - STOP)}"

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.players
        return [float(self.points(s)) for s in range(self.players)]

    def __str__(self) -> str:
        seats = ", ".join(f"{social.player(s)}={self.character_name(s)}"
                          for s in range(len(self.characters)))
        said = " | ".join(f"{u.speaker}:{u.kind}:{u.text}" for u in self.talk_log)
        return (f"round {self.round} first {self.first} turns {self.turns} asked {self.asked}"
                f"\n{seats}\ntreasure {self.treasure}\n{said}")


pyspiel.register_game(_GAME_TYPE, TraitorGame)


# --- the grammar: "ask player 3: ...", "say: ...", "answer: ...", "stop: accuse player 3" -------

def read_words(state: pyspiel.State, player: int, text: str) -> tuple[int, str] | None:
    found = social.read_talk(text, social.players_of(state))
    if found is None:
        return None
    verb, seat, words = found
    if verb == "ask":
        assert seat is not None
        return ASK + seat, words
    return (SAY if verb == "say" else ANSWER), words


def write_words(state: pyspiel.State, player: int, action: int, words: str) -> str:
    if action < SAY:
        return social.write_talk("ask", action, words)
    return social.write_talk("say" if action == SAY else "answer", None, words)


_MOVE = re.compile(
    rf"{WORD_START}(?:{social.TALK_PATTERN}|stop\s*:?\s*(?:accuse\s+)?(?:player\s*)?"
    rf"(?P<stop>\d+)|(?P<pass>pass)){WORD_END}", re.IGNORECASE)


def _key(match: re.Match[str]) -> str:
    said = social.talk_key(match)
    if said is not None:
        return said
    return f"stop {int(match['stop'])}" if match["stop"] else "pass"


def _label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


def _summary(actions: list[int], labels: list[str]) -> str:
    plain = [label for a, label in zip(actions, labels, strict=True) if a >= STOP]
    talk_moves = [a for a in actions if a < STOP]
    parts = ([social.TALK_HINT] if talk_moves else []) + plain
    return "; ".join(parts)


def _seat_label_values(params: Any) -> dict[str, str]:
    return {"players": str(params.get("num_players", 5))}


TRAITOR_SPEC = GameSpec(
    id="are_you_the_traitor",
    title="Are You the Traitor?",
    summary="Secret characters every round: find the Traitor, the Keyholder or the Good "
            "Wizard by asking questions, then call stop.",
    openspiel="python_are_you_the_traitor",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 5),
    default_params=dict(_DEFAULTS),
    param_notes=("Official characters for 4-10 players (num_players), dealt at random every "
                 "round; first to 10 treasure points, at most max_rounds rounds. GameBench "
                 "fixed one agent to the evil side."),
    benchmark="GameBench",
    board="table",
    visibility=Visibility(moves=True, chance=False),
    rule_values=_seat_label_values,
    grammar=MoveGrammar(
        label=_label,
        pattern=_MOVE,
        key=_key,
        summary=_summary,
        free_text=FreeText(read=read_words, write=write_words, hint=social.TALK_HINT),
        hint=f"{social.TALK_HINT}; stop: accuse player <N>; pass",
    ),
)


register(TRAITOR_SPEC)
