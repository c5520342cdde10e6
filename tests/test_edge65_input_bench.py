"""``leaves bench`` refuses a size whose results cannot fit in memory before it plays, saying
the figure and the limit, and keeps every size that fits; memory no declaration foresaw is one
line."""

from __future__ import annotations

import pytest

from leaves.plugin import LeavesGame
from leaves_cli import bench_cmd
from tests.helpers import cli, one_error_line

GIB = 2**30


@pytest.mark.parametrize(("game", "unit"), [("leaves", "games"), ("ligretto", "rounds")])
def test_a_size_past_the_memory_is_refused_before_it_is_played(game, unit, capsys):
    code, out, err = cli(capsys, "bench", "--game", game, "--games", str(10**12))
    line = one_error_line(err)  # was: MemoryError: Unable to allocate 7.28 TiB ...
    assert code == 2 and out == ""
    assert line.startswith("leaves: error: --games 1,000,000,000,000: the benchmark needs ")
    assert " of memory; this machine has " in line and ", swap included: at most " in line
    assert line.endswith(f" {unit}")


class _Declares:
    """A game that declares 48 bytes a game and no time."""

    unit = "game"

    def bench_needs(self, players, games, api_games, repeats):
        return 48 * games, 0.0


def test_the_limit_said_is_the_memory_over_the_bytes_per_game(monkeypatch):
    monkeypatch.setattr(bench_cmd, "_memory", lambda: GIB)
    fits = GIB // 48
    sizes = {"games": fits, "api_games": None, "repeats": 3}
    bench_cmd.check_needs(_Declares(), 4, sizes, "")  # a size that fits is played, as before
    with pytest.raises(bench_cmd.CLIError) as exc:
        bench_cmd.check_needs(_Declares(), 4, {**sizes, "games": fits + 1}, "")
    assert str(exc.value).endswith(f"has 1.0 GiB, swap included: at most {fits:,} games")


def test_the_machine_memory_is_at_least_what_python_holds_now():
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux
    assert bench_cmd._memory() is None or bench_cmd._memory() > peak


def test_memory_no_declaration_foresaw_is_one_line(monkeypatch, capsys):
    def bench(*args):
        raise MemoryError("Unable to allocate 7.28 TiB")

    monkeypatch.delattr(LeavesGame, "bench_needs")  # a game that declares nothing
    monkeypatch.setattr(LeavesGame, "bench", bench)
    code, out, err = cli(capsys, "bench", "--games", "10", "--repeats", "1")
    line = one_error_line(err)  # was: MemoryError: ... (rerun with --debug for the traceback)
    assert code == 1 and out == ""
    assert line.startswith("leaves: error: the benchmark needs more memory than it can have: ")
