"""Small defects at the edges: a figure that rounds to zero carries no minus sign, a bad size
for an example is one line, a game record's rules cannot be changed after the fact, and a
loaded file's strategy is listed by the same code as a registered one."""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from leaves import GameRecord, Rules
from leaves.players.play import deal_state
from leaves.record import replay
from reports.numbers import beside_digits, interval, pct, points, signed_points

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


# --- a figure that rounds to zero ---------------------------------------------------------


@pytest.mark.parametrize(
    ("lo", "hi", "kwargs", "text"),
    [
        (-0.0000001, 0.001, {}, "[0.0, 0.1]"),
        (-0.0004, 0.0004, {}, "[0.0, 0.0]"),  # -0.04 at one decimal
        (-0.04, 0.5, {"scale": 1.0}, "[0.0, 0.5]"),
        (-0.00001, 0.2, {"digits": 2}, "[0.00, 20.00]"),
        (-0.0006, 0.2, {}, "[-0.1, 20.0]"),  # rounds away from zero: the sign is claimed
    ],
)
def test_an_interval_bound_that_rounds_to_zero_has_no_minus_sign(lo, hi, kwargs, text):
    assert interval(lo, hi, **kwargs) == text


def test_a_bound_that_rounds_onto_zero_beside_zero_gets_its_decimals():
    """-0.001% set against 0%: at one or two decimals the bound reads as 0, the value beside
    it, so decimals are added until it does not ('-0.001'), as for any other value."""
    assert beside_digits(-0.00001, 0.2, 0.0) == 3
    assert interval(-0.00001, 0.2, beside=0.0) == "[-0.001, 20.000]"


def test_rates_and_differences_that_round_to_zero_have_no_minus_sign():
    assert pct(-0.00001) == "0.0%" and pct(-0.0004) == "0.0%" and pct(-0.0006) == "-0.1%"
    assert pct(-0.000001, digits=3) == "0.000%"
    assert signed_points(-0.00001) == signed_points(0.0) == "+0.0 percentage points"
    assert signed_points(-0.0004) == "+0.0 percentage points"
    assert signed_points(-0.0006) == "-0.1 percentage points"
    assert points(-0.0004) == "0.0 percentage points"


# --- an example's sizes from the environment ------------------------------------------------

SIZED = [  # (script, variable): each example reads its sizes through the one reader
    ("run_tournament.py", "LEAVES_EXAMPLE_GAMES"),
    ("run_tournament.py", "LEAVES_EXAMPLE_JOBS"),
    ("my_strategy.py", "LEAVES_EXAMPLE_GAMES"),
    ("rule_variants.py", "LEAVES_EXAMPLE_GAMES"),
    ("win_rate_chart.py", "LEAVES_EXAMPLE_GAMES"),
    ("train_reinforce.py", "LEAVES_EXAMPLE_GAMES"),
    ("check_my_strategy.py", "LEAVES_EXAMPLE_EXAMPLES"),
]


def _example(script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEAVES_EXAMPLE_")}
    environ.update(env, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    return subprocess.run([sys.executable, str(EXAMPLES / script)], cwd=tmp_path, env=environ,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("script", "var"), SIZED)
def test_an_example_refuses_a_size_that_is_no_whole_number_in_one_line(script, var, tmp_path):
    if script == "train_reinforce.py":
        pytest.importorskip("pettingzoo")
    proc = _example(script, tmp_path, **{var: "abc"})
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    also = " (or -1, every core)" if var.endswith("JOBS") else ""
    assert proc.stderr.strip() == (
        f"{script}: error: {var} must be a whole number of at least 1{also}, got 'abc'"
    )
    assert not list(tmp_path.iterdir())  # nothing played, nothing written


def test_jobs_of_minus_one_is_every_core_as_tournaments_take_it(monkeypatch):
    """LEAVES_EXAMPLE_JOBS=-1 was refused, where ``Tournament.run(n_jobs=-1)`` takes it."""
    from strategies.user_code import load_file

    size = load_file(str(EXAMPLES / "run_tournament.py")).size
    monkeypatch.setenv("LEAVES_EXAMPLE_JOBS", "-1")
    assert size("JOBS", 1) == -1
    monkeypatch.setenv("LEAVES_EXAMPLE_GAMES", "-1")
    with pytest.raises(SystemExit, match="at least 1, got '-1'"):
        size("GAMES", 10)


@pytest.mark.parametrize("value", ["0", "-3", "2.5"])
def test_a_size_of_zero_or_less_is_refused_too(value, tmp_path):
    proc = _example("run_tournament.py", tmp_path, LEAVES_EXAMPLE_GAMES=value)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip() == (
        f"run_tournament.py: error: LEAVES_EXAMPLE_GAMES must be a whole number of at least 1, "
        f"got {value!r}"
    )


def test_an_unset_or_empty_size_is_the_default_and_a_spaced_one_is_read(monkeypatch):
    from strategies.user_code import load_file

    size = load_file(str(EXAMPLES / "run_tournament.py")).size
    monkeypatch.delenv("LEAVES_EXAMPLE_GAMES", raising=False)
    assert size("GAMES", 17) == 17
    for given, read in (("", 17), ("  ", 17), (" 7 ", 7), ("1", 1)):
        monkeypatch.setenv("LEAVES_EXAMPLE_GAMES", given)
        assert size("GAMES", 17) == read


def test_an_example_reads_its_sizes_through_one_reader():
    """No example reads a LEAVES_EXAMPLE_ size with int() of its own: one reader serves all."""
    for path in EXAMPLES.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert 'int(os.environ.get("LEAVES_EXAMPLE_' not in text, path.name


# --- a game record's rules ---------------------------------------------------------------


def _varied_record() -> GameRecord:
    initial = deal_state(4, 3, rules=Rules(take="ends", hand_size=9))
    state = initial
    while not state.is_terminal:
        state = state.apply(min(state.legal_actions(), key=lambda a: a.id))
    return GameRecord.from_states(initial, state, seed=3, strategies=("a", "b", "c", "d"))


def test_a_records_rules_cannot_be_changed():
    rec = _varied_record()
    assert rec.rules == {"take": "ends", "hand_size": 9}
    with pytest.raises(TypeError):
        rec.rules["take"] = "any"  # type: ignore[index]
    given = {"take": "ends"}
    made = GameRecord(hands=rec.hands, first_player=0, actions=(), winner=None, turns=0,
                      rounds=0, rules=given)  # fmt: skip
    given["take"] = "any"  # the caller's dict is the caller's: the record keeps what it was
    assert made.rules == {"take": "ends"}


def test_a_record_with_rules_still_writes_compares_pickles_and_replays():
    rec = _varied_record()
    d = rec.to_dict()
    assert type(d["rules"]) is dict and d["rules"] == {"take": "ends", "hand_size": 9}
    line = rec.to_json()
    assert json.loads(line)["rules"] == {"take": "ends", "hand_size": 9}
    back = GameRecord.from_json(line)
    assert back == rec and back.rules == rec.rules
    for other in (pickle.loads(pickle.dumps(rec)), copy.deepcopy(rec), copy.copy(rec)):
        assert other == rec and other.to_json() == line
        with pytest.raises(TypeError):
            other.rules["take"] = "any"  # type: ignore[index]
    states = replay(pickle.loads(pickle.dumps(rec)))
    assert states[-1].rules == Rules(take="ends", hand_size=9) and states[-1].is_terminal
    assert rec != GameRecord.from_dict({**d, "rules": {"take": "ends"}})


def test_a_record_under_todays_rules_is_as_before():
    initial = deal_state(3, 5)
    state = initial
    while not state.is_terminal:
        state = state.apply(min(state.legal_actions(), key=lambda a: a.id))
    rec = GameRecord.from_states(initial, state, seed=5)
    assert rec.rules is None and "rules" not in rec.to_dict()
    assert pickle.loads(pickle.dumps(rec)) == rec


def test_a_records_rules_of_the_wrong_kind_are_kept_for_replay_to_refuse():
    rec = _varied_record()
    bad = GameRecord.from_dict({**rec.to_dict(), "rules": ["take=ends"]})
    assert bad.rules == ["take=ends"]
    with pytest.raises(ValueError, match="^bad record: rules must be a table"):
        replay(bad)


# --- a loaded file's strategies are listed as registered ones are --------------------------

USER_FILE = """
from strategies import Strategy


class Unnamed(Strategy):
    description = "no registry name (small59 test)"
    classifier = {"uses_card_counting": True, "stochastic": False}

    def __init__(self, patience: int = 3, bold: float = 0.5):
        pass

    def choose(self, view, legal, rng):
        return legal[0]
"""


def test_a_loaded_files_row_is_the_infos_row_of_its_class(tmp_path):
    from leaves_cli.strategies_cmd import file_rows, load_files
    from tournaments.game import StrategyInfo

    path = tmp_path / "small59_bot.py"
    path.write_text(USER_FILE)
    loaded = load_files([str(path)])
    (row,) = file_rows(loaded, {}, "leaves")
    cls = loaded[0][1].Unnamed
    info = StrategyInfo.of(f"{path}:Unnamed", cls)
    assert row == (info.name, info.description, info.classifier, info.params)
    name, description, classifier, params = row
    assert (name, description) == (f"{path}:Unnamed", "no registry name (small59 test)")
    assert classifier["uses_card_counting"] is True and classifier["stochastic"] is False
    assert params == {"patience": 3, "bold": 0.5}
    assert file_rows(loaded, {"stochastic": True}, "leaves") == []


def test_docs_cli_md_names_every_size_the_examples_read():
    """docs/cli.md: 'The .py scripts take their sizes from LEAVES_EXAMPLE_GAMES (and ...)':
    every size an example reads is named there, and none it does not read."""
    import re

    read = {m for p in EXAMPLES.glob("*.py")
            for m in re.findall(r'size\("(\w+)"', p.read_text(encoding="utf-8"))}  # fmt: skip
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    para = " ".join(
        text[text.index("The `.py` scripts take their sizes") :].split("\n\n")[0].split()
    )
    assert set(re.findall(r"`LEAVES_EXAMPLE_(\w+)`", para)) == read == {"GAMES", "JOBS", "EXAMPLES"}
    assert "whole number of at least 1" in para and "one-line error" in para
