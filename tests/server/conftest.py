"""The server tests' fixtures, defined in serverkit.py.

Helpers live in a module with its own name, not in conftest.py, so that
``from serverkit import ...`` resolves to this directory even when pytest
collects the server and web tests (which have a conftest.py too) together.
"""

from playedgames import played_games_dir

from rediskit import redis_server
from serverkit import db_url, harness, policies, postgres_url, store

__all__ = ["db_url", "harness", "played_games_dir", "policies", "postgres_url", "redis_server", "store"]
