"""Throughput of Ligretto rounds on one core: the compiled round loop and the Python path.

The compiled loop is the C engine's (``ligretto.cengine``) where it can be had, else numba's
(``LEAVES_ENGINE=numba`` asks for numba); ``engine`` in the result says which was timed.

``rounds_per_second`` is wall-clock (best of the repeats); ``rounds_per_cpu_second`` divides by
the process's CPU time instead, which a machine shared with other jobs disturbs less.

The table cycles through the attention orders of the built-in players (stack first, row
first, hand first, look at all) at default speed, so the figure is what a tournament of the
built-ins costs per round. Deals are included; compile time is not.
"""

from __future__ import annotations

import platform
import time
from importlib.metadata import version
from typing import Any

import numpy as np

from gamekit import bench_limits
from gamekit.machine import cpu_name

from . import cengine
from .compiled import ENDED_BLOCKADE, play_rounds
from .engine import play_round
from .policy import N_PARAMS, PolicyPlayer
from .rules import check_players

DEFAULT_ROUNDS = 50_000
DEFAULT_API_ROUNDS = 200
DEFAULT_REPEATS = 3
SEED_BYTES = 8
"""A seed's bytes (uint64): the timed runs hold each round's, and a reversed copy per run."""
ROUND_MIN_S = 1e-6
"""A lower bound on one compiled round's time on one core: 2 players' rounds (the cheapest)
took about 6e-6 s of CPU on a 2-core machine; a sixth of it (a test holds it below what it
measures)."""
API_ROUND_MIN_S = 1e-3
"""A lower bound on one round's time through the Python path on one core: the cheapest tables
(4 and 5 players; 2 players' rounds last longest) took about 6.7e-3 s on a 2-core machine
(docs/ligretto.md: about 150 rounds/s); a sixth of it (a test holds it below, too)."""


def round_bytes(players: int) -> int:
    """Bytes of one round's ``RoundBatch`` at ``players`` seats: scores (int16), stack left
    and centre cards (int8) a seat; ended_by (int8), time_ms (int32), plays (int16), flips
    (int32), fails (int16) a round."""
    return (2 + 1 + 1) * players + 1 + 4 + 2 + 4 + 2


def needs(players: int, rounds: int, api_rounds: int, repeats: int) -> tuple[int, float]:
    """(bytes, seconds) of ``run_bench``: the memory it holds at its peak beyond a constant few
    MiB, and a lower bound on its time on one core (compile excluded), so that a size no
    machine can play is refused before it starts. Each timed run holds the seeds, their
    reversed copy, ``play_rounds``' int64 matrix of ``3 * players + 6`` columns and the batch
    made from it, beside the previous run's batch; the Python path holds nothing a round."""
    batches = 2 if repeats > 1 else 1
    held = 2 * SEED_BYTES + 8 * (3 * players + 6) + batches * round_bytes(players)
    return rounds * held, rounds * repeats * ROUND_MIN_S + api_rounds * API_ROUND_MIN_S


def bench_table(players: int) -> np.ndarray:
    """Policy vectors of the benchmark table: orders 0..3 in turn, default timing."""
    check_players(players)
    table = np.zeros((players, N_PARAMS))
    for s in range(players):
        table[s, :5] = [1.0, 300, 60, 250, 100]
        table[s, 5] = s % 4
        table[s, 7] = 6
    return table


def run_bench(
    players: int = 4,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    api_rounds: int = DEFAULT_API_ROUNDS,
    repeats: int = DEFAULT_REPEATS,
) -> dict[str, Any]:
    """Rounds per second of the compiled loop (best of ``repeats``) and of the Python path;
    ValueError for sizes whose results this machine cannot hold or that would take more than
    a day (``gamekit.bench_limits``, from ``needs``), before anything plays."""
    if rounds < 1 or repeats < 1 or api_rounds < 0:
        raise ValueError("rounds and repeats must be at least 1, api_rounds at least 0")
    table = bench_table(players)
    size, seconds = needs(players, rounds, api_rounds, repeats)
    if why := bench_limits.refusal(size, seconds, bench_limits.memory(), rounds, "rounds"):
        raise ValueError(why)  # what ``leaves bench --games`` says, before anything plays
    seeds = np.arange(rounds, dtype=np.uint64) + np.uint64(seed)
    play_rounds(table, seeds[:10], seeds[:10])  # compile or load the cache
    rates, cpu_rates = [], []
    batch = None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        batch = play_rounds(table, seeds, seeds[::-1].copy())
        rates.append(rounds / (time.perf_counter() - t0))
        cpu_rates.append(rounds / max(time.process_time() - c0, 1e-9))
    api_rate = None
    if api_rounds:  # seeds of their own: more Python-path rounds than compiled ones is fine
        players_ = [PolicyPlayer(p) for p in table]
        last = seed + api_rounds - 1  # the seeds are counted, never held: nothing a round
        t0 = time.perf_counter()
        for i in range(api_rounds):
            play_round(players_, (seed + i) % 2**64, (last - i) % 2**64)
        api_rate = api_rounds / (time.perf_counter() - t0)
    assert batch is not None
    return {
        "game": "ligretto",
        "players": players,
        "rounds": rounds,
        "repeats": repeats,
        "seed": seed,
        "rounds_per_second": max(rates),
        "rounds_per_second_runs": rates,
        "rounds_per_cpu_second": max(cpu_rates),  # CPU time: less sensitive to a busy machine
        "api_rounds": api_rounds,
        "api_rounds_per_second": api_rate,
        "mean_round_seconds": float(batch.time_ms.mean() / 1000),
        "mean_plays": float(batch.plays.mean()),
        "blockade_share": float((batch.ended_by == ENDED_BLOCKADE).mean()),
        "engine": "c" if cengine.available() else "numba",  # which loop was timed
        "cores": 1,  # the round loop runs in the calling thread
        "numba_version": version("numba"),
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "machine": platform.machine(),
        "cpu": cpu_name(),
    }
