"""The command line at its edges: what it says where a sequential test weighed no spread, output
cut short, SIGTERM and --resume of 'leaves run', which seed a replay names, what --game
counts, the means' intervals, and filters or hints that give nothing."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.helpers import cli, one_error_line

ROOT = Path(__file__).resolve().parents[1]
FIELD = ["greedy", "low", "high", "minimal"]


def test_a_sequential_test_that_saw_no_spread_says_so_and_decides_as_it_says():
    """Every duplicate set the same: far above the margin the LLR is +inf (no sets counted)
    and the test decides; below half the margin there is no LLR and no decision (it was -inf,
    'not better'); neither sentence calls that too few deals."""
    from reports.gauntlet import sequential_sentence
    from reports.numbers import TOO_FEW
    from tournaments.sequential import BETTER, NOT_BETTER, Sequential

    test = Sequential(margin=0.005)
    assert test.update(0.0, 0.0) is None and math.isnan(test.llr)
    for diff, decision, favoured in ((0.01, BETTER, "favoured +0.5 over 0"),):
        test = Sequential(margin=0.005)
        assert test.update(diff, 0.0) == decision
        rec = test.record(4000)
        row = {"strategy": "a", "baseline": "b", "games": 4000, "diff": diff,
               "diff_ci_low": diff, "diff_ci_high": diff,
               **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip
        text = sequential_sentence(row)
        sign = "-" if decision == NOT_BETTER else "+"
        assert (f"LLR {sign}inf, as within each table every duplicate set gave the same "
                "difference") in text, text  # fmt: skip
        assert TOO_FEW not in text and favoured in text


@pytest.mark.parametrize("args", [["strategies"], ["strategies", "--names"], ["--help"],
                                  ["strategies", "--help"]])  # fmt: skip
def test_output_cut_short_exits_0_with_nothing_on_stderr(args):
    """``leaves strategies | head -1``: the reader gone is not an error (click and rich would
    each exit 1 on the broken pipe)."""
    cmd = [sys.executable, "-m", "leaves_cli", *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == b"", err


def test_the_exit_codes_say_sigterm_stops_a_run_as_ctrl_c_does():
    row = next(line for line in (ROOT / "docs" / "cli.md").read_text().splitlines()
               if line.endswith("| 130 |"))  # fmt: skip
    assert "SIGTERM" in row and "leaves run" in row and "--resume" in row


def test_sigterm_stops_leaves_run_with_every_finished_chunk_recorded(tmp_path):
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "leaves_cli", "run", "--games", "2000000", "--seed", "3",
           "--jobs", "1", "--out", str(run)]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while not list(run.glob("games/part-*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    manifest = json.loads((run / "manifest.json").read_text())
    parts = sorted(run.glob("games/part-*.parquet"))
    assert proc.returncode == 130 and manifest["status"] == "interrupted", err
    assert 0 < len(parts) == len(manifest["integrity"]["chunks"]) < manifest["spec"]["n_chunks"]
    assert f"interrupted: 'leaves run --resume --out {run}' continues it" in err, err


def test_leaves_run_resume_without_a_manifest_gives_advice_that_works(tmp_path, capsys):
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine\n")
    code, _, err = cli(capsys, "run", "--resume", "--out", str(full))
    assert code == 2 and "choose another --out" in one_error_line(err)
    assert "leave out --resume" not in err
    empty = tmp_path / "empty"
    code, _, err = cli(capsys, "run", "--resume", "--out", str(empty))
    assert code == 2 and "leave out --resume to start one there" in one_error_line(err)


def test_a_replayed_run_game_names_the_seed_its_rows_keep_it_under(tmp_path, capsys):
    run = tmp_path / "run"
    args = [*FIELD, "--players", "4", "--games", "240", "--seed", "3", "--jobs", "1"]
    assert cli(capsys, "tournament", *args, "--out", str(run))[0] == 0
    rows = pd.concat(pd.read_parquet(p) for p in sorted(run.glob("games/part-*.parquet")))
    row = rows[rows["game"] == 5].iloc[0]
    code, out, err = cli(capsys, "replay", str(run), "--game", "5", "--all")
    assert code == 0, err
    flat = " ".join(out.split())  # the heading wraps at the console's width
    assert f"deal seed {int(row['deal_seed'])}" in flat
    assert str(int(row["seed"])) not in flat  # the play seed is not the one named


def test_replay_game_is_said_to_count_records_not_lines(tmp_path, capsys):
    code, out, _ = cli(capsys, "replay", "--help")
    flat = " ".join(out.split())
    assert code == 0 and "1 = the first record" in flat and "first line" not in flat


def test_the_means_intervals_are_said_to_be_over_duplicate_sets():
    from reports.sections import _declared
    from tests.toygame import ToyGame
    from tournaments.declaration import Declaration

    (sec,) = _declared({"means": pd.DataFrame({"strategy": ["a"]})}, Declaration.of(ToyGame()))
    text = " ".join(str(sec.__dict__).split())
    assert "duplicate sets the units" in text and "normal" not in text and "over seats" not in text


@pytest.mark.parametrize("names", [[], ["--names"]])
@pytest.mark.parametrize("game, filters, said", [
    ("ligretto", ["compiled=false"],
     "no strategy of Ligretto matches compiled=false: every one of its 5 strategies has "
     "compiled=true"),
    ("leaves", ["search=true", "stochastic=false"],
     "no strategy of 13 Leaves matches search=true, stochastic=false"),
])  # fmt: skip
def test_a_filter_nothing_matches_says_so(game, filters, said, names, capsys):
    flags = [x for f in filters for x in ("--filter", f)]
    code, out, err = cli(capsys, "strategies", "--game", game, *flags, *names)
    assert code == 1 and out == "" and one_error_line(err) == f"leaves: error: {said}"


def test_hints_for_a_game_whose_records_are_text_are_said_to_be_none(tmp_path, capsys):
    import ligretto
    from ligretto.bench import bench_table
    from ligretto.policy import PolicyPlayer

    played = ligretto.play_round([PolicyPlayer(p) for p in bench_table(2)], 1, 2, record=True)
    path = tmp_path / "rounds.jsonl"
    path.write_text(played.record.to_json() + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--hints", "--all")
    assert code == 0 and "round over" in out
    assert err == "--hints: no hints for Ligretto: its records are shown as lines of text\n"
