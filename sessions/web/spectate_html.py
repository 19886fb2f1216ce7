"""The Watch tab's screen as HTML: a live game (from :class:`~sessions.web.spectate.Spectated`),
a finished game's replay, or a message; and the script that keeps a live screen up to date.

One ``gr.HTML`` shows it all (title, status, boards, thinking panels, moves, boards as text),
so a new screen is one string the server draws once per move and view and hands to every
spectator (:mod:`sessions.web.spectators`). Every text is escaped: names, moves and a
model's words are shown as text, never as markup. Boards are inline PNG images.

:data:`FOLLOW_JS` runs in the page: when the server hands the page a live screen carrying a
ticket, it asks the server for the screens that follow (one streamed response, or one request
per screen), shows each, until the game is over or the page follows something else.
"""

from __future__ import annotations

import base64
import html

from sessions.web.spectate import PANELS_CSS, Spectated, panels_html

TITLE, STATUS, HIDDEN, BOARD, BOARDS, MOVES, TEXT = (
    "watch-title", "watch-status", "watch-hidden", "watch-board", "watch-boards", "watch-moves",
    "watch-text")
"""The ids of the screen's parts (the browser tests find them by these)."""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _image(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f"<img src='data:image/png;base64,{data}' alt='{_e(alt)}'>"


def screen(*, title: str = "", status: str = "", note: str = "", caption: str = "",
           boards: list[tuple[bytes, str]] | None = None, moves: list[str] | None = None,
           text: str = "", panels: str = "", marker: str = "") -> str:
    """The screen's HTML. ``boards``: (PNG, caption) per board; ``panels``: HTML already
    escaped (:func:`sessions.web.spectate.panels_html`); ``marker``: see :func:`live`."""
    boards = boards or []
    parts = [marker]
    if title:
        parts.append(f"<div id='{TITLE}'><h3>{_e(title)}</h3></div>")
    lines = ([f"<b>{_e(status)}</b>"] if status else []) + ([_e(note)] if note else [])
    parts.append(f"<div id='{STATUS}'>{'<br>'.join(lines)}</div>")
    if caption:
        parts.append(f"<div id='{HIDDEN}'><em>{_e(caption)}</em></div>")
    if len(boards) == 1:
        parts.append(f"<div id='{BOARD}'>{_image(*boards[0])}</div>")
    elif boards:
        figures = "".join(f"<figure>{_image(png, cap)}<figcaption>{_e(cap)}</figcaption>"
                          f"</figure>" for png, cap in boards)
        parts.append(f"<div id='{BOARDS}'>{figures}</div>")
    if panels:
        parts.append(f"<div id='watch-panels'>{panels}</div>")
    if moves is not None:
        parts.append(f"<div id='{MOVES}'><label>Moves</label><textarea readonly rows='6'>"
                     f"{_e(chr(10).join(moves))}</textarea></div>")
    if text:
        parts.append(f"<details class='watch-text'><summary>Boards as text</summary>"
                     f"<textarea id='{TEXT}' readonly rows='8'>{_e(text)}</textarea>"
                     "</details>")
    count = len(moves or [])
    return f"<div class='watch-screen' data-moves='{count}'>{''.join(parts)}</div>"


def live(seen: Spectated, note: str = "") -> str:
    """A live game's screen for one view (the same for every spectator of that view)."""
    one = len(seen.boards) == 1
    caption = seen.hidden or (seen.boards[0].caption if one else "")
    texts = "\n\n".join(f"— {b.caption} —\n{b.text}" for b in seen.boards)
    return screen(title=seen.title, status=seen.status, note=note, caption=caption,
                  boards=[(b.png, b.caption) for b in seen.boards], moves=seen.moves,
                  text=texts, panels=panels_html(seen))


def marker(ticket: str, version: int, session: str = "", component: int = 0) -> str:
    """What makes a screen sent by a page's event a live one: the page then asks for the
    screens after ``version`` with ``ticket`` (screens sent in answer carry none), as
    ``session`` to the screen ``component``'s server functions."""
    return (f"<i hidden data-ticket='{_e(ticket)}' data-version='{int(version)}' "
            f"data-session='{_e(session)}' data-component='{int(component)}'></i>")


def with_marker(page: str, mark: str) -> str:
    head = "<div class='watch-screen'"
    start = page.index(head)
    end = page.index(">", start) + 1
    return page[:end] + mark + page[end:]


def message(text: str, *, title: str = "") -> str:
    """A screen with only a title and a sentence (nothing to follow)."""
    return screen(title=title, status="", note=text)


SCREEN_CSS = PANELS_CSS + """
.watch-screen { display: flex; flex-direction: column; gap: 0.6em; }
.watch-screen h3 { margin: 0.2em 0; }
#watch-board img { display: block; max-width: 100%; max-height: 75vh; height: auto;
  margin: 0 auto; }
#watch-boards { display: grid; gap: 0.6em;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 16em), 1fr)); }
#watch-boards figure { margin: 0; }
#watch-boards img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
#watch-boards figcaption { text-align: center; font-size: 0.9em; }
.watch-screen textarea { width: 100%; box-sizing: border-box; resize: vertical;
  font-family: var(--font-mono, monospace); font-size: 0.9em;
  color: var(--body-text-color); background: var(--input-background-fill);
  border: 1px solid var(--border-color-primary); border-radius: var(--radius-sm, 4px);
  padding: 0.4em; }
#watch-moves label { display: block; font-size: 0.9em; margin-bottom: 0.2em; }
.watch-text summary { cursor: pointer; }
.watch-stopped { font-weight: 600; }
"""
"""Styles of the screen (given to its ``gr.HTML``), with the thinking panels'."""

FOLLOW_JS = """
let following = null, mine = null;
const pause = (ms) => new Promise((done) => setTimeout(done, ms));
const scrollMoves = () => {
  const list = element.querySelector('#watch-moves textarea');
  if (list) list.scrollTop = list.scrollHeight;
};
const show = (page) => {
  const open = element.querySelector('details.watch-text')?.open;
  mine = open ? page.replace("<details class='watch-text'", "<details class='watch-text' open") : page;
  props.value = mine;
  setTimeout(scrollMoves, 0);
};
const stopped = (words) => {
  const status = element.querySelector('#watch-status');
  if (status && !status.querySelector('.watch-stopped')) {
    status.insertAdjacentHTML('afterbegin', '<div class="watch-stopped"></div>');
    status.querySelector('.watch-stopped').textContent = words;
  }
};
// one answer: true when the page asks no more
const answered = (ticket, answer, at) => {
  if (following !== ticket) return true;
  if (answer.stopped) {
    following = null;
    stopped('Live updates stopped while this page was away: refresh the page to follow ' +
            'the game again.');
    return true;
  }
  if (answer.html != null) show(answer.html);
  at.seen = answer.version ?? at.seen;
  if (answer.done) {
    following = null;
    trigger('end');
    return true;
  }
  return false;
};
// every answer in one streamed response (server-sent events); false if it cannot be had
const stream = async (ticket, at, mark) => {
  const config = window.gradio_config || {};
  const url = (config.root || '') + (config.api_prefix ?? '/gradio_api') + '/component_server/';
  let response;
  try {
    response = await fetch(url, {method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({data: [ticket, at.seen], fn_name: 'follow_stream',
                            component_id: Number(mark.component), session_hash: mark.session})});
  } catch (err) {
    return false;
  }
  const kind = response.headers.get('content-type') || '';
  if (!response.ok || !response.body || !kind.startsWith('text/event-stream')) return false;
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = '';
  try {
    while (following === ticket) {
      const {value, done} = await reader.read();
      if (done) return true;
      buffer += decoder.decode(value, {stream: true});
      let cut;
      while ((cut = buffer.indexOf('\\n\\n')) >= 0) {
        const message = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (message.startsWith('data: ') && answered(ticket, JSON.parse(message.slice(6)), at)) {
          reader.cancel();
          return true;
        }
      }
    }
    reader.cancel();
  } catch (err) {
    return true;  // the connection broke: ask again
  }
  return true;
};
const follow = async (ticket, mark) => {
  const at = {seen: Number(mark.version)};
  let failures = 0, streams = Boolean(mark.session && Number(mark.component));
  while (following === ticket) {
    if (streams) {
      const started = Date.now();
      streams = await stream(ticket, at, mark);
      if (following !== ticket) return;
      if (Date.now() - started < 2000) await pause(1000);  // a stream cut at once: not so fast
      continue;
    }
    let answer;
    try {
      answer = await server.follow_moves(ticket, at.seen);
      failures = 0;
    } catch (err) {
      failures += 1;
      await pause(Math.min(30000, 1000 * 2 ** failures));
      continue;
    }
    if (answered(ticket, answer, at)) return;
  }
};
const begin = () => {
  if (props.value === mine) return;
  const mark = element.querySelector('[data-ticket]');
  const ticket = mark ? mark.dataset.ticket : null;
  setTimeout(scrollMoves, 0);
  if (ticket === following) return;
  following = ticket;
  if (ticket) follow(ticket, {...mark.dataset});
};
watch('value', begin);
begin();
"""
"""Runs in the page (``js_on_load`` of the screen's ``gr.HTML``). It asks the screen's server
function ``follow_stream`` (:func:`sessions.web.tabs.watch.follow_stream`) for one streamed
response carrying every new screen (posting to Gradio's component server route as
``server.<name>`` does, so that it can read the answer as it comes); where that cannot be had,
it asks ``server.follow_moves`` for one screen at a time."""
