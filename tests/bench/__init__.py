"""The benchmarks (`make bench`: `python -m tests.bench.run`); RESULTS.md is their report."""
