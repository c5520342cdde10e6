"""The input edges of the runner and the match API: a huge ``--jobs`` starts no more players
than help (a few a core, no worker process beyond the tasks) and says so; ``play_match_batch``
names its own arguments and reads no bool as a number; ``--load ''`` says an empty name was
given; ``State.from_dict`` reads no float as a whole number of turns."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from leaves import State
from leaves.players.matches import play_match_batch
from leaves.players.play import deal_state
from tests.helpers import cli, one_error_line, same_run, threads_play_at_once
from tournaments import Tournament, local, parallel
from tournaments.local import imap_local, n_workers
from tournaments.players import Players

TABLE = ["random", "low", "high"]
SEEDS = np.arange(2, dtype=np.uint64)


def _most() -> int:
    """The players a run starts at most on this machine."""
    return local.PLAYERS_PER_CORE * (os.cpu_count() or 1)


def refused(exc: type[Exception], pattern: str, make, *args, **kw) -> None:
    """``make(*args, **kw)`` raises exactly ``exc``, its one-line message matching."""
    with pytest.raises(exc, match=pattern) as info:
        make(*args, **kw)
    assert type(info.value) is exc and "\n" not in str(info.value)


# ----------------------------------------------------------------------------- --jobs
def test_a_huge_n_jobs_starts_a_few_players_a_core_at_most():
    """--jobs 100000 started 99,999 threads (15 s for 30 games); 10**23 was killed."""
    assert n_workers(100_000) == _most() - 1 == n_workers(10**30)
    assert parallel.cluster_size(100_000) == _most()  # a local Dask cluster alike
    assert n_workers(2) == 1 and n_workers(1) == 0  # within the cap: as asked


def _run(tmp_path, name: str, jobs: int):
    t = Tournament(["low", "high", "greedy"], players=3, games=60, seed=3, chunk_size=12)
    return t.run(n_jobs=jobs, out=tmp_path / name)


def test_a_huge_n_jobs_plays_the_same_run_and_the_manifest_says_it_was_capped(
    tmp_path, monkeypatch
):
    threads_play_at_once(monkeypatch)
    big = _run(tmp_path, "big", 100_000)
    same_run(_run(tmp_path, "one", 1), big)
    session = big.manifest["sessions"][-1]
    played = session["players"]
    assert session["jobs"] == 100_000  # what was asked
    assert played["jobs_capped_to"] == played["threads"] + 1 <= _most()
    assert "jobs_capped_to" not in _run(tmp_path, "two", 2).manifest["sessions"][-1]["players"]


def _square(x: int) -> int:
    return x * x


def _ready_now() -> None:
    pass


def test_no_worker_process_starts_beyond_the_tasks_the_driver_leaves():
    """Each worker costs a process start-up: 2 tasks take the driver and 1 worker."""
    jobs = min(8, _most())
    stats: dict[str, int] = {}
    out = sorted(imap_local(_square, range(2), Players(jobs, stats=stats, ready=_ready_now)))
    assert out == [0, 1] and stats["workers"] == 1 and stats["jobs_capped_to"] == 2
    stats = {}
    assert list(imap_local(_square, [], Players(jobs, stats=stats))) == []
    assert stats["workers"] == 0 and stats["jobs_capped_to"] == 1


def test_the_command_line_caps_a_huge_jobs_too(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["low", "high", "greedy", "--players", "3", "--games", "30", "--seed", "1"]
    code, _, err = cli(capsys, "tournament", *args, "--jobs", str(10**23), "--out", str(out))
    assert code == 0, err
    from tournaments import load

    played = load(out).manifest["sessions"][-1]["players"]
    assert played["jobs_capped_to"] <= _most()


# ----------------------------------------------------------------------------- matches
@pytest.mark.parametrize("bad", ["random", None, 5], ids=repr)
def test_play_match_batch_names_its_table_argument(bad):
    """It said "give n_players", an argument play_match_batch does not take."""
    refused(TypeError, r"^table must be a list of strategies or specs", play_match_batch,
            bad, SEEDS, SEEDS)  # fmt: skip


def test_play_match_batch_refuses_a_table_in_no_order():
    refused(TypeError, r"^table must be a list of strategies or specs in seat order",
            play_match_batch, set(TABLE), SEEDS, SEEDS)  # fmt: skip


@pytest.mark.parametrize("bad", [True, np.True_, 2.0, "10"], ids=repr)
def test_play_match_batch_reads_no_bool_or_float_as_a_target(bad):
    """target=True played matches to 1 point."""
    refused(TypeError, rf"^target takes a whole number of points or None, got {bad!r}$",
            play_match_batch, TABLE, SEEDS, SEEDS, target=bad)  # fmt: skip


def test_play_match_batch_keeps_its_range_message_for_a_whole_target():
    refused(ValueError, r"^target must be a positive number of points, got 0$",
            play_match_batch, TABLE, SEEDS, SEEDS, target=0)  # fmt: skip
    assert play_match_batch(TABLE, SEEDS, SEEDS, target=np.int64(3)).games.tolist() == [1, 1]


def test_play_match_batch_checks_record_and_timeout_with_no_match_to_play():
    """With no seeds nothing reached play_batch, so record="yes" and a timeout of -1 passed."""
    none = np.zeros(0, dtype=np.uint64)
    refused(TypeError, r"^record takes True or False, got 'yes'$", play_match_batch,
            TABLE, none, none, record="yes")  # fmt: skip
    said = r"^decision_timeout: the decision timeout must be 0 \(none\) or positive, got -1$"
    refused(ValueError, said, play_match_batch, TABLE, none, none, decision_timeout=-1)
    assert len(play_match_batch(TABLE, none, none)) == 0


# ----------------------------------------------------------------------------- --load
@pytest.mark.parametrize(
    "command",
    [["strategies"], ["tournament", "low", "high", "greedy", "--players", "3", "--games", "6"]],
    ids=lambda c: c[0],
)
def test_an_empty_load_name_is_said_to_be_empty(capsys, tmp_path, command):
    """It said "--load: no such file: " with nothing after it."""
    args = [*command, "--load", ""]
    if command[0] == "tournament":
        args += ["--out", str(tmp_path / "run")]
    code, _, err = cli(capsys, *args)
    assert code == 2
    assert "--load: an empty name was given, not a file" in one_error_line(err)
    assert not (tmp_path / "run").exists()


# ----------------------------------------------------------------------------- from_dict
def _state(**changes) -> dict:
    d = deal_state(4, 1).to_dict()
    d.update(changes)
    return d


@pytest.mark.parametrize("bad", [1000.0, 50.0, 2.5, np.float64(50.0)], ids=repr)
def test_from_dict_reads_no_float_as_a_whole_number_of_turns(bad):
    """1000.0 (the rule) was taken; 50.0 was told it "must be >= 1"."""
    refused(ValueError, rf"^turn_limit takes a whole number of turns, got {float(bad)!r}$",
            State.from_dict, _state(turn_limit=bad))  # fmt: skip


def test_from_dict_keeps_the_range_message_for_a_whole_turn_limit():
    refused(ValueError, r"^turn_limit must be >= 1, got 0$", State.from_dict, _state(turn_limit=0))
    assert State.from_dict(_state(turn_limit=50)).turn_limit == 50


@pytest.mark.parametrize(
    ("key", "bad"),
    [("passed", [1.0, 0, 0, 0]), ("passed", 0), ("passed", ""), ("known", 0), ("known", "")],
    ids=repr,
)
def test_from_dict_reads_no_float_or_blank_as_flags_or_known_cards(key, bad):
    """passed=[1.0, 0, 0, 0] read as a flag; passed=0 or known="" as none given."""
    refused(ValueError, rf"^{key} must ", State.from_dict, _state(**{key: bad}))


# ----------------------------------------------------------------------------- user code
@pytest.mark.parametrize("where", ["..", ".x", "json..x", "json.", "x y"])
def test_a_module_spec_that_is_no_module_name_says_so(where):
    """'..:A' said "TypeError: the 'package' argument is required to perform a relative
    import", in Python's terms; 'json.:A' "No module named 'json.'"."""
    from strategies.user_code import load_class

    refused(ValueError, rf"^cannot import module {re.escape(repr(where))}: not a module name "
            r"\(names joined by dots, as package\.module\); for a file write path/to/file\.py:A$",
            load_class, where, "A")  # fmt: skip
