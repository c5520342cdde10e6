"""Runs on several players at the edges: a Dask scheduler that is no address or cannot be
reached is refused at once, before a run writes anything; a local Dask cluster plays
plain-Python strategies (their decisions bounded in a helper process); a worker's failure
says it was a worker's; what a Dask stream had finished when it was closed is written; a Dask
run interrupted and resumed on local workers ends as an uninterrupted run."""

from __future__ import annotations

import os
import socket
import time

import pytest

from leaves.plugin import LeavesGame
from tests.helpers import same_run
from tests.toygame import ToyGame
from tournaments import Tournament, runner
from tournaments.parallel import DAEMONS, WorkerError, imap_unordered
from tournaments.players import Players

PLAIN = '''
import multiprocessing

from strategies import Strategy

if multiprocessing.current_process().name.startswith("Dask Worker") and {fail}:
    import a_module_no_worker_has  # noqa: F401


class Plain(Strategy):
    """Plays its first legal action, in plain Python (no compiled policy)."""

    classifier = {{"stochastic": False}}

    def choose(self, view, legal, rng):
        return legal[0]
'''


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _toy(**kw) -> Tournament:
    return Tournament(["a", "p1", "p2", "p3"], players=4, games=480, seed=5, chunk_size=24,
                      game=ToyGame(**kw))  # fmt: skip


# ----------------------------------------------------------------------------- the scheduler
def test_an_unreachable_scheduler_is_refused_at_once_before_anything_is_written(tmp_path):
    address = f"tcp://127.0.0.1:{_closed_port()}"
    out = tmp_path / "o"
    start = time.monotonic()
    with pytest.raises(ValueError) as exc:
        _toy().run(backend="dask", scheduler=address, out=out)
    said = str(exc.value)
    assert time.monotonic() - start < 10  # it waited 30 s, to say it had "timed out"
    assert said == f"no Dask scheduler answers at {address}: Connection refused"
    assert not out.exists()  # a rerun needs no --resume


@pytest.mark.parametrize("address", ["notanaddress", "tcp://127.0.0.1", "http://127.0.0.1:8787",
                                     "tcp://host:port"])  # fmt: skip
def test_a_malformed_scheduler_address_is_refused_naming_it(tmp_path, address):
    with pytest.raises(ValueError) as exc:
        Players(2, "dask", address)
    said = str(exc.value)
    assert said.startswith(f"not a Dask scheduler address: {address!r} (")
    assert said.endswith("; e.g. tcp://HOST:8786") and "\n" not in said
    with pytest.raises(ValueError, match="not a Dask scheduler address"):
        _toy().run(backend="dask", scheduler=address, out=tmp_path / "o")
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_a_scheduler_without_workers_is_refused_after_a_while_not_waited_on_forever(
    tmp_path, monkeypatch
):
    from tournaments import parallel

    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(parallel, "WORKERS_S", 1.0)
    with distributed.LocalCluster(
        n_workers=0, processes=False, dashboard_address=":0"
    ) as cluster, pytest.raises(WorkerError) as exc:  # fmt: skip
        _toy().run(backend="dask", scheduler=cluster.scheduler_address, out=tmp_path / "o")
    address = cluster.scheduler_address
    assert str(exc.value) == (
        f"no Dask worker joined the scheduler at {address} in 1 s: start some "
        f"('dask worker {address}')"
    )


# ----------------------------------------------------------------------------- a local cluster
@pytest.mark.slow
def test_a_local_dask_cluster_plays_plain_python_strategies(tmp_path):
    """Its worker processes were daemons, which may start no process: every chunk with a
    plain-Python seat failed ('AssertionError: daemonic processes are not allowed to have
    children') where its decisions are bounded in a helper process."""
    path = tmp_path / "plain.py"
    path.write_text(PLAIN.format(fail=False))

    def t() -> Tournament:
        return Tournament([f"{path}:Plain", "greedy", "low"], players=3, games=24, seed=3,
                          chunk_size=6, game=LeavesGame(decision_timeout=60))  # fmt: skip

    loky = t().run(n_jobs=1, out=tmp_path / "loky")
    dask = t().run(n_jobs=2, backend="dask", out=tmp_path / "dask")
    same_run(dask, loky)
    assert not dask.games()["forfeit"].any()


@pytest.mark.slow
def test_a_strategy_a_worker_cannot_load_fails_in_one_line_saying_where(tmp_path, capfd):
    path = tmp_path / "plain.py"
    path.write_text(PLAIN.format(fail=True))  # loads here, not on a Dask worker
    t = Tournament([f"{path}:Plain", "greedy", "low"], players=3, games=24, seed=3,
                   chunk_size=6, game=LeavesGame(decision_timeout=60))  # fmt: skip
    with pytest.raises(WorkerError) as exc:
        t.run(n_jobs=1, backend="dask", out=tmp_path / "o")
    said = str(exc.value)
    assert said.startswith("a Dask worker could not play a chunk: error while loading ")
    assert "No module named 'a_module_no_worker_has'" in said and "\n" not in said
    assert "Traceback" not in capfd.readouterr().err  # the workers' logs are not the message


def test_the_command_says_a_workers_error_in_one_line_with_the_resume(tmp_path, capsys):
    """The command printed "WorkerError: ... (rerun with --debug for the traceback)", its
    last-resort line, with no word of the finished chunks it kept."""
    from tests.helpers import cli

    path = tmp_path / "plain.py"
    path.write_text(PLAIN.format(fail=True))
    out = tmp_path / "o"
    code, _, err = cli(capsys, "tournament", f"{path}:Plain", "greedy", "low", "--players", "3",
                       "--games", "24", "--seed", "3", "--jobs", "1", "--backend", "dask",
                       "--out", str(out))  # fmt: skip
    assert code == 1, err
    line = err.strip().splitlines()[-1]
    assert line.startswith("leaves: error: a Dask worker could not play a chunk: "), err
    assert line.endswith(f"'leaves tournament --out {out} --resume' continues it"), err
    assert "WorkerError" not in err and "--debug" not in err


@pytest.mark.slow
def test_a_cluster_of_daemon_workers_says_how_to_start_them(tmp_path):
    distributed = pytest.importorskip("distributed")
    path = tmp_path / "plain.py"
    path.write_text(PLAIN.format(fail=False))
    t = Tournament([f"{path}:Plain", "greedy", "low"], players=3, games=12, seed=3,
                   chunk_size=6, game=LeavesGame(decision_timeout=60))  # fmt: skip
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, dashboard_address=":0"
    ) as cluster, pytest.raises(WorkerError) as exc:  # fmt: skip
        t.run(backend="dask", scheduler=cluster.scheduler_address, out=tmp_path / "o")
    assert str(exc.value) == (
        "a Dask worker could not play a chunk: AssertionError: daemonic processes are not "
        f"allowed to have children; {DAEMONS}"
    )


# ----------------------------------------------------------------------------- closing a stream
def _slow_square(x: int) -> int:
    time.sleep(0.05 * (1 + x))
    return x * x


@pytest.mark.slow
def test_a_closed_dask_stream_hands_over_what_its_workers_finished():
    distributed = pytest.importorskip("distributed")
    salvaged: list[int] = []
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=4, processes=False, dashboard_address=None
    ) as cluster:
        players = Players(4, "dask", cluster.scheduler_address, salvage=salvaged.append)
        stream = imap_unordered(_slow_square, range(8), players)
        first = next(stream)  # the others finish while the driver holds this result
        time.sleep(1.5)
        stream.close()
    assert sorted([first, *salvaged]) == [x * x for x in range(8)]  # each once


@pytest.mark.slow
def test_a_dask_run_interrupted_and_resumed_on_local_workers_is_the_whole_run(
    tmp_path, monkeypatch
):
    distributed = pytest.importorskip("distributed")
    real = runner.imap_unordered

    def interrupted(fn, tasks, players):
        stream = real(fn, tasks, players)
        try:
            for n, result in enumerate(stream):
                if n == 6:
                    raise KeyboardInterrupt
                yield result
        finally:
            stream.close()

    monkeypatch.setattr(runner, "imap_unordered", interrupted)
    out = tmp_path / "run"
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        pytest.raises(KeyboardInterrupt),
    ):
        _toy(delay=0.01).run(backend="dask", scheduler=cluster.scheduler_address, out=out)
    done = runner.storage.read_manifest(out)["n_chunks_done"]
    assert 6 <= done < _toy().schedule.n_chunks
    monkeypatch.setattr(runner, "imap_unordered", real)
    resumed = _toy().run(n_jobs=2, out=out, resume=True)
    same_run(resumed, _toy().run(out=tmp_path / "whole"))


def test_dask_on_its_own_cluster_starts_one_worker_per_core_for_minus_one():
    from tournaments import parallel

    assert parallel.cluster_size(-1) == (os.cpu_count() or 1)  # it started one worker
    assert parallel.cluster_size(3) == 3


# ----------------------------------------------------------------------------- a sequential test
def _interrupted_gauntlet(tmp_path, monkeypatch, batches_done: int, chunks: int = 3):
    """A sequential gauntlet stopped (Ctrl-C) ``chunks`` chunks into batch ``batches_done +
    1`` (the strategy's come first): its folder and the games per side of each batch begun."""
    from leaves_cli.sequential import run_sequential
    from tournaments.gauntlet import Gauntlet
    from tournaments.sequential import Sequential

    settings = {"margin": 0.2, "alpha": 0.05, "beta": 0.05, "max_games": 40_000}
    g = Gauntlet("counter", ["taker"], "counter:near_win_penalty=3", games=400, seed=5,
                 chunk_size=40, sequential=settings)  # fmt: skip
    out, begun, real = tmp_path / "g", [], runner.run_chunk

    def play(t, where, grow):
        if len(begun) == batches_done:
            played: list[int] = []

            def some(task):
                if len(played) == chunks:
                    raise KeyboardInterrupt
                played.append(1)
                return real(task)

            monkeypatch.setattr(runner, "run_chunk", some)
        begun.append(t.games_per_side)
        return t.run(out=where, resume=grow)

    with pytest.raises(KeyboardInterrupt):
        run_sequential(g, out, play, Sequential(0.002), 40_000, lambda line: None)
    monkeypatch.setattr(runner, "run_chunk", real)
    return out, begun


def test_an_interrupted_sequential_gauntlet_says_where_its_test_stood(tmp_path, monkeypatch):
    """Its report said the estimate over all the games played, the strategy's count as 'games
    per side' (the baseline had played fewer), beside the LLR of the batch before, and told
    to resume '--out RUN'; the baseline was said to have played the same deals."""
    from reports.gauntlet import gauntlet, sentences

    out, begun = _interrupted_gauntlet(tmp_path, monkeypatch, 2)
    rec = runner.storage.read_manifest(out)["sequential"]
    assert rec["decision"] == "running" and rec["batches"] == 2
    table = gauntlet(out)
    rates, said = sentences(table)
    mine, base = int(table["games"].iloc[0]), int(table["baseline_games"].iloc[0])
    assert mine > base >= rec["games_per_side"] == begun[1]  # the strategy's chunks came first
    assert rates.startswith(f"counter wins {100 * table['win_rate'].iloc[0]:.1f}% ")
    assert (
        f" of {mine:,} games against three taker; counter(near_win_penalty=3.0), in the "
        f"same seats, wins " in rates
    )  # not 'on the same deals': it played fewer of them
    assert rates.endswith(f" of the {base:,} games it has played so far.")
    low, high = rec["ci_low"], rec["ci_high"]
    assert said == (
        f"Not decided yet whether counter is better than counter(near_win_penalty=3.0): "
        f"{rec['difference']:+.1f} percentage points [{low:+.1f}, {high:+.1f}] over {begun[1]:,} "
        f"games "
        f"per side, after batch 2; the sequential test (0 against +0.2 percentage points, 2 "
        f"batches, "
        f"LLR {rec['llr']:.2f}, bounds -2.94 and 2.94) was interrupted ('leaves gauntlet "
        f"--resume --out {out}' continues it)."
    )


def test_a_sequential_gauntlet_stopped_in_its_first_batch_gives_no_p_value(tmp_path, monkeypatch):
    """Its report gave the verdict of a gauntlet of fixed size, with a p-value."""
    from reports.gauntlet import gauntlet, sentences

    out, _ = _interrupted_gauntlet(tmp_path, monkeypatch, 0, chunks=15)
    assert "sequential" not in runner.storage.read_manifest(out)
    said = sentences(gauntlet(out))[-1]
    assert said == (
        "Not decided yet whether counter is better than counter(near_win_penalty=3.0): the "
        "sequential test (0 against +0.2 percentage points) was interrupted in its first batch, "
        "before "
        f"it weighed anything ('leaves gauntlet --resume --out {out}' continues it)."
    )


def test_a_gauntlet_stopped_before_its_baseline_played_says_it_is_unfinished(tmp_path, monkeypatch):
    """'leaves report' said the strategy and baseline 'never played the same deals'."""
    from reports.data import ReportError
    from reports.gauntlet import gauntlet
    from tournaments.gauntlet import Gauntlet

    real, played = runner.run_chunk, []

    def some(task):
        if len(played) == 3:  # the strategy's chunks come first
            raise KeyboardInterrupt
        played.append(1)
        return real(task)

    monkeypatch.setattr(runner, "run_chunk", some)
    out = tmp_path / "g"
    with pytest.raises(KeyboardInterrupt):
        Gauntlet("counter", ["taker"], "weighted", games=400, seed=5, chunk_size=40).run(out=out)
    with pytest.raises(ReportError) as exc:
        gauntlet(out)
    assert str(exc.value) == (
        "the gauntlet's strategy and baseline have played no deal in common yet: 120 of 800 "
        f"games (unfinished); continue it with 'leaves gauntlet --resume --out {out}'"
    )
