"""Throughput of random play: the compiled kernels and the public ``State`` API, on one core.

Both paths deal every game and choose uniformly among the legal action ids (docs/rules.md,
"random"), so the figures compare with other implementations of the same baseline.
"""

from __future__ import annotations

import platform
import statistics
import time
from typing import Any

import numpy as np

from .rules import HAND_SIZES, MAX_PLAYERS, MIN_PLAYERS, TURN_LIMIT
from .state import new_game

DEFAULT_GAMES = 200_000
DEFAULT_API_GAMES = 2_000
DEFAULT_REPEATS = 3


def _cpu_name() -> str | None:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _check(players: int, games: int, api_games: int, repeats: int, turn_limit: int) -> None:
    if not (MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if api_games < 0:
        raise ValueError(f"api_games must be 0 or more, got {api_games}")
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    if turn_limit < 1:
        raise ValueError(f"turn_limit must be at least 1, got {turn_limit}")


def bench_compiled(
    players: int, games: int, seed: int, repeats: int, turn_limit: int
) -> dict[str, Any]:
    """Time ``fastplay.random_games`` (deal + uniform random playout, all compiled).

    It plays the very games of ``kernels.random_games`` on a bitmask table (a test checks),
    so the figure is the rules core's random-play speed.
    """
    from . import fastplay  # start-up: fastplay imports numba

    hand = HAND_SIZES[players]
    t0 = time.perf_counter()
    fastplay.random_games(players, hand, 10, seed, turn_limit)  # compile or load the cache
    warmup = time.perf_counter() - t0
    rates = []
    turns = rounds = winners = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        turns, rounds, winners = fastplay.random_games(players, hand, games, seed, turn_limit)
        rates.append(games / (time.perf_counter() - t0))
    best = max(rates)
    return {
        "games_per_second": best,
        "games_per_second_median": statistics.median(rates),
        "games_per_second_runs": rates,
        "turns_per_second": best * float(turns.mean()),
        "mean_turns": float(turns.mean()),
        "max_turns": int(turns.max()),
        "mean_rounds": float(rounds.mean()),
        "unfinished": int((winners < 0).sum()),
        "warmup_seconds": warmup,
    }


def bench_api(players: int, games: int, seed: int, turn_limit: int) -> dict[str, Any]:
    """Time ``new_game`` + ``legal_actions()`` / ``apply()`` with uniform random choices."""
    rng = np.random.default_rng(seed)
    chunk = 1 << 16
    uniforms = rng.random(chunk)
    new_game(players, seed=rng, turn_limit=turn_limit)  # warm caches and imports
    total_turns = 0
    t0 = time.perf_counter()
    i = 0
    for _ in range(games):
        state = new_game(players, seed=rng, turn_limit=turn_limit)
        legal = state.legal_actions()
        while legal:
            if i == chunk:
                uniforms = rng.random(chunk)
                i = 0
            state = state.apply(legal[int(uniforms[i] * len(legal))])
            i += 1
            legal = state.legal_actions()
        total_turns += state.turn
    elapsed = time.perf_counter() - t0
    return {
        "api_games_per_second": games / elapsed if games else 0.0,
        "api_turns_per_second": total_turns / elapsed if games else 0.0,
        "api_mean_turns": total_turns / games if games else 0.0,
    }


def run_bench(
    players: int = 4,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    api_games: int | None = None,
    repeats: int = DEFAULT_REPEATS,
    turn_limit: int = TURN_LIMIT,
) -> dict[str, Any]:
    """Random-play games per second on one core: compiled kernels and the ``State`` API.

    ``games_per_second`` is the best of ``repeats`` timed runs of ``games`` compiled games
    (compile time excluded); ``api_games`` (default ``min(games, 2000)``) games go through the
    Python API once. Raises ValueError for bad arguments.
    """
    import numba  # start-up: numba only for its version

    if api_games is None:
        api_games = min(games, DEFAULT_API_GAMES)
    _check(players, games, api_games, repeats, turn_limit)
    out: dict[str, Any] = {
        "players": players,
        "games": games,
        "api_games": api_games,
        "repeats": repeats,
        "seed": seed,
        "turn_limit": turn_limit,
    }
    out.update(bench_compiled(players, games, seed, repeats, turn_limit))
    out.update(bench_api(players, api_games, seed, turn_limit))
    out["speedup"] = (
        out["games_per_second"] / out["api_games_per_second"]
        if out["api_games_per_second"]
        else None
    )
    out.update(
        {
            "cores": 1,
            "numba_version": numba.__version__,
            "numpy_version": np.__version__,
            "python_version": platform.python_version(),
            "machine": platform.machine(),
            "cpu": _cpu_name(),
        }
    )
    return out
