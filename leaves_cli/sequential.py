"""Runs that decide their own length: ``leaves gauntlet --sequential`` and ``leaves tournament
--precision``.

Both play a run stage by stage in the same ``--out`` (``Tournament.with_stages``: every chunk
already played is kept), ask ``reports`` for the estimates after each stage and let
``tournaments.sequential`` decide whether to stop and how many deals the next stage adds.
Every decision is made from results that depend only on the seed, so where a run stops never
depends on ``--jobs``. (The command line is the layer that may import both.)

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np

from .errors import CLIError

__all__ = [
    "PROBE_GAMES", "half_width", "played_alike", "probe_games", "run_precision",
    "run_sequential", "sequential_entry",
]  # fmt: skip

SEQUENTIAL_MAX_GAMES = 200_000
"""The default cap of a sequential gauntlet: games per side."""

PRECISION_MAX_GAMES = 20_000_000
"""The default cap of a precision tournament: games in all."""


def _paired(result: Any) -> dict[str, Any]:
    """The gauntlet's paired difference (strategy - baseline per duplicate set), with the side
    that played nothing valid (``void``: its label, or None; ``void_side``) and whether no
    game was won at all (``nobody_won``: by either side or the field)."""
    import reports
    from reports.clusters import seat_sums
    from reports.gauntlet import design
    from reports.loading import as_run
    from reports.significance import paired

    table = reports.gauntlet(result)
    run = as_run(result.out)
    d = design(run)
    g = run.games
    a, b = g.labels.index(d["strategy"]), g.labels.index(d["baseline"])
    r = paired(g, seat_sums(g, g.n_strategies), a, b)
    if r is None:  # pragma: no cover - a gauntlet's two sides always share their deals
        raise CLIError("the gauntlet's strategy and baseline never played the same deals")
    return {**r, "void": void_side(table), "nobody_won": bool(table.attrs.get("nobody_won"))}


def _write_manifest_entry(out: Path, key: str, value: dict[str, Any]) -> None:
    """Add ``value`` under ``key`` to the run's manifest (a report can then say it too)."""
    from tournaments import storage

    manifest = storage.read_manifest(out)
    manifest[key] = value
    storage.write_manifest(out, manifest)


def run_sequential(
    g: Any,
    out: Path,
    run: Callable[..., Any],
    test: Any,
    max_games: int,
    log: Callable[[str], None],
    resume: bool = False,
) -> tuple[Any, dict[str, Any], dict[str, float]]:
    """Play the gauntlet ``g`` in batches until the sequential ``test``
    (``tournaments.sequential.Sequential``) decides or ``max_games`` per side are played:
    (result, the test's record, the last paired estimate).

    ``run(t, out, resume)`` plays one stage (``resume`` after the first). The first batch is
    ``g`` as asked; each next one grows the deals by ``tournaments.sequential.GROWTH``, so the
    batches depend only on the seed. After every batch the manifest's ``sequential`` entry
    says where the test stands, so ``resume`` continues from the batch the run was in (the
    same batches and decisions as a run never interrupted); a finished test is not run again.
    """
    from tournaments.sequential import UNDECIDED, run_batches

    per_deal = g.schedule.seats_per_set // 2  # games per side per deal of every table
    stages = list(g.schedule.stages)
    max_deals = max(stages[-1], max_games // per_deal)
    if resume:
        stages, record = _resume_point(out, max_deals)
        if record is not None and record.get("finished"):
            result = run(g.with_stages(stages), out, True)
            return result, record, _paired(result)
        test.batches = int(record["batches"]) if record is not None else 0
    state: dict[str, Any] = {}

    def estimate(st: list[int]) -> dict[str, float]:
        t = g.with_stages(st)
        state["result"], state["games"] = run(t, out, resume or len(st) > 1), t.games_per_side
        r = _paired(state["result"])
        state["void"], state["nobody_won"] = r.get("void"), bool(r.get("nobody_won"))
        return weighable(r)

    units = getattr(g, "units", "games")  # the game's words: "rounds" of a game in rounds

    def on_batch(st: list[int], r: dict[str, float], final: bool) -> None:
        head = f"batch {test.batches}: {state['games']:,} {units} per side"
        if state["void"] is not None:
            log(f"{head}, nothing valid played: every one of {state['void']}'s {units} ended "
                "by a forfeit (its own or the field's), so the test stops here, undecided")  # fmt: skip
        elif state["nobody_won"]:  # ``void`` below stopped it, yet nothing was forfeited
            test.decision = UNDECIDED  # not run_batches' NOTHING_VALID: the test weighed nothing
            log(f"{head}, none won by either side or the field: {NO_WINS}, so the test stops "
                "here, undecided")  # fmt: skip
        else:
            log(batch_line(test, state["games"], r, units))
        names = {**g.gauntlet, "units": units}
        state["record"] = sequential_entry(test, state["games"], r, final, names)
        _write_manifest_entry(out, "sequential", state["record"])

    _, r = run_batches(stages, max_deals, estimate, test, on_batch,
                       void=lambda: state["void"] is not None or state["nobody_won"])  # fmt: skip
    return state["result"], state["record"], r


PROBE_GAMES = 200
"""Games per side at most that a new sequential gauntlet of a strategy against its own copy
plays first (``played_alike``): the first of its own games, enough to see a copy that plays
otherwise, few enough to cost little. In whole deals of every table (``probe_games``): one
such deal where it alone holds more."""


def probe_games(g: Any) -> int:
    """Games per side of the probe of the new gauntlet ``g``: its first ``PROBE_GAMES`` at
    most, rounded down to whole deals of every table (a deal's seatings at each of the
    strategy's tables), since a gauntlet rounds its games up to them (at 3 players 200 would
    play 201); one deal of every table where that alone holds more."""
    per_deal = sum(g.schedule.set_sizes) // 2  # the strategy's tables are half of them
    return min(g.games_per_side, max(1, PROBE_GAMES // per_deal) * per_deal)


def played_alike(probe: Any) -> int | None:
    """The games per side of ``probe`` (the first deals of a gauntlet of a strategy against
    its own copy) where the copy ended every game as the strategy did, on the same deal in the
    same seats (the same results, lengths and all); None where a game differed, where none
    was won (the test then stops at its first batch and says why: ``nobody_won_sentence``),
    or where a seated entrant declares that it draws from its seed (``stochastic``: nothing
    is played). The copy's games differ only where something draws from the play seed (its
    own: a game's number is its seed's), so sides that play alike give the sequential test
    no difference to weigh."""
    from reports.loading import as_run

    if any(_stochastic(probe.game, p) for p in probe.payloads):
        return None
    with tempfile.TemporaryDirectory(prefix="leaves-probe-") as tmp:
        games = as_run(probe.run(n_jobs=1, out=Path(tmp) / "probe").out).games
    g = probe.gauntlet
    a, b = games.labels.index(g["strategy"]), games.labels.index(g["baseline"])
    return probe.games_per_side if games.wins().any() and _alike(games, a, b) else None


def _stochastic(game: Any, payload: Any) -> bool:
    """Does the entrant ``payload`` declare, as ``game`` builds it, that it draws from its seed
    (its classifier's ``stochastic``)? One whose classifier cannot be read (a plug-in game
    with no strategy registry plays its entrants by name: there is no strategy to look up)
    declares nothing: the probe then plays, which costs a few games, never a wrong answer."""
    try:
        strategy = game.strategy(payload)
    except ValueError:
        return False
    classifier = getattr(strategy, "classifier", None)
    return isinstance(classifier, dict) and bool(classifier.get("stochastic"))


def _alike(games: Any, a: int, b: int) -> bool:
    """Did ``b`` (the copy) end every game as ``a`` did (``games``: ``reports.data.Games``)?
    Each side's games in order of deal stream, deal and seating (their order in the rows)
    pair one to one; every per-game array must agree, ``b``'s seats read as ``a``'s."""
    from reports.data import ARRAY_FIELDS, DICT_FIELDS

    if games.deal is None:  # pragma: no cover - a gauntlet's rows always hold their deals
        return False
    seats = np.where(games.seats == b, a, games.seats)
    cols = [seats] + [getattr(games, f) for f in ARRAY_FIELDS if f != "seats"]
    cols += [v for f in DICT_FIELDS for v in getattr(games, f).values()]
    rows = np.hstack([np.asarray(c, np.int64).reshape(len(games), -1)
                      for c in cols if c is not None])  # fmt: skip
    sides = []
    for code in (a, b):
        mine = np.flatnonzero((games.seats == code).any(axis=1))
        stream = games.table[mine] if games.table is not None else 0 * mine
        sides.append(rows[mine[np.lexsort((mine, games.deal[mine], stream))]])
    return sides[0].shape == sides[1].shape and bool((sides[0] == sides[1]).all())


def void_side(table: Any) -> str | None:
    """The side (strategy or baseline label) every game of which ended by a forfeit, or
    None while both sides have valid games to compare (``table``: ``reports.gauntlet``'s)."""
    from reports.gauntlet import nothing_valid

    r = table.iloc[0]
    if not nothing_valid(r):
        return None
    return str(r["strategy"] if int(r["forfeited"]) >= int(r["games"]) else r["baseline"])


def has_interval(r: dict[str, float]) -> bool:
    """Does the paired estimate ``r`` come with a 95% interval (the reports state none where
    too few deals leave its variance unreliable, ``reports.clusters.MIN_DF``, nor where its
    duplicate sets show no spread, ``no_spread_sets``)?"""
    return math.isfinite(r["ci_low"]) and math.isfinite(r["ci_high"])


def no_spread_sets(r: dict[str, float]) -> int:
    """The duplicate sets of a paired estimate ``r`` that all gave the same difference, on
    deals enough for an interval (``reports.clusters.Estimates.flat``: no interval, yet a
    p-value); 0 where it has an interval or too few deals."""
    from reports.numbers import flat_sets

    return flat_sets(r["ci_low"], r["ci_high"], r.get("p_value", math.nan),
                     r.get("units", math.nan))  # fmt: skip


def weighable(r: dict[str, float]) -> dict[str, float]:
    """The estimate the test weighs: without an interval on too few deals its standard error
    is no variance estimate to trust (one deal has none at all), so the test gets none (NaN),
    takes no decision and plays on, up to --max-games at most (then undecided); nor where no
    game was won (``nobody_won``: every difference is 0 whichever strategy is better). Sets
    that all gave the same difference are weighed with a variance of zero: an LLR of N/2 for
    N sets above half the margin, -N/2 below it (the sign bound either way:
    ``tournaments.sequential.llr``)."""
    if r.get("nobody_won"):
        return {**r, "se": math.nan}
    if has_interval(r):
        return r
    return {**r, "se": 0.0 if no_spread_sets(r) else math.nan}


def batch_line(test: Any, games: int, r: dict[str, float], units: str = "games") -> str:
    """The progress line of a batch: the estimate with its interval (two decimals, more where
    ``reports.numbers.apart_digits`` needs them, as the final sentence) and where the test
    stands (where the sets showed no spread, the LLR with that reason), or in words that the
    deals so far give neither; ``units`` are the game's words for what a side plays
    ("rounds" of a game played in rounds)."""
    from reports.gauntlet import weighed  # the LLR and bounds in the final sentence's words
    from reports.numbers import (
        TOO_FEW,
        apart_digits,
        counted,
        difference_interval,
        fixed,
        in_percentage_points,
        one_stratum,
    )

    k = apart_digits(r["ci_low"], r["ci_high"], 2)  # no bound other than 0 written 0, either side
    diff = f"difference {in_percentage_points(fixed(100 * r['diff'], k, '+'))}"
    head = f"batch {test.batches}: {games:,} {units} per side, {diff}"
    sets = no_spread_sets(r)
    alike = one_stratum(r.get("units", math.nan), r.get("df", math.nan))  # one table's sets
    said, low, high = weighed(test.llr, test.lower, test.upper, sets, alike)
    stop = f"(stop at {low} or {high})"
    if sets:  # no interval to show: the LLR's words say why
        return f"{head} over {counted(sets, 'duplicate set')}, {said} {stop}"
    if not has_interval(r):
        return f"{head} ({TOO_FEW}), so no test yet"
    span = difference_interval(r["ci_low"], r["ci_high"], digits=k)
    return f"{head} {span}, {said} {stop}"


def sequential_entry(
    test: Any, games: int, r: dict[str, float], final: bool, names: dict[str, Any]
) -> dict[str, Any]:
    """The manifest's ``sequential`` entry after a batch: the test's record, whether it is
    finished (RUNNING while batches remain), the estimate in percentage points and, once
    finished, the
    sentence the command and the report say (``reports.gauntlet.sequential_sentence``)."""
    from reports.gauntlet import sequential_sentence
    from tournaments.sequential import RUNNING, finite

    rec = test.record(games)
    rec["finished"] = bool(final)
    if not final:
        rec["decision"] = RUNNING
    for key, name in (("diff", "difference"), ("ci_low", "ci_low"), ("ci_high", "ci_high")):
        rec[name] = finite(100 * float(r[key]))
    if final and r.get("nobody_won"):
        rec["sentence"] = nobody_won_sentence(rec, names)
    elif final:
        row = {"strategy": names["strategy"], "baseline": names["baseline"], "games": games,
               "diff": r["diff"], "diff_ci_low": r["ci_low"], "diff_ci_high": r["ci_high"],
               "p_value": r.get("p_value", math.nan), "deals": r.get("units", 0),
               **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip
        rec["sentence"] = sequential_sentence(row, names.get("units", "games"))
    return rec


NO_WINS = "every duplicate set's difference is 0 whichever strategy is better"
"""What a gauntlet in which no game was won gives its sequential test: nothing to weigh."""


def nobody_won_sentence(rec: dict[str, Any], names: dict[str, Any]) -> str:
    """The decision of a sequential gauntlet in which no game was won (by either side or the
    field), in words: undecided, the test having weighed nothing (``NO_WINS``), never a
    decision read off differences that are 0 whatever the strategies; ``rec`` is its record
    (``sequential_entry``), ``names`` the gauntlet's strategy, baseline and units."""
    from reports.numbers import in_percentage_points

    units, margin = names.get("units", "games"), in_percentage_points(f"{rec['margin']:g}")
    return (f"Undecided whether {names['strategy']} is better than {names['baseline']}: none "
            f"of the {int(rec['games_per_side']):,} {units} per side was won, by either side "
            f"or the field, so {NO_WINS}; the sequential test (0 against +{margin}) weighed "
            f"nothing and stopped after batch {int(rec['batches'])}.")  # fmt: skip


def _resume_point(out: Path, max_deals: int) -> tuple[list[int], dict[str, Any] | None]:
    """Where a sequential gauntlet in ``out`` stands: the stages to play next (the batch it
    was in, or the next one when it stopped between batches) and its last record (None
    before its first batch ended)."""
    from tournaments import storage
    from tournaments.sequential import next_stage

    manifest = storage.read_manifest(out)
    stages = [int(x) for x in manifest["spec"]["deal_stages"]]
    record = manifest.get("sequential")
    done = int(record["batches"]) if isinstance(record, dict) else 0
    if isinstance(record, dict) and record.get("finished"):
        return stages, record
    if done == len(stages):  # stopped between batches: the next one, as it would have come
        nxt = next_stage(stages[-1], max_deals)
        if nxt is not None:
            stages.append(nxt)
    elif done != len(stages) - 1:
        from reports.numbers import counted

        raise CLIError(f"cannot resume {out}: its sequential test recorded "
                       f"{counted(done, 'batch')} but the run holds {len(stages)}",
                       usage=True)  # fmt: skip
    return stages, record if isinstance(record, dict) else None


def widest_half_width(result: Any) -> float:
    """The widest 95% interval half-width of any strategy's win rate, in percentage points,
    over the strategies with a valid game (``reports.tables.ranked``: one every game of which
    ended by a forfeit has no interval, and more games give it none); NaN while the run is
    too small for an interval, or none has a valid game. A half-width is the farther side
    from the rate: a Wilson interval is lopsided near 0% or 100% ([0.0, 33.9] reaches 33.9
    points above 0.0%), and ``+-POINTS`` promises at most POINTS on either side."""
    from reports.tables import ranked, summary

    s = summary(result.out)
    s = s[s["strategy"].isin(ranked(s))]
    rate, low, high = (s[c].to_numpy(float) for c in ("win_rate", "ci_low", "ci_high"))
    half = np.maximum(high - rate, rate - low)
    return float(100 * half.max()) if half.size and np.isfinite(half).all() else math.nan


def half_width(widest: float, target: float) -> str:
    """A half-width in percentage points set against its --precision ``target``: two
    decimals, more (``reports.numbers.level_digits``) while it would read as the target it is
    not ('1.004' against 1, never '1.00', which reads as met)."""
    from reports.numbers import fixed, in_percentage_points, level_digits

    digits = level_digits((widest,), target)
    return in_percentage_points(fixed(widest, digits))


def run_precision(
    t: Any,
    out: Path,
    run: Callable[..., Any],
    target: float,
    max_games: int,
    log: Callable[[str], None],
) -> tuple[Any, Any, float]:
    """Play the tournament ``t`` stage by stage until every strategy's 95% half-width is at
    most ``target`` percentage points or ``max_games`` are played: (result, the last stage's
    tournament, the widest half-width). The next stage comes from the current widths
    (``tournaments.sequential.next_precision_stage``), so it depends only on the seed; a run
    whose every unit ended by a forfeit stops (no stage would give it an interval)."""
    from tournaments.run_state import run_state
    from tournaments.sequential import next_precision_stage

    stages = list(t.schedule.stages)
    max_deals = max(stages[-1], max_games // t.schedule.seats_per_set)
    while True:
        grown = t.with_stages(stages)
        result = run(grown, out, len(stages) > 1)
        widest = widest_half_width(result)
        state = run_state(out)
        if state is not None and state.nothing_valid:  # every unit forfeited: none narrows
            log(f"stage {len(stages)}: {grown.n_games:,} {grown.units}, nothing valid played: "
                "every one ended by a forfeit, so the run stops here")  # fmt: skip
            break
        shown = "unknown (too few deals)" if math.isnan(widest) else half_width(widest, target)
        log(f"stage {len(stages)}: {grown.n_games:,} {grown.units}, widest half-width {shown}")
        if not math.isnan(widest) and widest <= target:
            break
        nxt = next_precision_stage(stages[-1], widest, target, max_deals)
        if nxt is None:
            break
        stages.append(nxt)
    record = {
        "target": target,
        "widest_half_width": None if math.isnan(widest) else widest,
        "reached": bool(not math.isnan(widest) and widest <= target),
        "n_games": grown.n_games,
        "stages": len(stages),
    }
    _write_manifest_entry(out, "precision", record)
    return result, grown, widest


def echo_err(line: str) -> None:
    """A progress line on stderr."""
    click.echo(line, err=True)
