"""``leaves play``: move parsing, the game loop with a stand-in bot, and the real command in a pty."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from leaves import Action, IllegalActionError, new_game
from leaves.commands import hint as hint_mod
from leaves.commands import render
from leaves.commands.moves import MoveError, parse_move
from leaves.commands.play import Seats, play_game
from leaves.record import GameRecord, replay
from leaves.testing import positions
from leaves_cli.console import make_console, to_text
from leaves_cli.errors import CLIError
from leaves_cli.options import split_specs
from tests.helpers import counts, position

ROOT = Path(__file__).resolve().parents[1]


class RandomBot:
    """Stand-in opponent: uniform over the legal actions, drawing from the rng it is given."""

    label = "stand-in"

    def __init__(self):
        self.started = self.ended = 0

    def choose(self, view, legal, rng):
        assert view.legal_actions() == legal
        return legal[int(rng.integers(len(legal)))]

    def start_game(self, view, rng):
        self.started += 1

    def end_game(self, view, result):
        self.ended += 1


def _rulebook_state():
    hands = [counts(v3=3, v5=4, v9=1, v12=1, v13=2), counts(v1=2), counts(v8=2), counts(v10=1)]
    return position(hands, table=counts(v6=3, v12=2), current=0)


# ----------------------------------------------------------------------------- parsing
def test_keys_and_typed_moves_name_the_same_actions():
    state = _rulebook_state()
    legal = state.legal_actions()
    for key, action in render.move_keys(legal).items():
        assert parse_move(key, state) is action
        assert parse_move(str(action), state) is action
    three_fives = Action.play(5, 3)
    assert parse_move("3x5", state) is three_fives
    assert parse_move("play 3x5", state) is three_fives
    assert parse_move("  PLAY 3 x 5 ", state) is three_fives
    assert parse_move("take 6", state) is Action.take(6)
    assert parse_move("pass, take 12", state) is Action.take(12)
    assert parse_move("t6", state) is Action.take(6)


@pytest.mark.parametrize(
    "text, action",
    [
        ("2x3", Action.play(3, 2)),  # too few for the left end (needs 3)
        ("1x13", Action.play(13, 1)),  # too few for the right end (needs 2)
        ("1x9", Action.play(9, 1)),  # between the ends
        ("2x9", Action.play(9, 2)),  # holds only one 9
        ("take 9", Action.take(9)),  # no stack of 9s
    ],
)
def test_illegal_typed_moves_say_the_rule_they_break(text, action):
    state = _rulebook_state()
    with pytest.raises(IllegalActionError) as rule:
        state.apply(action)
    with pytest.raises(MoveError) as err:
        parse_move(text, state)
    assert str(rule.value) in str(err.value)
    assert str(action) in str(err.value)


def test_unreadable_input_and_unknown_keys_are_explained():
    state = _rulebook_state()
    n = len(state.legal_actions())
    with pytest.raises(MoveError, match=f"No move has the key {n + 1}: the keys are 1 to {n}"):
        parse_move(str(n + 1), state)
    with pytest.raises(MoveError, match="Cannot read a move from 'hello'"):
        parse_move("hello", state)
    with pytest.raises(MoveError, match="card value must be 1..13"):
        parse_move("2x14", state)
    with pytest.raises(MoveError, match="say which"):
        parse_move("pass", state)


def test_pass_on_an_empty_table_gets_the_engine_reason():
    state = new_game(4, seed=1)
    with pytest.raises(MoveError, match=r"empty table.*\(P1\)"):
        parse_move("pass", state)
    with pytest.raises(MoveError, match=r"\(P1\)"):
        parse_move("take 3", state)


@settings(max_examples=40)
@given(positions())
def test_every_legal_move_reads_back_from_its_key_and_its_text(state):
    legal = state.legal_actions()
    for key, action in render.move_keys(legal).items():
        assert parse_move(key, state) is action
        assert parse_move(str(action), state) is action


def test_split_specs_keeps_parameters_with_their_strategy():
    assert split_specs(["greedy,random"]) == ["greedy", "random"]
    assert split_specs(["counter:a=1,b=2,random", "low"]) == ["counter:a=1,b=2", "random", "low"]
    assert split_specs(["x.py:Bot:k=1,j=2"]) == ["x.py:Bot:k=1,j=2"]
    assert split_specs(["counter(a=1.0,b=2),low"]) == ["counter(a=1.0,b=2)", "low"]
    assert split_specs(["low,", " ,high"]) == ["low", "high"]


# ----------------------------------------------------------------------------- game loop
def _run_loop(seed: int, human: int, script):
    out = io.StringIO()
    console = make_console(file=out, width=100)
    bots = [RandomBot() for _ in range(3)]
    bots.insert(human, None)
    names = ["you" if b is None else b.label for b in bots]
    rngs = [np.random.default_rng(seed + i) for i in range(4)]
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return script(prompts)

    final = play_game(console, new_game(4, seed=seed), Seats(names, bots, rngs), read)
    return final, out.getvalue(), bots, prompts


def test_game_loop_plays_to_the_end_and_reports_every_bot_move():
    final, text, bots, prompts = _run_loop(11, human=1, script=lambda prompts: "1")
    assert final.is_terminal
    history = final.history
    bot_moves = [(s, a) for s, a in history if s != 1]
    human_moves = [(s, a) for s, a in history if s == 1]
    assert len(prompts) == len(human_moves) > 0
    for seat, action in bot_moves:
        assert f"seat {seat} (stand-in) {render.describe_action(action)}." in text
    assert text.count("(stand-in) p") == len(bot_moves)
    assert text.count("You p") == len(human_moves)
    assert len(re.findall(r"Round \d+ ends: ", text)) == final.round - 1
    for b in bots:
        if b is not None:
            assert (b.started, b.ended) == (1, 1)


def test_game_loop_recovers_from_bad_input_and_plays_the_typed_move():
    replies = iter(["nonsense", "99", "?", "", "take 13"])

    def script(prompts):
        return next(replies, "1")

    final, text, _, prompts = _run_loop(5, human=0, script=script)
    assert "Cannot read a move from 'nonsense'" in text
    assert "No move has the key 99" in text
    assert "Type the key of a move" in text
    assert final.is_terminal


def test_a_bot_returning_an_illegal_move_is_a_clear_error():
    class Cheat(RandomBot):
        label = "cheat"

        def choose(self, view, legal, rng):
            return Action.play(13, 8)

    out = io.StringIO()
    bots = [None, Cheat(), Cheat()]
    seats = Seats(["you", "cheat", "cheat"], bots, [np.random.default_rng(0)] * 3)
    state = new_game(3, seed=2, first_player=1)
    with pytest.raises(CLIError, match=r"seat 1 \(cheat\) forfeits: IllegalActionError: "
                                       r"returned play 8x13, not a legal action"):  # fmt: skip
        play_game(make_console(file=out), state, seats, lambda p: "1")


# ----------------------------------------------------------------------------- real command
pexpect = pytest.importorskip("pexpect")


def _spawn(*args, timeout=60):
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "120", "PYTHONPATH": str(ROOT)}
    return pexpect.spawn(
        sys.executable,
        ["-m", "leaves_cli", "play", *args],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(60, 120),
    )


END = [r"You win after (\d+) turns", r"seat \d \(\S+\) wins after (\d+) turns", "unfinished"]


def _play_keys(child, key="1", max_moves=600, next_game=None):
    """Answer every prompt with ``key`` until a game ends; returns the index in END."""
    for _ in range(max_moves):
        i = child.expect([r"Your move \(\? for help\): ", *END])
        if i:
            return i - 1
        child.sendline(key)
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_play_a_whole_game_in_a_terminal_choosing_keys(tmp_path):
    save = tmp_path / "games.jsonl"
    child = _spawn("--players", "3", "--seat", "1", "--against", "random", "--seed", "7",
                   "--save", str(save))  # fmt: skip
    child.expect(r"seed 7 \(--seed 7 replays this\)")
    child.expect("Opponents: seat 0 \\(random\\), seat 2 \\(random\\)")
    child.expect(r"Your move \(\? for help\): ")
    screen = child.before
    assert "Table:" in screen and "Your hand:" in screen and "Legal moves" in screen
    assert re.search(r"\n\s*1 (play|pass)", screen)
    child.sendline("play 8x13")  # nobody holds eight 13s
    child.expect("Illegal move 'play 8x13': cannot play 8 cards of value 13: the hand holds")
    child.sendline("1")
    end = _play_keys(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = GameRecord.from_json(save.read_text().strip())
    states = replay(record)
    assert states[-1].is_terminal
    assert record.strategies[1] == "human" and record.strategies[0] == "random"
    if end == 0:
        assert states[-1].winner == 1
    # the same seed deals the same hands
    assert json.loads(save.read_text())["hands"][1] == list(states[0].hand(1))


@pytest.mark.slow
def test_expert_match_reports_scores_after_each_game():
    child = _spawn("--players", "3", "--against", "greedy", "--seed", "3", "--target", "8")
    child.expect("Expert match: games until someone reaches 8 points")
    games = 0
    while True:
        _play_keys(child)
        games += 1
        child.expect(f"Scores after game {games}")
        i = child.expect(["Enter for the next game", r"Match over after (\d+) games: (.*) wins?"])
        if i == 1:
            assert int(child.match.group(1)) == games
            break
        child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_quitting_and_closed_input_end_cleanly():
    child = _spawn("--seed", "1", "--against", "random")
    child.expect(r"Your move \(\? for help\): ")
    child.sendline("q")
    child.expect("You left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    proc = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "play", "--seed", "1", "--against", "random"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == "leaves: error: input ended before the game did"


# ----------------------------------------------------------------------------- levels and hints
def test_levels_map_to_documented_opponents():
    from leaves.commands.play import DEFAULT_LEVEL, LEVELS, level_opponents

    assert DEFAULT_LEVEL == "medium" and LEVELS["medium"] == ("weighted",)
    assert level_opponents("easy", 3) == ["greedy", "random", "greedy"]
    assert level_opponents("hard", 2) == ["ismcts:preset=strong", "ismcts:preset=strong"]


def test_level_and_against_together_are_refused():
    proc = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "play", "--level", "easy", "--against", "random"],
        input="", capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.startswith("leaves: error: --level picks the opponents")


def test_hint_names_the_search_move_and_explains_weighted():
    import strategies

    state = _rulebook_state()
    view = state.view(0)
    text = to_text(hint_mod.hint(view, np.random.default_rng(0)), width=200)
    best = strategies.get("weighted").explain(view)
    search = strategies.get("ismcts").choose(view, state.legal_actions(), np.random.default_rng(0))
    assert f"ismcts (search) would {hint_mod._describe(search)}." in text
    assert f"weighted would {hint_mod._describe(best[0].action)}; its top choices" in text
    for s in best[:3]:
        assert re.search(rf"{hint_mod._describe(s.action)}\s+{s.score:.2f}", text)
        for name, c in s.contributions.items():
            if c:
                assert f"{name} = {s.features[name]:g}: {c:+.2f}" in text


def test_default_opponents_are_stronger_than_the_old_default():
    import strategies

    # medium (weighted) against three of the old default (greedy): duplicate deals, all seats
    res = strategies.play_batch(
        ["weighted", "greedy", "greedy", "greedy"],
        np.arange(1, 201, dtype=np.uint64), np.arange(1, 201, dtype=np.uint64),
    )  # fmt: skip
    assert np.mean(res.winner_seat == 0) > 0.25 + 0.1


@pytest.mark.slow
def test_play_hard_level_with_hints_in_a_terminal():
    child = _spawn("--players", "3", "--level", "hard", "--seed", "4", timeout=120)
    child.expect(
        r"Opponents: seat 1 \(ismcts\(preset=strong\)\), seat 2 \(ismcts\(preset=strong\)\)"
    )
    child.expect("Type h on your turn for a hint")
    child.expect(r"Your move \(\? for help\): ")
    child.sendline("h")
    child.expect(r"Hint: ismcts \(search\) would (play \d+x\d+|take \d+)\.")
    child.expect(r"weighted would (play \d+x\d+|take \d+)(; its top choices| wins)")
    child.expect(r"Your move \(\? for help\): ")
    child.sendline("1")
    i = child.expect([r"Your move \(\? for help\): ", *END])  # the search bots answered
    if i == 0:
        child.sendline("q")
        child.expect("You left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_against_is_one_option_for_play_tune_and_gauntlet():
    import click

    from leaves.commands.play import play
    from leaves.commands.tune import tune
    from leaves_cli.gauntlet_cmd import gauntlet

    for cmd, required in ((play, False), (tune, True), (gauntlet, True)):
        param = next(p for p in cmd.params if p.name == "against")
        assert param.multiple and param.required is required
        ctx = click.Context(cmd)
        done = [c.value for c in param.shell_complete(ctx, "low,gre")]
        assert done == ["low,greedy"]


# ----------------------------------------------------------------------------- first search, quit and save
def test_the_first_search_on_numba_says_it_compiles_once(monkeypatch):
    from leaves.players.compiled import engine

    monkeypatch.setattr(engine, "available", lambda: False)  # the search would compile
    monkeypatch.setattr(hint_mod, "_search_ready", False)
    monkeypatch.setattr(hint_mod, "SEARCH_BOT", "greedy")  # stands in for the slow search
    out = io.StringIO()
    console = make_console(file=out, width=120)
    view = _rulebook_state().view(0)
    hint_mod.hint(view, np.random.default_rng(0), console=console)
    hint_mod.hint(view, np.random.default_rng(0), console=console)
    assert out.getvalue().count(hint_mod.PREPARING) == 1


@pytest.mark.slow
def test_play_says_nothing_of_compiling_before_the_first_hint_on_the_c_engine():
    from leaves.players.compiled import engine

    child = _spawn("--players", "3", "--against", "greedy", "--seed", "4", timeout=120)
    child.expect(r"Your move \(\? for help\): ")
    child.sendline("h")
    child.expect(r"Hint: ismcts \(search\) would")
    assert ("compiling the search" in child.before) is not engine.available()
    child.expect(r"Your move \(\? for help\): ")
    child.sendline("h")
    child.expect(r"Hint: ismcts \(search\) would")
    assert "compiling the search" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_quitting_with_save_saves_the_unfinished_game(tmp_path):
    save = tmp_path / "games.jsonl"
    child = _spawn("--players", "3", "--against", "random", "--seed", "5", "--save", str(save))
    for _ in range(2):
        child.expect(r"Your move \(\? for help\): ")
        child.sendline("1")
    child.expect(r"Your move \(\? for help\): ")
    child.sendline("q")
    child.expect("You left the game.")
    child.expect(r"Saved the unfinished game to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = GameRecord.from_json(save.read_text().strip())
    assert record.unfinished and record.stopped == "the player quit" and record.winner is None
    states = replay(record)  # up to where the player stopped: their turn, the game not over
    assert not states[-1].is_terminal and states[-1].current_player == 0
    assert sum(1 for seat, _ in states[-1].history if seat == 0) == 2
    proc = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "replay", str(save), "--all"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
        env={**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 0 and "Result: unfinished: the player quit" in proc.stdout
