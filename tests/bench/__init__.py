"""Benchmarks (``make bench``). Each prints a ratio against a baseline measured in the same run,
so numbers compare across machines; none of them asserts a time."""
