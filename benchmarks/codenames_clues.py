"""Codenames' clue rule, measured: python -m benchmarks.codenames_clues [--boards N]

On N random boards (default 50), how many words of minilm's 5,000-word clue vocabulary
(``agents/words/clue_words.txt``) the clue rule bars, against the substring check it replaced
(a clue containing, or contained in, a visible word), with examples of words each rule bars
that the other does not; then how long one board's check of the whole vocabulary takes (the
minilm spymaster filters its candidates this way) and one adapter check of a typed clue.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from agents.embedding import CLUE_WORDS
from games.gamebench import codenames_clues as rule
from games.gamebench.codenames_words import WORDS


def substring(word: str, visible: list[str]) -> bool:
    """The check before issue 26: any substring match in either direction."""
    return any(word in card or card in word for card in visible)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=50)
    boards = parser.parse_args(argv).boards
    vocabulary = CLUE_WORDS.read_text("utf-8").split()
    rng = random.Random(7)
    old = new = freed = barred = 0
    seconds, freed_examples, barred_examples = [], set(), set()
    for _ in range(boards):
        visible = rng.sample(WORDS, 25)
        rule.barred.cache_clear()
        started = time.perf_counter()
        now = {w for w in vocabulary if rule.clash(w, visible)}
        seconds.append(time.perf_counter() - started)
        before = {w for w in vocabulary if substring(w, visible)}
        old, new = old + len(before), new + len(now)
        freed, barred = freed + len(before - now), barred + len(now - before)
        freed_examples |= before - now
        barred_examples |= now - before
    print(f"{boards} boards x {len(vocabulary)} clue words: the substring check barred "
          f"{old / boards:.1f} a board, the clue rule bars {new / boards:.1f}; "
          f"{freed / boards:.1f} a board are allowed now, {barred / boards:.1f} barred now "
          "that were allowed")
    print("allowed now, e.g.:", ", ".join(sorted(freed_examples)[:20]))
    print("barred now, e.g.:", ", ".join(sorted(barred_examples)[:20]))
    print(f"checking the whole vocabulary on one board: median {statistics.median(seconds):.3f} s")
    visible = rng.sample(WORDS, 25)
    started = time.perf_counter()
    for _ in range(1000):
        rule.clash("snowshoes", visible)
    print(f"one typed clue checked: {(time.perf_counter() - started):.3f} ms")


if __name__ == "__main__":
    main()
