"""The arithmetic of runs that decide their own length: a sequential test and a precision target.

Both grow a run by stages (``tournaments.stages``) and decide after each stage from the
results so far, so where a run stops depends only on its seed, never on ``--jobs``. Nothing
here plays or reads a run: the command line plays the stages and asks ``reports`` for the
estimates, then asks this module what to do next (this module imports only the standard
library, so tests and the benchmark use exactly the decisions the command makes).

The sequential test is Wald's SPRT on the normal approximation of the paired mean difference
(a "GSPRT": the variance is estimated, not known). With ``dbar`` the mean per duplicate set of
strategy minus baseline and ``V`` its estimated variance (the square of its standard error),

    LLR = (mu1 - mu0) * (2 * dbar - mu0 - mu1) / (2 * V)

is the log-likelihood ratio of H1: difference = ``mu1`` against H0: difference = ``mu0``;
the test stops for H1 at ``log((1 - beta) / alpha)`` and for H0 at ``log(beta / (1 - alpha))``.
On a few sets the estimated variance is too noisy and the normal tails too thin for that (8
sets of +-1, 9 of 10 one way, reached the upper bound at alpha 0.001: "better" 1% of the time),
so a positive LLR is capped by ``null_llr``, the largest LLR the sets give against ``mu0`` with
their variance measured about ``mu0``: sets whose differences are as likely either way reach
the upper bound with it at most ``exp(-upper) = alpha / (1 - beta)`` of the time at any number
of sets (Hoeffding), and from some hundred sets on the cap changes next to nothing.

What a decision licenses (and so what the command may say): accepting H1 (``mu1`` = the
margin) is evidence that the strategy is better, a difference above 0 -- the test does so at
most about ``alpha`` of the time when the two are equal (less when the strategy is worse); it
is not evidence that the difference is at least the margin (halfway to the margin the test
accepts H1 about half the time). Accepting H0 is evidence that the strategy is not better by
the margin -- the test does so at most about ``beta`` of the time when the difference is the
margin (less when it is more); it is not evidence of no difference. ``tests/
test_sequential_claims.py`` checks both by simulation through ``run_batches``, the loop the
command runs.

A batch whose duplicate sets all gave the same difference (no spread) has a variance of zero,
so the normal LLR is infinite on either side of the midpoint of 0 and the margin. Above the
midpoint the cap holds as for any other batch: ``null_llr`` of ``N`` sets with no spread (one
table) is ``N / 2`` (all ``N`` one way, the most any ``N`` sets give against 0, as equal
strategies give a difference as likely either way of 0), so H1 needs ``N / 2`` at the upper
bound (14 sets at alpha 0.001, beta 0.05; 6 at the defaults), and one rule spends alpha for
batches with and without spread. Below it nothing bounds beta: under the margin no symmetry
holds, and two close strategies give many sets of exactly 0 (a strategy that gives up one game
in eight, against its sound self, often gives a first batch of sets all at 0), so the
test takes no decision (NaN) and plays on, to ``max_deals`` at most (a strategy against itself
then ends undecided).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from gamekit.errors import ParameterError

__all__ = [
    "BETTER",
    "MAX_MARGIN",
    "NOTHING_VALID",
    "NOT_BETTER",
    "RUNNING",
    "UNDECIDED",
    "Sequential",
    "bounds",
    "decide",
    "figure",
    "finite",
    "llr",
    "next_precision_stage",
    "next_stage",
    "run_batches",
]

BETTER = "better"
"""H1 (the margin) accepted: the strategy is better than the baseline (a difference above 0;
a false "better" at most about alpha of the time when they are equal)."""
NOT_BETTER = "not better by the margin"
"""H0 (0) accepted: the strategy is not better than the baseline by the margin (a false one
at most about beta of the time when it is better by the margin)."""
UNDECIDED = "undecided"
"""The cap on games came first."""
RUNNING = "running"
"""Neither bound reached yet, and the cap not reached either: more batches to play (a run
interrupted between batches keeps this in its manifest)."""
NOTHING_VALID = "nothing valid"
"""Stopped after a batch in which every game of one side ended by a forfeit: nothing to
weigh, and more batches of the same strategy would only forfeit more (no decision)."""
FORMER_NOT_BETTER = "not better"
"""What earlier versions recorded for NOT_BETTER (the same decision, worded too broadly)."""

GROWTH = 1.25
"""Each batch of a sequential test grows the deals played so far by this factor."""

PRECISION_SAFETY = 1.1
"""A precision run asks for this much more than the square-root law predicts it needs."""

PRECISION_MIN_GROWTH = 1.25
"""... and grows by at least this factor, so it never creeps."""

MIN_MARGIN = 1 / (2**31 - 1)
"""The smallest margin a test takes: one game in the most a side can play (a run holds both
sides in at most 2**32 - 1 games); no run tells a smaller margin from 0 (one of 1e-320
percentage points played to its cap and was said as '+0')."""

MAX_MARGIN = 1.0
"""The largest margin a test takes: a difference of win rates is at most 1 (100 percentage
points: every game won against none); past it H1 names a difference no two strategies can
have (a margin of 2 said "not 200 percentage points better", one of 1e300 an LLR of -inf)."""


def llr(dbar: float, variance: float, mu0: float, mu1: float, df: float = math.inf) -> float:
    """The normal log-likelihood ratio of difference ``mu1`` over ``mu0`` given a mean
    ``dbar`` with variance ``variance`` estimated on ``df`` degrees of freedom (the sets less
    one; infinite: a variance to take as known). A positive one is capped by ``null_llr``. A
    variance of zero (every set the same) gives 0 on the midpoint, above it ``null_llr``:
    ``(df + 1) / 2`` (all sets one way, the most they give against ``mu0``; +inf where ``df``
    is infinite), and below it NaN, no decision: sets alike bound nothing against ``mu1``
    (under ``mu0`` a difference is as likely either way of it, under ``mu1`` no symmetry holds,
    and close strategies give many sets of exactly 0 however far apart they are). NaN inputs
    give NaN too."""
    if not (math.isfinite(dbar) and math.isfinite(variance)) or variance < 0:
        return math.nan
    num = (mu1 - mu0) * (2 * dbar - mu0 - mu1)
    if variance == 0:
        if num < 0:  # below the midpoint: no bound against mu1 (see above), so play on
            return math.nan
        value = 0.0 if num == 0 else math.inf
    else:
        value = num / (2 * variance)
    return min(value, null_llr(dbar, variance, mu0, df)) if value > 0 else value


def null_llr(dbar: float, variance: float, mu0: float, df: float) -> float:
    """The largest LLR against ``mu0`` that any difference could give the mean ``dbar`` of
    ``df + 1`` sets, their variance measured about ``mu0`` (as ``mu0`` would have it) rather
    than about their own mean: ``(dbar - mu0) ** 2 / (2 * V0)``, ``V0 = (df * variance +
    (dbar - mu0) ** 2) / (df + 1)``. Sets whose differences are as likely either way of
    ``mu0`` reach a value ``c`` of it at most ``exp(-c)`` of the time at any number of sets
    (Hoeffding's bound over their signs); sets with no spread (``variance`` 0) give ``(df +
    1) / 2``, the most any give. Infinite ``df``: the plain bound ``(dbar - mu0) ** 2 / (2 *
    variance)``, which no normal LLR exceeds (+inf at a variance of zero)."""
    d2 = (dbar - mu0) ** 2
    v0 = variance if math.isinf(df) else (df * variance + d2) / (df + 1)
    return d2 / (2 * v0) if v0 > 0 else math.inf


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) stopping bounds for the error rates ``alpha`` (declaring H1
    when H0 holds) and ``beta`` (declaring H0 when H1 holds)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ParameterError(f"{{alpha}} and {{beta}} must be in (0, 1) with alpha + beta < 1, "
                             f"got {alpha} and {beta}", "alpha", "beta")  # fmt: skip
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def decide(value: float, lower: float, upper: float) -> str | None:
    """BETTER at or above ``upper``, NOT_BETTER at or below ``lower``, else None (go on)."""
    if value >= upper:
        return BETTER
    if value <= lower:
        return NOT_BETTER
    return None


def next_stage(deals: int, max_deals: int, growth: float = GROWTH) -> int | None:
    """Deals per table after the next batch of a sequential test: ``deals`` grown by
    ``growth`` (at least one more), at most ``max_deals``; None when the cap is reached."""
    if deals >= max_deals:
        return None
    return min(max_deals, max(deals + 1, math.ceil(deals * growth)))


def next_precision_stage(deals: int, widest: float, target: float, max_deals: int) -> int | None:
    """Deals per table for a run whose widest half-width is ``widest`` to reach ``target``:
    widths shrink as one over the square root of the deals, so scale the deals by
    ``(widest / target) ** 2`` with a margin (``PRECISION_SAFETY``), at least by
    ``PRECISION_MIN_GROWTH``; an unknown width (NaN: too few deals) doubles them. At most
    ``max_deals``; None when the cap is reached. A target so small that the factor passes
    what a float holds (``--precision 1e-300``: an OverflowError) asks for the cap."""
    if deals >= max_deals:
        return None
    if math.isfinite(widest) and target > 0:
        ratio = widest / target  # inf past a float's range, as is its square: never raised
        factor = max(PRECISION_MIN_GROWTH, PRECISION_SAFETY * ratio * ratio)
    else:
        factor = 2.0
    factor = min(factor, max_deals)  # past it the cap decides: deals * factor stays finite
    return min(max_deals, max(deals + 1, math.ceil(deals * factor)))


@dataclass
class Sequential:
    """A sequential test of H0: difference 0 against H1: difference ``margin`` (in win rate,
    e.g. 0.01 for one percentage point; above 0, at most ``MAX_MARGIN``) at error rates
    ``alpha`` and ``beta``; ``update`` takes each batch's estimate and says what it decided
    (BETTER: H1, NOT_BETTER: H0; what each licenses is in this module's docstring)."""

    margin: float
    alpha: float = 0.05
    beta: float = 0.05
    llr: float = math.nan
    decision: str | None = None
    batches: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.margin) and self.margin > 0):
            raise ParameterError(  # a rate, as given (the command line says its own unit)
                f"{{margin}} must be a positive difference of win rates, got {self.margin:g}",
                "margin",
            )
        if self.margin < MIN_MARGIN:
            raise ParameterError(f"{{margin}} must be at least 1 / (2**31 - 1), one game in the "
                                 "most a side can play (no run tells a smaller margin from 0), "
                                 f"got {figure(self.margin)}", "margin")  # fmt: skip
        if self.margin > MAX_MARGIN:
            raise ParameterError(f"{{margin}} must be at most {MAX_MARGIN:g} (no win rate "
                                 f"exceeds another by more), got {figure(self.margin)}",
                                 "margin")  # fmt: skip
        self.lower, self.upper = bounds(self.alpha, self.beta)

    def update(self, dbar: float, se: float, df: float = math.inf) -> str | None:
        """Take the paired mean difference ``dbar`` and its standard error ``se`` (on ``df``
        degrees of freedom, ``llr``) after a batch: the decision (BETTER or NOT_BETTER) or
        None to play another batch."""
        self.batches += 1
        self.llr = llr(dbar, se * se, 0.0, self.margin, df)
        self.decision = decide(self.llr, self.lower, self.upper)
        return self.decision

    def record(self, games_per_side: int) -> dict[str, Any]:
        """What a run's manifest keeps of the test (``manifest["sequential"]``; the margin
        in percentage points, as ``--margin`` takes it); an unfinished test says UNDECIDED."""
        d = asdict(self)
        return {
            "decision": self.decision or UNDECIDED,
            "games_per_side": int(games_per_side),
            "llr": finite(self.llr),
            "lower": self.lower,
            "upper": self.upper,
            "margin": float(f"{100 * self.margin:.12g}"),  # as typed: 2, not 2.0000000000000004
            "alpha": d["alpha"],
            "beta": d["beta"],
            "batches": self.batches,
        }


def run_batches(
    stages: list[int],
    max_deals: int,
    estimate: Callable[[list[int]], dict[str, float]],
    test: Sequential,
    on_batch: Callable[[list[int], dict[str, float], bool], None] | None = None,
    void: Callable[[], bool] | None = None,
) -> tuple[list[int], dict[str, float]]:
    """The loop of a sequential run: ``estimate(stages)`` plays the run to ``stages``
    (cumulative deals per table) and returns its paired ``diff`` and ``se``, its degrees of
    freedom ``df`` (else ``units``, its sets, less one; neither: the variance is taken as
    known); ``test`` takes it; until it decides, the next batch grows the deals by GROWTH,
    up to ``max_deals``. ``on_batch(stages, estimate, final)`` hears every batch (``final``:
    the last). Returns the stages played and the last estimate. A resumed run passes the
    stages it had and a ``test`` whose ``batches`` counts the batches already decided on.
    ``void()`` true after a batch (nothing valid played by a side) stops the run there,
    decided NOTHING_VALID."""
    stages = list(stages)
    while True:
        est = estimate(stages)
        df = est.get("df", est.get("units", math.inf) - 1)
        decision = test.update(est["diff"], est["se"], df)
        if void is not None and void():
            test.decision = decision = NOTHING_VALID
        nxt = None if decision else next_stage(stages[-1], max_deals)
        if on_batch is not None:
            on_batch(stages, est, nxt is None)
        if nxt is None:
            return stages, est
        stages.append(nxt)


def figure(x: float) -> str:
    """``x`` as typed back: short (``:g``, 200 not 200.0) where that is ``x``, else in full
    (1.000001 is never said as the 1 it is refused for passing); Python's shortest where that
    is shorter (1e-320, not '9.99989e-321', which a number below a float's normal range reads
    as too). ``run_state.typed_number`` is this rule."""
    short, shortest = f"{x:g}", repr(x)
    return short if float(short) == x and len(short) <= len(shortest) else shortest


def finite(x: float) -> float | str | None:
    """JSON has no infinity or NaN: "inf"/"-inf" for the one, None for the other."""
    if math.isnan(x):
        return None
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")
