"""A game ``leaves play --save`` saved replays with the hints its player saw, and its
record's seed is the deal seed of its hands (the replay's heading names it so)."""

from __future__ import annotations

import re

from rich.text import Text

from leaves.record import read_records

SHOWN = re.compile(r"HINT turn (\d+) draw (\d+)")


def _stand_in(view, rng, top=3, console=None):
    """The hint's generator, shown: equal draws are equal generators (the search is slow)."""
    return Text(f"HINT turn {view.turn} draw {rng.integers(2**62)}")


def _run(monkeypatch, args, text=""):
    from click.testing import CliRunner

    from leaves_cli.main import cli

    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr("leaves.commands.hint.hint", _stand_in)
    result = CliRunner().invoke(cli, args, input=text)
    assert result.exit_code == 0, result.output
    return result.output


def test_replay_hints_are_the_ones_play_showed(monkeypatch, tmp_path):
    path = str(tmp_path / "g.jsonl")
    moves = "h\nh\n1\n" * 6 + "q\n"  # a hint asked twice, then the first move, each turn
    args = ["play", "--seed", "5", "--against", "random", "--save", path]
    played = SHOWN.findall(_run(monkeypatch, args, moves))
    assert len(played) >= 4
    replayed = dict(SHOWN.findall(_run(monkeypatch, ["replay", path, "--all", "--hints"])))
    for turn, draw in played:
        assert replayed[turn] == draw, turn


def test_saved_seed_deals_the_saved_hands(monkeypatch, tmp_path):
    from leaves.players.play import deal_state

    path = str(tmp_path / "g.jsonl")
    _run(monkeypatch, ["play", "--seed", "7", "--against", "random", "--save", path], "q\n")
    (record,) = read_records(path)
    assert record.seed is not None
    dealt = deal_state(record.n_players, record.seed, rules=record.game_rules())
    assert dealt.hands == record.initial_state().hands
    assert dealt.current_player == record.first_player
    head = _run(monkeypatch, ["replay", path, "--all"]).splitlines()[0]
    assert head.endswith(f"deal seed {record.seed}")
