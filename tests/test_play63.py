"""``leaves play`` as a person drives it: what each prompt answers to bad input, the hint the
same position gives whenever it is asked, and the moves a variant's words suggest."""

from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner

from leaves import Rules, new_game
from leaves.commands.moves import MoveError, parse_move
from leaves_cli.main import cli as leaves
from tests.helpers import (
    cli,
    forget_loaded_files,  # noqa: F401  (a fixture, used by name)
    one_error_line,
)


def _play(*args: str, keys: str) -> tuple[int, str]:
    """(exit code, output) of ``leaves play ARGS`` typed ``keys`` ('|' ends a line)."""
    result = CliRunner().invoke(leaves, ["play", *args], input=keys.replace("|", "\n"))
    return result.exit_code, result.output


def _hints(output: str) -> list[str]:
    """The search's moves the hints named, in order."""
    return re.findall(r"Hint: \S+ \(search\) would (.+?)\.\n", output)


# ----------------------------------------------------------------------------- the hint
def test_the_hint_asked_again_at_one_position_names_the_same_move():
    """Seed 1, four players: the first position's search hint was drawn from one generator
    shared by every hint, so asking three times named three moves (2x7, 1x7, 1x10)."""
    _, out = _play("--seed", "1", keys="h|h|h|q|")
    hints = _hints(out)
    assert len(hints) == 3, out
    assert len(set(hints)) == 1, hints


def test_a_later_hint_does_not_depend_on_the_hints_asked_before(monkeypatch):
    """The hint at a turn draws the same numbers whether or not the player asked for hints
    earlier (a stand-in hint shows its generator's first draw; one generator shared by every
    hint gave the second position another draw once the first had asked)."""
    from leaves.commands import hint as hint_module

    monkeypatch.setattr(hint_module, "hint", lambda view, rng, **_: f"draw {rng.integers(10**9)}")
    _, asked = _play("--seed", "1", keys="h|h|1|h|q|")
    _, fresh = _play("--seed", "1", keys="1|h|q|")
    draws, again = re.findall(r"draw \d+", asked), re.findall(r"draw \d+", fresh)
    assert len(draws) == 3 and len(again) == 1, (asked, fresh)
    assert draws[0] == draws[1] and draws[2] == again[0] != draws[0], (draws, again)


# ----------------------------------------------------------------------------- typed moves
def test_an_unreadable_move_under_take_nothing_suggests_pass_not_a_take():
    """Under take=nothing a take is never legal: the error's example pass is 'pass', as the
    position's line of legal moves says, not 'take 9'."""
    state = new_game(3, seed=3, rules=Rules(take="nothing"))
    with pytest.raises(MoveError) as exc:
        parse_move("take", state)
    said = str(exc.value)
    assert "'take 9'" not in said and "a pass like 'pass'" in said, said
    today = new_game(3, seed=3)
    with pytest.raises(MoveError) as exc:
        parse_move("take", today)
    assert "a pass like 'take 9'" in str(exc.value)


def test_the_typed_example_of_the_legal_moves_line_and_the_error_agree():
    _, out = _play("--seed", "3", "--players", "3", "--rules", "take=nothing", keys="take|q|")
    assert "a move like '3x6' / 'pass'" in out, out
    assert "a pass like 'pass'" in out.replace("\n", " "), out


# ----------------------------------------------------------------------------- between games
_MATCH = ("--seed", "3", "--players", "3", "--rules", "hand_size=2", "--target", "5",
          "--against", "random")  # fmt: skip
"""A short expert match: its first game ends after one move of yours (key 1)."""


@pytest.mark.parametrize("word", ["q", "quit", "exit"])
def test_every_word_that_quits_a_move_quits_the_match_between_games(word):
    """'exit' quits at the move prompt; between games it started the next game."""
    code, out = _play(*_MATCH, keys=f"1|{word}|")
    assert code == 0, out
    assert "You left the match." in out, out
    assert "Round 1:" in out and out.count("Round 1:") == 1, out


def test_other_text_between_games_is_asked_again_not_taken_for_enter():
    """Text that is neither Enter nor a quit word starts no game: the prompt says so and asks
    again (it started the next game, as Enter does)."""
    code, out = _play(*_MATCH, keys="1|x|q|")
    assert code == 0, out
    assert out.count("Round 1:") == 1, out
    assert "Type Enter for the next game or q to stop" in out, out
    assert "You left the match." in out, out
    _, on = _play(*_MATCH, keys="1||1|q|")
    assert on.count("Round 1:") == 2, on


# ----------------------------------------------------------------------------- options
def test_a_target_the_rules_would_refuse_is_refused_in_one_line(capsys, monkeypatch):
    """--rules expert_target takes 1 to 1,000 points; --target 5000 started a match."""
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = cli(capsys, "play", "--target", "5000")
    line = one_error_line(err)
    assert code == 2 and "--target" in line and "1000" in line, (line, out)
    assert "Expert match" not in out, out


# ----------------------------------------------------------------------------- Ctrl-C
_ENDS_SLOWLY = '''
from strategies import Strategy


class EndsSlowly(Strategy):
    """Plays its first legal move; Ctrl-C comes while it reads the game's end."""

    name = "ends_slowly"

    def choose(self, view, legal, rng):
        return legal[0]

    def end_game(self, view, result):
        raise KeyboardInterrupt
'''


@pytest.mark.usefixtures("forget_loaded_files")
def test_ctrl_c_after_the_last_move_saves_the_finished_game_not_a_stopped_one(
    capsys, monkeypatch, tmp_path
):
    """Ctrl-C while a bot reads the game's end (its end_game) came after the winning move: the
    game was saved as stopped ("interrupted"), a record whose actions end the game, which
    'leaves replay' refuses, and the command called it unfinished."""
    from leaves.record import GameRecord, replay

    bot, save = tmp_path / "ends_slowly.py", tmp_path / "games.jsonl"
    bot.write_text(_ENDS_SLOWLY, encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 200))
    code, _, err = cli(capsys, "play", "--seed", "3", "--players", "3", "--load", str(bot),
                       "--against", "ends_slowly", "--save", str(save))  # fmt: skip
    line = one_error_line(err)
    assert code == 130 and "unfinished" not in line and "saved the game to" in line, line
    record = GameRecord.from_json(save.read_text(encoding="utf-8").splitlines()[-1])
    assert record.winner is not None and not record.unfinished, record
    assert replay(record)[-1].winner == record.winner
    assert cli(capsys, "replay", str(save), "--all")[0] == 0


# ----------------------------------------------------------------------------- signals
_SENDS = '''
import os
import signal

from strategies import Strategy


class Sends(Strategy):
    """Plays its first legal move; at its second move the process gets {signal}."""

    name = "sends_{lower}"

    def choose(self, view, legal, rng):
        self.moves = getattr(self, "moves", 0) + 1
        if self.moves == 2:
            os.kill(os.getpid(), signal.{signal})
        return legal[0]
'''


class _NotHandled(Exception):
    """The signal reached the test's own handler: the command did not take it."""


@pytest.mark.usefixtures("forget_loaded_files")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_game_ended_by_sigterm_or_sighup_is_saved_as_ctrl_c_saves_it(
    capsys, monkeypatch, tmp_path, name
):
    """'kill PID' (SIGTERM) or a closed terminal (SIGHUP) during a game: the game so far is
    saved, marked stopped by the signal, and the command ends as interrupted (exit 130), as
    for Ctrl-C; they ended the process with nothing saved."""
    import signal

    from leaves.record import GameRecord, replay

    number = getattr(signal, name)
    bot, save = tmp_path / f"sends_{name}.py", tmp_path / "games.jsonl"
    bot.write_text(_SENDS.format(signal=name, lower=name.lower()), encoding="utf-8")

    def not_handled(signum, frame):
        raise _NotHandled(name)

    before = signal.signal(number, not_handled)  # without the command's handler: no kill
    try:
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 200))
        code, _, err = cli(capsys, "play", "--seed", "3", "--players", "3", "--load", str(bot),
                           "--against", f"sends_{name.lower()}", "--save", str(save))  # fmt: skip
        assert signal.getsignal(number) is not_handled  # the command's handler is gone
    finally:
        signal.signal(number, before)
    line = one_error_line(err)
    assert code == 130 and "interrupted" in line and "saved the unfinished game" in line, line
    assert line.endswith("up to where it stopped)"), line  # not "you": a signal stopped it
    record = GameRecord.from_json(save.read_text(encoding="utf-8").splitlines()[-1])
    assert record.unfinished and record.stopped == f"interrupted ({name})", record
    assert len(replay(record)) == record.turns + 1


# ----------------------------------------------------------------------------- the hint's words
def _a_tied_position():
    """The first position of weighted's games where its two best moves score the same."""
    import numpy as np

    import strategies

    best = strategies.get("weighted")
    for seed in range(50):
        state, rng = new_game(4, seed=seed), np.random.default_rng(seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            top = best.explain(view)[:2]
            if len(top) == 2 and not top[0].wins and top[0].score == top[1].score:
                return view, top
            state = state.apply(best.choose(view, state.legal_actions(), rng))
    raise AssertionError("no tie in 50 games")


def test_a_hint_whose_two_best_moves_tie_says_which_weighted_plays_and_why():
    """Two rows of the same score under 'weighted would play X': the hint says they tie and
    that weighted plays the one listed first (as its policy breaks ties: the lower action)."""
    import numpy as np

    from leaves.commands.hint import _describe, hint
    from leaves_cli.console import make_console

    view, (first, second) = _a_tied_position()
    out = io.StringIO()
    make_console(file=out, width=200).print(hint(view, np.random.default_rng(0)))
    said = out.getvalue()
    assert first.action.id < second.action.id
    tie = f"weighted would {_describe(first.action)} (tied with {_describe(second.action)}"
    assert tie in said, said
    assert "the one listed first" in said, said


# ----------------------------------------------------------------------------- the screen
def _screens(output: str) -> list[tuple[int, str]]:
    """Each position the player was shown: (its turn, the text down to the legal moves' end)."""
    blocks = output.split("\nTurn ")[1:]
    return [(int(b.split(" ", 1)[0]) - 1, b.split("Your move")[0]) for b in blocks]


def _shown_seats(block: str) -> list[tuple[bool, int, int, bool, list[int]]]:
    """The seats table's rows: (turn mark, seat, cards, passed, known cards)."""
    row = re.compile(r"\s*(>?)\s+(\d+)\s+\S+\s+(\d+)\s+(in|passed)\s*([\d ]*)$")
    rows = [row.match(line) for line in block.split("Your hand")[0].splitlines()]
    return [(m[1] == ">", int(m[2]), int(m[3]), m[4] == "passed", [int(v) for v in m[5].split()])
            for m in rows if m]  # fmt: skip


def _cards(counts) -> list[int]:
    return [v + 1 for v, c in enumerate(counts) for _ in range(c)]


@pytest.mark.parametrize("rules", ["", "take=ends", "take=nothing", "min_count=off"])
def test_every_screen_of_a_game_shows_the_position_the_record_replays(tmp_path, rules):
    """A whole game typed by keys: each position shown (the stacks and their sizes, each seat's
    cards, who passed, whose turn, the known cards, the hand, the legal moves and their keys)
    is the one the saved record replays to at that turn, under each pass and count rule."""
    from leaves import Action
    from leaves.commands import render
    from leaves.record import GameRecord, replay

    save = tmp_path / "game.jsonl"
    keys = "|".join(str(1 + i * 7 % 3) for i in range(300)) + "|"
    extra = ["--rules", rules] if rules else []
    _, out = _play("--seed", "2", "--players", "5", "--seat", "2", "--level", "easy",
                   "--save", str(save), *extra, keys=keys)  # fmt: skip
    record = GameRecord.from_json(save.read_text(encoding="utf-8").splitlines()[-1])
    states = {s.turn: s for s in replay(record)}
    screens = _screens(out)
    assert len(screens) >= 3, out
    for turn, block in screens:
        s = states[turn]
        assert s.current_player == 2, block
        box = [line.strip("│").split("│") for line in block.splitlines() if line.startswith("│")]
        stacks = [(int(v), int(n.strip().lstrip("x"))) for v, n in zip(*box[:2], strict=True)]
        assert stacks == [tuple(p) for p in s.stacks], block
        truth = [(seat == s.current_player, seat, s.hand_sizes[seat], s.passed[seat],
                  _cards(s.known[seat])) for seat in range(5)]  # fmt: skip
        assert _shown_seats(block) == truth, block
        hand = re.search(r"Your hand: ([\d ]+?)\s+\(\d+ cards?\)", block)[1]
        assert [int(v) for v in hand.split()] == _cards(s.hands[2]), block
        moves = re.findall(r"(\d+) (play \d+x\d+|pass, take \d+|pass)\b", block.split("Legal")[1])
        assert sorted((int(k), a) for k, a in moves) == [
            (i + 1, str(a)) for i, a in enumerate(s.legal_actions())
        ], block
    said = re.findall(r"^(?:  seat \d+ \(\S+\) |.*You )(.+)\.$", out, re.M)
    moves = [render.describe_action(Action.from_id(i), you=True) for i in record.actions]
    you = {"plays": "play", "passes": "pass", "takes": "take"}
    assert [" ".join(you.get(w, w) for w in line.split()) for line in said] == moves


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_signal_ignored_before_the_game_stays_ignored(capsys, monkeypatch, tmp_path):
    """Under 'nohup' SIGHUP is ignored: the game goes on to its end rather than stop."""
    import signal

    bot = tmp_path / "sends_sighup_ignored.py"
    bot.write_text(_SENDS.format(signal="SIGHUP", lower="sighup_ignored"), encoding="utf-8")
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 200))
        code, out, err = cli(capsys, "play", "--seed", "3", "--players", "3", "--load", str(bot),
                             "--against", "sends_sighup_ignored")  # fmt: skip
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)
    assert code == 0 and not err, err
    assert re.search(r"wins? after \d+ turns", out), out
