"""Did a strategy change between two runs? Per strategy, B - A in win rate with an interval.

Two runs of the same strategies under two code versions, parameters or rule sets: for every
strategy both runs have (``reports.compare_match``: a strategy whose parameters changed is
matched with its old self, ``pairs`` name any others), each run's win rate
(``reports.clusters``: duplicate sets as clusters, tables as strata) and the difference B - A.
Runs that dealt the same cards, as their recorded deal seeds say (``reports.compare_deals``),
are paired per duplicate set: per set both played (a deal at a table of the same strategies
in both runs: two gauntlets of other baselines pair the strategy's table, not the
baselines'), B's wins less A's over the same seats, a ratio estimate whose error no longer
carries the deals' luck; both win rates are then over those sets, so that B's less A's is
B - A. Other runs are independent, so
the difference's variance is the sum of the two stratified variances, with Welch's degrees of
freedom; where either run's rate shows no spread (every set won, say: a standard error of 0,
though its own interval is wide), that sum would carry the other run's error alone, so the
interval is Newcombe's on the two rates' own intervals and its p-value the one that inverts it
(``reports.newcombe``). p-values are two-sided (t tests but for those, and the paired sets'
sign test where they show no spread), Holm-corrected over the strategies compared. Runs of
other games or table sizes, or a gauntlet against a tournament, are refused
(``NotComparable``); runs under other rules are compared and the rules named. Games ended by
a forfeit are left out, as from the report's paired comparisons (``Games.finished``): a set
holding one is paired over its other games where both runs forfeited the same games of it,
and not at all otherwise; unpaired rates leave out in both runs a table one run forfeited
whole, and a strategy with no valid game in a run (``reports.tables.ranked``) is not
compared; each said in words, and nothing left to compare is a ReportError. Runs whose fields
differ (a strategy only one run has) say so first: a strategy's change may come from its
company.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd

from gamekit.errors import ParameterError, shown
from tournaments.checks import path as checked_path
from tournaments.declaration import plural

from .clusters import MIN_DF, Estimates, clusters, ratio_estimates, seat_sums, wilson_t
from .compare_deals import (
    Overlap,
    deal_seeds,
    emptied_tables,
    overlap,
    paired_difference,
    set_of_game,
    words,
)
from .compare_match import (
    Match,
    NotComparable,
    check_comparable,
    checked_pairs,
    match_labels,
    settings_lines,
)
from .data import Games, ReportError, Run
from .loading import as_run
from .newcombe import newcombe
from .numbers import (
    apart_digits,
    counted,
    difference_interval,
    no_spread,
    no_spread_value,
    one_stratum,
    p_column,
    p_text,
    points,
    signed_points,
)
from .stats import holm, within
from .tables import ranked, summary

__all__ = ["Comparison", "NotComparable", "compare"]

PAIRING_KEYS = ("game", "game_config", "seed", "seed_keys", "strategies", "players", "repeats",
                "seating", "expert", "target", "deal_streams")  # fmt: skip
"""Spec entries two runs must share for game ``g`` of one to be game ``g`` of the other
(``reports.variants_metrics``: runs ``leaves variants`` played on one design)."""


@dataclass(frozen=True)
class Comparison:
    """The comparison of runs ``a`` and ``b``: ``table`` per strategy compared, whether it is
    ``paired`` (and ``pairing``: why, from the deal seeds), the strategies matched under two
    labels (``matches``), those only one run has, and the ``findings`` in words."""

    a: str
    b: str
    table: pd.DataFrame
    paired: bool
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    pairing: str = ""


def _unpaired(ea: Estimates, eb: Estimates) -> Estimates:
    """B - A of independent runs: variances add; Welch's degrees of freedom."""
    va, vb = ea.se**2, eb.se**2
    with np.errstate(invalid="ignore", divide="ignore"):
        df = (va + vb) ** 2 / (va**2 / ea.df + vb**2 / eb.df)
    small = (ea.df < MIN_DF) | (eb.df < MIN_DF)
    df = np.where(small, np.nan, np.where(np.isfinite(df), df, np.minimum(ea.df, eb.df)))
    return Estimates(eb.value - ea.value, np.sqrt(va + vb), df, np.minimum(ea.units, eb.units),
                     ea.conservative or eb.conservative)  # fmt: skip


def _rates(g: Games, codes: list[int]) -> tuple[Estimates, np.ndarray, np.ndarray]:
    est = ratio_estimates(seat_sums(g, g.n_strategies), clusters(g)).take(codes)
    return (est, *wilson_t(est))


def _valid(run: Run, name: str, side: str) -> tuple[set[str], set[str]]:
    """The labels of ``run`` that sat in a game, and those with a valid game
    (``reports.tables.ranked``: one not ended by a forfeit). A run with none raises
    ReportError: a comparison of forfeits says nothing."""
    g = run.games
    seated = g.seats[g.seats >= 0]
    played = {g.labels[i] for i in np.unique(seated)}
    if not g.forfeited.any():
        return played, played
    if g.forfeited.all():
        raise ReportError(f"no valid {g.declaration.unit} in {name} ({side}): every one ended "
                          "by a forfeit, so there is nothing to compare")  # fmt: skip
    return played, set(ranked(summary(g)))


def _unmeasured(matches: list[Match], runs: tuple[tuple[set[str], set[str]], ...],
                unit: str) -> list[str]:  # fmt: skip
    """Why the strategies matched that a run has no valid ``unit`` (a game, a round) of are
    not compared, and where, in words: none played (an unfinished run), or every one
    forfeited."""
    whys = ("it played none there, as an unfinished run may not reach every table",
            f"every {unit} it sat in there ended by a forfeit, so its win rate measures "
            "nothing")  # fmt: skip
    found: tuple[list[str], list[str]] = ([], [])
    for m in matches:
        sides = list(zip("AB", (m.a, m.b), runs, strict=True))
        unseated = [side for side, x, (played, _) in sides if x not in played]
        forfeited = [side for side, x, (played, ok) in sides if x in played and x not in ok]
        for names, where in zip(found, (unseated, forfeited), strict=True):
            if where:
                names.append(f"{m.name} in {' and '.join(where)}")
    return [f"{why}: {', '.join(names)}" for why, names in zip(whys, found, strict=True) if names]


def _forfeits(ra: Run, rb: Run, empty: list[str]) -> list[str]:
    """How many games each run forfeited, and that they are left out, with the ``empty``
    tables left out of both runs' unpaired rates (none: no line)."""
    fa, fb = int(ra.games.forfeited.sum()), int(rb.games.forfeited.sum())
    if not fa and not fb:
        return []
    units = plural(ra.games.declaration.unit)
    tables = (f"; so are, from both runs' win rates, the tables one run forfeited every "
              f"{ra.games.declaration.unit} at: {', '.join(empty)}" if empty else "")  # fmt: skip
    return [f"{units} ended by a forfeit are left out, as in the report's paired comparisons: "
            f"A {fa:,} of {len(ra.games):,} {units}, B {fb:,} of {len(rb.games):,}{tables}"]  # fmt: skip


def _absent(only_a: list[str], only_b: list[str], labels_a: tuple[str, ...],
            labels_b: tuple[str, ...]) -> tuple[list[str], list[str]]:  # fmt: skip
    """The strategies left without a partner that the other run lacks (A's, B's): where
    either has one, the runs' fields differ."""
    return [x for x in only_a if x not in labels_b], [x for x in only_b if x not in labels_a]


def _field(absent: tuple[list[str], list[str]]) -> list[str]:
    """That the runs' fields differ (``_absent``), so that a strategy's change may come from
    the players it met rather than from itself; nothing where they are the same."""
    if not (absent[0] or absent[1]):
        return []
    return [f"the runs' fields differ (only in A: {', '.join(absent[0]) or '-'}; only in B: "
            f"{', '.join(absent[1]) or '-'}), so a strategy's change from A to B may come "
            "from the players it met, not from the strategy itself"]  # fmt: skip


def _unpartnered(only_a: list[str], only_b: list[str], labels_a: tuple[str, ...],
                 labels_b: tuple[str, ...]) -> list[str]:  # fmt: skip
    """The strategies left without a partner, in words: those the other run lacks, and those
    whose namesake in the other run ``--pair`` gave another partner."""
    absent = _absent(only_a, only_b, labels_a, labels_b)
    taken = [f"{x} of A" for x in only_a if x in labels_b] + [
        f"{x} of B" for x in only_b if x in labels_a]  # fmt: skip
    lines = []
    if absent[0] or absent[1]:
        lines.append(f"not compared: only in A {', '.join(absent[0]) or '-'}; "
                     f"only in B {', '.join(absent[1]) or '-'}")  # fmt: skip
    if taken:
        lines.append("not compared, as their namesakes in the other run were paired with "
                     f"another strategy: {', '.join(taken)}")  # fmt: skip
    return lines


def _names(matches: list[Match], labels: tuple[str, ...], side: str) -> list[str]:
    """Each code's label in one vocabulary for both runs: a matched label as A names it, any
    other kept apart by its run."""
    to_a = {(m.b if side == "B" else m.a): m.a for m in matches}
    return [to_a.get(x, f"{side}:{x}") for x in labels]


ALPHA_TAKES = "a number above 0 and below 1"
"""What ``alpha`` takes, as ``leaves compare --alpha`` says it: a significance level at 0 or 1
(or past them) would call every change significant, or none."""


def checked_alpha(alpha: Any) -> float:
    """``alpha`` as a float above 0 and below 1: a TypeError for no number (a bool, a string:
    pandas' "Invalid comparison" else), a ``ParameterError`` naming it for one outside (NaN
    too), in ``--alpha``'s words ("alpha takes a number above 0 and below 1, got 2"); at 2
    every strategy was "significant at alpha 2", its interval across 0."""
    if isinstance(alpha, bool) or not isinstance(alpha, Real):
        raise TypeError(f"alpha takes {ALPHA_TAKES}, got {shown(alpha, typed=False)}")
    level = float(alpha)
    if not (math.isfinite(level) and 0 < level < 1):
        raise ParameterError(f"{{alpha}} takes {ALPHA_TAKES}, got {shown(alpha, typed=False)}",
                             "alpha")  # fmt: skip
    return level


def compare(run_a: Any, run_b: Any, alpha: float = 0.05,
            pairs: list[tuple[str, str]] | None = None) -> Comparison:  # fmt: skip
    """Per strategy both runs have (by label, a changed parameter's label matched with its
    old self, ``pairs`` (A's label, B's) naming any others): win rate in A and in B with 95%
    intervals, the difference B - A with its 95% interval, p-value, Holm-adjusted p-value and
    whether it is significant at ``alpha``; paired per duplicate set when the runs' deal
    seeds say they dealt the same deals. Raises NotComparable (one line) for runs of other
    games or table sizes, a gauntlet against a tournament, or runs that share no strategy;
    an ``alpha`` outside (0, 1), ``pairs`` that are no list of label pairs, or a run of no
    name, before any run is read (``checked_alpha``, ``checked_pairs``, ``_check_name``)."""
    alpha, pairs = checked_alpha(alpha), checked_pairs(pairs)
    for source, name in ((run_a, "run_a"), (run_b, "run_b")):
        _check_name(source, name)
    ra, rb = as_run(run_a), as_run(run_b)
    name_a, name_b = str(ra.path or "A"), str(rb.path or "B")
    check_comparable(ra, rb, name_a, name_b)
    ga, gb = ra.games, rb.games
    va, vb = _valid(ra, name_a, "A"), _valid(rb, name_b, "B")
    matches, only_a, only_b = match_labels(ga.labels, gb.labels, pairs)
    if not matches:
        raise NotComparable(f"cannot compare {name_a} and {name_b}: they share no strategy "
                            f"(A: {', '.join(ga.labels)}; B: {', '.join(gb.labels)}; "
                            "{pairs} A_LABEL=B_LABEL pairs two)", "pairs")  # fmt: skip
    measured = [m for m in matches if m.a in va[1] and m.b in vb[1]]
    unit = ga.declaration.unit
    unmeasured = _unmeasured(matches, (va, vb), unit)
    if not measured:
        raise ReportError(f"nothing to compare between {name_a} and {name_b}: no strategy both "
                          f"runs have has a valid {unit} in both runs ({'; '.join(unmeasured)})")  # fmt: skip
    rules = settings_lines(ra, rb)
    names = (_names(matches, ga.labels, "A"), _names(matches, gb.labels, "B"))
    ov = overlap(ga, gb, (deal_seeds(run_a, ra), deal_seeds(run_b, rb)), names,
                 (words(ra, same_rules=not rules), words(rb, same_rules=not rules)))  # fmt: skip
    table, identical, empty = _table(ga, gb, measured, ov, alpha, names)
    notes = [f"not compared, with no valid {unit} ({why})" for why in unmeasured]
    if len(table) < len(measured):
        gone = ", ".join(m.name for m in measured if m.name not in set(table["strategy"]))
        notes.append(f"not compared, having sat in none of the duplicate sets compared: {gone}")
    if table.empty:
        raise ReportError(f"nothing to compare between {name_a} and {name_b}: "
                          + "; ".join([*_forfeits(ra, rb, empty), *notes]))  # fmt: skip
    findings = [
        *_field(_absent(only_a, only_b, ga.labels, gb.labels)),
        *_findings(table, identical, alpha, ov.paired),
        ov.sentence,
        *_rates_over(ga, gb, ov),
        *_forfeits(ra, rb, empty),
        *(m.sentence() for m in matches if m.how != "same"),
        *rules,
        *notes,
    ]
    findings += _unpartnered(only_a, only_b, ga.labels, gb.labels)
    return Comparison(name_a, name_b, table, ov.paired, only_a, only_b, findings, matches,
                      ov.sentence)  # fmt: skip


def _check_name(source: Any, name: str) -> None:
    """Refuse a path of no name (``''``, spaces) given as the run ``name`` (``run_a``,
    ``run_b``), naming that argument, before either run is read: ``load_run`` would name its
    own (``run_dir``), which the caller never passed."""
    if isinstance(source, str | os.PathLike):
        checked_path(source, name, "run directory")


def _kept(g: Games, drop: np.ndarray) -> Games:
    """The games of ``g`` not ended by a forfeit (``Games.finished``, as the report's paired
    comparisons take them), less those ``drop`` marks (per game of ``g``; none if empty)."""
    f = g.finished()
    rest = drop[~g.forfeited] if drop.size else drop
    return f.select(~rest) if rest.any() else f


def _rates_over(ga: Games, gb: Games, ov: Overlap) -> list[str]:
    """That a paired comparison's win rates are over the sets paired only (``_unshared``),
    where a run played others: nothing where both runs' sets are all paired. The deals
    counted as ``Overlap`` counts them; a deal paired at some of its tables only (a
    gauntlet's baseline that differs) leaves the others out of the rates too."""
    n_a, n_b = clusters(ga).n, clusters(gb).n
    if not ov.paired or (ov.shared_sets >= max(n_a, n_b) and not ov.partial):
        return []
    tables = " at the tables paired" if ov.partial else ""
    return [f"the win rates too are over the {counted(ov.shared_sets, 'duplicate set')} paired "
            f"(of A's {n_a:,} and B's {n_b:,}){tables}, so that B's less A's is B - A"]  # fmt: skip


def _unshared(ga: Games, gb: Games, ov: Overlap) -> tuple[np.ndarray, np.ndarray]:
    """Per game of each run, whether its duplicate set (a deal at one table) is outside the
    sets ``ov`` pairs: a paired comparison's win rates leave these out, so that B's rate less
    A's is its B - A (not rates over other deals or tables beside a difference over the
    shared ones)."""
    (of_a, _), (of_b, n_b) = set_of_game(ga), set_of_game(gb)
    in_a = ov.b_of_a >= 0
    in_b = np.zeros(n_b, dtype=bool)
    in_b[ov.b_of_a[in_a]] = True
    return ~in_a[of_a], ~in_b[of_b]


def _table(ga: Games, gb: Games, measured: list[Match], ov: Overlap, alpha: float,
           names: tuple[list[str], list[str]]) -> tuple[pd.DataFrame, bool, list[str]]:  # fmt: skip
    """The table of the strategies ``measured`` (one in no set compared left out), whether
    each won as often in B as in A in every set paired, and the tables left out of unpaired
    rates. Win rates are over the games not ended by a forfeit: paired, over ``ov``'s sets (a
    set with a forfeited game only where both runs forfeited the same games, ``_unshared``),
    as B - A is; unpaired, less the tables one run forfeited every game at
    (``emptied_tables``), B - A the difference of the two rates, with Newcombe's interval
    and p-value where either rate shows no spread (``reports.newcombe``: ``se`` and ``df``
    then NaN, as no t interval is stated)."""
    codes = [(ga.labels.index(m.a), gb.labels.index(m.b)) for m in measured]
    if ov.paired:
        drop_a, drop_b, empty = (*_unshared(ga, gb, ov), [])
    else:
        drop_a, drop_b, empty = emptied_tables(ga, gb, names)
    ea, lo_a, hi_a = _rates(_kept(ga, drop_a), [a for a, _ in codes])
    eb, lo_b, hi_b = _rates(_kept(gb, drop_b), [b for _, b in codes])
    diff, identical = (
        paired_difference(ga, gb, codes, ov) if ov.paired else (_unpaired(ea, eb), False)
    )
    d_lo, d_hi = within(*diff.interval())
    p, se, df, flat = diff.p_value(), diff.se, diff.df, diff.flat()
    if not ov.paired:  # a rate with no spread: Newcombe's interval and its p-value
        n_lo, n_hi, n_p = newcombe(ea, eb)
        use = np.isfinite(n_p)
        d_lo, d_hi, p = np.where(use, n_lo, d_lo), np.where(use, n_hi, d_hi), np.where(use, n_p, p)
        se, df, flat = np.where(use, np.nan, se), np.where(use, np.nan, df), flat & ~use
    table = pd.DataFrame({
        "strategy": [m.name for m in measured], "win_rate_a": ea.value, "ci_low_a": lo_a,
        "ci_high_a": hi_a, "win_rate_b": eb.value, "ci_low_b": lo_b, "ci_high_b": hi_b,
        "diff": diff.value, "ci_low": d_lo, "ci_high": d_hi, "se": se, "df": df,
        "units": diff.units.astype(np.int64), "no_spread": flat, "p_value": p,
        "strategy_a": [m.a for m in measured], "strategy_b": [m.b for m in measured],
    })  # fmt: skip
    table = table.loc[table["units"] > 0].reset_index(drop=True)
    table.insert(table.columns.get_loc("p_value") + 1, "p_holm", holm(table["p_value"].to_numpy()))
    table.insert(table.columns.get_loc("p_holm") + 1, "significant", table["p_holm"] < alpha)
    table = table.sort_values(["diff", "strategy"], ascending=[False, True], ignore_index=True)
    return table, identical, empty


def _change(r: Any, paired: bool, signed: bool = True) -> tuple[str, str]:
    """B - A (``signed``: with its sign, else its size) and its 95% interval in signed
    percentage points, both with the decimals that set the bounds apart (``apart_digits``:
    never a bound other than 0 written 0, whether the interval is clear of 0 or across it:
    '[-0.04, +0.20]', never '[+0.0, +0.2]'); or, for the interval, why there is none: too few
    deals, or no spread (``no_spread``: every duplicate set paired gave the same difference,
    or at several tables each table's sets did, ``one_stratum``; ``compare`` gives unpaired
    rates without spread Newcombe's interval instead)."""
    k = apart_digits(r.ci_low, r.ci_high)
    figure = signed_points(r.diff, k) if signed else points(r.diff, k)
    if getattr(r, "no_spread", False) and not np.isfinite(r.ci_low):
        alike = one_stratum(getattr(r, "units", np.nan), getattr(r, "df", np.nan))
        why = no_spread(int(r.units), alike=alike) if paired else no_spread_value(alike)
        return figure, f"({why})"
    return figure, difference_interval(r.ci_low, r.ci_high, digits=k)


def holm_column(table: pd.DataFrame, alpha: float) -> list[str]:
    """The table's 'Holm p' column (and the sentence above it, the same figures), each read
    against ``alpha`` beside the 'sig' cell that judges it: in one form for the whole column
    (``reports.numbers.p_column``: decimals, or powers of ten where one is below 0.001, never
    a mix), with the digits that keep each on its side of ``alpha``; 'n/a' where there is
    none."""
    return [cell or "n/a" for cell in p_column(table["p_holm"], alpha)]


def _p_said(p: float, cell: str, alpha: float) -> str:
    """A p-value in a sentence over the table: a Holm one as its table ``cell`` writes it
    (``holm_column``), the one before the correction (no cell) as a sentence writes any p
    (``p_text``: on its side of ``alpha``): 'p = 0.03 before the correction, p = 0.09 after'."""
    if cell and cell != "n/a":
        return f"p {cell}" if cell.startswith("<") else f"p = {cell}"
    return p_text(p, alpha)


def _alone(r: Any, alpha: float) -> bool:
    """Would the difference ``r`` count as a change before Holm's correction: its 95%
    interval clear of 0, or, with no spread to give one, its sign test's p below ``alpha``?"""
    if np.isfinite(r.ci_low) and np.isfinite(r.ci_high):
        return not r.ci_low <= 0 <= r.ci_high
    return bool(getattr(r, "no_spread", False) and r.p_value < alpha)


def _uncorrected(table: pd.DataFrame, alpha: float) -> list[int]:
    """The rows (positions in ``table``, largest change first) that Holm's correction does
    not hold but that their 95% interval (or sign test) alone would call a change."""
    rows = [i for i, r in enumerate(table.itertuples()) if not r.significant and _alone(r, alpha)]
    return sorted(rows, key=lambda i: -abs(float(table["diff"].iloc[i])))


def _findings(table: pd.DataFrame, identical: bool, alpha: float = 0.05,
              paired: bool = True) -> list[str]:  # fmt: skip
    """The changes that matter, in words: significant ones first (or that none is);
    ``identical``: every strategy won as often in each duplicate set of both runs. The
    intervals are each 95%, significance Holm's at ``alpha`` over the strategies compared:
    where the two disagree the sentence says which is which, for every strategy on which
    they do (``_uncorrected``); a difference with no spread has no interval, and says so
    (``paired``: B - A was paired per duplicate set)."""
    if identical:
        return ["no strategy changed: each won as often in B as in A in every duplicate set "
                "paired (B - A is 0, with no spread)"]  # fmt: skip
    flat = table["no_spread"].any() if "no_spread" in table else False
    if not np.isfinite(table["p_value"]).any() and not flat:
        return ["too few deals for an interval: no difference can be told"]
    sig = table[table["significant"]].copy()
    sig = sig.reindex(sig["diff"].abs().sort_values(ascending=False).index)
    said = [(r, *_change(r, paired, signed=False)) for r in sig.itertuples()]
    parts = [
        f"{r.strategy} wins {size} {'more' if r.diff > 0 else 'less'} in B {span}"
        + (f" (significant at alpha {alpha:g} after Holm correction, though its 95% interval "
           "includes 0)" if r.ci_low <= 0 <= r.ci_high else "")
        for r, size, span in said
    ]  # fmt: skip
    holm = holm_column(table, alpha)
    alone = _uncorrected(table, alpha)
    n = len(table)
    compared = f"after Holm correction over the {n} strateg{'y' if n == 1 else 'ies'} compared"
    if parts:
        rest = "no other strategy changed significantly" if len(sig) < n else ""
        rest += f" {compared}" if alone else ""
        notes = [_disagree(table, i, (holm, alpha), paired) for i in alone]
        return ["; ".join([*parts, *([rest] if rest else []), *notes])]
    size = table["diff"].abs().fillna(-1).round(9)  # equal changes: the surer one is named
    first = int(np.lexsort((table["p_value"].fillna(2).to_numpy(), -size.to_numpy()))[0])
    big = next(table.iloc[[first]].itertuples())  # a row as ``sig``'s: its fields by name
    figure, span = _change(big, paired)
    largest = f"{figure} {span}"
    if first in alone:  # the 95% interval (or sign test) alone would call it a change
        largest += f", {_p_pair(table, first, holm, alpha)}"
    head = f"no strategy changed significantly{f' {compared}' if alone else ''}"
    notes = [_disagree(table, i, (holm, alpha), paired) for i in alone if i != first]
    return ["; ".join([f"{head} (largest: {big.strategy} {largest})", *notes])]


def _p_pair(table: pd.DataFrame, i: int, holm: list[str], alpha: float) -> str:
    """Row ``i``'s p-values before and after Holm's correction (``holm``: as the table's
    column writes them)."""
    before = _p_said(float(table["p_value"].iloc[i]), "", alpha)
    return f"{before} before the correction, {_p_said(np.nan, holm[i], alpha)} after"


def _disagree(table: pd.DataFrame, i: int, holm: tuple[list[str], float],
              paired: bool) -> str:  # fmt: skip
    """That row ``i``'s 95% interval (or, with no spread, sign test) alone calls it a change
    which Holm's correction does not hold: '... is a change by its 95% interval alone, not
    after the correction (p = 0.01 before the correction, p = 0.05 after)'."""
    r = next(table.iloc[[i]].itertuples())
    figure, span = _change(r, paired)
    test = "95% interval" if np.isfinite(r.ci_low) and np.isfinite(r.ci_high) else "sign test"
    return (f"{r.strategy} {figure} {span} is a change by its {test} alone, not after the "
            f"correction ({_p_pair(table, i, *holm)})")  # fmt: skip
