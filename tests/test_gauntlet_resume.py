"""``leaves gauntlet --resume --out DIR``: SPEC, the baseline, the field and every option come
from the run, a sequential gauntlet continues from the batch it was in, and what cannot be
resumed is refused in one line. Every resumed run is compared with the same run played
without interruption."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import leaves_cli.sequential as seq_mod
from tests.helpers import cli
from tournaments.loading import load

SEQUENTIAL = ["gauntlet", "counter", "--against", "taker", "--baseline", "greedy", "--sequential",
              "--games", "400", "--jobs", "1", "--no-progress"]  # fmt: skip
"""Three batches (400, 500 and 628 games a side) before the test decides "better"."""

FIXED = ["gauntlet", "low", "--against", "taker,greedy", "--baseline", "high", "--players", "3",
         "--games", "60", "--seed", "2", "--rules", "take=ends", "--jobs", "1"]  # fmt: skip


def _rows(out: Path) -> pd.DataFrame:
    return load(out).games().sort_values("game").reset_index(drop=True)


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def _batches(err: str) -> int:
    """The batches a sequential run decided on (one progress line each)."""
    return sum(line.startswith("batch ") for line in err.splitlines())


def _answer(stdout: str, out: Path) -> list[str]:
    return [line for line in stdout.splitlines() if str(out) not in line]


def test_a_fixed_gauntlet_resumes_from_its_folder_alone(tmp_path, capsys):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    code, said, err = cli(capsys, *FIXED, "--out", whole)
    assert code == 0, err
    assert cli(capsys, *FIXED, "--out", cut)[0] == 0
    (cut / "games" / "part-000001.parquet").unlink()  # a chunk lost: the resume replays it
    code, again, err = cli(capsys, "gauntlet", "--resume", "--out", cut)
    assert code == 0, err
    assert "1 replayed" in err and "under the rules take=ends" in err
    assert _answer(again, cut) == _answer(said, whole)
    pd.testing.assert_frame_equal(_rows(cut), _rows(whole))
    assert _manifest(cut)["spec"] == _manifest(whole)["spec"]


class Stop(KeyboardInterrupt):
    """Ctrl-C at a chosen point of a sequential run."""


@pytest.mark.parametrize("where", ["in a batch", "between batches"])
def test_a_sequential_gauntlet_continues_its_batches(tmp_path, capsys, monkeypatch, where):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    code, said, err = cli(capsys, *SEQUENTIAL, "--out", whole)
    assert code == 0, err
    assert _manifest(whole)["sequential"]["batches"] == 3
    name = "_paired" if where == "in a batch" else "_write_manifest_entry"
    real, calls = getattr(seq_mod, name), []

    def stop_at_the_second(*args):
        calls.append(1)
        if where == "between batches":
            real(*args)  # the second batch's record is written, then Ctrl-C
        if len(calls) == 2:
            raise Stop
        return real(*args) if where == "in a batch" else None

    monkeypatch.setattr(seq_mod, name, stop_at_the_second)
    code, _, err = cli(capsys, *SEQUENTIAL, "--out", cut)
    assert code == 130 and f"'leaves gauntlet --resume --out {cut}' continues it" in err
    stopped = _manifest(cut)["sequential"]
    assert stopped["decision"] == "running" and not stopped["finished"]
    assert stopped["batches"] == (1 if where == "in a batch" else 2)
    monkeypatch.setattr(seq_mod, name, real)
    code, again, err = cli(capsys, "gauntlet", "--resume", "--out", cut, "--jobs", "1")
    assert code == 0, err
    assert _batches(err) == 3 - stopped["batches"]  # only the batches still to decide
    assert _manifest(cut)["sequential"] == _manifest(whole)["sequential"]
    assert _answer(again, cut) == _answer(said, whole)
    pd.testing.assert_frame_equal(_rows(cut), _rows(whole))
    code, third, err = cli(capsys, "gauntlet", "--resume", "--out", cut, "--jobs", "1")
    assert code == 0 and _batches(err) == 0  # decided: nothing more to play or decide
    assert _answer(third, cut) == _answer(said, whole)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """A small fixed gauntlet, a small sequential one and a tournament."""
    base = tmp_path_factory.mktemp("runs")
    common = ["--against", "taker", "--baseline", "greedy", "--games", "40", "--jobs", "1"]
    fixed, sequential, tour = base / "fixed", base / "seq", base / "tour"
    from leaves_cli.main import main

    for args in (["gauntlet", "counter", *common, "--out", str(fixed)],
                 ["gauntlet", "counter", *common, "--sequential", "--max-games", "40",
                  "--out", str(sequential)],
                 ["tournament", "greedy", "low", "high", "--players", "3", "--games", "6",
                  "--jobs", "1", "--out", str(tour)]):  # fmt: skip
        with pytest.raises(SystemExit) as exc:
            main(args)
            raise SystemExit(0)
        assert not exc.value.code
    return {"fixed": fixed, "seq": sequential, "tour": tour}


@pytest.mark.parametrize(
    "run, args, message",
    [
        ("fixed", ["--seed", "3"], "--seed 3 differs from this run's seed 0: resume with "
                                   "--seed 0, or drop --seed"),
        ("fixed", ["--players", "3"], "--players 3 differs from this run's players 4: resume "
                                      "with --players 4"),
        ("fixed", ["--games", "80"], "--games 80 differs from this run's games 40: resume with "
                                     "--games 40"),
        ("fixed", ["greedy"], "SPEC greedy differs from this run's strategy counter: give no SPEC"),
        ("fixed", ["--against", "low"], "--against low differs from this run's field taker: "
                                        "resume with --against taker"),
        ("fixed", ["--baseline", "weighted"], "--baseline weighted differs from this run's "
                                              "baseline greedy: resume with --baseline greedy"),
        ("fixed", ["--rules", "take=ends"], "--rules says take=ends, but this run was played "
                                            "under today's rules: drop --rules"),
        ("fixed", ["--sequential"], "--sequential differs from this run, a gauntlet of fixed "
                                    "size (40 games per side): drop --sequential, or play a "
                                    "sequential gauntlet in a new --out"),
        ("fixed", ["--margin", "2"], "--margin needs --sequential"),
        ("seq", ["--margin", "2"], "--margin 2.0 differs from this run's margin 1.0: resume "
                                   "with --margin 1.0"),
        ("seq", ["--alpha", "0.1"], "--alpha 0.1 differs from this run's alpha 0.05: resume "
                                    "with --alpha 0.05"),
        ("seq", ["--max-games", "400"], "--max-games 400 differs from this run's max games 40: "
                                        "resume with --max-games 40"),
        ("tour", [], "it holds a tournament: resume it with 'leaves tournament --resume --out "),
    ],
)  # fmt: skip
def test_a_resume_that_disagrees_with_the_run_is_one_short_line(capsys, runs, run, args,
                                                                 message):  # fmt: skip
    out = runs[run]
    code, stdout, err = cli(capsys, "gauntlet", *args, "--resume", "--out", str(out))
    assert code == 2, err
    assert err.startswith("leaves: error: ") and message in err and not stdout
    assert len(err.strip().splitlines()) == 1
    assert len(err) - err.count(str(out)) * len(str(out)) < 180  # no internal keys; what to do


def test_a_resume_with_no_run_is_refused(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in ([], ["counter", "--against", "taker"]):
        for folder in (empty, tmp_path / "none"):
            code, stdout, err = cli(capsys, "gauntlet", *args, "--resume", "--out", str(folder))
            assert code == 2 and not stdout
            assert err == f"leaves: error: cannot resume {folder}: it holds no run (no " \
                          "manifest.json)\n"  # fmt: skip
    assert not any(empty.iterdir()) and not (tmp_path / "none").exists()  # nothing started
    code, _, err = cli(capsys, "gauntlet", "--resume")
    assert code == 2 and err == "leaves: error: --resume needs --out DIR (the run to continue)\n"


def test_spec_and_against_are_needed_without_resume(capsys, tmp_path):
    code, _, err = cli(capsys, "gauntlet", "--against", "taker", "--out", str(tmp_path / "x"))
    assert code == 2 and err == "leaves: error: SPEC is required (see 'leaves gauntlet --help')\n"
    code, _, err = cli(capsys, "gauntlet", "counter", "--out", str(tmp_path / "x"))
    assert code == 2
    assert err == "leaves: error: --against is required (see 'leaves gauntlet --help')\n"
