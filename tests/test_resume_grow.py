"""``leaves tournament --out DIR --resume``: nothing else needed, given options must agree,
``--games``/``--add`` grow a run exactly into the run asked for at once; ``--load``; an
``--out`` that cannot be written is one line before anything is announced."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from leaves_cli.main import main
from tournaments import Tournament, load

ROOT = Path(__file__).resolve().parents[1]
THREE = ["greedy", "low", "high"]


def cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _spec(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())["spec"]


def test_resume_needs_only_out_even_with_a_fresh_seed(tmp_path, capsys):
    out = tmp_path / "a"
    args = ["tournament", *THREE, "--players", "3", "--games", "30", "--jobs", "1"]
    assert cli(capsys, *args, "--out", out)[0] == 0
    seed = _spec(out)["seed"]
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--jobs", "1")
    assert code == 0, err
    assert "resume: 1 of 1 chunks verified" in err
    code, _, err = cli(capsys, *args, "--out", out, "--resume")  # the same command again
    assert code == 0, err
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--seed", "3")
    assert code == 2 and err.count("\n") == 1
    said = (
        f"--seed 3 differs from this run's seed {seed}: resume with --seed {seed}, or drop --seed"
    )
    assert f"cannot resume {out}: {said}" in err
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--players", "4")
    assert code == 2 and "--players 4 differs from this run's players 3" in err
    code, _, err = cli(capsys, "tournament", "greedy", "low", "--out", out, "--resume")
    said = "strategies greedy,low differs from this run's strategies greedy,high,low"
    assert code == 2 and f"{said}: give no strategies" in err


def test_resume_without_a_run_is_one_line(tmp_path, capsys):
    code, _, err = cli(capsys, "tournament", "--out", tmp_path / "none", "--resume")
    assert code == 2 and err.count("\n") == 1 and "holds no run" in err


def _same_run(grown: Path, whole: Path) -> None:
    a, b = load(grown), load(whole)
    pd.testing.assert_frame_equal(a.games(), b.games())
    agg_a = np.load(grown / "aggregates.npz")
    agg_b = np.load(whole / "aggregates.npz")
    assert sorted(agg_a.files) == sorted(agg_b.files)
    for key in agg_b.files:
        assert np.array_equal(agg_a[key], agg_b[key]), key


def test_growing_a_finished_run_equals_the_run_asked_at_once(tmp_path, capsys):
    out = tmp_path / "grown"
    base = ["tournament", *THREE, "--players", "3", "--seed", "7", "--jobs", "1"]
    assert cli(capsys, *base, "--games", "30", "--out", out)[0] == 0
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--games", "90",
                       "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert "growing" in err and "30 -> 90 games" in err
    assert _spec(out)["deal_stages"] == [5, 15]
    Tournament(THREE, players=3, games=90, seed=7).run(out=tmp_path / "whole")
    _same_run(out, tmp_path / "whole")
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--add", "30",
                       "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert _spec(out)["n_games"] == 120 and load(out).complete
    Tournament(THREE, players=3, games=120, seed=7).run(out=tmp_path / "whole120")
    _same_run(out, tmp_path / "whole120")
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--games", "60")
    assert code == 2 and "never shrinks" in err and err.count("\n") == 1


def test_add_needs_resume(tmp_path, capsys):
    code, _, err = cli(capsys, "tournament", *THREE, "--add", "10", "--out", tmp_path / "x")
    assert code == 2 and "--add needs --resume" in err


def test_precision_grows_a_resumed_run(tmp_path, capsys):
    out = tmp_path / "p"
    base = ["tournament", *THREE, "--players", "3", "--seed", "4", "--jobs", "1"]
    assert cli(capsys, *base, "--games", "120", "--out", out, "--no-progress")[0] == 0
    code, stdout, err = cli(capsys, "tournament", "--out", out, "--resume", "--precision", "4",
                            "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert "precision +-4 percentage points reached" in stdout
    assert len(_spec(out)["deal_stages"]) >= 2 and _spec(out)["deal_stages"][0] == 20


@pytest.mark.slow
def test_load_registers_strategies_for_the_tournament_and_its_resume(tmp_path, capsys):
    mine = ROOT / "examples" / "my_strategy.py"
    out = tmp_path / "mine"
    code, stdout, err = cli(capsys, "tournament", "hoarder", "greedy", "low", "--players", "3",
                            "--games", "12", "--seed", "1", "--jobs", "1", "--load", mine,
                            "--out", out)  # fmt: skip
    assert code == 0, err
    assert "hoarder" in stdout
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--jobs", "1")
    assert code == 0, err  # the file is loaded again from the manifest's entrants
    # in this process the name stays registered, and a run by name alone plays it, its workers
    # too (they were told "unknown strategy": a worker never loaded the file)
    code, _, err = cli(capsys, "tournament", "hoarder", "greedy", "--games", "12", "--jobs", "2",
                       "--out", tmp_path / "again")  # fmt: skip
    assert code == 0, err


def test_summary_prints_percentages_and_counts_seats(tmp_path, capsys):
    code, stdout, err = cli(capsys, "tournament", *THREE, "--players", "3", "--games", "6",
                            "--seed", "1", "--jobs", "1", "--out", tmp_path / "s")  # fmt: skip
    assert code == 0, err
    head = stdout.splitlines()[2]
    assert "seats" in head and "games" not in head
    assert "%" in stdout and "0." not in stdout.split("win rate")[1].split("│")[3]
    assert "1 table x 1 deal x 6 seatings (balanced; asked 6)" in err


@pytest.mark.parametrize("command", ["tournament", "gauntlet", "run"])
def test_out_under_a_file_is_one_line_before_anything_is_announced(tmp_path, capsys, command):
    afile = tmp_path / "afile"
    afile.write_text("x")
    args = {
        "tournament": ["tournament", *THREE, "--players", "3", "--games", "6"],
        "gauntlet": ["gauntlet", "greedy", "--against", "low", "--players", "3", "--games", "6"],
        "run": ["run", "--games", "1", "--players", "3"],
    }[command]
    code, stdout, err = cli(capsys, *args, "--jobs", "1", "--out", afile / "sub")
    assert code == 1, err
    assert err == f"leaves: error: cannot write to {afile / 'sub'}: {afile} is not a directory " \
                  "(--out)\n"  # fmt: skip
    assert "results in" not in stdout + err and not stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder anyway")
def test_out_in_a_read_only_folder_is_one_line(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        code, stdout, err = cli(capsys, "tournament", *THREE, "--players", "3", "--games", "6",
                                "--out", ro / "run")  # fmt: skip
    finally:
        ro.chmod(0o700)
    assert code == 1 and err.startswith(f"leaves: error: cannot write to {ro / 'run'}: ")
    assert err.count("\n") == 1 and "results in" not in err


@pytest.mark.slow
def test_a_run_recorded_under_the_games_former_name_resumes_and_grows(tmp_path, capsys):
    # runs written before 13 Leaves had one id recorded it as "13leaves"
    out = tmp_path / "old"
    base = ["tournament", *THREE, "--players", "3", "--seed", "4", "--jobs", "1"]
    assert cli(capsys, *base, "--games", "30", "--out", out)[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["spec"]["game"] = manifest["game_declaration"]["name"] = "13leaves"
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "tournament", "--out", out, "--resume", "--games", "60",
                       "--jobs", "1")  # fmt: skip
    assert code == 0, err
    Tournament(THREE, players=3, games=60, seed=4).run(out=tmp_path / "whole")
    _same_run(out, tmp_path / "whole")
    assert cli(capsys, "report", out)[0] == 0
