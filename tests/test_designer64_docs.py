"""A clear difference of rule variants is defined once, in the designer's guide, with both of
the conditions the code applies (``reports.variants_words.clear_when``); the reports page
points to it rather than stating a narrower rule of its own."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _sentences_with_clear(text: str) -> list[str]:
    flat = " ".join(text.split())
    return [s for s in re.split(r"(?<=[.;])\s", flat) if "**clear**" in s]


def test_the_reports_page_points_to_the_one_definition_of_a_clear_difference():
    (said,) = _sentences_with_clear((DOCS / "reports.md").read_text())
    assert "(variants.md#what-the-report-measures)" in said
    assert "Holm" not in said  # no second, narrower definition


def test_the_guide_defines_a_clear_difference_as_the_code_decides_it():
    guide = (DOCS / "variants.md").read_text()
    assert "\n## What the report measures\n" in guide
    (said,) = _sentences_with_clear(guide)
    assert "significant after Holm's correction" in said
    assert "interval excludes 0" in said
