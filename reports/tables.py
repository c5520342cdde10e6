"""The per-run tables: summary per strategy, head to head, seat advantage, game length.

Every function takes anything :func:`reports.loading.as_games` accepts (a games DataFrame, a run
directory, a results object, a :class:`Games`) and returns a small DataFrame. All counting is a
few ``np.bincount`` passes over the seat columns; nothing loops over games in Python.

Counting convention: a strategy's ``games`` counts the games it sat in, once each, and its
``seats`` the seats it occupied (a strategy seated twice at one table has one game and two
seats there); a win rate is per seat (wins over seats), so the strategies' wins sum to the
number of games won (each shared win counting for every seat that shares it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .clusters import Accumulator, Estimates, clusters, ratio_estimates, seat_sums, wilson_t
from .data import BLOCK, MISSING, Games, ReportError
from .loading import as_games
from .stats import hist_moments, hist_quantiles

QUANTILES = (0.10, 0.25, 0.50, 0.75, 0.90, 0.99)
Q_NAMES = ("p10", "p25", "median", "p75", "p90", "p99")


def _flat_codes(g: Games) -> np.ndarray:
    """Seat codes flattened (N*S,), empty seats mapped to a dump bin K."""
    k = g.n_strategies
    codes = g.seats.ravel().astype(np.int64)
    codes[codes < 0] = k
    return codes


def _bincount_by_code(g: Games, weights: np.ndarray | None = None,
                      codes: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Sum ``weights`` (broadcastable to (N, S)) per strategy code over occupied seats."""
    k = g.n_strategies
    codes = _flat_codes(g) if codes is None else codes
    w = None if weights is None else np.broadcast_to(weights, g.seats.shape).ravel()
    return np.bincount(codes, weights=w, minlength=k + 1)[:k]


def _first_seats(g: Games) -> np.ndarray | bool:
    """bool (N, S): each strategy's first seat at its table (and every empty one), so that a
    count over these seats counts a strategy's games once each, however many seats it holds
    there; True where no strategy holds two seats at any table (every seat is a game)."""
    by_seat = np.ascontiguousarray(g.seats.T)  # a row per seat: contiguous compares
    first = np.ones(by_seat.shape, bool)
    for s in range(1, len(by_seat)):
        for before in range(s):
            first[s] &= by_seat[s] != by_seat[before]
    first |= by_seat < 0
    return True if first.all() else first.T


def _summary_counts(g: Games) -> np.ndarray:
    """(11, K): seats, games, wins, fair-share wins, rank value when losing (sum, count),
    unfinished games, forfeits, win shares (a win shared by j players counts 1/j), games not
    ended by a forfeit and par wins (each game's wins shared among its seats) per strategy,
    over one block. A strategy's games are counted once per game however many seats it
    holds there (``_first_seats``); its wins, fair shares and values once per seat.

    Counts of seats that meet a condition bin the codes of those seats only (exact, and
    several times faster than weights of 0 and 1 over every seat)."""
    k = g.n_strategies
    codes = _flat_codes(g)

    def per(weights=None):
        return _bincount_by_code(g, weights, codes)

    def where(mask: np.ndarray) -> np.ndarray:  # seats (N, S) where mask (broadcastable) holds
        at = np.broadcast_to(mask, g.seats.shape).ravel()
        return np.bincount(codes[at], minlength=k + 1)[:k].astype(np.float64)

    win, first = g.wins(), _first_seats(g)
    lost = ~win & (g.values != MISSING) & ~g.forfeited[:, None]  # a forfeit measures no play
    if (g.forfeit_seat >= 0).any() or not g.forfeited.any():
        forfeit_w = np.arange(g.seats.shape[1])[None, :] == g.forfeit_seat[:, None]
    else:  # forfeit known per game only: count it for everyone at that table, once each
        forfeit_w = first & g.forfeited[:, None]
    wins = where(win)
    winners = win.sum(axis=1, keepdims=True)
    lost_at = lost.ravel()
    value_sum = np.bincount(
        codes[lost_at], weights=g.values.ravel()[lost_at].astype(np.float64), minlength=k + 1
    )[:k]
    return np.stack(
        [
            per().astype(np.float64),
            per().astype(np.float64) if first is True else where(first),
            wins,
            per((1.0 / np.maximum(g.n_players, 1))[:, None]),
            value_sum,
            where(lost),
            where(first & g.unfinished[:, None]),
            where(forfeit_w),
            wins if winners.max(initial=0) <= 1 else per(win / np.maximum(winners, 1)),
            where(first & ~g.forfeited[:, None]),
            per(winners / np.maximum(g.n_players, 1)[:, None]),
        ]
    )


def rate_estimates(
    g: Games,
    wins: np.ndarray,
    games: np.ndarray,
    group: Callable[[Games, int], np.ndarray] | None = None,
) -> tuple[Estimates, np.ndarray]:
    """Per group: its win rate's stratified cluster-robust estimate (``reports.clusters``: the
    duplicate sets as clusters, the tables as strata) and the design effect, the variance over
    the binomial variance p(1-p)/n (how many games one independent game is worth, inverted).

    Groups are strategies by default; ``group(block, seat)`` may give another code per seat
    (-1: not counted), or several (an (N, m) array: the seat counts once in each), ``wins``/
    ``games`` being the groups' totals.
    """
    est = ratio_estimates(seat_sums(g, len(wins), group), clusters(g))
    return est, est.design_effect(games)


def summary(data: Any) -> pd.DataFrame:
    """Per strategy: games (the games it sat in, once each), wins, win rate (per seat: wins
    over ``seats``, the seats it occupied, its games unless it held two seats at a table)
    with a 95% interval, the fair share (expected win rate if all were equal and every game
    had one winner: mean of 1/players over its seats), ``par`` (the win rate if each game's
    wins went to seats at random: mean of winners/players, below the fair share where
    unfinished games count as nobody's win, above it where tied players share a win; the
    strategies' wins sum to their par wins), the win rate ``relative`` to the fair share, the
    mean rank value when not winning, over games not ended by a forfeit
    (``mean_<rank value>_when_losing``), unfinished and forfeited games (each once).
    Sorted strongest first by ``relative`` (the win-rate order where all play the same table
    sizes): the fair share is set by the schedule's table sizes, while par is a reference and
    no ranking, as a strategy's own play moves it (its games left unfinished lower it). A game
    whose tied players share a win counts it for each of them, and adds ``win_share`` (each
    shared win split).

    The interval counts what is independent (``reports.clusters``): the games of one deal at
    one table are one unit, the tables strata, and the t quantile of the units' degrees of
    freedom widens the interval of a small run (``df``; NaN bounds where the run is too small
    to give one). It covers the true rate 95% of the time at every design size
    (``benchmarks/bench_calibration.py``). ``design_effect`` is its variance over the binomial
    one; ``conservative`` says the tables were dealt once each (pooled per size: too wide).
    ``valid_games`` counts its games not ended by a forfeit: a strategy with none comes last,
    its rate measuring nothing (``ranked``), so it has no interval (NaN bounds, as no count
    of games makes one: ``unmeasured``).
    """
    g = as_games(data)
    acc = g.cache.get("summary_counts")
    if acc is None:
        acc = np.zeros((11, g.n_strategies))
        for b in g.blocks():
            acc += _summary_counts(b)
        g.cache["summary_counts"] = acc
    occupied, games, wins, fair, value_sum, value_n, unfinished, forfeits, shares, valid, par = acc
    d = g.declaration
    cached = g.cache.get("summary_estimates")
    if cached is None:
        cached = rate_estimates(g, wins, occupied)
        g.cache["summary_estimates"] = cached
    est, deff = cached
    lo, hi = np.where(valid > 0, wilson_t(est), np.nan)  # none valid: a rate of nothing
    with np.errstate(invalid="ignore", divide="ignore"):
        df = pd.DataFrame(
            {
                "strategy": list(g.labels),
                "games": games.astype(np.int64),
                "wins": wins.astype(np.int64),
                "win_rate": wins / occupied,
                "ci_low": lo,
                "ci_high": hi,
                "seats": occupied.astype(np.int64),
                "fair_share": fair / occupied,
                "par": par / occupied,
                "relative": (wins / occupied) / (fair / occupied),
                f"mean_{d.rank_value}_when_losing": value_sum / value_n,
                "unfinished": unfinished.astype(np.int64),
                "forfeits": forfeits.astype(np.int64),
                "design_effect": deff,
                "deal_sets": est.units.astype(np.int64),
                "df": est.df,
                "conservative": est.conservative,
                "valid_games": valid.astype(np.int64),
            }
        )
        if d.shared_wins:
            df.insert(7, "win_share", shares / occupied)
    df = df[df["games"] > 0].assign(measured=lambda x: x["valid_games"] > 0)
    df = df.sort_values(["measured", "relative", "strategy"], ascending=[False, False, True])
    return df.drop(columns="measured").reset_index(drop=True)


def strength_order(data: Any) -> list[str]:
    """Strategy labels, strongest first (the summary's order)."""
    return summary(data)["strategy"].tolist()


def ranked(summ: pd.DataFrame) -> list[str]:
    """The strategies of a summary that can be ranked, strongest first: those with a valid
    game (one not ended by a forfeit). A strategy every game of which was forfeited has a win
    rate of 0 that measures nothing, so no comparison names it (a summary without the count,
    made by hand: all of them)."""
    if "valid_games" not in summ:
        return summ["strategy"].tolist()
    return summ.loc[summ["valid_games"] > 0, "strategy"].tolist()


def unmeasured(summ: pd.DataFrame) -> list[str]:
    """The strategies of a summary that ``ranked`` leaves out: every game they sat in ended by
    a forfeit, so they have no interval (``reports.numbers.no_valid`` says so)."""
    return [s for s in summ["strategy"] if s not in set(ranked(summ))]


def _ahead_estimates(g: Games) -> tuple[Estimates, np.ndarray, np.ndarray]:
    """Per ordered pair (a * K + b): the rate at which a finishes ahead of b over the seat
    pairs they share, with the reports' interval over duplicate sets; and the (K, K) counts
    of seat pairs shared and of a finishing strictly ahead of b (the winner ahead of all, a
    forfeiting seat behind all)."""
    k = g.n_strategies
    cl = clusters(g)
    acc = Accumulator(k * k, cl.n)
    for start, b in zip(range(0, max(len(g), 1), BLOCK), g.blocks(BLOCK), strict=False):
        cluster = cl.of_game[start : start + len(b)]
        ranks, seats = b.ranks_key(), b.seats.astype(np.int64)
        width = seats.shape[1]
        for i in range(width):
            for j in range(i + 1, width):
                a, o = seats[:, i], seats[:, j]
                ok = (a >= 0) & (o >= 0) & (a != o)
                for me, them, ahead in ((a, o, ranks[:, i] < ranks[:, j]),
                                        (o, a, ranks[:, j] < ranks[:, i])):  # fmt: skip
                    acc.add((me * k + them)[ok] * acc.c + cluster[ok], ahead[ok])
    sums = acc.result()
    ahead, shared = (np.rint(x).astype(np.int64).reshape(k, k) for x in sums.totals())
    return ratio_estimates(sums, cl), shared, ahead


def head_to_head(data: Any, order: list[str] | None = None) -> pd.DataFrame:
    """For each ordered pair of strategies that shared tables: ``shared`` seat pairings, how often
    ``strategy`` finished ahead of ``opponent`` (a better rank value), behind, tied; ``ahead_rate`` =
    ahead / shared with a 95% interval over duplicate sets, and ``score`` = (ahead + ties/2) / shared.
    ahead(A,B) + ahead(B,A) + ties = shared. Rows in ``order`` (default: the summary's).
    Games ended by a forfeit are left out (``Games.finished``), as from the paired comparisons:
    a forfeiter is last by rule, not by play; a run every game of which was forfeited has no
    rows. Long form; see :func:`head_to_head_matrix`."""
    g = as_games(data)
    order = [g.labels.index(s) for s in (order or strength_order(g))]
    g = g.finished()
    est, shared, ahead = _ahead_estimates(g)
    rows = []
    for a in order:
        for b in order:
            if a != b and shared[a, b] > 0:
                rows.append((g.labels[a], g.labels[b], shared[a, b], ahead[a, b], ahead[b, a]))
    df = pd.DataFrame(rows, columns=["strategy", "opponent", "shared", "ahead", "behind"])
    df["ties"] = df["shared"] - df["ahead"] - df["behind"]
    df["ahead_rate"] = df["ahead"] / df["shared"]
    lo, hi = wilson_t(est)
    pair = np.array([g.labels.index(a) * g.n_strategies + g.labels.index(b)
                     for a, b in zip(df["strategy"], df["opponent"], strict=True)], np.int64)  # fmt: skip
    df["ci_low"], df["ci_high"] = lo[pair] if len(pair) else [], hi[pair] if len(pair) else []
    df["score"] = (df["ahead"] + 0.5 * df["ties"]) / df["shared"]
    return df


def head_to_head_matrix(h2h: pd.DataFrame, value: str = "ahead_rate") -> pd.DataFrame:
    """Pivot a :func:`head_to_head` table: rows strategy, columns opponent, in table order."""
    order = list(dict.fromkeys(h2h["strategy"].tolist() + h2h["opponent"].tolist()))
    mat = h2h.pivot(index="strategy", columns="opponent", values=value)
    return mat.reindex(index=order, columns=order)


def completion(data: Any) -> pd.DataFrame:
    """Per table size and over all: games, how many ended by a forfeit (a strategy raised an
    error or broke a rule) and how many stopped unfinished at one of the game's limits, with
    their shares; ``unfinished_won``: the unfinished games that still have a winner (a game
    that scores a stopped round as it stood), so that a report says how they count; where
    the rows tell the game's declared limits apart (``Games.limit``), ``unfinished_at_<i>``:
    those stopped at its i-th limit (``limit_columns``' order)."""
    g = as_games(data)
    limits = len(g.declaration.limit_columns or ())
    won = np.zeros(len(g), bool)
    for start, b in zip(range(0, max(len(g), 1), BLOCK), g.blocks(BLOCK), strict=False):
        won[start : start + len(b)] = b.wins().any(axis=1)
    rows = []
    for n in [*np.unique(g.n_players).tolist(), None]:
        at = np.ones(len(g), bool) if n is None else g.n_players == n
        games, forfeited = int(at.sum()), int(g.forfeited[at].sum())
        stopped = g.unfinished & ~g.forfeited & at
        unfinished = int(stopped.sum())
        rows.append({"n_players": "all" if n is None else int(n), "games": games,
                     "forfeited": forfeited, "unfinished": unfinished,
                     "forfeited_share": forfeited / max(games, 1),
                     "unfinished_share": unfinished / max(games, 1),
                     "unfinished_won": int((stopped & won).sum())})  # fmt: skip
        if g.limit is not None:
            at_limit = np.bincount(g.limit[stopped], minlength=limits)
            rows[-1].update({f"unfinished_at_{i}": int(c) for i, c in enumerate(at_limit)})
    return pd.DataFrame(rows)


def seats(data: Any) -> pd.DataFrame:
    """Win rate by seat position relative to the first player (0 = first to play; seat 0 for a
    game without one), per player count, with 95% intervals clustered by duplicate set as the
    summary's (a deterministic strategy in self-play replays the very same game under every
    seating of a deal, so those games are one observation, not several); ``fair`` = 1 /
    players; ``par``: a position's win rate if position did not matter, the games someone won
    at that size shared among its positions (``fair`` where every game has a winner; less
    where unfinished games count as nobody's win, which every position loses alike: what a
    seat's win rate is to be read against); ``mean_<rank value>``.
    Unfinished games count as games (won as their rows say); games ended by a forfeit are left
    out (``completion`` counts them). A game that declares no first player has no positions to
    count from: ``ReportError`` in one line, as the page leaves the table out."""
    g = as_games(data)
    if not g.declaration.has_first_player:
        raise ReportError(f"no seat table for {g.declaration.title}: it has no first player "
                          "to count seat positions from")  # fmt: skip
    g = g.finished()
    mean_col = f"mean_{g.declaration.rank_value}"
    w = g.seats.shape[1] + 1  # key = players * w + position
    size = (w + 1) * w
    games, wins, csum, cnum = (np.zeros(size) for _ in range(4))
    for b in g.blocks():
        n = b.n_players.astype(np.int64)
        f = b.first.astype(np.int64)
        nn = np.maximum(n, 1)
        games += np.bincount(n * w, minlength=size)
        won = b.wins()
        for s in range(b.seats.shape[1]):
            at = n * w + (s - f) % nn
            wins += np.bincount(at[won[:, s]], minlength=size)
            ok = (s < n) & (b.values[:, s] != MISSING)
            key = np.where(ok, at, size - 1)
            csum += np.bincount(key, weights=np.where(ok, b.values[:, s], 0), minlength=size)
            cnum += np.bincount(key, weights=ok, minlength=size)
    rows = []
    for n in range(1, w):
        for p in range(n):
            if games[n * w]:
                c = csum[n * w + p] / cnum[n * w + p] if cnum[n * w + p] else np.nan
                rows.append((n, p, int(games[n * w]), int(wins[n * w + p]), c))
    df = pd.DataFrame(rows, columns=["n_players", "position", "games", "wins", mean_col])
    df["win_rate"] = df["wins"] / df["games"]

    def position(b: Games, s: int) -> np.ndarray:
        n = b.n_players.astype(np.int64)
        return np.where(s < n, n * w + (s - b.first.astype(np.int64)) % np.maximum(n, 1), -1)

    codes = (df["n_players"] * w + df["position"]).to_numpy(dtype=np.int64)
    group_wins, group_games = np.zeros(size), np.ones(size)
    group_wins[codes], group_games[codes] = df["wins"], df["games"]
    est, deff = rate_estimates(g, group_wins, group_games, position)
    lo, hi = wilson_t(est)  # a position's seats are its size's games, one per game
    df["ci_low"], df["ci_high"] = lo[codes], hi[codes]
    df["fair"] = 1.0 / df["n_players"]
    df["par"] = df.groupby("n_players")["win_rate"].transform("mean")
    df["design_effect"] = deff[codes]
    df["deal_sets"] = est.units[codes].astype(np.int64)
    cols = ["n_players", "position", "games", "wins", "win_rate", "ci_low", "ci_high", "fair",
            "par"]  # fmt: skip
    return df[cols + [mean_col, "design_effect", "deal_sets"]]


def decided(seats: pd.DataFrame) -> pd.Series:
    """Per row of a ``seats`` table: the share of its size's games someone won (``par`` over
    ``fair``), NaN where every game has a winner (within rounding): what the seat's
    words say of the games that count as nobody's win."""
    share = seats["par"] / seats["fair"] if "par" in seats else pd.Series(1.0, seats.index)
    return share.where((share - 1).abs() > 1e-9)


def _length_hists(g: Games) -> list[tuple[str, str, str, np.ndarray]]:
    """(by, group, measure, histogram) of every declared length column for all games, per
    player count and per strategy (games a strategy took part in, once per game)."""
    measures = g.declaration.length_columns
    width = int(max(g.lengths[m].max(initial=0) for m in measures)) + 1
    hists: dict[tuple[str, str, str], np.ndarray] = {}

    def add(key: tuple[str, str, str], values: np.ndarray) -> None:
        h = np.bincount(values, minlength=width)
        hists[key] = hists[key] + h if key in hists else h

    n_values = [int(n) for n in np.unique(g.n_players)]
    for b in g.blocks():
        n_all = b.n_players
        present = [(b.seats == k).any(axis=1) for k in range(g.n_strategies)]
        for measure in measures:
            values = b.lengths[measure]
            v = np.clip(values, 0, None)
            add(("all", "all", measure), v)
            for n in n_values:
                add(("n_players", str(n), measure), v[n_all == n])
            for k, label in enumerate(g.labels):
                add(("strategy", label, measure), v[present[k]])
    order = {"all": 0, "n_players": 1, "strategy": 2}
    keys = sorted(hists, key=lambda t: (measures.index(t[2]), order[t[0]]))
    return [(*key, hists[key]) for key in keys if hists[key].sum() > 0]


def lengths(data: Any) -> pd.DataFrame:
    """Every declared length column (e.g. turns and rounds) per game: count, mean, std,
    min, percentiles (numpy's linear method, exact), max; for all games, by player count and by
    strategy. Long form with a ``measure`` column (the length column) and ``by`` ('all',
    'n_players', 'strategy'). Games ended by a forfeit are left out. ``p10_p90_share``: the
    share of the games whose length lies between p10 and p90 (both included; lengths are whole
    counts), what a sentence of the 10th to 90th percentile range can say exactly: about 80%
    of many games, but of few, or of many tied, it may be any share. A run every game of
    which was forfeited has no rows (``Games.finished``: as on the page)."""
    g = as_games(data).finished()
    hists = _length_hists(g)
    counts = np.stack([h[3] for h in hists]) if hists else np.zeros((0, 1), np.int64)
    n, mean, std = hist_moments(counts)
    q = hist_quantiles(counts, QUANTILES)
    nz = counts > 0
    cols = np.arange(counts.shape[1])
    mins = np.where(nz.any(axis=1), np.where(nz, cols, counts.shape[1]).min(axis=1), -1)
    maxs = np.where(nz, cols, -1).max(axis=1)
    df = pd.DataFrame(
        {
            "by": [h[0] for h in hists],
            "group": [h[1] for h in hists],
            "measure": [h[2] for h in hists],
            "games": n.astype(np.int64),
            "mean": mean,
            "std": std,
            "min": mins,
        }
    )
    for i, name in enumerate(Q_NAMES):
        df[name] = q[:, i]
    df["max"] = maxs
    df["p10_p90_share"] = _share_between(counts, q[:, Q_NAMES.index("p10")],
                                         q[:, Q_NAMES.index("p90")])  # fmt: skip
    return df


def _share_between(counts: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Per histogram row (counts of the whole lengths 0, 1, ...): the share of its values
    from ``low`` to ``high``, both included (the whole lengths from ceil(low) to floor(high);
    a hair of slack for a bound that rounding put a bit off a whole number)."""
    if not len(counts):
        return np.zeros(0)
    cum = np.concatenate([np.zeros((len(counts), 1)), counts.cumsum(axis=1)], axis=1)
    lo = np.clip(np.ceil(low - 1e-9).astype(np.int64), 0, counts.shape[1])
    hi = np.clip(np.floor(high + 1e-9).astype(np.int64) + 1, lo, counts.shape[1])
    rows = np.arange(len(counts))
    return (cum[rows, hi] - cum[rows, lo]) / np.maximum(cum[:, -1], 1)


def length_distribution(data: Any) -> pd.DataFrame:
    """Histogram of every declared length column (long: by, group, measure, value, games), for
    charts: all games and per player count (forfeited games left out: no rows where every
    game was)."""
    g = as_games(data).finished()
    rows = []
    for by, group, measure, hist in _length_hists(g):
        if by == "strategy":
            continue
        nz = np.flatnonzero(hist)
        rows.append(
            pd.DataFrame(
                {"by": by, "group": group, "measure": measure, "value": nz, "games": hist[nz]}
            )
        )
    if not rows:
        return pd.DataFrame(columns=["by", "group", "measure", "value", "games"])
    return pd.concat(rows, ignore_index=True)
