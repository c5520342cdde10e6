"""What ``docs/tournaments.md`` says of the command line's summary table holds: the column
it names for the fair shares is the table's own header where the strategies' fair shares
differ (they set its order then)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_rank64_cli_order import _games, _lines, _run

DOC = Path(__file__).resolve().parents[1] / "docs" / "tournaments.md"


def test_the_fair_share_column_the_docs_name_is_the_summarys(monkeypatch, capsys):
    from leaves_cli.tournament_parts import summary_table

    text = " ".join(DOC.read_text().split())
    said = re.search(
        r"where their fair shares differ \([^)]*\) a `([^`]+)` column shows them", text
    )
    assert said, "docs/tournaments.md no longer says when the summary shows fair shares"
    monkeypatch.setenv("COLUMNS", "200")
    summary_table(_run(_games(drop_d_from_three=True)))
    header = _lines(capsys)[0]
    assert said.group(1) in [c.strip() for c in header.split("┃")]
    summary_table(_run(_games(drop_d_from_three=False)))
    assert said.group(1) not in "".join(_lines(capsys))
