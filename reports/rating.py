"""Plackett-Luce rating from finishing orders, fitted on every game with Hessian intervals.

Finishing order: a better rank value in the game's declared direction (e.g. fewer cards
left, or a higher score); the winner first, a forfeiting seat last. Ties (equal values)
are handled with Breslow's method from survival analysis: each tied player is
a choice out of everyone not strictly ahead of it (the tied rivals included), so a tie counts as
"neither ahead" instead of being broken at random. Without ties this is the exact Plackett-Luce
likelihood (checked against ``choix`` in the tests).

Scale: the likelihood only depends on (table of strategies, seat, set of seats not ahead of it),
so the games are first aggregated into counts of those patterns (a few hash passes), and the
fit runs on the patterns: all games are used, no subsampling, and Newton's method gives the
Hessian, whose inverse (on the sum-zero subspace) gives standard errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .data import Games
from .finding import and_words
from .loading import as_games
from .numbers import apart_digits, fixed, interval, signed_bound
from .patterns import finishing_patterns
from .stats import Z95

__all__ = ["RATING_DIGITS", "choice_patterns", "fit_plackett_luce", "order_note", "rating",
           "rating_digits", "rating_label", "readable"]  # fmt: skip

RATING_DIGITS = 2
"""The decimals of a rating and its bounds wherever they are written (the chart, the page's
table), unless more are needed to read a row's bounds apart (``rating_digits``)."""
RATED = ("rating", "ci_low", "ci_high")
"""The columns of a rating table written as ratings (signed, ``rating_digits`` decimals)."""
RIDGE = 1e-2  # weak Gaussian prior (precision) on ratings: keeps never-winning strategies finite


def choice_patterns(g: Games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Aggregate games into weighted Breslow choice events.

    Returns (chosen (U,), composition (U, K) counts of each strategy in the choice set,
    weight (U,)). Each seat of each game is one event: its strategy chosen among the seats
    that did not finish strictly ahead of it. The likelihood depends on an event only through
    (chosen strategy, composition), so equal events are merged: a run of 200,000 games with
    100,000 distinct finishing patterns holds a few thousand distinct choices."""
    k = g.n_strategies
    tables, ranks, weight = finishing_patterns(g)
    seated = tables >= 0
    chosen, comps, weights = [], [], []
    for s in range(tables.shape[1]):  # seat s is chosen among the seats not strictly ahead of it
        occ = seated[:, s]
        inset = seated[occ] & (ranks[occ] >= ranks[occ, s][:, None])
        comp = np.zeros((int(occ.sum()), k), dtype=np.int64)
        rows = np.nonzero(inset)
        np.add.at(comp, (rows[0], tables[occ][rows]), 1)
        chosen.append(tables[occ, s])
        comps.append(comp)
        weights.append(weight[occ])
    both = np.column_stack([np.concatenate(chosen), np.concatenate(comps)])
    key, where = _distinct(both, tables.shape[1] + 1)
    w = np.bincount(where, weights=np.concatenate(weights).astype(float), minlength=len(key))
    keep = key[:, 1:].sum(axis=1) > 1  # a choice out of one seat carries no information
    return key[keep, 0], key[keep, 1:].astype(float), w[keep]


def _distinct(events: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``events`` (E, 1 + K): a strategy code, then K counts below
    ``base``; and each event's row among them. The counts and the code are packed into one
    int64 per event where K * base**K fits it (always but for many strategies at large
    tables), else the rows are compared whole."""
    k = events.shape[1] - 1
    if k * base**k > 2**63:
        key, where = np.unique(events, axis=0, return_inverse=True)
        return key, where.reshape(-1)
    powers = base ** np.arange(k, dtype=np.int64)
    key, where = np.unique(events[:, 1:] @ powers * k + events[:, 0], return_inverse=True)
    comp = (key // k)[:, None] // powers[None, :] % base
    return np.column_stack([key % k, comp]), where


def fit_plackett_luce(
    chosen: np.ndarray,
    comp: np.ndarray,
    weight: np.ndarray,
    ridge: float = RIDGE,
    tol: float = 1e-9,
    max_iter: int = 100,
) -> tuple[np.ndarray, np.ndarray]:
    """Maximize sum w * (theta[c] - log sum_k comp_k exp theta_k) - ridge/2 |theta|^2 by Newton.

    Returns (theta centred to mean zero, covariance of theta on the sum-zero subspace)."""
    k = comp.shape[1]
    theta = np.zeros(k)
    onehot_w = np.bincount(chosen, weights=weight, minlength=k)

    def loglik(th):
        e = comp * np.exp(th - th.max())[None, :]
        z = e.sum(axis=1)
        ll = onehot_w @ th - weight @ (np.log(z) + th.max()) - 0.5 * ridge * th @ th
        return ll, e, z

    def derivs(th, e, z):
        pi = e / z[:, None]
        grad = onehot_w - weight @ pi - ridge * th
        pw = pi * np.sqrt(weight)[:, None]
        hess = -(np.diag(weight @ pi) - pw.T @ pw) - ridge * np.eye(k)
        return grad, hess

    ll, e, z = loglik(theta)
    for _ in range(max_iter):
        grad, hess = derivs(theta, e, z)
        step = np.linalg.solve(hess, -grad)
        if np.max(np.abs(step)) < tol:
            break
        t = 1.0
        while True:  # the log-likelihood is concave: a halving line search suffices
            new = theta + t * step
            nll, ne, nz = loglik(new)
            if nll >= ll - 1e-12 * abs(ll) or t < 1e-6:
                break
            t *= 0.5
        theta, ll, e, z = new, nll, ne, nz
    _, hess = derivs(theta, e, z)
    centre = np.eye(k) - 1.0 / k
    cov = centre @ np.linalg.inv(-hess) @ centre
    return theta - theta.mean(), cov


def _rated_games(g: Games) -> Games:
    """The games a rating reads: every game but those where a strategy sits that finished
    none (every game it sat in ended by a forfeit, so its win rate measures nothing and
    ``reports.tables.ranked`` ranks it nowhere): placed last in each, it would be rated on
    its forfeits, not its play. Such a game was lost to a forfeit, so nobody's order in it
    is a result either. A strategy that finished some of its games keeps its forfeits, last."""
    seats = g.seats.astype(np.int64)
    sat, code = seats >= 0, np.maximum(seats, 0)
    played = np.bincount(code[sat], minlength=g.n_strategies)
    finished = np.bincount(code[sat & ~g.forfeited[:, None]], minlength=g.n_strategies)
    void = (played > 0) & (finished == 0)
    return g.select(~(sat & void[code]).any(axis=1)) if void.any() else g


def rating(data: Any, ridge: float = RIDGE) -> pd.DataFrame:
    """Plackett-Luce ratings (log-worth, mean zero) with Hessian standard errors and 95%
    intervals, strongest first. ``worth`` = exp(rating) normalized to sum 1: the chance each
    would finish first at a table holding one of each. Uses every game (aggregated) but those
    of a strategy with no finished game (``_rated_games``); a strategy that sat in none of
    them is left out of the fit (it would widen every interval) and of the table, ``seats``
    counts its seats in the games the fit reads (a strategy seated twice at a table counts
    twice: seats, not games)."""
    g = _rated_games(as_games(data))
    chosen, comp, weight = choice_patterns(g)
    games = np.bincount(g.seats[g.seats >= 0].astype(np.int64), minlength=g.n_strategies)
    sat = np.flatnonzero(games)  # every chosen strategy sat: its place among them
    theta, cov = (
        fit_plackett_luce(np.searchsorted(sat, chosen), comp[:, sat], weight, ridge=ridge)
        if len(sat)
        else (np.zeros(0), np.eye(0))  # a run without a game rates nobody
    )
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    worth = np.exp(theta - np.logaddexp.reduce(theta))  # exp(theta) / its sum, never overflowing
    df = pd.DataFrame(
        {
            "strategy": [g.labels[i] for i in sat],
            "rating": theta,
            "se": se,
            "ci_low": theta - Z95 * se,
            "ci_high": theta + Z95 * se,
            "worth": worth,
            "seats": games[sat],
        }
    )
    df = df.sort_values(["rating", "strategy"], ascending=[False, True]).reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df


def rating_digits(ratings: pd.DataFrame) -> int:
    """The one count of decimals for every rating of a table and its bounds: ``RATING_DIGITS``,
    more (up to four) while a row's bounds would read alike or a bound's side of 0 would be
    hidden (``reports.numbers.apart_digits``)."""
    pairs = zip(ratings.get("ci_low", ()), ratings.get("ci_high", ()), strict=True)
    return max((apart_digits(lo, hi, RATING_DIGITS, scale=1.0) for lo, hi in pairs),
               default=RATING_DIGITS)  # fmt: skip


def readable(ratings: pd.DataFrame) -> pd.DataFrame:
    """A rating table as the page writes it (the CSV keeps full precision): each rating and
    bound signed with ``rating_digits`` decimals, as the chart writes them ('+0.00', never
    '0.0002367'), each bound on its own side of 0 (``signed_bound``: '-0.00' of -0.00004,
    never '+0.00'); the worth in percent."""
    k, out = rating_digits(ratings), ratings.copy()
    for c in RATED:
        if c in out:
            write = signed_bound if c != "rating" else _figure
            out[c] = [write(x, k) if np.isfinite(x) else "" for x in ratings[c]]
    if "worth" in out:
        out["worth"] = [f"{fixed(100 * x, 1)}%" if np.isfinite(x) else "" for x in ratings["worth"]]
    return out


def _figure(x: float, digits: int) -> str:
    """A rating, signed: '+0.20' ('+0.00' of -0.00004: a figure's sign alone says nothing)."""
    return fixed(x, digits, "+")


def rating_label(v: float, lo: float, hi: float, digits: int) -> str:
    """A rating with its interval as the chart writes it beside its bar, with the table's
    decimals (``rating_digits``) and bounds (``readable``): '+0.20 [-0.00, +0.50]'."""
    return f"{_figure(v, digits)} {interval(lo, hi, 1.0, digits=digits, sign='+')}"


Move = tuple[str, str, list[str]]
"""A strategy the rating moves against the summary's order: its name, "above" or "below",
and the strategies it passes that way."""


def order_note(summary: pd.DataFrame, ratings: pd.DataFrame) -> str:
    """A sentence when the rating orders the strategies otherwise than the summary does (by
    ``relative``, the win rate over the fair share: the win rate itself where every fair
    share is the same; two strategies whose ``relative`` ties exactly are in no order): the
    largest reorder, the strategy the rating moves past the most others, in places ('9th by
    win rate, 6th by rating'), and why; one whose rating interval lies apart from one it
    passes is said first, and where none does, that the order may be chance (a run too
    small to rate them apart)."""
    level, by = _summary_order(summary)
    names = [s for s in ratings["strategy"] if s in level]
    moves = _moves(names, level)
    if not moves:
        return ""
    chosen = _largest([m for m in moves if _clear(ratings, m)] or moves)
    clear = any(_clear(ratings, m) for m in chosen)
    place = {s: 1 + sum(level[t] > level[s] + 1e-12 for t in names) for s in names}
    said = "; ".join(_move_words(ratings, m, place[m[0]], names.index(m[0]) + 1, by)
                     for m in chosen)  # fmt: skip
    lead = " The largest reorder" + ("s" if len(chosen) > 1 else "") + f": {said}"
    if not clear:
        return f"{lead}, but their ratings' 95% intervals overlap: this order may be chance."
    often = "wins more often" + (" for its fair share" if "fair share" in by else "")
    return (
        f"{lead}. The rating uses the whole finishing order (who finishes ahead of whom), not "
        "only who wins, so a strategy that often comes second can rank higher by rating than "
        f"one that {often} but also finishes last more often."
    )


def _summary_order(summary: pd.DataFrame) -> tuple[dict[str, float], str]:
    """Each strategy's level in the summary's order (higher: stronger) and that order in
    words: by win rate where every fair share is the same, else by win rate over it."""
    if "relative" not in summary:
        return dict(
            zip(summary["strategy"], -np.arange(len(summary)), strict=True)
        ), "in the summary"
    fair = summary["fair_share"].to_numpy(float) if "fair_share" in summary else np.zeros(1)
    fair = fair[np.isfinite(fair)]
    same = not len(fair) or float(fair.max() - fair.min()) < 1e-12
    by = "by win rate" if same else "by win rate over the fair share"
    return dict(zip(summary["strategy"], summary["relative"], strict=True)), by


def _moves(names: list[str], level: dict[str, float]) -> list[Move]:
    """Every strategy the rating (``names``, in its order) puts above one the summary ranks
    higher, with those; then every one it puts below one the summary ranks lower."""
    up = [(s, "above", [t for t in names[i + 1 :] if level[t] > level[s] + 1e-12])
          for i, s in enumerate(names)]  # fmt: skip
    down = [(s, "below", [t for t in names[:i] if level[t] < level[s] - 1e-12])
            for i, s in enumerate(names)]  # fmt: skip
    return [m for m in up + down if m[2]]


def _largest(moves: list[Move]) -> list[Move]:
    """The move past the most strategies (one up first, on a tie), and a second as large
    that involves neither it nor those it passes (not its mirror: 'b below a' of 'a above
    b')."""
    most = max(len(m[2]) for m in moves)
    first, *rest = [m for m in moves if len(m[2]) == most]
    seen = {first[0], *first[2]}
    other = next((m for m in rest if m[0] not in seen and not seen & set(m[2])), None)
    return [first] + ([other] if other else [])


def _clear(ratings: pd.DataFrame, move: Move) -> list[str]:
    """The strategies of ``move`` whose rating interval lies apart from the moved one's."""
    s, way, others = move
    return [t for t in others if (_rated_apart(ratings, s, t) if way == "above"
                                  else _rated_apart(ratings, t, s))]  # fmt: skip


def _move_words(ratings: pd.DataFrame, move: Move, place: int, rank: int, by: str) -> str:
    """'the rating puts greedy above low and high (greedy 9th by win rate, 6th by rating)',
    those it passes with its rating interval apart first, the others after."""
    s, way, others = move
    clear = _clear(ratings, move)
    text = f"the rating puts {s} {way} {and_words(clear or others)}"
    rest = [t for t in others if t not in clear] if clear else []
    if rest:
        text += f" (and {way} {and_words(rest)}, whose rating intervals overlap its own)"
    return text + f" ({s} {_nth(place)} {by}, {_nth(rank)} by rating)"


def _nth(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th', 23 -> '23rd'."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


def _rated_apart(ratings: pd.DataFrame, a: str, b: str) -> bool:
    """Whether ``a``'s rating interval lies wholly above ``b``'s (True where the table gives
    no intervals: nothing says otherwise)."""
    if not {"ci_low", "ci_high"} <= set(ratings.columns):
        return True
    at = ratings.set_index("strategy")
    return bool(at.at[a, "ci_low"] > at.at[b, "ci_high"])
