"""The Two Rooms and a Boom bot: the Bomber and the President never show their cards to the
room, talk is plain sentences made from what the seat saw, hostages follow the evidence,
and nothing depends on a card the seat has not seen."""

from __future__ import annotations

import re

import numpy as np
import pytest

from agents.base import Agent, Decision, SeatView
from agents.bots.deduction import read_claims
from agents.bots.two_rooms import VOCABULARY, TwoRoomsBot
from agents.specs import make_agent, seat_seed
from games import registry, talk
from games.actions import ActionId, Text, legal_moves
from games.gamebench import two_rooms_and_a_boom as tr
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord

SPEC = registry.get("two_rooms_and_a_boom")
RT, BT, P, B = tr.RED_TEAM, tr.BLUE_TEAM, tr.PRESIDENT, tr.BOMBER
OWNS_UP = re.compile(r"\b(?:i\s+am|i'm|i\s+hold|my\s+card\s+is)\s+(?:the\s+|a\s+)?"
                     r"(?:president|bomber)\b", re.IGNORECASE)
MENTION = re.compile(r"\bplayer \d+\b|President|Bomber|Gambler|\bred\b|\bblue\b", re.IGNORECASE)


def bot(seed: int = 0) -> TwoRoomsBot:
    return TwoRoomsBot(SPEC, SPEC.params({}), np.random.default_rng(seed))


class Position:
    """A game built move by move: cards, rooms (0 or 1 per seat), the two leaders."""

    def __init__(self, cards: list[int], rooms: list[int], leaders: tuple[int, int]) -> None:
        game = SPEC.load(SPEC.params({"num_players": len(cards)}))
        self.state = game.new_initial_state()
        for action in [*cards, *rooms, *leaders]:
            self.state.apply_action(action)

    def play(self, *actions: int) -> None:
        for action in actions:
            talk.apply(self.state, action)

    def card_share(self, giver: int, taker: int) -> None:
        """``giver``'s turn: a card share with ``taker``, accepted."""
        assert self.state.current_player() == giver
        self.play(tr.CARD_SHARE + taker, tr.ACCEPT)

    def pass_until_choosing(self) -> None:
        while not self.state.choosing:
            self.play(tr.PASS)

    def view(self, seat: int) -> SeatView:
        assert self.state.current_player() == seat
        return SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, self.state, seat)), (),
                        self.state.clone())


class Watching:
    """A bot that notes each of its moves with its card."""

    def __init__(self, agent: Agent, out: list[tuple[int, str, int, str, float]]) -> None:
        self.agent, self.out = agent, out

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        decision = self.agent.act(view, feedback=feedback)
        state = view.state
        assert isinstance(state, tr.TwoRoomsState)
        proposal = decision.proposal
        if isinstance(proposal, Text):
            action, words = tr.SAY, proposal.text.split(":", 1)[1].strip()
        else:
            assert isinstance(proposal, ActionId)
            action, words = proposal.action, view.label(proposal.action)
        self.out.append((view.seat, tr.CARDS[state.cards[view.seat]], action, words,
                         decision.seconds))
        return decision


def moves_in_games(lineups: list[list[str]]) -> list[tuple[int, str, int, str, float]]:
    """Every move of a bot seat in games of these line-ups: (seat, its card, the action, the
    words or label, decision seconds)."""
    out: list[tuple[int, str, int, str, float]] = []
    for seed, lineup in enumerate(lineups):
        match = Match(SPEC.id, [SeatRecord(n, n, n) for n in lineup], seed=seed,
                      params={"num_players": len(lineup)})
        agents = [make_agent(n, match.spec, match.record.params, seed=seat_seed(seed, i, n))
                  for i, n in enumerate(lineup)]
        play_match(match, [Watching(a, out) if n == "bot" else a
                           for a, n in zip(agents, lineup, strict=True)])
        assert match.over
    return out


@pytest.fixture(scope="module")
def played() -> list[tuple[int, str, int, str, float]]:
    return moves_in_games([["bot"] * 6] * 5 + [["bot"] * 7, ["bot"] * 8]
                          + [["bot", "random"] * 3] * 2)


def test_bomber_and_president_never_show_their_cards_to_the_room(played):
    keys = [(seat, card, action, words) for seat, card, action, words, _ in played
            if card in ("Bomber", "President")]
    assert sum(action == tr.SAY for *_, action, _ in keys) >= 5  # they do talk
    for seat, card, action, words in keys:
        assert action != tr.REVEAL, card
        if action == tr.SAY:
            assert not OWNS_UP.search(words), (card, words)
            for claim in read_claims(words, seat, VOCABULARY, 10):
                if claim.subject == seat:
                    assert tr.CARDS.index(card) not in claim.roles or len(claim.roles) > 1


def test_talk_is_plain_varied_sentences(played):
    said = [(seat, words) for seat, _, action, words, _ in played if action == tr.SAY]
    for _, words in said:
        assert words[0].isupper() and words[-1] in ".!?", words
        assert MENTION.search(words), words
        assert len(words) <= talk.MAX_WORDS_CHARS
    texts = [words for _, words in said]
    assert len(set(texts)) >= max(15, len(texts) // 3)


def test_decisions_are_quick(played):
    times = sorted(seconds for *_, seconds in played)  # most well under, even on a busy machine
    assert times[len(times) // 2] < 0.05 and times[int(len(times) * 0.95)] < 0.3


def _room_with_both(bomber: int, president: int) -> Position:
    """Seat 0 (Blue Team) leads room 1, where seats 1 and 2 hold the President and the
    Bomber; it has seen both cards."""
    cards = [BT, 0, 0, RT, RT, BT]
    cards[bomber], cards[president] = B, P
    game = Position(cards, [0, 0, 0, 1, 1, 1], (0, 3))
    game.card_share(0, 1)
    game.play(tr.PASS)  # player 2
    game.card_share(2, 0)
    return game


@pytest.mark.parametrize("bomber", [1, 2])
def test_a_blue_leader_sends_the_bomber_away_from_the_president(bomber):
    game = _room_with_both(bomber, 3 - bomber)
    game.pass_until_choosing()
    decision = bot().act(game.view(0))
    assert decision.proposal == ActionId(action=tr.SEND + bomber)


def test_a_red_leader_sends_the_bomber_to_the_president_at_the_end():
    """Seat 0 (Red Team) leads room 1; it saw the Bomber's card in its room and the Blue Team
    card of the third player there, so the President is in the other room."""
    game = Position([RT, B, BT, BT, P, RT], [0, 0, 0, 1, 1, 1], (0, 3))
    game.card_share(0, 1)
    game.play(tr.PASS)
    game.card_share(2, 0)
    for _ in range(2):  # two exchanges that bring the same players back
        game.pass_until_choosing()
        game.play(tr.SEND + 2, tr.SEND + 5)
        game.pass_until_choosing()
        game.play(tr.SEND + 5, tr.SEND + 2)
        if game.state.round == 2:
            break
    assert game.state.round == 2 and game.state.rooms == [0, 0, 0, 1, 1, 1]
    game.pass_until_choosing()
    decision = bot().act(game.view(0))
    assert decision.proposal == ActionId(action=tr.SEND + 1)


@pytest.mark.parametrize("shown", [B, RT])
def test_what_it_says_follows_what_it_saw(shown):
    """Seat 1 (Blue Team) saw its leader's card, then card-shared with seat 2; on its next
    turn it tells its room what seat 2 is."""
    game = Position([BT, BT, shown, P if shown == B else B, RT, RT], [0, 0, 0, 1, 1, 1],
                    (0, 3))
    game.card_share(0, 1)
    game.card_share(1, 2)
    while game.state.current_player() != 1:
        game.play(tr.PASS)
    for seed in range(3):
        said = bot(seed).act(game.view(1)).proposal
        assert isinstance(said, Text) and "player 3" in said.text.lower(), said
        assert ("Bomber" in said.text) == (shown == B), said.text
        assert ("red" in said.text) == (shown == RT), said.text


@pytest.mark.parametrize("card", [BT, B])
def test_only_a_blue_team_card_is_shown_to_a_leader_who_will_not_share(card):
    """Seat 1's leader refused its shares twice: a Blue Team card is revealed to the room to
    earn trust; the Bomber keeps its card hidden."""
    cards = [RT, card, BT, P if card == B else B, BT, RT]
    game = Position(cards, [0, 0, 0, 1, 1, 1], (0, 3))
    for _ in range(2):
        while game.state.current_player() != 1:
            game.play(tr.PASS)
        game.play(tr.COLOUR_SHARE + 0, tr.REFUSE)
    game.pass_until_choosing()
    game.play(tr.SEND + 2, tr.SEND + 4)
    while game.state.current_player() != 1:
        game.play(tr.PASS)
    for seed in range(4):
        move = bot(seed).act(game.view(1)).proposal
        assert (move == ActionId(action=tr.REVEAL)) == (card == BT), move


HIDDEN = [  # the bot's seat, two deals that differ only in cards that seat has not seen
    (0, [BT, P, B, RT, RT, BT], [BT, B, P, RT, BT, RT]),
    (1, [B, RT, P, BT, RT, BT], [P, RT, B, BT, BT, RT]),
    (4, [RT, B, BT, P, BT, RT], [BT, RT, B, P, BT, RT]),
]


@pytest.mark.parametrize("seat, first, second", HIDDEN)
@pytest.mark.parametrize("seed", range(3))
def test_decisions_do_not_depend_on_unseen_cards(seat, first, second, seed):
    picks = []
    for cards in (first, second):
        game = Position(cards, [0, 0, 0, 1, 1, 1], (0, 3))
        mine = []
        while game.state.round < 1:
            acting = game.state.current_player()
            if acting == seat:
                decision = bot(seed).act(game.view(seat))
                mine.append(decision.proposal)
            game.play(tr.PASS if not game.state.choosing and game.state.offer is None else
                      game.state.legal_actions()[0])
        picks.append(mine)
    assert picks[0] == picks[1] and picks[0]
