"""The Play tab's text panels as HTML: the game bar, the players with their clocks, the status,
the notice, the move list, the rules. Every piece of text goes through
:mod:`sessions.web.plain` (escaped), so a typed ``<h1>``, a move label with ``\\`` or a format
hint with ``<column>R<row>`` shows as written. ``CSS`` is the page's style sheet (the board
first and largest, the panels beside it on wide screens and under it on narrow ones).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.registry import GameSpec
from sessions.web.plain import escape, tag
from sessions.web.rules_html import rules_html
from sessions.web.scoreboard import MoveRow, PlayerLine, clock, took

SEAT_WORDS = {"first": "you move first", "second": "you move second",
              "random": "seat drawn at random"}


def bar(title: str, opponents: str, seat: str) -> str:
    """The one-line bar that replaces the setup once a game starts."""
    return ("<div class='arena-bar'>" + tag("b", title) + " <span class='arena-dim'>vs</span> "
            + tag("span", opponents) + " <span class='arena-dim'>·</span> "
            + tag("span", seat) + "</div>")


def players(lines: Sequence[PlayerLine]) -> str:
    """Both seats with their side, time used, and a mark on the one to move."""
    if not lines:
        return ""
    rows = []
    for line in lines:
        classes = "arena-player" + (" arena-to-move" if line.to_move else "") + (
            " arena-you" if line.you else "")
        side = tag("span", line.side, cls="arena-side") if line.side and not line.you else ""
        rows.append(f"<div class='{classes}'><span class='arena-turn'></span>"
                    + tag("span", line.name, cls="arena-name") + side
                    + tag("span", clock(line.seconds), cls="arena-clock",
                          title="time used so far") + "</div>")
    return "<div class='arena-players'>" + "".join(rows) + "</div>"


def status(text: str, *, thinking: bool = False, over: bool = False) -> str:
    cls = "arena-status" + (" arena-thinking" if thinking else "") + (
        " arena-over" if over else "")
    return tag("div", text, cls=cls) if text else ""


def notice(text: str) -> str:
    return tag("div", text, cls="arena-notice") if text else ""


def move_list(rows: Sequence[MoveRow], *, viewing: int | None, frames: int) -> str:
    """The moves so far, newest at the bottom and scrolled into view (the box is anchored to
    its end), the last one marked, the one looked back at marked too."""
    if not rows:
        return "<div class='arena-moves arena-empty'>No moves yet.</div>"
    shown = frames - 1 if viewing is None else viewing
    marked = max((r.number for r in rows if r.frame <= shown), default=0)
    cells = []
    for row in rows:
        classes = "arena-move" + (" arena-chance" if row.label and row.who == "chance"
                                  else "")
        if row.number == len(rows):
            classes += " arena-last"
        if viewing is not None and row.number == marked:
            classes += " arena-viewed"
        cells.append(f"<tr class='{classes}'>" + tag("td", f"{row.number}.", cls="arena-n")
                     + tag("td", row.who, cls="arena-who") + tag("td", row.label, cls="arena-label")
                     + tag("td", took(row.seconds), cls="arena-took") + "</tr>")
    return ("<div class='arena-moves'><div><table>" + "".join(cells)
            + "</table></div></div>")


def about(spec: GameSpec) -> str:
    return ("<div class='arena-about'>" + tag("b", spec.title) + ": " + escape(spec.summary)
            + "<br>" + tag("i", spec.taxonomy.describe()) + "</div>")


def rules(spec: GameSpec) -> str:
    """The rules formatted, developers' notes in a fold (:mod:`sessions.web.rules_html`)."""
    return rules_html(spec.rules)


def hint(text: str) -> str:
    """The move format a typed move follows (``<column>R<row>`` shows as written)."""
    return tag("div", f"Format: {text}", cls="arena-hint") if text else ""


def note(text: str) -> str:
    """A line of notes under a picker (an opponent's description, a key note)."""
    return tag("div", text, cls="arena-note") if text else ""


HEAD = """<style>
@media (max-width: 700px) {  /* a phone: the board gets the width (Gradio scopes the CSS
                                below to the app's content, so page margins are set here) */
  .gradio-container .main { padding-left: 6px !important; padding-right: 6px !important; }
}
</style>
<script>
/* A click on the board that Gradio would drop without a word gets an answer on the board:
   Gradio's image sends no event for a click while the next image loads (its size is then 0)
   or on the margin beside a scaled image. Clicks it does send are answered by the server. */
(() => {
  const say = (board, text) => {
    let toast = board.querySelector(".arena-toast");
    if (!toast) {
      toast = document.createElement("div");
      toast.className = "arena-toast";
      toast.setAttribute("role", "status");
      board.appendChild(toast);
    }
    toast.textContent = text;
    toast.classList.add("arena-shown");
    clearTimeout(toast.hideLater);
    toast.hideLater = setTimeout(() => toast.classList.remove("arena-shown"), 2500);
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("#board button");
    const img = button && button.querySelector("img");
    if (!img) return;
    const board = button.closest("#board");
    if (!img.naturalWidth) {  /* exactly when Gradio drops it: an image still loading
                                  whose size is known is clicked, and answered by the server */
      say(board, "Not played: the board was being redrawn. Click again.");
      return;
    }
    const box = img.getBoundingClientRect();
    const scale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight, 1);
    const x = (event.clientX - box.left - (box.width - img.naturalWidth * scale) / 2) / scale;
    const y = (event.clientY - box.top - (box.height - img.naturalHeight * scale) / 2) / scale;
    if (Math.round(x) < 0 || Math.round(y) < 0 || Math.round(x) >= img.naturalWidth
        || Math.round(y) >= img.naturalHeight) {
      say(board, "Not played: that click was beside the board.");
    }
  }, true);
})();
</script>"""
"""For the page's <head>: what the scoped CSS cannot reach, and the board's answer to clicks
that Gradio drops without sending them (see the script)."""

CSS = """
/* the board first and largest; the panels beside it on wide screens, under it on narrow */
#board, #replay-board { border: none !important; box-shadow: none; background: none;
                        padding: 0; }
#board .image-container, #board .image-frame, #board button,
#replay-board .image-container, #replay-board .image-frame, #replay-board button {
  width: 100%; height: auto !important; border: none !important; outline: none;
  padding: 0; background: none; }
#board .image-frame, #replay-board .image-frame { display: flex; justify-content: center; }
/* never wider than drawn: Gradio reads a click on a board shown larger than its pixels at
   the wrong spot (its pointer maths caps the scale at 1), and upscaled pixels are blurred */
#board img, #replay-board img { width: auto !important; max-width: 100% !important;
  height: auto !important; max-height: 82vh; object-fit: contain; }
#board img { cursor: pointer; }
/* the move buttons as wide as their labels ("accept player 2's offer of 1, giving 1 Wheat"
   squeezed into an equal share of the row was one word per line), wrapping as needed */
#moves-buttons { flex-wrap: wrap; gap: 6px; }
#moves-buttons > button { flex: 0 1 auto !important; width: auto !important;
  min-width: 64px !important; padding: 6px 14px; }
#board { position: relative; }
.arena-toast { position: absolute; top: 10px; left: 50%; transform: translateX(-50%);
  background: rgba(32, 33, 36, 0.9); color: #fff; padding: 6px 12px; border-radius: 6px;
  font-size: 0.95em; opacity: 0; transition: opacity 0.2s; pointer-events: none;
  z-index: 20; max-width: 90%; text-align: center; }
.arena-toast.arena-shown { opacity: 1; }
#game-area { gap: 12px; align-items: flex-start; }
#side-column { gap: 8px; }
.arena-bar { font-size: 1.05em; padding: 4px 0; }
.arena-dim { opacity: 0.6; }
.arena-players { border: 1px solid var(--border-color-primary); border-radius: 8px;
                 overflow: hidden; }
.arena-player { display: flex; align-items: center; gap: 8px; padding: 8px 10px; }
.arena-player + .arena-player { border-top: 1px solid var(--border-color-primary); }
.arena-turn { width: 8px; height: 8px; border-radius: 50%; flex: none; }
.arena-to-move .arena-turn { background: #2e9d4b; }
.arena-to-move { background: var(--color-accent-soft, #fff4e6); }
.arena-name { flex: 1; font-weight: 600; }
.arena-side { font-size: 0.85em; opacity: 0.75; }
.arena-clock { font-variant-numeric: tabular-nums; font-size: 1.15em; font-weight: 600; }
.arena-status { font-size: 1.1em; font-weight: 600; padding: 2px 0; }
.arena-thinking { color: #8a5a00; }
.arena-notice { padding: 6px 10px; border-left: 4px solid #e4572e;
                background: var(--background-fill-secondary); border-radius: 4px; }
.arena-moves { max-height: 16em; overflow-y: auto; display: flex; flex-direction: column-reverse;
               border: 1px solid var(--border-color-primary); border-radius: 8px; }
.arena-moves table { width: 100%; border-collapse: collapse; font-size: 0.95em;
                     border: none !important; margin: 0 !important; }
.arena-moves tr, .arena-moves td { border: none !important; background: none; }
.arena-moves td { padding: 3px 8px !important; }
.arena-moves .arena-who { width: 30%; white-space: nowrap; overflow: hidden;
                          text-overflow: ellipsis; max-width: 9em; }
.arena-moves .arena-n { width: 3em; opacity: 0.6; text-align: right; }
.arena-moves .arena-label { font-family: var(--font-mono, monospace); white-space: pre-wrap;
                             word-break: break-word; }
.arena-moves .arena-took { text-align: right; opacity: 0.7; font-variant-numeric: tabular-nums;
                           white-space: nowrap; }
.arena-chance { opacity: 0.7; font-style: italic; }
.arena-last { background: var(--color-accent-soft, #fff4e6); font-weight: 600; }
.arena-viewed { outline: 2px solid #f2b600; outline-offset: -2px; }
.arena-empty { padding: 8px 10px; opacity: 0.7; display: block; }
.arena-rules p { margin: 0 0 0.6em 0; }
.arena-note { font-size: 0.92em; opacity: 0.85; }
#nav button { min-width: 0; }
.arena-title { font-size: 1.1em; }
#page-data, #moves, #llm-turn, #move-number { display: none !important; }
/* the page says "… is thinking" itself: no progress timer over the board and its text
   panels (gr.HTML shows one whatever the event's show_progress says; over the board it
   caught the second of two quick clicks, which then never reached the server) */
:is(#board, #notice, #status, #players, #move-list, #bar-text, #llm-panel, #table-seats,
    #standing,
    #typed-hint, #key-note, #opponent-note, #about, #rules, #replay-caption,
    #history-count, #profile) [data-testid="status-tracker"] { display: none !important; }
#game-bar { align-items: center; }
#new-game { flex-grow: 0; }
.arena-hint { font-size: 0.85em; opacity: 0.8; }
@media (max-width: 700px) {
  #game-area { gap: 6px; }
  #board img { max-height: none; }
  .arena-moves { max-height: 10em; }
}
"""
