"""A report's gauntlet table of a run too small for an interval leaves its interval and p-value
cells blank: the section says why, as the significance section does, and a run with the
interval says nothing of the kind."""

from __future__ import annotations

import pytest

from tests.helpers import cli

CANNOT = "This run cannot tell: it has too few deals for an interval of the difference"


def _gauntlet_lead(capsys, out, games: str) -> str:
    code, _, err = cli(capsys, "gauntlet", "greedy", "--against", "weighted", "--baseline",
                       "taker", "--players", "3", "--games", games, "--seed", "1", "--jobs", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "report", str(out), "--format", "md")
    assert code == 0, err
    page = (out / "report" / "report.md").read_text(encoding="utf-8")
    section = page.split("## Gauntlet\n", 1)[1]
    return section.strip().split("\n\n", 1)[0]


@pytest.mark.slow
@pytest.mark.parametrize(("games", "said"), [("12", True), ("120", False)])
def test_the_gauntlet_section_says_why_its_interval_cells_are_blank(tmp_path, capsys, games,
                                                                   said):  # fmt: skip
    lead = _gauntlet_lead(capsys, tmp_path / games, games)
    assert (CANNOT in lead) is said, lead
