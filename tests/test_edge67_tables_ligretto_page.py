"""A Ligretto run's report heads its counts "rounds", end to end: the page was rendered with
the default unit, so a round of Ligretto was headed "games" (summary, lengths, means) while
the run block and the charts said rounds."""

from __future__ import annotations

import re

from leaves_cli.main import main


def _run(tmp_path, monkeypatch, *args: str) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # main sets it
    monkeypatch.setenv("COLUMNS", "200")
    try:
        main(list(args))
    except SystemExit as exc:
        assert not exc.code, exc.code


def test_a_ligretto_report_heads_its_counts_rounds(tmp_path, monkeypatch):
    run = tmp_path / "lg"
    _run(tmp_path, monkeypatch, "tournament", "--game", "ligretto", "row", "stack", "cycler",
         "--players", "3", "--games", "60", "--jobs", "1", "--out", str(run))  # fmt: skip
    _run(tmp_path, monkeypatch, "report", str(run))
    page = (run / "report" / "report.html").read_text(encoding="utf-8")
    heads = set(re.findall(r"<th[^>]*>([a-z_]+)</th>", page))
    assert {"rounds", "valid_seats"} <= heads, sorted(heads)
    assert not {h for h in heads if "games" in h}, sorted(heads)
