"""The rules on the Play tab (issue 22, item 18): our Markdown rendered formatted, the
developers' notes in a fold of their own, raw HTML shown as text."""

from __future__ import annotations

import pytest

from games.registry import all_games, get
from sessions.web import play_html
from sessions.web.rules_html import NOTES_TITLE, render, rules_html, split_notes


@pytest.mark.parametrize("game_id", ["air_land_sea", "arctic_scavengers", "pit", "sea_battle"])
def test_notes_for_developers_leave_the_rules_for_a_fold(game_id):
    rules, notes = split_notes(get(game_id).rules)
    assert "differs" in notes.splitlines()[0]
    assert "this differs" not in rules and "GameBench gave" not in rules
    assert "To play" in rules or "Playing here" in rules  # how to play stays
    shown = play_html.rules(get(game_id))
    head, fold = shown.split("<details", 1)
    assert "differs" not in head and NOTES_TITLE in fold and " open" not in fold.split(">")[0]


def test_every_game_s_rules_show_no_markdown_marks():
    for spec in all_games():
        shown = play_html.rules(spec)
        assert "**" not in shown and "|---" not in shown, spec.id
    table = play_html.rules(get("air_land_sea"))
    assert "<td>Heavy Tanks (Land)</td>" in table and "<strong>" in table


def test_html_in_the_rules_is_text_and_dollars_stay_dollars():
    shown = render("<img src=x onerror=alert(1)> costs $5 and **bold**")
    assert "<img" not in shown and "&lt;img" in shown
    assert "&#36;5" in shown and "<strong>bold</strong>" in shown
    assert rules_html("just rules") == "<div class='arena-rules'><p>just rules</p>\n</div>"
