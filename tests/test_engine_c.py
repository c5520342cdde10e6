"""The C engine plays the numba kernels' games, to the action.

The reference is the numba games loop itself (``loops._batch``) run as plain Python with
numba's JIT disabled, in a child process: the very source the kernels compile from, at no
compile. Batches cover every policy kind, random parameter vectors, 3 to 6 players and every
rule a ``Rules`` switches; every field of the results is compared, the recorded actions
included. The numbers the C headers restate are checked against their Python sources.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamekit import cbuild
from leaves.players.compiled import engine

pytestmark = pytest.mark.skipif(not engine.available(), reason="no C engine (no C compiler)")

CSRC = engine.CSRC
RULES = ["", "min_count=off", "take=ends", "take=nothing", "hand_size=9"]


def _defines(name: str) -> dict[str, int]:
    text = (CSRC / name).read_text()
    return {k: int(v) for k, v in re.findall(r"^#define (\w+) (-?\d+)\s*$", text, re.M)}


def test_an_arrays_address_is_where_its_data_lies():
    """``engine.address`` reads what ``a.ctypes.data`` gives, by its own way or, for an array
    that way cannot read (empty, read-only), by ``ctypes.data`` itself."""
    frozen = np.arange(5, dtype=np.int64)
    frozen.flags.writeable = False
    arrays = [
        np.zeros((17, 13), np.int32),
        np.arange(8, dtype=np.int64),
        np.ones(4, np.uint64),
        np.zeros((3, 12)),
        np.zeros((0, 17, 13), np.int32),
        frozen,
    ]
    for a in arrays:
        assert engine.address(a) == a.ctypes.data, (a.dtype, a.shape)


def test_every_number_the_headers_restate_is_its_python_source():
    from leaves import board, rules
    from leaves.players.compiled import dispatch
    from leaves.players.policy import counting
    from strategies.policy import params

    d = _defines("engine.h")
    sources = [rules, board, params, counting]
    checked = 0
    for name, value in d.items():
        owners = [m for m in sources if hasattr(m, name)]
        assert owners, f"engine.h's {name} has no Python source"
        assert all(int(getattr(m, name)) == value for m in owners), name
        checked += 1
    assert checked >= 30
    for name, value in _defines("counting.h").items():
        if hasattr(counting, name):
            assert int(getattr(counting, name)) == value, name
    lib = engine.library()
    names = [lib.engine_kind_name(k).decode() for k in range(lib.engine_n_kinds())]
    assert names == [cls.name for cls in dispatch.POLICIES]  # every built-in has its C form
    assert engine.kinds() == dispatch.N_KINDS and lib.engine_kind_name(len(names)) is None


def test_a_table_with_a_kind_the_c_engine_lacks_plays_on_numba(monkeypatch):
    """A built-in without a C form yet (here: C pretends to stop before ``weighted``) plays
    through numba's loop, the very games C plays for the others."""
    from leaves.players.compiled import loops
    from leaves.players.compiled.dispatch import POLICIES

    kinds = np.array([[len(POLICIES) - 1, 1, 2]], np.int64)
    params = np.stack([[POLICIES[k]()._vector for k in kinds[0]]])
    seeds = np.arange(2, dtype=np.uint64)
    in_c = loops.play_batch_compiled_records(kinds, params, seeds, seeds + 9, "turn_limit=200")
    assert engine.covers(kinds)
    played: list[str] = []
    real = loops._batch
    monkeypatch.setattr(loops, "_batch", lambda *a: played.append("numba") or real(*a))
    monkeypatch.setattr(engine, "_kinds", len(POLICIES) - 1)
    assert not engine.covers(kinds) and engine.covers(kinds[:, 1:])
    on_numba = loops.play_batch_compiled_records(kinds, params, seeds, seeds + 9, "turn_limit=200")
    assert played == ["numba"]
    for a, b in zip(in_c, on_numba, strict=True):
        assert np.array_equal(a, b)


def _batch(seed: int, games: int) -> dict:
    """A random batch: players, rules, seatings of random kinds and parameter vectors."""
    from leaves.players.compiled.dispatch import POLICIES

    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 7))
    seatings = int(rng.integers(1, 4))
    kinds = rng.integers(0, len(POLICIES), (seatings, n))
    params = np.zeros((seatings, n, 12))
    for r in range(seatings):
        for i in range(n):
            cls = POLICIES[kinds[r, i]]
            vec = cls()._vector
            jitter = rng.normal(0, 0.5, vec.shape) * (vec != 0) if rng.random() < 0.5 else 0
            params[r, i] = vec + jitter
    return {
        "rules": RULES[seed % len(RULES)],
        "kinds": kinds.tolist(),
        "params": params.tolist(),
        "deal": rng.integers(0, 2**63, games, dtype=np.uint64).tolist(),
        "play": rng.integers(0, 2**63, games, dtype=np.uint64).tolist(),
        "seating": rng.integers(0, seatings, games).tolist(),
        "limit": int(rng.choice([1000, 1000, 40])),
    }


_PLAY = """
import json, sys
import numpy as np
from leaves.ruleset import Rules
from leaves.players.compiled import engine, loops
spec = json.loads(sys.stdin.read())
out = []
for b in spec:
    rules = Rules.parse(b["rules"]).replace(turn_limit=b["limit"])
    loop = engine.play_games if engine.available() else loops._batch
    res = loops._run(np.array(b["kinds"]), np.array(b["params"]),
                     np.array(b["deal"], np.uint64), np.array(b["play"], np.uint64),
                     rules, True, np.array(b["seating"]), loop)
    out.append([a.tolist() for a in res])
print(json.dumps(out))
"""


def _play(batches: list[dict], reference: bool, compiled: bool = False) -> list:
    """The batches played by the C engine, or by numba's loop (``reference``): as Python, or
    ``compiled`` by numba (the fallback a machine without a C compiler plays)."""
    env = dict(os.environ)
    if reference:
        env.update(NUMBA_DISABLE_JIT="0" if compiled else "1", LEAVES_ENGINE="numba")
    proc = subprocess.run(
        [sys.executable, "-c", _PLAY],
        input=json.dumps(batches),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.slow
def test_the_c_loop_plays_the_numba_loops_games_to_the_action():
    batches = [_batch(seed, 12) for seed in range(40)]
    assert {b["rules"] for b in batches} == set(RULES)
    assert {k for b in batches for row in b["kinds"] for k in row} == set(range(10))
    _assert_same_games(batches, _play(batches, False), _play(batches, True))
    assert sum(len(b["deal"]) for b in batches) == 480


@pytest.mark.slow
def test_numbas_compiled_fallback_plays_the_same_games():
    """numba's games loop compiled (no other test compiles ``loops._batch``): what a machine
    without a C compiler plays."""
    batches = [_batch(seed, 12) for seed in range(40)]
    _assert_same_games(batches, _play(batches, False), _play(batches, True, compiled=True))


def _assert_same_games(batches: list[dict], got_all: list, want_all: list) -> None:
    fields = ("first", "left", "winner", "turns", "rounds", "unfinished", "actions")
    for i, (got, want) in enumerate(zip(got_all, want_all, strict=True)):
        for name, g, w in zip(fields, got, want, strict=True):
            assert g == w, f"batch {i} ({batches[i]['rules'] or 'today'}): {name} differs"


@pytest.mark.slow
def test_random_play_matches_the_kernels_benchmark_loop():
    from leaves.deal_kernels import setup_for
    from leaves.ruleset import DEFAULT_RULES

    code = (
        "import json; from leaves import kernels as K; "
        "print(json.dumps([a.tolist() for a in K.random_games(4, 11, 200, 7, 1000)]))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    want = json.loads(proc.stdout)
    got = engine.random_games(setup_for(DEFAULT_RULES, 4), 200, 7)
    assert [a.tolist() for a in got] == want


_DEALS = """
import json
from leaves.deal_kernels import deal_board
from leaves.ruleset import Rules
out = []
for i, rules in enumerate(RULES):
    r = Rules.parse(rules) if rules else Rules()
    for n in (3, 4, 5, 6):
        out.append(deal_board(n, 1000 + 7 * i + n, rules=r).tolist())
print(json.dumps(out))
"""


def test_the_c_deal_is_the_kernels_deal():
    from leaves.deal_kernels import setup_for
    from leaves.ruleset import Rules

    code = f"RULES = {RULES!r}\n" + _DEALS
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    want = json.loads(proc.stdout)
    got = []
    for i, rules in enumerate(RULES):
        r = Rules.parse(rules) if rules else Rules()
        got += [engine.deal(setup_for(r, n), 1000 + 7 * i + n).tolist() for n in (3, 4, 5, 6)]
    assert got == want


def test_deals_stay_the_same_under_threads_and_allocations():
    """C reads the arrays it is handed during the call: each must be held by the caller (a
    temporary RNG state freed before the call once dealt another game, now and then)."""
    import threading

    from leaves.deal_kernels import setup_for
    from leaves.ruleset import DEFAULT_RULES

    setup = setup_for(DEFAULT_RULES, 4)
    want = [engine.deal(setup, i).tobytes() for i in range(2000)]
    wrong = []

    def deal_again() -> None:
        for i in range(2000):
            churn = [np.empty(4, np.uint64) for _ in range(4)]  # reuses freed blocks
            churn.clear()
            if engine.deal(setup, i).tobytes() != want[i]:
                wrong.append(i)

    threads = [threading.Thread(target=deal_again) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong


def test_the_key_is_the_c_sources_and_the_flags_only(tmp_path):
    src = tmp_path / "csrc"
    src.mkdir()
    for p in CSRC.glob("*.[ch]"):
        (src / p.name).write_bytes(p.read_bytes())
    (src / "notes.txt").write_text("not a source")
    assert cbuild.source_key(src) == cbuild.source_key(CSRC)
    (src / "notes.txt").write_text("edited")
    assert cbuild.source_key(src) == cbuild.source_key(CSRC)
    with (src / "engine.h").open("a") as f:
        f.write("/* an edit */\n")
    assert cbuild.source_key(src) != cbuild.source_key(CSRC)


@pytest.mark.slow
def test_an_edited_engine_is_rebuilt_under_its_own_key(tmp_path, monkeypatch):
    src = tmp_path / "csrc"
    src.mkdir()
    for p in CSRC.glob("*.[ch]"):
        (src / p.name).write_bytes(p.read_bytes())
    with (src / "engine.h").open("a") as f:
        f.write("/* an edit */\n")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path / "cache"))
    lib = cbuild.load(src, "_engine")
    key = cbuild.source_key(src)
    lib.engine_key.restype = __import__("ctypes").c_char_p
    assert lib.engine_key().decode() == key
    assert [p.name for p in (tmp_path / "cache" / "engine").iterdir()] == [f"_engine-{key}.so"]
    assert not list(src.glob("*.so"))  # nothing built beside the sources


def test_an_edit_of_the_shared_header_changes_every_engines_key(tmp_path, monkeypatch):
    from ligretto import cengine

    shared = tmp_path / "shared"
    shared.mkdir()
    for p in cbuild.SHARED.glob("*.h"):
        (shared / p.name).write_text(p.read_text() + "/* an edit */\n")
    before = [cbuild.source_key(src) for src in (CSRC, cengine.CSRC)]
    monkeypatch.setattr(cbuild, "SHARED", shared)
    after = [cbuild.source_key(src) for src in (CSRC, cengine.CSRC)]
    assert before[0] != after[0] and before[1] != after[1]


def test_a_failed_build_is_one_clear_error(tmp_path, monkeypatch):
    src = tmp_path / "csrc"
    src.mkdir()
    (src / "engine.c").write_text("this is not C\n")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(cbuild.BuildError, match="compiling .*engine.c failed"):
        cbuild.load(src, "_engine")
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(cbuild.BuildError, match="no C compiler"):
        cbuild.load(Path(src), "_other")
