"""The rating (``reports.rating``), α-Rank (``reports.metagame_rank``) and the meta-game's
bootstrap (``reports.metagame_bootstrap``) against answers known without them: choice events
counted game by game in plain Python, a two-strategy rating solved by hand, α-Rank's
stationary distribution from its textbook formula, a resampling whose replicates are known
because every duplicate set gave the same result. Each test kills mutants of those modules
(``docs/mutation.md``)."""

from __future__ import annotations

import itertools
import math
import os
from collections import Counter

import numpy as np
import pytest

from reports import metagame_bootstrap as mb
from reports import metagame_rank
from reports.data import MISSING, Games
from reports.metagame import EPS, SUPPORT, Equilibria, Fitness, PayoffDesign
from reports.metagame_bootstrap import TIE
from reports.rating import choice_patterns, fit_plackett_luce, rating
from reports.stats import Z95

COLUMNS = ["rank", "strategy", "rating", "se", "ci_low", "ci_high", "worth", "seats"]


def games(labels: tuple[str, ...], rows: list[tuple]) -> Games:
    """Games from (seat codes with -1 empty, rank values (lower is better), winner seat,
    forfeiting seat) rows; an empty seat's value is ignored."""
    width = max(len(r[0]) for r in rows) if rows else 2
    n = len(rows)
    seats = np.full((n, width), -1, np.int16)
    values = np.full((n, width), MISSING, np.int16)
    for i, (codes, vals, _, _) in enumerate(rows):
        seats[i, : len(codes)] = codes
        values[i, : len(vals)] = vals
    values[seats < 0] = MISSING
    return Games(
        labels=labels,
        seats=seats,
        values=values,
        n_players=(seats >= 0).sum(axis=1).astype(np.int8),
        first=np.zeros(n, np.int8),
        winner=np.array([r[2] for r in rows], np.int8).reshape(n),
        unfinished=np.zeros(n, bool),
        forfeited=np.array([r[3] >= 0 for r in rows], bool).reshape(n),
        forfeit_seat=np.array([r[3] for r in rows], np.int8).reshape(n),
    )


def events(chosen: np.ndarray, comp: np.ndarray, weight: np.ndarray) -> dict:
    """choice_patterns' answer as {(chosen, composition): weight}."""
    out: dict = {}
    for c, row, w in zip(chosen, comp, weight, strict=True):
        key = (int(c), tuple(int(x) for x in row))
        assert key not in out, f"an event listed twice: {key}"
        out[key] = float(w)
    return out


def plain_events(labels: tuple[str, ...], rows: list[tuple]) -> dict:
    """The same events counted game by game: each seat chosen among the seats not strictly
    ahead of it (the winner ahead of all, a forfeiting seat behind all; ties share a place),
    a choice out of one seat left out."""
    out: Counter = Counter()
    for codes, vals, winner, forfeit in rows:
        seated = [s for s, c in enumerate(codes) if c >= 0]
        key = {s: (-math.inf if s == winner else math.inf if s == forfeit else vals[s])
               for s in seated}  # fmt: skip
        for s in seated:
            rivals = [j for j in seated if key[j] >= key[s]]
            if len(rivals) > 1:
                comp = [0] * len(labels)
                for j in rivals:
                    comp[codes[j]] += 1
                out[(codes[s], tuple(comp))] += 1
    return dict(out)


# ---- reports/rating.py: the choice events --------------------------------------------------

HAND = [
    ((0, 1, 2), (0, 2, 2), 0, -1),  # A wins; B and C tie: each chosen out of {B, C}
    ((1, 0, -1), (1, 0, 0), 1, -1),  # two seats of three: A out of {A, B}; B alone, left out
    ((0, 0, 1), (0, 2, 1), 0, 2),  # B forfeits: behind A's second seat despite its value
    ((0, 0, 0), (0, 1, 1), 0, -1),  # A at every seat: a count equal to the table's width
]


def test_choice_events_of_hand_made_games():
    a, b, c = 0, 1, 2
    want = {
        (a, (1, 1, 1)): 1.0,
        (b, (0, 1, 1)): 1.0,
        (c, (0, 1, 1)): 1.0,
        (a, (1, 1, 0)): 2.0,  # game 2's A and game 3's second A
        (a, (2, 1, 0)): 1.0,
        (a, (3, 0, 0)): 1.0,
        (a, (2, 0, 0)): 2.0,  # the tied seats 1 and 2 of game 4
    }
    assert plain_events(("A", "B", "C"), HAND) == want
    got = choice_patterns(games(("A", "B", "C"), HAND))
    assert events(*got) == want
    assert got[0].dtype.kind == "i" and got[1].dtype == float and got[2].dtype == float


def test_choice_events_of_one_mirror_table():
    """One pattern only, A at all three seats (a count of 3 in a choice set however few
    patterns the run holds): A out of three, then A out of the two tied seats, twice."""
    rows = [((0, 0, 0), (0, 1, 1), 0, -1)] * 4
    assert events(*choice_patterns(games(("A", "B"), rows))) == {
        (0, (3, 0)): 4.0,
        (0, (2, 0)): 8.0,
    }


def random_rows(k: int, width: int, n: int, seed: int) -> list[tuple]:
    """n games of ``width`` distinct strategies out of k, values 0..3 (ties), one winner
    among the seats of the least value, now and then a forfeit and an empty last seat; every
    tenth game the last strategy at every seat (its count in a choice set up to ``width``)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        codes = [int(x) for x in rng.choice(k, width, replace=False)]
        if i % 10 == 0:
            codes = [k - 1] * width
        if rng.random() < 0.2:
            codes[-1] = -1
        vals = [int(x) for x in rng.integers(0, 4, width)]
        seated = [s for s in range(width) if codes[s] >= 0]
        best = min(vals[s] for s in seated)
        winner = int(rng.choice([s for s in seated if vals[s] == best]))
        forfeit = int(rng.choice([s for s in seated if s != winner])) if rng.random() < 0.1 else -1
        rows.append((tuple(codes), tuple(vals), winner, forfeit))
    return rows


@pytest.mark.parametrize(("k", "width"), [(5, 3), (7, 6), (29, 3)])
def test_choice_events_are_counted_game_by_game(k, width):
    labels = tuple(f"s{i}" for i in range(k))
    rows = random_rows(k, width, 300, seed=k)
    assert events(*choice_patterns(games(labels, rows))) == plain_events(labels, rows)


@pytest.mark.parametrize(("k", "width"), [(23, 5), (30, 4), (17, 12)])
def test_choice_events_of_many_strategies_at_large_tables_are_exact(k, width):
    """23 strategies at five seats (23 * 6**23 lies between 2**63 and 2**64), 30 at four and
    17 at twelve: a choice set packed into one number would overflow 64 bits."""
    labels = tuple(f"s{i}" for i in range(k))
    rows = random_rows(k, width, 200, seed=k)
    assert events(*choice_patterns(games(labels, rows))) == plain_events(labels, rows)


# ---- reports/rating.py: the fit -----------------------------------------------------------


def head_to_head(a: int, b: int) -> list[tuple]:
    """A (code 0) beats B (code 1) a times and loses b times, at two seats."""
    return [((0, 1), (0, 1), 0, -1)] * a + [((1, 0), (0, 1), 0, -1)] * b


def solved(a: int, b: int, ridge: float) -> tuple[float, float]:
    """A's rating d (B's is -d) and its standard error, by hand: the gradient of the penalised
    log-likelihood, a - n * sigmoid(2d) - ridge * d, is 0 (bisection); the information on the
    sum-zero direction (1, -1) is 2 n p q + ridge, so var(d) = 1 / (2 (2 n p q + ridge))."""
    n = a + b
    lo, hi = -20.0, 20.0
    for _ in range(200):
        d = (lo + hi) / 2
        if a - n / (1 + math.exp(-2 * d)) - ridge * d > 0:
            lo = d
        else:
            hi = d
    p = 1 / (1 + math.exp(-2 * d))
    return d, math.sqrt(1 / (2 * (2 * n * p * (1 - p) + ridge)))


@pytest.mark.parametrize(("a", "b"), [(30, 10), (3, 9), (5, 5)])
def test_two_strategies_get_the_rating_solved_by_hand(a, b):
    d, se = solved(a, b, 0.01)  # the default prior's precision, RIDGE
    r = rating(games(("A", "B"), head_to_head(a, b)))
    assert list(r.columns) == COLUMNS
    first, second = ("A", "B") if a >= b else ("B", "A")
    sign = 1 if a >= b else -1
    assert r["rank"].tolist() == [1, 2] and r["strategy"].tolist() == [first, second]
    assert r["rating"].to_numpy() == pytest.approx([sign * d, -sign * d], abs=1e-9)
    assert r["se"].to_numpy() == pytest.approx([se, se], rel=1e-9)
    assert r["ci_low"].to_numpy() == pytest.approx(r["rating"] - Z95 * se, abs=1e-9)
    assert r["ci_high"].to_numpy() == pytest.approx(r["rating"] + Z95 * se, abs=1e-9)
    p = 1 / (1 + math.exp(-2 * abs(d)))  # the chance the first beats the second
    assert r["worth"].to_numpy() == pytest.approx([p, 1 - p], abs=1e-9)
    assert r["seats"].tolist() == [a + b, a + b]


def test_the_ridge_is_the_one_given():
    d, se = solved(12, 4, 0.5)
    r = rating(games(("A", "B"), head_to_head(12, 4)), ridge=0.5)
    assert r["rating"].to_numpy() == pytest.approx([d, -d], abs=1e-9)
    assert r["se"].to_numpy() == pytest.approx([se, se], rel=1e-9)


def test_a_strategy_that_never_sat_changes_no_other_rating():
    """A label of the run that sat at no table (a run stopped before its first game) has no
    game to rate: it is left out, and the others' ratings, intervals and worths are those of
    the run without it, worked out by hand."""
    d, se = solved(30, 10, 0.01)
    rows = [(tuple(c + 1 for c in t), v, w, f) for t, v, w, f in head_to_head(30, 10)]
    r = rating(games(("Z", "A", "B"), rows))
    assert r["strategy"].tolist() == ["A", "B"]
    assert r["rating"].to_numpy() == pytest.approx([d, -d], abs=1e-9)
    assert r["se"].to_numpy() == pytest.approx([se, se], rel=1e-9)
    p = 1 / (1 + math.exp(-2 * d))
    assert r["worth"].to_numpy() == pytest.approx([p, 1 - p], abs=1e-9)


def test_a_strategy_that_sat_once_is_rated():
    rows = [*head_to_head(6, 2), ((2, 0, -1), (0, 1, 0), 0, -1)]  # a third seat left empty
    r = rating(games(("A", "B", "C"), rows)).set_index("strategy")
    assert r.loc["C", "seats"] == 1 and r.loc["A", "seats"] == 9 and r.loc["B", "seats"] == 8
    assert r["rating"].sum() == pytest.approx(0.0, abs=1e-12)
    assert r["worth"].sum() == pytest.approx(1.0, abs=1e-12)


def test_a_tie_in_rating_is_ordered_by_name():
    r = rating(games(("b", "a"), head_to_head(4, 4)))
    assert r["strategy"].tolist() == ["a", "b"] and r["rank"].tolist() == [1, 2]
    assert r["rating"].to_numpy() == pytest.approx([0.0, 0.0], abs=1e-12)


def test_one_strategy_alone_is_rated_zero_with_no_spread():
    r = rating(games(("A",), [((0, 0), (0, 1), 0, -1)] * 3))
    assert r["strategy"].tolist() == ["A"] and r["seats"].tolist() == [6]
    assert r[["rating", "se", "ci_low", "ci_high"]].to_numpy().tolist() == [[0.0] * 4]
    assert r["worth"].tolist() == [1.0]


def test_a_run_without_a_game_has_no_rating():
    r = rating(games(("A", "B"), []))
    assert list(r.columns) == COLUMNS and len(r) == 0


OVERSHOOT = [
    ([0, 2], [[1, 3, 3], [3, 2, 3]], [35, 3], 1e-3),
    (
        [3, 0, 0, 0],
        [[1, 0, 3, 2], [1, 3, 0, 2], [2, 3, 3, 0], [1, 3, 2, 3]],
        [39, 37, 19, 58],
        1e-3,
    ),
    ([0, 1], [[2, 1], [2, 1]], [26, 41], 1.0),
]


@pytest.mark.parametrize(("chosen", "comp", "weight", "ridge"), OVERSHOOT)
def test_newton_converges_where_its_full_step_overshoots(chosen, comp, weight, ridge):
    """Choices out of sets holding several seats of one strategy: undamped, Newton's method
    leaves for ratings in the thousands and the likelihood's overflow (the second also with a
    line search that takes any step keeping half the log-likelihood); the line search must
    halve its steps, judged by the penalised log-likelihood (the third, under a strong prior,
    comes back to the optimum from past it). The answer: the gradient of the penalised
    log-likelihood is 0."""
    chosen, comp, weight = np.array(chosen), np.array(comp, float), np.array(weight, float)
    k = comp.shape[1]
    theta, cov = fit_plackett_luce(chosen, comp, weight, ridge=ridge)
    e = comp * np.exp(theta)[None, :]
    pi = e / e.sum(axis=1, keepdims=True)
    grad = np.bincount(chosen, weights=weight, minlength=k) - weight @ pi - ridge * theta
    assert np.abs(grad).max() < 1e-10
    assert theta.sum() == pytest.approx(0.0, abs=1e-12)
    assert cov.sum(axis=0) == pytest.approx(np.zeros(k), abs=1e-9)  # the sum-zero subspace


# ---- reports/metagame_rank.py ---------------------------------------------------------------


needs_openspiel = pytest.mark.skipif(
    metagame_rank.egt() is None and not os.environ.get("CI"),  # CI installs the research extra
    reason="needs the research extra (OpenSpiel)",
)


def all_multisets(k: int, n: int) -> np.ndarray:
    rows = [
        np.bincount(c, minlength=k) for c in itertools.combinations_with_replacement(range(k), n)
    ]
    return np.array(rows, dtype=np.int64)


def textbook_alpha_rank(counts, payoffs, players, alpha, m=50) -> np.ndarray:
    """α-Rank's masses from their definition (Omidshafiei et al. 2019, local selection): a
    monomorphic state, one mutant strategy r in one population (of ``m``) taking over a
    resident s with the Fermi fixation probability (1 - e^-u) / (1 - e^-mu), u = alpha (f_r -
    f_s) (1/m at u = 0), each of the possible mutations equally likely; the stationary
    distribution of that chain; at two seats one population (f is the strategy's payoff per
    seat at the table of the two), else one per seat (f is the payoff at the profile's table),
    a strategy's mass averaged over the seats."""
    k = counts.shape[1]
    where = {tuple(c): i for i, c in enumerate(counts.tolist())}

    def pay(profile, seat):
        return payoffs[where[tuple(np.bincount(profile, minlength=k).tolist())], profile[seat]]

    def rho(u):  # written for u < 0 as e^((m-1)u) (1 - e^u) / (1 - e^mu): no overflow
        if abs(u) < 1e-14:
            return 1 / m
        if u > 0:
            return -math.expm1(-u) / -math.expm1(-m * u)
        return math.exp((m - 1) * u) * math.expm1(u) / math.expm1(m * u)

    pops = 1 if players == 2 else players
    states = list(itertools.product(range(k), repeat=pops))
    index = {s: i for i, s in enumerate(states)}
    c = np.zeros((len(states), len(states)))
    for s in states:
        for p in range(pops):
            for r in range(k):
                if r == s[p]:
                    continue
                t = list(s)
                t[p] = r
                if players == 2:  # r meets the resident s at the table of the two
                    u = alpha * (pay([r, s[p]], 0) - pay([r, s[p]], 1))
                else:
                    u = alpha * (pay(t, p) - pay(list(s), p))
                c[index[s], index[tuple(t)]] = rho(u) / (pops * (k - 1))
        c[index[s], index[s]] = 1 - c[index[s]].sum()
    vals, vecs = np.linalg.eig(c.T)
    pi = np.real(vecs[:, np.argmin(np.abs(vals - 1))])
    pi /= pi.sum()
    mass = np.zeros((pops, k))
    for s, w in zip(states, pi, strict=True):
        for p in range(pops):
            mass[p, s[p]] += w
    return mass.mean(axis=0)


def two_seat_payoffs(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The table of every pair out of ``a`` (a[i, j]: i's payoff against j)."""
    counts = all_multisets(len(a), 2)
    pays = np.zeros(counts.shape)
    for row, c in enumerate(counts):
        i, j = np.repeat(np.arange(len(a)), c)
        pays[row, i], pays[row, j] = (a[i, j], a[j, i]) if i != j else (a[i, i], a[i, i])
    return counts, pays


A3 = np.array([[0.5, 0.6, 0.35], [0.4, 0.5, 0.7], [0.65, 0.3, 0.5]])


@needs_openspiel
@pytest.mark.parametrize("alpha", [0.1, 2.0, 30.0])
def test_alpha_rank_masses_at_two_seats_are_the_textbook_ones(alpha):
    counts, pays = two_seat_payoffs(A3)
    want = textbook_alpha_rank(counts, pays, 2, alpha)
    np.testing.assert_allclose(metagame_rank.masses(counts, pays, 2, alpha), want, rtol=1e-9)


def anti_three(counts: np.ndarray) -> np.ndarray:
    """Three seats, two strategies: the rarer one at a table does better."""
    table = {(3, 0): (1 / 3, 0.0), (2, 1): (0.2, 0.6), (1, 2): (0.5, 0.25), (0, 3): (0.0, 1 / 3)}
    return np.array(table[tuple(int(c) for c in counts)])


@needs_openspiel
def test_alpha_rank_masses_at_three_seats_are_the_textbook_ones():
    counts = all_multisets(2, 3)
    pays = np.array([anti_three(c) for c in counts])
    for alpha in (0.5, 5.0):
        want = textbook_alpha_rank(counts, pays, 3, alpha)
        np.testing.assert_allclose(metagame_rank.masses(counts, pays, 3, alpha), want, rtol=1e-9)


@needs_openspiel
def test_alpha_rank_gives_the_textbook_masses_at_the_alpha_it_chose():
    counts, pays = two_seat_payoffs(A3)
    r = metagame_rank.alpha_rank(counts, pays, 2)
    assert r is not None and r.populations == 1 and r.alpha >= metagame_rank.ALPHA_START
    np.testing.assert_allclose(r.mass, textbook_alpha_rank(counts, pays, 2, r.alpha), rtol=1e-9)
    counts = all_multisets(2, 3)
    pays = np.array([anti_three(c) for c in counts])
    r = metagame_rank.alpha_rank(counts, pays, 3)
    assert r is not None and r.populations == 3
    np.testing.assert_allclose(r.mass, textbook_alpha_rank(counts, pays, 3, r.alpha), rtol=1e-9)


def test_the_size_of_alpha_ranks_chain():
    assert [metagame_rank.profiles(k, n) for k, n in [(3, 2), (3, 3), (2, 8), (4, 4)]] == [
        3, 27, 256, 256]  # fmt: skip
    # per state, each of the k - 1 other strategies in each population (one at two seats)
    assert [metagame_rank.transitions(k, n) for k, n in [(3, 2), (3, 3), (4, 3), (1, 3)]] == [
        6, 162, 576, 0]  # fmt: skip


def test_a_mass_below_zero_from_rounding_is_read_as_zero():
    m2 = metagame_rank._marginal(np.array([0.5, -1e-17, 0.5]), 3, 2)
    assert m2.tolist() == [0.5, 0.0, 0.5]
    # three seats, two strategies: profiles (s0, s1, s2) in order, each seat's marginal averaged
    pi = np.array([0.4, 0.1, 0.0, 0.1, -1e-3, 0.1, 0.2, 0.1])  # profile (1, 0, 0) read as 0
    seat0 = [0.4 + 0.1 + 0.0 + 0.1, 0.0 + 0.1 + 0.2 + 0.1]
    seat1 = [0.4 + 0.1 + 0.0 + 0.1, 0.0 + 0.1 + 0.2 + 0.1]
    seat2 = [0.4 + 0.0 + 0.0 + 0.2, 0.1 + 0.1 + 0.1 + 0.1]
    want = np.mean([seat0, seat1, seat2], axis=0)
    np.testing.assert_allclose(metagame_rank._marginal(pi, 2, 3), want, rtol=1e-12)


class FakeRank:
    """OpenSpiel's α-Rank modules, scripted: the sweep and ``compute`` raise ``ValueError`` as
    told (``sweep_fails``, the first ``compute_fails`` calls), else give a uniform ``pi``; every
    call is recorded."""

    def __init__(self, sweep_fails=False, compute_fails=0, error=ValueError):
        self.sweep_fails, self.compute_fails, self.error = sweep_fails, compute_fails, error
        self.calls: list[tuple] = []

    def from_heuristic_payoff_table(self, table):
        return ("table", table.shape)

    def _pi(self, tables):
        k = tables[0][1][1] // 2
        n = k if len(tables) == 1 else k ** len(tables)
        return np.full(n, 1.0 / n)

    def sweep_pi_vs_alpha(self, tables, return_alpha, m, warm_start_alpha):
        self.calls.append(("sweep", len(tables), m, warm_start_alpha))
        if self.sweep_fails:
            raise self.error("the sweep's refinement failed")
        return self._pi(tables), 7.5

    def compute(self, tables, m, alpha):
        self.calls.append(("compute", len(tables), m, alpha))
        if self.compute_fails:
            self.compute_fails -= 1
            raise ValueError("numerically reducible")
        return None, None, self._pi(tables), None, None


@pytest.fixture
def fake(monkeypatch):
    def install(**kw):
        f = FakeRank(**kw)
        monkeypatch.setattr(metagame_rank, "egt", lambda: (f, f))
        return f

    return install


def test_alpha_rank_runs_up_to_256_states_and_no_further(fake):
    f = fake()
    r = metagame_rank.alpha_rank(np.zeros((1, 256), np.int64), np.zeros((1, 256)), 2)
    assert r is not None and r.alpha == 7.5 and r.populations == 1 and len(r.mass) == 256
    assert f.calls == [("sweep", 1, 50, 1.0)]
    r = metagame_rank.alpha_rank(all_multisets(2, 8), np.zeros((9, 2)), 8)  # 2 ** 8 profiles
    assert r is not None and r.populations == 8 and r.mass.tolist() == [0.5, 0.5]
    f = fake()
    assert metagame_rank.alpha_rank(np.zeros((1, 257), np.int64), np.zeros((1, 257)), 2) is None
    assert f.calls == []


@pytest.mark.parametrize("error", [ValueError, IndexError])
def test_where_the_sweep_fails_alpha_rank_takes_alpha_1(fake, error):
    f = fake(sweep_fails=True, error=error)
    r = metagame_rank.alpha_rank(*two_seat_payoffs(A3), 2)
    assert r is not None and r.alpha == 1.0 and r.mass == pytest.approx([1 / 3] * 3)
    assert f.calls == [("sweep", 1, 50, 1.0), ("compute", 1, 50, 1.0)]
    f = fake(sweep_fails=True, compute_fails=1)
    assert metagame_rank.alpha_rank(*two_seat_payoffs(A3), 2) is None


@pytest.mark.parametrize("fails", [0, 1, 5, 6])
def test_masses_halve_alpha_up_to_five_times(fake, fails):
    f = fake(compute_fails=fails)
    counts = all_multisets(2, 3)
    got = metagame_rank.masses(counts, np.zeros(counts.shape), 3, 8.0)
    tried = [8.0 / 2**i for i in range(min(fails + 1, 6))]
    assert f.calls == [("compute", 3, 50, a) for a in tried]
    if fails < 6:
        assert got.tolist() == [0.5, 0.5]
    else:
        assert np.isnan(got).all() and got.shape == (2,)


def test_without_openspiel_alpha_rank_is_left_out_and_masses_say_what_to_install(monkeypatch):
    monkeypatch.setattr(metagame_rank, "egt", lambda: None)
    said = "OpenSpiel is not installed: pip install '.[research]'"
    monkeypatch.setattr(metagame_rank, "egt_failure", lambda: said)
    counts, pays = two_seat_payoffs(A3)
    assert metagame_rank.alpha_rank(counts, pays, 2) is None
    with pytest.raises(
        ImportError, match=r"^OpenSpiel is not installed: pip install '\.\[research\]'$"
    ):
        metagame_rank.masses(counts, pays, 2, 1.0)


# ---- reports/metagame_bootstrap.py ----------------------------------------------------------

PAIRS = np.array([[2, 0], [1, 1], [0, 2]])


def pair_design(row, wins, seats, labels=("A", "B")) -> PayoffDesign:
    """Two strategies at two seats (the three multisets of ``PAIRS``), one duplicate set per
    entry of ``row`` (its multiset), with its win shares and seats per strategy."""
    row = np.asarray(row)
    return PayoffDesign(labels=labels, players=2, counts=PAIRS, row=row,
                        wins=np.asarray(wins, float), seats=np.asarray(seats, float),
                        games=np.bincount(row, minlength=3))  # fmt: skip


def test_the_resampling_draws_each_tables_sets_with_replacement_and_nothing_else():
    """Mirror tables of one set each (one with one seat taken: a payoff over one seat) keep
    their payoff in every replicate; the mixed table's two sets, one won by A and one by B,
    drawn twice with replacement give A 1, 1/2 or 0 with chances 1/4, 1/2, 1/4. The sets are
    listed out of their tables' order."""
    d = pair_design(row=[1, 2, 0, 1, 2],
                    wins=[[1, 0], [0, 1], [0.5, 0], [0, 1], [0, 1]],
                    seats=[[1, 1], [0, 2], [1, 0], [1, 1], [0, 2]])  # fmt: skip
    pays = mb.resample(d, 400, np.random.default_rng(3))
    assert pays.shape == (400, 3, 2)
    assert (pays[:, 0] == [0.5, 0.0]).all() and (pays[:, 2] == [0.0, 0.5]).all()
    a = pays[:, 1, 0]
    assert set(a.tolist()) <= {0.0, 0.5, 1.0} and (pays[:, 1, 1] == 1 - a).all()
    share = [np.mean(a == v) for v in (0.0, 0.5, 1.0)]
    assert share == pytest.approx([0.25, 0.5, 0.25], abs=0.08)


def test_how_many_replicates_get_an_alpha_rank():
    """``RANK_WORK`` (12,000) transitions over the replicates: 20 at 4 strategies and 3 seats
    (576 transitions each), within [10, 200]."""
    assert mb.rank_replicates(4, 3) == 20
    assert mb.rank_replicates(2, 2) == 200  # 2 transitions: 6,000, cut to 200
    assert [mb.rank_replicates(k, 2) for k in (8, 9)] == [200, 166]  # 56 and 72 transitions
    assert mb.rank_replicates(16, 2) == 50  # 240 transitions: 12,000 / 240 exactly
    assert mb.rank_replicates(5, 3) == 10 and mb.rank_replicates(6, 4) == 10  # 8 and 0
    assert mb.rank_replicates(1, 3) == 200  # no transition at all


TRIPLES = np.array([[3, 0], [2, 1], [1, 2], [0, 3]])
COORDINATION = {0: ([1, 0], [3, 0]), 1: ([0.9, 0.1], [2, 1]), 2: ([0.2, 0.8], [1, 2]),
                3: ([0, 1], [0, 3])}  # fmt: skip
"""Three seats, two strategies, win shares and seats of one duplicate set per table: the
strategy in the majority does better (A 0.45 a seat beside one B, B 0.4 beside one A)."""


def coordination_design(sets: int) -> PayoffDesign:
    """``COORDINATION`` with ``sets`` identical duplicate sets per table."""
    row = np.repeat(np.arange(4), sets)
    return PayoffDesign(("A", "B"), 3, TRIPLES, row,
                        np.array([COORDINATION[r][0] for r in row], float),
                        np.array([COORDINATION[r][1] for r in row], float),
                        np.bincount(row, minlength=4))  # fmt: skip


def test_every_replicate_reaches_the_equilibrium_the_dynamics_reach_from_the_uniform_mix():
    """Every set alike, so every replicate is the estimate: from the uniform mix the dynamics
    reach A alone (A's payoff is the higher there), though B alone is an equilibrium too, the
    one a search for the least regret from the uniform mix finds."""
    d = coordination_design(5)
    fit = Fitness.of(d.counts)
    boot = mb.bootstrap(d, fit, alpha=None, replicates=12)
    assert boot.mass is None and boot.weights.shape == (12, 2) and boot.regret.shape == (12,)
    np.testing.assert_allclose(boot.weights, np.tile([1.0, 0.0], (12, 1)), atol=1e-6)
    np.testing.assert_allclose(boot.regret, np.zeros(12), atol=1e-9)  # 1/3 - 1/3 at A alone


def dominant_design(sets: int) -> PayoffDesign:
    """A beats B at the mixed table (both mirror tables even), ``sets`` sets per table."""
    one = {0: ([1, 0], [2, 0]), 1: ([1, 0], [1, 1]), 2: ([0, 1], [0, 2])}
    row = np.repeat(np.arange(3), sets)
    return pair_design(row, [one[r][0] for r in row], [one[r][1] for r in row])


def test_the_first_replicates_get_alpha_rank_at_the_alpha_given(fake):
    fake()  # OpenSpiel scripted: each α-Rank answers the uniform mass
    d = dominant_design(5)
    boot = mb.bootstrap(d, Fitness.of(d.counts), alpha=2.0, replicates=30)
    assert boot.mass.shape == (30, 2)  # 200 would get one (2 transitions each): all 30 do
    f = fake()
    boot = mb.bootstrap(d, Fitness.of(d.counts), alpha=2.0, replicates=250)
    assert boot.mass.shape == (200, 2) and len(boot.weights) == 250
    assert f.calls == [("compute", 1, 50, 2.0)] * 200


def mixed_design() -> tuple[PayoffDesign, Fitness, Equilibria]:
    """A pair of strategies whose mixed table A wins two games of three (payoff 2/3 to A, 1/3
    to B; 1/2 at the mirror tables: a constant-sum game, x.u = 1/2 at every mix), with B at
    exactly ``SUPPORT`` given as the equilibrium reached from the uniform mix (B alone listed
    second)."""
    d = pair_design(row=[0, 1, 2], wins=[[1, 0], [2, 1], [0, 1]],
                    seats=[[2, 0], [3, 3], [0, 2]])  # fmt: skip
    fit = Fitness.of(d.counts)
    x = np.array([1 - SUPPORT, SUPPORT])
    points = np.array([x, [0.0, 1.0]])
    eq = Equilibria(np.array([x]), points, np.array([1, 1]), np.array([0.0, 0.0]), True)
    return d, fit, eq


def test_the_mix_table_reads_the_replicates():
    d, fit, eq = mixed_design()
    b = 41
    w0 = np.linspace(0.0, 1.0, b)  # A's weight in the replicates: 0, 0.025, ..., 1
    weights = np.column_stack([w0, 1 - w0])
    weights[0] = [1 - SUPPORT, SUPPORT]  # B at exactly SUPPORT counts as played
    weights[1] = [SUPPORT - 1e-9, 1 - SUPPORT + 1e-9]  # A just under it does not
    regret = np.where(np.arange(b) < 10, EPS, 2 * EPS)  # at exactly EPS counts as at rest
    t = mb.mix_table(d, fit, eq, mb.Bootstrap(weights, regret, None))
    assert t["strategy"].tolist() == ["A", "B"]
    assert t["weight"].tolist() == pytest.approx([1 - SUPPORT, SUPPORT])
    lo, hi = np.percentile(weights, [2.5, 97.5], axis=0)
    assert t["ci_low"].tolist() == pytest.approx(lo.tolist())
    assert t["ci_high"].tolist() == pytest.approx(hi.tolist())
    assert t["in_support"].tolist() == pytest.approx([40 / 41, 40 / 41])  # A: not in 1; B: 40
    assert t["same_support"].iloc[0] == pytest.approx(39 / 41)  # both played: all but 1 and 40
    assert t["replicates_at_rest"].iloc[0] == pytest.approx(10 / 41)
    assert t["replicates"].iloc[0] == b and bool(t["at_rest"].iloc[0])
    # payoffs against the mix: A 0.99/2 + 0.01 * 2/3, B 0.99/3 + 0.01/2; x.u = 1/2
    u = [0.99 / 2 + 0.01 * 2 / 3, 0.99 / 3 + 0.01 / 2]
    assert t["payoff"].tolist() == pytest.approx(u)
    assert t["gain"].tolist() == pytest.approx([u[0] - 0.5, u[1] - 0.5])
    assert t["regret"].iloc[0] == pytest.approx(u[0] - 0.5)


def test_equal_weights_in_the_mix_table_put_the_higher_payoff_first():
    d, fit, _ = mixed_design()
    x = np.array([0.5, 0.5])
    eq = Equilibria(np.array([x]), np.array([x]), np.array([1]), np.array([0.0]), True)
    boot = mb.Bootstrap(np.tile(x, (3, 1)), np.zeros(3), None)
    t = mb.mix_table(d, fit, eq, boot)
    assert t["strategy"].tolist() == ["A", "B"] and t["payoff"].tolist() == pytest.approx(
        [7 / 12, 5 / 12]
    )
    labels = ("B", "A")  # the same game, B listed first: A still first
    d2 = pair_design([2, 1, 0], [[0, 1], [1, 2], [1, 0]], [[0, 2], [3, 3], [2, 0]], labels)
    assert mb.mix_table(d2, fit, eq, boot)["strategy"].tolist() == ["A", "B"]


def test_the_rank_table_shares_a_tie_for_first_and_skips_failed_replicates():
    d, _, _ = mixed_design()
    d = PayoffDesign(("A", "B", "C"), 2, np.zeros((1, 3), np.int64), d.row, d.wins, d.seats,
                     d.games)  # fmt: skip
    mass = np.array([
        [0.5, 0.5 - TIE, TIE],  # B exactly TIE below A: a tie, half a first each
        [0.2, 0.7, 0.1],  # B first
        [0.6, 0.3, 0.1],  # A first
        [0.6, 0.4 - 1.1e-6, 1.1e-6],  # no tie: 1.1e-6 apart... A first
        [np.nan, np.nan, np.nan],  # a replicate whose chain stayed reducible: left out
    ])  # fmt: skip
    rank = metagame_rank.Ranking(np.array([0.4, 0.4, 0.2]), 4.0, 1)
    t = mb.rank_table(d, rank, mb.Bootstrap(np.zeros((5, 3)), np.zeros(5), mass))
    assert t["replicates"].tolist() == [4] * 3
    ok = mass[:4]
    by = t.set_index("strategy")
    assert by["first"].to_dict() == pytest.approx({"A": 2.5 / 4, "B": 1.5 / 4, "C": 0.0})
    lo, hi = np.percentile(ok, [2.5, 97.5], axis=0)
    assert by["ci_low"].tolist() == pytest.approx(lo.tolist())
    assert by["ci_high"].tolist() == pytest.approx(hi.tolist())
    # A and B tie in mass: the replicates' mean (A 0.475, B 0.475 - ...) puts A first
    assert t["strategy"].tolist() == ["A", "B", "C"] and t["rank"].tolist() == [1, 2, 3]
    assert list(t.columns[:3]) == ["rank", "strategy", "mass"]
    assert t[["alpha", "population", "populations"]].iloc[0].tolist() == [4.0, 50, 1]


def test_a_rank_table_without_a_replicate_has_no_interval():
    d, _, _ = mixed_design()
    rank = metagame_rank.Ranking(np.array([0.3, 0.7]), 1.0, 1)
    for mass in (None, np.full((3, 2), np.nan)):
        t = mb.rank_table(d, rank, mb.Bootstrap(np.zeros((3, 2)), np.zeros(3), mass))
        assert t["strategy"].tolist() == ["B", "A"] and t["replicates"].tolist() == [0, 0]
        assert t[["ci_low", "ci_high", "first"]].isna().all().all()
