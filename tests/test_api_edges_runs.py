"""Bad arguments to the run API, each refused in one line that names the argument: a string
where a list of strategies belongs, a count or seed that is not an integer (never truncated:
a seed of 1.5 must not play seed 1's games), an output folder under a file or where the
system makes none; and the report functions, ``compute_tables`` and ``load_run`` too, taking
what every other report function takes.

The runs are of ``ToyGame`` (numpy hashes, milliseconds), so none of this is a long test.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import reports
import tournaments
from reports.synthetic import synthetic_games
from tests.toygame import ToyGame
from tournaments import Gauntlet, GauntletResult, Tournament, TournamentResult
from tuning.tune import _warnings

TOY = ["a", "p1", "p2", "p3"]
N_JOBS = "n_jobs takes a number of workers (a positive integer, or -1 for one per core)"
PLAYERS = "players takes a table size, a list of them or a string such as '3,4,5'"


def toy(**kw) -> Tournament:
    kw = {"players": 4, "games": 48, "seed": 7, **kw}
    return Tournament(kw.pop("entrants", TOY), game=ToyGame(), **kw)


def refused(exc: type[Exception], message: str, make, *args, **kw) -> None:
    """``make(*args, **kw)`` raises exactly ``exc`` with exactly ``message`` (one line)."""
    with pytest.raises(exc) as info:
        make(*args, **kw)
    assert str(info.value) == message
    assert "\n" not in message


# ------------------------------------------------------------------ D8: a string of strategies
def test_a_bare_string_is_not_read_letter_by_letter():
    refused(TypeError, "strategies must be a list of strategies or specs, got the string "
            "'greedy'", Tournament, "greedy", players=4, games=100)  # fmt: skip
    refused(TypeError, "strategies must be a list of strategies or specs, got 5",
            Tournament, 5, game=ToyGame())  # fmt: skip


def test_a_gauntlets_field_as_a_bare_string_is_refused():
    """The documented Python call lists the field (``["taker"]``); only the command line
    splits ``--against a,b``."""
    refused(TypeError, "against must be a list of strategies or specs, got the string 'p1'",
            tournaments.gauntlet, "a", against="p1", baseline="p2", game=ToyGame())  # fmt: skip
    refused(TypeError, "field must be a list of strategies or specs, got the string 'p1'",
            Gauntlet, "a", "p1", "p2", game=ToyGame())  # fmt: skip


# ------------------------------------------------------------------ D9, D10: counts and seeds
@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"seed": 1.5}, "seed takes a non-negative integer or None, got 1.5"),
        ({"seed": "a"}, "seed takes a non-negative integer or None, got 'a'"),
        ({"seed": True}, "seed takes a non-negative integer or None, got True"),
        ({"games": 47.5}, "games takes a whole number of games, got 47.5"),
        ({"games": "48"}, "games takes a whole number of games, got '48'"),
        ({"games": True}, "games takes a whole number of games, got True"),
        ({"games": None}, "games takes a whole number of games, got None"),
        ({"chunk_size": 1.5}, "chunk_size takes a whole number of games or None, got 1.5"),
        ({"chunk_size": "a"}, "chunk_size takes a whole number of games or None, got 'a'"),
        ({"players": 4.0}, f"{PLAYERS}, got 4.0"),
        ({"players": None}, f"{PLAYERS}, got None"),
        ({"players": [3, 4.0]}, f"{PLAYERS}, got [3, 4.0]"),
        ({"rounds": 2.5}, "rounds takes a whole number of games or None, got 2.5"),
        ({"record_sample": 1.5}, "record_sample takes a number of games or None, got 1.5"),
    ],
)
def test_a_count_or_seed_that_is_no_integer_is_refused_not_truncated(kw, message):
    refused(TypeError, message, toy, **kw)


def test_numpy_integers_and_the_documented_forms_still_work():
    t = toy(seed=np.int64(3), games=np.int32(48), chunk_size=np.int64(12), players="4")
    assert (t.seed, t.games_asked, t.schedule.chunk_games, t.sizes) == (3, 48, 12, (4,))
    assert toy(players=[np.int64(3), 4]).sizes == (3, 4)
    with pytest.raises(ValueError, match=r"^games must be at least 1, got 0$"):
        toy(games=0)  # the messages of values of the right type are as they were
    with pytest.raises(ValueError, match=r"^players takes numbers like 4 or 3,4,5, got '3,x'$"):
        toy(players="3,x")


@pytest.mark.parametrize("n_jobs", [None, "2", 1.5, True])
def test_n_jobs_of_another_type_is_refused_before_anything_is_written(tmp_path, n_jobs):
    refused(TypeError, f"{N_JOBS}, got {n_jobs!r}", toy().run, n_jobs=n_jobs, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()
    with pytest.raises(ValueError, match=r"^n_jobs must be a positive number of workers"):
        toy().run(n_jobs=0, out=tmp_path / "r")


def test_a_numpy_n_jobs_is_recorded_as_a_number(tmp_path):
    """A numpy integer is a number of workers too: the manifest (JSON) records it as an int."""
    res = toy().run(n_jobs=np.int64(1), out=tmp_path / "r")
    assert res.manifest["sessions"][-1]["jobs"] == 1


# ------------------------------------------------------------------ D11: output folders
def test_an_out_under_a_file_or_that_cannot_be_made_is_one_value_error(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("not a directory\n")
    refused(ValueError, f"{afile} exists and is not a directory", toy().run, out=afile)
    refused(ValueError, f"cannot make {afile / 'sub'}: {afile} exists and is not a directory",
            toy().run, out=afile / "sub")  # fmt: skip
    refused(ValueError, f"{afile} holds no tournament (it is not a directory)",
            tournaments.load, afile)  # fmt: skip


def test_an_out_the_system_refuses_is_one_value_error(tmp_path, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)  # as /proc, which makes no folder
    out = tmp_path / "x"
    refused(ValueError, f"cannot make {out}: {tmp_path} takes no new folder (No such file or "
            "directory)", toy().run, out=out)  # fmt: skip


# ------------------------------------------------------------------ D12: reports' inputs
@pytest.fixture(scope="module")
def toy_run(tmp_path_factory) -> TournamentResult:
    return toy(games=96).run(out=tmp_path_factory.mktemp("runs") / "a")


def test_compute_tables_takes_what_every_report_function_takes(toy_run):
    """A run directory, a results object, a Run and a games DataFrame give the same tables."""
    expected, method = reports.compute_tables(reports.as_run(toy_run.out))
    for source in (toy_run.out, str(toy_run.out), toy_run):
        tables, how = reports.compute_tables(source)
        assert how == method and list(tables) == list(expected)
        assert tables["summary"].equals(expected["summary"])
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=40, seed=1)
    tables, _ = reports.compute_tables(games)
    assert sorted(tables["summary"]["strategy"]) == ["a", "b", "c"]


def test_load_run_takes_a_results_object_or_refuses_in_one_line(toy_run):
    run = reports.load_run(toy_run)
    assert run.path == toy_run.out and len(run.games) == toy_run.manifest["spec"]["n_games"]
    refused(TypeError, "load_run takes a run directory (a path) or a run's results, got int",
            reports.load_run, 3)  # fmt: skip


# ------------------------------------------------------------------ minor
def test_a_gauntlet_reads_players_as_a_tournament_does(tmp_path):
    kw = {"games": 40, "seed": 0, "game": ToyGame()}
    assert Gauntlet("a", ["p1"], "p2", players="4", **kw).sizes == (4,)
    assert Gauntlet("a", ["p1"], "p2", players=np.int64(3), **kw).sizes == (3,)
    refused(ValueError, "players takes one table size for a gauntlet, got '3,4'",
            Gauntlet, "a", ["p1"], "p2", players="3,4", **kw)  # fmt: skip
    refused(TypeError, f"{PLAYERS}, got 4.0", Gauntlet, "a", ["p1"], "p2", players=4.0, **kw)


def test_a_gauntlet_results_repr_names_its_class(tmp_path):
    res = tournaments.gauntlet("a", ["p1"], "p2", players=3, games=12, seed=0,
                               out=tmp_path / "g", game=ToyGame())  # fmt: skip
    assert isinstance(res, GauntletResult)
    assert repr(res) == f"GauntletResult({str(tmp_path / 'g')!r}, status='complete')"
    assert repr(tournaments.load(tmp_path / "g")).startswith("GauntletResult(")


# ------------------------------------------------------------------ tuning
@pytest.mark.parametrize(
    ("kw", "exc", "message"),
    [
        ({"budget": 2.5}, TypeError, "budget takes a whole number of games, got 2.5"),
        ({"budget": "x"}, TypeError, "budget takes a whole number of games, got 'x'"),
        ({"budget": None}, TypeError, "budget takes a whole number of games, got None"),
        ({"seed": 1.5}, TypeError, "seed takes a non-negative integer or None, got 1.5"),
        ({"n_jobs": 1.5}, TypeError,
         "n_jobs takes a number of workers (a positive integer, or -1), got 1.5"),
        ({"popsize": 4.5}, TypeError, "popsize takes a number of candidates or None, got 4.5"),
        ({"sigma": "x"}, TypeError, "sigma takes a number in (0, 1], got 'x'"),
        ({"candidate_games": 1.5}, TypeError,
         "candidate_games takes a number of games or None, got 1.5"),
        ({"verify_games": "9"}, TypeError, "verify_games takes a number of games or None, got '9'"),
    ],
)  # fmt: skip
def test_tune_refuses_a_budget_or_seed_that_is_no_integer(tmp_path, kw, exc, message):
    import tuning

    kw = {"budget": 100_000, **kw}
    refused(exc, message, tuning.tune, "weighted", "taker", out=tmp_path / "t", **kw)
    assert not (tmp_path / "t").exists()


def test_tune_refuses_an_out_under_a_file(tmp_path):
    import tuning

    afile = tmp_path / "afile"
    afile.write_text("x\n")
    refused(ValueError, f"cannot make {afile / 't'}: {afile} exists and is not a directory",
            tuning.tune, "weighted", "taker", budget=100_000, out=afile / "t")  # fmt: skip


def test_tunings_wide_interval_warning_is_in_points():
    class Arm:
        ci_low, ci_high, games = 0.2, 0.3, 400

    class Verification:
        diff_low, diff_high, games_differing, units = -0.05, 0.06, 30, 100
        tuned = start = Arm()

    (line,) = _warnings(Verification(), False, ["w"])
    said = r"the verification's interval is \+/-5\.5 percentage points wide \(100 deals\)"
    assert re.match(said, line)
