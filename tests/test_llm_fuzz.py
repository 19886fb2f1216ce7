"""Fuzzing the answer path: whatever a model writes, the adapter either names one legal move
or rejects the answer with a reason. More than 10,000 generated answers per run, over every
game, through ``games.actions.resolve`` (the one adapter) and the SC-CoT vote."""

from __future__ import annotations

import random
from collections import Counter

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

from agents.llm.modes import tally
from agents.specs import make_agent
from games.actions import MAX_LLM_CHARS, MoveError, Text, legal_moves, resolve
from games.registry import all_games
from sessions.match import Match
from sessions.record import SeatRecord
from tests.conftest import acting_players, random_states

REASONS = {"empty", "too_long", "unparseable", "illegal", "ambiguous"}
ANSWERS_PER_EXAMPLE = 4
EXAMPLES = 2_600

# Decision points of every game: (spec, state, seat, legal labels).
POINTS = [
    (spec, state, seat, tuple(m.label for m in legal_moves(spec, state, seat)))
    for spec in all_games()
    for seed in (1, 2, 3)
    for state in random_states(spec, seed, limit=60)
    for seat in acting_players(state)
]
BY_GAME = {spec.id: [p for p in POINTS if p[0].id == spec.id] for spec in all_games()}
EVERY_LABEL = sorted({label for _, _, _, labels in POINTS for label in labels})
GAME_LABELS = {spec.id: sorted({label for s, _, _, labels in POINTS if s.id == spec.id
                                for label in labels}) for spec in all_games()}

TEMPLATES = [
    "{a}", "Final answer: {a}", "<{a}>", "**{a}**", "`{a}`", '{{"move": "{a}"}}',
    "I think {b} is tempting, but {a} is better.\nFinal answer: {a}",
    "<think>{b}</think>\n{a}", "{a} or {b}", "Action: {a}\nAnswer: {b}", "{a}\n\n{b}",
    "  {a}.  ", "My move is {a}!", '{{"answer": "{a}", "move": "{b}"}}', "final answer = {a}",
    "{a} {a}", "Let me think step by step.\n1. {b}\n2. {a}\nFinal Answer:{a}",
]


BLANKS = ["", " ", "\n\t", "null", "{}", "[]", '{"move": 3}', "```\n```"]
JUNK = st.lists(st.one_of(st.text(max_size=40), st.integers(-5, 300).map(str)),
                min_size=3, max_size=3)


def word(rng: random.Random, game: str, labels: tuple[str, ...], junk: list[str]) -> str:
    """A move as a model might write it: legal here, legal at another time or in another
    game, mangled, or junk."""
    roll = rng.random()
    label = rng.choice(labels)
    if roll < 0.40:
        return label
    if roll < 0.52:
        return rng.choice(GAME_LABELS[game])
    if roll < 0.57:
        return rng.choice(EVERY_LABEL)
    if roll < 0.65:
        return label.upper()
    if roll < 0.72:
        return label.replace(" ", "")
    return rng.choice(junk)


def answer(rng: random.Random, game: str, labels: tuple[str, ...], junk: list[str]) -> str:
    """One generated answer: mostly moves inside the shapes models answer in, some raw
    junk, blanks, and answers past the length limit."""
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(junk) + rng.choice(junk)
    if roll < 0.12:
        return rng.choice(BLANKS)
    if roll < 0.14:
        label = rng.choice(labels)
        return label * (MAX_LLM_CHARS // len(label) + 1)
    a, b = word(rng, game, labels, junk), word(rng, game, labels, junk)
    return rng.choice(TEMPLATES).format(a=a, b=b)


def answers(data: st.DataObject, game: str, labels: tuple[str, ...], count: int) -> list[str]:
    """``count`` answers from hypothesis' choices: a seeded generator and junk text."""
    rng = data.draw(st.randoms(use_true_random=False))
    junk = data.draw(JUNK)
    return [answer(rng, game, labels, junk) for _ in range(count)]


def check_answer(spec, state, seat, labels, text, outcomes: Counter):
    legal = state.legal_actions(seat)
    try:
        move = resolve(spec, state, seat, Text(text=text, source="llm"))
    except MoveError as err:
        assert err.reason in REASONS, err.reason
        assert "Legal moves:" in str(err) and "Expected format:" in str(err)
        outcomes[err.reason] += 1
        return None
    assert move.action in legal
    assert move.label in labels or move.says  # words (a clue, a question) are the model's own
    outcomes["accepted"] += 1
    return move


def test_ten_thousand_answers_never_crash_or_yield_an_illegal_move():
    outcomes: Counter = Counter()
    games: Counter = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        points = BY_GAME[data.draw(st.sampled_from(sorted(BY_GAME)))]  # every game, evenly
        spec, state, seat, labels = points[data.draw(st.integers(0, len(points) - 1))]
        texts = answers(data, spec.id, labels, ANSWERS_PER_EXAMPLE)
        moves = [check_answer(spec, state, seat, labels, text, outcomes) for text in texts]
        games[spec.id] += len(texts)
        vote = tally(moves)
        said = {m.label for m in moves if m is not None and m.says}  # the models' own words
        assert vote["winner"] is None or vote["winner"] in labels or vote["winner"] in said
        assert sum(vote["votes"].values()) + vote["invalid"] == len(moves)

    check()
    assert sum(games.values()) >= 10_000
    assert set(games) == {spec.id for spec in all_games()}
    # the generator reaches both sides of the gate, and most kinds of rejection
    assert outcomes["accepted"] > 2_000
    assert min(outcomes[r] for r in REASONS) > 50, outcomes


@settings(max_examples=300, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_rejected_answer_changes_nothing_and_an_accepted_one_is_what_is_played(data):
    spec = data.draw(st.sampled_from(all_games()))
    players = spec.load().num_players()
    match = Match(spec.id, [SeatRecord("random", "random", "random")] * players, seed=3)
    agents = [make_agent("random", spec, match.record.params, seed=p) for p in range(players)]
    for _ in range(data.draw(st.integers(0, 4))):
        if match.over:
            return
        seat = match.to_move()[0]
        match.submit(seat, agents[seat].act(match.view(seat)).proposal)
    if match.over:
        return
    seat = match.to_move()[0]
    labels = tuple(m.label for m in match.legal(seat))
    [text] = answers(data, spec.id, labels, 1)
    before = match.state.history()
    moves_before = len(match.record.moves)
    try:
        move = match.submit(seat, Text(text=text, source="llm"))
    except MoveError as err:
        assert err.reason in REASONS
        assert match.state.history() == before and len(match.record.moves) == moves_before
        assert match.attempts(seat)[-1].reason == err.reason
        return
    assert move.label in labels or move.says  # a word move's label carries its own words
    played = [m for m in match.record.moves[moves_before:] if m.seat == seat]
    if played:  # applied (a simultaneous move waits for the other seats)
        assert played[0].action == move.action and played[0].raw == text
