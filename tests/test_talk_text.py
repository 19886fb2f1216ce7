"""Words at the table are kept whole and shown as written (issue 24 item 11): a line break
in typed talk never cuts the words after it, and NUL, zero-width and direction-override
characters are removed from talk and names."""

from __future__ import annotations

from sessions.web.play import PlaySession
from sessions.web.players import Person
from sessions.web.talk import talk_screen, visible

PERSON = Person("player-talk-text", consent=True)
HIDDEN = "\x00\u200b\u202e\u2066\ufeff"


def test_talk_after_a_line_break_is_kept_and_invisible_characters_are_removed():
    s = PlaySession("are_you_the_traitor", "random", person=PERSON, seat=0, seed=3)
    s.run_agents()
    said = s.play_text(f"say: I looked{HIDDEN} in room 2\nand found nothing\r\nat all")
    assert said == "Your move: say: I looked in room 2 and found nothing at all."
    mine = [line for line in talk_screen(s).lines if line.yours]
    assert mine[-1].text == "I looked in room 2 and found nothing at all"
    assert s.record.moves[-1].text == "I looked in room 2 and found nothing at all"


def test_shown_talk_and_display_names_carry_no_invisible_characters():
    assert visible(f"a{HIDDEN}b\nc") == "ab\nc"
    assert Person("player-talk-text", f"Ada{HIDDEN} L").display_name == "Ada L"
