"""How fast: each script prints its figures beside a reference measured in the same run
(OpenSpiel's engines, a fixed pure-Python workload, the target of an issue), so that runs
on different machines compare.  ``python -m bench.speed.<name> --help``."""
