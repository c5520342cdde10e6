"""Match tables (a game's matches, of games or of rounds): match wins (shared wins count as
wins), points per game, match length, final score distributions.

Match winners are recomputed from the final totals by the rule the game declares (the best
total in its direction wins, players tied for it share the win; a match holding a forfeited
game has no winner, as a forfeited game has none), so they do not depend on how the runner
encodes them. Totals come from the matches table when given, else from summing the
per-game ``score_i`` columns. Column names follow the declared units (``points_per_game``,
``mean_match_games``; in rounds: ``points_per_round``, ``mean_match_rounds``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from gamekit.matches import MAX_GAMES
from tournaments.aggregates import stopped_at_cap
from tournaments.declaration import Declaration, plural

from .clusters import clusters, ratio_estimates, table_sums, wilson_t
from .data import ReportError, Run
from .loading import as_run


def match_arrays(run: Run) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(seats (M, S) codes, totals (M, S) with -1 for empty, games (M,), n_players (M,))."""
    g = run.games
    if g.match is None:
        raise ReportError("not an expert run (of matches): the games have no 'match' column")
    ids, first = np.unique(g.match, return_index=True)
    seats = g.seats[first].astype(np.int64)
    n_players = g.n_players[first].astype(np.int64)
    width = seats.shape[1]
    m = run.matches
    if m is not None and {"match", "games", "total_0"} <= set(m.columns):
        m = m.set_index("match").reindex(ids)
        if m.index.hasnans or m["games"].isna().any():
            raise ReportError("matches table and games disagree on match ids")
        totals = np.stack(
            [
                m[f"total_{s}"].fillna(-1).to_numpy(dtype=np.int64)
                if f"total_{s}" in m.columns
                else np.full(len(ids), -1)
                for s in range(width)
            ],
            axis=1,
        )
        games = m["games"].to_numpy(dtype=np.int64)
    else:
        if g.scores is None:
            raise ReportError("expert run without matches table or score_i columns")
        inv = np.searchsorted(ids, g.match)
        totals = np.stack(
            [
                np.bincount(
                    inv, weights=np.where(g.seats[:, s] >= 0, g.scores[:, s], 0), minlength=len(ids)
                )  # fmt: skip
                for s in range(g.scores.shape[1])
            ],
            axis=1,
        ).astype(np.int64)
        totals = np.pad(totals, ((0, 0), (0, width - totals.shape[1])))
        games = np.bincount(inv, minlength=len(ids))
    totals = np.where(seats >= 0, totals, -1)
    return seats, totals, games, n_players


def match_winners(run: Run, seats: np.ndarray, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Who won each match (``match_arrays``' seats and totals): bool (M, S), the best total
    in the declared direction, tied seats sharing it, nobody in a match holding a forfeited
    game; and which matches held one, bool (M,)."""
    g = run.games
    occupied = seats >= 0
    sign = -1 if g.declaration.higher_is_better else 1  # the best total is the lowest signed one
    low = np.where(occupied, sign * totals, np.iinfo(np.int64).max).min(axis=1, keepdims=True)
    ids, inv = np.unique(g.match, return_inverse=True)
    void = np.bincount(inv, weights=g.forfeited, minlength=len(ids)) > 0
    return occupied & (sign * totals == low) & ~void[:, None], void


def _per_seat(seats: np.ndarray, k: int, weights) -> np.ndarray:
    codes = np.where(seats < 0, k, seats).ravel()
    w = np.broadcast_to(weights, seats.shape).ravel().astype(float)
    return np.bincount(codes, weights=w, minlength=k + 1)[:k]


def _per_match(seats: np.ndarray, k: int, weights) -> np.ndarray:
    """Per strategy, ``weights`` (M,) summed over the matches it sat in, each match once
    however many of its seats it held (``_per_seat`` counts a match at each)."""
    n, width = seats.shape
    pairs = np.repeat(np.arange(n, dtype=np.int64), width) * k + seats.ravel()
    pairs = np.unique(pairs[seats.ravel() >= 0])
    w = np.broadcast_to(np.asarray(weights, float), (n,))[pairs // k]
    return np.bincount(pairs % k, weights=w, minlength=k)


def expert(data: Any, matches: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per strategy over matches: matches (the matches it sat in, once each), seats (the
    seats it took: its matches, unless it held two seats at a table), match wins (per seat,
    shared wins counted as wins) and how many were shared, matches with a forfeited game
    (won by nobody; once each), match win rate (wins over seats, as ``summary``'s win rate)
    with a 95% interval (over duplicate sets), the rate with shared wins split (a win shared
    by j players counts 1/j), fair share (mean 1/players), mean points per game (in the
    declared direction), mean and median final total, mean match length in games: every
    rate and mean over its seats. Sorted by match win rate."""
    run = as_run(data)
    if matches is not None:
        run = Run(games=run.games, matches=matches, manifest=run.manifest, path=run.path)
    seats, totals, games, n_players = match_arrays(run)
    g = run.games
    d = g.declaration
    k = g.n_strategies
    won, void = match_winners(run, seats, totals)
    n_won = won.sum(axis=1, keepdims=True)
    shared = won & (n_won > 1)
    n_m = _per_seat(seats, k, 1.0)  # its seats: what each rate and mean is over
    wins = _per_seat(seats, k, won)
    medians = [
        float(np.median(totals[seats == c])) if (seats == c).any() else np.nan for c in range(k)
    ]
    cl = clusters(g)  # a match's games share its table and deal: one duplicate set
    match_cluster = cl.of_game[np.unique(g.match, return_index=True)[1]]
    lo, hi = wilson_t(ratio_estimates(table_sums(seats, won, match_cluster, k, cl.n), cl))
    with np.errstate(invalid="ignore", divide="ignore"):  # 0/0: a strategy without matches
        if g.scores is not None:
            played = g.seats >= 0
            sc = np.where(played, g.scores, 0)
            codes = np.where(played, g.seats, k).astype(np.int64).ravel()
            pts = np.bincount(codes, weights=sc.ravel().astype(float), minlength=k + 1)[:k]
            ppg = pts / np.bincount(codes, minlength=k + 1)[:k]
        else:
            ppg = _per_seat(seats, k, totals) / _per_seat(seats, k, games[:, None])
        df = pd.DataFrame(
            {
                "strategy": list(g.labels),
                "matches": _per_match(seats, k, 1.0).astype(np.int64),
                "seats": n_m.astype(np.int64),
                "match_wins": wins.astype(np.int64),
                "shared_wins": _per_seat(seats, k, shared).astype(np.int64),
                "forfeited_matches": _per_match(seats, k, void).astype(np.int64),
                "match_win_rate": wins / n_m,
                "match_win_rate_split": _per_seat(seats, k, won / np.maximum(n_won, 1)) / n_m,
                "ci_low": lo,
                "ci_high": hi,
                "fair_share": _per_seat(seats, k, 1.0 / n_players[:, None]) / n_m,
                f"points_per_{d.unit}": ppg,
                "mean_final_total": _per_seat(seats, k, totals) / n_m,
                "median_final_total": medians,
                f"mean_match_{d.units()}": _per_seat(seats, k, games[:, None]) / n_m,
            }
        )
    df = df[df["matches"] > 0]
    out = df.sort_values(["match_win_rate", "strategy"], ascending=[False, True])
    out = out.reset_index(drop=True)
    out.attrs["measured"] = match_words(d)  # the page's note on the table: the game's word
    out.attrs["kind"] = KIND  # what the page reads it as, whatever the game names its file
    return in_match_words(out, d)


KIND = "expert"
"""What the match table is to the page (``reports.page.key_rows``): its columns and rates
read as every game's match table, whatever ``Declaration.match_name`` names its file."""


def in_match_words(table: pd.DataFrame, d: Declaration) -> pd.DataFrame:
    """``table`` marked with the game's word for a match (``match_unit``) and ``match_words``,
    for the page to head the table's key columns in the game's words ('game_win_rate') and
    say beside the full table, whose columns are the CSV's, what a match is in them."""
    table.attrs["match_unit"] = d.match_unit
    table.attrs["match_words"] = match_words(d)
    return table


def match_words(d: Declaration) -> str:
    """What a match of the tables' columns is in the game's own words, where the game calls
    it otherwise ('a match in these columns is a game of rounds'), for the page to say beside
    the table; '' where the game calls it a match. The columns keep the one name every game's
    tables, ``tournaments.result``'s summary and the findings read them by."""
    if d.match_unit == "match":
        return ""
    return f"a match in these columns is a {d.match_unit} of {d.units()}"


def expert_scores(data: Any, matches: pd.DataFrame | None = None) -> pd.DataFrame:
    """Distribution of final match totals per strategy (long: strategy, total, matches)."""
    run = as_run(data)
    if matches is not None:
        run = Run(games=run.games, matches=matches, manifest=run.manifest, path=run.path)
    seats, totals, _, _ = match_arrays(run)
    occ = seats >= 0
    df = pd.DataFrame({"code": seats[occ], "total": totals[occ]})
    out = df.value_counts(["code", "total"]).rename("matches").reset_index()
    out.insert(0, "strategy", np.asarray(run.games.labels, dtype=object)[out["code"]])
    return out.drop(columns="code").sort_values(["strategy", "total"]).reset_index(drop=True)


def expert_lengths(data: Any, matches: pd.DataFrame | None = None) -> pd.DataFrame:
    """Match length in games (or the declared unit, e.g. rounds) by player count: matches,
    mean, median, p10, p90, max, and where some match to a target stopped at the cap on games
    before anyone reached it, ``stopped_at_cap`` (``capped_words`` says what that means);
    ``attrs["measured"]`` says in what ('match length in games', 'game length in rounds'),
    for the page to say beside the table."""
    run = as_run(data)
    if matches is not None:
        run = Run(games=run.games, matches=matches, manifest=run.manifest, path=run.path)
    _, totals, games, n_players = match_arrays(run)
    df = pd.DataFrame(
        {"n_players": n_players, "games": games, "capped": _capped(run, totals, games)}
    )
    agg = df.groupby("n_players").agg(
        matches=("games", "size"),
        mean=("games", "mean"),
        median=("games", "median"),
        p10=("games", lambda x: x.quantile(0.1)),
        p90=("games", lambda x: x.quantile(0.9)),
        max=("games", "max"),
        stopped_at_cap=("capped", "sum"),
    )
    out = agg.reset_index()
    if not out["stopped_at_cap"].any():  # none did (or the run has no target): nothing to say
        out = out.drop(columns="stopped_at_cap")
    d = run.games.declaration
    measured = f"{d.match_unit} length in {d.units()}: mean, median, p10, p90, max"
    out.attrs["measured"] = "; ".join(filter(None, [measured, match_words(d)]))
    return in_match_words(out, d)


def _capped(run: Run, totals: np.ndarray, games: np.ndarray) -> np.ndarray:
    """bool (M,): the matches of a run to a target (its manifest's ``target``; none for one of
    a set number of games) that stopped at the cap on games before anyone reached it, by the
    runner's rule (``tournaments.aggregates.stopped_at_cap``: the best total then won)."""
    spec = run.manifest.get("spec") if isinstance(run.manifest, dict) else None
    target = spec.get("target") if isinstance(spec, dict) and not spec.get("rounds") else None
    if not isinstance(target, int) or isinstance(target, bool):
        return np.zeros(len(games), bool)
    return np.asarray(stopped_at_cap(games, totals.max(axis=1, initial=-1), target), bool)


def capped_words(lengths: pd.DataFrame | None, d: Declaration) -> str:
    """Where some matches stopped at the cap (``expert_lengths``' ``stopped_at_cap``), how many
    and what that means for the match table: their winner is the best total then, and their
    final totals, short of the target, are in its totals with the rest; "" where none did."""
    if lengths is None or "stopped_at_cap" not in lengths:
        return ""
    n, of = int(lengths["stopped_at_cap"].sum()), int(lengths["matches"].sum())
    if not n:
        return ""
    best = "highest" if d.higher_is_better else "lowest"
    each, them = ("it", "it") if n == 1 else ("each", "them")
    return (f"{n:,} of {of:,} {plural(d.match_unit)} stopped at the cap of {MAX_GAMES} "
            f"{d.units()} before anyone reached the target: {each} was won by the {best} total "
            f"then, and the {d.match_name} table's wins and final totals count {them}, their "
            "totals short of the target.")  # fmt: skip
