"""The Python API's arguments checked as the command line's are, each refusal one line:
``tournaments.gauntlet`` takes no ``sequential`` (the test's batches are the command line's)
and ``Gauntlet`` checks the settings' types; a ``record`` that is a directory is refused in the
command line's words, never with advice to remove it; a ``record_sample`` without a ``record``
is refused; a seating or seeds holding True are refused; ``games(columns=...)`` names an
unknown column beside the known ones."""

from __future__ import annotations

import numpy as np
import pytest

import tournaments
from gamekit.errors import ParameterError
from leaves.players.batch import play_batch, play_seatings
from tournaments import Gauntlet, Tournament, storage

SETTINGS = {"margin": 1.0, "alpha": 0.05, "beta": 0.05, "max_games": 1000}


def test_the_public_gauntlet_refuses_a_sequential_test_before_playing(tmp_path):
    for sequential in (SETTINGS, True):
        with pytest.raises(TypeError) as exc:
            tournaments.gauntlet("greedy", ["taker"], players=3, games=6, seed=0,
                                 out=tmp_path / "g", sequential=sequential)  # fmt: skip
        said = str(exc.value)
        assert "\n" not in said and "takes no sequential" in said, said
        assert "'leaves gauntlet SPEC --against FIELD --sequential --out DIR'" in said
    assert not (tmp_path / "g").exists()  # nothing played, no report to misread


def test_a_gauntlet_checks_its_sequential_settings_types():
    numpy = {**SETTINGS, "max_games": np.int64(1000), "alpha": np.float64(0.05)}
    g = Gauntlet("greedy", ["taker"], players=3, games=6, sequential=numpy)
    kept = g.spec()["gauntlet"]["sequential"]
    assert kept == SETTINGS and type(kept["max_games"]) is int  # as JSON writes it
    table = r"margin, alpha, beta \(numbers\) and max_games \(a whole number\)"
    with pytest.raises(
        TypeError, match=rf"^sequential takes None or a table of {table}, got True$"
    ):
        Gauntlet("greedy", ["taker"], players=3, games=6, sequential=True)
    for bad in ({"margin": 1.0}, {**SETTINGS, "max_games": 1000.0}, {**SETTINGS, "beta": "x"},
                {**SETTINGS, "margin": True}, {**SETTINGS, "extra": 1}):  # fmt: skip
        with pytest.raises(ParameterError, match="^sequential takes a table of margin") as exc:
            Gauntlet("greedy", ["taker"], players=3, games=6, sequential=bad)
        assert exc.value.params == ("sequential",)


def test_a_directory_named_as_the_records_is_refused_in_the_command_line_words(tmp_path):
    with pytest.raises(storage.InTheWay) as exc:  # no bad usage in a resume (exit 1)
        Tournament(["greedy", "low", "high"], players=3, games=6, seed=1, record=tmp_path)
    assert isinstance(exc.value, ParameterError)
    assert str(exc.value) == (
        f"record {tmp_path} is not a regular file but a directory: name a file"
    )
    assert exc.value.worded({"record": "--record"}).startswith(f"--record {tmp_path} is not")


def test_a_record_sample_without_records_is_refused():
    with pytest.raises(ParameterError, match=r"^record_sample needs record FILE$") as exc:
        Tournament(["greedy", "low", "high"], players=3, games=6, seed=1, record_sample=5)
    worded = exc.value.worded({"record": "--record", "record_sample": "--record-sample"})
    assert worded == "--record-sample needs --record FILE"  # the command line's line


@pytest.mark.parametrize("seating", [[True, 1, 0], (1, 0, np.True_)])
def test_a_seating_holding_true_is_refused(seating):
    tables = [["greedy", "low", "high"], ["low", "high", "greedy"]]
    with pytest.raises(ValueError, match=r"^seating must hold integers, got (np\.)?True_? at"):
        play_seatings(tables, seating, [1, 2, 3], [4, 5, 6])
    assert len(play_seatings(tables, [1, 0, 1], [1, 2, 3], [4, 5, 6]).turns) == 3


def test_seeds_holding_true_are_refused():
    with pytest.raises(ValueError, match=r"^deal_seeds must hold integers, got True at \[0\]$"):
        play_batch(["greedy", "low", "high"], [True, 5], [1, 2])


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cols") / "run"
    return Tournament(["greedy", "low", "high"], players=3, games=12, seed=1).run(out=out)


def test_an_unknown_column_is_named_beside_the_known_ones(small_run):
    with pytest.raises(ValueError) as exc:
        small_run.games(columns=["winnner", "turns"])
    said = str(exc.value)
    assert said.startswith("the games rows have no column 'winnner': they have game, deal, ")
    assert "\n" not in said and ", winner, " in said, said
    with pytest.raises(ValueError, match="no columns 'a' and 'b': they have"):
        small_run.games(columns=["a", "b"])
    with pytest.raises(TypeError, match=r"^columns takes a list of column names or None, got "
                       r"'winner'$"):  # fmt: skip
        small_run.games(columns="winner")
    assert list(small_run.games(columns=("winner", "turns")).columns) == ["winner", "turns"]
