"""``ismcts`` against every other built-in and against mixed fields, at 3 to 6 players.

Each line is a focused tournament (``Tournament(..., focus=ISMCTS)``): one ``ismcts`` seat and
the rest of the table from the field, duplicate deals, balanced seating, a seed never used for
tuning. Against a single built-in the other seats are all that built-in ("three of any single
built-in" at 4 players). Prints the win rate with its 95% interval (the reports', over
duplicate sets), the fair share and whether the floor holds (4 players: 45% at default settings, 38% with ``--fast``), then the
mean time of a searched decision on one core.

    python benchmarks/bench_ismcts_field.py --games 600 --jobs 2              # the floors
    python benchmarks/bench_ismcts_field.py --games 600 --jobs 2 --fast       # the fast setting
    python benchmarks/bench_ismcts_field.py --games 48 --players 3,4,5,6      # every table size
    python benchmarks/bench_ismcts_field.py --spec "ismcts:models=all" --games 600

``--fast`` plays ``FAST``, the named setting ``preset=fast`` (``leaves.players.ismcts.settings.
PRESETS``). ``--opponents`` limits the single built-ins (e.g. ``taker,weighted,counter``).
``--seed`` plays other deals: tune and screen on those, and keep the published seed for the
final figures (``--no-time`` skips the decision time while screening).
The decision time is measured on one core over a few games against the strong heuristics:
the wall clock (what a player waits) and the CPU time of the deciding thread (less sensitive
to a shared machine).
"""

from __future__ import annotations

import argparse
import tempfile
import time

import reports
import strategies
from tournaments import Tournament, parse_players

DEFAULT = "ismcts"
FAST = "ismcts:preset=fast"
FLOORS = {DEFAULT: 0.45, FAST: 0.38}
FIELDS = {
    "heuristics": ("weighted", "taker", "counter", "high", "low"),
    "weak": ("greedy", "blocker", "patient", "minimal", "random"),
}
SEED = 90_417  # not a seed any tuning used


def opponents() -> list[str]:
    """Every built-in except the search itself."""
    return strategies.filtered(search=False)


def measure(
    spec: str, field: tuple[str, ...], players: int, games: int, jobs: int, seed: int = SEED
) -> tuple:
    """(wins, games, ci_low, ci_high) of ``spec`` in one focused tournament against ``field``:
    the reports' interval (the games of a deal at a table are one independent unit)."""
    t = Tournament([spec, *field], players=players, games=games, seed=seed, focus=spec)
    with tempfile.TemporaryDirectory() as tmp:
        summ = reports.summary(t.run(n_jobs=jobs, out=tmp))
    row = summ[summ["strategy"] == t.focus].iloc[0]
    return int(row["wins"]), int(row["seats"]), float(row["ci_low"]), float(row["ci_high"])


def decision_ms(spec: str, games: int = 8, seed: int = SEED) -> tuple[float, float]:
    """Mean (wall, CPU) milliseconds of a searched decision (more than one legal action) on
    one core, over ``games`` games against the strong heuristics, after one warm-up decision."""
    me = strategies.get(spec)
    spent, cpu, decisions = 0.0, 0.0, 0
    original = me.choose

    def timed(view, legal, rng):
        nonlocal spent, cpu, decisions
        t0, c0 = time.perf_counter(), time.thread_time()
        action = original(view, legal, rng)
        if len(legal) > 1:
            spent += time.perf_counter() - t0
            cpu += time.thread_time() - c0
            decisions += 1
        return action

    strategies.play_game([me, "weighted", "taker", "counter"], seed=seed - 1)  # warm-up
    me.choose = timed  # play_game seats this instance as given (no fresh copy)
    for g in range(games):
        table = [me, "weighted", "taker", "counter"]
        strategies.play_game(table[g % 4 :] + table[: g % 4], seed=seed + g)
    return 1000 * spent / max(decisions, 1), 1000 * cpu / max(decisions, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=None, help=f"the searcher (default {DEFAULT!r})")
    ap.add_argument("--fast", action="store_true", help=f"play {FAST!r}")
    ap.add_argument("--games", type=int, default=600, help="games per line (rounded up)")
    ap.add_argument("--players", default="4", help='table sizes, e.g. "3,4,5,6"')
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-fields", action="store_true", help="single built-ins only")
    ap.add_argument("--opponents", default=None, help="single built-ins to play (default: all)")
    ap.add_argument("--no-singles", action="store_true", help="mixed fields only")
    ap.add_argument(
        "--seed",
        type=int,
        default=SEED,
        help=f"tournament seed (default {SEED}, the published one; tune on others)",
    )
    ap.add_argument("--no-time", action="store_true", help="skip the decision time")
    args = ap.parse_args()
    spec = args.spec or (FAST if args.fast else DEFAULT)
    floor = FLOORS.get(spec)
    singles = args.opponents.split(",") if args.opponents else opponents()
    lines = [] if args.no_singles else [(o, (o,)) for o in singles]
    if not args.no_fields:
        lines += [(f"field {name}", field) for name, field in FIELDS.items()]
    print(f"{spec}: one seat, duplicate deals, balanced seating, seed {args.seed}")
    print("| players | opponents | win rate | 95% interval | fair | floor |")
    print("|---|---|---|---|---|---|")
    t0 = time.perf_counter()
    for k in parse_players(args.players):
        for name, field in lines:
            label = name if len(field) > 1 else f"{k - 1}x {field[0]}"
            wins, n, lo, hi = measure(spec, field, k, args.games, args.jobs, args.seed)
            ok = ""
            if floor is not None and k == 4 and len(field) == 1:
                ok = "ok" if wins / n >= floor else "BELOW"
            print(f"| {k} | {label} | {100 * wins / n:.1f}% | [{100 * float(lo):.1f}, "
                  f"{100 * float(hi):.1f}] | {100 / k:.0f}% | {ok} |", flush=True)  # fmt: skip
    if args.no_time:
        return
    wall, cpu = decision_ms(spec)
    print(f"\n{time.perf_counter() - t0:.0f} s; a searched decision takes {wall:.1f} ms wall "
          f"clock ({cpu:.1f} ms CPU) on one core")  # fmt: skip


if __name__ == "__main__":
    main()
