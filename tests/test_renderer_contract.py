"""Every game declares one typed Renderer (renderers.contract), found by renderers.renderer_for:
the page it is played on is declared, and no hook of its module is left out."""

from __future__ import annotations

import pytest

from games import registry
from renderers import Renderer, page_kind, renderer, renderer_for
from sessions.ratings.gama_table import GAMES
from sessions.web import gama_screen

HOOKS = ("centres", "buttons", "selected", "legal_summary", "ending", "seat_label",
         "seen_to_move", "seat_type", "talk", "teams_known", "turn_summary", "turn_over",
         "prompt", "messages", "plan_fields", "plan_moves")


@pytest.mark.parametrize("spec", registry.all_games(), ids=lambda s: s.id)
def test_each_game_declares_its_renderer_and_page(spec):
    view = renderer_for(spec.id)
    assert isinstance(view, Renderer)
    expected = ("rounds" if spec.benchmark == "GAMA-Bench"
                else "board" if spec.board == "grid" else "buttons")
    assert view.page == page_kind(spec.id) == expected
    assert gama_screen.is_table(spec.id) == (spec.id in GAMES)  # the scores' list agrees
    assert (view.rounds is not None) == (view.page == "rounds")
    assert view.watcher  # every game has a spectator's copy of a seat's view
    module = renderer(spec.id)
    for hook in HOOKS:  # the module's own functions are the declared ones, none left out
        found = getattr(module, hook, None)
        assert (found is None) == (getattr(view, hook) is None), hook
    assert view.off_target == getattr(module, "OFF_TARGET", None)
    assert view.narrow == getattr(module, "NARROW", False)
    assert view.sides == tuple(getattr(module, "SIDES", ()))
    if view.talk is not None:
        assert spec.grammar.free_text is not None  # talk hooks only where moves are words
