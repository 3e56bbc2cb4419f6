"""The tests: tests/ mirrors app/ and ui/; tests/support holds the shared helpers, tests/bench the
benchmarks."""
