"""``leaves bench`` refuses a size whose results cannot fit in memory before it plays, saying
the limit and why, and keeps every size that fits; memory it could not foresee is one line."""

from __future__ import annotations

import pytest

from leaves_cli import bench_cmd
from leaves_cli.tournament_parts import load_game
from tests.helpers import cli, one_error_line

GIB = 2**30


@pytest.mark.parametrize(("game", "unit"), [("leaves", "games"), ("ligretto", "rounds")])
def test_a_size_past_the_memory_is_refused_before_it_is_played(game, unit, capsys):
    code, out, err = cli(capsys, "bench", "--game", game, "--games", str(10**12))
    line = one_error_line(err)  # was: MemoryError: Unable to allocate 7.28 TiB ...
    assert code == 2 and out == ""
    assert line.startswith("leaves: error: --games 1,000,000,000,000: a timed run keeps about ")
    assert "more than this machine's memory (" in line and "at most " in line
    assert line.endswith(f" {unit}")


def test_the_bytes_per_game_are_what_the_compiled_run_keeps():
    # the compiled random play returns turns, rounds and winners, an int64 each, per game, and
    # the count of unfinished games reads a bool per game; a second repeat's results are made
    # while the first's are still held
    plugin = load_game("leaves", {})
    assert bench_cmd.per_unit(plugin, 4, 1, 0) == pytest.approx(3 * 8 + 1, abs=0.5)
    assert bench_cmd.per_unit(plugin, 4, 3, 0) == pytest.approx(2 * 3 * 8, abs=0.5)


def test_the_limit_said_is_the_memory_over_the_bytes_per_game(monkeypatch):
    plugin = load_game("leaves", {})
    monkeypatch.setattr(bench_cmd, "_memory", lambda: GIB)
    monkeypatch.setattr(bench_cmd, "per_unit", lambda *a: 48.0)
    fits = GIB // 48
    bench_cmd._check_fits(plugin, 4, fits, 3, 0)  # a size that fits is played, as before
    with pytest.raises(bench_cmd.CLIError) as exc:
        bench_cmd._check_fits(plugin, 4, fits + 1, 3, 0)
    assert str(exc.value).endswith(f"(1.0 GiB, swap included): at most {fits:,} games")


def test_sizes_up_to_the_checked_one_are_played_unmeasured(monkeypatch):
    def measured(*args):
        raise AssertionError("measured")

    monkeypatch.setattr(bench_cmd, "per_unit", measured)
    bench_cmd._check_fits(load_game("leaves", {}), 4, bench_cmd.CHECKED_FROM, 3, 0)


def test_the_machine_memory_is_at_least_what_python_holds_now():
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux
    assert bench_cmd._memory() is None or bench_cmd._memory() > peak


def test_memory_the_check_cannot_foresee_is_one_line(capsys):
    args = ["bench", "--game", "ligretto", "--games", "10", "--repeats", "1"]
    code, out, err = cli(capsys, *args, "--api-games", str(10**12))
    line = one_error_line(err)  # was: MemoryError: ... (rerun with --debug for the traceback)
    assert code == 1 and out == ""
    assert line.startswith("leaves: error: the benchmark needs more memory than it can have: ")
