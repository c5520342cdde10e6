"""Each game's ``run_bench`` refuses, before anything plays, a size ``leaves bench`` refuses,
in the same sentence: the command only says which of its flags gave the size."""

from __future__ import annotations

import pytest

import ligretto.bench as lbench
from gamekit import bench_limits
from leaves import bench as leaves_bench
from leaves.plugin import LeavesGame
from leaves_cli import bench_cmd
from ligretto.plugin import LigrettoGame
from tests.helpers import cli, one_error_line

GIB = 2**30


def _never_played(*args):
    raise AssertionError("played")


@pytest.fixture
def one_gib(monkeypatch):
    """A machine of 1 GiB, swap included, that plays nothing."""
    monkeypatch.setattr(bench_limits, "memory", lambda: GIB)
    monkeypatch.setattr(bench_cmd, "_memory", lambda: GIB)
    for module, name in ((leaves_bench, "bench_compiled"), (leaves_bench, "bench_api"),
                         (lbench, "play_rounds"), (lbench, "play_round")):  # fmt: skip
        monkeypatch.setattr(module, name, _never_played)


def _refusal(call) -> str:
    with pytest.raises(ValueError) as exc:
        call()
    return str(exc.value)


def _flags(game: str, games: int, api: int, repeats: int) -> list[str]:
    return ["--game", game, "--games", str(games), "--api-games", str(api), "--repeats",
            str(repeats)]  # fmt: skip


@pytest.mark.usefixtures("one_gib")
@pytest.mark.parametrize(
    ("call", "args"),
    [
        (lambda: leaves_bench.run_bench(4, 10**12, 0, 0, 1), _flags("leaves", 10**12, 0, 1)),
        (lambda: leaves_bench.run_bench(4, 10, 0, 10**12, 1), _flags("leaves", 10, 10**12, 1)),
        (lambda: leaves_bench.run_bench(4, 10**6, 0, 0, 10**6), _flags("leaves", 10**6, 0, 10**6)),
        (lambda: lbench.run_bench(4, 10**12, 0, 0, 1), _flags("ligretto", 10**12, 0, 1)),
        (lambda: lbench.run_bench(4, 10, 0, 10**9, 1), _flags("ligretto", 10, 10**9, 1)),
    ],
    ids=["leaves-memory", "leaves-api-time", "leaves-time", "ligretto-memory", "ligretto-time"],
)
def test_the_api_refuses_what_the_command_refuses_in_its_words(capsys, call, args):
    """``run_bench(games=10**12)`` ran into numpy's MemoryError (or for days), where
    ``leaves bench --games 10**12`` was refused in one line at once."""
    said = _refusal(call)
    code, out, err = cli(capsys, "bench", *args)
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert line.startswith("leaves: error: --") and line.endswith(f": {said}"), (line, said)


def test_the_sentences_say_the_figures(one_gib):
    per = 2 * leaves_bench.RESULT_BYTES  # two repeats' results held at once
    assert _refusal(lambda: leaves_bench.run_bench(4, 10**12, 0, 0, 2)) == (
        f"the benchmark needs {10**12 * per / 2**40:,.1f} TiB of memory; this machine has "
        f"1.0 GiB, swap included: at most {GIB // per:,} games"
    )
    days = 10**12 * leaves_bench.API_GAME_MIN_S / 86_400
    assert _refusal(lambda: leaves_bench.run_bench(4, 1, 0, 10**12, 1)) == (
        f"the benchmark takes at least {days:,.0f} days on one core; one of more than 1 day "
        "is refused: ask for fewer"
    )


def test_sizes_that_fit_are_played(monkeypatch):
    monkeypatch.setattr(bench_limits, "memory", lambda: None)  # a machine that cannot tell
    played = []
    monkeypatch.setattr(leaves_bench, "bench_compiled", lambda *a: played.append(a) or {
        "games_per_second": 1.0})  # fmt: skip
    monkeypatch.setattr(leaves_bench, "bench_api", lambda *a: {"api_games_per_second": None})
    games = int(bench_limits.MOST_S / leaves_bench.GAME_MIN_S)  # a day's, at most
    leaves_bench.run_bench(4, games, 0, 0, 1)
    assert played and played[0][1] == games


@pytest.mark.parametrize("game", [LeavesGame(), LigrettoGame()])
def test_a_games_own_sizes_pass(game):
    size, seconds = game.bench_needs(game.max_players, None, None, 3)
    assert bench_limits.refusal(size, seconds, GIB, 1, "games") is None
