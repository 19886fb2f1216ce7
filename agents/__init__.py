"""Who decides: one small interface for every seat (classic agents, LLMs, the human)."""
