"""Audit of forfeits and entrants, library side: two classes of one name are two entrants,
a gauntlet's field keeps multi-parameter labels whole, a run that a strategy forfeited whole
says so, ``leaves play`` forfeits a bot as a tournament does, a constructor that fails for a
later game forfeits that game, ``check_strategy`` reports ``sys.exit()``, a built-in's hard
parameter limits are enforced."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

MYBOT = """
from strategies import Strategy


class MyBot(Strategy, register=False):
    classifier = {{"stochastic": False}}

    def choose(self, view, legal, rng):
        return legal[{index}]
"""

FLAKY = '''
from strategies import Strategy

BUILT = [0]


class Flaky(Strategy, register=False):
    """Its constructor fails from the fourth instance on: a later game of a run."""

    classifier = {"stochastic": False}

    def __init__(self):
        BUILT[0] += 1
        if BUILT[0] >= 4:
            raise RuntimeError(f"no instance {BUILT[0]}")

    def choose(self, view, legal, rng):
        return legal[0]
'''


def _bot(folder: Path, name: str, index: int) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(MYBOT.format(index=index))
    return f"{path}:MyBot"


# ------------------------------------------------------------------ 1. one label, two classes
def test_two_classes_of_one_name_are_entered_under_labels_naming_their_files(tmp_path):
    from tournaments import Tournament

    a, b = _bot(tmp_path, "ok.py", 0), _bot(tmp_path, "ok2.py", -1)
    t = Tournament([a, b, "low"], players=3, games=12, seed=1)
    assert t.labels == ("low", "ok.py:MyBot", "ok2.py:MyBot")
    described = {e["label"]: e.get("file") for e in t.entrants()}
    assert described["ok.py:MyBot"] == a.rpartition(":")[0]
    assert t.spec()["strategies"] == list(t.labels)
    assert Tournament([b, "low", a], players=3, games=12, seed=1).labels == t.labels


def test_files_of_one_name_in_two_folders_are_told_apart_by_their_folders(tmp_path):
    from tournaments import Tournament

    a, b = _bot(tmp_path / "v1", "ok.py", 0), _bot(tmp_path / "v2", "ok.py", -1)
    t = Tournament([a, b, "low"], players=3, games=12, seed=1)
    assert t.labels == ("low", "v1/ok.py:MyBot", "v2/ok.py:MyBot")


def test_the_same_strategy_listed_twice_is_still_refused_as_such(tmp_path):
    from tournaments import Tournament

    a = _bot(tmp_path, "ok.py", 0)
    with pytest.raises(ValueError, match="^strategy listed twice: MyBot$"):
        Tournament([a, a, "low"], players=3, games=12, seed=1)
    with pytest.raises(ValueError, match="^strategy listed twice: low$"):
        Tournament(["low", "low", "taker"], players=3, games=12, seed=1)


def test_a_gauntlet_baseline_of_the_same_name_from_another_file_is_not_the_strategy(tmp_path):
    from tournaments import Gauntlet

    a, b = _bot(tmp_path, "ok.py", 0), _bot(tmp_path, "ok2.py", -1)
    g = Gauntlet(a, ["low"], baseline=b, players=3, games=12, seed=1)
    assert g.gauntlet["strategy"] == "ok.py:MyBot" and g.gauntlet["baseline"] == "ok2.py:MyBot"
    with pytest.raises(ValueError, match=r"the strategy and its baseline are the same \(MyBot\)"):
        Gauntlet(a, ["low"], baseline=a, players=3, games=12, seed=1)


# ------------------------------------------------------------------ 2. multi-parameter labels
def test_a_field_label_with_several_parameters_stays_whole():
    from reports.gauntlet import field_words
    from strategies.spec_values import top_level_pieces as split_labels

    joined = "taker,weighted(w_shed=1.0,w_keep=2.0)"
    assert split_labels(joined) == ["taker", "weighted(w_shed=1.0,w_keep=2.0)"]
    assert field_words(split_labels(joined), 4) == (
        "a field of two taker and one weighted(w_shed=1.0,w_keep=2.0)"
    )
    assert split_labels("weighted(w_shed=1.0,w_keep=2.0)") == ["weighted(w_shed=1.0,w_keep=2.0)"]


# ------------------------------------------------------------------ 3. the forfeit sentences
def test_a_partly_forfeited_run_says_a_forfeit_is_lost_by_every_seat_at_its_table(tmp_path):
    from tournaments.run_state import RunState

    state = RunState(out=tmp_path, units="games", game_unit="game", planned=48, played=48,
                     games=48, forfeited=36, first={"game": 0, "error": "seat 0 (Bad): E"},
                     all_forfeited=(("Bad", 36),))  # fmt: skip
    lines = state.lines()
    assert "they count as lost by the forfeiting seat;" not in lines[0]
    assert "a forfeited game has no winner, so it counts as lost by every seat at its table, " \
           "the forfeiting one included" in lines[0]  # fmt: skip
    assert lines[1] == (
        "Nothing valid from Bad: it forfeited all 36 of its games, so no result says anything "
        "about it; fix the strategy and play the run again."
    )


def test_a_gauntlet_caution_says_the_field_s_forfeits_are_losses_for_the_side_too():
    from reports.gauntlet import forfeit_sentence

    row = {"strategy": "mine", "baseline": "base", "games": 100, "forfeited": 30,
           "forfeits": 20, "baseline_forfeited": 0, "baseline_forfeits": 0,
           "first_error": "game 3: seat 1 (taker): KeyError: 'x'"}  # fmt: skip
    said = forfeit_sentence(row, "runs/g")
    assert "(20 by mine, 10 by the field)" in said
    assert "a forfeit counts as a loss for the seat that forfeits and for every other seat at " \
           "its table (a forfeit leaves no winner)" in said  # fmt: skip


# ------------------------------------------------------------------ 5. leaves play's bots
class _Answers:
    def __init__(self, answer):
        self.answer = answer

    def choose(self, view, legal, rng):
        if self.answer == "exit":
            raise SystemExit(3)
        return legal[0].id if self.answer == "id" else self.answer


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("id", r"IllegalActionError: returned \d+ \(int\), not a legal action \(choose must "
               r"return an Action, one of legal\)"),
        (True, r"IllegalActionError: returned True \(bool\), not a legal action"),
        ("exit", r"SystemExit: 3"),
    ],
)  # fmt: skip
def test_leaves_play_forfeits_a_bot_as_a_tournament_does(answer, said):
    from leaves import new_game
    from leaves.commands.play_loop import Seats, _bot_move
    from leaves_cli.errors import CLIError

    state = new_game(3, seed=1)
    seat = state.current_player
    bots: list[object | None] = [None, None, None]
    bots[seat] = _Answers(answer)
    seats = Seats(["a", "b", "c"], bots, [np.random.default_rng(0)] * 3)
    with pytest.raises(CLIError) as exc:
        _bot_move(seats, state, seat)
    assert exc.value.exit_code == 1
    assert " forfeits: " in str(exc.value.format_message())
    import re

    assert re.search(said, exc.value.format_message()), exc.value.format_message()


# ------------------------------------------------------------------ 6. a constructor fails later
def test_a_constructor_that_fails_for_a_later_game_forfeits_that_game(tmp_path):
    import strategies

    path = tmp_path / "flaky.py"
    path.write_text(FLAKY)
    flaky = strategies.get(f"{path}:Flaky")  # instance 1
    seeds = np.arange(6, dtype=np.uint64)
    res = strategies.play_batch([flaky, "low", "taker"], seeds, seeds + 100)
    assert len(res.forfeit_seat) == 6
    lost = [i for i in range(6) if res.forfeit_seat[i] == 0]
    assert lost and lost == list(range(lost[0], 6)), res.forfeit_seat
    assert all(res.winner_seat[i] == -1 for i in lost)
    error = str(res.errors[lost[0]])
    assert error.startswith("seat 0 (Flaky): cannot build a new Flaky for the next game: "
                            "RuntimeError: no instance")  # fmt: skip
    assert "RuntimeError" in (getattr(res.errors[lost[0]], "traceback", "") or "")


# ------------------------------------------------------------------ 7. check_strategy
def test_check_strategy_reports_sys_exit_as_a_failure():
    from leaves.players.testing import check_strategy
    from strategies import Strategy

    class Quits(Strategy, register=False):
        classifier = {"stochastic": False, "uses_card_counting": False}

        def choose(self, view, legal, rng):
            raise SystemExit(4)

    with pytest.raises(AssertionError, match=r"Quits: start_game/choose raised SystemExit: 4"):
        check_strategy(Quits, max_examples=1, games=1)


# ------------------------------------------------------------------ 8. hard parameter limits
def test_a_built_in_parameter_below_its_hard_limit_is_refused_in_one_line():
    import strategies

    with pytest.raises(ValueError, match=r"^patient: parameter min_hand must be >= 0, got -3$"):
        strategies.get("patient:min_hand=-3")
    assert strategies.get("patient:min_hand=0").params["min_hand"] == 0
    assert strategies.get("patient:min_hand=20").params["min_hand"] == 20  # past the tuning range


def test_a_parameter_with_only_an_upper_limit_is_held_to_it():
    from strategies.policy.params import Param

    p = Param("x", 1.0, high=2.0)
    assert p.check("s", 2.0) == 2.0
    with pytest.raises(ValueError, match=r"^s: parameter x must be <= 2.0, got 3.0$"):
        p.check("s", 3.0)
