"""``leaves play`` held to what it says and keeps: a typed move refused in the words the player
typed (and in one short line, whatever its numbers), a round that ends on an empty table said
so, a game a bot forfeits kept in ``--save`` like any other cut short, a bot labelled "you" told
apart from the player, the help's hint claim, options that disagree or name no file refused,
and the commands to paste (the seed, the replay) never cut across lines."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from leaves import Rules, new_game
from leaves.commands.moves import MoveError, parse_move
from leaves_cli.console import make_console
from tests.helpers import cli, one_error_line


def _console() -> tuple:
    out = io.StringIO()
    return make_console(file=out, width=200), out


# ----------------------------------------------------------------------------- typed moves
@pytest.mark.parametrize("take", ["any", "ends", "nothing"])
def test_pass_typed_on_an_empty_table_is_refused_as_typed(take):
    state = new_game(4, seed=3, rules=Rules(take=take))
    assert state.ends is None
    with pytest.raises(MoveError) as exc:
        parse_move("pass", state)
    said = str(exc.value)
    assert said.startswith("Illegal move 'pass': cannot pass on an empty table"), said
    assert "take 1" not in said  # nobody typed a take of a 1


@pytest.mark.parametrize("text", ["9" * 5000 + "x5", "take " + "9" * 5000, "pass " + "1" * 5000,
                                  "2x" + "7" * 40])  # fmt: skip
def test_a_move_with_a_huge_number_is_refused_in_one_short_line(text):
    state = new_game(4, seed=3)
    with pytest.raises(MoveError) as exc:
        parse_move(text, state)
    said = str(exc.value)
    assert "sys.set_int_max_str_digits" not in said and "\n" not in said
    assert len(said) < 200, said


# ----------------------------------------------------------------------------- round ends
def _round_ended_on_an_empty_table():
    """A position and the pass that ends its round by taking the table's last card."""
    rng = np.random.default_rng(0)
    for game in range(200):
        state = new_game(4, seed=game)
        while not state.is_terminal:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            after = state.apply(action)
            if after.round > state.round and sum(after.removed) == sum(state.removed):
                return state, action
            state = after
    raise AssertionError("no round ended on an empty table")  # pragma: no cover


def test_a_round_that_ends_on_an_empty_table_says_so_not_zero_cards():
    from leaves.commands.play_loop import Seats, _advance

    state, action = _round_ended_on_an_empty_table()
    after = state.apply(action)
    names = ["a", "b", "c", "d"]
    names[after.current_player] = "you"
    console, out = _console()
    _advance(console, state, action, Seats(names, [None if n == "you" else 1 for n in names]))
    said = out.getvalue()
    assert "0 cards" not in said, said
    assert (
        f"Round {state.round} ends: you are the only one left and lead round {after.round}; "
        "the last pass took the table's last card." in said
    ), said


# ----------------------------------------------------------------------------- a bot forfeits
BOOM = """
from strategies import Strategy


class Boom(Strategy):
    name = "audit2_boom"
    description = "plays its first legal move, fails from turn 6 on"
    classifier = {"stochastic": False, "uses_card_counting": False}

    def choose(self, view, legal, rng):
        if view.turn >= 6:
            raise RuntimeError(f"boom at turn {view.turn}")
        return legal[0]
"""


def test_a_game_a_bot_forfeits_is_kept_in_the_save_file(tmp_path, capsys, monkeypatch):
    from leaves.record import GameRecord, replay

    bot = tmp_path / "boom.py"
    bot.write_text(BOOM)
    save = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))
    code, out, err = cli(capsys, "play", "--seed", "3", "--against", f"{bot}:Boom",
                         "--save", str(save))  # fmt: skip
    line = one_error_line(err)
    assert code == 1
    assert "forfeits: RuntimeError: boom at turn" in line, line
    assert f"saved the game to {save} ('leaves replay {save}' replays it" in line, line
    (text,) = save.read_text().splitlines()
    record = GameRecord.from_json(text)
    states = replay(record)  # the record is whole: its moves replay to where it stopped
    assert record.forfeit_seat == states[-1].current_player != 0
    assert "RuntimeError: boom at turn" in record.error
    assert record.strategies[0] == "human" and record.winner is None
    assert json.loads(text).get("stopped") is None  # a forfeit, not the player stopping


# ----------------------------------------------------------------------------- options
@pytest.mark.parametrize(
    "ruled", ["expert_target=30", "expert_target=20", "take=ends, expert_target = 20"]
)
def test_a_target_that_disagrees_with_the_rules_expert_target_is_refused(capsys, ruled):
    """expert_target=20 written out (the default) was not seen as written and dropped."""
    code, _, err = cli(capsys, "play", "--target", "5", "--rules", ruled)
    line = one_error_line(err)
    assert code == 2
    assert "--target 5" in line and "expert_target=" in line, line


# ----------------------------------------------------------------------------- help and hint
def test_the_help_names_the_bot_the_hint_asks_and_claims_no_more():
    """The hint asks ``ismcts`` with its default settings; ``--level hard`` plays the stronger
    ``preset=strong``, so the help must not call the hint's bot the strongest."""
    from leaves.commands import hint
    from leaves.commands.play_loop import LEVELS, help_text

    text = help_text(Rules())
    assert f"search bot {hint.SEARCH_BOT} would play" in text
    assert LEVELS["hard"][0] != hint.SEARCH_BOT and "strongest" not in text


YOU = """
from strategies import Strategy


class You(Strategy, register=False):
    classifier = {"stochastic": False, "uses_card_counting": False}
    label = "you"

    def choose(self, view, legal, rng):
        return legal[0]
"""


def test_a_bot_labelled_you_is_not_taken_for_the_player(tmp_path, capsys, monkeypatch):
    from leaves.record import GameRecord

    bot = tmp_path / "you.py"
    bot.write_text(YOU)
    save = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _ = cli(capsys, "play", "--players", "3", "--seed", "2", "--against",
                       f"{bot}:You", "--save", str(save))  # fmt: skip
    assert code == 0
    said = " ".join(out.split())
    assert "Opponents: seat 1 (you (a bot)), seat 2 (you (a bot))" in said, said
    record = GameRecord.from_json(save.read_text())
    assert record.strategies == ("human", "you (a bot)", "you (a bot)")


def test_a_bot_failing_in_start_game_forfeits_a_game_that_is_saved_from_its_deal(tmp_path):
    from leaves.commands.play_loop import Forfeited, Seats, play_game
    from leaves.commands.play_output import show_left
    from leaves.record import GameRecord, replay
    from leaves_cli.errors import CLIError

    class Sulks:
        label = "sulks"

        def start_game(self, view, rng):
            raise ValueError("not today")

        def choose(self, view, legal, rng):  # pragma: no cover - never asked
            return legal[0]

    names = ["you", "sulks", "sulks"]
    seats = Seats(names, [None, Sulks(), Sulks()], [np.random.default_rng(0)] * 3)
    initial = new_game(3, seed=4)
    console, _ = _console()
    with pytest.raises(Forfeited) as left:
        play_game(console, initial, seats, lambda prompt: "1")
    assert left.value.state is initial  # the game so far: its deal
    left.value.initial = initial
    save = tmp_path / "g.jsonl"
    with pytest.raises(CLIError, match=r"seat 1 \(sulks\) forfeits in start_game: ValueError: "
                                       r"not today; saved the game to "):  # fmt: skip
        show_left(console, str(save), left.value, names)
    record = GameRecord.from_json(save.read_text())
    assert len(replay(record)) == 1 and record.forfeit_seat == 1


def test_an_empty_save_path_is_refused_not_taken_for_no_save(capsys):
    code, _, err = cli(capsys, "play", "--save", "")
    assert code == 2
    assert "--save: an empty name was given, not a file" in one_error_line(err)


def test_the_seed_to_replay_is_never_cut_across_lines(capsys, monkeypatch):
    seed = "229864158528303192034639415880672404726"  # as long as a fresh seed
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _ = cli(capsys, "play", "--seed", seed)
    assert code == 0
    assert f"(--seed {seed} replays this)." in out, out.splitlines()[:3]


def test_the_replay_command_of_a_game_left_with_q_is_never_cut_across_lines(tmp_path):
    from leaves.commands.play_loop import QuitGame
    from leaves.commands.play_output import show_left

    initial = new_game(4, seed=1)
    state = initial.apply(initial.legal_actions()[0])
    folder = tmp_path / ("a-long-folder-name-" * 3)
    folder.mkdir()
    save = str(folder / "games.jsonl")
    out = io.StringIO()
    show_left(make_console(file=out, width=60), save, QuitGame(state, initial), ["you"] + ["b"] * 3)
    assert f"('leaves replay {save}' replays it up to where you stopped)." in out.getvalue()


@pytest.mark.parametrize(
    "args",
    [("play", "--against", ""), ("play", "--against", "  "),
     ("gauntlet", "greedy", "--against", "", "--games", "8"),
     ("tune", "weighted", "--against", "", "--budget", "100")],
)  # fmt: skip
def test_an_empty_field_is_refused_not_taken_for_the_default(capsys, args):
    """Was: '--against ""' ('--against "$FIELD"' with FIELD unset) played the default level."""
    code, _, err = cli(capsys, *args)
    assert code == 2
    assert one_error_line(err).endswith("names no strategy")
