"""``leaves run``: the default tournament of built-in heuristics and its report, end to end."""

from __future__ import annotations

import csv
import json

import pytest

from leaves_cli import main
from leaves_cli.main import LazyGroup

pytestmark = pytest.mark.skipif(not LazyGroup._exists("run"), reason="leaves run not there yet")


def _run(capsys, *args):
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """One small run shared by the tests (3-player tables: the fewest games per set)."""
    out = tmp_path_factory.mktemp("run") / "out"
    import contextlib
    import io

    buf_out, buf_err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf_out), contextlib.redirect_stderr(buf_err):
        try:
            main(["run", "--games", "1", "--players", "3", "--jobs", "1", "--out", str(out)])
        except SystemExit as exc:
            assert exc.code == 0, buf_err.getvalue()
    return out, buf_out.getvalue(), buf_err.getvalue()


@pytest.mark.slow
def test_run_plays_the_builtin_heuristics_and_writes_the_report(small_run):
    from leaves.commands.run import builtin_heuristics

    out, stdout, stderr = small_run
    page = out / "report" / "report.html"
    assert stdout.splitlines()[-1] == f"report: {page}"
    assert stderr == ""
    assert page.is_file() and page.stat().st_size > 1000
    names = builtin_heuristics()
    assert "ismcts" not in names and "random" in names and "greedy" in names
    assert f"{len(names)} strategies: {', '.join(names)}" in stdout
    with open(out / "report" / "summary.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    labels = {r["strategy"] for r in rows}
    assert labels == set(names)


@pytest.mark.slow
def test_a_second_run_into_a_finished_one_says_where_it_is_and_plays_nothing(small_run, capsys):
    out, _, _ = small_run
    before = (out / "manifest.json").read_text()
    code, stdout, err = _run(capsys, "run", "--games", "1", "--players", "3", "--out", out)
    assert code == 0 and err == "", err
    page = out / "report" / "report.html"
    n = json.loads(before)["spec"]["n_games"]
    first, second = stdout.splitlines()
    assert (
        first == f"{out} already holds this run, finished: {n:,} games, seed 0; its report: {page}"
    )
    assert page.is_file() and "'leaves run --out NEW'" in second
    assert f"'leaves run --resume --out {out} --games N'" in second
    assert (out / "manifest.json").read_text() == before  # nothing played, nothing written
    code, stdout, err = _run(
        capsys, "run", "--games", "1", "--players", "3", "--jobs", "1", "--out", out, "--resume"
    )
    assert code == 0, err
    assert f"nothing to play: {out} already holds all {n:,} games of this run" in stdout
    assert json.loads((out / "manifest.json").read_text())["sessions"][-1]["units_played"] == 0
    assert stdout.splitlines()[-1] == f"report: {page}"


@pytest.mark.slow
def test_resume_with_a_different_spec_is_refused(small_run, capsys):
    out, _, _ = small_run
    for resume in (["--resume"], []):
        code, stdout, err = _run(
            capsys, "run", "--games", "1", "--players", "3", "--seed", "5", "--out", out, *resume
        )
        assert code == 2 and stdout == ""
        lead = f"cannot resume {out}: it holds" if resume else f"--out {out} holds"
        assert err.startswith(f"leaves: error: {lead} another run (seed 0 there, 5 here)")
        assert err.count("\n") == 1


def test_the_main_jobs_field_loads_no_installed_strategy(monkeypatch):
    # an entry point that cannot load (a strategy whose extra is missing) must not make the
    # main job warn, nor enter its field
    import warnings

    from leaves.commands.run import builtin_heuristics
    from strategies import registry

    class Broken:
        value = "no_such_module:Nothing"

        def load(self):
            raise ImportError("not installed")

    monkeypatch.setattr(registry, "_entry_points", lambda game="leaves": {"broken": Broken()})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        field = builtin_heuristics()
    assert "broken" not in field and "weighted" in field and "ismcts" not in field
