"""The Are You the Traitor? bot: talk that never gives the evil side away, plain sentences made
from what the seat saw, stops that follow the evidence, and no peeking at hidden characters."""

from __future__ import annotations

import re

import numpy as np
import pytest

from agents.base import Agent, Decision, SeatView
from agents.bots.deduction import read_claims
from agents.bots.traitor import NAMES, VOCABULARY, TraitorBot
from agents.specs import make_agent, seat_seed
from games import registry, talk
from games.actions import ActionId, Text, legal_moves, resolve
from games.gamebench import are_you_the_traitor as ayt
from games.seat_view import PublicMove
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord

SPEC = registry.get("are_you_the_traitor")
K, G, T, W = ayt.KEYHOLDER, ayt.GUARD, ayt.TRAITOR, ayt.WIZARD
GOOD, EVIL = ayt.GOOD, ayt.EVIL
MENTION = re.compile(r"\bplayer \d+\b|Guard|Keyholder|Traitor|Wizard", re.IGNORECASE)
OWNS_UP = re.compile(r"\b(?:i\s+am|i'm)\s+(?:the\s+|a\s+|an\s+)?(?:traitor|evil\b)", re.IGNORECASE)


def bot(seed: int = 0) -> TraitorBot:
    return TraitorBot(SPEC, SPEC.params({}), np.random.default_rng(seed))


class Position:
    """A round built move by move, with the moves every seat saw (all moves are public)."""

    def __init__(self, characters: list[int], alignments: list[int]) -> None:
        game = SPEC.load(SPEC.params({"num_players": len(characters)}))
        self.state = game.new_initial_state()
        for action in [*characters, *alignments]:
            self.state.apply_action(action)
        self.history: list[PublicMove] = []

    def play(self, text: str) -> None:
        seat = self.state.current_player()
        move = resolve(SPEC, self.state, seat, Text(text=text))
        self.history.append(PublicMove(seat, move.label))
        talk.apply(self.state, move.action, move.text)

    def view(self, seat: int) -> SeatView:
        return SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, self.state, seat)),
                        tuple(self.history), self.state.clone())


class Listening:
    """A bot that notes each of its utterances with its character at the time."""

    def __init__(self, agent: Agent, out: list[tuple[int, str, str, float]]) -> None:
        self.agent, self.out = agent, out

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        decision = self.agent.act(view, feedback=feedback)
        state = view.state
        assert isinstance(state, ayt.TraitorState)
        if isinstance(decision.proposal, Text):
            words = decision.proposal.text.split(":", 1)[1].strip()
            self.out.append((view.seat, state.character_name(view.seat), words,
                             decision.seconds))
        return decision


def said_in_games(lineups: list[list[str]]) -> list[tuple[int, str, str, float]]:
    """Every utterance by a bot seat in games of these line-ups: (seat, its character then,
    the words, decision seconds)."""
    out: list[tuple[int, str, str, float]] = []
    for seed, lineup in enumerate(lineups):
        match = Match(SPEC.id, [SeatRecord(n, n, n) for n in lineup], seed=seed)
        agents = [make_agent(n, match.spec, match.record.params, seed=seat_seed(seed, i, n))
                  for i, n in enumerate(lineup)]
        play_match(match, [Listening(a, out) if n == "bot" else a
                           for a, n in zip(agents, lineup, strict=True)])
        assert match.record.moves and match.over
    return out


@pytest.fixture(scope="module")
def spoken() -> list[tuple[int, str, str, float]]:
    lineups = [["bot"] * 5] * 4 + [["bot", "random", "bot", "random", "bot"]] * 2
    return said_in_games(lineups)


def test_the_evil_side_never_owns_up(spoken):
    evil = [(seat, role, text) for seat, role, text, _ in spoken
            if role in ("Traitor", "Evil Wizard")]
    assert len(evil) >= 10  # the evil side talks too
    for seat, role, text in evil:
        assert not OWNS_UP.search(text), (role, text)
        for claim in read_claims(text, seat, VOCABULARY, 5):
            if claim.subject == seat:
                assert NAMES.index(role) not in claim.roles, (role, text)


def test_talk_is_plain_varied_sentences(spoken):
    texts = [text for _, _, text, _ in spoken]
    for text in texts:
        assert text[0].isupper() and text[-1] in ".!?", text
        assert MENTION.search(text), text
        assert len(text) <= talk.MAX_WORDS_CHARS
    assert len(set(texts)) >= max(12, len(texts) // 3)
    by_seat: dict[int, set[str]] = {}
    for seat, _, text, _ in spoken:
        by_seat.setdefault(seat, set()).add(text)
    assert all(len(said) >= 2 for said in by_seat.values())


def test_decisions_are_quick(spoken):
    times = sorted(seconds for *_, seconds in spoken)  # most well under, even on a busy machine
    assert times[len(times) // 2] < 0.05 and times[int(len(times) * 0.95)] < 0.3


@pytest.mark.parametrize("confessor", [0, 1])
def test_the_guard_stops_on_a_confessed_traitor(confessor):
    """Whoever owns up to being the Traitor gets the Guard's stop, whatever the deal."""
    game = Position([K, T, G, W, W], [GOOD, EVIL])
    game.play("say: I am the Traitor." if confessor == 0 else "say: I am a Guard.")
    game.play("say: I am the Traitor." if confessor == 1 else "say: I am a Guard.")
    decision = bot().act(game.view(2))
    assert isinstance(decision.proposal, ActionId)
    assert decision.proposal.action == ayt.STOP + confessor


@pytest.mark.parametrize("confessor", [0, 1])
def test_its_answer_follows_what_it_heard(confessor):
    game = Position([K, T, G, W, W], [GOOD, EVIL])
    game.play("say: I am the Traitor." if confessor == 0 else "say: I am a Guard.")
    game.play(("ask player 3: I am the Traitor, by the way. " if confessor == 1 else
               "ask player 3: ") + "Who do you think the Traitor is?")
    answer = bot().act(game.view(2))
    assert isinstance(answer.proposal, Text)
    assert f"player {confessor + 1}" in answer.proposal.text.lower()
    assert answer.proposal.text.startswith("answer: ")


def test_a_good_wizard_names_the_other_wizard():
    game = Position([K, G, T, W, W], [GOOD, EVIL])
    said = set()
    for seed in range(12):
        decision = bot(seed).act(game.view(3))
        if isinstance(decision.proposal, Text):
            said.add(decision.proposal.text)
    assert any("player 5 is the Evil Wizard" in text for text in said)
    assert not any("player 4 is the Evil Wizard" in text.lower() for text in said)


DEALS = {  # the bot's seat and two deals that differ only in what that seat cannot see
    "guard": (2, ([K, T, G, W, W], [GOOD, EVIL]), ([T, K, G, W, W], [EVIL, GOOD])),
    "traitor": (1, ([K, T, G, W, W], [GOOD, EVIL]), ([G, T, K, W, W], [EVIL, GOOD])),
    "good wizard": (3, ([K, G, T, W, W], [GOOD, EVIL]), ([T, K, G, W, W], [GOOD, EVIL])),
}


@pytest.mark.parametrize("who", sorted(DEALS))
@pytest.mark.parametrize("seed", range(3))
def test_decisions_do_not_depend_on_hidden_characters(who, seed):
    seat, *deals = DEALS[who]
    answers = []
    for characters, alignments in deals:
        game = Position(characters, alignments)
        picks = []
        for speaker in range(seat):
            game.play(f"ask player {seat + 1}: Are you the Traitor?" if speaker == seat - 1
                      else "say: I am a Guard and player 3 looks suspicious.")
        picks.append(bot(seed).act(game.view(seat)).proposal)  # the answer
        game.play("answer: No.")
        picks.append(bot(seed).act(game.view(seat)).proposal)  # its own turn
        answers.append(picks)
    assert answers[0] == answers[1]
