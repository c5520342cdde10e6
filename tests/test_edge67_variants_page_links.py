"""The comparison page's Run block (``variants_page._overview``) links each run's manifest and
report relative to the page, so the folder can be moved whole: in ``leaves run --rules``'s
layout (the variant's run in OUT, its report in OUT/report, today's rules in OUT/default-rules,
the page in OUT/variants) and in ``leaves variants``' (each run in a folder beside the page);
a run whose report is not written yet gets the command that writes it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from leaves_cli.main import cli
from reports.variants import build_variants_report

FIELD = ("greedy", "low", "high")


def _play(out: Path, *rules: str) -> None:
    args = ["tournament", *FIELD, "--players", "3", "--games", "18", "--seed", "3", "--jobs",
            "1", *(a for r in rules for a in ("--rules", r)), "--out", str(out)]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output


def _run_block(page: Path) -> str:
    """The page's Run block: the list under its heading."""
    text = page.read_text(encoding="utf-8")
    start = text.index("<h2>Run</h2>")
    return text[start : text.index("</dl>", start)]


def _hrefs(block: str) -> list[str]:
    return [h for h in re.findall(r'href="([^"#]+)"', block) if not h.endswith(".csv")]


@pytest.fixture(scope="module")
def run_layout(tmp_path_factory) -> Path:
    """``leaves run --rules take=ends``'s folders, the variant's report written (a stand-in
    page: the Run block only asks whether it is there)."""
    out = tmp_path_factory.mktemp("links") / "ends"
    _play(out, "take=ends")
    _play(out / "default-rules")
    (out / "report").mkdir()
    (out / "report" / "report.html").write_text("<html></html>", encoding="utf-8")
    build_variants_report([("default", out / "default-rules"), ("take=ends", out)],
                          out / "variants")  # fmt: skip
    return out


def test_the_run_layout_links_relative_to_the_page(run_layout, tmp_path):
    block = _run_block(run_layout / "variants" / "report.html")
    hrefs = _hrefs(block)
    assert hrefs == ["../default-rules/manifest.json", "../manifest.json", "../report/report.html"]
    assert str(run_layout) not in block  # no machine path
    moved = tmp_path / "elsewhere"
    shutil.copytree(run_layout, moved)  # the folder moved whole: every link still holds
    for href in hrefs:
        assert (moved / "variants" / href).is_file(), href


def test_the_run_layout_gives_the_true_command_for_a_report_not_written(run_layout):
    block = _run_block(run_layout / "variants" / "report.html")
    assert "leaves report OUT/RULES" not in block
    said = re.search(r"in this page&#x27;s folder, (.*?) \(each writes", block)
    assert said and said.group(1) == "default: leaves report ../default-rules"
    assert (run_layout / "variants" / "../default-rules" / "manifest.json").is_file()


def test_the_variants_layout_links_the_runs_beside_the_page(tmp_path):
    out = tmp_path / "cmp"
    _play(out / "default")
    _play(out / "take=ends", "take=ends")
    page = build_variants_report([("default", out / "default"), ("take=ends", out / "take=ends")],
                                 out)  # fmt: skip
    block = _run_block(page)
    assert _hrefs(block) == ["default/manifest.json", "take=ends/manifest.json"]
    said = re.search(r"in this page&#x27;s folder, (.*?) \(each writes", block)
    assert said and said.group(1) == (
        "default: leaves report default; take=ends: leaves report take=ends"
    )
