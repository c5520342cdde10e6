"""``leaves report RUN`` on a run it cannot write in (a read-only folder, a run shared for
reading) names the way that works: ``--out DIR`` writes the report elsewhere (it said only
"cannot write to RUN/report: Permission denied (in RUN)")."""

from __future__ import annotations

import tempfile

import pytest

from tests.helpers import cli, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament


@pytest.mark.slow
def test_a_run_it_cannot_write_in_names_out(tmp_path, capsys, monkeypatch):
    run = tmp_path / "run"
    Tournament(["a", "p1", "p2"], players=3, games=30, seed=3, game=ToyGame()).run(out=run)

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr(tempfile, "mkstemp", refuse)  # a read-only folder, even for root
        code, out, err = cli(capsys, "report", str(run))
        assert (code, out) == (1, "")
        assert one_error_line(err) == (
            f"leaves: error: cannot write to {run / 'report'}: Permission denied (in {run}); "
            "--out DIR writes the report elsewhere"
        )
        code, _, err = cli(capsys, "report", str(run), "--out", str(tmp_path / "mine"))
        assert code == 1 and "--out DIR writes" not in err  # --out given: no advice to give it
    code, _, err = cli(capsys, "report", str(run), "--out", str(tmp_path / "mine"), "--format",
                       "md")  # fmt: skip
    assert code == 0 and (tmp_path / "mine" / "report.md").is_file(), err
