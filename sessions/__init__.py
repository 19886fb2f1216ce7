"""A game being played and its record: match engine, store, tournaments, ratings, CLI."""
