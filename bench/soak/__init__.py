"""The server's test scenarios (``tests/server/``), longer and at scale: kill -9 at random
moments, outages of the database and Redis, a monitor of hidden cards on real traffic,
cheap attacks.  Each prints what went wrong (must be nothing) and how long recovery took.
``python -m bench.soak.<name> --help``."""
