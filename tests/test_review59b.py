"""A second look at this stop's generic words: a best and a worst mean that differ only past
the fourth decimal, and a strategy name that two other games both have."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from tests.helpers import cli


def _means_table(values: list[float]) -> pd.DataFrame:
    v = np.array(values)
    names = [chr(ord("a") + i) for i in range(len(v))]
    return pd.DataFrame({"strategy": names, "score_mean": v, "score_ci_low": v - 1,
                         "score_ci_high": v + 1})  # fmt: skip


@pytest.mark.parametrize("values", [[1.00001, 1.00002], [5.4321012, 5.4321, 5.4321001]])
def test_a_best_and_worst_a_hundred_thousandth_apart_never_read_as_one_figure(values):
    """Means of many seats differ by one point over 100,000 of them: 1.00001 and 1.00002 read
    '1.0000' both at four decimals, the most the words gave, so one strategy was the best and
    another the worst at one figure."""
    from reports.data import default_declaration
    from reports.findings import _means

    declared = dataclasses.replace(default_declaration(), rank_value="score", unit="round")
    (found,) = _means(_means_table(values), declared)
    best = found.text.split(": ")[1].split(" ")[0]
    worst = found.text.rsplit(": ", 1)[1].rstrip(".")
    assert best != worst, found.text
    assert float(best) == pytest.approx(values[0], abs=10 ** -(len(best.split(".")[1])) / 2)
    assert float(worst) == pytest.approx(values[-1], abs=10 ** -(len(worst.split(".")[1])) / 2)


@pytest.fixture
def toy(monkeypatch):
    """A third game whose registry has 'stack' too, as Ligretto's has: gone after the test."""
    from strategies import registry

    registry.names("ligretto")  # Ligretto's players loaded, as any process would on this path
    for table, value in ((registry._REGISTRIES, {"stack": object}), (registry._TITLES, "Toy"),
                         (registry._GROUPS, "toy.players"), (registry._DEFERRED, {})):  # fmt: skip
        monkeypatch.setitem(table, "toy", value)
    return registry


def test_a_name_two_other_games_have_names_both(toy):
    """It said 'it is a Ligretto strategy' and '--game ligretto' alone, where Toy has it too."""
    with pytest.raises(toy.OtherGameStrategy) as exc:
        toy.get_class("stack", "leaves")
    assert exc.value.owners == ("ligretto", "toy")
    assert str(exc.value) == (
        "unknown strategy 'stack': it is a Ligretto strategy and a Toy strategy, not a 13 "
        "Leaves one; pass game='ligretto' or game='toy' to play it"
    )
    assert exc.value.worded({"game": "--game"}).endswith(
        "commands that take --game play it with --game ligretto or --game toy"
    )


def test_tune_of_a_name_two_other_games_have_names_both(toy, capsys, tmp_path):
    code, _, err = cli(capsys, "tune", "stack:think_ms=5", "--against", "greedy", "--out",
                       str(tmp_path / "t"))  # fmt: skip
    assert code == 2
    assert "it is a Ligretto strategy and a Toy strategy, and leaves tune plays" in err, err
    assert "commands that take --game ligretto or --game toy: leaves " in err, err


def _old_flat_better(alpha: float, upper: float) -> dict:
    """A gauntlet row of a run an earlier version decided: 8 duplicate sets of +100 points
    with no spread weighed as an infinite LLR, "better" at once (no cap, no sign test)."""
    nan = float("nan")
    return {"strategy": "greedy", "baseline": "mute", "games": 24, "deals": 8, "diff": 1.0,
            "diff_ci_low": nan, "diff_ci_high": nan, "p_value": 0.0078125,
            "sequential_decision": "better", "sequential_llr": "inf", "sequential_lower": -2.99,
            "sequential_upper": upper, "sequential_margin": 100.0, "sequential_alpha": alpha,
            "sequential_beta": 0.05, "sequential_batches": 1}  # fmt: skip


def test_an_earlier_versions_flat_better_claims_no_alpha_it_did_not_keep():
    """8 sets all one way happen for equal strategies 0.5^8 = 0.39% of the time: the run an
    earlier version called better on them at --alpha 0.001 was said to be so 'at most 0.1% of
    the time'; the current test weighs them as N/2 = 4, short of its bound 6.86."""
    from reports.gauntlet import sequential_sentence

    said = sequential_sentence(_old_flat_better(0.001, 6.86))
    assert "at most 0.1% of the time" not in said, said
    assert ("by an earlier version's rule for duplicate sets with no spread: the current "
            "test weighs these 8 as N/2 = 4.00, short of its bound 6.86, and would play "
            "on") in said, said  # fmt: skip
    said = sequential_sentence(_old_flat_better(0.05, 2.94))  # N/2 = 4 passes 2.94: it stands
    assert "at most 5% of the time (alpha)" in said and "earlier version" not in said, said


def test_the_unfinished_line_is_said_without_the_rows_too(capsys, tmp_path):
    """A --no-rows run whose every game stopped unfinished says the line a run with rows says
    (its aggregates count them: ``test_words_pp60``), as the docs say."""
    from pathlib import Path

    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                          "--games", "6", "--turn-limit", "5", "--seed", "1", "--jobs", "1",
                          "--no-rows", "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 0, err
    (line,) = [x for x in said.splitlines() if "stopped unfinished" in x]
    docs = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    (row,) = [x for x in docs.splitlines() if x.startswith("| `leaves tournament ")]
    assert "from the run's rows or, for a `--no-rows` run, from its aggregates, alike" in row
    assert f"`{line}`" in row


def test_another_games_strategy_error_survives_pickling():
    """An error raised in a worker process reaches the parent pickled: this one could not be
    rebuilt (its constructor takes the name, the game and the owners, not its message)."""
    import pickle

    import strategies
    from strategies.registry import OtherGameStrategy

    with pytest.raises(OtherGameStrategy) as exc:
        strategies.get("stack")
    again = pickle.loads(pickle.dumps(exc.value))
    assert type(again) is OtherGameStrategy and str(again) == str(exc.value)
    assert again.worded({"game": "--game"}) == exc.value.worded({"game": "--game"})


@pytest.mark.parametrize(
    ("path", "word"),
    [("runs/a", "runs/a"), ("résultats/été", "résultats/été"), ("my runs", "'my runs'"),
     ("it's", "'it'\"'\"'s'"), ("~x", "'~x'"), ("a$b", "'a$b'"), ("", "''")],
)  # fmt: skip
def test_advised_paths_are_quoted_only_where_a_shell_needs_it(path, word):
    import shlex

    from tournaments.run_state import shell_word

    assert shell_word(path) == word
    assert shlex.split(shell_word(path)) == [path]


def test_a_run_folder_of_accented_letters_is_advised_unquoted(capsys, tmp_path, monkeypatch):
    """'next: 'leaves report 'résultats'' writes its report': the letters need no quotes, and
    quotes inside the advice's own read as its end."""
    monkeypatch.chdir(tmp_path)
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                          "--games", "6", "--seed", "1", "--jobs", "1", "--out", "résultats")  # fmt: skip
    assert code == 0, err
    assert "next: 'leaves report résultats' writes its report" in said, said


def test_the_play_and_variants_advice_leaves_accented_names_unquoted():
    """``leaves play``'s replay command and ``leaves variants``' resume command quoted a folder
    of accented letters (shlex quotes any non-ASCII letter), as the run hints no longer do."""
    from pathlib import Path

    from leaves.commands.play_output import replay_command
    from leaves.commands.variants_resume import resume_command

    assert replay_command("résultats/g.jsonl", 2) == "leaves replay résultats/g.jsonl --game 2"
    assert replay_command("my games.jsonl", 1) == "leaves replay 'my games.jsonl'"
    assert resume_command(Path("épreuve")) == "leaves variants --out épreuve --resume"
    assert resume_command(Path("a b")) == "leaves variants --out 'a b' --resume"


def test_a_directory_in_place_of_the_records_is_refused_before_a_resume_plays(
    tmp_path, capsys, monkeypatch
):
    """A resume whose records file had become a directory ended in "[Errno 21] Is a
    directory" once every game was played; it is refused in one line first."""
    monkeypatch.chdir(tmp_path)
    args = ["greedy", "low", "high", "--players", "3", "--games", "12", "--seed", "1",
            "--jobs", "1", "--out", "run", "--record", "run/rec.jsonl"]  # fmt: skip
    assert cli(capsys, "tournament", *args)[0] == 0
    (tmp_path / "run" / "rec.jsonl").unlink()
    (tmp_path / "run" / "rec.jsonl").mkdir()
    code, _, err = cli(capsys, "tournament", "--out", "run", "--resume", "--add", "6")
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "its records file run/rec.jsonl is a directory: remove it, then resume again" in err, err
