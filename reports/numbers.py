"""How a report's sentences write numbers: rates, intervals, differences and p-values.

One place for the formats, so the findings, the gauntlet's answer, the page and the variants'
words round alike (51.0% [50.6, 51.3]; the CSVs keep full precision).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from tournaments.declaration import plural

from .finding import and_words

__all__ = [
    "NO_SPREAD", "NO_SPREAD_WITHIN", "TOO_FEW", "beside", "beside_digits", "counted",
    "difference_interval", "fixed", "flat_sets", "interval", "no_spread", "no_spread_value",
    "one_stratum", "rate_of", "signed_bound", "LEVEL_DIGITS", "level_digits",
    "PERCENTAGE_POINT", "PERCENTAGE_POINTS", "PP", "PP_MEANS", "in_percentage_points",
    "NA", "no_valid", "p_column", "p_figure", "P_FLOOR", "p_text", "pct", "points", "pp_cell",
    "share_digits", "share_pct", "signed_points",
]  # fmt: skip

TOO_FEW = "too few deals for an interval"
"""What a sentence says where the run was too small to state an interval."""
NO_SPREAD = "no interval: every duplicate set gave the same value, no spread to measure"
"""What a sentence says where a measure's standard error is zero although the run has deals
enough: the sets show no spread, which is no evidence that the value cannot vary. Only where
its sets are one stratum (``one_stratum``); else ``NO_SPREAD_WITHIN``."""
NO_SPREAD_WITHIN = ("no interval: within each table every duplicate set gave the same value, "
                    "no spread to measure")  # fmt: skip
"""``NO_SPREAD`` where the sets lie at several tables: a standard error of zero says only that
each table's sets agree (``reports.clusters``: the variance is within tables), not that
every set gave the same value."""

NA = "n/a"
"""What a table writes in place of a figure that measures nothing (``no_valid`` says why)."""


def no_valid(names: list[str], unit: str = "game") -> str:
    """Why the strategies ``names`` have no interval, beside the ``NA`` a table writes for it:
    'n/a: every game Boom sat in ended by a forfeit, so its win rate measures nothing and has
    no interval' (``reports.tables.summary``'s ``valid_games`` of 0). More games are no remedy,
    as they are where a run is too small (``TOO_FEW``)."""
    one = len(names) == 1
    whose = "its win rate measures" if one else "their win rates measure"
    return (f"{NA}: every {unit} {and_words(names)} sat in ended by a forfeit, so {whose} "
            f"nothing and {'has' if one else 'have'} no interval")  # fmt: skip


def one_stratum(sets: float, df: float) -> bool:
    """Are a figure's ``sets`` (its duplicate sets) one stratum, its degrees of freedom ``df``
    the sets less one (one table, or the sets taken as one, ``reports.strata``)? Only there
    does no spread (``reports.clusters.Estimates.flat``: a variance within tables of 0) say
    that every set gave the same value; at several tables it says that each table's did."""
    try:
        sets, df = float(sets), float(df)
    except (TypeError, ValueError):  # a table without the columns: not known to be one
        return False
    return bool(np.isfinite(sets) and np.isfinite(df) and sets - df <= 1)


def no_spread_value(alike: bool) -> str:
    """Why a measure has no interval where its sets show no spread: ``NO_SPREAD`` where they
    are ``alike`` (``one_stratum``), else ``NO_SPREAD_WITHIN``."""
    return NO_SPREAD if alike else NO_SPREAD_WITHIN


def no_spread(sets: int, what: str = "difference", alike: bool = False) -> str:
    """What a sentence says of a comparison whose duplicate sets showed no spread, in place of
    its interval: where they are one stratum (``alike``, ``one_stratum``), 'every one of the 7
    duplicate sets gave the same difference: no spread to give an interval from'; else what
    no spread says of sets at several tables: 'within each table every duplicate set gave the
    same difference, 12 duplicate sets in all: ...' (8 may have given +50 and 4 0)."""
    if alike:
        return (f"every one of the {counted(sets, 'duplicate set')} gave the same {what}: "
                "no spread to give an interval from")  # fmt: skip
    sets_in_all = counted(sets, "duplicate set")
    return (f"within each table every duplicate set gave the same {what}, {sets_in_all} in "
            "all: no spread to give an interval from")  # fmt: skip


def flat_sets(lo: float, hi: float, p: float, sets: float) -> int:
    """The duplicate sets of a comparison that a table states with a p-value but no interval:
    its sets showed no spread (``reports.clusters.Estimates.flat``; the p-value is the sign
    test's). 0 where it has an interval, or neither (too few deals)."""
    stated = np.isfinite(lo) and np.isfinite(hi)
    return 0 if stated or not np.isfinite(p) or not np.isfinite(sets) else int(sets)


def fixed(x: float, digits: int = 1, sign: str = "") -> str:
    """``x`` with ``digits`` decimals (``sign`` "+": its sign always written), the one way a
    figure here is rounded: one that rounds to zero is written as zero is ('0.0', '+0.0'),
    never '-0.0', a sign the number does not support."""
    text = f"{x:{sign}.{digits}f}"
    return f"{0.0:{sign}.{digits}f}" if float(text) == 0 else text


PERCENTAGE_POINT = "percentage point"
"""The unit of a difference of two rates (a win rate less another, a share less another, an
interval's half-width): the one source of the word. Never bare "point", which a game's own
score may be counted in (a round's score, cards left summed to a match total)."""
PERCENTAGE_POINTS = f"{PERCENTAGE_POINT}s"
"""The unit's plural: '+1.2 percentage points'."""
PP = "pp"
"""The unit's short form, for a table cell ('+1.2 pp'): used only where ``PP_MEANS`` defines
it in the same output."""
PP_MEANS = f"{PP}: {PERCENTAGE_POINTS}, a difference of two rates"
"""What a page writes beside a table whose cells are in ``PP``."""


def in_percentage_points(figure: str) -> str:
    """A written difference of rates with its unit: '3.1' -> '3.1 percentage points', singular
    for one ('1.0', '+1', '-1.0' -> '... percentage point')."""
    one = figure.lstrip("+-") in ("1", "1.0", "1.00", "one")
    return f"{figure} {PERCENTAGE_POINT if one else PERCENTAGE_POINTS}"


def pp_cell(x: float, digits: int = 1, *, bound: bool = False) -> str:
    """A difference of rates for a table cell, signed, in the short unit: 0.012 -> '+1.2 pp'
    (the page defines ``PP`` beside the table, ``PP_MEANS``); ``bound``: a bound of its
    interval, on its own side of 0 ('-0.0 pp' of -0.00004, ``signed_bound``)."""
    figure = signed_bound(100 * x, digits) if bound else fixed(100 * x, digits, "+")
    return f"{figure} {PP}"


def counted(n: int, word: str) -> str:
    """A count with its noun, singular for one: '1 pair', '1,200 deals'."""
    return f"{n:,} {word if n == 1 else plural(word)}"


def pct(x: float, digits: int = 1) -> str:
    """A rate as a percentage with one decimal (or ``digits``): 0.51034 -> '51.0%'."""
    return f"{fixed(100 * x, digits)}%"


def beside_digits(lo: float, hi: float, beside: float, scale: float = 100.0,
                  digits: int = 1, most: int = 4) -> int:  # fmt: skip
    """The decimals a sentence needs to set an interval against a value (a fair share): one
    more (up to ``most``) while a bound would round onto the value, so '[16.69, 18.48]' is set
    against 16.67%, not '[16.7, 18.5]' against 16.7%. The one source of those decimals: the
    interval, the rate and the value beside it are all written with them (``level_digits``
    for a figure judged against a level)."""
    if not (np.isfinite(lo) and np.isfinite(hi) and np.isfinite(beside)):
        return digits
    while digits < most and fixed(scale * beside, digits) in (
        fixed(scale * lo, digits),
        fixed(scale * hi, digits),
    ):
        digits += 1
    return digits


LEVEL_DIGITS = 12
"""The most decimals a figure takes to read apart from a level it is judged against (its
stopping bound, its target, the alpha beside a p-value): enough for any but an exact tie."""


def level_digits(figures: tuple[float, ...], level: float, digits: int = 2,
                 scale: float = 1.0) -> int:  # fmt: skip
    """The decimals that write ``figures`` (an LLR, an interval's bounds, a half-width) and the
    ``level`` they are judged against (a stopping bound, a margin, a target), all with them:
    ``digits``, more (``beside_digits``, up to ``LEVEL_DIGITS``) while one not at the level
    would read as it; one at it reads as it, truly. Written with one count of decimals and
    apart, each reads on its own side of the level, as rounding keeps order ('LLR -2.9415'
    beside a bound of '-2.9444', never '-2.94' beside '-2.94')."""
    apart = [x for x in figures if x != level]
    return max([beside_digits(x, x, level, scale, digits, LEVEL_DIGITS) for x in apart],
               default=digits)  # fmt: skip


def share_digits(*shares: float, digits: int = 1) -> int:
    """The decimals that write every one of ``shares`` (a share and its interval's bounds, as
    fractions) that is neither 0 nor 1 as neither '0.0%' nor '100.0%': ``digits``, more where
    one would (``level_digits``), so 3 rounds of 15,000 read '0.02%', never as none of them.
    Only 0 itself is written as 0 and 1 as 100."""
    inside = [x for x in shares if np.isfinite(x) and 0 < x < 1]
    return max([digits, *(level_digits((x,), end, digits, 100.0) for x in inside
                          for end in (0.0, 1.0))])  # fmt: skip


def share_pct(share: float) -> str:
    """A share of a run's units as a percentage with the decimals ``share_digits`` gives it:
    1 forfeit in 15,000 rounds is '0.007%', never '0.0%', which reads as none."""
    return pct(share, share_digits(share))


def apart_digits(lo: float, hi: float, digits: int = 1, scale: float = 100.0) -> int:
    """The decimals of a difference's interval (``scale`` x each bound written): ``digits``,
    more (up to four) while its two bounds would read alike, or a bound other than 0 would
    read 0. A difference's interval says on which side of 0 each bound lies, across 0 as much
    as clear of it: '[+0.0, +0.2]' of [-0.04, +0.2] reads as clear of 0 from above, so it is
    '[-0.04, +0.20]'; '[0.0, 0.0]' of [0.01, 0.05] is '[0.01, 0.05]'. Never more for a bound
    four decimals still write as 0: no count of decimals shows it, its sign does
    (``signed_bound``: '[-0.0, +2.0]' of [-0.00004, +2.0]). The one source of the decimals of
    a difference and its bounds (``difference_interval`` writes no fewer)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return digits
    low, high = scale * lo, scale * hi

    def hidden(x: float, d: int) -> bool:  # a bound not 0 that d decimals write as 0
        return fixed(x, d) == fixed(0.0, d) and fixed(x, 4) != fixed(0.0, 4)

    def more(d: int) -> bool:
        alike = fixed(low, d) == fixed(high, d) and low != high
        return alike or hidden(low, d) or hidden(high, d)

    while digits < 4 and more(digits):
        digits += 1
    return digits


def signed_bound(x: float, digits: int) -> str:
    """A bound of a difference's interval, signed, on its own side of 0 even where its
    decimals write it as 0: '-0.0' of -0.00004, the one minus zero written here. A bound's
    side of 0 is what the interval says ('[-0.0, +2.0]' holds 0, '[+0.0, +2.0]' would read as
    clear of it); a figure's sign alone says nothing, so it never reads '-0.0' (``fixed``)."""
    text = fixed(x, digits, "+")
    return f"-{text[1:]}" if x < 0 and float(text) == 0 else text


def interval(lo: float, hi: float, scale: float = 100.0, beside: float | None = None,
             digits: int = 1, flat: int = 0, *, sign: str = "",
             alike: bool = False) -> str:  # fmt: skip
    """A 95% interval of a level (a rate, a share) in percent (or ``scale``) with ``digits``
    decimals: '[50.6, 51.3]'; where the run was too small to state one, says so, or where its
    ``flat`` duplicate sets showed no spread (``flat_sets``), says that (``no_spread``: all
    ``alike``, or within each table). With
    ``beside`` (a value the sentence sets it against, such as a fair share), decimals added
    (up to four) where a bound would round onto it ('[16.69, 18.48]' against 16.67%, not
    '[16.7, 18.5]' against 16.7%). ``sign`` "+": each bound signed on its own side of 0, as a
    difference's are (``difference_interval``, ``signed_bound``)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"({no_spread(flat, alike=alike)})" if flat else f"({TOO_FEW})"
    if beside is not None:
        digits = beside_digits(lo, hi, beside, scale, digits)
    if sign == "+":  # a difference's: each bound on its own side of 0
        return f"[{signed_bound(scale * lo, digits)}, {signed_bound(scale * hi, digits)}]"
    return f"[{fixed(scale * lo, digits)}, {fixed(scale * hi, digits)}]"


def rate_of(rate: str, iv: str, of: str) -> str:
    """A rate, its interval and what it is a share of, in the one order every sentence writes
    them: a bracketed interval beside its rate ('66.7% [35.4, 88.0] of its games'); the words
    of one the run cannot state after the units ('66.7% of its games (too few deals for an
    interval)', never '66.7% (too few deals for an interval) of its games')."""
    return f"{rate} {iv} {of}" if iv.startswith("[") else f"{rate} {of} {iv}"


def beside(text: str, words: str) -> str:
    """``text`` (a figure as ``rate_of`` or ``interval`` ends it) joined to ``words`` in
    brackets after it, or inside the brackets it already ends with (an interval's missing
    words: '9.00 (too few deals for an interval; scanner)'): never two brackets in a row."""
    if not words:
        return text
    return f"{text[:-1]}; {words})" if text.endswith(")") else f"{text} ({words})"


def difference_interval(lo: float, hi: float, scale: float = 100.0, digits: int = 1,
                        flat: int = 0, *, alike: bool = False) -> str:  # fmt: skip
    """The 95% interval of a difference (a figure that can be negative), its bounds signed as
    the tables write them: '[-4.4, +7.8]', never '[-4.4, 7.8]', whose unsigned 7.8 beside a
    signed figure reads as another kind of number. A sentence writes it so beside a signed
    figure, a cost ('costs it 51.3 percentage points [+44.9, +57.7]'), a spread or a margin
    ('beats it by 2.1 percentage points [+0.4, +3.8]'), and wherever it crosses 0. Not where
    the variants' words carry a change's direction ('6.9 turns shorter', 'raises its win rate
    by') and it lies clear of 0: there the interval is of the size, unsigned ('[6.3, 7.5]':
    ``variants_words.change``, ``designer_text``), as '[+6.3, +7.5]' beside 'shorter' would
    read as an increase. A level's keeps unsigned bounds (``interval``); where there is
    none, why (``interval``). With ``digits`` decimals, more where ``apart_digits`` asks (never
    '[+0.0, +0.2]' of [-0.04, +0.2]): a caller writes the difference beside it with
    ``apart_digits``'s decimals, and then the two agree."""
    digits = apart_digits(lo, hi, digits, scale)
    return interval(lo, hi, scale, digits=digits, flat=flat, sign="+", alike=alike)


def points(x: float, digits: int = 1) -> str:
    """A difference of rates in percentage points: 0.031 -> '3.1 percentage points'."""
    return in_percentage_points(fixed(abs(100 * x), digits))


def signed_points(x: float, digits: int = 1) -> str:
    """A difference of rates in percentage points with its sign, for a sentence that does not
    say the direction in words: -0.057 -> '-5.7 percentage points'."""
    return in_percentage_points(fixed(100 * x, digits, "+"))


P_FLOOR = 1e-16
"""The smallest p-value written as a figure: below it a t distribution's tail is rounding
error, written 'p < 1e-16' in a sentence and '< 1e-16' in a table's column."""


def p_text(p: float, level: float = 0.05) -> str:
    """A p-value for people: 'p = 0.21', 'p = 0.003', 'p = 4e-06', 'p < 1e-16'; judged against
    ``level`` (0.05 unless the sentence says another alpha), it reads on its own side of it
    (``p_figure``): 'p = 0.045' of 0.0454, 'p = 0.0098' against 0.01."""
    if not np.isfinite(p):
        return "p unknown"
    if p < P_FLOOR:
        return f"p < {P_FLOOR:g}"
    return f"p = {p_figure(p, level)}"


def p_figure(p: float, level: float = 0.05, least: int = 0) -> str:
    """A p-value's figure: two decimals (at least ``least``), three below 0.01, one digit in
    powers of ten below 0.001 ('4e-06'); more while one below ``level`` would read as the
    level or above it, or one above it as below it (one above may read as the level: a test
    is significant below it). The one source of a p-value's digits: sentences and tables."""
    power = p < 0.001
    digits = _side_digits(p, level, power, 0 if power else max(least, 3 if p < 0.01 else 2))
    return _p_written(p, power, digits)


def p_column(ps: Iterable[float], level: float = 0.05) -> list[str]:
    """A table's column of p-values in one form a reader compares by eye: every figure in
    decimals where none is below 0.001, as a sentence writes it (``p_figure``: '0.21',
    '0.049', '0.003', so a finding quoting a p gives its cell's figure), else every one in
    powers of ten to one number of digits ('2.1e-01', '4.9e-02', '3.0e-05': two significant
    figures at least, more where a figure would read on the other side of ``level``); below
    ``P_FLOOR`` '< 1e-16', none '' (the CSVs keep the floats)."""
    values = [float(p) for p in ps]
    shown = [p for p in values if np.isfinite(p) and p >= P_FLOOR]
    power = any(p < 0.001 for p in shown)
    digits = max((_side_digits(p, level, power, 1) for p in shown), default=1)
    return [
        "" if not np.isfinite(p) else f"< {P_FLOOR:g}" if p < P_FLOOR
        else _p_written(p, power, digits) if power else p_figure(p, level)
        for p in values
    ]  # fmt: skip


def _p_written(p: float, power: bool, digits: int) -> str:
    """``p`` to ``digits`` decimals, of its power of ten's figure where ``power``."""
    return f"{p:.{digits}e}" if power else f"{p:.{digits}f}"


def _side_digits(p: float, level: float, power: bool, digits: int) -> int:
    """``digits`` or more, up to ``LEVEL_DIGITS``: the fewest at which ``p`` written
    (``_p_written``) reads on its own side of ``level``."""
    while digits < LEVEL_DIGITS and (float(_p_written(p, power, digits)) < level) != (p < level):
        digits += 1
    return digits
