"""Throughput of random play: the compiled engine and the public ``State`` API, on one core.

Both paths deal every game and choose uniformly among the legal action ids (docs/rules.md,
"random"), so the figures compare with other implementations of the same baseline. The
compiled path is the engine runs play on: the C engine where it can be had, else numba's
kernels (``LEAVES_ENGINE=numba`` asks for numba); ``engine`` in the result says which. Both
play the very same games from a seed, so every figure but the speed is the same on either.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gamekit import bench_limits
from gamekit.errors import shown
from gamekit.machine import cpu_name

from .ruleset import DEFAULT_RULES, Rules, counts_text
from .state import new_game

DEFAULT_GAMES = 200_000
DEFAULT_API_GAMES = 2_000
DEFAULT_REPEATS = 3

RESULT_BYTES = 3 * 8
"""Bytes of one game's results in a compiled run: turns, rounds and winners, an int64 each
(what both engines of ``random_player`` return)."""
GAME_MIN_S = 5e-7
"""A lower bound on one compiled game's time on one core, deal included: the shortest games
(3 players) ran at 2.3e-6 s on the fastest machine docs/performance.md records; a quarter of
that leaves room for a faster one (a test holds it below what it measures)."""
API_GAME_MIN_S = 2e-5
"""A lower bound on one game's time through the ``State`` API on one core: 3 players ran at
1.4e-4 s on the fastest machine docs/performance.md records (7,200 games/s); a seventh of it."""

ENGINES = {"c": "C engine", "numba": "numba kernels"}
"""The compiled engines random play can be timed on, by the name ``engine`` takes."""


def compiled_label(engine: str) -> str:
    """The compiled path's name in the table: which engine played the timed games."""
    return f"compiled ({ENGINES[engine]})"


def _check(players: int, games: int, api_games: int, repeats: int, rules: Rules) -> None:
    if rules.deck != DEFAULT_RULES.deck or rules.flags:
        raise ValueError("the compiled random play knows today's deck, plays and passes only: "
                         f"rules {rules} change them")  # fmt: skip
    if players not in rules.players:
        said = shown(players, typed=False)
        raise ValueError(f"players must be {counts_text(rules.players)}, got {said}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {shown(games, typed=False)}")
    if api_games < 0:
        raise ValueError(f"api_games must be 0 or more, got {shown(api_games, typed=False)}")
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {shown(repeats, typed=False)}")


def api_games_for(games: int, api_games: int | None) -> int:
    """The games the ``State`` API plays: ``api_games``, by default as many as the compiled
    runs up to ``DEFAULT_API_GAMES`` (a few seconds)."""
    return min(games, DEFAULT_API_GAMES) if api_games is None else api_games


def needs(games: int, api_games: int | None, repeats: int) -> tuple[int, float]:
    """(bytes, seconds) of ``run_bench``: the memory it holds at its peak beyond a constant
    few MiB, and a lower bound on its time on one core (compile excluded), so that a size no
    machine can play is refused before it starts. A second repeat's results are made while the
    first's are held; the count of unfinished games reads a bool a game beside one run's; the
    API path holds nothing a game."""
    held = 2 * RESULT_BYTES if repeats > 1 else RESULT_BYTES + 1
    seconds = games * repeats * GAME_MIN_S + api_games_for(games, api_games) * API_GAME_MIN_S
    return games * held, seconds


def random_player(
    players: int, rules: Rules = DEFAULT_RULES, engine: str | None = None
) -> tuple[str, Callable[[int, int], tuple[np.ndarray, ...]]]:
    """The engine's name and its ``play(n_games, seed) -> (turns, rounds, winners)``.

    ``engine`` None is the one runs play on (``engine.available()``): C where it can be had,
    so the figure is what a run costs; "numba" times ``fastplay.random_games``, which plays
    the very games of ``kernels.random_games`` (and so of the C engine's: tests check both).
    """
    from .players.compiled import engine as c_engine  # start-up: loads the C library

    if engine is None:
        engine = "c" if c_engine.available() else "numba"
    if engine not in ENGINES:
        said = shown(engine, typed=False)
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {said}")
    if engine == "c":
        if not c_engine.available():
            raise ValueError(f"the C engine cannot be had here ({c_engine.why_not()})")
        from .deal_kernels import setup_for  # start-up: as the engine

        setup = setup_for(rules, players)
        return engine, lambda n, seed: c_engine.random_games(setup, n, seed)
    from . import fastplay  # start-up: fastplay imports numba

    hand, limit = rules.hand_size_for(players), rules.turn_limit  # the kernel's scalars
    # uint64: a seed of 2**63 or more is no int64, and one compiled form serves every seed
    return engine, lambda n, seed: fastplay.random_games(players, hand, n, np.uint64(seed), limit)


def bench_compiled(  # noqa: PLR0913 - the run's settings, each a keyword of run_bench
    players: int,
    games: int,
    seed: int,
    repeats: int,
    rules: Rules = DEFAULT_RULES,
    engine: str | None = None,
) -> dict[str, Any]:
    """Time deal + uniform random playout on ``engine`` (``random_player``), all compiled."""
    engine, play = random_player(players, rules, engine)
    t0 = time.perf_counter()
    play(10, seed)  # numba: compile or load the cache; C: load the library
    warmup = time.perf_counter() - t0
    rates = []
    turns = rounds = winners = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        turns, rounds, winners = play(games, seed)
        rates.append(games / (time.perf_counter() - t0))
    best = max(rates)
    return {
        "engine": engine,
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


def bench_api(players: int, games: int, seed: int, rules: Rules = DEFAULT_RULES) -> dict[str, Any]:
    """Time ``new_game`` + ``legal_actions()`` / ``apply()`` with uniform random choices."""
    rng = np.random.default_rng(seed)
    chunk = 1 << 16
    uniforms = rng.random(chunk)
    new_game(players, seed=rng, rules=rules)  # warm caches and imports
    total_turns = 0
    t0 = time.perf_counter()
    i = 0
    for _ in range(games):
        state = new_game(players, seed=rng, rules=rules)
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
    if not games:  # nothing timed: no rate (None in JSON: null), never 0 games/s
        return {"api_games_per_second": None, "api_turns_per_second": None, "api_mean_turns": None}
    return {
        "api_games_per_second": games / elapsed,
        "api_turns_per_second": total_turns / elapsed,
        "api_mean_turns": total_turns / games,
    }


def run_bench(
    players: int = 4,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    api_games: int | None = None,
    repeats: int = DEFAULT_REPEATS,
    rules: Any = None,
    engine: str | None = None,
) -> dict[str, Any]:
    """Random-play games per second on one core: the compiled engine and the ``State`` API.

    ``games_per_second`` is the best of ``repeats`` timed runs of ``games`` compiled games
    (compile time excluded); ``api_games`` (default ``min(games, 2000)``) games go through the
    Python API once. Games are played under ``rules`` (any form ``Rules.of`` reads; today's by
    default), of which the compiled figure's kernel can change only the hand size, the
    player counts and the turn limit. ``engine`` ("c" or "numba") picks the compiled path,
    None the one runs play on (``random_player``). Raises ValueError for bad arguments, and
    for sizes whose results this machine cannot hold or that would take more than a day
    (``gamekit.bench_limits``, from ``needs``), before anything plays.
    """
    import numba  # start-up: numba only for its version

    api_games = api_games_for(games, api_games)
    rules = Rules.of(rules)
    _check(players, games, api_games, repeats, rules)
    size, seconds = needs(games, api_games, repeats)
    if why := bench_limits.refusal(size, seconds, bench_limits.memory(), games, "games"):
        raise ValueError(why)  # what ``leaves bench --games`` says, before anything plays
    out: dict[str, Any] = {
        "players": players,
        "games": games,
        "api_games": api_games,
        "repeats": repeats,
        "seed": seed,
        "turn_limit": rules.turn_limit,
    }
    out.update(bench_compiled(players, games, seed, repeats, rules, engine))
    out.update(bench_api(players, api_games, seed, rules))
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
            "cpu": cpu_name(),
        }
    )
    return out
