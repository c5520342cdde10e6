"""Same seeds, same results: outcomes captured from the code before the compiled layer, the
search and the seeding were reorganised, kept so that no refactoring changes a result.

The golden values are at the level of play (seats + seeds -> outcomes), not of a tournament
schedule: for every built-in, tables of 3..6 players through ``strategies.play_batch`` (the
compiled loop, with and without recorded actions) and ``strategies.play_game`` (the Python
path), and a fixed set of ``ismcts`` decisions under several settings. Each digest is the
SHA-256 of the outcome arrays (prefix kept); a few literal values make a failure readable.
If a change here is intended (a rule fix, a new policy behaviour), it is not a refactoring:
say so in the commit, regenerate the values with ``golden_values()``, bump
``leaves.PLAY_VERSION`` and add the values' digest under the new version in ``GOLDEN_DIGESTS``
below: a resume then refuses the runs the old play played (CONTRIBUTING.md).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import leaves
import strategies
from leaves.players.ismcts import ISMCTS

TABLES = {
    "a3": ["random", "low", "high"],
    "b4": ["minimal", "greedy", "patient", "blocker"],
    "c5": ["counter", "taker", "weighted", "low", "random"],
    "d6": ["weighted", "counter", "taker", "greedy", "minimal", "high"],
    "e4": [
        "greedy:keep_pairs=true",
        "patient:min_hand=4",
        "counter:threat_weight=1.0,keep_weight=2.0,safe_bonus=0.5",
        "taker:group_weight=1.0,harm_weight=1.0,extreme_weight=0.0",
    ],
    "f4": [
        "weighted:w_pass=-2.0,w_threat=-0.5,w_take_harm=0.7",
        "blocker",
        "counter:near_win_penalty=0.0,shed_weight=1.0",
        "random",
    ],
}
GAMES = 40
ISMCTS_CONFIGS = {
    "default": {"iterations": 120},
    "flat": {"iterations": 120, "max_depth": 1, "models": ""},
    "so": {
        "iterations": 120,
        "model_opponents": False,
        "infer_tries": 0,
        "infer_steps": 0,
        "max_depth": 0,
        "widen": 0.0,
    },
    "hard": {
        "iterations": 120,
        "infer_lambda": 1e6,
        "rollout": "taker",
        "models": "weighted",
        "max_depth": 0,
        "widen": 0.0,
    },
    "shaped": {
        "iterations": 120,
        "shaping": 0.3,
        "playouts": 2,
        "rollout": "random",
        "c": 1.3,
        "max_depth": 0,
        "widen": 0.0,
    },
}


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str(a.dtype).encode() + str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def _seeds(table: str) -> tuple[np.ndarray, np.ndarray]:
    base = sum(map(ord, table))
    ss = np.random.SeedSequence(base).generate_state(2 * GAMES, np.uint64)
    return ss[:GAMES], ss[GAMES:]


def compiled_outcome(table: str, record: bool = False) -> tuple[str, list[int]]:
    deal, play = _seeds(table)
    res = strategies.play_batch(TABLES[table], deal, play, record=record)
    arrays = [res.first_player, res.cards_left, res.winner_seat, res.turns, res.rounds]
    arrays.append(res.unfinished)
    if record:
        arrays += [np.array(r.actions, np.int16) for r in res.records]
    return _digest(*arrays), res.turns[:4].tolist()


def python_outcome(table: str) -> tuple[str, list[int]]:
    deal, play = _seeds(table)
    rows = []
    for d, p in zip(deal, play, strict=True):
        r = strategies.play_game(TABLES[table], deal_seed=int(d), play_seed=int(p), record=True)
        rows.append([r.first_player, -1 if r.winner is None else r.winner, r.turns, r.rounds])
        rows.append(list(r.cards_left) + list(r.record.actions))
    flat = np.array([x for row in rows for x in row], np.int64)
    return _digest(flat), [row[2] for row in rows[0:8:2]]


def _positions() -> list[leaves.State]:
    """Mid-game positions of a recorded heuristic game per player count (seats to act vary)."""
    out = []
    for n, turns in ((3, (0, 9, 25)), (4, (4, 17, 40)), (5, (12, 30)), (6, (20,))):
        table = ["weighted", "taker", "counter", "low", "high", "minimal"][:n]
        r = strategies.play_game(table, seed=100 + n)
        states = leaves.replay(r.record)
        for t in turns:
            s = states[min(t, len(states) - 2)]
            if len(s.legal_actions()) > 1:
                out.append(s)
    return out


def ismcts_outcome(config: str) -> tuple[str, list[int]]:
    strat = ISMCTS(**ISMCTS_CONFIGS[config])
    chosen, visits = [], []
    for i, state in enumerate(_positions()):
        seat = state.current_player
        rng = np.random.default_rng(1000 + i)
        a = strat.choose(state.view(seat), state.legal_actions(), rng)
        chosen.append(a.id)
        visits += sorted((b.id, v) for b, v in strat.last_visits.items())
        visits.append((strat.last_nodes, strat.last_rejects))
    return _digest(np.array(chosen, np.int64), np.array(visits, np.int64)), chosen


def golden_values() -> dict[str, tuple[str, list[int]]]:
    """Every golden value from the current code (print it to regenerate ``GOLDEN``)."""
    out = {}
    for t in TABLES:
        out[f"compiled/{t}"] = compiled_outcome(t)
        out[f"compiled_rec/{t}"] = compiled_outcome(t, record=True)
        out[f"python/{t}"] = python_outcome(t)
    for c in ISMCTS_CONFIGS:
        out[f"ismcts/{c}"] = ismcts_outcome(c)
    return out


GOLDEN_DIGESTS = {"1": "a29d470263960eb9"}
"""The digest of ``GOLDEN`` (``golden_digest``) under each play version: values regenerated
after a change of play fail the guard until ``leaves.PLAY_VERSION`` is bumped and their digest
added under the new version (an entry is never edited)."""


def golden_digest() -> str:
    """What ``GOLDEN`` holds, in 16 hex digits."""
    return hashlib.sha256(repr(sorted(GOLDEN.items())).encode()).hexdigest()[:16]


GOLDEN: dict[str, tuple[str, list[int]]] = {
    "compiled/a3": ("b5aeab8e8b0bc1e3", [29, 40, 43, 31]),
    "compiled/b4": ("668b4e2597d28b28", [40, 31, 49, 34]),
    "compiled/c5": ("dbdfc3631513a6be", [53, 46, 46, 40]),
    "compiled/d6": ("b0195a93cb6ed395", [59, 95, 39, 30]),
    "compiled/e4": ("00de525095f1b109", [59, 51, 70, 38]),
    "compiled/f4": ("877a5cdff538ff7b", [25, 52, 31, 34]),
    "compiled_rec/a3": ("02b6d9d0e7a5ac1f", [29, 40, 43, 31]),
    "compiled_rec/b4": ("119d720befb9836c", [40, 31, 49, 34]),
    "compiled_rec/c5": ("2165553e09b0e8dc", [53, 46, 46, 40]),
    "compiled_rec/d6": ("8cce90e6239339d4", [59, 95, 39, 30]),
    "compiled_rec/e4": ("a4cdc43169152230", [59, 51, 70, 38]),
    "compiled_rec/f4": ("562c4f2c98a9848b", [25, 52, 31, 34]),
    "ismcts/default": ("53e3b4bab6ca2436", [40, 25, 25, 97, 105, 56, 114, 24, 96]),
    "ismcts/flat": ("265849d00a4cb939", [16, 80, 25, 49, 109, 80, 105, 24, 96]),
    "ismcts/hard": ("b06217b6aa613d4c", [64, 33, 25, 49, 111, 56, 114, 24, 107]),
    "ismcts/shaped": ("afe8455a6896310d", [72, 25, 25, 97, 111, 56, 114, 24, 96]),
    "ismcts/so": ("016cdb5e723dd54b", [8, 25, 25, 104, 109, 80, 114, 24, 96]),
    "python/a3": ("779d41f982ed9228", [31, 27, 33, 24]),
    "python/b4": ("4f5f90b3c08a3167", [40, 31, 49, 34]),
    "python/c5": ("44363c9b1e4b1d8a", [58, 40, 55, 32]),
    "python/d6": ("6acb852f4b991969", [59, 95, 39, 30]),
    "python/e4": ("60e75e72135aef1d", [59, 51, 70, 38]),
    "python/f4": ("748006f5c10f9951", [28, 40, 27, 29]),
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_compiled_path_unchanged(table):
    assert compiled_outcome(table) == GOLDEN[f"compiled/{table}"]
    assert compiled_outcome(table, record=True) == GOLDEN[f"compiled_rec/{table}"]


@pytest.mark.parametrize("table", sorted(TABLES))
def test_python_path_unchanged(table):
    assert python_outcome(table) == GOLDEN[f"python/{table}"]


@pytest.mark.parametrize("config", sorted(ISMCTS_CONFIGS))
def test_ismcts_decisions_unchanged(config):
    assert ismcts_outcome(config) == GOLDEN[f"ismcts/{config}"]


def test_golden_covers_every_builtin():
    names = {strategies.get(s).name for t in TABLES.values() for s in t}
    assert names == {cls.name for cls in leaves.players.builtin.BUILTINS}


def test_golden_values_are_the_play_version_s():
    """Values regenerated without bumping the version a resume compares would let a run resume
    under play that is no longer its own; a version bumped without a change of play would
    refuse runs that play alike (no two versions hold the same values)."""
    assert golden_digest() == GOLDEN_DIGESTS.get(leaves.PLAY_VERSION), (
        "the golden values are not the play version's: bump leaves.PLAY_VERSION and add their "
        f"digest {golden_digest()} under it in GOLDEN_DIGESTS"
    )
    assert len(set(GOLDEN_DIGESTS.values())) == len(GOLDEN_DIGESTS)
