"""A watcher's copy of a seat's view never addresses the watcher as that player (issue 22
item 4): every game's text view and the words drawn on its image, for every seat, in a
game under way and after its end, say "Red's hand", "Blue to move", "Red won" where the
player's own view says "Your hand", "Your turn", "you won". The player's own view still
says "you". The pictures' words are read as they are drawn (the canvas's text calls, the
GAMA plots' titles and series, the plot itself not drawn), not by reading pixels.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PIL import Image, ImageDraw

from games.registry import get
from renderers import drawing, image_view, renderer, text_view
from renderers.gama import view as gama_view
from tests.conftest import GAME_IDS, random_states

YOU = re.compile(r"\b(you|your|yours|you're)\b", re.IGNORECASE)


@contextmanager
def drawn_words(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string drawn on an image while inside (canvas text, Pillow text, plot words)."""
    words: list[str] = []
    canvas_text = drawing.Canvas.text
    pillow_text = ImageDraw.ImageDraw.text

    def on_canvas(self, xy, text, **style):  # type: ignore[no-untyped-def]
        words.append(text)
        return canvas_text(self, xy, text, **style)

    def on_pillow(self, xy, text, *args, **style):  # type: ignore[no-untyped-def]
        words.append(str(text))
        return pillow_text(self, xy, text, *args, **style)

    def on_plot(drawn):  # type: ignore[no-untyped-def]
        words.extend([drawn.title, drawn.ylabel, drawn.xlabel, *(s.name for s in drawn.lines),
                      *(name for name, _ in drawn.guides), *(bar[0] for bar in drawn.bars)])
        return Image.new("RGB", (4, 4))  # the words are what is read here: no plotting

    with monkeypatch.context() as patch:
        patch.setattr(drawing.Canvas, "text", on_canvas)
        patch.setattr(ImageDraw.ImageDraw, "text", on_pillow)
        patch.setattr(gama_view, "_drawn", on_plot)
        yield words


@functools.cache
def _states(game_id: str) -> tuple:
    """A position under way (a few moves in) and the end of one random game."""
    states = random_states(get(game_id), 3)
    return states[min(len(states) - 2, 6)], states[-1]


def _seats(state) -> list[int]:  # type: ignore[no-untyped-def]
    players = state.num_players()
    return list(range(players)) if players <= 3 else [0, 1, players - 1]


def _quoted(game_id: str, state, seat: int) -> list[str]:  # type: ignore[no-untyped-def]
    """Words the view quotes rather than says: what people said at the table, the text
    printed on Air, Land & Sea's cards ("The next time you play a card...")."""
    module = renderer(game_id)
    said = [u.text for u in module.talk(state, seat)] if hasattr(module, "talk") else []
    if game_id == "air_land_sea":
        from games.gamebench.air_land_sea_cards import CARDS
        said += [card.text for card in CARDS if card.text]
    return sorted(said, key=len, reverse=True)


def _views(game_id: str, monkeypatch: pytest.MonkeyPatch, *, watcher: bool) -> list[str]:
    """Every line of every text view and every word drawn, for each seat of both positions;
    quoted words (:func:`_quoted`, whole or a drawn line of them) are taken out."""
    module = renderer(game_id)
    seen = []
    for state in _states(game_id):
        for seat in _seats(state):
            quoted = _quoted(game_id, state, seat)
            with drawn_words(monkeypatch) as words:
                image_view(game_id, state, seat, watcher=watcher)
                if getattr(module, "NARROW", False):
                    image_view(game_id, state, seat, watcher=watcher, narrow=True)
            view = text_view(game_id, state, seat, watcher=watcher)
            for words_said in quoted:
                view = view.replace(words_said, "…")
            seen += view.splitlines()
            seen += [w for w in words if not any(w.strip(" .…") in q for q in quoted)]
    return seen


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_watchers_view_never_says_you(game_id, monkeypatch):
    assert getattr(renderer(game_id), "WATCHER", False), "the renderer has no watcher's view"
    said = [line for line in _views(game_id, monkeypatch, watcher=True) if YOU.search(line)]
    assert not said, said[:8]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_players_own_view_still_says_you(game_id, monkeypatch):
    """The seat's own text view (an LLM's prompt, the page's text) and picture still speak
    to the player."""
    under_way, end = _states(game_id)
    assert all(YOU.search(text_view(game_id, state, seat))
               for state in (under_way, end) for seat in _seats(state))
    drawn = []
    for state in (under_way, end):
        for seat in _seats(state):
            with drawn_words(monkeypatch) as words:
                image_view(game_id, state, seat)
            drawn += words
            if any(YOU.search(w) for w in words):
                return
    raise AssertionError(f"no picture says you: {drawn[:12]}")


@pytest.mark.parametrize("game_id", ["kuhn_poker", "liars_dice", "first_sealed_auction",
                                     "air_land_sea"])
def test_a_watchers_view_of_a_seat_hides_what_the_seat_cannot_see(game_id):
    """A watcher's copy of a seat's view is the same in every world that seat cannot tell
    apart (the other hands, dice and bids stay hidden until the end)."""
    from agents.search import consistent_worlds

    states = [s for s in random_states(get(game_id), 1)
              if not s.is_chance_node() and not s.is_terminal()]
    hidden = 0
    for state in states[:: max(1, len(states) // 4)]:
        for seat in range(state.num_players()):
            worlds, _ = consistent_worlds(state, seat)
            hidden += len({str(w) for w in worlds}) > 1
            text = text_view(game_id, state, seat, watcher=True)
            picture = image_view(game_id, state, seat, watcher=True).tobytes()
            for world in worlds[:3]:
                assert text_view(game_id, world, seat, watcher=True) == text
                assert image_view(game_id, world, seat, watcher=True).tobytes() == picture
    assert hidden, "no state had anything to hide"
