"""The page's side of play: everything a browser session needs, as plain Python first.

``play`` (``PlaySession``: one game as the page drives it — clicks, buttons, typed moves,
agents replying in the background, the screen to show), ``clicks`` (selections on a board:
piece, then destination), ``players`` (people, consent, the opponent lists and how seats are
named on screen), ``llm_page`` and ``llm_panel`` (language-model opponents: keys, the live
thinking panel; ``llm_panel_html`` draws it), ``gama_screen`` (GAMA-Bench's tables),
``replays`` (History's list and replays), ``scoreboard`` (players, clocks and the move
list beside the board), ``turns`` (a tab's inputs one at a time, answers in order),
``plain`` and ``play_html`` (every text panel as escaped HTML, and the page's CSS),
``reach`` (whether a language model's server answers), ``standings`` (the Leaderboard's
tables in people's words). None of these import Gradio, so they are tested without a
browser. ``tabs/`` holds the Gradio tab builders and their handlers.

May import ``sessions``, ``sessions.ratings``, ``agents``, ``renderers`` and ``games``.
"""
