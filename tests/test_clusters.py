"""The reports' intervals on synthetic data with a known truth: duplicate sets as clusters,
tables as strata, t with the design's degrees of freedom (``reports.clusters``).

Each test draws many independent "runs" of a design whose true rate (or difference) is known
exactly, and counts how often the 95% interval covers it. Seeds are fixed, so the tests are
deterministic; the bands are wide enough for 400 runs (the coverage's own sd is about 1.1
points) and narrow enough to catch the errors they guard against: a normal quantile instead
of t for a small run, the binomial variance instead of the clusters', the tables' spread
counted as noise.
"""

from __future__ import annotations

import numpy as np
import pytest

from reports import clusters as rc
from reports.findings import key_findings
from reports.synthetic import synthetic_games

RUNS = 400


def _design(tables: int, deals: int) -> rc.Clusters:
    stratum = np.repeat(np.arange(tables), deals)
    return rc.Clusters(np.arange(stratum.size), stratum, tables, False, np.arange(stratum.size))


def _draw(rng, p_table: np.ndarray, deals: int, seats: int, deal_sd: float):
    """Per cluster (table-major) the wins of ``seats`` correlated games: the deal shifts the
    win probability of all of them by a symmetric amount (the table's mean is unchanged)."""
    p = np.repeat(p_table, deals)
    shift = rng.uniform(-deal_sd, deal_sd, p.size)
    return rng.binomial(seats, np.clip(p + shift, 0, 1)).astype(float)


def _rate_coverage(tables: int, deals: int, seats: int, deal_sd: float, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    p_table = rng.uniform(0.1, 0.5, tables)  # fixed by the design, not drawn per run
    truth = p_table.mean()
    cl = _design(tables, deals)
    hits = plain_hits = stated = 0
    for _ in range(RUNS):
        w = _draw(rng, p_table, deals, seats, deal_sd)
        n = np.full(w.size, float(seats))
        sums = rc.Sums(np.zeros(w.size, np.int64), np.arange(w.size), w, n, 1)
        est = rc.ratio_estimates(sums, cl)
        lo, hi = rc.wilson_t(est)
        if np.isfinite(lo[0]):
            stated += 1
            hits += lo[0] <= truth <= hi[0]
        rate = w.sum() / n.sum()
        half = 1.96 * np.sqrt(rate * (1 - rate) / n.sum())  # games taken as independent
        plain_hits += abs(rate - truth) <= half
    return {"covered": hits / max(stated, 1), "stated": stated, "plain": plain_hits / RUNS}


@pytest.mark.slow
@pytest.mark.parametrize(
    "tables, deals, seed",
    [(1, 8, 1), (1, 40, 2), (30, 2, 3), (10, 6, 4)],
)
def test_rate_intervals_cover_the_known_truth(tables, deals, seed):
    got = _rate_coverage(tables, deals, seats=12, deal_sd=0.3, seed=seed)
    assert got["stated"] == RUNS
    assert 0.92 <= got["covered"] <= 0.98, got
    assert got["plain"] < 0.88, got  # the design matters: the binomial interval is too narrow


def test_the_tables_spread_is_not_noise():
    # Tables with very different rates and no deal effect: stratified by table, the interval
    # is the binomial-sized one it should be; pooling the tables as one stratum (as if they
    # were drawn at random) would be far too wide.
    rng = np.random.default_rng(7)
    tables, deals, seats = 20, 5, 6
    p_table = np.linspace(0.05, 0.95, tables)
    w = _draw(rng, p_table, deals, seats, 0.0)
    n = np.full(w.size, float(seats))
    sums = rc.Sums(np.zeros(w.size, np.int64), np.arange(w.size), w, n, 1)
    strat = rc.ratio_estimates(sums, _design(tables, deals))
    pooled = rc.ratio_estimates(sums, _design(1, tables * deals))
    binom = np.sqrt((p_table * (1 - p_table)).sum() * deals * seats) / n.sum()
    assert strat.se[0] == pytest.approx(binom, rel=0.25)
    assert pooled.se[0] > 1.5 * strat.se[0]
    assert strat.df[0] == tables * (deals - 1)


@pytest.mark.slow
def test_paired_mean_intervals_cover_the_known_truth():
    rng = np.random.default_rng(11)
    tables, deals = 12, 4
    mean_table = rng.normal(0.02, 0.05, tables)  # the true difference at each table
    truth = mean_table.mean()
    cl = _design(tables, deals)
    covered = 0
    for _ in range(RUNS):
        d = np.repeat(mean_table, deals) + rng.standard_t(5, tables * deals) * 0.1
        est = rc.mean_estimates(d, np.zeros(d.size, np.int64), np.arange(d.size), 1, cl)
        lo, hi = est.interval()
        covered += lo[0] <= truth <= hi[0]
    assert 0.92 <= covered / RUNS <= 0.98


def test_too_few_deals_state_no_interval():
    cl = _design(1, 4)  # one table, four deals: 3 degrees of freedom
    sums = rc.Sums(np.zeros(4, np.int64), np.arange(4), np.array([1.0, 3, 2, 4]),
                   np.full(4, 6.0), 1)  # fmt: skip
    est = rc.ratio_estimates(sums, cl)
    assert est.df[0] == 3 and rc.too_small(est)[0]
    lo, hi = rc.wilson_t(est)
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and np.isnan(est.p_value()[0])


def test_tables_dealt_once_are_pooled_and_flagged():
    df = synthetic_games({"a": 0.2, "b": 0.0, "c": -0.2}, players=(3,), deals=1, max_tables=None)
    import reports

    g = reports.as_games(df)
    cl = rc.clusters(g)
    assert cl.pooled and cl.n_strata == 1
    assert reports.summary(g)["conservative"].all()
    g2 = reports.as_games(synthetic_games({"a": 0.2, "b": 0.0, "c": -0.2}, players=(3,), deals=3))
    assert not rc.clusters(g2).pooled


@pytest.mark.slow
def test_neighbour_findings_are_not_found_where_there_is_no_neighbour_effect():
    """The synthetic model has no neighbour effect at all (only strength, hand luck and the
    first move), and one very weak strategy that changes who wins at its tables: over many
    runs the neighbour finding may claim an effect at most at the nominal 5% rate."""
    import reports

    claims = runs = 0
    for seed in range(120):
        df = synthetic_games({"a": 0.3, "b": 0.0, "c": 0.0, "w": -3.0}, players=(3, 4),
                             deals=6, seed=seed, seating="balanced", unfinished_p=0,
                             forfeit_p=0)  # fmt: skip
        g = reports.as_games(df)
        tables = {"summary": reports.summary(g), "neighbours": reports.neighbours(g)}
        found = {f.topic: f.text for f in key_findings(tables, "paired")}
        runs += 1
        claims += "it holds after Bonferroni" in found.get("neighbours", "")
    assert claims / runs <= 0.05
