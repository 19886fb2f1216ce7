"""GTBench's ten games, on OpenSpiel, with GTBench's parameters and our move labels.

Parameter choices (GTBench's own code, `configs/game_configs` and `games/*.py`):
tic-tac-toe, connect four, Kuhn poker, blind auction, negotiation and iterated prisoner's
dilemma use OpenSpiel's defaults; breakthrough is 3 columns × 8 rows; liar's dice has 1 die
each; nim has piles 1;3;5;7 and is misère (OpenSpiel's default); pig ends at 20 points.

NRA objective (GameSpec.objective): GTBench §2.2 names tic-tac-toe and breakthrough as
beat-the-opponent games and Kuhn poker and negotiation as earn-rewards games. We also count
connect four, nim, liar's dice and pig as "beat" (each ends in a win or a loss; OpenSpiel's
returns are ±1), and the blind auction (value minus price) and the prisoner's dilemma
(payoffs summed over rounds) as "earn", since there the amount is the result.
"""

from __future__ import annotations

import re

import pyspiel

from games.grammar import WORD_END, WORD_START, MoveGrammar, squash, words
from games.registry import GameSpec, Taxonomy, Visibility, register

_I = re.IGNORECASE
_L = WORD_START
_R = WORD_END


def _pattern(body: str) -> re.Pattern[str]:
    return re.compile(_L + r"(?:" + body + r")" + _R, _I)


def _complete_2p(dynamics: str = "sequential", chance: str = "deterministic") -> Taxonomy:
    return Taxonomy("complete", chance, dynamics, 2)  # type: ignore[arg-type]


def _incomplete_2p(chance: str = "probabilistic") -> Taxonomy:
    return Taxonomy("incomplete", chance, "sequential", 2)  # type: ignore[arg-type]


# --- tic-tac-toe: cells C{column}R{row}, 1-based, as GTBench wrote them ----------------

def _cell_label(state: pyspiel.State, player: int, action: int) -> str:
    columns = int(state.get_game().get_parameters().get("columns", 3))
    row, column = divmod(action, columns)
    return f"C{column + 1}R{row + 1}"


def _cell_key(match: re.Match[str]) -> str:
    column = match.group("c1") or match.group("c2")
    row = match.group("r1") or match.group("r2")
    return f"c{int(column)}r{int(row)}"


_CELL = _pattern(
    r"C\s*(?P<c1>\d)\s*[,;/ -]?\s*R\s*(?P<r1>\d)|R\s*(?P<r2>\d)\s*[,;/ -]?\s*C\s*(?P<c2>\d)"
)

TIC_TAC_TOE = GameSpec(
    id="tic_tac_toe",
    title="Tic-tac-toe",
    summary="Three in a row on a 3×3 grid; X moves first.",
    openspiel="tic_tac_toe",
    taxonomy=_complete_2p(),
    grammar=MoveGrammar(
        label=_cell_label, pattern=_CELL, key=_cell_key,
        hint="a cell as C<column>R<row>, columns and rows numbered from 1, e.g. C2R3",
    ),
    board="grid",
)


# --- connect four: columns C1..C7 ------------------------------------------------------

def _column_label(state: pyspiel.State, player: int, action: int) -> str:
    return f"C{action + 1}"


def _column_key(match: re.Match[str]) -> str:
    return f"c{int(match.group('n'))}"


CONNECT_FOUR = GameSpec(
    id="connect_four",
    title="Connect Four",
    summary="Drop discs into a 7×6 grid; four in a line wins.",
    openspiel="connect_four",
    taxonomy=_complete_2p(),
    grammar=MoveGrammar(
        label=_column_label,
        pattern=_pattern(r"(?:C|col|column)\s*(?P<n>\d{1,2})"),
        key=_column_key,
        hint="a column as C<number>, numbered from 1 at the left, e.g. C4",
    ),
    board="grid",
)


# --- breakthrough: from->to squares -----------------------------------------------------

_SQUARES = re.compile(r"([a-z])(\d{1,2})[a-z]?(\d{0,2})")


def _squares(state: pyspiel.State, player: int, action: int) -> tuple[str, str]:
    text = state.action_to_string(player, action).rstrip("*")  # e.g. "a7b6" or "a7b6*"
    return text[: len(text) // 2], text[len(text) // 2 :]


def _step_label(state: pyspiel.State, player: int, action: int) -> str:
    origin, target = _squares(state, player, action)
    return f"{origin}->{target}"


def _step_key(match: re.Match[str]) -> str:
    return f"{match.group('f1').lower()}{int(match.group('r1'))}" \
           f"{match.group('f2').lower()}{int(match.group('r2'))}"


BREAKTHROUGH = GameSpec(
    id="breakthrough",
    title="Breakthrough",
    summary="Race a pawn to the far row; pawns move forward and capture diagonally.",
    openspiel="breakthrough",
    taxonomy=_complete_2p(),
    default_params={"rows": 8, "columns": 3},
    param_notes="GTBench plays on 3 columns × 8 rows (OpenSpiel's default is 8 × 8).",
    grammar=MoveGrammar(
        label=_step_label,
        pattern=_pattern(
            r"(?P<f1>[a-z])(?P<r1>\d{1,2})\s*(?:->|-+>?|→|x|to|\s|,)?\s*"
            r"(?P<f2>[a-z])(?P<r2>\d{1,2})\*?"
        ),
        key=_step_key,
        click_path=lambda state, player, action: _squares(state, player, action),
        hint="a step as <from>-><to> with squares as file letter and rank number, e.g. a7->a6",
    ),
    board="grid",
)


# --- nim: pile P take T -----------------------------------------------------------------

_NIM_STRING = re.compile(r"pile:(\d+), take:(\d+);")


def _nim_label(state: pyspiel.State, player: int, action: int) -> str:
    match = _NIM_STRING.fullmatch(state.action_to_string(player, action))
    assert match is not None, "OpenSpiel's nim action string changed"
    return f"pile {match.group(1)} take {match.group(2)}"


def _nim_key(match: re.Match[str]) -> str:
    pile = match.group("p1") or match.group("p2")
    take = match.group("t1") or match.group("t2")
    return f"p{int(pile)}t{int(take)}"


NIM = GameSpec(
    id="nim",
    title="Nim (misère)",
    summary="Take sticks from one pile per turn; whoever takes the last stick loses.",
    openspiel="nim",
    taxonomy=_complete_2p(),
    default_params={"pile_sizes": "1;3;5;7", "is_misere": True},
    param_notes="GTBench: piles 1, 3, 5, 7, misère (the last to take loses).",
    grammar=MoveGrammar(
        label=_nim_label,
        pattern=_pattern(
            r"pile\s*:?\s*(?P<p1>\d+)\s*[,;]?\s*(?:and\s+)?take\s*:?\s*(?P<t1>\d+)"
            r"|take\s*:?\s*(?P<t2>\d+)\s*(?:sticks?\s+)?(?:from\s+)?pile\s*:?\s*(?P<p2>\d+)"
        ),
        key=_nim_key,
        hint="pile <number> take <count>, piles numbered from 1, e.g. pile 2 take 3",
    ),
)


# --- Kuhn poker: pass / bet ------------------------------------------------------------

def _named_label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action).strip().lower()


_KUHN_KEYS = {"pass": "pass", "check": "pass", "fold": "pass", "bet": "bet", "call": "bet"}

KUHN_POKER = GameSpec(
    id="kuhn_poker",
    objective="earn",
    title="Kuhn poker",
    summary="Three-card poker (J, Q, K): one card each, one round of betting.",
    openspiel="kuhn_poker",
    taxonomy=_incomplete_2p(),
    visibility=Visibility(moves=True, chance=False),
    grammar=MoveGrammar(
        label=_named_label,
        pattern=words(*_KUHN_KEYS),
        key=lambda match: _KUHN_KEYS[match.group(0).lower()],
        hint="pass or bet (check and fold count as pass, call as bet)",
    ),
)


# --- liar's dice: "2 fives", "liar" ----------------------------------------------------

_FACES = ["one", "two", "three", "four", "five", "six"]
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _face_name(face: int, count: int) -> str:
    if face > 6:
        return str(face)
    name = _FACES[face - 1]
    return name if count == 1 else ("sixes" if face == 6 else name + "s")


def _dice_label(state: pyspiel.State, player: int, action: int) -> str:
    text = state.action_to_string(player, action)  # "2-5" or "Liar"
    if text == "Liar":
        return "liar"
    first, second = (int(part) for part in text.split("-"))
    rule = state.get_game().get_parameters().get("bidding_rule", "reset-face")
    count, face = (second, first) if rule == "reset-quantity" else (first, second)
    return f"{count} {_face_name(face, count)}"


def _dice_key(match: re.Match[str]) -> str:
    if match.group("liar"):
        return "liar"
    count = match.group("n1") or match.group("n2")
    face = match.group("f1") or match.group("f2")
    n = int(count) if count.isdigit() else _COUNT_WORDS[count.lower()]
    f = int(face[0]) if face[0].isdigit() else _FACE_WORDS[face.lower()]
    return f"{n}x{f}"


_FACE_WORDS = {name: i + 1 for i, name in enumerate(_FACES)} | {
    _face_name(i + 1, 2): i + 1 for i in range(6)
}
_FACE_ALTERNATIVES = "|".join(sorted(_FACE_WORDS, key=len, reverse=True))
_COUNT_ALTERNATIVES = "|".join(_COUNT_WORDS)

LIARS_DICE = GameSpec(
    id="liars_dice",
    title="Liar's dice",
    summary="Bid on the dice under both cups, or call the last bid a lie.",
    openspiel="liars_dice",
    taxonomy=_incomplete_2p(),
    default_params={"numdice": 1},
    param_notes="GTBench: one die per player (OpenSpiel's default).",
    visibility=Visibility(moves=True, chance=False),
    grammar=MoveGrammar(
        label=_dice_label,
        pattern=_pattern(
            r"(?P<liar>(?:call\s+)?liar|challenge)"
            r"|(?:bid\s*:?\s*)?(?P<n1>\d+)\s*(?:x|×|\*|-)\s*(?P<f1>\d)(?:'?s)?"
            rf"|(?:bid\s*:?\s*)?(?P<n2>\d+|{_COUNT_ALTERNATIVES})\s+(?:dice\s+(?:showing\s+|of\s+)?)?"
            rf"(?P<f2>{_FACE_ALTERNATIVES}|\d'?s)"
        ),
        key=_dice_key,
        hint="a bid as <count> <face>, e.g. 1 four or 2 sixes (also 2x6), or liar",
    ),
)


# --- blind auction: bid N ---------------------------------------------------------------

def _bid_label(state: pyspiel.State, player: int, action: int) -> str:
    return f"bid {action}"


BLIND_AUCTION = GameSpec(
    id="first_sealed_auction",
    objective="earn",
    title="Blind auction",
    summary="A first-price sealed-bid auction: the higher bid wins and pays its bid.",
    openspiel="first_sealed_auction",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 2),
    visibility=Visibility(moves=False, chance=False),
    grammar=MoveGrammar(
        label=_bid_label,
        pattern=_pattern(r"bid\s*(?:of\s*)?:?\s*\$?(?P<n>\d+)"),
        key=lambda match: f"bid{int(match.group('n'))}",
        aliases=lambda state, player, action: (str(action), f"${action}"),
        hint="bid <amount>, a whole number from 0 up to your valuation, e.g. bid 4",
    ),
)


# --- negotiation: propose [a, b, c] / say [a, b, c] / agree -----------------------------

def negotiation_move(state: pyspiel.State, action: int) -> tuple[str, list[int]]:
    """Decode a negotiation action: ("propose" | "agree" | "say", numbers).

    OpenSpiel numbers proposals 0..6^items-1 (at most 5 of each item), then "agree", then
    utterances in base ``num_symbols``.
    """
    params = state.get_game().get_parameters()
    items, proposals = int(params["num_items"]), 6 ** int(params["num_items"])
    if action < proposals:
        return "propose", _digits(action, items, 6)
    if action == proposals:
        return "agree", []
    return "say", _digits(action - proposals - 1, int(params["utterance_dim"]),
                          int(params["num_symbols"]))


def _digits(value: int, count: int, base: int) -> list[int]:
    out = []
    for _ in range(count):
        value, digit = divmod(value, base)
        out.append(digit)
    return out[::-1]


def _negotiation_label(state: pyspiel.State, player: int, action: int) -> str:
    verb, numbers = negotiation_move(state, action)
    return verb if verb == "agree" else f"{verb} [{', '.join(map(str, numbers))}]"


def _negotiation_key(match: re.Match[str]) -> str:
    if match.group("agree"):
        return "agree"
    verb = "propose" if match.group("propose") else "say"
    numbers = re.findall(r"\d+", match.group("numbers"))
    return f"{verb}:{'-'.join(str(int(n)) for n in numbers)}"


_NUMBERS = r"(?P<numbers>\[?\s*\d+(?:\s*[,; ]\s*\d+){1,5}\s*\]?)"

NEGOTIATION = GameSpec(
    id="negotiation",
    objective="earn",
    title="Negotiation",
    summary="Split a pool of items by alternating proposals; no deal, no points.",
    openspiel="negotiation",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 2),
    param_notes=(
        "OpenSpiel's defaults as GTBench used them: 3 item types, proposals and symbolic "
        "utterances on; the item pool, values and number of rounds are drawn from rng_seed, "
        "which a match sets from its seed."
    ),
    seed_param="rng_seed",
    grammar=MoveGrammar(
        label=_negotiation_label,
        pattern=_pattern(
            r"(?P<agree>agree|agreement|accept)"
            rf"|(?:(?P<propose>propose|proposal|offer)|say|utter|utterance)\s*:?\s*{_NUMBERS}"
        ),
        key=_negotiation_key,
        aliases=lambda state, player, action: (
            (" ".join(map(str, negotiation_move(state, action)[1])),)
            if negotiation_move(state, action)[0] != "agree" else ("deal",)
        ),
        hint=(
            "propose [a, b, c] (how many of each item type you keep), agree (accept the last "
            "proposal), or, on an utterance turn, say [x, y, z]"
        ),
    ),
)


# --- pig: roll / stop -------------------------------------------------------------------

_PIG_KEYS = {"roll": "roll", "stop": "stop", "hold": "stop"}

PIG = GameSpec(
    id="pig",
    title="Pig",
    summary="Roll a die to build a turn total; a 1 loses it. First to 20 wins.",
    openspiel="pig",
    taxonomy=_complete_2p(chance="probabilistic"),
    default_params={"winscore": 20},
    param_notes="GTBench: the first to 20 points wins (OpenSpiel's default is 100).",
    grammar=MoveGrammar(
        label=_named_label,
        pattern=words(*_PIG_KEYS),
        key=lambda match: _PIG_KEYS[match.group(0).lower()],
        hint="roll or stop (hold counts as stop)",
    ),
)


# --- iterated prisoner's dilemma: cooperate / defect ------------------------------------

_IPD_KEYS = {
    "cooperate": "cooperate", "cooperation": "cooperate", "silent": "cooperate",
    "stay silent": "cooperate", "silence": "cooperate",
    "defect": "defect", "defection": "defect", "testify": "defect", "betray": "defect",
}

PRISONERS_DILEMMA = GameSpec(
    id="iterated_prisoners_dilemma",
    objective="earn",
    title="Iterated prisoner's dilemma",
    summary="Both choose at once to cooperate or defect, round after round.",
    openspiel="python_iterated_prisoners_dilemma",
    taxonomy=Taxonomy("complete", "probabilistic", "simultaneous", 2),
    param_notes=(
        "OpenSpiel's defaults as GTBench used them: after each round the game ends with "
        "probability 0.125; payoffs 5/5 both cooperate, 1/1 both defect, 10/0 defect/cooperate."
    ),
    grammar=MoveGrammar(
        label=_named_label,
        pattern=words(*sorted(_IPD_KEYS, key=len, reverse=True)),
        key=lambda match: _IPD_KEYS[" ".join(match.group(0).lower().split())],
        aliases=lambda state, player, action: ("c",) if action == 0 else ("d",),
        hint="cooperate or defect",
    ),
)


for _spec in (TIC_TAC_TOE, CONNECT_FOUR, KUHN_POKER, BREAKTHROUGH, LIARS_DICE, BLIND_AUCTION,
              NEGOTIATION, NIM, PIG, PRISONERS_DILEMMA):
    register(_spec)

__all__ = ["negotiation_move", "squash"]
