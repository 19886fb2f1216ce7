"""The page's Gradio code, one module per tab (as FastChat composes its tabs): each has a
``build_*`` function that lays the tab out and wires its events to handlers of a few lines.

``play`` (with ``table`` for GAMA-Bench's tables and ``llm`` for language-model opponents),
``history``, ``leaderboard``, ``consent`` (the first-use question and "Your data") and ``api``
(the hidden endpoints for gradio_client); ``site`` holds what they share (the store, the open
games). This is the only package that imports Gradio; it may import everything below it
(``sessions.web``, ``sessions``, ``sessions.ratings``, ``games``), and nothing imports it but
``app.py``.
"""
