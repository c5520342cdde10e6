"""``leaves tune`` and the tuning API at edges their sentences must stay true at: a bound of
the verification's interval just below 0, a number typed beyond what a float holds, the
versions of a game other than the default, a match rule given to single games, and a
verification arm whose manifest was deleted."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path
from typing import Any

import click
import pytest

from leaves.plugin import LeavesGame
from tests.helpers import cli

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
SMALL = ["--budget", "500", "--seed", "3", "--popsize", "3", "--sigma", "0.2", "--jobs", "1",
         "--candidate-games", "24", "--verify-games", "48"]  # fmt: skip
"""Three generations, then five finalists, each arm of the verification 48 games."""
ARGS = dict(players=4, budget=500, seed=3, popsize=3, candidate_games=24, verify_games=48,
            sigma=0.2)  # fmt: skip
"""``SMALL`` as the Python API takes it."""


def _verification(diff: float, low: float, high: float, p: float = 0.5) -> Any:
    from tuning.verify import Arm, Verification

    arm = Arm("taker", "taker", 400, 128, 0.32, 0.275, 0.365)
    return Verification(seed=1, tuned=arm, start=arm, diff=diff, diff_low=low, diff_high=high,
                        p_value=p, units=100, games_differing=9)  # fmt: skip


# --- the verification's interval: a bound below 0 never reads '+0.0' ----------------------


def test_a_verification_bound_just_below_0_reads_on_its_side():
    """-0.00001 points (four decimals still write 0) is '-0.0', as the reports write such a
    bound; '+0.0' would read as an interval clear of 0. One a little larger gets the decimals
    that show it. The tuner's paired line and its verdict line say the same."""
    from tuning.tune import _paired

    v = _verification(0.01, -1e-7, 0.02)
    assert v.span() == "[-0.0, +2.0]"
    assert v.span(2) == "[-0.00, +2.00]"
    assert v.difference(of="of win rate") == "+1.0 percentage point of win rate [-0.0, +2.0]"
    assert _paired(v) == "+1.00 percentage point [-0.00, +2.00], p = 0.50"
    assert _verification(0.01, -1e-5, 0.02).span() == "[-0.001, +2.000]"
    assert _verification(0.01, 1e-7, 0.02).span() == "[+0.0, +2.0]"  # above 0: its own side


def test_the_decimals_docstring_names_both_sides_of_0():
    """``digits`` says it adds decimals for a bound other than 0 on either side, not only for
    an interval clear of 0 (the rule it follows, ``apart_digits``)."""
    from tuning.verify import Verification

    doc = " ".join((Verification.digits.__doc__ or "").split())
    assert "a bound other than 0 would read 0, on either side of it" in doc
    assert _verification(0.0, -0.0004, 0.002).digits() == 2  # -0.04 points: more decimals


# --- a number beyond what a float holds, refused as typed --------------------------------


def _number_options() -> list[tuple[str, str]]:
    """(command words, flag) of every option whose value is read as a number with a fraction
    (``leaves_cli.options.Number``), in every command and subcommand."""
    from leaves_cli.main import all_commands
    from leaves_cli.options import Number, flag_of

    def walk(words: str, command: Any) -> list[tuple[str, str]]:
        if isinstance(command, click.Group):
            return [o for sub, c in command.commands.items() for o in walk(f"{words} {sub}", c)]
        return [(words, flag_of(p)) for p in command.params
                if isinstance(p, click.Option) and isinstance(p.type, Number)]  # fmt: skip

    found = []
    for name, (module, attr, _) in all_commands().items():
        found += walk(name, getattr(importlib.import_module(module), attr))
    return found


NUMBER_OPTIONS = _number_options()


def test_the_number_options_are_found():
    assert ("tune", "--sigma") in NUMBER_OPTIONS
    assert ("compare", "--alpha") in NUMBER_OPTIONS


UNHELD = {
    "1e-400": "a number too close to 0 to be held apart from it (it would read as 0)",
    "-1e-400": "a number too close to 0 to be held apart from it (it would read as 0)",
    "1e400": "a number too large to be held (it would read as infinity)",
    "-1e400": "a number too large to be held (it would read as minus infinity)",
}
"""Typed numbers a float cannot hold, and the words that say why."""


@pytest.mark.parametrize("typed", list(UNHELD))
@pytest.mark.parametrize(("words", "flag"), NUMBER_OPTIONS)
def test_a_number_beyond_a_float_is_refused_as_typed(capsys, monkeypatch, words, flag, typed):
    """1e-400 is not 0.0, nor 1e400 infinity: the refusal quotes the user's own text, in one
    line, whichever option reads a number (`--sigma 1e-400` said 'got 0.0')."""
    monkeypatch.setenv("COLUMNS", "300")
    code, out, err = cli(capsys, *words.split(), f"{flag}={typed}")
    assert code == 2 and not out, (code, out)
    (line,) = err.splitlines()
    assert line.startswith(f"leaves: error: {flag} takes a number"), line
    assert f", got {typed}, {UNHELD[typed]}" in line, line
    assert "0.0" not in line and "inf," not in line, line


def test_numbers_a_float_holds_are_read_as_before():
    """A subnormal number, a zero in any spelling, infinity typed as a word and a text that
    is no number at all are left to the checks they met before."""
    from leaves_cli.options import beyond_float

    for text in ("1e-320", "0", "-0.0", "0e5", "0.0e-500", "inf", "-Infinity", "nan", "x", ""):
        assert beyond_float(text) == "", text
    assert beyond_float(0.0) == "" and beyond_float(1e308) == ""  # a default, not typed


# --- the versions tune.json records: the played game's -----------------------------------


class DeclaredGame(LeavesGame):
    """13 Leaves whose declaration names versions of its own: what a tuning of another game
    records must be what that game declares, not the default game's."""

    def versions(self) -> dict[str, str]:
        return {"declared-core": "7.1"}


def test_a_tuning_of_another_game_records_that_games_versions(tmp_path):
    from tuning import tune

    result = tune(TOY, ["random"], n_jobs=1, out=tmp_path / "t", game=DeclaredGame(), **ARGS)
    versions = json.loads((result.out / "tune.json").read_text())["versions"]
    assert versions["declared-core"] == "7.1"
    assert "leaves" not in versions  # the default game's own
    assert {"python", "cma", "numpy"} <= set(versions)


# --- --rules expert_target: a match rule, and a tuning plays single games ----------------


@pytest.mark.parametrize(("rules", "target"), [("expert_target=30", 30),
                                               ("take=ends,expert_target=20", 20)])  # fmt: skip
def test_a_match_target_rule_is_refused_in_one_line(capsys, monkeypatch, tmp_path, rules,
                                                    target):  # fmt: skip
    """expert_target ends a match, never a game: a tuning under it would print it in its
    rules line and play the same games as without it. Refused as ``leaves play`` refuses it
    without a match (its default typed too), before a folder is made."""
    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tune", TOY, "--against", "random", *SMALL, "--out",
                            str(out), "--rules", rules)  # fmt: skip
    assert (code, stdout) == (2, "")
    assert err == (
        f"leaves: error: --rules expert_target={target} ends a match, never a game, and leaves "
        "tune plays single games: leave expert_target out\n"
    ), err
    assert not out.exists()


def test_play_says_the_same_of_a_match_target_without_a_match(capsys, monkeypatch):
    """The words are those ``leaves play`` refuses the rule with."""
    monkeypatch.setenv("COLUMNS", "300")
    code, _, err = cli(capsys, "play", "--rules", "expert_target=30")
    assert code == 2 and "--rules expert_target=30 ends a match, never a game" in err, err


# --- a verification arm that lost its manifest ---------------------------------------------


def _interrupted_in_the_start_arm(monkeypatch, out: Path) -> None:
    """A tuning stopped as its second verification arm (the start's) begins: the tuned arm's
    run is whole in ``verify/tuned`` (the game given as ``leaves tune`` gives it, so that the
    command resumes it)."""
    from tuning import tune
    from tuning.evaluate import Field

    play = Field.play
    calls = []

    def stopped(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return play(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(Field, "play", stopped)
        with pytest.raises(KeyboardInterrupt):
            tune(TOY, ["random"], n_jobs=1, out=out, game=LeavesGame(), **ARGS)


def test_a_deleted_arm_manifest_says_what_works_for_a_tuning(capsys, monkeypatch, tmp_path):
    """Its manifest deleted, the arm's games are refused with advice a tuning can follow (not
    'play the run again into a new out', which fits a tournament, not one arm of a tuning);
    followed, the resume ends as the uninterrupted tuning."""
    from tuning import tune

    whole = tune(TOY, ["random"], n_jobs=1, out=tmp_path / "whole", game=LeavesGame(), **ARGS)
    out = tmp_path / "t"
    _interrupted_in_the_start_arm(monkeypatch, out)
    arm = out / "verify" / "tuned"
    (arm / "manifest.json").unlink()
    monkeypatch.setenv("COLUMNS", "300")
    code, stdout, err = cli(capsys, "tune", TOY, "--against", "random", "--players", "4",
                            *SMALL, "--out", str(out), "--resume")  # fmt: skip
    assert code != 0 and not stdout
    said, line = err.splitlines()  # what the resume continues from, then why it cannot
    assert said.startswith(f"resuming {out}: "), said
    assert line == (
        f"leaves: error: {arm} holds a verification arm's games but not its manifest.json "
        f"(missing): nothing vouches for them; restore it, or remove {arm} and resume the "
        "tuning, which plays that arm again (on the tuning's seed: the same games)"
    ), line
    assert "new out" not in line and "new --out" not in line
    shutil.rmtree(arm)  # the advice followed
    resumed = tune(TOY, ["random"], n_jobs=1, out=out, resume=True, game=LeavesGame(), **ARGS)
    for name in ("best.txt", "candidates.csv", "search.csv", "verification.csv"):
        assert (out / name).read_bytes() == (whole.out / name).read_bytes(), name
    assert resumed.verification == whole.verification
