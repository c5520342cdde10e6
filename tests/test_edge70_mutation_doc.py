"""docs/mutation.md's table of the last run agrees with itself: its "equivalent (below)" column
counts the list below it, no row counts more mutants than it made, and the words on how long a
run takes are the table's seconds."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
ROW = re.compile(
    r"^\| `([^`]+)` \| (\d+) / (\d+) \| (\d+) \| (\d+) \| [\d.]+% \| ([\d,]+) \|$", re.M
)


@pytest.fixture(scope="module")
def listed() -> dict[str, dict[str, str]]:
    """The equivalent mutants the doc lists, per module, as the runner reads them."""
    spec = importlib.util.spec_from_file_location("bench_mutation",
                                                  ROOT / "benchmarks" / "bench_mutation.py")  # fmt: skip
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_mutation"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        return module.equivalents(DOC)
    finally:
        del sys.modules["bench_mutation"]


def _rows() -> list[tuple[str, int, int, int, int, int]]:
    rows = [(m[1], *(int(x.replace(",", "")) for x in m.groups()[1:])) for m in ROW.finditer(DOC)]
    assert len(rows) >= 50, "the table's rows were not read"
    return rows


def test_the_equivalent_column_counts_the_list_below(listed):
    for module, killed, made, equivalent, new, _ in _rows():
        assert equivalent == len(listed.get(module, {})), module
        assert killed + equivalent + new <= made, module


def test_the_words_on_run_time_are_the_tables():
    seconds = [row[-1] for row in _rows()]
    hours = re.search(r"add up to about ([\d.]+) hours", DOC)
    assert hours and float(hours[1]) == round(sum(seconds) / 3600, 1)
    span = re.search(r"one module from (\d+) s \(`[^`]+`\) to (\d+)\s+minutes", DOC)
    assert span and int(span[1]) == min(seconds) and int(span[2]) == round(max(seconds) / 60)
    assert "about an hour" not in DOC and "1 to 25 minutes" not in DOC
