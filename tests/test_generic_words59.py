"""The generic layers' sentences in the words of the game played: what ``leaves ...`` prints
for a game in rounds (a match of it is a game) and for one in games, each checked against
the truth (the run's rows, the plug-in's declaration, the registry)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]
SLOW = ["stack:think_ms=60000", "row:think_ms=60000"]  # every round reaches the time limit
IDLE = "think_ms=600000,spread_ms=0"  # plays nothing before the limit: every score is -20


# --- bench: what its help says is played ---------------------------------------------------


def test_bench_help_claims_no_random_play_a_game_may_not_play(capsys):
    """A game's benchmark plays what its plug-in picks: one plays random legal moves, another
    its built-in players' attention orders, where only one of them chooses at random."""
    from ligretto import bench

    assert "attention orders of the built-in players" in " ".join(bench.__doc__.split())
    code, out, _ = cli(capsys, "--help")
    assert code == 0
    (line,) = [x for x in out.splitlines() if x.strip().startswith("bench ")]
    assert "random" not in line and "one core" in line
    code, out, _ = cli(capsys, "bench", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "uniformly" not in text and "random-play" not in text
    assert "What the seats play is the game's choice" in text


# --- tournament: units stopped unfinished, in the game's unit ------------------------------


def _unfinished(out: Path) -> int:
    import reports

    return int(reports.load_run(out).games.unfinished.sum())


def test_tournament_says_rounds_stopped_unfinished_and_how_they_count(capsys, tmp_path):
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "--game", "ligretto", *SLOW, "--players", "2",
                          "--games", "4", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    n = _unfinished(out)
    assert n == 4  # the truth, from the rows
    rows = pd.concat(pd.read_parquet(p) for p in sorted((out / "games").rglob("*.parquet")))
    assert (rows["time_ms"] == 600_000).all()  # every one at the clock
    (line,) = [x for x in said.splitlines() if "stopped unfinished" in x]
    assert line == (
        f"{n} rounds (100.0%) stopped unfinished at a limit of the game (10 minutes of game time "
        "a round) and are scored as they stood, won by whoever was ahead (a higher score) when "
        "they stopped."
    )


def test_tournament_says_games_stopped_unfinished_at_the_turn_limit(capsys, tmp_path):
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                          "--games", "6", "--turn-limit", "5", "--seed", "1", "--jobs", "1",
                          "--out", str(out))  # fmt: skip
    assert code == 0, err
    n = _unfinished(out)
    assert n == 6
    (line,) = [x for x in said.splitlines() if "stopped unfinished" in x]
    assert line == (
        f"{n} games (100.0%) stopped unfinished at a limit of the game (5 turns a game) and "
        "count as nobody's win."
    )
    assert f"`{line}`" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")  # its example


def test_tournament_says_nothing_of_unfinished_games_when_none_stopped(capsys, tmp_path):
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                          "--games", "6", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert _unfinished(out) == 0
    assert "unfinished" not in said


# --- replay, --target and --add in the game's unit -----------------------------------------


def test_replay_past_the_last_record_counts_in_the_games_unit(capsys, tmp_path):
    out, records = tmp_path / "run", tmp_path / "rounds.jsonl"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "--players",
                       "2", "--games", "4", "--seed", "1", "--jobs", "1", "--out", str(out),
                       "--record", str(records))  # fmt: skip
    assert code == 0, err
    assert len(records.read_text(encoding="utf-8").splitlines()) == 4
    code, _, err = cli(capsys, "replay", str(records), "--game", "5")
    assert code == 2
    assert err.strip().endswith(f"--game 5: {records} holds only 4 round records"), err
    one = tmp_path / "one.jsonl"
    one.write_text(records.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    code, _, err = cli(capsys, "replay", str(one), "--game", "2")
    assert code == 2 and err.strip().endswith("holds only 1 round record"), err


def test_replay_past_the_last_record_of_games_says_games(capsys, tmp_path):
    out, records = tmp_path / "run", tmp_path / "games.jsonl"
    code, _, err = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                       "--games", "6", "--seed", "1", "--jobs", "1", "--out", str(out),
                       "--record", str(records))  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "replay", str(records), "--game", "9")
    assert code == 2 and err.strip().endswith("holds only 6 game records"), err


@pytest.mark.parametrize(("game", "specs", "unit"), [
    (["--game", "ligretto"], ["stack", "row", "--players", "2"], "game"),
    ([], ["greedy", "low", "high", "--expert"], "match"),
])  # fmt: skip
def test_a_target_below_one_names_what_runs_to_it(capsys, tmp_path, game, specs, unit):
    """A game of rounds runs to its target; a game with matches runs its matches to one."""
    from tournaments.games import game_class

    assert game_class(game[1] if game else "leaves").match_unit == unit
    code, _, err = cli(capsys, "tournament", *game, *specs, "--target", "0", "--out",
                       str(tmp_path / "run"))  # fmt: skip
    assert code == 2
    assert err.strip() == f"leaves: error: --target 0: a {unit} runs to at least 1 point", err
    assert not (tmp_path / "run").exists()


def test_too_few_deals_in_a_run_to_a_target_asks_for_more_of_what_add_grows(capsys, tmp_path):
    """--add grows a run of games to a target by games (rounds to the target), not rounds."""
    import json

    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row",
                          "--players", "2", "--target", "10", "--games", "4", "--seed", "1",
                          "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert json.loads((out / "manifest.json").read_text())["spec"]["n_games"] == 4  # games
    assert "play more games (--resume --add GAMES)" in said
    assert "play more rounds" not in said


# --- findings: tied means ------------------------------------------------------------------


def _means_table(values: list[float]) -> pd.DataFrame:
    names = [chr(ord("a") + i) for i in range(len(values))]
    v = np.array(values)
    return pd.DataFrame({"strategy": names, "score_mean": v, "score_ci_low": v - 1,
                         "score_ci_high": v + 1})  # fmt: skip


def _decl(unit: str = "round"):
    import dataclasses

    from reports.data import default_declaration

    return dataclasses.replace(default_declaration(), rank_value="score", unit=unit)


def test_means_all_tied_are_said_to_be_tied():
    from reports.findings import _means

    (found,) = _means(_means_table([-20.0, -20.0]), _decl())
    assert found.text == "Both strategies have the same mean score per round: -20.00."
    (found,) = _means(_means_table([1.5, 1.5, 1.5]), _decl("game"))
    assert found.text == "All 3 strategies have the same mean score per game: 1.50."


def test_a_tie_at_the_top_or_bottom_names_every_tied_strategy():
    from reports.findings import _means

    (found,) = _means(_means_table([3.0, 3.0, 1.0]), _decl())
    assert found.text == "a and b share the best mean score per round: 3.00; c has the worst: 1.00."
    (found,) = _means(_means_table([3.0, 1.0, 1.0]), _decl())
    assert found.text == ("a has the best mean score per round: 3.00 [2.00, 4.00]; b and c share "
                          "the worst: 1.00.")  # fmt: skip


def test_a_best_and_worst_apart_never_read_as_one_figure():
    from reports.findings import _means

    (found,) = _means(_means_table([-19.999, -20.001]), _decl())
    assert "-19.999" in found.text and "the worst: -20.001." in found.text


def test_a_ligretto_run_of_idle_players_says_their_means_are_tied(capsys, tmp_path):
    import reports
    from reports.findings import key_findings

    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"stack:{IDLE}", f"row:{IDLE}",
                       "--players", "2", "--games", "4", "--seed", "1", "--jobs", "1", "--out",
                       str(out))  # fmt: skip
    assert code == 0, err
    run = reports.load_run(out)
    assert (run.games.values[:, :2] == -20).all()  # the truth: nobody played, every score is -20
    tables, method = reports.compute_tables(run)
    (text,) = [f.text for f in key_findings(tables, method, run.declaration) if f.topic == "means"]
    assert text == "Both strategies have the same mean score per round: -20.00."


# --- tune: a strategy of another game ------------------------------------------------------


@pytest.mark.parametrize("args", [["stack", "--against", "greedy"],
                                  ["weighted", "--against", "greedy,row"]])  # fmt: skip
def test_tune_says_a_strategy_belongs_to_another_game(capsys, tmp_path, args):
    from strategies import registry

    name = args[0] if args[0] == "stack" else "row"
    assert name in registry.names("ligretto") and name not in registry.names("leaves")
    code, _, err = cli(capsys, "tune", *args, "--out", str(tmp_path / "t"))
    assert code == 2
    assert err.strip() == (
        f"leaves: error: unknown strategy {name!r}: it is a Ligretto strategy, and leaves tune "
        "plays 13 Leaves only; commands that take --game ligretto: leaves bench, leaves "
        "gauntlet, leaves strategies, leaves tournament"
    ), err
    assert not (tmp_path / "t").exists()


def test_the_commands_said_to_take_game_are_those_that_do(capsys):
    from leaves_cli.options import commands_with_game

    for command in commands_with_game():
        code, out, _ = cli(capsys, command, "--help")
        assert code == 0 and "--game GAME" in out, command
    code, out, _ = cli(capsys, "report", "--help")
    assert "report" not in commands_with_game() and "--game GAME" not in out


def test_a_misspelt_strategy_of_no_game_still_gets_its_suggestion(capsys, tmp_path):
    code, _, err = cli(capsys, "tune", "stak", "--against", "greedy", "--out", str(tmp_path))
    assert code == 2 and "did you mean 'taker'?" in err


# --- docs: who reaches a round's time limit ------------------------------------------------


def test_the_rules_page_says_slow_timings_reach_the_time_limit_too():
    text = " ".join((ROOT / "docs" / "ligretto-rules.md").read_text(encoding="utf-8").split())
    said = text.split("stopped unfinished at a safety limit", 1)[1].split("scored as it")[0]
    assert "only strategies that refuse" not in said
    assert "stack:think_ms=60000` against `row:think_ms=60000`, every round" in said


# --- replaying a run's unit: the run's rows and the replay, in the game's unit -------------


def test_a_run_without_rows_names_the_games_unit(tmp_path):
    from leaves_cli.errors import CLIError
    from leaves_cli.replay_run import _rows
    from ligretto.plugin import LigrettoGame

    with pytest.raises(CLIError, match=r"has no round rows yet: no round of it can be replayed"):
        _rows(tmp_path, LigrettoGame())


def test_a_replayed_round_that_differs_is_called_a_round(capsys, tmp_path, monkeypatch):
    import dataclasses

    from leaves_cli.replay_run import replay_run_game
    from ligretto.plugin import LigrettoGame

    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "--players",
                       "2", "--games", "2", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    replay = LigrettoGame.replay

    def other(self, *args):  # the code changed since the run: another length
        played = replay(self, *args)
        w, length, f = played.outcome
        return dataclasses.replace(played, outcome=(w, length + 1, f))

    monkeypatch.setattr(LigrettoGame, "replay", other)
    (warning,) = replay_run_game(str(out), 0).warnings
    assert warning.startswith("the replayed round differs from the run's (winner seat, seconds,")
