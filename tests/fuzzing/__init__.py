"""Fuzzing: random expressions checked against the reference compile (expressions.py,
differential.py) and mutated rulesets (rulesets.py). Used by tests/test_fuzz_*.py (small,
seeded campaigns) and benchmarks/fuzz.py (long ones); docs/fuzzing.md."""
