"""``leaves bench`` checks a run against what each game's plug-in declares (``bench_needs``: the
bytes its benchmark holds at its peak, a lower bound on its seconds) before anything plays, and
the declarations are held to what a small run measures."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import ligretto.bench as lbench
from leaves import bench as leaves_bench
from leaves.players.compiled import engine as leaves_c
from leaves.plugin import LeavesGame
from leaves_cli import bench_cmd
from ligretto import cengine
from ligretto.plugin import LigrettoGame
from tests.helpers import cli, one_error_line
from tournaments.game import BenchReport

ROOT = Path(__file__).resolve().parent.parent
GIB = 2**30
_REPORT = BenchReport({}, "a game's bench", ("path",), [], [])
N = 1 << 13
"""Units of the smaller of two measured runs: the growth to twice as many is the bytes the
run holds a unit (what it holds at any size cancels)."""
LEAVES_N = 1 << 16
"""13 Leaves' smaller run: its peak must be the compiled runs' (25 bytes a game at least),
not the 512 KiB of uniforms its Python-API path draws at any size."""


def _growth(run, n: int) -> float:
    """Bytes a unit by which ``run(n)``'s traced peak grows from ``n`` units to ``2 * n``."""
    run(n)  # loading and compiling are no unit's
    peaks = []
    for size in (n, 2 * n):
        tracemalloc.start()
        try:
            run(size)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    return (peaks[1] - peaks[0]) / n


# ------------------------------------------------------------------ the declared bytes
# Every byte the runs hold a unit is a numpy array, which tracemalloc sees to the byte, and
# the growth from N to 2N units cancels what any size holds: the measurement is within a
# byte of the truth, so 2% (under a byte a unit at these sizes) is the factor allowed.
@pytest.mark.slow
@pytest.mark.parametrize("repeats", [1, 2])
def test_the_bytes_13_leaves_declares_are_what_its_bench_holds(repeats):
    if not leaves_c.available():
        pytest.skip("measured on the C engine (numba's loop, with the JIT off, takes minutes)")
    game = LeavesGame()
    measured = _growth(lambda n: game.bench(4, n, 0, repeats, 0), LEAVES_N)
    declared = game.bench_needs(4, LEAVES_N, 0, repeats)[0] / LEAVES_N
    assert measured == pytest.approx(declared, rel=0.02)


@pytest.mark.parametrize(("players", "repeats"), [(2, 1), (4, 3), (12, 2)])
def test_the_bytes_ligretto_declares_are_what_its_bench_holds(players, repeats):
    if not cengine.available():
        pytest.skip("measured on the C engine (numba's loop, with the JIT off, takes minutes)")
    game = LigrettoGame()
    measured = _growth(lambda n: game.bench(players, n, 0, repeats, 0), N)
    declared = game.bench_needs(players, N, 0, repeats)[0] / N
    assert measured == pytest.approx(declared, rel=0.02)


def test_ligrettos_python_path_holds_nothing_a_round(monkeypatch):
    """Its seeds were an array of ``api_rounds`` (8 bytes a round: ``--api-games 10**12``
    ended in a MemoryError); the rounds played, each from the seeds it had before."""
    played = []
    monkeypatch.setattr(lbench, "play_round", lambda p, deal, play: played.append((deal, play)))
    seed = 2**63 - 2
    lbench.run_bench(2, 10, seed, 3, 1)
    before = np.arange(3, dtype=np.uint64) + np.uint64(seed)  # the seeds as they were made
    assert played == [(int(before[i]), int(before[-1 - i])) for i in range(3)]
    monkeypatch.setattr(lbench, "play_round", lambda *args: None)
    assert _growth(lambda n: lbench.run_bench(2, 10, 0, n, 1), 1 << 16) < 0.5


# ------------------------------------------------------------------ the declared seconds
def _cpu_per_unit(run, n: int) -> float:
    """The least CPU seconds a unit over three runs of ``run(n)`` (one loaded before)."""
    run(min(n, 10))
    spent = []
    for _ in range(3):
        start = time.process_time()
        run(n)
        spent.append((time.process_time() - start) / n)
    return min(spent)


def test_13_leaves_declared_seconds_are_lower_bounds():
    """Three players play the shortest games: every table is at least as slow."""
    _, play = leaves_bench.random_player(3)
    assert _cpu_per_unit(lambda n: play(n, 0), 20_000) >= leaves_bench.GAME_MIN_S
    api = _cpu_per_unit(lambda n: leaves_bench.bench_api(3, n, 0), 20)
    assert api >= leaves_bench.API_GAME_MIN_S


def test_ligretto_declared_seconds_are_lower_bounds():
    """Two players' rounds are the cheapest compiled ones, five players' the cheapest through
    the Python path (shorter rounds, in game time, than fewer players play)."""
    if not cengine.available():
        pytest.skip("measured on the C engine (numba's loop, with the JIT off, takes minutes)")
    table = lbench.bench_table(2)
    seeds = np.arange(5_000, dtype=np.uint64)
    compiled = _cpu_per_unit(lambda n: lbench.play_rounds(table, seeds[:n], seeds[:n]), 5_000)
    assert compiled >= lbench.ROUND_MIN_S
    api = _cpu_per_unit(lambda n: lbench.run_bench(5, 10, 0, n, 1), 4)  # 10 compiled: nothing
    assert api >= lbench.API_ROUND_MIN_S


@pytest.mark.parametrize("game", [LeavesGame(), LigrettoGame()])
def test_a_games_own_sizes_are_played_without_a_word(game):
    size, seconds = game.bench_needs(game.max_players, None, None, 3)
    assert size < GIB and seconds < bench_cmd.WARN_S


# ------------------------------------------------------------------ the command
def _never_played(*args):
    raise AssertionError("played")


def test_api_games_past_a_day_are_refused_before_they_play(monkeypatch, capsys):
    # was: 13 Leaves' Python-API bench ran without end (10**12 games at 4e-4 s each)
    monkeypatch.setattr(LeavesGame, "bench", _never_played)
    code, out, err = cli(capsys, "bench", "--api-games", str(10**12))
    line = one_error_line(err)
    assert code == 2 and out == ""
    days = 10**12 * leaves_bench.API_GAME_MIN_S / 86_400  # 231: the compiled runs add little
    assert line == (f"leaves: error: --api-games 1,000,000,000,000: the benchmark takes at "
                    f"least {days:,.0f} days on one core; one of more than 1 day is refused: "
                    "ask for fewer")  # fmt: skip


def test_repeats_past_a_day_are_refused(monkeypatch, capsys):
    monkeypatch.setattr(LigrettoGame, "bench", _never_played)
    code, _, err = cli(capsys, "bench", "--game", "ligretto", "--repeats", str(10**9))
    years = 10**9 * lbench.DEFAULT_ROUNDS * lbench.ROUND_MIN_S / (365.25 * 86_400)
    assert code == 2 and f": the benchmark takes at least {years:.1f} years" in one_error_line(err)


def test_a_size_past_the_memory_says_both_figures(monkeypatch, capsys):
    monkeypatch.setattr(bench_cmd, "_memory", lambda: GIB)
    monkeypatch.setattr(LigrettoGame, "bench", _never_played)
    code, out, err = cli(capsys, "bench", "--game", "ligretto", "--games", str(10**12))
    per = 2 * 8 + 8 * (3 * 4 + 6) + 2 * (4 * 4 + 13)  # 4 players, 3 repeats: 218 bytes a round
    assert code == 2 and out == ""
    assert one_error_line(err) == (
        f"leaves: error: --games 1,000,000,000,000: the benchmark needs "
        f"{10**12 * per / 2**40:,.1f} TiB of memory; this machine has 1.0 GiB, swap included: "
        f"at most {GIB // per:,} rounds"
    )


def test_a_long_run_is_played_after_a_warning(monkeypatch, capsys):
    played = []
    monkeypatch.setattr(LeavesGame, "bench", lambda self, *a: played.append(a) or _REPORT)
    code, out, err = cli(capsys, "bench", "--games", "10", "--api-games", str(10**8), "--json")
    minutes = 10**8 * leaves_bench.API_GAME_MIN_S / 60  # 33: the 30 compiled games add nothing
    assert code == 0 and played == [(4, 10, 10**8, 3, 0)] and out.strip() == "{}"
    assert err == (f"leaves: warning: --games 10 --api-games 100,000,000: the benchmark takes "
                   f"at least {minutes:,.0f} minutes on one core\n")  # fmt: skip


class _Costs:
    """A game that declares what it is given."""

    unit = "game"

    def __init__(self, size: int, seconds: float):
        self.needs = (size, seconds)

    def bench_needs(self, players, games, api_games, repeats):
        return self.needs


SIZES = {"games": 10, "api_games": None, "repeats": 3}


def test_the_limits_are_inclusive(monkeypatch, capsys):
    monkeypatch.setattr(bench_cmd, "_memory", lambda: GIB)
    bench_cmd.check_needs(_Costs(GIB, bench_cmd.WARN_S), 4, SIZES, "")
    assert capsys.readouterr().err == ""
    bench_cmd.check_needs(_Costs(GIB, bench_cmd.MOST_S), 4, SIZES, "")
    assert capsys.readouterr().err.startswith("leaves: warning: the benchmark takes at least 1 d")
    for past in (_Costs(GIB + 1, 0.0), _Costs(0, bench_cmd.MOST_S * 1.001)):
        with pytest.raises(bench_cmd.CLIError):
            bench_cmd.check_needs(past, 4, SIZES, "")


def test_a_game_that_declares_nothing_is_played_unchecked(monkeypatch):
    monkeypatch.setattr(bench_cmd, "_memory", lambda: 1)
    bench_cmd.check_needs(object(), 4, SIZES, "")


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(0.5, "0.5 seconds"), (59, "59 seconds"), (60, "1 minute"), (90, "1.5 minutes"),
     (86_400, "1 day"), (2e7, "231 days"), (1e8, "3.2 years")],
)  # fmt: skip
def test_durations_in_words(seconds, words):
    assert bench_cmd._duration(seconds) == words


@pytest.mark.parametrize(
    ("size", "words"),
    [(1023, "1,023 bytes"), (1024, "1.0 KiB"), (GIB, "1.0 GiB"), (48 * 10**12, "43.7 TiB")],
)
def test_sizes_in_words(size, words):
    assert bench_cmd._size(size) == words


def test_the_limits_the_docs_state_are_the_commands(monkeypatch, capsys):
    row = next(line for line in (ROOT / "docs" / "cli.md").read_text().splitlines()
               if line.startswith("| `leaves bench "))  # fmt: skip
    most, warn = bench_cmd._duration(bench_cmd.MOST_S), bench_cmd._duration(bench_cmd.WARN_S)
    assert f"lower bound on time passes {most} is refused" in row
    assert f"whose bound passes {warn} plays after a warning" in row
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = cli(capsys, "bench", "--help")
    assert code == 0 and f"whose lower bound on time passes {most};" in " ".join(out.split())
