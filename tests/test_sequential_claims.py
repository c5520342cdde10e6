"""What a sequential gauntlet says is true as often as its error rates promise.

Synthetic duplicate sets (no games played: a few seconds) with a known true difference (0,
half the margin, the margin, twice the margin) go through ``tournaments.sequential.run_batches``,
the loop the command runs, and each finished test's sentence comes from
``reports.gauntlet.sequential_sentence``, the words the command, the report and the manifest
say. Each sentence is read back as the claim it makes ("better": a difference above 0; "not M
points better": a difference below M; "undecided": none) and checked against the truth: a false
"better" at most about alpha of the time, a false "not better by the margin" at most about beta.
The claim "better by at least the margin", which an accepted H1 does not license, is shown to
fail the same check.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable

import numpy as np
import pytest

from reports.gauntlet import sequential_sentence
from reports.student_t import t_ppf
from tournaments.sequential import Sequential, run_batches

SEATINGS = 4  # games a side in one duplicate set (4 seats, one field strategy)
P = 0.25  # the baseline's win rate
MARGIN = 0.05  # 5 points: the noise of 100-set batches, so tests take several batches
FIRST, MAX_DEALS = 100, 20_000
REPS = 1500


def set_differences(delta: float) -> np.ndarray:
    """P(strategy wins - baseline wins = k) for k = -4..4 in one duplicate set: each side's
    games independent wins at ``P + delta`` and ``P`` (mean difference per game: delta)."""
    from math import comb

    def binom(p: float) -> np.ndarray:
        return np.array([comb(SEATINGS, k) * p**k * (1 - p) ** (SEATINGS - k)
                         for k in range(SEATINGS + 1)])  # fmt: skip

    return np.convolve(binom(P + delta), binom(P)[::-1])


@functools.cache
def _t975(df: int) -> float:
    """The 97.5% t quantile (the batches' sizes repeat from test to test)."""
    return float(t_ppf(df, 0.975))


def one_test(q: np.ndarray, rng: np.random.Generator, alpha: float,
             beta: float) -> tuple[str, dict[str, float]]:  # fmt: skip
    """One sequential test on sets drawn from ``q``, through the command's loop: its
    sentence and its last estimate."""
    values = np.arange(-SEATINGS, SEATINGS + 1) / SEATINGS
    acc = {"n": 0, "s1": 0.0, "s2": 0.0}

    def estimate(stages: list[int]) -> dict[str, float]:
        counts = rng.multinomial(stages[-1] - acc["n"], q)
        acc["n"] = stages[-1]
        acc["s1"] += float(counts @ values)
        acc["s2"] += float(counts @ values**2)
        n = acc["n"]
        mean = acc["s1"] / n
        se = math.sqrt(max(acc["s2"] - n * mean * mean, 0.0) / (n - 1) / n)
        half = _t975(n - 1) * se
        return {"diff": mean, "se": se, "ci_low": mean - half, "ci_high": mean + half}

    test = Sequential(MARGIN, alpha, beta)
    stages, est = run_batches([FIRST], MAX_DEALS, estimate, test)
    rec = test.record(stages[-1] * SEATINGS)
    row = {"strategy": "mine", "baseline": "theirs", "games": rec["games_per_side"],
           "diff": est["diff"], "diff_ci_low": est["ci_low"], "diff_ci_high": est["ci_high"],
           **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip
    sentence = sequential_sentence(row)
    assert sentence is not None
    return sentence, est


def claim(sentence: str) -> Callable[[float], bool] | None:
    """The claim a sentence makes about the true difference (a rate), as a predicate; None for
    a sentence that claims nothing. Reads the words only."""
    if re.match(r"mine is better than theirs by at least ([\d.]+) points?\b", sentence):
        at_least = float(re.match(r".* by at least ([\d.]+)", sentence).group(1)) / 100
        return lambda d: d >= at_least
    if re.match(r"mine is better than theirs: ", sentence):
        return lambda d: d > 0
    m = re.match(r"mine is not ([\d.]+) percentage points? better than theirs: ", sentence)
    if m:
        top = float(m.group(1)) / 100
        return lambda d: d < top
    assert sentence.startswith("Undecided whether mine is better than theirs: "), sentence
    return None


def false_rate(sentences: list[str], truth: float) -> float:
    """How often the sentences claim something false of the true difference ``truth``."""
    claims = [claim(s) for s in sentences]
    return sum(1 for c in claims if c is not None and not c(truth)) / len(sentences)


@pytest.fixture(scope="module")
def said() -> dict[float, list[str]]:
    """REPS sentences at each true difference, in units of the margin (alpha = beta = 0.05)."""
    rng = np.random.default_rng(2024)
    return {k: [one_test(set_differences(k * MARGIN), rng, 0.05, 0.05)[0] for _ in range(REPS)]
            for k in (0.0, 0.5, 1.0, 2.0)}  # fmt: skip


def _most(rate: float) -> float:
    """The largest share of REPS tests consistent with an error rate ``rate`` (3 sd above)."""
    return rate + 3 * math.sqrt(rate * (1 - rate) / REPS)


def test_each_claim_holds_as_often_as_alpha_and_beta_promise(said):
    for k, sentences in said.items():
        truth = k * MARGIN
        rate = false_rate(sentences, truth)
        if k == 0.0 or k >= 1.0:  # at 0 only "better" can be false (alpha), from the
            assert rate <= _most(0.05), (k, rate)  # margin on only "not better by it" (beta)
        else:  # halfway: "better" and "not 5 points better" are both true
            assert rate == 0.0
    better = {k: sum(s.startswith("mine is better") for s in v) / REPS for k, v in said.items()}
    assert better[0.0] <= _most(0.05) and better[1.0] >= 1 - _most(0.05)
    assert better[2.0] >= 0.99


def test_at_least_the_margin_is_not_what_the_test_licenses(said):
    """The words an accepted H1 used to say, 'better by at least the margin', are false half
    of the time when the truth is halfway: far more often than alpha or beta."""
    old = [s.replace("mine is better than theirs: ", "mine is better than theirs by at least "
                     "5 points: ") for s in said[0.5]]  # fmt: skip
    assert false_rate(old, 0.5 * MARGIN) > 0.3


def test_every_sentence_is_one_sentence_stating_the_estimate(said):
    for s in said[0.5][:200] + said[0.0][:200]:
        assert s.endswith(".") and ". " not in s and s.count(";") == 1, s
        m = re.search(r": ([+-]\d+\.\d+) percentage points? \[([+-]\d+\.\d+), ([+-]\d+\.\d+)\] over "
                      r"([\d,]+) games per side; the sequential test \(0 against \+5 percentage "
                      r"points, (\d+) batch", s)  # fmt: skip
        assert m, s
        diff, lo, hi = (float(m.group(i)) for i in (1, 2, 3))
        assert lo <= diff <= hi


@pytest.mark.parametrize("rates", [(0.3, 0.3), (0.05, 0.05)])
def test_an_interval_past_the_claim_is_said(rates):
    """With lax error rates a test can accept H1 while the 95% interval still includes 0 (or
    H0 while it still reaches the margin): the sentence then says so, and only then."""
    rng = np.random.default_rng(7)
    seen = 0
    for k in (0.5, 0.5, 0.25, 0.75) * 60:
        s, est = one_test(set_differences(k * MARGIN), rng, *rates)
        if not s.startswith("Undecided"):  # the estimate is on the side of what is said
            assert (est["diff"] > MARGIN / 2) == s.startswith("mine is better"), s
        if s.startswith("mine is better"):
            assert ("still includes 0" in s) == (est["ci_low"] <= 0), s
            seen += "still includes 0" in s
        elif s.startswith("mine is not"):
            assert ("still reaches +5" in s) == (est["ci_high"] >= MARGIN), s
            seen += "still reaches +5" in s
    if rates == (0.05, 0.05):
        assert seen == 0  # never at the default rates and 100 sets a batch (docs/tournaments.md)
    else:
        assert seen > 0
