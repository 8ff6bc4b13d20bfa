"""Storage: players, and games as seeds plus moves. SQLAlchemy 2 on SQLite or PostgreSQL.

The store knows the game only as records: seeds, rules and move texts. It never
imports the engine; the server turns what it loads into a live table.
"""

from sheepshead.store.database import open_engine
from sheepshead.store.games import Store, StoredGame, StoredHand, new_id
from sheepshead.store.migrate import migrate

__all__ = ["Store", "StoredGame", "StoredHand", "migrate", "new_id", "open_engine"]
