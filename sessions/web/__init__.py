"""The page's side of play: everything a browser session needs, as plain Python first.

``play`` (``PlaySession``: one game as the page drives it — clicks, buttons, typed moves,
agents replying in the background, the screen to show), ``clicks`` (selections on a board:
piece, then destination), ``players`` (people, consent, the opponent lists and how seats are
named on screen), ``llm_page`` and ``llm_panel`` (language-model opponents: keys, the live
thinking panel; ``llm_panel_html`` draws it), ``gama_screen`` (GAMA-Bench's tables),
``replays`` (History's replays). None of these import Gradio, so they are tested without a
browser. ``tabs/`` holds the Gradio tab builders and their handlers.

May import ``sessions``, ``sessions.ratings``, ``agents``, ``renderers`` and ``games``.
"""
