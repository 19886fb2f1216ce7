"""The data card (``README.md``) of the published dataset: what was collected and how, the
consent people were asked for, the licence, every column, counts, the time span and the
known biases. Its YAML header makes each table a configuration of the Hugging Face dataset.
"""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sessions.dataset_tables import COLUMNS, MARK, TABLES, WITHHELD

if TYPE_CHECKING:
    from sessions.dataset_selection import Built, Selection

LICENCE = "cc-by-4.0"
CONSENT_SOURCE = Path(__file__).parent / "web" / "tabs" / "consent.py"
"""Where the page's consent wording lives; read as text (this layer may not import the
page), so the card always quotes what people were shown."""


def consent_texts() -> dict[str, str]:
    """The page's consent wording: its string constants whose names start with
    ``CONSENT`` or ``TALK`` (the question and the talk choice), by name."""
    tree = ast.parse(CONSENT_SOURCE.read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id.startswith(("CONSENT", "TALK")):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if isinstance(value, str):
                found[node.targets[0].id] = value
    return found


def card(built: Built, selection: Selection) -> str:
    """The whole README.md."""
    return "\n".join([_header(MARK, built), _about(built, selection), _consent(), _tables(built),
                      _counts(built), _biases(), ""])


def _header(mark: str, built: Built) -> str:
    lines = ["---", f"license: {LICENCE}", "pretty_name: LLM Game Arena human-baseline games",
             "tags:", f"- {mark}", "- games", "- human-ai-interaction", "- llm-evaluation",
             "configs:"]
    for table in (t for t in TABLES if built.rows[t]):  # a table without rows: no config
        lines += [f"- config_name: {table}", "  data_files:", "  - split: train",
                  f"    path: data/{table}/*.parquet"]
        if table == "sessions":
            lines.append("  default: true")
    return "\n".join(lines + ["---", ""])


def _about(built: Built, selection: Selection) -> str:
    return f"""# LLM Game Arena: human-baseline games

Games played in LLM Game Arena (strategy, card, dice, bidding and talking games from
GTBench, GameBench and GAMA-Bench, on OpenSpiel) between people, language models and classic
game programs (MCTS, random, strategy bots). Every session is a replayable record: the seed,
who sat where, every move with the time it took, every refused attempt and why, the words
said at the table, each language-model call's tokens, latency and estimated cost, and the
result. Built with `python -m sessions dataset` from the arena's store on
{_day(datetime.now(UTC).timestamp())}; selection: {selection.describe()}.

```python
from datasets import load_dataset
sessions = load_dataset("PATH_OR_REPO")              # one row per session
moves = load_dataset("PATH_OR_REPO", "moves")        # also: seats, rejected, talk, llm_calls
```

## How it was collected

People open the arena's web page, pick a game and an opponent, and play by clicking the
board or typing moves; agents play each other on the Watch tab and in tournaments run by
the arena's operators. Each finished or abandoned session is stored whole. People play
under a random anonymous id kept in their browser. In this dataset:

- sessions whose person did not agree to research use are left out entirely;
- each person's id is replaced by a keyed id (HMAC-SHA-256 with a secret salt that is not
  published): the same person has the same id throughout this dataset, and it cannot be
  linked back to the page's id;
- display names are left out; API keys, and any text shaped like one, are blanked to `[key]`;
- the words a person said at the table (clues, questions, statements) are included only
  when their consent covered talk; otherwise they read `{WITHHELD}`. Models' and bots' words
  are included.

Licence: [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/) (cite LLM Game Arena).
"""


def _consent() -> str:
    texts = consent_texts()
    if not texts:
        return "## What people agreed to\n\n(The page's consent wording could not be read.)\n"
    quoted = "\n\n".join("\n".join("> " + line if line else ">"
                                   for line in text.strip().splitlines())
                         for text in texts.values())
    return f"## What people agreed to\n\nThe page asks once, before the first game:\n\n{quoted}\n"


def _tables(built: Built) -> str:
    parts = ["## Tables and columns", "",
             "Every table has `session_id`; `move` numbers a session's moves from 0 (the "
             "`moves` table's order), so rows join on (`session_id`, `move`). Times are UTC.",
             ""]
    for table in TABLES:
        parts += [f"### `{table}`", ""]
        if not built.rows[table]:
            parts += ["No rows in this dataset, so it has no configuration here; its columns, "
                      "for other builds:", ""]
        parts += ["| column | type | meaning |", "|---|---|---|"]
        parts += [f"| `{name}` | {kind} | {what} |" for name, kind, what in COLUMNS[table]]
        parts.append("")
    return "\n".join(parts)


def _counts(built: Built) -> str:
    span = (f"{_day(built.first)} to {_day(built.last)}" if built.first is not None
            and built.last is not None else "no sessions")
    parts = ["## What it holds", "",
             f"{built.rows['sessions']:,} sessions ({span}), {built.rows['moves']:,} moves, "
             f"{built.rows['rejected']:,} refused attempts, {built.rows['talk']:,} things said, "
             f"{built.rows['llm_calls']:,} language-model calls, {built.people:,} people.", "",
             "| game | sessions | with a person |", "|---|---:|---:|"]
    parts += [f"| {game} | {n:,} | {built.human_games[game]:,} |"
              for game, n in sorted(built.games.items())]
    parts += ["", "| agent kind | seats |", "|---|---:|"]
    parts += [f"| {kind} | {n:,} |" for kind, n in built.kinds.most_common()]
    if built.left_out:
        parts += ["", "Stored sessions left out: " + ", ".join(
            f"{n:,} {why}" for why, n in sorted(built.left_out.items())) + "."]
    return "\n".join(parts) + "\n"


def _biases() -> str:
    return """## Known biases and limits

- **Self-selected players.** People chose to visit, which game to play and against whom;
  they are not a sample of any population, and those who agreed to research use may differ
  from those who did not.
- **Unequal games and opponents.** Some games and opponents are played far more than
  others; agents' sessions (Watch tab, tournaments, showcase) can outnumber people's.
- **Abandoned sessions are kept** (`outcome` = abandoned): a person who leaves a losing game
  is not the same as one who loses it; ratings leave them out.
- **Opponent settings change.** Language models are called through providers whose models
  change under the same name; `app_version` and the seat's `spec` say what was played.
- **Time is wall-clock time** on a shared server: a decision's `seconds` includes waiting
  for the page and for providers.
- **Withheld words.** Talk games whose people did not share their words still show the moves
  but not what was said, so talk analyses see a consenting subset.
"""


def _day(moment: float | None) -> str:
    if moment is None:
        return "unknown"
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d")
