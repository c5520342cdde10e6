"""The shortcuts that make runs start fast decide nothing: a chunk's seatings in one call, the
aggregates added at once, numba imported late, ismcts registered late, provenance looked up
without scanning every installed distribution."""

from __future__ import annotations

import importlib.metadata
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import strategies
from strategies import Strategy
from strategies.provenance import _package_version
from tournaments import aggregates
from tournaments.game import SeatedBatch

ROOT = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------------------- aggregates
def _reference_add(agg, table, positions, entrants, batch, higher_is_better):
    """The per-seating loop aggregates were first written as (one seating, plain loops)."""
    k = len(entrants)
    ent = list(entrants)
    rank = batch.seat_values["score"].astype(np.int64)
    key = -rank if higher_is_better else rank
    for i in range(len(batch)):
        if batch.winners is not None:
            won = [bool(x) for x in batch.winners[i]]
        else:
            won = [batch.winner_seat[i] == s for s in range(k)]
        m = max(sum(won), 1)
        for s in range(k):
            agg["games"][ent[s]] += 1
            agg["wins"][ent[s]] += won[s]
            if "win_share_units" in agg and won[s]:
                agg["win_share_units"][ent[s]] += aggregates.SHARE_UNITS // m
            agg["rank_sum"][ent[s]] += rank[i, s]
            if batch.forfeit_seat[i] < 0:  # the means leave a forfeited game out
                agg["valid_games"][ent[s]] += 1
                agg["valid_rank_sum"][ent[s]] += rank[i, s]
            if batch.forfeit_seat[i] == s:
                agg["forfeits"][ent[s]] += 1
            for t in range(k):
                if s != t:
                    agg["met"][ent[s], ent[t]] += 1
                    agg["ahead"][ent[s], ent[t]] += key[i, s] < key[i, t]
                    if batch.forfeit_seat[i] < 0:  # head to head leaves a forfeited game out
                        agg["valid_met"][ent[s], ent[t]] += 1
                        agg["valid_ahead"][ent[s], ent[t]] += key[i, s] < key[i, t]
            if batch.first_player is not None:
                off = (s - batch.first_player[i]) % k
                agg["offset_games"][ent[s], k, off] += 1
                agg["offset_wins"][ent[s], k, off] += won[s]
            before = ent[(s - 1) % k]
            agg["after_games"][ent[s], before] += 1
            agg["after_wins"][ent[s], before] += won[s]
            agg["table_wins"][table, positions[s]] += won[s]
        agg["table_games"][table] += 1
        agg["size_games"][k] += 1
        agg["size_no_winner"][k] += not any(won)
        agg["size_forfeits"][k] += batch.forfeit_seat[i] >= 0
        # stopped unfinished: the game's column where it has one, else no winner; not forfeited
        own = batch.game_values.get("unfinished")
        stopped = not any(won) if own is None else bool(own[i])
        stopped = stopped and batch.forfeit_seat[i] < 0
        agg["size_unfinished"][k] += stopped
        agg["size_unfinished_won"][k] += stopped and any(won)
        length = int(batch.game_values["turns"][i])
        agg["length_sum"][k] += length
        agg["length_sq_sum"][k] += length * length
        agg["length_hist"][k, min(length, agg["length_hist"].shape[1] - 1)] += 1
        agg["value_sum:turns"][k] += length


@st.composite
def seated_games(draw):
    k = draw(st.integers(3, 6))
    n_ent = draw(st.integers(k, 8))
    n_set = draw(st.integers(1, 4))
    seatings = [draw(st.permutations(range(n_ent)))[:k] for _ in range(n_set)]
    g = draw(st.integers(1, 30))
    shared = draw(st.booleans())
    first = draw(st.booleans())
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    winners = rng.random((g, k)) < 0.3 if shared else None
    winner = rng.integers(-1, k, g).astype(np.int8)
    if shared:
        winner = np.where(winners.sum(axis=1) == 1, winners.argmax(axis=1), -1).astype(np.int8)
    batch = SeatedBatch(
        first_player=rng.integers(0, k, g).astype(np.int8) if first else None,
        winner_seat=winner,
        forfeit_seat=np.where(rng.random(g) < 0.2, rng.integers(0, k, g), -1).astype(np.int8),
        seat_values={"score": rng.integers(0, 20, (g, k)).astype(np.int16)},
        game_values={"turns": rng.integers(1, 300, g).astype(np.int16)},
        errors=[None] * g,
        winners=winners,
    )
    seating = rng.integers(0, n_set, g)
    positions = [list(draw(st.permutations(range(k)))) for _ in range(n_set)]
    return k, n_ent, seatings, positions, seating, batch, draw(st.booleans())


def _subset(batch: SeatedBatch, rows: np.ndarray) -> SeatedBatch:
    return SeatedBatch(
        first_player=None if batch.first_player is None else batch.first_player[rows],
        winner_seat=batch.winner_seat[rows],
        forfeit_seat=batch.forfeit_seat[rows],
        seat_values={k: v[rows] for k, v in batch.seat_values.items()},
        game_values={k: v[rows] for k, v in batch.game_values.items()},
        errors=[batch.errors[i] for i in rows],
        winners=None if batch.winners is None else batch.winners[rows],
    )


@settings(max_examples=60)
@given(seated_games())
def test_games_added_at_once_equal_the_per_seating_loop(case):
    k, n_ent, seatings, positions, seating, batch, higher = case
    shared = batch.winners is not None

    def empty():
        return aggregates.empty(n_ent, 2, 200, ("turns",), max_seats=6, shared_wins=shared)

    at_once, by_seating, reference = empty(), empty(), empty()
    ent = np.array(seatings, np.int64)[seating]
    pos = np.array(positions, np.int64)[seating]
    aggregates.add_games(at_once, 1, ent, pos, batch, "score", "turns", higher)
    for r in range(len(seatings)):
        rows = np.flatnonzero(seating == r)
        part = _subset(batch, rows)
        aggregates.add_batch(
            by_seating, 1, positions[r], seatings[r], part, "score", "turns", higher
        )
        _reference_add(reference, 1, positions[r], seatings[r], part, higher)
    for key in reference:
        np.testing.assert_array_equal(at_once[key], reference[key], err_msg=key)
        np.testing.assert_array_equal(by_seating[key], reference[key], err_msg=key)


@settings(max_examples=60)
@given(seated_games(), st.integers(1, 4))
def test_whole_duplicate_sets_added_at_once_equal_the_per_seating_loop(case, deals):
    """``add_sets``, the runner's way: game i under seating i % n, deal after deal."""
    k, n_ent, seatings, positions, _, batch, higher = case
    n = len(seatings)
    g = deals * n
    rows = np.arange(g) % len(batch)  # any games will do: take g of them
    batch = _subset(batch, rows)
    shared = batch.winners is not None

    def empty():
        return aggregates.empty(n_ent, 2, 200, ("turns",), max_seats=6, shared_wins=shared)

    at_once, reference = empty(), empty()
    aggregates.add_sets(at_once, 1, seatings, positions, batch, "score", "turns", higher)
    for r in range(n):
        part = _subset(batch, np.arange(r, g, n))
        _reference_add(reference, 1, positions[r], seatings[r], part, higher)
    for key in reference:
        np.testing.assert_array_equal(at_once[key], reference[key], err_msg=key)


def test_add_sets_refuses_games_that_are_not_whole_sets():
    batch = SeatedBatch(
        first_player=None, winner_seat=np.zeros(5, np.int8), forfeit_seat=np.full(5, -1, np.int8),
        seat_values={"score": np.zeros((5, 3), np.int16)}, game_values={"turns": np.ones(5)},
        errors=[None] * 5,
    )  # fmt: skip
    agg = aggregates.empty(3, 1, 10, ("turns",), max_seats=6)
    with pytest.raises(ValueError, match="whole sets"):
        aggregates.add_sets(agg, 0, [[0, 1, 2], [1, 2, 0]], [[0, 1, 2], [1, 2, 0]], batch,
                            "score", "turns")  # fmt: skip


@settings(max_examples=80)
@given(
    hnp.arrays(
        st.sampled_from(["<i8", "<i2", "|b1", "<f8", "<u8", "|i1", "<U7"]),
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6),
    )
)
def test_aggregate_members_are_the_npy_bytes_numpy_writes(arr):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, version=(1, 0), allow_pickle=False)
    assert aggregates.npy_bytes(arr) == buf.getvalue()
    if arr.ndim:  # (asfortranarray makes a 0-d array 1-d)
        assert aggregates.npy_bytes(np.asfortranarray(arr)) == buf.getvalue()  # C order


def test_saved_aggregates_load_back_exactly():
    agg = aggregates.empty(5, 3, 40, ("turns",), max_seats=6, shared_wins=True)
    rng = np.random.default_rng(1)
    for value in agg.values():
        value += rng.integers(0, 2**40, value.shape).astype(value.dtype)
    buf = io.BytesIO()
    aggregates.save(buf, agg, forfeits=np.array('[{"game": 3}]'), n_games=np.array(12))
    loaded, extra = aggregates.load(io.BytesIO(buf.getvalue()))
    assert loaded.keys() == agg.keys() and set(extra) == {"forfeits", "n_games"}
    for key, value in agg.items():
        assert loaded[key].dtype == value.dtype and np.array_equal(loaded[key], value), key
    assert str(extra["forfeits"]) == '[{"game": 3}]' and int(extra["n_games"]) == 12
    with np.load(io.BytesIO(buf.getvalue())) as npz:  # a plain .npz to anyone else
        assert sorted(npz.files) == sorted([*agg, "extra:forfeits", "extra:n_games"])


@settings(max_examples=40)
@given(
    st.dictionaries(
        st.text(
            st.characters(codec="utf-8", exclude_characters="/\\\x00"), min_size=1, max_size=12
        ),
        st.binary(max_size=3000) | st.sampled_from([b"", bytes(70_000)]),
        max_size=8,
    ),
    st.integers(0, 9),
)
def test_zip_bytes_is_a_zip_every_reader_reads(members, level):
    """The aggregates' own ZIP writer against ``zipfile``: names, contents, checksums."""
    data = aggregates.zip_bytes(members, level)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.testzip() is None
        assert z.namelist() == list(members)
        assert {name: z.read(name) for name in z.namelist()} == members
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in z.infolist())


def test_zip_bytes_leaves_zip64_archives_to_zipfile(monkeypatch):
    monkeypatch.setattr(aggregates, "_ZIP_LIMIT", 10)  # as if the members were over 4 GiB
    members = {"a.npy": bytes(range(200)), "b.npy": b"x" * 50}
    with zipfile.ZipFile(io.BytesIO(aggregates.zip_bytes(members))) as z:
        assert z.testzip() is None and {n: z.read(n) for n in z.namelist()} == members


# ----------------------------------------------------------------------------- play_seatings
class FirstLegal(Strategy, register=False):
    """A plain-Python strategy (no compiled policy): the lowest legal action id."""

    def choose(self, view, legal, rng):
        return legal[0]


@settings(max_examples=15)
@given(
    names=st.lists(
        st.sampled_from(["greedy", "counter", "weighted", "random", "taker", "patient"]),
        min_size=4,
        max_size=4,
    ),
    seed=st.integers(0, 2**32),
    with_python=st.booleans(),
)
def test_play_seatings_plays_the_games_of_play_batch(names, seed, with_python):
    """Game i of ``play_seatings`` is ``play_batch`` at its table from the same seeds, whether
    every seat is compiled (one call) or not (table by table)."""
    rng = np.random.default_rng(seed)
    if with_python:
        names = [*names[:3], FirstLegal()]
    tables = [[names[i] for i in rng.permutation(4)] for _ in range(3)]
    g = 12
    seating = rng.integers(0, 3, g)
    deal = rng.integers(0, 2**63, g).astype(np.uint64)
    play = rng.integers(0, 2**63, g).astype(np.uint64)
    res = strategies.play_seatings(tables, seating, deal, play)
    for r, table in enumerate(tables):
        rows = np.flatnonzero(seating == r)
        one = strategies.play_batch(table, deal[rows], play[rows])
        np.testing.assert_array_equal(res.cards_left[rows], one.cards_left)
        np.testing.assert_array_equal(res.winner_seat[rows], one.winner_seat)
        np.testing.assert_array_equal(res.first_player[rows], one.first_player)
        np.testing.assert_array_equal(res.turns[rows], one.turns)
        np.testing.assert_array_equal(res.forfeit_seat[rows], one.forfeit_seat)


# ----------------------------------------------------------------------------- imports
def _run(code: str, jit: bool = False) -> str:
    """``code``'s output in a fresh interpreter; ``jit``: with numba's JIT on, whatever
    ``NUMBA_DISABLE_JIT`` the suite was started with."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "0"} if jit else None
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True, env=env
    )
    return done.stdout.strip()


@pytest.mark.slow
def test_importing_the_packages_loads_no_numba_until_a_kernel_runs():
    code = (
        "import sys\n"
        "import strategies, tournaments, leaves.kernels\n"
        "print('numba' in sys.modules)\n"
        "from leaves import kernels as K\n"
        "b = K.deal_board(4, 7)\n"  # a kernel call: numba loads, every kernel becomes real
        "import numba\n"
        "from numba.core.registry import CPUDispatcher\n"
        "from leaves.players.builtin import counter\n"
        "from leaves.players.compiled import dispatch, loops\n"
        "print('numba' in sys.modules, isinstance(loops.play_to_end, CPUDispatcher),"
        " isinstance(counter.policy_counter, CPUDispatcher),"
        " isinstance(dispatch.decide, CPUDispatcher))\n"
    )
    first, second = _run(code, jit=True).splitlines()
    assert first == "False"
    assert second == "True True True True"


@pytest.mark.slow
def test_ismcts_registers_on_first_use():
    code = (
        "import sys, strategies\n"
        "print('leaves.players.ismcts' in sys.modules)\n"
        "print(strategies.get('ismcts:iterations=10').label, 'ismcts' in strategies.names())\n"
    )
    first, second = _run(code).splitlines()
    assert first == "False"
    assert second == "ismcts(iterations=10) True"
    attribute = "import leaves\nprint(leaves.players.ismcts.ISMCTS.__name__)\n"
    assert _run(attribute) == "ISMCTS"  # the subpackage as an attribute, imported on use


def test_package_version_matches_the_full_scan():
    top = "strategies"
    dists = importlib.metadata.packages_distributions()[top]
    assert _package_version("leaves.players.builtin.simple") == (
        f"{dists[0]} {importlib.metadata.version(dists[0])}"
    )
    assert _package_version("hypothesis.core") == (
        f"hypothesis {importlib.metadata.version('hypothesis')}"
    )


def test_lazy_njit_takes_numba_options_only():
    from gamekit import jit

    @jit.njit
    def double(x):
        return 2 * x

    @jit.njit(cache=False, inline="always")
    def triple(x):
        return 3 * x

    assert double(4) == 8 and triple(4) == 12
    # the Python function, as numba's dispatchers give it (with the JIT off, numba hands the
    # function itself back)
    assert getattr(double, "py_func", double)(5) == 10
    with pytest.raises(TypeError, match="keyword options only"):
        jit.njit("int64(int64)")


def test_the_command_line_and_the_rules_package_start_without_numpy():
    """``leaves --help`` and the ``leaves`` package load numpy only once a name needs it."""
    code = (
        "import sys, leaves, leaves_cli\n"
        "print('numpy' in sys.modules, 'leaves.state' in sys.modules)\n"
        "state = leaves.new_game(4, seed=1)\n"
        "print('numpy' in sys.modules, type(state).__module__)\n"
    )
    assert _run(code).splitlines() == ["False False", "True leaves.state"]


def test_every_name_of_the_rules_package_resolves_lazily():
    import leaves

    for name in leaves.__all__:
        value = getattr(leaves, name)
        if name != "__version__":
            module = importlib.import_module(leaves._EXPORTS[name], "leaves")
            assert getattr(module, name) is value, name
    assert set(leaves.__all__) == {*leaves._EXPORTS, "__version__"}
    assert set(leaves.__all__) <= set(dir(leaves))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        leaves.nope  # noqa: B018


def test_submodules_resolve_as_attributes_of_the_rules_package():
    """``import leaves`` then ``leaves.expert.X`` works, as when the package loaded them."""
    code = (
        "import sys, leaves\n"
        "print('leaves.expert' in sys.modules, leaves.expert.__name__, leaves.rules.TURN_LIMIT)\n"
        "print(hasattr(leaves, 'nope'), hasattr(leaves, '_private'))\n"
    )
    assert _run(code).splitlines() == ["False leaves.expert 1000", "False False"]


@pytest.mark.parametrize("chosen", [None, "3"])
def test_the_command_line_runs_one_blas_thread_unless_the_user_chose(chosen):
    """OpenBLAS's idle thread pool cost a million-game run CPU for nothing; a user's own
    ``OPENBLAS_NUM_THREADS`` is kept."""
    code = (
        "import contextlib, os, sys\n"
        "os.environ.pop('OPENBLAS_NUM_THREADS', None)\n"
        + (f"os.environ['OPENBLAS_NUM_THREADS'] = '{chosen}'\n" if chosen else "")
        + "from leaves_cli.main import main\n"
        "print('numpy' in sys.modules)\n"  # not yet: OpenBLAS reads the variable as it loads
        "with contextlib.redirect_stdout(open(os.devnull, 'w')), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'])\n"
    )
    assert _run(code).splitlines() == ["False", chosen or "1"]


def test_the_help_lists_every_command_without_importing_one():
    """``leaves --help`` lists the commands from their one-line help, importing none (click's
    own listing imported every command module, numpy and pandas with them)."""
    code = (
        "import contextlib, io, sys\n"
        "from leaves_cli.main import all_commands, main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "text = ' '.join(out.getvalue().split())  # a long line wraps\n"
        "listed = all_commands().items()\n"
        "print(len(listed) > 12, all(n in text and short in text for n, (_, _, short) in listed))\n"
        "print(sorted(m for m in sys.modules if m.endswith('_cmd') or m == 'numpy'\n"
        "             or m.startswith('leaves.commands.')))\n"
    )
    assert _run(code).splitlines() == ["True True", "[]"]
