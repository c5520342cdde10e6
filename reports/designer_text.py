"""The designers' measures of a comparison of rule variants in words: a variant's clear
differences in lead changes, drama, wins from behind, when games are decided and the cost of
each restriction; the default rules' own figures; the skill ladder's levels per rule set; and
where the replayed sample comes from (how many games and duplicate sets)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .numbers import (
    NO_SPREAD_WITHIN,
    TOO_FEW,
    apart_digits,
    counted,
    difference_interval,
    fixed,
    in_percentage_points,
    interval,
    p_text,
    signed_points,
)
from .variants_words import change, in_finished, missing, others

__all__ = [
    "baseline_designer",
    "designer_parts",
    "ladder_sentence",
    "restriction_name",
    "sample_sentence",
]

PHRASES = {
    "lead_changes": (("the lead changes less often", "fewer"),
                     ("the lead changes more often", "more"),
                     "{v} a game, against {b}"),
    "drama": (("the winner trails for less of the game", "less"),
              ("the winner trails for more of the game", "more"),
              "behind in {v} of the turns against {b}"),
    "comeback": (("fewer games are won from behind", "less"),
                 ("more games are won from behind", "more"),
                 "the winner trailed at half-time in {v} of the games against {b}"),
    "decided_at": (("games are decided earlier", "less"), ("games are decided later", "more"),
                   "the winner leads for good from {v} of the game against {b}"),
}  # fmt: skip
"""Per trace measure: (a decrease, its word), (an increase, its word), the figures."""


def _restricting(r: Any) -> str:
    """'restricting weighted so that it never passes while it can play': one restriction in
    words, from its row's ``detail`` ('weighted: never passes while it can play'); its name
    (``restricted_<name>``) where the row says no more."""
    who, _, what = str(r.get("detail", "") or "").partition(": ")
    if not what:
        return f"restricted play ({str(r['metric']).removeprefix('restricted_')})"
    return f"restricting {who} so that it {what}"


def restriction_name(r: Any) -> str:
    """A restriction's cost as the findings' lists name it, each restriction on its own: 'the
    cost of restricting weighted so that it never passes while it can play'."""
    return f"the cost of {_restricting(r)}"


def _restricted(look: Any, rules: str, base: str) -> list[tuple[str, list[str]]]:
    out = []
    for key, r in look.d.items():
        if key[0] != rules or not str(key[1]).startswith("restricted_") or not r["significant"]:
            continue
        v, b = _effect(look, key), _effect(look, (base, *key[1:]), bracket=False)
        out.append((f"{_restricting(r)} {v} (under the default rules it {b}): "
                    f"{change(r, 'less', 'more')}", [key[1]]))  # fmt: skip
    return out


def _effect(look: Any, key: tuple, bracket: bool = True) -> str:
    """What a restriction does to its strategy's win rate, in the direction of its value: 'costs
    it 5.0 percentage points [+3.1, +6.9] of win rate' (the cost as its table cell writes it,
    signed bounds), or where restricted it wins more, 'raises its win rate by 8.0 percentage
    points [4.0, 12.0]', never a negative cost: the gain is the cost turned round, a size whose
    direction the words carry, so its bounds are unsigned where they lie above 0 (a table's
    '-8.0 [-12.0, -4.0]' is never '[+4.0, +12.0]' beside it); across 0 they keep their signs.
    The gain is written with its interval's decimals (``apart_digits``), as a cost is
    (``look.shown``): never '0.1 percentage points [-0.04, +0.25]'."""
    r = look.m[key]
    games = in_finished(look, key[0], r.get("detail", ""))
    if r["value"] >= 0:
        return f"costs it {look.shown(key, bracket=bracket)} of win rate{games}"
    lo, hi = -r["ci_high"], -r["ci_low"]  # the cost's interval turned round: the gain's
    k = apart_digits(lo, hi)
    gain = in_percentage_points(fixed(-100 * r["value"], k))
    if bracket and np.isfinite(lo) and np.isfinite(hi):
        gain += (
            f" {interval(lo, hi, digits=k) if lo > 0 else difference_interval(lo, hi, digits=k)}"
        )
    return f"raises its win rate{games} by {gain}"


def designer_parts(look: Any, rules: str, base: str) -> list[tuple[str, list[str]]]:
    """The variant's clear differences in the designers' measures, each with its metric."""
    return others(look, rules, base, PHRASES) + _restricted(look, rules, base)


def baseline_designer(look: Any, base: str) -> list[str]:
    """The default rules' designers' figures, a clause each (none when none was measured);
    a figure without an interval says why (``look.figure``)."""
    parts = []
    words = (("lead_changes", "the lead changes {} a game"),
             ("drama", "the winner trails in {} of the turns"),
             ("comeback", "the winner was behind at half-time in {} of the games"),
             ("decided_at", "the winner leads for good from {} of the game on"))  # fmt: skip
    for metric, text in words:
        key = (base, metric, "all", -1)
        if key in look.m:
            parts.append(look.figure(key, text))
    for key in sorted(k for k in look.m if k[0] == base and str(k[1]).startswith("restricted_")):
        parts.append(_cost(look, key))
    return parts


def _cost(look: Any, key: tuple) -> str:
    """What a restriction costs its strategy: a clear cost, none clear, or, without an
    interval, that the run cannot tell (too few deals, or no spread between them: within
    each table, where the sets lie at several, ``missing``)."""
    r = look.m[key]
    head = f"{_restricting(r)} costs it"
    games = in_finished(look, key[0], r.get("detail", ""))
    if not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"])):
        said = missing(r)
        within = " of each table" if said == NO_SPREAD_WITHIN else ""
        why = "too few deals" if said == TOO_FEW else f"no spread between the deals{within}"
        return (f"{_restricting(r)}: {why} to tell what it costs it "
                f"({look.shown(key)} of win rate{games}, no interval)")  # fmt: skip
    if r["ci_low"] > 0 or r["ci_high"] < 0:
        return f"{_restricting(r)} {_effect(look, key)}"
    return f"{head} no clear win rate{games} ({look.shown(key, sign='+')})"


def ladder_sentence(ladder: pd.DataFrame, labels: list[str], left_out: Sequence[str] = (),
                    games: str = "") -> str:  # fmt: skip
    """How many skill levels each rule set tells apart at least (a one-sided bound, at least
    95% sure: ``reports.designer_measures.ladder_table``), in the same words for every rule
    set (a run too small to test any step says so, whichever rule set it is); the pairs a
    rule set orders the other way round, significantly (no level: its order differs from the
    ladder's); and which steps of the default rules' ladder are not significant, each with
    what it would need to be. ``left_out``: the strategies it leaves out under every rule set,
    as they forfeited games (``reports.variants.ladder_rungs``), named; ``games``: which games
    the steps' win rates count where some rule set left games unfinished (``in_finished``)."""
    base = labels[0]
    per = {rules: grp for rules, grp in ladder.groupby("rules", sort=False)}
    own = per.get(base, ladder.iloc[:0])
    told = _told(own)
    flat = [_flat(r) for r in own.itertuples() if not r.significant] if told != UNTESTED else []
    others = "; ".join(f"{rules}: {_told_short(per[rules])}" for rules in labels[1:]
                       if rules in per)  # fmt: skip
    head = (
        "The skill ladder (the field in the default rules' order of strength"
        + _left_out(left_out)
        + f", each step a strategy over the next{games}, paired by deal"
        + (f", Holm over the {counted(len(own), 'step')}): " if len(own) else "): ")
    )
    levels, rungs = _levels(own)
    if not len(own):
        text = head + "no step of the default rules was measured"
    elif told == UNTESTED:
        text = head + f"the run has {TOO_FEW} of any step of the default rules"
    elif told == NONE_APART:
        text = head + (f"no step of the default rules' {rungs} strategies is significant (at "
                       f"least 1 level: {NO_PAIR})")  # fmt: skip
    elif levels == 1:  # significant steps, each the other way: no level is told apart
        text = head + f"no step of the default rules' {rungs} strategies goes up significantly"
    else:
        text = head + (f"the default rules tell at least {levels} skill levels apart among its "
                       f"{rungs} strategies ({_bound(own)})")  # fmt: skip
    text += "".join(f"; {c}" for c in (_reversed(own), _uncounted(own)) if c)
    if flat:  # where some step is significant, the others are named as not
        what = "" if told == NONE_APART else " not significant"
        text += f"; the {'step' if len(flat) == 1 else 'steps'}{what}: {', '.join(flat)}"
    return text + (f"; {others}." if others else ".")


def _left_out(names: Sequence[str]) -> str:
    """', flaky left out under every rule set as it forfeited games', or '' for none."""
    if not names:
        return ""
    verb = "it" if len(names) == 1 else "they"
    return f", {_and(list(names))} left out under every rule set as {verb} forfeited games"


BOUND = (
    "a one-sided bound, at least 95% sure: a level is a step significant with its interval "
    "above 0, and Holm over the steps' one-sided tests keeps the chance that any step counted "
    "is in truth not upward under 5%"
)
"""Why the levels are a lower bound, and at what confidence (``ladder_table``)."""
SIGNS = ("interval above 0 or, with no spread, more of its duplicate sets above 0 than below "
         "by their sign test")  # fmt: skip
"""A level's side of 0 where one counted has no spread, and so no interval."""


def _bound(steps: pd.DataFrame) -> str:
    """``BOUND``, which says how a level with no spread is counted where one is."""
    if (_flag(steps, "level") & _flag(steps, "no_spread")).any():
        return BOUND.replace("interval above 0", SIGNS, 1)
    return BOUND


NO_PAIR = "the bound tells no neighbouring pair apart"
"""What a ladder with no significant step tells: at least 1 level, a lower bound from
neighbouring steps, which cannot say that nothing is told apart (the best may still beat the
worst clearly)."""


def _reversed(steps: pd.DataFrame) -> str:
    """The pairs a rule set orders the other way round from the ladder, significantly, as
    the lower strategy ahead by the step's size with its interval turned round ('high ahead
    of counter by 7.3 percentage points [0.6, 13.9]'): the direction is in the words, so the
    bounds are of the size, unsigned, and written with the table cell's decimals."""
    rows = steps[_flag(steps, "reversed")]
    if not len(rows):
        return ""
    pairs = []
    for r in rows.itertuples():
        k = apart_digits(-r.ci_high, -r.ci_low)  # as the step's cell: the same decimals
        size = in_percentage_points(fixed(-100 * r.diff, k))
        span = (f"({_same(r)})" if getattr(r, "no_spread", False)
                else interval(-r.ci_high, -r.ci_low, digits=k))  # fmt: skip
        pairs.append(f"{r.lower} ahead of {r.upper} by {size} {span}")
    return (
        "its order differs from the ladder's (steps significant the other way, no levels): "
        + _and(pairs)
    )


def _uncounted(steps: pd.DataFrame) -> str:
    """Steps significant upward that Holm over the one-sided tests does not keep (possible
    where steps significant the other way ease the two-sided test's later stages): named, as
    the levels do not count them."""
    if "level" not in steps or "ci_low" not in steps:  # a table that does not tell
        return ""
    above = (steps["ci_low"].to_numpy(float) > 0) | _flag(steps, "no_spread")  # else reversed
    up = _flag(steps, "significant") & above & ~_flag(steps, "reversed")
    rows = steps[up & ~_flag(steps, "level")]
    if not len(rows):
        return ""
    names = _and([f"{r.upper} over {r.lower}" for r in rows.itertuples()])
    return (f"{names} significant but not counted (Holm over the one-sided tests does not keep "
            f"{'it' if len(rows) == 1 else 'them'})")  # fmt: skip


def _flag(steps: pd.DataFrame, column: str) -> np.ndarray:
    """A yes-or-no column of the ladder table as booleans, False where it is missing or empty
    (a table written before the column was)."""
    if column not in steps:
        return np.zeros(len(steps), bool)
    return np.array([bool(v) and v == v for v in steps[column].to_numpy(object)], dtype=bool)


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


UNTESTED, NONE_APART, APART = "untested", "none apart", "apart"
"""What a rule set's ladder tells (``_told``): no step could be tested (too few deals), no
step is significant, or some step is (up, a level, or the other way)."""


def _told(steps: pd.DataFrame) -> str:
    """What one rule set's ladder tells: ``UNTESTED`` where no step has an interval to test it
    by (none significant, none without spread), ``NONE_APART`` where steps were tested and
    none is significant, else ``APART``."""
    spread = bool(steps["no_spread"].any()) if "no_spread" in steps else False
    if (
        len(steps)
        and not np.isfinite(steps["needs"]).any()
        and not steps["significant"].any()
        and not spread
    ):
        return UNTESTED
    _, rungs = _levels(steps)
    return NONE_APART if rungs > 1 and not steps["significant"].any() else APART


def _told_short(steps: pd.DataFrame) -> str:
    """A rule set's ladder in a clause, in the words of the default rules' ('take=ends: at
    least 2 of 3'; 'at least 1 of 3 (no step is significant: ...)'; too few deals), with the
    pairs it orders the other way round."""
    told = _told(steps)
    levels, rungs = _levels(steps)
    if told == UNTESTED:
        return f"{TOO_FEW} of any step"
    if told == NONE_APART:
        return f"at least 1 of {rungs} (no step is significant: {NO_PAIR})"
    head = (
        f"at least {levels} of {rungs}" if levels > 1 else f"no step up significantly among {rungs}"
    )
    return head + "".join(f", {c}" for c in (_reversed(steps), _uncounted(steps)) if c)


def _levels(steps: pd.DataFrame) -> tuple[int, int]:
    """A rule set's ladder: (the levels it tells apart at least, its strategies)."""
    if not len(steps):
        return 1, 1
    return int(steps["levels"].iloc[0]), int(steps["rungs"].iloc[0])


SAME_STEP = "within each table every duplicate set gave the same step"
"""What a step with no spread says of its sets (``ladder_table``'s ``no_spread``: a variance
within tables of 0), true however many tables: at several, their steps may differ."""


def _same(r: Any) -> str:
    """Why a step with no spread has no interval, and its test: the sign test over its sets,
    Holm's p-value beside it (the one its significance is judged by); none where the table
    did not count the sets' signs."""
    p = float(getattr(r, "p_holm", np.nan))
    if not np.isfinite(p):
        return f"{SAME_STEP}: no spread to test it by"
    return f"{SAME_STEP}, so no interval: its sets' sign test gives {p_text(p)} after Holm"


def _flat(r: Any) -> str:
    """A step that is not significant: its size and the size it would need."""
    v = signed_points(r.diff)
    if getattr(r, "no_spread", False):
        return f"{r.upper} over {r.lower} ({v}; {_same(r)})"
    if not np.isfinite(r.needs):
        return f"{r.upper} over {r.lower} ({v}, too few deals to test)"
    need = in_percentage_points(fixed(100 * r.needs))
    return (f"{r.upper} over {r.lower} ({v}; {need} either way would be significant whatever "
            "the other steps)")  # fmt: skip


def sample_sentence(metrics: pd.DataFrame, labels: list[str]) -> str:
    """Where the designers' measures come from, in one sentence ('' when none was measured):
    the games each rule set's measures count, said per rule set where they differ (a rule
    set whose replayed games never finished has none)."""
    m = metrics[(metrics["n_players"] == "all")]
    trace = _counts(m[m["metric"] == "lead_changes"], labels)
    restricted = m[m["metric"].astype(str).str.startswith("restricted_")]
    parts = []
    if trace:
        each = _per_rules(trace, "finished game")
        parts.append("lead changes, drama, wins from behind and when games are decided come "
                     "from the finished games of a sample replayed turn by turn, the same "
                     f"deals under every rule set: {each}")  # fmt: skip
    names = sorted(restricted["metric"].unique())
    counts = _counts(restricted[restricted["metric"] == names[0]], labels) if names else {}
    if counts:
        each = _per_rules(counts, "game", " per restriction", none="no game won by the strategy")
        parts.append(f"restricted play from {each}, the restricted strategy in the "
                     "unrestricted one's seat on the same deals")  # fmt: skip
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "; their intervals count those sets only."


def _counts(rows: pd.DataFrame, labels: list[str]) -> dict[str, tuple[int, int]]:
    """Per rule set (in ``labels``' order): (games, duplicate sets) of one measure's rows; a
    rule set without a row counts (0, 0) once any has one."""
    if not len(rows):
        return {}
    got = {str(r["rules"]): (int(r["games"]), int(r["deal_sets"])) for _, r in rows.iterrows()}
    return {label: got.get(label, (0, 0)) for label in labels}


def _per_rules(counts: dict[str, tuple[int, int]], noun: str, each: str = "",
               none: str = "") -> str:  # fmt: skip
    """'72 finished games per rule set (3 duplicate sets)', or per rule set where they
    differ: '72 finished games under default (3 duplicate sets), no finished game under
    turn_limit=5' (``each``: ' per restriction'; ``none``: what a rule set without any has,
    'no <noun>' by default)."""
    if len(set(counts.values())) == 1:
        games, sets = next(iter(counts.values()))
        per = f"{each} and rule set" if each else " per rule set"
        return f"{counted(games, noun)}{per} ({counted(sets, 'duplicate set')})"
    return ", ".join(
        f"{counted(g, noun)}{each} under {label} ({counted(n, 'duplicate set')})" if g else
        f"{none or f'no {noun}'} under {label}"
        for label, (g, n) in counts.items()
    )  # fmt: skip
