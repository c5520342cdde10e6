"""``leaves tune`` at edges the tuning's sentences must stay true at: a rule variant for two
players (its rows have two seat columns), and rules under which no game is won (equal
scores then say nothing of what the parameters change)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
SMALL = ["--budget", "500", "--seed", "3", "--popsize", "3", "--sigma", "0.2", "--jobs", "1",
         "--candidate-games", "24", "--verify-games", "48"]  # fmt: skip
"""Three generations, then five finalists, each arm of the verification 48 games."""


def test_a_variant_for_two_players_is_tuned_and_verified(capsys, monkeypatch, tmp_path):
    """Two seats a table: the verification pairs the arms' games by the two seats the rows
    hold (no error naming a third seat's column) and says its verdict."""
    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tune", TOY, "--against", "random", *SMALL, "--out",
                            str(out), "--rules", "players=2,hand_size=2:13")  # fmt: skip
    assert code == 0, err
    assert "rules: hand_size=2:13, players=2" in stdout
    assert "verification on fresh seeds (48 games each" in stdout
    assert (out / "tune.json").is_file() and (out / "best.txt").is_file()


def test_a_search_where_no_game_is_won_says_so_not_that_nothing_changed(capsys, monkeypatch,
                                                                         tmp_path):  # fmt: skip
    """Every game ends at the first turn with no winner: Toy's parameter changes its play
    (``low``, ``greedy`` or ``random`` by x), yet every score is 0. The result says that no
    game was won, never that the parameter changes no decision."""
    import json

    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tune", TOY, "--against", "random", *SMALL, "--out",
                            str(out), "--rules", "turn_limit=1")  # fmt: skip
    assert code == 0, err
    lines = stdout.splitlines()
    doc = json.loads((out / "tune.json").read_text())
    games = doc["settings"]["games_used"]
    assert lines[0] == (
        f"no candidate can be told from the start: {TOY} won none of the {games:,} games of "
        "the search, with the starting parameters or any candidate's, so its win rates "
        f"cannot tell the parameter(s) x apart; best.txt holds the start"
    )
    assert "decision" not in stdout, stdout
    assert doc["settings"]["no_win"] and doc["headline"] == lines[0]
    assert (out / "best.txt").read_text() == f"{TOY}\n"
    assert not doc["warnings"] or all("decision" not in w for w in doc["warnings"])


def test_a_resume_refused_for_a_folder_of_other_files_says_where_to_start(capsys, tmp_path):
    """No saved tuning in a folder that holds other files: a tuning cannot start there
    either, so the refusal sends the user to a new --out, and the advice it gives holds."""
    out = tmp_path / "t"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *SMALL, "--out", str(out),
                       "--resume")  # fmt: skip
    assert code == 2 and err == (
        f"leaves: error: cannot resume {out}: it holds no saved tuning (no tune-state.pkl); "
        "leave out --resume to start one in a new --out\n"
    ), err
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *SMALL, "--out", str(out))
    assert code == 2 and "is not empty: pick a new --out" in err, err


def test_the_no_effect_warning_says_what_was_counted(monkeypatch, tmp_path):
    """Every evaluation scores half its games, whatever Toy's x (which changes its play): the
    warning says that the win counts showed no change, as they did, never that the parameter
    changed no decision over the games."""
    from tuning import tune
    from tuning.evaluate import Field, Score

    monkeypatch.setattr(Field, "score", lambda self, cand, games, seed: Score(games // 2, games))
    result = tune(TOY, ["random"], players=4, budget=500, seed=3, n_jobs=1, out=tmp_path / "t",
                  popsize=3, candidate_games=24, verify_games=48, sigma=0.2)  # fmt: skip
    assert result.settings["no_effect"] and not result.settings["untried"]
    (line,) = [w for w in result.warnings if "parameter(s) x" in w]
    assert line.startswith(
        "the parameter(s) x changed no decision the win counts show: every candidate won as "
        "many games as the start on its generation's deals, every finalist as many as the "
        "others; try a larger first step (--sigma)"
    ), line


def test_the_default_population_is_the_one_the_docstring_gives(tmp_path):
    """4 + 3 ln(dim), rounded down, dim at least 2: one parameter (Toy) 6, three (taker) 7,
    ten (weighted) 10."""
    import math

    import strategies
    from tuning.plan import checked
    from tuning.tune import tune

    assert "dim at least 2 (one parameter is searched beside an ignored coordinate: 6)" in (
        " ".join(tune.__doc__.split())
    )
    for spec, dim in ((TOY, 1), ("taker", 3), ("weighted", 10)):
        assert len(strategies.tunables(spec)) == dim
        plan = checked(spec, ["random"], 4, 200_000, 1, 1, tmp_path / spec.rsplit(":")[-1],
                       popsize=None, candidate_games=None, verify_games=None, sigma=0.05)  # fmt: skip
        assert plan.popsize == 4 + math.floor(3 * math.log(max(dim, 2)))
        assert plan.popsize == {1: 6, 3: 7, 10: 10}[dim]


def test_the_games_asked_per_candidate_and_arm_are_rounded_up_as_the_help_says(capsys,
                                                                               monkeypatch,
                                                                               tmp_path):  # fmt: skip
    """A table of Toy and three of ``random`` plays a deal under 4 seatings: 10 games a
    candidate become 12, 50 an arm 52, as --help says they are rounded up."""
    monkeypatch.setenv("COLUMNS", "300")
    code, help_text, _ = cli(capsys, "tune", "--help")
    assert code == 0
    help_text = " ".join(help_text.split())
    assert ("--candidate-games INTEGER Games per candidate, rounded up so every table plays "
            "every seating of its deals (default: from budget).") in help_text  # fmt: skip
    assert ("--verify-games INTEGER Games per verification arm, rounded up as "
            "--candidate-games (default: budget/2).") in help_text  # fmt: skip
    flags = ["--budget", "500", "--seed", "3", "--popsize", "3", "--jobs", "1",
             "--candidate-games", "10", "--verify-games", "50"]  # fmt: skip
    code, stdout, err = cli(capsys, "tune", TOY, "--against", "random", *flags, "--out",
                            str(tmp_path / "t"))  # fmt: skip
    assert code == 0, err
    assert "(+ start) x 12 games, then" in stdout, stdout
    assert "verification on fresh seeds (52 games each" in stdout, stdout


def test_turn_limit_one_ends_every_game_of_todays_hands_with_no_winner(tmp_path):
    """docs/tuning.md gives ``--rules turn_limit=1`` as rules under which nobody wins: no
    hand of today's sizes is shed in one turn, at any table size."""
    from leaves.commands.rules import parse_rules
    from leaves.plugin import LeavesGame
    from tournaments import Tournament

    game = LeavesGame(rules=parse_rules(("turn_limit=1",)))
    field = ["greedy", "low", "high", "random", "taker", "weighted"]
    run = Tournament(field, players=(3, 4, 5, 6), games=400, seed=1, game=game)
    summary = run.run(n_jobs=1, out=tmp_path / "r").summary()
    assert summary["games"].min() > 0 and summary["wins"].sum() == 0


def test_a_verification_sized_by_its_own_option_is_not_enlarged_by_the_budget(capsys,
                                                                              monkeypatch,
                                                                              tmp_path):  # fmt: skip
    """--verify-games given: a larger --budget plays the same verification, so the warning of
    a wide interval names --verify-games alone (worked out from the budget, it names both)."""
    from tuning.tune import _warnings
    from tuning.verify import Arm, Verification

    monkeypatch.setenv("COLUMNS", "300")
    said = {}
    for budget in ("500", "1000"):
        flags = [*SMALL, "--budget", budget, "--out", str(tmp_path / budget)]
        code, stdout, err = cli(capsys, "tune", TOY, "--against", "random", *flags)
        assert code == 0, err
        assert "verification on fresh seeds (48 games each" in stdout, stdout
        said[budget] = [ln for ln in stdout.splitlines() if ln.startswith("warning: the ver")]
    (line,) = said["500"]
    assert line.endswith("only a larger difference would show; raise --verify-games"), line
    arm = Arm("x", "x", 400, 200, 0.5, 0.45, 0.55)
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.031, diff_low=-0.049, diff_high=0.111,
                     p_value=0.4, units=100, games_differing=30)  # fmt: skip
    assert _warnings(v, False, ["x"], True)[0].endswith("raise --verify-games or --budget")


def test_a_tuning_stopped_before_its_first_save_says_what_a_rerun_plays(capsys, monkeypatch,
                                                                          tmp_path):  # fmt: skip
    """Stopped before anything was saved: a rerun with the --seed given plays the same games;
    without one, the fresh seed drawn was never saved, and the line says so rather than
    pointing to a --seed the user never gave."""
    import importlib

    tune_module = importlib.import_module("tuning.tune")  # the module: tuning.tune is tune()

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module, "_state", stopped)
    at = SMALL.index("--seed")
    flags = SMALL[:at] + SMALL[at + 2 :]  # no --seed
    head = "interrupted before a generation was saved: the tuning cannot be resumed; run the "
    for seed, again in ((["--seed", "3"], "(with the same --seed it plays the same games)"),
                        ([], "(without --seed it draws a fresh seed: give one to make a tuning "
                             "repeatable)")):  # fmt: skip
        out = tmp_path / str(len(seed))
        code, _, err = cli(capsys, "tune", TOY, "--against", "random", *flags, *seed, "--out",
                           str(out))  # fmt: skip
        assert code == 130, err
        assert err.splitlines()[0] == f"{head}command again {again}", err
        assert not (out / "tune-state.pkl").exists()
