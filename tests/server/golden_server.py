"""`stich serve` with the tables' secret seeds drawn from a fixed seed, for the golden
test (``tests/server/test_golden.py``): ``python -m tests.server.golden_server serve …``.

Only :func:`secrets.randbits` is made repeatable (the lobby draws each table's seed with
it; the deals, the seats and the bots' choices all come from that seed).  Ids, invites,
tokens and game keys stay random: the golden test names them by their first appearance.
``STICH_GOLDEN_SEED`` chooses the stream; a restarted server gets another one, so that a
seed is never drawn twice.
"""

from __future__ import annotations

import os
import random
import secrets
import sys


def main() -> None:
    rng = random.Random(int(os.environ.get("STICH_GOLDEN_SEED", "1")))
    secrets.randbits = rng.getrandbits  # type: ignore[assignment]
    from stich.cli import main as stich_main

    sys.argv = ["stich", *sys.argv[1:]]
    stich_main()


if __name__ == "__main__":
    main()
