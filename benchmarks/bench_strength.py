"""Strength of each built-in heuristic against three ``random`` players, and loop speed; with
``--search``, the search and the best heuristic against strong fields.

4-player games on duplicate deals: every deal is played under the balanced seating design of
the table (``tournaments.seating.design``; with three identical ``random`` seats it puts the
heuristic once in every seat), so seat, neighbour and deal luck cancel.
Prints each heuristic's win rate with the reports' 95% interval (``reports.summary``: Wilson's
on the effective number of games, since the games of one deal are correlated; > 25% means
better than a random seat), then how many 4-player games per second the compiled loop plays
with four heuristics at the table (one core).

    python benchmarks/bench_strength.py                 # 5000 deals x 4 seats per heuristic
    python benchmarks/bench_strength.py --deals 500     # quick look
    python benchmarks/bench_strength.py --search --games 1200 --jobs 2   # the search's table

``--search`` plays, for each field of ``SEARCH_FIELDS``, two gauntlets on the same deals and
seatings (one seat against three of the field, every rotation; the field's strategies in every
combination of three when it has more): ``ismcts`` (defaults) with ``ismcts:preset=fast`` as
its baseline, and ``weighted``, the best heuristic, with ``random`` as its baseline (not where
``weighted`` is in the field: a gauntlet seats no strategy of its field). Each line
is a win rate with the reports' 95% interval over duplicate sets; the last column is the
paired difference default - ``preset=fast`` with its 95% interval.

``--outside N`` plays our ``ismcts`` at ``N`` iterations against OpenSpiel's ``ISMCTSBot`` at
``N`` simulations (``openspiel:bot=ismcts,max_simulations=N``; needs ``pip install
".[research]"``): one seat of ours against three of theirs, then one of theirs against three of
ours, each a focused tournament on duplicate deals with the reports' 95% interval. Their
search is Python over our Python game, so it is slow: at 1,000 simulations a decision takes
seconds. ``--ours SPEC`` names our search there (default ``ismcts``; its iterations are set
to ``N``).

    python benchmarks/bench_strength.py --outside 100 --games 48 --jobs 1 --seed 2026
    python benchmarks/bench_strength.py --outside 100 --ours ismcts:preset=flat --games 48
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np
import pandas as pd

import reports
import strategies
from leaves.players import compiled as C
from reports.numbers import PERCENTAGE_POINTS, interval, pct
from tournaments.seating import design


def vs_random(name: str, deals: int, seed: int, n_players: int = 4) -> pd.Series:
    """The summary row of ``name`` against ``n_players - 1`` random seats on duplicate deals:
    games, wins, win_rate and the deal-clustered 95% interval (ci_low, ci_high)."""
    ss = np.random.SeedSequence(seed)
    deal_seeds = ss.generate_state(deals, dtype=np.uint64)
    play_seeds = np.random.SeedSequence([seed, 1]).generate_state(deals, dtype=np.uint64)
    kind, vec = strategies.get(name).compiled()
    rk, rv = strategies.get("random").compiled()
    parts = []
    for seating in design((0,) + (1,) * (n_players - 1)):  # entrant 0: the heuristic
        seat = seating.index(0)
        kinds = np.full(n_players, rk, dtype=np.int64)
        params = np.tile(rv, (n_players, 1))
        kinds[seat] = kind
        params[seat] = vec
        codes = np.ones(n_players, dtype=np.int8)
        codes[seat] = 0
        res = C.play_batch_compiled(kinds, params, deal_seeds, play_seeds)
        parts.append((np.tile(codes, (deals, 1)), *res))
    codes, first, cards, winner, turns, rounds, unfinished = (
        np.concatenate([p[i] for p in parts]) for i in range(7)
    )
    labels = np.array([name, "random"], dtype=object)
    games = pd.DataFrame(  # the runner's row layout, which reports read
        {
            **{f"seat_{s}": labels[codes[:, s]] for s in range(n_players)},
            **{f"cards_left_{s}": cards[:, s] for s in range(n_players)},
            "n_players": n_players,
            "first_player": first,
            "winner_seat": winner,
            "turns": turns,
            "rounds": rounds,
            "unfinished": unfinished,
            "deal": np.tile(np.arange(deals, dtype=np.int64), len(parts)),
        }
    )
    return reports.summary(games).set_index("strategy").loc[name]


def speed(names: list[str], games: int, seed: int) -> float:
    """4-player games per second of the compiled loop with ``names`` at the table."""
    table = [strategies.get(n).compiled() for n in names]
    kinds = np.array([k for k, _ in table], dtype=np.int64)
    params = np.stack([v for _, v in table])
    d = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint64)
    p = np.random.SeedSequence([seed, 2]).generate_state(games, dtype=np.uint64)
    C.play_batch_compiled(kinds, params, d[:10], p[:10])  # compile / load the cache
    t0 = time.perf_counter()
    C.play_batch_compiled(kinds, params, d, p)
    return games / (time.perf_counter() - t0)


SEARCH = "ismcts"
FAST = "ismcts:preset=fast"
HEURISTIC = "weighted"
WEIGHTED_PREVIOUS = (
    "weighted:w_shed=-0.5,w_keep=-4.0,w_end=-0.8,w_extreme=-0.4,w_threat=-0.15,w_near_win=-2.0,"
    "w_pass=-13.0,w_take_group=1.2,w_take_harm=0.0,w_take_extreme=0.2"
)
COUNTER_PREVIOUS = (
    "counter:threat_weight=0.3,keep_weight=6.0,safe_bonus=2.8,near_win_penalty=5.9,shed_weight=-1.8"
)
TAKER_TUNED = "taker:group_weight=2.089,harm_weight=0.143,extreme_weight=0.3"
SEARCH_FIELDS = {
    "3x weighted": ("weighted",),
    "3x counter": ("counter",),
    "3 tuned variants": (WEIGHTED_PREVIOUS, COUNTER_PREVIOUS, TAKER_TUNED),
    "strong mix": ("weighted", "taker", "counter", "high", "low"),
}
"""The fields of ``--search``. The tuned variants are parameter sets of docs/tuning.md that no
built-in ships with (``weighted``'s and ``counter``'s previous defaults, ``taker``'s tuned
candidate), so the search's opponent models, which are the built-ins' defaults, never match
them exactly."""


def search_table(games: int, seed: int, jobs: int, fields: list[str]) -> None:
    """Prints, per field, the win rates of ``ismcts``, ``preset=fast`` and ``weighted`` one seat
    against it, and the paired difference default - fast (module docstring)."""
    from tournaments import gauntlet  # start-up: only --search plays tournaments

    print(f"4 players, one seat against the field, {games} games a line, seed {seed}")
    head = f"{'field':<17} {'ismcts':>19} {'preset=fast':>19} {'weighted':>19}"
    print(f"{head}   default - fast ({PERCENTAGE_POINTS})")
    for name in fields:
        field = SEARCH_FIELDS[name]
        t0 = time.perf_counter()
        g = reports.gauntlet(gauntlet(SEARCH, field, FAST, games=games, seed=seed, n_jobs=jobs))
        r = g.iloc[0]
        cells = [
            _rate(r["win_rate"], r["ci_low"], r["ci_high"]),
            _rate(r["baseline_win_rate"], r["baseline_ci_low"], r["baseline_ci_high"]),
            "in the field",  # a gauntlet seats no strategy of its field
        ]
        if HEURISTIC not in field:
            w = reports.gauntlet(gauntlet(HEURISTIC, field, "random", games=games, seed=seed))
            h = w.iloc[0]
            cells[2] = _rate(h["win_rate"], h["ci_low"], h["ci_high"])
        diff = f"{100 * r['diff']:+.1f} {interval(r['diff_ci_low'], r['diff_ci_high'])}"
        print(
            f"{name:<17} {cells[0]:>19} {cells[1]:>19} {cells[2]:>19}   "
            f"{diff}  ({time.perf_counter() - t0:.0f} s)"
        )


def outside_table(sims: int, games: int, seed: int, jobs: int, search: str = SEARCH) -> None:
    """Prints our ``ismcts`` and OpenSpiel's ``ISMCTSBot``, each one seat against three of the
    other, at equal work: ``sims`` iterations of ours (the spec ``search``), ``sims``
    simulations of theirs."""
    import importlib.util  # start-up: only --outside asks for OpenSpiel

    from tournaments import Tournament  # start-up: as above

    if importlib.util.find_spec("pyspiel") is None:
        raise SystemExit('--outside needs OpenSpiel: pip install ".[research]"')
    ours = with_iterations(search, sims)
    theirs = f"openspiel:bot=ismcts,max_simulations={sims}"
    print(f"4 players, equal work ({sims} iterations / simulations), seed {seed}")
    for focus, other in ((ours, theirs), (theirs, ours)):
        t0 = time.perf_counter()
        # a deal's games a chunk: the runner starts workers once a played chunk shows the
        # work pays for them, so --jobs plays side by side (any chunking, the same games)
        t = Tournament([focus, other], players=4, games=games, seed=seed, focus=focus,
                       chunk_size=None if jobs == 1 else 4)  # fmt: skip
        with tempfile.TemporaryDirectory() as tmp:
            summ = reports.summary(t.run(n_jobs=jobs, out=tmp)).set_index("strategy")
        row = summ.loc[t.focus]
        rate = _rate(row["win_rate"], row["ci_low"], row["ci_high"])
        print(f"one {focus} against three {other}: {rate} of {int(row['games'])} games"
              f"  ({time.perf_counter() - t0:.0f} s)")  # fmt: skip


def with_iterations(spec: str, iterations: int) -> str:
    """``spec`` with its iteration budget set (``ismcts`` -> ``ismcts:iterations=N``)."""
    return f"{spec}{',' if ':' in spec else ':'}iterations={iterations}"


def _rate(rate: float, low: float, high: float) -> str:
    """A win rate and its interval, written as the reports write them."""
    return f"{pct(rate)} {interval(low, high)}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=5000, help="deals per heuristic (x4 seats)")
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--speed-games", type=int, default=200_000)
    ap.add_argument("--search", action="store_true", help="the search's table instead")
    ap.add_argument("--games", type=int, default=1200, help="games a line (--search, --outside)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (--search, --outside)")
    ap.add_argument("--fields", default=",".join(SEARCH_FIELDS), help="fields of --search, by name")
    ap.add_argument("--outside", type=int, metavar="N", help="ours against OpenSpiel's at N")
    ap.add_argument("--ours", default=SEARCH, metavar="SPEC", help="our search in --outside")
    args = ap.parse_args()
    if args.outside:
        outside_table(args.outside, args.games, args.seed, args.jobs, args.ours)
        return
    if args.search:
        search_table(args.games, args.seed, args.jobs, args.fields.split(","))
        return

    names = [n for n in strategies.names() if n != "random" and _builtin(n)]
    rows = sorted(((vs_random(n, args.deals, args.seed), n) for n in names),
                  key=lambda r: (-r[0]["win_rate"], r[1]))  # fmt: skip
    print(f"4 players, heuristic vs 3 x random, {args.deals} duplicate deals x 4 seats")
    print(f"{'strategy':<10} {'games':>7} {'win rate':>9}   95% CI (deal-clustered)")
    for r, n in rows:
        print(
            f"{n:<10} {int(r['games']):>7} {r['win_rate']:>8.1%}   [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"
        )
    table = ["counter", "taker", "weighted", "greedy"]
    gps = speed(table, args.speed_games, args.seed)
    print(f"\ncompiled loop, {'/'.join(table)}: {gps:,.0f} 4-player games/s (one core)")


def _builtin(name: str) -> bool:
    cls = type(strategies.get(name))
    return cls.__module__.startswith("leaves.players.builtin")


if __name__ == "__main__":
    main()
