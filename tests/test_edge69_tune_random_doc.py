"""docs/tuning.md's first example reads the verification only where there is one: a search
that comes back to the start plays none (``res.verification`` is None), and reading
``res.verification.diff`` then raised AttributeError."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "tuning.md"


def test_the_example_reads_the_verification_only_where_there_is_one():
    text = DOC.read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    lines = example.splitlines()
    reads = [i for i, line in enumerate(lines) if "res.verification." in line]
    assert reads
    for i in reads:
        guard = [line for line in lines[:i] if "if res.verification is not None" in line]
        assert guard and lines[i].startswith("    "), lines[i]
