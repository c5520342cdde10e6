"""Where a run stands, said alike by verify, report and compare: a sequential gauntlet stopped
between two batches is unfinished, and an unfinished run this version's resume refuses (an
older version's) is told why, never to continue it with a resume that refuses it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli, cli_output, copied_run, stopped_run


@pytest.fixture(scope="module")
def decided(tmp_path_factory) -> Path:
    """A sequential gauntlet decided in its first batch."""
    out = tmp_path_factory.mktemp("seq") / "g"
    code, _, err = cli_output("gauntlet", "greedy", "--against", "random", "--sequential",
                              "--games", "400", "--max-games", "4000", "--seed", "1",
                              "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def _between_batches(manifest: dict) -> None:
    """The manifest a stop between two batches leaves: the batch played ("complete"), the
    test's record not yet told it decided."""
    manifest["sequential"].update(decision="running", finished=False)


def test_a_sequential_gauntlet_stopped_between_batches_is_unfinished(decided, tmp_path,
                                                                     capsys):  # fmt: skip
    """It said 'ok: ... run complete', and report and compare said nothing of it."""
    run = copied_run(decided, tmp_path, _between_batches)
    resume = f"'leaves gauntlet --resume --out {run}'"
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 0, err
    assert out.rstrip().endswith(f"; run unfinished ({resume} finishes it)"), out
    code, out, err = cli(capsys, "compare", str(run), str(decided))
    assert f"A ({run}): Unfinished run: " in out, out + err
    assert ("played by a sequential gauntlet stopped between two batches, before its test "
            "decided or reached --max-games, and every result covers those only; continue it "
            f"with {resume}.") in out  # fmt: skip
    code, out, _ = cli(capsys, "verify", str(decided))
    assert out.rstrip().endswith("; run complete")


def test_an_unfinished_run_this_version_cannot_resume_is_not_told_to(tmp_path, capsys):
    """It said "continue it with 'leaves tournament --resume --out RUN'", which refused."""
    code, _ = stopped_run(tmp_path / "run", ["greedy", "high", "low"])
    assert code == 130
    run = copied_run(tmp_path / "run", tmp_path, lambda m: m["spec"].pop("deal_stages"))
    why = ("the run was played by an older version (its manifest has no spec.deal_stages, "
           "which this version resumes by); resume it with the version that played it")  # fmt: skip
    code, out, err = cli(capsys, "report", str(run), "--out", str(tmp_path / "page"))
    first = out.splitlines()[0]
    assert first.endswith(f"every result covers those only; this version cannot resume it: "
                          f"{why}."), first  # fmt: skip
    assert "continue it" not in out + err
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(run))
    assert why in err  # what the resume itself says
