"""Tests written where mutation testing found a rule of ``tournaments/schedule.py`` no test
would notice going wrong (``python benchmarks/bench_mutation.py tournaments/schedule.py``)."""
