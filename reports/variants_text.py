"""One job, the comparison of rule variants in words: per variant the clear differences to the
default rules (``clear_when``), each with its 95% interval, then what shows no clear
difference (named by ``reports.variants_unclear``); the default rules' own figures; how the
differences were measured. Numbers are rounded as the tables round them; the CSVs keep them
all."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .designer_text import (
    baseline_designer,
    designer_parts,
    ladder_sentence,
    sample_sentence,
)
from .numbers import (
    PERCENTAGE_POINTS,
    TOO_FEW,
    apart_digits,
    beside_digits,
    counted,
    difference_interval,
    fixed,
    interval,
    pct,
    signed_points,
)
from .variants_display import floored, nonnegative, ordinal, shown
from .variants_sets import shared_units
from .variants_unclear import NAMES, lost, unclear
from .variants_words import (
    RATES,
    UNITS,
    apart,
    apart_ends,
    change,
    clear_when,
    diff_digits,
    flat,
    in_brackets,
    in_finished,
    is_clear,
    missing,
    others,
    points,
    with_unit,
)

__all__ = ["ALPHA", "NAMES", "findings", "ordinal"]

ALPHA = 0.05
Key = tuple[str, str, str, int]  # (rules, metric, n_players, position)


def _rate(v: float, lo: float, hi: float, k: int = 1) -> str:
    return f"{pct(v, k)} {interval(lo, hi, digits=k)}"


class _Lookup:
    """The metrics and differences tables, by (rules, metric, n_players, position)."""

    def __init__(self, metrics: pd.DataFrame, diffs: pd.DataFrame,
                 ladder: pd.DataFrame | None = None,
                 todays: Mapping[str, Sequence[int]] | None = None):  # fmt: skip
        self.m = {self.key(r): r for _, r in metrics.iterrows()}
        self.d = {self.key(r): r for _, r in diffs.iterrows()}
        self.ladder = ladder  # the skill ladder's steps: whether a best is told apart
        self.quiet = False  # the sentence has said once that no figure has an interval
        self.todays = dict(todays or {})  # per rule set: table sizes where it plays as today's

    @staticmethod
    def key(r: pd.Series) -> Key:
        """A row's key in both tables."""
        return str(r["rules"]), str(r["metric"]), str(r["n_players"]), int(r["position"])

    def digits(self, *keys: Key) -> int:
        """The decimals of seat rates set against their fair share (``beside_digits``, the
        most any of ``keys`` needs, so one sentence writes them alike); 1 for other rates."""
        k = 1
        for key in keys:
            r = self.m.get(key)
            if r is not None and key[1] == "seat":
                f = r["fair"]
                k = max(k, beside_digits(r["ci_low"] + f, r["ci_high"] + f, f))
        return k

    def level(self, key: Key) -> tuple[float, float, float]:
        """The measure's value and bounds as written (a seat's: its win rate), a level inside
        the values it takes, as its table cell (``floored``): never below 0, and a rate (a
        share, a seat's win rate) never above 100%."""
        r = self.m[key]
        add = r["fair"] if key[1] == "seat" else 0.0
        v, lo, hi = r["value"] + add, r["ci_low"] + add, r["ci_high"] + add
        if key[1] in RATES or nonnegative(key[1]):  # a level (a seat's: its win rate): >= 0
            top = 1.0 if key[1] in RATES else np.inf  # a rate, a share: its whole, unscaled
            v, lo, hi = floored(v, lo, hi, top=top)  # as its table cell (``value_text``)
        return v, lo, hi

    def cell_digits(self, *keys: Key) -> int:
        """The most decimals any of ``keys`` is written with: a seat's win rate's set against
        its fair share (``digits``), another measure's those of its table cell
        (``value_text``: more where a bound would read as 0 or as the other), never '0.1%
        [0.0, 0.3]' beside a cell of '0.10% [0.04, 0.30]'."""
        k = 1
        for key in keys:
            if key[1] == "seat":
                k = max(k, self.digits(key))
            elif key in self.m:
                _, lo, hi = self.level(key)
                s = shown(key[1])
                k = max(k, apart(lo, hi, s.digits, s.scale))
        return k

    def shown(self, key: Key, bracket: bool = True, k: int | None = None, sign: str = "") -> str:
        """The measure's value as the findings write it, with its unit and interval, inside
        the values it takes (``level``): '42.1 turns [41.9, 42.4]', '26.9% [26.1, 27.7]'; one
        in percentage points, a difference of rates, with signed bounds: '5.0 percentage
        points [+3.1, +6.9]' (``k``: its decimals, as a difference beside it is written,
        ``diff_digits``; else ``cell_digits``; ``sign`` "+": the figure's sign written)."""
        v, lo, hi = self.level(key)
        k = self.cell_digits(key) if k is None else k
        if not (np.isfinite(lo) and np.isfinite(hi)):
            bracket = False  # no interval: the sentence says why (``figure``)
        if key[1] in RATES:
            return _rate(v, lo, hi, k) if bracket else pct(v, k)
        scale = 100.0 if points(key[1]) else 1.0
        unit = PERCENTAGE_POINTS if scale == 100.0 else UNITS.get(key[1], "")
        text = with_unit(fixed(scale * v, k, sign), unit)
        span = (difference_interval(lo, hi, scale, k) if scale == 100.0  # a difference of rates
                else in_brackets(scale * lo, scale * hi, k))  # fmt: skip
        return f"{text} {span}" if bracket else text

    def figure(self, key: Key, words: str) -> str:
        """``words`` with the measure's figure ('the lead changes {} a game') and, where it
        has no interval, why not in words: a figure never stands bare."""
        r = self.m[key]
        bare = not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"]))
        text = words.format(self.shown(key))
        if not bare or (self.quiet and not _flat(r)):
            return text
        if text.endswith(")"):  # one parenthesis: '(low - random; no interval: ...)'
            return f"{text[:-1]}; {missing(r)})"
        return f"{text} ({missing(r)})"


def _flat(r: pd.Series) -> bool:
    return flat(r["value"], r["se"], r["df"])


def _still(r: pd.Series) -> bool:
    """Did every duplicate set give a difference row ``r`` the same difference (its
    ``no_spread``, whatever interval it states: a share's Newcombe interval has no ``se``)?
    No where a table lacks the column."""
    said = r.get("no_spread", False)
    return bool(said) if isinstance(said, bool | np.bool_) else False


def _length(look: _Lookup, rules: str, base: str) -> list[str]:
    """How much shorter or longer games are, in each measure clearly changed (turns, rounds),
    each beside its own figures: a parenthesis gives the measure its claim is about."""
    parts = []
    for metric, less, more in (("turns", "shorter", "longer"), ("rounds", "fewer", "more")):
        r = look.d.get((rules, metric, "all", -1))
        if not is_clear(r):
            continue
        keys = [(rules, metric, "all", -1), (base, metric, "all", -1)]
        if not all(key in look.m for key in keys):  # a table lacking either figure: the claim alone
            parts.append(change(r, less, more))
            continue
        k = diff_digits(r)  # as the difference: not '44.0 against 44.0'
        v, b = (look.shown(key, bracket=False, k=k) for key in keys)
        parts.append(f"{change(r, less, more)} ({v} against {b})")
    return [f"games are {' and '.join(parts)}"] if parts else []


def _first_player(look: _Lookup, rules: str, base: str, n: str) -> str | None:
    """What became of the first player's edge at ``n`` players, or None (no clear change).
    'Shrinks .. and is no longer shown' (not shown to be 0): the default rules' edge interval
    excludes 0, the variant's does not, and the change is clear, towards 0; without a clear
    change, 'is no longer clear'. An edge (an
    advantage) or a disadvantage clear under both 'grows' or 'shrinks' in size; an edge clear
    under neither 'rises' or 'falls' (its size may not change: +1 to -1)."""
    key_b, key_v = (base, "seat", n, 0), (rules, "seat", n, 0)
    if key_b not in look.m or key_v not in look.m:
        return None
    b, v, r = look.m[key_b], look.m[key_v], look.d.get(key_v)
    sign_b = 1 if b["ci_low"] > 0 else -1 if b["ci_high"] < 0 else 0
    sign_v = 1 if v["ci_low"] > 0 else -1 if v["ci_high"] < 0 else 0
    clear = is_clear(r)
    grows = clear and (r["diff"] > 0) == (sign_b > 0)  # a clear change away from 0
    words = {1: "advantage", -1: "disadvantage"}
    if sign_b and not sign_v and np.isfinite(v["ci_low"]) and not grows:
        what = f"the first player's {words[sign_b]} " + (f"shrinks by {change(r, '', '')} and "
                "is no longer shown" if clear else "is no longer clear")  # fmt: skip
    elif not sign_b and sign_v and clear and (r["diff"] > 0) == (sign_v > 0):
        what = f"a first-player {words[sign_v]} appears"
    elif sign_b and sign_v and sign_b != sign_v and clear:
        what = f"the first player's {words[sign_b]} turns into a {words[sign_v]}"
    elif clear and sign_b:  # clear one way under both rule sets, or growing: its size changes
        what = (f"the first player's {'edge' if sign_b > 0 else words[sign_b]} "
                f"{'grows' if grows else 'shrinks'} by {change(r, '', '')}")  # fmt: skip
    elif clear:  # clear of 0 under neither: its value moves, no advantage is said to grow
        what = f"the first player's edge {('falls', 'rises')[r['diff'] > 0]} by {change(r, '', '')}"
    else:
        return None
    note = "" if clear or r is None else f"; the change, {_signed(r)}, is not clear"
    k = look.digits(key_v, key_b)
    return (f"{what} (at {n} players the first player wins {look.shown(key_v, k=k)} against "
            f"{look.shown(key_b, k=k)} under the default rules, fair share "
            f"{pct(v['fair'], k)}{note})")  # fmt: skip


def _signed(r: pd.Series) -> str:
    """A difference of rates with its sign and interval, or why it has none."""
    if not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"])):
        return f"{signed_points(r['diff'])} ({missing(r, 'diff')})"
    k = apart_digits(r["ci_low"], r["ci_high"])  # as the table's cell of the change
    span = difference_interval(r["ci_low"], r["ci_high"], digits=k)
    return f"{signed_points(r['diff'], k)} {span}"


def _other_seats(look: _Lookup, rules: str, base: str, n: str) -> str | None:
    """The largest clear change of a later seat's edge at ``n`` players, if any is clear."""
    rows = [r for k, r in look.d.items() if k[:3] == (rules, "seat", n) and k[3] > 0]
    rows = [r for r in rows if is_clear(r)]
    if not rows:
        return None
    r = max(rows, key=lambda x: abs(x["diff"]))
    p = int(r["position"])
    who = "last" if p == int(n) - 1 else ordinal(p)
    key_v, key_b = (rules, "seat", n, p), (base, "seat", n, p)
    k = look.digits(key_v, key_b)  # the two rates written alike
    return (f"the {who} player to move at {n} players wins {change(r, 'less', 'more')} "
            f"({look.shown(key_v, k=k)} against {look.shown(key_b, k=k)})")  # fmt: skip


def _skill(look: _Lookup, rules: str, base: str) -> list[str]:
    """Skill spread and the best strategy against random, where they changed clearly."""
    out = []
    key_v, key_b = (rules, "skill_spread", "all", -1), (base, "skill_spread", "all", -1)
    r = look.d.get(key_v)
    if is_clear(r):
        v, b = look.m[key_v], look.m[key_b]
        other = "" if v["detail"] == b["detail"] else f" ({b['detail']})"
        out.append(
            f"skill matters {'less' if r['diff'] < 0 else 'more'}: the best strategy beats the "
            f"worst by {look.shown(key_v)} of win rate{in_finished(look, rules)}, "
            f"{_paired_over(look, key_v)} "
            f"({v['detail']}{apart_ends(look.ladder, rules, v['detail'])}), against "
            f"{look.shown(key_b, bracket=False)}{other}{in_finished(look, base)} under the "
            f"default rules: {change(r, 'less', 'more')}"
        )
    key_v, key_b = (rules, "best_vs_random", "all", -1), (base, "best_vs_random", "all", -1)
    r = look.d.get(key_v)
    if is_clear(r):
        v, b = look.m[key_v], look.m[key_b]
        top, top_b = v["detail"].split(" ahead")[0], b["detail"].split(" ahead")[0]
        other = "" if top == top_b else f" ({top_b})"
        out.append(
            f"{top} finishes ahead of random in {look.shown(key_v)} of the "
            f"{shared_units(v['detail'])} they share, "
            f"against {look.shown(key_b, bracket=False)}{other} under the default rules: "
            f"{change(r, 'less', 'more')}"
        )
    return out


def _paired_over(look: _Lookup, key: Key) -> str:
    """Over which duplicate sets the skill spread ``key`` is a mean of paired differences:
    'paired over the 6 of 15 duplicate sets where both sat' (all of the run's sets: those its
    game length counts); where some game was unfinished, the sets where both sat at a game
    that finished (those the spread counts: ``in_finished``)."""
    r = look.m[key]
    both = int(r["deal_sets"])
    run = next((look.m[k] for k in ((key[0], m, "all", -1) for m in GAME_SETS) if k in look.m),
               None)  # fmt: skip
    total = None if run is None else int(run["deal_sets"])
    sets = "duplicate set" if both == 1 else "duplicate sets"
    sat = "both sat" + (" at a finished game" if in_finished(look, key[0]) else "")
    if total is None or total < both:
        over = f"the {both:,} {sets} where {sat}"
    elif both == total:  # never 'all 1 duplicate set'
        over = "the run's one duplicate set" if total == 1 else f"all {total:,} {sets} of the run"
    else:
        over = f"the {both:,} of {total:,} duplicate sets where {sat}"
    return f"paired over {over}"


GAME_SETS = ("turns", "rounds", "unfinished")
"""Measures counted over every duplicate set of a run (how many sets the run has)."""

PHRASES = {
    "runner_up": (("games are closer", "fewer"), ("games are less close", "more"),
                  "the runner-up is left with {v} against {b}"),
    "unfinished": (("fewer games end unfinished", "less"),
                   ("more games end unfinished (at the turn limit)", "more"), "{v} against {b}"),
    "shared_wins": (("fewer expert matches end in a shared win", "less"),
                    ("more expert matches end in a shared win", "more"), "{v} against {b}"),
    "match_games": (("expert matches are shorter", "fewer"), ("expert matches are longer", "more"),
                    "{v} against {b}"),
}  # fmt: skip
"""Per measure: (what a decrease means, its word), (an increase, its word), the figures."""


def _sizes(look: _Lookup) -> set[str]:
    return {k[2] for k in look.m if k[1] == "seat"}


Said = tuple[str, list[str]]
"""A finding and the metrics it speaks of (the page links their charts and tables)."""


def _ladder_steps(look: _Lookup, rules: str) -> tuple[list[str], set[Key]]:
    """The skill ladder's steps that change clearly, each in its direction ('counter over
    high falls by 12.7 percentage points [8.7, 16.7]'), the others said in the same clause
    as not clear; with the keys it speaks of, so 'no clear difference in the skill ladder's
    steps' is never said beside a step that does change (none where none is clear)."""
    rows = sorted((r for k, r in look.d.items() if k[0] == rules and k[1] == "ladder_step"),
                  key=lambda r: int(r["position"]))  # fmt: skip
    clear = [r for r in rows if is_clear(r)]
    if not clear:
        return [], set()
    each = [f"{str(r['detail']).replace(' - ', ' over ')} "
            f"{'rises' if r['diff'] > 0 else 'falls'} by {change(r, '', '')}"
            for r in clear]  # fmt: skip
    rest = len(rows) - len(clear)
    tail = "" if not rest else f", the {'other' if rest == 1 else 'others'} not clearly"
    text = (f"the skill ladder's steps change clearly in {len(clear)} of {len(rows)}: "
            f"{', '.join(each)}{tail}")  # fmt: skip
    return [text], {look.key(r) for r in rows}


def _variant(look: _Lookup, rules: str, base: str) -> list[Said]:
    """The bullets of one variant: length and seats, then skill and the rest, then the
    designers' measures, then the measures with no clear difference."""
    first = [(t, ["turns", "rounds"]) for t in _length(look, rules, base)]
    told: set[Key] = set()
    for n in sorted(_sizes(look)):
        said = _first_player(look, rules, base, n)
        if said:
            first.append((said, ["seat"]))
            told.add((rules, "seat", n, 0))
        first += [(s, ["seat"]) for s in (_other_seats(look, rules, base, n),) if s]
    second = [(t, ["skill_spread", "best_vs_random"]) for t in _skill(look, rules, base)]
    steps, said_steps = _ladder_steps(look, rules)
    second += [(t, ["ladder_step"]) for t in steps]
    told |= said_steps
    second += others(look, rules, base, PHRASES)
    third = designer_parts(look, rules, base)
    rows = [r for k, r in look.d.items() if k[0] == rules]
    gone = lost(look, rules, base)
    if rows and not gone and all(r["diff"] == 0 and _still(r) for r in rows):
        return [(f"With {rules}, every measure is the same as under the default rules: the "
                 "games played out alike.", [])]  # fmt: skip
    rest = [(t, []) for t in unclear(look, rules, told, len(_sizes(look)) > 1)]
    parts = [part for part in (first, second, third, rest, gone) if part]
    return [(f"With {rules}, " + "; ".join(t for t, _ in part) + ".",
             list(dict.fromkeys(m for _, ms in part for m in ms))) for part in parts]  # fmt: skip


def _baseline(look: _Lookup, base: str, note: str, extra: list[str]) -> str:
    """The default rules' own figures, in one sentence (``extra``: the designers' figures'
    clauses). A figure without an interval says why; where none has one, ``note`` (from
    ``_none_note``) says so once."""
    parts = []
    if (base, "turns", "all", -1) in look.m:
        rounds = (base, "rounds", "all", -1)
        more = f" ({look.shown(rounds, bracket=False)})" if rounds in look.m else ""
        parts.append(look.figure((base, "turns", "all", -1), "games last {}" + more))
    for n in sorted(_sizes(look)):
        key = (base, "seat", n, 0)
        if key in look.m:
            fair = pct(look.m[key]["fair"], look.digits(key))
            parts.append(look.figure(key, f"the first player wins {{}} at {n} players (fair "
                                          f"share {fair})"))  # fmt: skip
    key = (base, "skill_spread", "all", -1)
    if key in look.m:
        detail = look.m[key]["detail"]
        paired = f"{_paired_over(look, key)} ({detail}{apart_ends(look.ladder, base, detail)})"
        parts.append(look.figure(key, f"the best strategy beats the worst by {{}}"
                                      f"{in_finished(look, base)}, {paired}"))  # fmt: skip
    key = (base, "best_vs_random", "all", -1)
    if key in look.m:
        detail = look.m[key]["detail"]
        top, units = detail.split(" ahead")[0], shared_units(detail)
        parts.append(look.figure(key, f"{top} finishes ahead of random in {{}} of the {units} "
                                      "they share"))  # fmt: skip
    for metric, words in (("runner_up", "the runner-up is left with {}"),
                          ("unfinished", "{} of games end unfinished"),
                          ("shared_wins", "{} of expert matches end in a shared win")):  # fmt: skip
        key = (base, metric, "all", -1)
        if key in look.m:
            parts.append(look.figure(key, words))
    return f"Under the default rules{note}: " + "; ".join(parts + extra)


def _none_note(look: _Lookup, base: str) -> str:
    """' (too few deals for any interval)' where no figure of the default rules has one for
    want of deals (each figure then goes without saying it again); else ''."""
    rows = [r for k, r in look.m.items() if k[0] == base and k[1] != "ladder_step"]
    look.quiet = bool(rows) and all(
        not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"])) for r in rows
    )
    return f" ({TOO_FEW} of any figure)" if look.quiet else ""


def findings(metrics: pd.DataFrame, diffs: pd.DataFrame, labels: list[str], method: str,
             ladder: pd.DataFrame | None = None, left_out: Sequence[str] = (),
             todays: Mapping[str, Sequence[int]] | None = None) -> list[Said]:  # fmt: skip
    """The key findings, each with the metrics it speaks of: each variant's clear differences
    to the default rules (``labels[0]``) first, then the default rules' own figures, the
    skill ladder (``reports.designer_measures.ladder_table``; ``left_out``: the strategies
    it leaves out, as they forfeited games), where the designers' measures come from and how
    the differences were measured. ``todays``: per variant, the table sizes at which it
    plays as today's rules (its games there are the default run's: said so)."""
    look = _Lookup(metrics, diffs, ladder, todays)
    base = labels[0]
    out = [b for rules in labels[1:] for b in _variant(look, rules, base)]
    note = _none_note(look, base)  # first: the figures below then know whether to say it
    extra = baseline_designer(look, base)
    out.append((_baseline(look, base, note, extra) + ".",
                ["turns", "seat", "skill_spread"]))  # fmt: skip
    if ladder is not None and len(ladder):
        games = next((g for g in (in_finished(look, rules) for rules in labels) if g), "")
        out.append((ladder_sentence(ladder, labels, left_out, games), ["ladder_step"]))
    sample = sample_sentence(metrics, labels)
    if sample:
        out.append((sample, ["lead_changes"]))
    ladder_rows = diffs["metric"] == "ladder_step"
    n = diffs[~ladder_rows].groupby("rules", sort=False).size()
    family = f"the variant's {counted(int(n.iloc[0]) if len(n) else 0, 'measure')}"
    if n.nunique() > 1:  # a variant whose games gave fewer measures was corrected over fewer
        each = ", ".join(f"{int(k)} for {rules}" for rules, k in n.items())
        family = f"each variant's measures ({each})"
    own = "; in Holm's correction the skill ladder's steps are a family of their own"
    return [*out, (f"{method}. A difference is clear when it is {clear_when(family)} (95% "
                   f"intervals in brackets, not corrected){own if ladder_rows.any() else ''}.",
                   [])]  # fmt: skip
