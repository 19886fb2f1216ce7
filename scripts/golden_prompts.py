"""Regenerate the golden LLM prompts: python -m scripts.golden_prompts [GAME...]

Each file holds the requests an LLM seat would send at one seeded decision of one game, in
every reasoning and answer mode (system prompt, user turns, structured-answer schema), so a
change in what a model is told is seen in review. Games whose seats play different parts
(a renderer's ``seat_type``: Codenames' spymaster and operative, the characters of the
hidden-role games) add the first decision of every seat type in seeded random games, in
the move-only and structured chain-of-thought modes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from agents.base import SeatView
from agents.llm import prompts, rap
from agents.llm.chat import ChatRequest
from agents.llm.modes import Ask
from agents.specs import make_agent
from games.registry import GameSpec, all_games, get
from renderers import renderer
from scripts.goldens import write_goldens
from sessions.engine import play_turn
from sessions.match import Match
from sessions.record import SeatRecord

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden" / "prompts"
SEED = 2024


def decision_view(spec: GameSpec, decisions: int = 2) -> SeatView:
    """The view of the seat to move after ``decisions`` seeded random moves (fewer if the
    game would end first)."""
    for played in range(decisions, -1, -1):
        players = spec.load().num_players()
        match = Match(spec.id, [SeatRecord("random", "random", "random")] * players, seed=SEED)
        agents = [make_agent("random", spec, match.record.params, seed=SEED + p)
                  for p in range(players)]
        for _ in range(played):
            if match.over:
                break
            seat = match.to_move()[0]
            play_turn(match, seat, agents[seat])
        if not match.over:
            return match.view(match.to_move()[0])
    raise RuntimeError(f"{spec.id}: no decision to show")


def requests(view: SeatView) -> list[tuple[str, ChatRequest]]:
    """The requests of every mode at ``view``, each with a title."""
    where = prompts.position(view, image=False)

    def ask(structured: bool, retry: tuple[tuple[str, str], ...] = ()) -> Ask:
        return Ask(caller=None, view=view, where=where, structured=structured,  # type: ignore[arg-type]
                   image=None, retry=retry, max_tokens=1024, temperature=0.2,
                   sample_temperature=0.7, seed=0)

    first = where.labels[0]
    predicted = f"You play: {first}\nThen: <their predicted replies>\nPosition: <the predicted position>"
    return [
        ("prompt", ask(False).request(prompts.instruction("prompt", False, where), thinking=False)),
        ("cot (also each sc-cot sample)", ask(False).request(prompts.instruction("cot", False, where))),
        ("prompt+json", ask(True).request(prompts.instruction("prompt", True, where), thinking=False)),
        ("cot+json", ask(True).request(prompts.instruction("cot", True, where))),
        ("tot: step 1, a thought", ask(False).request(prompts.THOUGHT, answer=False)),
        ("tot: step 1, a vote", ask(False).request(
            prompts.vote("thought", ["<analysis 1>", "<analysis 2>", "<analysis 3>"]),
            answer=False)),
        ("tot: step 2, a move", ask(False).request(
            prompts.move_after_thought("<the chosen analysis>", False))),
        ("tot: step 2, a vote", ask(False).request(
            prompts.vote("move", [f"{first}\n<its reasoning>", "<move 2>\n<its reasoning>"]),
            answer=False)),
        ("rap: candidate moves at the real position", ask(False).request(
            rap.propose_instruction("", 0), answer=False)),
        ("rap: predict the replies", ask(False).request(
            rap.predict_instruction("", first), answer=False)),
        ("rap: judge (yes/no, read by log-probabilities)", ask(False).request(
            rap.judge_instruction(predicted, logprobs=True), answer=False)),
        ("rap: judge (0-10, providers without log-probabilities)", ask(False).request(
            rap.judge_instruction(predicted, logprobs=False), answer=False)),
        ("rap: candidate moves after a predicted reply", ask(False).request(
            rap.propose_instruction(predicted, 1), answer=False)),
        ("cot, asked again after a rejected answer", ask(False, (
            ("I think the best is nowhere.", "<the adapter's message>"),)).request(
            prompts.instruction("cot", False, where))),
    ]


def seat_type_views(spec: GameSpec, games: int = 12) -> list[tuple[str, SeatView]]:
    """The first decision of every seat type (the renderer's ``seat_type``) in seeded random
    games, by type name; none for games without seat types."""
    kind = getattr(renderer(spec.id), "seat_type", None)
    if kind is None:
        return []
    found: dict[str, SeatView] = {}
    variants = [spec.params()]
    if "num_players" in spec.default_params:  # an odd count too (Two Rooms' Gambler)
        variants.append(spec.params({"num_players": int(spec.default_params["num_players"])
                                     + 1}))
    for seed, params in ((s, p) for p in variants for s in range(SEED, SEED + games)):
        players = spec.load(params).num_players()
        match = Match(spec.id, [SeatRecord("random", "random", "random")] * players, seed=seed,
                      params=params)
        agents = [make_agent("random", spec, match.record.params, seed=seed + p)
                  for p in range(players)]
        while not match.over:
            seat = match.to_move()[0]
            found.setdefault(kind(match.state, seat), match.view(seat))
            play_turn(match, seat, agents[seat])
    return sorted(found.items())


def golden_text(spec: GameSpec) -> str:
    view = decision_view(spec)
    out = [f"# {spec.title}: LLM prompts for seat {view.seat} (seed {SEED})\n"]
    for seat_type, seen in seat_type_views(spec):
        for title, request in requests(seen):
            if title in ("prompt", "cot+json"):
                out += _request(f"seat type {seat_type} (seat {seen.seat}): {title}", request)
    for title, request in requests(view):
        out.append(f"==================== {title}")
        out.append(f"--- system\n{request.system}")
        for turn in request.turns:
            out.append(f"--- {turn.role}\n{turn.text}")
        if request.schema is not None:
            out.append(f"--- schema\n{json.dumps(request.schema, indent=1)}")
        out.append("")
    return "\n".join(out)


def _request(title: str, request: ChatRequest) -> list[str]:
    out = [f"==================== {title}", f"--- system\n{request.system}"]
    out += [f"--- {turn.role}\n{turn.text}" for turn in request.turns]
    if request.schema is not None:
        out.append(f"--- schema\n{json.dumps(request.schema, indent=1)}")
    return [*out, ""]


def main(names: list[str]) -> int:
    specs = [get(name) for name in names] if names else all_games()
    return write_goldens(GOLDEN_DIR, specs, golden_text)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
