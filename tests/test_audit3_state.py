"""Run states at the edges, third audit: what a run holds is what its manifest records (a
killed run's unrecorded parts are read by no report), a strategy with no valid game however
its games were forfeited, a live run, a run folder without its manifest, and the order of
the tournament's summary table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import reports
from tests.helpers import cli, one_error_line

FIELD = ["greedy", "low", "high", "minimal"]

BAD = """
from strategies import Strategy


class {name}(Strategy, register=False):
    classifier = {{"stochastic": False}}

    def choose(self, view, legal, rng):
        raise RuntimeError("always")
"""


def _bad(tmp: Path, name: str) -> str:
    path = tmp / f"{name.lower()}.py"
    path.write_text(BAD.format(name=name))
    return f"{path}:{name}"


def _as_killed(run: Path, keep: int) -> int:
    """Make a finished run look as a SIGKILL leaves one: every chunk's files on disk, the
    manifest (written last up to 2 s before) recording the first ``keep`` chunks only, still
    running. Returns the games it records."""
    m = json.loads((run / "manifest.json").read_text())
    chunks = m["integrity"]["chunks"]
    per_chunk = m["units_done"] // m["spec"]["n_chunks"]
    m["integrity"]["chunks"] = {k: v for k, v in chunks.items() if int(k) < keep}
    for rel in m["integrity"]["files"]:
        (run / rel).unlink()
    m["integrity"]["files"] = {}
    m["status"] = "running"
    m["units_done"] = keep * per_chunk
    (run / "manifest.json").write_text(json.dumps(m))
    return m["units_done"]


@pytest.fixture(scope="module")
def killed(tmp_path_factory) -> tuple[Path, int]:
    from tests.helpers import cli_output

    run = tmp_path_factory.mktemp("audit3") / "run"
    args = [*FIELD, "--players", "4", "--games", "480", "--chunk-size", "96", "--seed", "3"]
    assert cli_output("tournament", *args, "--jobs", "1", "--out", str(run))[0] == 0
    return run, _as_killed(run, keep=2)


def test_a_killed_run_is_read_as_far_as_its_manifest_records_it(killed):
    """Parts finished after the manifest's last write are on disk but vouched for by nothing
    (``--resume`` plays them again): loading reads the recorded parts only."""
    run, recorded = killed
    assert len(list((run / "games").glob("*.parquet"))) == 5 and recorded == 192
    assert len(reports.load_run(run).games) == recorded
    assert int(reports.summary(run)["games"].sum()) == 4 * recorded


def test_the_report_of_a_killed_run_counts_what_its_state_line_says(killed, capsys, tmp_path):
    run, recorded = killed
    code, out, err = cli(capsys, "report", str(run), "--format", "md", "--out", str(tmp_path))
    assert code == 0, err
    page = (tmp_path / "report.md").read_text()
    assert f"- **games**: {recorded:,}\n" in page
    assert f"{recorded:,} of 480 games" in out


def test_compare_of_a_killed_run_counts_its_recorded_deals(killed, capsys, tmp_path):
    run, recorded = killed
    code, out, err = cli(capsys, "compare", str(run), str(run), "--out", str(tmp_path))
    assert code == 0, err
    deals = recorded // 24  # one table of four, 24 seatings a deal
    assert f"dealt {deals:,} deals" in out or f"{deals:,} deals" in out, out


def test_the_forfeits_of_a_killed_run_are_counted_over_its_recorded_chunks(tmp_path, capsys):
    """The state's counts (games, forfeits, a strategy's games) come from the chunks the
    manifest records, as the report's rows do: not from chunk files it does not vouch for."""
    run = tmp_path / "run"
    args = [_bad(tmp_path, "Bad"), "greedy", "low", "taker", "--players", "3", "--games", "96"]
    cli(capsys, "tournament", *args, "--chunk-size", "24", "--seed", "1", "--jobs", "1",
        "--out", str(run))  # fmt: skip
    recorded = _as_killed(run, keep=2)
    games = reports.load_run(run).games
    assert len(games) == recorded == 48 and games.forfeited.all()
    code, out, _ = cli(capsys, "report", str(run), "--format", "md", "--out", str(tmp_path / "r"))
    assert code == 1 and f"Nothing valid: all {recorded} games ended by a forfeit" in out, out


def test_a_run_whose_manifest_says_running_is_not_simply_told_to_resume(killed, capsys, tmp_path):
    """A manifest saying "running": the run may be live, and a resume beside it would play the
    same chunks twice; or it was killed, and a resume is the way on. This hand-made run has no
    lock file (as a run played where locks are not available), so nothing tells the two apart
    and the report says both, the resume for a run nothing plays any more."""
    run, recorded = killed
    code, out, _ = cli(capsys, "report", str(run), "--format", "md", "--out", str(tmp_path))
    first = out.splitlines()[0]
    assert code == 0 and first.startswith(f"Unfinished run: {recorded:,} of 480 games"), first
    assert (
        "still being played: read it again once it ends, or, if nothing plays it any more" in first
    )
    assert first.endswith(f"continue it with 'leaves tournament --resume --out {run}'."), first


def test_two_always_failing_strategies_are_each_said_to_have_nothing_valid(tmp_path, capsys):
    """Bad and Bad2 at one table: the first to act forfeits, so neither forfeits every game it
    sat in itself, yet no game of either is valid (``reports.tables.summary``)."""
    out = tmp_path / "t"
    args = [_bad(tmp_path, "Bad"), _bad(tmp_path, "Bad2"), "greedy", "low", "taker"]
    code, stdout, err = cli(capsys, "tournament", *args, "--players", "3", "--games", "120",
                            "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    summ = reports.summary(out).set_index("strategy")
    assert summ.loc[["Bad", "Bad2"], "valid_games"].tolist() == [0, 0]
    assert code == 1, stdout
    assert "Nothing valid from Bad and Bad2" in stdout
    code, stdout, err = cli(capsys, "report", str(out), "--format", "md")
    assert code == 1 and "Nothing valid from Bad and Bad2" in stdout
    line = one_error_line(err.splitlines()[-1])
    assert line.endswith(f"no valid game of Bad, Bad2 in {out}: every one played ended by a "
                         "forfeit (the report says so first)"), line  # fmt: skip


def test_a_report_of_a_folder_without_its_manifest_fails_as_verify_does(tmp_path, capsys):
    run = tmp_path / "run"
    args = [*FIELD, "--players", "4", "--games", "48", "--seed", "3", "--jobs", "1"]
    assert cli(capsys, "tournament", *args, "--out", str(run))[0] == 0
    (run / "manifest.json").unlink()
    assert cli(capsys, "verify", str(run))[0] == 2
    code, out, err = cli(capsys, "report", str(run), "--format", "md")
    assert code != 0 and not (run / "report").exists()
    line = one_error_line(err.splitlines()[-1])
    assert "manifest" in line and "nothing vouches for" in line


def test_the_summary_table_puts_a_strategy_with_no_valid_game_last(tmp_path, capsys):
    """Seed 3: minimal wins none of its valid games (a measured 0%), Bad has none valid; the
    report's order (measured first) is the table's."""
    out = tmp_path / "t"
    args = [_bad(tmp_path, "Bad"), "minimal", "high", "taker"]
    code, stdout, _ = cli(capsys, "tournament", *args, "--players", "3", "--games", "24",
                          "--seed", "3", "--jobs", "1", "--out", str(out))  # fmt: skip
    order = [line.split("│")[1].strip() for line in stdout.splitlines() if "│" in line]
    assert order == reports.summary(out)["strategy"].tolist()
    assert order[-1] == "Bad"


def test_replay_of_a_killed_run_reads_only_the_games_its_manifest_records(killed, capsys):
    """Was: a game of a chunk the manifest never recorded replayed as one of the run's."""
    run, recorded = killed
    code, _, err = cli(capsys, "replay", str(run), "--game", str(recorded), "--all")
    assert code == 2, err
    assert f"(its {recorded} rows number their games 0 to {recorded - 1}," in one_error_line(err)
    code, out, err = cli(capsys, "replay", str(run), "--game", str(recorded - 1), "--all")
    assert code == 0, err


def test_the_python_result_of_a_killed_run_holds_what_its_manifest_records(killed):
    """Was: ``tournaments.load(out).games()`` and its aggregates read every chunk on disk."""
    from tournaments import load

    run, recorded = killed
    result = load(run)
    assert len(result.games()) == recorded
    assert int(result.aggregates()["games"].sum()) == 4 * recorded  # four seats a game
    assert int(result.summary_columns()["games"].sum()) == 4 * recorded
