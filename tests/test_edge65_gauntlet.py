"""A gauntlet names each value in a refusal where it came from (``leaves_cli.origins``): a
flag typed by its flag, a resumed run's by whose it is, never by a flag no one typed; a
sequential gauntlet in which no game was won says its test weighed nothing, not a decision
read off differences that are 0 whichever strategy is better."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from leaves_cli.origins import RESUMED, origin, typed, whose
from tests.helpers import cli, one_error_line

GAUNTLET = ["gauntlet", "greedy", "--against", "low", "--players", "3", "--jobs", "1"]


@pytest.fixture(autouse=True)
def _environment(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # main sets it
    monkeypatch.setenv("COLUMNS", "300")


def test_a_value_is_named_where_it_came_from_typed_filed_resumed_or_default():
    command = click.Command("c", params=[click.Option([f"--{n}"]) for n in ("games", "seed")])
    ctx = command.make_context("c", ["--games", "3"])
    values = {"from_config": frozenset({"seed"}), "config": "c.toml",
              "from_run": frozenset({"games", "max_games"})}  # fmt: skip
    assert typed(ctx, ["games", "seed", "max_games"]) == {"games"}
    assert origin(values, "max_games", ctx) == RESUMED
    with ctx:  # the command running: a flag typed is the flag's, even where a run had it
        assert whose(values, "games") == "--games"
        assert whose(values, "seed") == "seed in c.toml"
        assert whose(values, "max_games") == "the resumed run's --max-games"
        assert whose(values, "alpha") == "the default --alpha"


def _sequential_run(capsys, out: Path, *args: str) -> tuple[str, str]:
    """(stdout, stderr) of a small sequential gauntlet played into ``out`` (exit 0)."""
    code, said, err = cli(capsys, *GAUNTLET, "--sequential", "--games", "12", "--out", str(out),
                          *args)  # fmt: skip
    assert code == 0, err
    return said, err


def _edit_test(out: Path, **settings: float) -> None:
    """Change the resumed run's own test settings (its manifest's), as a hand edit would."""
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["spec"]["gauntlet"]["sequential"].update(settings)
    path.write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    ("typed", "line"),
    [
        ([], "the resumed run's --max-games (6) must be at least the resumed run's --games (12)"),
        (["--games", "12"], "the resumed run's --max-games (6) must be at least --games (12)"),
    ],
)  # fmt: skip
def test_a_resumed_runs_cap_below_its_games_names_both_as_the_runs(tmp_path, capsys, typed, line):
    out = tmp_path / "run"
    _sequential_run(capsys, out, "--max-games", "12")
    _edit_test(out, max_games=6)
    code, said, err = cli(capsys, "gauntlet", "--resume", "--out", str(out), *typed)
    assert code == 2 and not said and one_error_line(err) == f"leaves: error: {line}"


@pytest.mark.parametrize(
    ("settings", "line"),
    [
        ({"alpha": 0.7}, "the resumed run's --alpha must be between 0 and 0.5, got 0.7"),
        ({"beta": 0}, "the resumed run's --beta must be between 0 and 0.5, got 0"),
        ({"margin": 0},
         "the resumed run's --margin must be a positive number of percentage points, got 0"),
    ],
)  # fmt: skip
def test_a_resumed_runs_bad_test_setting_is_named_as_the_runs(tmp_path, capsys, settings, line):
    out = tmp_path / "run"
    _sequential_run(capsys, out, "--max-games", "12")
    _edit_test(out, **settings)
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out))
    assert code == 2 and one_error_line(err) == f"leaves: error: {line}"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--games", "30", "--max-games", "20"], "--max-games (20) must be at least --games (30)"),
        (["--alpha", "0.7"], "--alpha must be between 0 and 0.5, got 0.7"),
        (["--margin", "0"], "--margin must be a positive number of percentage points, got 0"),
    ],
)  # fmt: skip
def test_a_typed_value_is_named_by_its_flag(tmp_path, capsys, args, line):
    out = tmp_path / "run"
    code, _, err = cli(capsys, *GAUNTLET, "--sequential", *args, "--out", str(out))
    assert code == 2 and one_error_line(err) == f"leaves: error: {line}"
    assert not out.exists()


NOBODY_WON = (
    "Undecided whether greedy is better than {baseline}: none of the {games} games per side was "
    "won, by either side or the field, so every duplicate set's difference is 0 whichever "
    "strategy is better; the sequential test (0 against +1 percentage point) weighed nothing "
    "and stopped after batch 1."
)


@pytest.mark.parametrize(
    ("baseline", "label"), [(["--baseline", "greedy"], "greedy (baseline)"), ([], "weighted")]
)
def test_a_sequential_gauntlet_nobody_won_says_its_test_weighed_nothing(
    tmp_path, capsys, baseline, label
):
    out = tmp_path / "run"
    said, err = _sequential_run(capsys, out, "--turn-limit", "1", "--max-games", "600",
                                *baseline)  # fmt: skip
    lines = said.splitlines()
    assert len(lines) == 4 and lines[0].startswith("greedy wins 0.0% "), said
    assert lines[1] == NOBODY_WON.format(baseline=label, games=12), said
    assert lines[2] == ("Both sides together: 24 games (100.0%) stopped unfinished at a limit of "
                        "the game (1 turn a game) and count as nobody's win."), said  # fmt: skip
    assert "No test was made" not in said and "LLR" not in said, said
    assert ("batch 1: 12 games per side, none won by either side or the field: every duplicate "
            "set's difference is 0 whichever strategy is better, so the test stops here, "
            "undecided") in err.splitlines(), err  # fmt: skip
    rec = json.loads((out / "manifest.json").read_text())["sequential"]
    assert rec["decision"] == "undecided" and rec["finished"] and rec["llr"] is None
    assert rec["batches"] == 1 and rec["games_per_side"] == 12  # stopped: 600 not reached
    assert rec["sentence"] == lines[1]
    code, again, _ = cli(capsys, "gauntlet", "--resume", "--out", str(out))
    assert code == 0 and again.splitlines()[:2] == lines[:2], again  # said alike once finished


def test_the_help_says_a_batch_nobody_won_stops_the_test_undecided():
    from leaves_cli.gauntlet_cmd import gauntlet

    said = " ".join((gauntlet.help or "").split())
    assert "A batch in which no game was won stops it undecided" in said


def test_a_sequential_gauntlet_with_winners_is_weighed_as_before(tmp_path, capsys):
    said, err = _sequential_run(capsys, tmp_path / "run", "--max-games", "12")
    assert "LLR" in said and "weighed nothing" not in said and "none won" not in err, said


def _help(name: str) -> str:
    from leaves_cli.gauntlet_cmd import gauntlet

    return " ".join(next(p.help for p in gauntlet.params if p.name == name).split())


def test_the_default_cap_is_the_help_s_or_games_where_more(tmp_path, capsys, monkeypatch):
    from leaves_cli import sequential

    cap = f"{sequential.SEQUENTIAL_MAX_GAMES:,}"
    assert f"(default {cap}, or --games where more)" in _help("max_games")
    monkeypatch.setattr(sequential, "SEQUENTIAL_MAX_GAMES", 6)  # below --games: --games is the cap
    out = tmp_path / "run"
    _sequential_run(capsys, out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["spec"]["gauntlet"]["sequential"]["max_games"] == 12


def test_a_resume_takes_the_runs_options_but_not_its_jobs(tmp_path, capsys):
    assert "--players, --games, --seed and the test are the run's" in _help("resume")
    out = tmp_path / "run"
    _sequential_run(capsys, out, "--max-games", "12")
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out), "--jobs", "2")
    assert code == 0, err  # this run's players, not the run's
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out), "--seed", "5")
    assert (
        code == 2
        and "--seed 5 differs from this run's seed 0: resume with --seed 0, or drop --seed"
        in one_error_line(err)
    )
