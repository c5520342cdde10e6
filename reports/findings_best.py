"""The key finding that opens a round robin's report: which strategy is best, by how much
and how sure, from the summary and the paired comparison of the top two (``significance``).

A margin is the difference of the two rates at the tables both sat at
(``reports.clusters.rate_differences``), so the sentence names those rates where they are not
the summary's, and the runner-up's own rate there beside its rate at the leader's weights
where the two read otherwise; a tie at the top is no lead, and where the two strategies' fair
shares differ the ranking is said to be against them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from tournaments.declaration import Declaration

from .finding import Finding, and_words
from .numbers import (
    TOO_FEW,
    apart_digits,
    beside,
    beside_digits,
    counted,
    difference_interval,
    fixed,
    flat_sets,
    interval,
    level_digits,
    no_spread,
    one_stratum,
    p_text,
    pct,
    points,
    rate_of,
    signed_points,
)
from .stats import holm
from .tables import ranked

__all__ = ["best_finding", "means_finding", "more_seats"]


def _pair(sig: pd.DataFrame, a: str, b: str) -> pd.Series | None:
    """The significance row comparing ``a`` with ``b``, oriented as a - b, with its p-value
    adjusted by Holm's correction over the table's pairs (``p_holm``, computed as
    ``reports.significance`` computes it where a table lacks it) and each side's own rate
    there (``own_a``, ``own_b``, wins over seats; NaN where the table lacks B's): the table's
    B is at A's weights, so turned round it is A that is at B's."""
    if sig is None or not len(sig):
        return None
    if "p_holm" not in sig.columns:
        sig = sig.assign(p_holm=holm(sig["p_value"].to_numpy(dtype=float)))
    row = sig[(sig["a"] == a) & (sig["b"] == b)]
    if len(row):
        r = row.iloc[0].copy()
        r["own_a"], r["own_b"] = r["win_rate_a"], r.get("win_rate_b_own", np.nan)
        return r
    row = sig[(sig["a"] == b) & (sig["b"] == a)]
    if not len(row):
        return None
    r = row.iloc[0].copy()
    r["a"], r["b"] = a, b
    r["win_rate_a"], r["win_rate_b"] = r["win_rate_b"], r["win_rate_a"]
    r["own_a"], r["own_b"] = r.get("win_rate_b_own", np.nan), r["win_rate_b"]
    r["diff"], r["ci_low"], r["ci_high"] = -r["diff"], -r["ci_high"], -r["ci_low"]
    return r


def _margin(row: pd.Series, flip: bool = False, signed: bool = True) -> str:
    """A significance row's difference (``flip``: B - A; ``signed``: with its sign, else its
    size) with its interval, signed as the table's, or why it has none: too few deals, or no
    spread between its duplicate sets. Both with the decimals that set the bounds apart
    (``apart_digits``)."""
    lo, hi = (-row["ci_high"], -row["ci_low"]) if flip else (row["ci_low"], row["ci_high"])
    k = apart_digits(lo, hi)
    diff = -row["diff"] if flip else row["diff"]
    flat = flat_sets(lo, hi, row["p_value"], row.get("units", np.nan))
    alike = one_stratum(row.get("units", np.nan), row.get("df", np.nan))  # every set, or a table's
    figure = signed_points(diff, k) if signed else points(diff, k)
    return f"{figure} {difference_interval(lo, hi, digits=k, flat=flat, alike=alike)}"


def _p(row: pd.Series) -> str:
    """The pair's p-value: the unadjusted one and, where it reads otherwise, the one the table
    gives and the verdict rests on, adjusted by Holm's correction over the pairs compared (as
    ``reports.compare`` writes the two; one pair, or p = 1.00: the two are one figure)."""
    raw, adjusted = p_text(row["p_value"]), p_text(row["p_holm"])
    return raw if raw == adjusted else f"{raw} before Holm's correction, {adjusted} after"


def _shared(row: pd.Series, top: pd.Series, second: pd.Series) -> str:
    """The two rates a paired margin is the difference of, where they read otherwise than the
    summary's (a run whose pair shared only some tables, of other sizes or seats): else
    nothing. Judged on the figures as printed (one decimal, as the summary's table writes
    them), not on the raw gap: a clause whose figures both read as the summary's repeats it."""
    same = (pct(row["win_rate_a"]) == pct(top["win_rate"])
            and pct(row["win_rate_b"]) == pct(second["win_rate"]))  # fmt: skip
    if same:
        return ""
    a, b = _two_rates(row, b_last=True)
    return f"; there {top['strategy']} won {a} and {second['strategy']} {b}"


def _two_rates(row: pd.Series, b_last: bool = False) -> tuple[str, str]:
    """The pair's two rates where both sat (``win_rate_a``, ``win_rate_b``), written with the
    decimals that read them apart where they differ (``level_digits``): a sentence that says
    one is ahead never writes the two as one figure ('30.00%' and '30.02%', not '30.0%'
    twice). The one at the other's weights says so beside its own rate where the two read
    otherwise (``_weighted``), closed by a comma unless it ends the clause (``b_last``)."""
    a, b = float(row["win_rate_a"]), float(row["win_rate_b"])
    own_a, own_b = row.get("own_a", np.nan), row.get("own_b", np.nan)
    k = level_digits((a,), b, digits=1, scale=100.0)
    return (pct(a, k) + _weighted(a, own_a, row["b"], k, ","),
            pct(b, k) + _weighted(b, own_b, row["a"], k, "" if b_last else ","))  # fmt: skip


def _weighted(rate: float, own: float, other: str, k: int, end: str) -> str:
    """' weighted by high's seats, 27.7% of its own seats' (then ``end``) where a strategy's
    rate at the tables both sat at is at the ``other``'s weights (each duplicate set's rate
    weighing as the other's seats there, so that the two rates' difference is the margin) and
    reads otherwise than its own, its wins over its seats there: a reader counting the rows
    finds the second. Nothing where the two read alike (a balanced round robin) or its own is
    not known."""
    if not np.isfinite(own) or pct(rate, k) == pct(own, k):
        return ""
    return f" weighted by {other}'s seats, {pct(own, k)} of its own seats{end}"


def _against(top: pd.Series, second: pd.Series) -> str:
    """' against its fair share' where the two strategies' fair shares differ (other table
    sizes): the summary ranks by the win rate over it (``relative``), so the leader's rate may
    be the lower; else nothing (the ranking is the win rates')."""
    return "" if abs(top["fair_share"] - second["fair_share"]) < 1e-9 else " against its fair share"


def _highest(top: pd.Series, second: pd.Series) -> str:
    """What the summary ranks by: the win rate, against the fair share where it differs."""
    return f"the highest win rate{_against(top, second)}"


def _fair(row: pd.Series, top: pd.Series, second: pd.Series) -> str:
    """'fair share 25.0%' for a rate of ``row`` where the top two's fair shares differ, what
    that rate is ranked against; else nothing."""
    return f"fair share {pct(row['fair_share'])}" if _against(top, second) else ""


def _tie(tied: pd.DataFrame, row: pd.Series | None, method: str) -> str:
    """Strategies that share the top place exactly: none leads, each rate is said, and the
    top two's paired difference where there is one."""
    names = list(tied["strategy"])
    rates = "; ".join(f"{r.strategy} {pct(r.win_rate)} {interval(r.ci_low, r.ci_high)}"
                      for r in tied.itertuples())  # fmt: skip
    text = f"No strategy leads: {and_words(names)} share {_highest(tied.iloc[0], tied.iloc[1])} ({rates})"
    if row is not None and np.isfinite(row["p_value"]):  # tested: an interval, or no spread
        how = "paired" if method.startswith("paired") else "unpaired"
        said = beside(_margin(row), f"{how}, {_p(row)}")
        text += f"; {row['a']} - {row['b']} = {said}"
    return text + "."


def nobody_won(summ: pd.DataFrame | None) -> bool:
    """Whether the summary's strategies played and won nothing (every game unfinished and
    counted as nobody's win): then every win rate and fair share is 0, and a finding that
    compares them would set zero against zero."""
    return summ is not None and len(summ) > 0 and "wins" in summ and summ["wins"].sum() == 0


def _unranked(tables: Mapping[str, pd.DataFrame], d: Declaration) -> str:
    """Why no strategy is ranked where no unit was won: every win rate is 0. Where matches
    were won (an expert run: a match is won on its totals, a game's without a winner
    included), only the game win rates are, and the match finding does rank."""
    ex = tables.get(d.match_name)
    if ex is None or not len(ex) or not ex["match_wins"].sum():
        return (f"No strategy is ranked: no {d.unit} was won, so every win rate is 0 and win "
                "rates cannot compare strategies, seats or neighbours.")  # fmt: skip
    return (f"No strategy is ranked by its {d.unit} win rate: no {d.unit} was won, so every "
            f"{d.unit} win rate is 0 and cannot compare strategies, seats or neighbours; "
            f"{d.match_unit} win rates do compare strategies ({d.match_label}).")  # fmt: skip


def best_finding(tables: Mapping[str, pd.DataFrame], method: str, d: Declaration) -> list[Finding]:
    """The best strategy and its margin over the next, among the strategies with a valid
    game (``reports.tables.ranked``); those without one are said to be left out."""
    summ = tables["summary"]
    if not len(summ):
        return [Finding("summary", f"No strategy has played a {d.unit}.")]
    names = ranked(summ)
    if not names:
        return [Finding("summary", f"No strategy has a valid {d.unit}: every one ended by a "
                                   "forfeit, so none is ranked.")]  # fmt: skip
    void = summ[~summ["strategy"].isin(names)]
    summ = summ[summ["strategy"].isin(names)].reset_index(drop=True)
    if nobody_won(summ):
        return [Finding("summary", _unranked(tables, d))]
    top = summ.iloc[0]
    par = _par(top)  # beside the fair share where unfinished games count as nobody's win
    k = max(beside_digits(top["ci_low"], top["ci_high"], x)  # bounds apart from each
            for x in (top["fair_share"], par) if x is not None)  # fmt: skip
    iv = interval(top["ci_low"], top["ci_high"], digits=k)
    won = rate_of(pct(top["win_rate"], k), iv, _of_its(top, d))
    fair = f"fair share {pct(top['fair_share'], k)}" + _par_words(top, par, k, tables, d)
    rate = f"{top['strategy']} wins {beside(won, fair)}"
    if len(summ) == 1 and len(void):
        found = Finding("summary", f"{top['strategy']} is the only strategy with a valid "
                                   f"{d.unit}: {rate}.")  # fmt: skip
    elif len(summ) == 1:
        found = Finding("summary", f"Only one strategy played: {rate}.")
    else:
        found = _best(summ, tables, method, d, rate)
    if not len(void):
        return [found]
    one = len(void) == 1
    rate = f"its win rate of {pct(void['win_rate'].iloc[0])}" if one else "their win rates"
    rated = tables.get("rating")
    unrated = rated is not None and not set(void["strategy"]) & set(rated["strategy"])
    left_out = (
        f" {and_words(list(void['strategy']))} {'is' if one else 'are'} not ranked: every "
        f"{d.unit} {'it' if one else 'they'} sat in ended by a forfeit, so {rate} "
        f"measure{'s' if one else ''} nothing."
        + (f" The rating leaves {'it' if one else 'them'} out, with the {d.units()} "
           f"{'it' if one else 'they'} sat in." if unrated else "")
    )  # fmt: skip
    return [Finding(found.topic, found.text + left_out)]


def more_seats(row: pd.Series) -> bool:
    """Whether a summary row's strategy held more seats than games (two seats at a table):
    its win rate, wins over seats, is then no share of its games (a row without the two
    counts: no)."""
    return {"seats", "games"} <= set(row.index) and int(row["seats"]) > int(row["games"])


def _of_its(row: pd.Series, d: Declaration) -> str:
    """What a summary row's win rate is a share of: 'of its games', or 'of its seats' where
    it held more seats than games (``more_seats``)."""
    return "of its seats" if more_seats(row) else f"of its {d.units()}"


def _par(row: pd.Series) -> float | None:
    """A summary row's ``par`` where its unfinished games, counted as nobody's win, set it
    below the fair share as written; else None (every game won, unfinished ones won as they
    stood, or too few unfinished to read otherwise than the fair share)."""
    par, fair = float(row.get("par", np.nan)), float(row["fair_share"])
    below = np.isfinite(par) and par < fair and pct(par) != pct(fair)  # not: shared wins
    return par if below and int(row.get("unfinished", 0)) else None


def _par_words(row: pd.Series, par: float | None, k: int, tables: Mapping[str, pd.DataFrame],
               d: Declaration) -> str:  # fmt: skip
    """What follows a fair share that the games nobody won make out of reach (``par``): the
    win rate a seat would take at random of the games as they were won, in the seat
    finding's words where all are of one size ('; 9.8%, 1/3 of the 29.3% of its games
    someone won'), so the two read as one account; nothing where ``par`` is None."""
    if par is None:
        return ""
    fair = float(row["fair_share"])
    text = f" if every {d.unit} had a winner; {pct(par, k)}"
    if _one_size(tables, fair) and _of_its(row, d) != "of its seats":  # a share of games
        return (
            text + f", 1/{round(1 / fair)} of the {pct(par / fair)} of its {d.units()} someone won"
        )
    return text + f" counting its {d.units()} that nobody won"


def _one_size(tables: Mapping[str, pd.DataFrame], fair: float) -> bool:
    """Whether every table of the run had one size, 1/``fair`` players (the completion table
    has a row per size and one over all)."""
    done = tables.get("completion")
    sizes = [] if done is None else [n for n in done["n_players"] if str(n) != "all"]
    return len(sizes) == 1 and abs(int(sizes[0]) * fair - 1) < 1e-9


def _tied_with(summ: pd.DataFrame) -> str:
    """'tied with c' where others share the second strategy's place exactly ('' if none): the
    sentence compares the leader with one of them, and says the place is shared."""
    second = summ.iloc[1]
    level = np.isclose(summ["relative"], second["relative"], rtol=0, atol=1e-12)
    others = [s for s in summ.loc[level, "strategy"] if s != second["strategy"]]
    return f"tied with {and_words(others)}" if others else ""


def _best(summ: pd.DataFrame, tables: Mapping[str, pd.DataFrame], method: str, d: Declaration,
          rate: str) -> Finding:  # fmt: skip
    """``best_finding`` where two strategies or more are ranked (``rate``: the leader's)."""
    top = summ.iloc[0]
    second = summ.iloc[1]
    row = _pair(tables.get("significance"), top["strategy"], second["strategy"])
    tied = summ[np.isclose(summ["relative"], top["relative"], rtol=0, atol=1e-12)]
    if len(tied) > 1:
        return Finding("significance", _tie(tied, row, method))
    tie = _tied_with(summ)
    runner = second["strategy"] + (f" ({tie})" if tie else "")
    next_iv = beside(interval(second["ci_low"], second["ci_high"]), _fair(second, top, second))
    other = f"{runner} is next with {pct(second['win_rate'])} {next_iv}"  # no paired comparison
    if row is None:
        return Finding(
            "summary",
            f"{top['strategy']} has {_highest(top, second)}: {rate}; {other}. "
            "They never sat at one table on the same deals, so no paired comparison was made.",
        )
    paired = (
        "paired by duplicate set at the tables both sat at"
        if method.startswith("paired")
        else "unpaired"
    )
    n_pairs = len(tables["significance"])
    held = f"it holds after Holm correction over the {counted(n_pairs, 'pair')} compared"
    test = f"{paired}, {_p(row)}"
    shared = f"{test}{_shared(row, top, second)}"
    margin = f"{_margin(row, signed=False)} ({shared})"
    if bool(row["significant"]) and row["diff"] > 0:
        text = (
            f"{top['strategy']} is the best strategy: {rate}. It beats the runner-up, "
            f"{runner}, by {margin}; {held}."
        )
    elif bool(row["significant"]):  # the runner-up is ahead where both sat (other tables)
        ahead = _two_rates(row)
        text = (
            f"No strategy is clearly the best: {top['strategy']} has {_highest(top, second)}, "
            f"{rate}, but at the tables both sat at {second['strategy']} wins "
            f"{ahead[1]} against its {ahead[0]} and beats it by "
            f"{_margin(row, flip=True, signed=False)} ({test}); "
            f"{held}."
        )
    elif not np.isfinite(row["p_value"]):  # no test: too few deals
        text = (
            f"{top['strategy']} has {_highest(top, second)}: {rate}; {other}. The run has "
            f"{TOO_FEW} of their difference: play more {d.units()} to tell them apart."
        )
    else:
        after = "" if row["p_value"] >= 0.05 else " after Holm correction over the pairs compared"
        iv = interval(top["ci_low"], top["ci_high"])
        leads = beside(rate_of(pct(top["win_rate"]), iv, f"{_of_its(top, d)} won"),
                       _fair(top, top, second))  # fmt: skip
        fair = _fair(second, top, second)
        text = (
            f"No strategy is clearly the best: {top['strategy']} leads{_against(top, second)} "
            f"with {leads}, but its margin over {second['strategy']} "
            f"({pct(second['win_rate'])} {interval(second['ci_low'], second['ci_high'])}"
            f"{', ' + fair if fair else ''}{', ' + tie if tie else ''}) is "
            f"{_margin(row)} ({shared}): "
            f"not significant{after}."
        )
    return Finding("significance", text)


def means_finding(means: pd.DataFrame | None, d: Declaration) -> list[Finding]:
    """The best mean rank value per unit, with its interval, and the worst (games that declare
    means): a best or a worst only where the 95% intervals tell it from the next
    (``_apart``), else that they cannot, or that the run has too few deals for an interval
    to tell (``_unknown``: said once, never as intervals that cannot tell); strategies tied on
    a mean are named together (a tie at the top shares the best, and every strategy alike is
    said so). Figures written side by side carry the decimals that read them apart
    (``_decimals``)."""
    col = d.rank_value
    if means is not None and "valid_seats" in means:  # a mean of no valid row says nothing
        means = means[means["valid_seats"] > 0].reset_index(drop=True)
    if means is None or not len(means) or f"{col}_mean" not in means:
        return []
    name, values = col.replace("_", " "), means[f"{col}_mean"].to_numpy(float)
    best, worst = _tied(means, values, values[0]), _tied(means, values, values[-1])
    k = _decimals(values, len(best), len(means) - len(worst) - 1)
    if len(best) == len(means) > 1:
        every = "Both strategies" if len(means) == 2 else f"All {len(means)} strategies"
        return [Finding("means", f"{every} have the same mean {name} per {d.unit}: "
                                 f"{fixed(values[0], k)}.")]  # fmt: skip
    what, top, said = f"mean {name} per {d.unit}", means["strategy"].iloc[0], False
    if len(best) > 1:
        text = f"{and_words(best)} share the best {what}: {fixed(values[0], k)}"
    elif len(means) == 1 or _apart(means, 0, 1, col):
        text = f"{top} has the best {what}: {_figure(means, 0, col, k)}{_over(means.iloc[0], d)}"
    else:
        said = _unknown(means, 0, 1, col)  # the run cannot tell, and a figure says why
        tell = "the run cannot tell" if said else "the 95% intervals cannot tell"
        first, bare = _named(means, 0, col, k, d), _lacks(means, 0, col)  # bare: said once
        if len(means) == 2:  # the next is the worst: said once
            over = _over(means.iloc[1], d)  # its figure says why it has no interval, once
            last = (beside(_figure(means, 1, col, k), over.strip()) if said and not bare
                    else fixed(values[1], k) + over)  # fmt: skip
            return [Finding("means", f"No strategy has a clearly best {what}: {first}, "
                            f"which {tell} from {worst[0]}, whose estimate is the worst: "
                            f"{last}.")]  # fmt: skip
        text = (f"No strategy has a clearly best {what}: {first}, which {tell} from "
                f"{means['strategy'].iloc[1]}'s {_figure(means, 1, col, k, bare)}"
                f"{_over(means.iloc[1], d)}")  # fmt: skip
    if len(means) > 1:
        text += _worst(means, worst, col, k, d, said)
    return [Finding("means", text + ".")]


def _worst(means: pd.DataFrame, worst: list[str], col: str, k: int, d: Declaration,
           said: bool = False) -> str:  # fmt: skip
    """'; c has the worst: 1.00', tied strategies named together; where the 95% intervals
    cannot tell a lone worst from the one above it, its estimate is the worst, and that said;
    where the run has too few deals for an interval to tell them, that said, or (``said``:
    the best's clause said the run cannot tell) that it cannot tell these either."""
    values = means[f"{col}_mean"].to_numpy(float)
    if len(worst) > 1:
        return f"; {and_words(worst)} share the worst: {fixed(values[-1], k)}"
    last, above = f"{fixed(values[-1], k)}{_over(means.iloc[-1], d)}", len(means) - 2
    if _apart(means, above, above + 1, col):
        return f"; {worst[0]} has the worst: {last}"
    pair = f"{worst[0]} from {means['strategy'].iloc[above]}'s {fixed(values[above], k)}"
    if not _unknown(means, above, above + 1, col):
        tell = f"the 95% intervals cannot tell {pair}"
    else:
        tell = f"nor can it tell {pair}" if said else f"the run has {TOO_FEW} to tell {pair}"
    return f"; {tell}, so {worst[0]}'s estimate is the worst: {last}"


def _decimals(values: np.ndarray, second: int, above_worst: int) -> int:
    """The decimals of a means sentence: two, more (up to 15: every mean below 1,000 then
    reads apart from one not tied with it) while the best would read as the next below it
    (``second``), as the worst, or the worst as the one above it (``above_worst``)."""
    pairs = [(0, len(values) - 1), (0, second), (above_worst, len(values) - 1)]
    pairs = [(i, j) for i, j in pairs
             if 0 <= i < len(values) and 0 < j < len(values) and i != j
             and not np.isclose(values[i], values[j], rtol=1e-12, atol=1e-12)]  # fmt: skip
    k = 2
    while k < 15 and any(fixed(values[i], k) == fixed(values[j], k) for i, j in pairs):
        k += 1
    return k


def _bounds(row: pd.Series, col: str) -> tuple[float, float]:
    """A mean's 95% interval; its value where its duplicate sets showed no spread (each gave
    that mean); NaN where the run has too few deals for one."""
    lo, hi = float(row[f"{col}_ci_low"]), float(row[f"{col}_ci_high"])
    if not np.isfinite(lo) and int(row.get(f"{col}_no_spread", 0)):
        return float(row[f"{col}_mean"]), float(row[f"{col}_mean"])
    return lo, hi


def _apart(means: pd.DataFrame, i: int, j: int, col: str) -> bool:
    """Whether the 95% intervals of the means of rows ``i`` and ``j`` do not overlap: the run
    tells the two apart (a conservative test: disjoint 95% intervals differ at well under 5%).
    Never where one has no interval (too few deals: ``_unknown``)."""
    if _unknown(means, i, j, col):
        return False
    (a_lo, a_hi), (b_lo, b_hi) = _bounds(means.iloc[i], col), _bounds(means.iloc[j], col)
    return a_lo >= b_hi or b_lo >= a_hi


def _lacks(means: pd.DataFrame, i: int, col: str) -> bool:
    """Whether row ``i``'s mean has no interval: too few deals (``_bounds`` NaN)."""
    return not np.isfinite(_bounds(means.iloc[i], col)).all()


def _unknown(means: pd.DataFrame, i: int, j: int, col: str) -> bool:
    """Whether rows ``i`` and ``j`` cannot be compared for want of an interval (too few deals
    for one of them, ``_lacks``): no interval to overlap another, or not."""
    return _lacks(means, i, col) or _lacks(means, j, col)


def _figure(means: pd.DataFrame, i: int, col: str, k: int, bare: bool = False) -> str:
    """Row ``i``'s mean with ``k`` decimals and its interval (or why it has none; ``bare``:
    nothing where it has none for too few deals, which the sentence has said already)."""
    row = means.iloc[i]
    lo, hi = row[f"{col}_ci_low"], row[f"{col}_ci_high"]
    flat = int(row.get(f"{col}_no_spread", 0))  # no interval for no spread, not too few deals
    span = (f"({no_spread(flat, 'mean ' + col.replace('_', ' '))})" if flat and not np.isfinite(lo)
            else interval(lo, hi, scale=1.0, digits=k))  # fmt: skip
    if bare and span == f"({TOO_FEW})":
        return fixed(row[f"{col}_mean"], k)
    return f"{fixed(row[f'{col}_mean'], k)} {span}"


def _named(means: pd.DataFrame, i: int, col: str, k: int, d: Declaration) -> str:
    """Row ``i``'s mean and interval, then its strategy: '5.950 [5.290, 6.610] (scanner)', or
    inside the brackets of a mean without an interval ('9.00 (too few deals for an interval;
    scanner)', ``beside``), the units it is over named with it where some of its seats are
    left out (``_over``)."""
    row = means.iloc[i]
    over = _over(row, d)
    return beside(_figure(means, i, col, k), f"{row['strategy']}{',' + over if over else ''}")


def _over(row: pd.Series, d: Declaration) -> str:
    """' over its 32 seats in rounds not ended by a forfeit' where a strategy's mean leaves
    some of its seats out (``reports.declared.means``), else nothing: a count of seats, which
    is a count of rows only where the strategy sits once at every table."""
    valid, seats = int(row.get("valid_seats", 0)), int(row.get("seats", 0))
    if "valid_seats" not in row or valid >= seats:
        return ""
    return f" over its {counted(valid, 'seat')} in {d.units()} not ended by a forfeit"


def _tied(means: pd.DataFrame, values: np.ndarray, value: float) -> list[str]:
    """The strategies whose mean is ``value`` (to rounding error: a tie is equal sums over
    equal counts, which two sums may round apart in the last bit), in the table's order."""
    return [str(s) for s in means["strategy"][np.isclose(values, value, rtol=1e-12, atol=1e-12)]]
