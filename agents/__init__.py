"""Who decides: one small interface for every seat (classic agents, LLMs, the human).

``base`` (``Agent``, ``Decision``; a seat's view is ``games.seat_view.SeatView``), ``naming``
(the spec grammar: ``mcts:1000:2s``, ``openai/gpt-4o-mini+cot``), ``specs`` (spec → agent
for a game), ``classic`` (random, tit-for-tat), ``search`` (MCTS, IS-MCTS), ``gama``
(GAMA-Bench's bots) and ``llm/`` (language models through the official SDKs).

May import ``games`` and ``renderers`` (an LLM's prompt holds the text view, a vision model
gets the board image); never ``sessions``.
"""
