"""The benchmarks: scripts run by hand, from the repository root, as modules::

    python -m bench.speed.skat_playouts --seconds 2 --rounds 6
    python -m bench.tuning.skat_strong_ab --a '{}' --b '{"auction_optimism": 8}'
    python -m bench.soak.server_crash --kills 100

Three kinds, a folder each (every module in them is a script; ``--help`` lists its
options, its docstring says what it measures):

- :mod:`bench.speed`: how fast, in figures compared with a reference measured in the
  same run (OpenSpiel's engines, a fixed workload, a target of an issue): the engines'
  playouts, the solver, the environments, the server's start, load and set-up costs.
- :mod:`bench.tuning`: how well the bots play and what their settings are worth: paired
  runs on the same deals (A/B of two settings, a bot against another), with 95 %
  intervals.
- :mod:`bench.soak`: the server's test scenarios, longer and at scale (kill -9, outages,
  leaks of hidden cards, cheap attacks): correctness more than speed.

What several scripts share lives here: :mod:`bench.engines` (engines raced in alternating
rounds, OpenSpiel's side), :mod:`bench.settings` (the settings of the A/B runs and their
frozen clock), :mod:`bench.measure` (a server process measured from outside).  The 95 %
interval is the arena's, :func:`stich.games.played.interval`.

The server scripts start servers with the test suite's helpers (``tests.server.harness``,
``tests.services``; the soak scripts run the scenarios of ``tests/server/``), and
``bench.tuning.ohhell_ismcts`` maps cards with ``tests.baptisten.openspiel_map``: run
from the repository root, ``tests`` is importable as a package.  (These helpers belong
where both can import them; ``tests/bench/test_scripts.py`` keeps the list from
growing.)  ``tests/bench/`` runs every script with tiny arguments or ``--help``.
"""
