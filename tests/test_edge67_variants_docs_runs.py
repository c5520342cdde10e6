"""The comparison's runs table (variants_runs.csv, and the page's "Every measure" section that
shows it) names each run's folder relative to the page's folder: in ``leaves run --rules``'s
layout (the variant's run in OUT, today's rules in OUT/default-rules, the page in
OUT/variants) it wrote the machine's absolute paths of both runs, which break when the folder
moves and say where it was made."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from leaves_cli.main import cli
from reports.variants import build_variants_report


def _play(out: Path, *rules: str) -> None:
    args = ["tournament", "greedy", "low", "high", "--players", "3", "--games", "18", "--seed",
            "3", "--jobs", "1", *(a for r in rules for a in ("--rules", r)), "--out", str(out)]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def layout(tmp_path_factory) -> Path:
    """``leaves run --rules take=ends``'s folders with the comparison page in OUT/variants."""
    out = tmp_path_factory.mktemp("runs") / "ends"
    _play(out, "take=ends")
    _play(out / "default-rules")
    build_variants_report([("default", out / "default-rules"), ("take=ends", out)],
                          out / "variants")  # fmt: skip
    return out


def test_the_runs_table_names_each_run_relative_to_the_page(layout, tmp_path):
    page = layout / "variants"
    runs = pd.read_csv(page / "variants_runs.csv", keep_default_na=False)
    assert runs["run"].tolist() == ["../default-rules", ".."]
    moved = tmp_path / "elsewhere"
    shutil.copytree(layout, moved)  # the folder moved whole: each name still finds its run
    for run in runs["run"]:
        assert (moved / "variants" / run / "manifest.json").is_file(), run


def test_the_page_shows_no_machine_path(layout):
    html = (layout / "variants" / "report.html").read_text(encoding="utf-8")
    every = html[html.index("Every measure and difference") :]
    assert "<td>../default-rules</td>" in every and "<td>..</td>" in every
    assert str(layout) not in html and str(layout.resolve()) not in html
