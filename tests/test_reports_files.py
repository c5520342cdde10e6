"""Report files: pinned CSVs, self-contained HTML, Markdown, run loading, the CLI command."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pandas as pd
import pytest
from click.testing import CliRunner

import reports
from leaves_cli.main import cli
from reports.synthetic import synthetic_expert, synthetic_games, write_run

STRENGTHS = {"greedy": 0.8, "counter(depth=2)": 0.4, "random": -0.8, "cautious": 0.0}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    games = synthetic_games(STRENGTHS, players=(3, 4), deals=15, seed=1)
    return write_run(tmp_path_factory.mktemp("run") / "plain", games, part_rows=200)


@pytest.fixture(scope="module")
def expert_dir(tmp_path_factory):
    games, matches = synthetic_expert(STRENGTHS, players=(3,), matches=10, seed=2)
    return write_run(tmp_path_factory.mktemp("run") / "expert", games, matches)


PINNED = {
    "summary.csv": ["strategy", "games", "wins", "win_rate", "ci_low", "ci_high"],
    "head_to_head.csv": ["strategy", "opponent", "shared", "ahead", "behind", "ties"],
    "seats.csv": ["n_players", "position", "games", "wins", "win_rate", "ci_low", "ci_high"],
    "neighbours.csv": ["strategy", "before", "games", "wins", "win_rate", "ci_low", "ci_high"],
    "lengths.csv": [
        "by",
        "group",
        "measure",
        "games",
        "mean",
        "std",
        "min",
        "p10",
        "p25",
        "median",
    ],
}
EXTERNAL = re.compile(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", re.IGNORECASE)


def test_load_run_reads_all_parts(run_dir):
    run = reports.load_run(run_dir)
    assert len(list((run_dir / "games").glob("*.parquet"))) > 1
    assert len(run.games) == len(pd.read_parquet(run_dir / "games"))
    assert run.games.deal is not None and run.manifest["games"] == len(run.games)
    assert set(run.games.labels) == set(STRENGTHS)


@pytest.mark.slow
def test_html_report_files(run_dir, tmp_path):
    path = reports.build_report(run_dir, out=tmp_path / "r")
    assert path == tmp_path / "r" / "report.html"
    for name, cols in PINNED.items():
        df = pd.read_csv(tmp_path / "r" / name)
        assert list(df.columns[: len(cols)]) == cols
        assert len(df)
    summary = pd.read_csv(tmp_path / "r" / "summary.csv")
    games = pd.read_parquet(run_dir / "games")
    assert summary["strategy"].iloc[0] == "greedy"
    assert summary["wins"].sum() == (games["winner_seat"] >= 0).sum()
    assert summary["games"].sum() == games["n_players"].sum()
    assert not (tmp_path / "r" / "expert.csv").exists()
    page = path.read_text()
    assert page.count("data:image/png;base64,") >= 5
    assert not EXTERNAL.search(page)
    assert "<script" not in page and "<link" not in page
    assert "Tournament spec and versions" not in page and "greedy" in page
    assert '"integrity"' not in page and "<pre>" not in page  # a run summary, not the manifest
    assert "<dt>seed</dt>" in page and "<dt>versions</dt>" in page
    assert "whom do you want to sit after?" in page
    for chart in ("win_rates", "head_to_head", "seats", "neighbours", "lengths_turns", "rating"):
        assert (tmp_path / "r" / "charts" / f"{chart}.png").stat().st_size > 1000


@pytest.mark.slow
def test_markdown_report(run_dir, tmp_path):
    path = reports.build_report(run_dir, out=tmp_path / "m", fmt="md")
    assert path.name == "report.md"
    text = path.read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert images and all((tmp_path / "m" / img).exists() for img in images)
    assert "| strategy | games | wins | win_rate | ci_low | ci_high |" in text
    assert "paired by duplicate set" in text


@pytest.mark.slow
def test_expert_report(expert_dir, tmp_path):
    reports.build_report(expert_dir, out=tmp_path / "e")
    e = pd.read_csv(tmp_path / "e" / "expert.csv")
    assert {"strategy", "matches", "match_wins", "match_win_rate", "points_per_game"} <= set(e)
    assert (tmp_path / "e" / "charts" / "expert_scores.png").exists()
    assert "Expert variant" in (tmp_path / "e" / "report.html").read_text()


@pytest.mark.slow
def test_accepts_results_object_and_frames(run_dir, tmp_path):
    by_obj = reports.summary(SimpleNamespace(out=run_dir))
    frame = pd.read_parquet(run_dir / "games")
    by_frame = reports.summary(frame)
    pd.testing.assert_frame_equal(by_obj, by_frame)
    path = reports.build_report(SimpleNamespace(games=frame), out=tmp_path / "o", fmt="md")
    assert path.exists()


def test_bad_format(run_dir, tmp_path):
    with pytest.raises(ValueError, match="format"):
        reports.build_report(run_dir, out=tmp_path, fmt="pdf")


@pytest.mark.slow
def test_cli_report(run_dir, tmp_path):
    res = CliRunner().invoke(cli, ["report", str(run_dir), "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "c" / "report.html").exists()
    res = CliRunner().invoke(cli, ["report", str(run_dir), "--out", str(tmp_path / "d"),
                                   "--format", "md"])  # fmt: skip
    assert res.exit_code == 0 and (tmp_path / "d" / "report.md").exists()


def test_cli_help_has_examples():
    res = CliRunner().invoke(cli, ["report", "--help"])
    assert res.exit_code == 0 and "Examples:" in res.output and "leaves report runs/a" in res.output


@pytest.mark.parametrize(
    ("setup", "message", "code"),
    [
        ("missing", "run directory not found", 2),
        ("file", "not a run directory", 2),
        ("bare", "not a run directory", 2),
        ("empty", "no games", 1),
        ("corrupt", "part-0.parquet is bad: not a Parquet part as a run writes them", 1),
        ("manifest", "corrupt manifest", 1),
        ("columns", "pinned column", 1),
        ("rows", "nothing vouches for the rows", 2),
    ],
)
def test_cli_errors_are_one_line(tmp_path, setup, message, code):
    d = tmp_path / "run"
    if setup == "file":
        d.write_text("x")
    elif setup == "bare":
        d.mkdir()
    elif setup != "missing":
        (d / "games").mkdir(parents=True)
    if setup == "corrupt":
        (d / "games" / "part-0.parquet").write_bytes(b"not parquet")
    if setup in ("manifest", "columns"):
        df = synthetic_games({"a": 0.0, "b": 0.0, "c": 0.0}, deals=2, players=(3,))
        if setup == "columns":
            df = df.drop(columns=["winner_seat"])
        df.to_parquet(d / "games" / "part-0.parquet")
    if setup in ("empty", "corrupt", "columns"):  # rows a manifest vouches for (no checksums)
        (d / "manifest.json").write_text("{}")
    if setup == "rows":  # rows without the manifest that would vouch for them
        df = synthetic_games({"a": 0.0, "b": 0.0, "c": 0.0}, deals=2, players=(3,))
        df.to_parquet(d / "games" / "part-0.parquet")
    if setup == "manifest":
        (d / "manifest.json").write_text("{not json")
    res = CliRunner().invoke(cli, ["report", str(d)])
    assert res.exit_code == code
    assert message in res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("leaves: error:")
    assert "Traceback" not in res.output
