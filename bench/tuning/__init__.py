"""How well the bots play and what their settings are worth: paired runs on the same deals
(two settings of ``strong`` against each other, a bot against another, a bot's estimates
against the games played out), with 95 % intervals; the A/B runs sample a fixed number
of worlds on a frozen clock, so their results do not depend on the machine.
``python -m bench.tuning.<name> --help``."""
