"""Rules: the game registry and the legal-action adapter."""
