"""Rule variants on the command line: ``--rules`` on every command that plays 13 Leaves, the
``[rules]`` table of a config file, ``leaves rules``, what a run keeps of its rules (manifest,
resume, growth, records, replay, report) and the one-line errors."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from leaves import Action, Rules, new_game
from leaves.commands import render
from leaves.commands.moves import MoveError, parse_move
from leaves.commands.play import Seats, play_game
from leaves.record import GameRecord, read_records, replay
from leaves_cli import main
from leaves_cli.console import make_console

ROOT = Path(__file__).resolve().parents[1]
THREE = ["greedy", "low", "high"]
VARIANT = ["--rules", "hand_size=9", "--rules", "take=ends", "--turn-limit", "400"]
VARIANT_WORDS = "hand_size=9, take=ends, turn_limit=400"


def _run(capsys, *args) -> tuple[int, str, str]:
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def _spec(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())["spec"]


def _one_error_line(err: str) -> str:
    """The error line of a failed command: exactly one, the last, no traceback."""
    errors = [line for line in err.splitlines() if line.startswith("leaves: error: ")]
    assert "Traceback" not in err and len(errors) == 1 and err.endswith(errors[0] + "\n"), err
    return errors[0]


@pytest.fixture(scope="module")
def variant_run(tmp_path_factory) -> Path:
    """A small tournament under hand_size=9, take=ends and a turn limit of 400, with records."""
    out = tmp_path_factory.mktemp("rules") / "run"
    args = ["tournament", *THREE, "--players", "3", "--games", "60", "--seed", "3", "--jobs",
            "1", *VARIANT, "--record", str(out.parent / "records.jsonl"), "--out", str(out)]  # fmt: skip
    try:
        main(args)
    except SystemExit as exc:
        assert exc.code in (0, None)
    return out


# ---------------------------------------------------------------- leaves rules
def test_rules_lists_every_key_with_its_default_and_values(capsys):
    from leaves.ruleset import KEYS

    code, out, err = _run(capsys, "rules")
    assert code == 0, err
    flat = " ".join(out.split())
    for key in KEYS:
        assert key.name in out and key.default.split("/")[0] in out
    assert "any, ends, nothing" in flat and "on, off" in flat


def test_rules_check_prints_the_rules_and_the_counts_they_deal(capsys):
    code, out, err = _run(
        capsys, "rules", "--check", "hand_size=9,take=any", "--check", "take=ends"
    )
    assert code == 0, err
    assert "Rules: hand_size=9, take=ends" in out
    assert "Player counts: 3, 4, 5, 6" in out
    assert "6 players: 9 cards each (54 of the deck's 62 dealt)" in out
    code, out, _ = _run(capsys, "rules", "--check", "hand_size=19")
    assert code == 0 and "Player counts: 3\n" in out and "follows hand_size and deck" in out


def test_rules_check_refuses_rules_that_cannot_be_in_one_line(capsys):
    code, _, err = _run(capsys, "rules", "--check", "hand_size=14,players=5")
    assert code == 2
    assert _one_error_line(err) == (
        "leaves: error: --check: cannot deal 5 hands of 14 cards: 70 cards, the deck holds 62"
    )


# ---------------------------------------------------------------- a run under rules
def test_a_tournament_records_its_rules_and_its_games_are_played_under_them(variant_run):
    config = _spec(variant_run)["game_config"]
    assert config["rules"] == {"hand_size": 9, "take": "ends"} and config["turn_limit"] == 400
    records = read_records(variant_run.parent / "records.jsonl")
    assert len(records) == 60
    rules = Rules(hand_size=9, take="ends", turn_limit=400)
    for record in records[:10]:
        assert record.rules == {"hand_size": 9, "take": "ends", "turn_limit": 400}
        assert sum(record.hands[0]) == 9
        replay(record, rules=rules)  # legal under these rules, and checked to be theirs


def test_the_tournament_says_its_rules(tmp_path, capsys):
    code, _, err = _run(capsys, "tournament", *THREE, "--players", "3", "--games", "6",
                        "--jobs", "1", "--rules", "min_count=off", "--out", tmp_path / "r")  # fmt: skip
    assert code == 0, err
    assert "13 Leaves under the rules min_count=off" in err


def test_a_config_rules_table_with_the_command_line_over_it(tmp_path, capsys):
    cfg = tmp_path / "t.toml"
    cfg.write_text(
        '[tournament]\nstrategies = ["greedy", "low", "high"]\nplayers = [3]\ngames = 6\n'
        'jobs = 1\n\n[rules]\nhand_size = {3 = 12, 4 = 11}\ntake = "ends"\n'
        "deck = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]\n"
    )
    code, _, err = _run(capsys, "tournament", "--config", cfg, "--rules", "take=nothing",
                        "--out", tmp_path / "a")  # fmt: skip
    assert code == 0, err
    rules = _spec(tmp_path / "a")["game_config"]["rules"]
    assert rules == {"hand_size": {"3": 12, "4": 11}, "deck": [4] * 13, "take": "nothing"}
    inline = tmp_path / "inline.toml"  # the table inside [tournament], the file's rules alone
    inline.write_text('strategies = ["greedy", "low", "high"]\nplayers = 3\ngames = 6\n'
                      "jobs = 1\n\n[rules]\nmin_count = false\n")  # fmt: skip
    code, _, err = _run(capsys, "tournament", "--config", inline, "--out", tmp_path / "b")
    assert code == 0, err
    assert _spec(tmp_path / "b")["game_config"]["rules"] == {"min_count": False}


def test_the_example_config_reads_with_its_rules_table_uncommented(tmp_path, capsys):
    text = (ROOT / "examples" / "tournament.toml").read_text()
    table = text[text.index("# [rules]") :]
    rules = "\n".join(line[2:].split("  #")[0] for line in table.splitlines() if line)
    cfg = tmp_path / "ex.toml"
    cfg.write_text(text[: text.index("# Rules other")] + rules)
    code, _, err = _run(capsys, "tournament", "--config", cfg, "--games", "20", "--jobs", "1",
                        "--players", "3", "--out", tmp_path / "ex")  # fmt: skip
    assert code == 0, err
    want = {"hand_size": 9, "min_count": False, "take": "ends"}  # its deck is today's
    assert _spec(tmp_path / "ex")["game_config"]["rules"] == want


def test_resume_refuses_other_rules_naming_both(variant_run, capsys):
    code, _, err = _run(capsys, "tournament", "--out", variant_run, "--resume",
                        "--rules", "take=nothing")  # fmt: skip
    assert code == 2
    assert _one_error_line(err) == (
        f"leaves: error: cannot resume {variant_run}: --rules says take=nothing, but this run "
        f"was played under {VARIANT_WORDS}: drop --rules"
    )
    cfg = variant_run.parent / "other.toml"
    cfg.write_text('[rules]\ntake = "any"\n')
    code, _, err = _run(capsys, "tournament", "--out", variant_run, "--resume", "--config", cfg)
    assert code == 2 and f"rules in {cfg} says today's rules" in _one_error_line(err)


def test_resume_restores_the_rules_and_growing_keeps_them(variant_run, tmp_path, capsys):
    run = tmp_path / "copy"
    shutil.copytree(variant_run, run)
    code, _, err = _run(capsys, "tournament", "--out", run, "--resume", "--add", "30")
    assert code == 0, err
    spec = _spec(run)
    assert spec["n_games"] > 60 and spec["game_config"] == _spec(variant_run)["game_config"]
    code, _, err = _run(capsys, "tournament", "--out", run, "--resume",
                        "--rules", "take=ends,hand_size=9")  # the same rules: accepted  # fmt: skip
    assert code == 0, err


def test_replay_of_a_variant_runs_game_names_and_checks_its_rules(variant_run, capsys):
    code, out, err = _run(capsys, "replay", variant_run, "--game", "2", "--all")
    assert code == 0, err
    assert "warning" not in err
    assert f"rules {VARIANT_WORDS}" in " ".join(out.split())
    code, out, err = _run(capsys, "replay", variant_run.parent / "records.jsonl", "--all")
    assert code == 0 and f"rules {VARIANT_WORDS}" in " ".join(out.split())


def test_the_report_overview_names_the_rules(variant_run):
    """The plug-in names its settings in words (13 Leaves: its rules), the manifest keeps
    them, and the report's overview shows them; another game names none."""
    from reports.loading import load_run
    from reports.sections import overview
    from tournaments.games import get_game

    manifest = json.loads((variant_run / "manifest.json").read_text())
    assert manifest["game_settings"] == {"rules": VARIANT_WORDS}
    assert ("rules", VARIANT_WORDS) in overview(load_run(variant_run), variant_run / "report")
    assert get_game("leaves").settings_words() == {"rules": "today's rules"}
    assert get_game("ligretto").settings_words() == {}


# ---------------------------------------------------------------- one-line errors
ERRORS = [
    (["tournament", *THREE, "--rules", "bogus=1", "--out", "X"],
     "--rules: unknown rule 'bogus'; the rules are hand_size, deck, players, min_count, take, "
     "expert_target, turn_limit"),
    (["tournament", *THREE, "--rules", "hand_size=14,players=5", "--out", "X"],
     "--rules: cannot deal 5 hands of 14 cards: 70 cards, the deck holds 62"),
    (["tournament", *THREE, "--rules", "take=most", "--out", "X"],
     "--rules: take must be one of any, ends, nothing, got 'most'"),
    (["tournament", *THREE, "--rules", "hand_size=14", "--players", "5", "--out", "X"],
     "13 Leaves under hand_size=14 is played by 3 or 4 players, got 5"),
    (["tournament", *THREE, "--turn-limit", "300", "--rules", "turn_limit=200", "--out", "X"],
     "--turn-limit 300 and --rules turn_limit=200 disagree: give one"),
    (["tournament", "--game", "ligretto", "stack", "row", "--rules", "take=ends", "--out", "X"],
     "--rules is not a Ligretto option"),
    (["tournament", "--game", "tests.toygame:ToyGame", "a", "b", "--rules", "take=ends",
      "--out", "X"], "--rules is not a Toy option"),
    (["gauntlet", "counter", "--against", "taker", "--players", "5", "--rules", "hand_size=14"],
     "13 Leaves under hand_size=14 is played by 3 or 4 players, got 5"),
    (["play", "--players", "5", "--rules", "hand_size=14"],
     "--players 5: 13 Leaves under hand_size=14 is played by 3 or 4 players, got 5"),
    (["play", "--rules", "deck=1/2"], "--rules: deck must list 13 counts (value 1 first), got 2"),
    (["run", "--players", "5", "--rules", "hand_size=14", "--out", "X"],
     "--players 5: 13 Leaves under hand_size=14 is played by 3 or 4 players, got 5"),
    (["tune", "taker", "--against", "low", "--rules", "min_count=maybe", "--out", "X"],
     "--rules: min_count must be on or off, got 'maybe'"),
    (["tournament", *THREE, "--config", "{d}/bad.toml", "--out", "X"],
     "[rules]: no player count 3..6 can be dealt: 3 hands of 30 need 90 cards, the deck holds 62 "
     "(players=2 deals 2 hands of 30: a count below 3 is dealt only when named)"),
]  # fmt: skip


@pytest.mark.parametrize("args, message", ERRORS, ids=[" ".join(a[:4]) for a, _ in ERRORS])
def test_bad_rules_are_one_line_and_exit_2(args, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.toml").write_text("[rules]\nhand_size = 30\n")
    args = [a.replace("{d}", str(tmp_path)) for a in args]
    code, _, err = _run(capsys, *args)
    assert code == 2, err
    assert message in _one_error_line(err)
    assert not (tmp_path / "X").exists()


def test_a_plugin_game_without_rules_refuses_them(tmp_path):
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests" / "plugins")])}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "tournament", "--game", "climb", "low", "high",
         "--rules", "take=ends", "--out", str(tmp_path / "c")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "leaves: error: --rules is not a Climb option\n"


# ---------------------------------------------------------------- gauntlet
def test_a_gauntlet_under_a_variant_keeps_its_rules(tmp_path, capsys):
    out = tmp_path / "g"
    args = ["gauntlet", "counter", "--against", "taker,greedy", "--players", "3", "--games",
            "60", "--jobs", "1", "--out", out]  # fmt: skip
    code, stdout, err = _run(capsys, *args, "--rules", "take=ends")
    assert code == 0, err
    assert "13 Leaves under the rules take=ends" in err and "counter wins" in stdout
    assert _spec(out)["game_config"]["rules"] == {"take": "ends"}
    code, _, err = _run(capsys, *args, "--resume", "--rules", "min_count=off")
    assert (
        code == 2 and "--rules says min_count=off, but this run was played under take=ends" in err
    )
    code, _, err = _run(capsys, *args, "--resume")  # the run's rules, restored
    assert code == 0, err


# ---------------------------------------------------------------- play
class RandomBot:
    label = "stand-in"

    def choose(self, view, legal, rng):
        return legal[int(rng.integers(len(legal)))]


def test_play_under_take_nothing_passes_by_typing_pass():
    out = io.StringIO()
    console = make_console(file=out, width=100)
    bots: list = [None, RandomBot(), RandomBot()]
    rngs = [np.random.default_rng(7 + i) for i in range(3)]
    prompts: list[str] = []

    def read(prompt: str) -> str:  # "pass" and a key in turn: a refused pass is followed by a play
        prompts.append(prompt)
        return "pass" if len(prompts) % 2 else "1"

    start = new_game(3, seed=5, rules=Rules(take="nothing"))
    final = play_game(console, start, Seats(["you", "stand-in", "stand-in"], bots, rngs), read)
    text = out.getvalue()
    assert final.is_terminal
    assert (0, Action.pass_()) in final.history  # the human's pass taking nothing, id 117
    assert "You pass." in text
    assert "A pass takes no card (take=nothing)" in " ".join(text.split())
    assert "move like '3x6' / 'pass'" in text
    replay(GameRecord.from_states(start, final), rules=Rules(take="nothing"))


def test_typed_passes_follow_the_rules():
    from tests.helpers import counts, position

    hands = [counts(v3=3, v5=4, v9=1, v12=1, v13=2), counts(v1=2), counts(v8=2), counts(v10=1)]
    table = counts(v2=1, v6=3, v12=2)  # ends 2 and 12, a stack of 6s between them
    nothing = position(hands, table=table, rules={"take": "nothing"})
    assert parse_move("pass", nothing) is Action.pass_()
    with pytest.raises(MoveError, match=r"takes nothing \(take=nothing\)"):
        parse_move("take 6", nothing)
    ends = position(hands, table=table, rules={"take": "ends"})
    with pytest.raises(MoveError, match=r"e\.g\. 'take 12' \(end stacks: 2, 12\)"):
        parse_move("pass", ends)
    with pytest.raises(MoveError, match=r"only an end stack \(take=ends\)"):
        parse_move("take 6", ends)
    assert parse_move("take 12", ends) is Action.take(12)
    rule = render.end_rules(ends.ends, ends.rules)
    assert rule.endswith("A pass takes a card of an end stack only (take=ends).")
    assert "at least" not in render.end_rules(ends.ends, Rules(min_count=False))


def test_play_command_under_a_variant_saves_its_rules(tmp_path, capsys, monkeypatch):
    save = tmp_path / "games.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 2000))
    code, out, err = _run(capsys, "play", "--players", "3", "--against", "random", "--seed", "3",
                          "--rules", "take=nothing,min_count=off", "--save", save)  # fmt: skip
    assert code == 0, err
    assert "Rules: min_count=off, take=nothing" in out
    assert "(any number of cards)" in " ".join(out.split())
    (record,) = read_records(save)
    assert record.rules == {"min_count": False, "take": "nothing"}
    replay(record, rules=Rules(take="nothing", min_count=False))


# ---------------------------------------------------------------- tune and run
TOY = str(ROOT / "tests" / "toy_tunable.py") + ":Toy"


def test_tune_under_a_variant_plays_every_tournament_under_it(tmp_path, capsys):
    out = tmp_path / "t"
    code, stdout, err = _run(
        capsys, "tune", TOY, "--against", "random", "--players", "3", "--budget", "1200",
        "--seed", "4", "--popsize", "2", "--candidate-games", "60", "--verify-games", "120",
        "--jobs", "1", "--rules", "take=nothing", "--out", out,
    )  # fmt: skip
    assert code == 0, err
    assert "rules: take=nothing" in stdout
    settings = json.loads((out / "tune.json").read_text())["settings"]
    assert settings["game_config"]["rules"] == {"take": "nothing"}
    assert settings["game_settings"] == {"rules": "take=nothing"}
    for arm in ("tuned", "start"):
        assert _spec(out / "verify" / arm)["game_config"]["rules"] == {"take": "nothing"}


@pytest.mark.slow
def test_run_under_a_variant_and_its_comparison_with_todays_rules(tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, err = _run(capsys, "run", "--games", "1", "--players", "3", "--jobs", "1",
                             "--rules", "take=ends", "--out", out)  # fmt: skip
    assert code == 0, err
    assert "rules: take=ends" in stdout
    assert _spec(out)["game_config"]["rules"] == {"take": "ends"}
    assert "<dt>rules</dt><dd>take=ends</dd>" in (out / "report" / "report.html").read_text()
    try:
        import reports.variants  # noqa: F401 - the comparison is made where it is installed
    except ImportError:
        assert not (out / "default-rules").exists()
        return
    assert "rules" not in _spec(out / "default-rules")["game_config"]
    assert f"rules compared with today's: {out / 'variants' / 'report.html'}" in stdout
    assert (out / "variants" / "report.html").is_file()
