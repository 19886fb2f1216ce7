"""The games played by talking: what words cost. Run: python -m benchmarks.social

Prints, per game (Codenames, Are You the Traitor?, Two Rooms and a Boom): a whole random
game (engine, adapter, words) and the adapter reading one word move (a clue, a question, a
statement); then the offline ``minilm`` Codenames agents: encoding their candidate clues
without the disk cache, and the median spymaster and operative decision after it.

Targets: a word move read in under 1 ms; a random game in under 1 s; a minilm decision in
under 0.2 s once the candidates are encoded (encoding them: seconds, once per machine).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

from agents.specs import parse_spec
from games import registry
from games.actions import Text, resolve
from sessions.match import Match
from sessions.record import SeatRecord
from sessions.tournament import play_one

WORDS = {"codenames": "clue: zebu 2", "are_you_the_traitor": "ask player 2: where is the key?",
         "two_rooms_and_a_boom": "say: I am on the blue team"}


def _seconds(run, repeat: int) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def games() -> None:
    for game_id, words in WORDS.items():
        spec = registry.get(game_id)
        players = spec.load().num_players()
        whole = _seconds(lambda g=game_id, n=players: play_one(
            g, [parse_spec("random")] * n, seed=1), 5)
        match = Match(game_id, [SeatRecord("random", "random", "random")] * players, seed=2)
        seat, state = match.to_move()[0], match.state
        read = _seconds(lambda sp=spec, st=state, se=seat, w=words: resolve(
            sp, st, se, Text(text=w)), 200)
        print(f"{game_id:24s} random game {whole * 1000:7.1f} ms   read {words!r}: "
              f"{read * 1e6:6.0f} µs")


def minilm() -> None:
    from agents import embedding
    from agents.associations import AssociationAgent, _candidates

    if embedding.missing():
        print(f"minilm: skipped ({embedding.missing()})")
        return
    with tempfile.TemporaryDirectory() as cache:
        os.environ["ARENA_CACHE_DIR"] = cache
        words = embedding.WordEncoder(embedding.model_dir())
        start = time.perf_counter()
        words.encode_many(list(_candidates(words)))
        print(f"minilm: {len(_candidates(words))} candidate clues encoded in "
              f"{time.perf_counter() - start:.1f} s (uncached)")
        agent = AssociationAgent(words)
        clue, guess = [], []
        for seed in range(5):
            match = Match("codenames", [SeatRecord("minilm", "minilm", "minilm")] * 4,
                          seed=seed)
            seat = match.to_move()[0]
            start = time.perf_counter()
            decision = agent.act(match.view(seat))
            clue.append(time.perf_counter() - start)
            match.submit(seat, decision.proposal)
            start = time.perf_counter()
            agent.act(match.view(seat + 1))
            guess.append(time.perf_counter() - start)
        print(f"minilm: spymaster decision {statistics.median(clue) * 1000:.0f} ms, operative "
              f"{statistics.median(guess) * 1000:.0f} ms (medians of 5)")


if __name__ == "__main__":
    games()
    minilm()
