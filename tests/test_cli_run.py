"""``leaves run``: the default tournament of built-in heuristics and its report, end to end."""

from __future__ import annotations

import csv

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


def test_run_plays_the_builtin_heuristics_and_writes_the_report(small_run):
    from leaves_cli.run_cmd import builtin_heuristics

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


def test_rerun_into_the_same_directory_needs_resume(small_run, capsys):
    out, _, _ = small_run
    code, _, err = _run(capsys, "run", "--games", "1", "--players", "3", "--out", out)
    assert code == 2
    assert "is not empty: pass --resume" in err
    code, stdout, err = _run(
        capsys, "run", "--games", "1", "--players", "3", "--jobs", "1", "--out", out, "--resume"
    )
    assert code == 0, err
    assert stdout.splitlines()[-1].startswith("report: ")


def test_resume_with_a_different_spec_is_refused(small_run, capsys):
    out, _, _ = small_run
    code, _, err = _run(
        capsys, "run", "--games", "1", "--players", "3", "--seed", "5", "--out", out, "--resume"
    )
    assert code == 1
    assert err.startswith(f"leaves: error: cannot resume {out}: it holds a different tournament")
    assert "seed" in err and err.count("\n") == 1


def test_the_main_jobs_field_loads_no_installed_strategy(monkeypatch):
    # an entry point that cannot load (a strategy whose extra is missing) must not make the
    # main job warn, nor enter its field
    import warnings

    from leaves_cli.run_cmd import builtin_heuristics
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
