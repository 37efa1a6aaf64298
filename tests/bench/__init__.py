"""Tests of the benchmarks' own logic (the benchmarks run from ``bench/``)."""
