"""Tests written where mutation testing found a rule of ``reports/neighbours.py`` no test
would notice going wrong (``python benchmarks/bench_mutation.py reports/neighbours.py``)."""
