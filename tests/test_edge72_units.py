"""A game played in rounds is counted in rounds in every size refusal: growing a run
(``--resume --add``/``--games``, ``grown_stages``), a gauntlet's two sides, a tuning's sizes;
a game counted in games keeps its sentences word for word."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamekit.errors import ParameterError
from leaves.commands.run_stored import grown
from leaves_cli.errors import CLIError
from leaves_cli.request import Request
from tests.helpers import cli
from tournaments import Tournament
from tournaments.gauntlet import Gauntlet
from tournaments.stages import grown_stages
from tuning.plan import checked

PATIENT = """
from ligretto.players.builtin import Cautious


class Patient(Cautious, register=False):
    tunable = {"patience": (0, 20)}
"""
"""A Ligretto strategy with a tunable parameter (no built-in one declares any)."""

LIGRETTO = ["--game", "ligretto", "row", "cycler", "--players", "2", "--no-progress"]


@pytest.fixture
def small_run(capsys, tmp_path) -> Path:
    """A finished Ligretto run of 8 rounds (2 seats, 2 seatings a deal: 4 deals)."""
    out = tmp_path / "r"
    code, _, err = cli(capsys, "tournament", *LIGRETTO, "--games", "8", "--seed", "1", "--out",
                       str(out))  # fmt: skip
    assert code == 0 and (out / "manifest.json").is_file(), err
    return out


# ---------------------------------------------------------------- grown runs


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--add", "5000000000"], "--add grows the run to 5,000,000,008 rounds in all, past "
                                  "2**32 - 1 (a run's most rounds)"),
        (["--games", "5000000000"], "--games asks for 5,000,000,000 rounds in all, past "
                                    "2**32 - 1 (a run's most rounds)"),
        (["--add", "0"], "--add must be at least 1 round, got 0"),
        (["--games", "2"], "--games 2 is fewer than the 8 rounds the run holds already"),
    ],
)  # fmt: skip
def test_a_run_in_rounds_grown_is_refused_in_rounds(capsys, small_run, flags, said):
    code, _, err = cli(capsys, "tournament", *LIGRETTO, "--out", str(small_run), "--resume",
                       *flags)  # fmt: skip
    assert code != 0 and said in err and "Traceback" not in err, err
    assert " games" not in err.replace("--add GAMES", ""), err


def test_grown_stages_counts_in_the_units_given():
    with pytest.raises(ParameterError, match=r"at least 1 round, got 0$"):
        grown_stages([1], 4, 4, add=0, units="rounds")
    with pytest.raises(ParameterError, match=r"at least 1 match, got 0$"):
        grown_stages([1], 4, 4, add=0, units="matches")
    with pytest.raises(ParameterError, match=r"the 8 rounds the run holds already \(asked 8\)"):
        grown_stages([2], 4, 8, games=4, units="rounds")
    with pytest.raises(ParameterError, match=r"\(a run's most rounds\)$"):
        grown_stages([2], 4, 8, add=2**32, units="rounds")
    with pytest.raises(ParameterError, match=r"add \(rounds more\), not both"):
        grown_stages([2], 4, 8, games=9, add=1, units="rounds")


@pytest.mark.parametrize(
    ("kw", "said"),
    [
        ({"add": 0}, "add must be at least 1 game, got 0"),
        ({"games": 4}, "games 4 is fewer than the 8 games the run holds already (asked 8): a "
                       "run grows, it never shrinks (add GAMES adds more)"),
        ({"add": 2**32}, "add grows the run to 4,294,967,304 games in all, past 2**32 - 1 (a "
                         "run's most games)"),
        ({"games": 9, "add": 1}, "give games (the total) or add (games more), not both"),
    ],
)  # fmt: skip
def test_grown_stages_of_games_says_what_it_always_said(kw, said):
    with pytest.raises(ParameterError) as exc:
        grown_stages([2], 4, 8, **kw)
    assert str(exc.value) == said


def test_a_run_in_rounds_grown_past_the_cap_by_its_stages_is_refused_in_rounds():
    t = Tournament(["row", "cycler"], players=2, games=8, seed=1, game="ligretto")
    with pytest.raises(ValueError, match=r"^at most 2\*\*32 - 1 rounds per tournament$"):
        t.with_stages([t.schedule.stages[0], 2**31])


def test_leaves_run_grown_counts_in_the_runs_units(tmp_path):
    t = Tournament(["row", "cycler"], players=2, games=8, seed=1, game="ligretto")
    with pytest.raises(CLIError, match=r"fewer than the 8 rounds this run holds already"):
        grown(t, tmp_path, Request.of({"grow_to": 4}))
    with pytest.raises(CLIError, match=r"asks for 5,000,000,000 rounds in all.*most rounds\)$"):
        grown(t, tmp_path, Request.of({"grow_to": 5_000_000_000}))


# ---------------------------------------------------------------- gauntlets

GAUNTLET = ["gauntlet", "--game", "ligretto", "row", "--against", "cycler", "--baseline",
            "scanner", "--players", "2"]  # fmt: skip


def test_a_gauntlet_in_rounds_too_big_a_side_is_refused_in_rounds(capsys, tmp_path):
    code, _, err = cli(capsys, *GAUNTLET, "--games", "3000000000", "--out", str(tmp_path / "g"))
    assert code != 0 and "Traceback" not in err, err
    assert ("--games asks for 3,000,000,000 rounds a side, 6,000,000,000 in all with the "
            "baseline's, past 2**32 - 1 (a run's most rounds)") in err  # fmt: skip


def test_a_gauntlet_in_rounds_rounded_past_the_cap_is_refused_in_rounds(capsys, tmp_path):
    code, _, err = cli(capsys, *GAUNTLET, "--games", "2147483647", "--out", str(tmp_path / "g"))
    assert code != 0 and "Traceback" not in err, err
    assert "asks for 4,294,967,296 rounds in all (rounded up" in err and "most rounds)" in err


def test_a_gauntlet_of_games_says_what_it_always_said():
    with pytest.raises(ParameterError) as exc:
        Gauntlet("greedy", ["low"], "high", games=3_000_000_000)
    assert str(exc.value) == (
        "games asks for 3,000,000,000 games a side, 6,000,000,000 in all with the baseline's, "
        "past 2**32 - 1 (a run's most games)"
    )


# ---------------------------------------------------------------- tuning


def _plan(tmp_path: Path, budget: int, **opts):
    spec = tmp_path / "patient.py"
    spec.write_text(PATIENT)
    given = {"popsize": None, "candidate_games": None, "verify_games": None, "sigma": 0.05, **opts}
    return checked(f"{spec}:Patient", ["row", "cycler"], 2, budget, 1, 1, tmp_path / "t",
                   game="ligretto", **given)  # fmt: skip


@pytest.mark.parametrize(
    ("budget", "opts", "said"),
    [
        (10, {}, "budget 10 is too small: two generations of 6 candidates and the start at 4 "
                 "rounds each, and the final selection (5 finalists at 4 rounds each), need 76 "
                 "rounds"),
        (5_000_000_000, {}, "budget must be a positive number of rounds up to 4,294,967,295"),
        (1000, {"verify_games": 0}, "verify_games must be a positive number of rounds up to"),
        (1000, {"candidate_games": 4_294_967_295}, "candidate_games asks for 4,294,967,296 "
                                                   "rounds in all (rounded up to whole duplicate "
                                                   "sets), past 2**32 - 1 (a run's most rounds)"),
        (1000, {"popsize": 3_000_000_000, "candidate_games": 1},
         "the start at 4 rounds each, and the final selection, need more than 2**32 - 1 rounds "
         "(the most budget may be)"),
    ],
)  # fmt: skip
def test_a_tuning_in_rounds_is_refused_in_rounds(tmp_path, budget, opts, said):
    with pytest.raises(ParameterError) as exc:
        _plan(tmp_path, budget, **opts)
    assert said in str(exc.value) and " games" not in str(exc.value), str(exc.value)


def test_a_tunings_progress_bars_count_in_its_games_units(tmp_path, monkeypatch):
    """The search's and the finalists' bars said "games" of a game played in rounds."""
    import importlib

    from tuning.plan import units_of

    tune_module = importlib.import_module(
        "tuning.tune"
    )  # the module: the package names its function
    plan = _plan(tmp_path, 1000)
    assert units_of(plan.field) == "rounds"
    labels = []

    class Bar:
        def __init__(self, total, done, progress, unit):
            labels.append(unit)

    monkeypatch.setattr(tune_module, "RunProgress", Bar)
    state = type("State", (), {"rows": []})()  # nothing played yet
    tune_module._bar(plan, state, 1, False)
    assert labels == ["rounds"]
