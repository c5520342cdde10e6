"""An empty path ('') in the Python API is refused in one line naming the parameter, as the
command line refuses ``--out ''``, rather than read as the current folder: a report written
into it, ". is not empty", ". holds no tournament", "record . is not a regular file"."""

from __future__ import annotations

import pytest

import reports
import tournaments
from gamekit.errors import ParameterError
from leaves_cli.flags import message
from leaves_cli.options import empty_name
from tournaments import Tournament
from tournaments.checks import optional_path, path


def test_an_empty_name_is_refused_as_the_command_line_refuses_it():
    """One line naming the parameter; the command line's flag table words it as --out's own
    refusal."""
    for name in ("", "  "):
        with pytest.raises(ParameterError) as exc:
            path(name, "out")
        assert str(exc.value) == "out: an empty name was given, not a directory"
        assert message(exc.value) == empty_name("--out", "directory")
        with pytest.raises(ParameterError, match="^record: an empty name was given, not a file$"):
            optional_path(name, "record")
    assert optional_path(None, "out") is None and str(path("a", "out")) == "a"
    with pytest.raises(TypeError, match=r"^out takes a path \(str or Path\), got None$"):
        path(None, "out")


def test_load_refuses_an_empty_name(tmp_path, monkeypatch):
    """'' was '.' ('. holds no tournament (no manifest.json)')."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParameterError, match="^out: an empty name was given, not a directory$"):
        tournaments.load("")


def test_a_tournament_refuses_an_empty_out_or_record(tmp_path, monkeypatch):
    """run(out='') said '. is not empty'; record='' 'record . is not a regular file'."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParameterError, match="^record: an empty name was given, not a file$"):
        Tournament(["greedy", "random"], games=12, record="")
    t = Tournament(["greedy", "random"], games=12, seed=1)
    with pytest.raises(ParameterError, match="^out: an empty name was given, not a directory$"):
        t.run(n_jobs=1, out="", progress=False)
    assert not list(tmp_path.iterdir())


def test_a_report_refuses_an_empty_out_before_reading_the_run(tmp_path, monkeypatch):
    """out='' wrote report.html into the current folder."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParameterError, match="^out: an empty name was given, not a directory$"):
        reports.build_report("no-such-run", out="")
    with pytest.raises(TypeError, match=r"^out takes a path \(str or Path\) or None, got 5$"):
        reports.build_report("no-such-run", out=5)
    assert not list(tmp_path.iterdir())
