"""Ligretto's C engine plays the numba kernels' rounds, to the event.

The reference is the numba round loop itself (``ligretto.round_loop``) and the numba policy
(``policy._decide_seen``), compiled in this process: the same inputs go through both and
every output is compared, the recorded events included. Tables cover 2 to 12 players, the
five built-ins with their parameters, and random policy vectors: every attention order (and
fractional, negative and unknown ones), cautious or not, patience, speeds, timing parameters
of any sign; rounds end by an emptied stack, by blockade and unfinished. The numbers the C
headers restate are checked against their Python sources.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import threading

import numpy as np
import pytest

from gamekit import cbuild
from ligretto import cengine

pytestmark = pytest.mark.skipif(not cengine.available(), reason=f"no C engine: {cengine.why_not()}")

BUILTINS = ["stack", "row", "cycler", "cautious", "scanner", "cautious:patience=0",
            "stack:speed=1.1", "scanner:spread_ms=0,look_ms=0", "row:think_ms=50,flip_ms=0",
            "cycler:speed=0.8,spread_ms=250"]  # fmt: skip


def _defines(name: str) -> dict[str, int]:
    text = (cengine.CSRC / name).read_text()
    return {k: int(v) for k, v in re.findall(r"^#define (\w+) (-?\d+)\s*$", text, re.M)}


def test_every_number_the_headers_restate_is_its_python_source():
    from gamekit import seeding
    from ligretto import policy, rng, round_state, rules, timing

    sources = [rules, rng, timing, policy, round_state, cengine]
    checked = 0
    defines = _defines("rules.h")
    for name, value in defines.items():
        owners = [m for m in sources if hasattr(m, name)]
        if name == "ROW_SLOTS":  # the row's slots: the longest row
            assert value == max(rules.row_size(n) for n in range(2, rules.MAX_PLAYERS + 1))
            continue
        assert owners, f"rules.h's {name} has no Python source"
        assert all(int(getattr(m, name)) == value for m in owners), name
        checked += 1
    assert checked == len(defines) - 1 >= 40
    common = (cbuild.SHARED / "engine_common.h").read_text()  # splitmix64, shared by the engines
    gamma = re.search(r"#define GAMMA (0x[0-9A-F]+)ULL", common)
    assert int(gamma.group(1), 16) == int(seeding.GAMMA)


def _random_policy(rng: np.random.Generator) -> np.ndarray:
    """A policy vector off the beaten track, finite: any order, caution, patience, timing."""
    return np.array([
        rng.choice([1.0, 1.1, 0.25, 4.0, -1.0, rng.uniform(0.3, 3.0)]),
        rng.choice([0, 300, -100, 300.7, rng.integers(0, 600)]),
        rng.choice([0, 60, 13.9, rng.integers(0, 150)]),
        rng.choice([0, 250, rng.integers(0, 500)]),
        rng.choice([0, 1, 100, rng.integers(0, 400)]),
        rng.choice([0, 1, 2, 3, 2.5, 3.9, -0.5, 7, -3]),
        rng.choice([0.0, 1.0, 0.5, -1.0]),
        rng.choice([0, 3, 6, 2.5, 40]),
    ])  # fmt: skip


def _table(rng: np.random.Generator, n: int) -> np.ndarray:
    """n seats, each a built-in or (half the time) a random policy vector."""
    from ligretto.players import resolve

    rows = [resolve(str(rng.choice(BUILTINS))).policy() if rng.random() < 0.5
            else _random_policy(rng) for _ in range(n)]  # fmt: skip
    return np.array(rows, dtype=np.float64)


def _both_batches(table: np.ndarray, deal: np.ndarray, play: np.ndarray):
    from ligretto.round_loop import nb_batch
    from ligretto.rules import row_size

    n = table.shape[0]
    c, ref = (np.zeros((deal.shape[0], 3 * n + 6), np.int64) for _ in range(2))
    cengine.batch(table, n, row_size(n), deal, play, c)
    nb_batch(table, n, row_size(n), deal, play, ref)
    return c, ref


@pytest.mark.slow
def test_batches_play_the_numba_rounds_at_every_player_count():
    rng = np.random.default_rng(2024)
    ends, rounds = set(), 0
    tables = [_table(rng, 2 + i % 11) for i in range(110)]
    tables.append(np.tile([1.0, 700_000, 0, 0, 0, 0, 0, 0], (3, 1)))  # acts past the limit
    tables.append(np.tile([2.0, 100, 10, 10, 10, 0, 1.0, 1e9], (5, 1)))  # starts piles rarely
    for i, table in enumerate(tables):
        n = table.shape[0]
        deal, play = (rng.integers(0, 2**64, 40, dtype=np.uint64) for _ in range(2))
        c, ref = _both_batches(table, deal, play)
        assert np.array_equal(c, ref), f"table {i} ({n} players) differs:\n{table}"
        ends.update(int(e) for e in c[:, 3 * n])
        rounds += deal.shape[0]
    assert rounds == 4480
    assert {-1, -2, 0, 11} <= ends  # blockades, unfinished rounds, low and high seats


@pytest.mark.slow
@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64")
def test_parameters_past_int64_and_not_finite_give_numba_s_rounds():
    # numba converts them as the machine's instruction does (csrc/rules.h's f2i restates
    # x86-64's), and int64 times wrap in both
    base = np.tile([1.0, 300, 60, 250, 100, 0, 0, 6], (3, 1))
    base[:, 5] = [0, 1, 3]
    seeds = np.arange(4, dtype=np.uint64)
    for column in (0, 1, 3, 4, 5, 6, 7):
        for value in (np.nan, np.inf, -np.inf, 1e300, -9.3e18, 2.0**62):
            table = base.copy()
            table[1, column] = value
            c, ref = _both_batches(table, seeds, seeds + np.uint64(7))
            assert np.array_equal(c, ref), (column, value)
    # a look past int64: times wrap below 0 and the round runs to MAX_ACTIONS
    base[1, 2] = np.nan
    c, ref = _both_batches(base, seeds[:1], seeds[:1] + np.uint64(7))
    assert np.array_equal(c, ref)
    assert c[0, 9] == -2 and c[0, 10] < 0  # ended unfinished, at a time below 0


@pytest.mark.slow
def test_recorded_rounds_are_the_same_event_by_event():
    from ligretto.round_loop import nb_round
    from ligretto.rules import row_size

    rng = np.random.default_rng(7)
    for i, cap in enumerate([100_000] * 40 + [0, 1, 7, 50] * 5):
        n = 2 + i % 11
        table = _table(rng, n)
        seeds = [np.uint64(s) for s in rng.integers(0, 2**64, 2, dtype=np.uint64)]
        got = []
        for play_round in (cengine.round_, nb_round):
            ev, out = np.full((cap, 5), -9, np.int64), np.zeros(3 * n + 6, np.int64)
            play_round(table, n, row_size(n), *seeds, ev, True, out)
            got.append((ev, out))
        (ev_c, out_c), (ev_n, out_n) = got
        assert np.array_equal(out_c, out_n), f"round {i}"
        assert np.array_equal(ev_c, ev_n), f"round {i}: events differ (cap {cap})"
        assert out_c[3 * n + 5] > min(cap, 1) or cap == 0


def _random_view(rng: np.random.Generator) -> tuple:
    """What a seat could see: pile tops, its row (gaps -1), stack and hand-pile tops."""
    tops = rng.integers(0, 40, int(rng.integers(0, 49)))
    k = int(rng.integers(3, 6))
    row = np.where(rng.random(k) < 0.2, -1, rng.integers(0, 40, k))
    stack_top = int(rng.choice([-1, rng.integers(0, 40)]))
    hand_top = int(rng.choice([-1, rng.integers(0, 40)]))
    return tops.astype(np.int64), row.astype(np.int64), stack_top, hand_top


def test_the_policy_decides_as_numba_decides_on_random_views():
    from ligretto.policy import _decide_seen

    rng = np.random.default_rng(11)
    for i in range(3000):
        params = _random_policy(rng)
        tops, row, stack_top, hand_top = _random_view(rng)
        can_flip, idle = bool(rng.random() < 0.8), int(rng.integers(0, 10))
        state = int(rng.integers(0, 2**64, dtype=np.uint64))
        args = (params, tops, row, stack_top, hand_top, can_flip, idle)
        want = tuple(int(x) for x in _decide_seen(*args, np.uint64(state)))
        assert cengine.decide_seen(*args, state) == want, f"view {i}: {args}"


def test_a_view_holding_no_real_cards_is_left_to_numba():
    params = np.array([1.0, 300, 60, 250, 100, 0, 0, 6])
    row = np.array([1, 2, 3], np.int64)
    assert cengine.decide_seen(params, np.array([45]), row, -1, -1, True, 0, 1) is None
    assert cengine.decide_seen(params, np.array([], np.int64), row, 40, -1, True, 0, 1) is None
    assert cengine.decide_seen(params[:5], np.array([0]), row, -1, -1, True, 0, 1) is None


def test_the_streams_are_the_numba_streams():
    from gamekit.seeding import mix64
    from ligretto.rng import nb_stream_seed

    rng = np.random.default_rng(3)
    for seed in rng.integers(0, 2**64, 200, dtype=np.uint64):
        seat, purpose = (int(x) for x in rng.integers(0, 16, 2))
        assert cengine.stream_seed(int(seed), seat, purpose) == int(nb_stream_seed(seed, seat,
                                                                                   purpose))  # fmt: skip
        assert cengine.mix64(int(seed)) == int(mix64(seed))


@pytest.mark.slow
@pytest.mark.parametrize("column, value", [(0, 0.0), (4, -1.0)])
def test_what_numba_refuses_c_refuses_alike(column, value):
    # a speed of 0 divides by zero, a spread of -1 draws below 0: ZeroDivisionError in both
    table = np.tile([1.0, 300, 60, 250, 100, 0, 0, 6], (3, 1))
    table[1, column] = value
    seeds = np.arange(4, dtype=np.uint64)
    from ligretto.round_loop import nb_batch

    for batch in (cengine.batch, nb_batch):
        with pytest.raises(ZeroDivisionError):
            batch(table, 3, 5, seeds, seeds, np.zeros((4, 15), np.int64))


def _numba_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cengine.ENGINE, "_lib", None)
    monkeypatch.setattr(cengine.ENGINE, "_why", "numba asked for by the test")


@pytest.mark.slow
def test_the_entry_points_give_the_same_rounds_on_either_engine(monkeypatch):
    import ligretto
    from ligretto.compiled import play_rounds, round_events
    from ligretto.policy import PolicyPlayer

    rng = np.random.default_rng(5)
    tables = [_table(rng, n) for n in (2, 4, 7, 12)]
    for t in tables:  # finite reaction times for the Python path's ReactionModel
        t[:, 0] = np.abs(t[:, 0]) + 0.1
        t[:, 1:5] = np.abs(t[:, 1:5])
    seeds = rng.integers(0, 2**63, 50, dtype=np.uint64)

    def play() -> list:
        out = []
        for t in tables:
            out.append([a.tolist() for a in vars(play_rounds(t, seeds, seeds[::-1])).values()])
            out.append([a.tolist() for a in round_events(t, 11, 12)])
            o = ligretto.play_round([PolicyPlayer(p) for p in t], 13, 14)
            out.append((o.events, o.ended_by, o.time_ms, o.scores))
        return out

    c = play()
    _numba_only(monkeypatch)
    assert not cengine.available()
    assert play() == c


def test_threads_play_the_same_rounds():
    # ctypes releases the GIL: rounds played in threads at once are the rounds played alone
    rng = np.random.default_rng(9)
    table = _table(rng, 6)
    deal, play = (rng.integers(0, 2**64, 2000, dtype=np.uint64) for _ in range(2))
    alone = np.zeros((2000, 24), np.int64)
    cengine.batch(table, 6, 4, deal, play, alone)
    outs = [np.zeros_like(alone) for _ in range(4)]
    threads = [threading.Thread(target=cengine.batch, args=(table, 6, 4, deal, play, o))
               for o in outs]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(o, alone) for o in outs)


_CHILD = """
import json, sys
import numpy as np
import ligretto
from gamekit import cbuild
from ligretto import cengine
from ligretto.players import play_batch, resolve
out = play_batch(["stack", "scanner", "cautious:patience=3"], np.arange(30), np.arange(30) + 7)
o = ligretto.play_round([resolve("row"), resolve("cycler")], 5, 6)
print(json.dumps({"why": cengine.why_not(), "numba": "numba" in sys.modules,
                  "scores": out.batch.scores.tolist(), "events": o.events}))
"""


def _child(**env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_leaves_engine_numba_gives_the_numba_path_and_the_same_rounds():
    c = _child()
    assert c["why"] is None and not c["numba"]  # the C engine: numba never even imported
    ref = _child(LEAVES_ENGINE="numba")
    assert ref["why"] == "LEAVES_ENGINE=numba" and ref["numba"]
    assert ref["scores"] == c["scores"] and ref["events"] == c["events"]


def test_without_a_compiler_the_reason_is_kept_and_numba_is_chosen(tmp_path):
    import shutil

    src = tmp_path / "csrc"  # the sources with no library built beside them
    shutil.copytree(cengine.CSRC, src)
    code = (f"from pathlib import Path; from ligretto import cengine, compiled; "
            f"cengine.ENGINE.csrc = Path({str(src)!r}); print(cengine.why_not()); "
            "print(compiled._kernel('nb_batch').__module__)")  # fmt: skip
    env = {**os.environ, "CC": "no-such-compiler-here", "LEAVES_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    why, module = done.stdout.splitlines()
    assert "no C compiler" in why and module == "ligretto.round_loop"
