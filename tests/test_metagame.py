"""The meta-game analysis (``reports.metagame``): its statistics on synthetic games with a known
answer (a cyclic game's uniform equilibrium, a dominant strategy, an anti-coordination game's
interior equilibrium), the payoff table read from games, a real ``--repeats`` tournament's
section, CSVs and chart, the bootstrap's determinism, and the page without OpenSpiel."""

from __future__ import annotations

import importlib.abc
import itertools
import math
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import reports
from reports import metagame as mg
from reports import metagame_rank
from reports.metagame_tables import metagame
from reports.metagame_text import metagame_lead
from tests.helpers import cli


def _have_openspiel() -> bool:
    return metagame_rank.egt() is not None


needs_openspiel = pytest.mark.skipif(
    not _have_openspiel() and not os.environ.get("CI"),  # CI installs the research extra
    reason="needs the research extra (OpenSpiel)",
)


def multisets(k: int, n: int) -> np.ndarray:
    """Every multiset of ``n`` seats over ``k`` strategies, as seat counts."""
    rows = [
        np.bincount(c, minlength=k) for c in itertools.combinations_with_replacement(range(k), n)
    ]
    return np.array(rows, dtype=np.int64)


def table_payoffs(counts: np.ndarray, seat_payoff) -> np.ndarray:
    """Payoffs (M, K) from ``seat_payoff(counts_row) -> per-strategy payoff per seat``."""
    return np.array([np.where(c > 0, seat_payoff(c), 0.0) for c in counts])


def brute_payoff(counts: np.ndarray, pay: np.ndarray, x: np.ndarray, i: int) -> float:
    """A player choosing ``i`` while each other seat independently draws from ``x``: the
    expected payoff summed over every ordered profile of the others (the textbook definition)."""
    k, n = counts.shape[1], int(counts[0].sum())
    where = {tuple(c): r for r, c in enumerate(counts.tolist())}
    total = 0.0
    for prof in itertools.product(range(k), repeat=n - 1):
        d = np.bincount([i, *prof], minlength=k)
        total += np.prod(x[list(prof)]) * pay[where[tuple(d.tolist())], i]
    return total


def nash_of(counts: np.ndarray, pay: np.ndarray) -> mg.Equilibria:
    fit = mg.Fitness.of(counts)
    return mg.equilibria(fit, fit.gather(pay))


# ---------------------------------------------------------------- known games


def rps(counts: np.ndarray) -> np.ndarray:
    """Rock-paper-scissors at three seats: a seat scores +1 per other seat it beats, -1 per one
    it loses to; payoffs are the seats' shares of exp(score) (a table's sum is 1)."""
    beats = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    seats = np.repeat(np.arange(3), counts)
    score = np.array([sum(beats[s, o] for j, o in enumerate(seats) if j != a)
                      for a, s in enumerate(seats)])  # fmt: skip
    share = np.exp(score) / np.exp(score).sum()
    out = np.zeros(3)
    for s in range(3):
        if counts[s]:
            out[s] = share[seats == s].mean()
    return out


def dominant(counts: np.ndarray) -> np.ndarray:
    """Strategy 0 wins every table it sits at (shared among its seats); elsewhere even."""
    if counts[0]:
        return np.where(np.arange(len(counts)) == 0, 1.0 / counts[0], 0.0)
    return np.full(len(counts), 1.0 / counts.sum())


ANTI = {(3, 0): (1 / 3, 0.0), (2, 1): (0.2, 0.6), (1, 2): (0.5, 0.25), (0, 3): (0.0, 1 / 3)}
"""Hawk-dove-like at three seats: the rarer strategy at a table does better."""


def anti(counts: np.ndarray) -> np.ndarray:
    return np.array(ANTI[tuple(int(c) for c in counts)])


def test_expected_payoff_is_the_textbook_one():
    rng = np.random.default_rng(1)
    for k, n in ((3, 3), (2, 4), (4, 3)):
        counts = multisets(k, n)
        pay = np.where(counts > 0, rng.random(counts.shape), 0.0)
        fit = mg.Fitness.of(counts)
        x = rng.dirichlet(np.ones(k))
        u = fit(x, fit.gather(pay))
        want = [brute_payoff(counts, pay, x, i) for i in range(k)]
        np.testing.assert_allclose(u, want, rtol=1e-12)
        # batched: each replicate its own table and mixture
        xs = rng.dirichlet(np.ones(k), 3)
        pays = np.stack([pay, pay * 0.5, pay[::1] ** 2])
        ub = fit(xs, fit.gather(pays))
        np.testing.assert_allclose(ub[1], fit(xs[1], fit.gather(pays[1])), rtol=1e-12)


def test_cyclic_game_has_the_uniform_equilibrium():
    counts = multisets(3, 3)
    eq = nash_of(counts, table_payoffs(counts, rps))
    np.testing.assert_allclose(eq.points[0], np.full(3, 1 / 3), atol=1e-6)
    assert eq.regret[0] < 1e-9 and eq.settled  # the uniform mix is a rest point


def test_dominant_strategy_is_the_pure_equilibrium_from_every_start():
    counts = multisets(4, 3)
    eq = nash_of(counts, table_payoffs(counts, dominant))
    assert len(eq.points) == 1 and eq.reached[0] == len(mg.starts(4))
    np.testing.assert_allclose(eq.points[0], [1, 0, 0, 0], atol=1e-6)
    assert eq.regret[0] <= mg.EPS
    assert eq.trajectory[-1, 0] > 0.999 and eq.trajectory[0, 0] == pytest.approx(0.25)


def anti_share() -> tuple[float, np.ndarray, np.ndarray]:
    """The truth of the anti-coordination game at 3 seats: the first strategy's share of its
    interior equilibrium, where both earn alike (brentq), with the game's multisets and
    payoffs."""
    from scipy.optimize import brentq

    counts = multisets(2, 3)
    pay = table_payoffs(counts, anti)

    def edge(p: float) -> float:
        x = np.array([p, 1 - p])
        return brute_payoff(counts, pay, x, 0) - brute_payoff(counts, pay, x, 1)

    return brentq(edge, 1e-9, 1 - 1e-9), counts, pay


def test_anti_coordination_game_has_its_interior_equilibrium():
    p, counts, pay = anti_share()
    eq = nash_of(counts, pay)
    assert 0.05 < p < 0.95
    assert eq.points[0][0] == pytest.approx(p, abs=1e-4)
    assert len(eq.points) == 1  # every start ends there: it is stable
    assert eq.regret[0] < 1e-6


def two_seat(a: np.ndarray) -> np.ndarray:
    """The payoff table (M, K) at two seats of the matrix game ``a`` (row player's payoffs)."""

    def matrix(c: np.ndarray) -> np.ndarray:
        i, j = np.repeat(np.arange(len(a)), c)
        out = np.zeros(len(a))
        out[i], out[j] = a[i, j], a[j, i]
        return out

    return table_payoffs(multisets(len(a), 2), matrix)


def test_where_the_dynamics_circle_the_equilibrium_is_polished():
    """Rock-paper-scissors whose losses outweigh its wins: the dynamics spiral out to the
    boundary and never rest, and the equilibrium is the uniform mix inside."""
    a = np.array([[0, -1.0, 0.5], [0.5, 0, -1.0], [-1.0, 0.5, 0]]) + 2
    eq = nash_of(multisets(3, 2), two_seat(a))
    assert not eq.settled and eq.trajectory[-1].max() > 0.99  # near a vertex at the end
    np.testing.assert_allclose(eq.points[0], np.full(3, 1 / 3), atol=1e-4)
    assert len(eq.points) == 1 and eq.regret[0] <= mg.EPS


COORD = {(3, 0): (1 / 3, 0.0), (2, 1): (0.45, 0.1), (1, 2): (0.2, 0.4), (0, 3): (0.0, 1 / 3)}
"""A coordination game at three seats: the strategy most others play does better."""


def coord(counts: np.ndarray) -> np.ndarray:
    return np.array(COORD[tuple(int(c) for c in counts)])


def test_a_coordination_game_has_two_stable_mixes():
    counts = multisets(2, 3)
    eq = nash_of(counts, table_payoffs(counts, coord))
    assert len(eq.points) == 2 and eq.reached.sum() == len(mg.starts(2))
    np.testing.assert_allclose(sorted(eq.points[:, 0]), [0, 1], atol=1e-6)
    assert (eq.regret <= mg.EPS).all()


@needs_openspiel
def test_two_seat_dynamics_agree_with_openspiel():
    """At two seats the payoff table is a matrix game, and OpenSpiel's replicator dynamics of
    that matrix are the ones here; its heuristic payoff table's expected payoff is not."""
    from open_spiel.python.egt import dynamics, heuristic_payoff_table

    a = np.array([[0.5, 0.2, 0.9], [0.8, 0.5, 0.3], [0.1, 0.7, 0.5]])
    counts = multisets(3, 2)
    pay = two_seat(a)
    fit = mg.Fitness.of(counts)
    x = np.array([0.2, 0.5, 0.3])
    u = fit(x, fit.gather(pay))
    np.testing.assert_allclose(u, a @ x, rtol=1e-12)
    theirs = dynamics.SinglePopulationDynamics(np.stack([a, a.T]), dynamics.replicator)(x)
    np.testing.assert_allclose(x * (u - x @ u), theirs, rtol=1e-12)
    hpt = heuristic_payoff_table.from_heuristic_payoff_table(np.hstack([counts, pay]))
    assert not np.allclose(hpt.expected_payoff(x), a @ x)  # why the module has its own


@needs_openspiel
def test_alpha_rank_on_known_games():
    counts = multisets(3, 3)
    cyclic = metagame_rank.alpha_rank(counts, table_payoffs(counts, rps), 3)
    assert cyclic is not None and cyclic.populations == 3
    np.testing.assert_allclose(cyclic.mass, np.full(3, 1 / 3), atol=1e-6)
    counts = multisets(4, 3)
    top = metagame_rank.alpha_rank(counts, table_payoffs(counts, dominant), 3)
    assert top is not None and top.mass[0] > 0.99 and top.alpha > 0
    two = multisets(3, 2)
    pair = metagame_rank.alpha_rank(two, table_payoffs(two, lambda c: dominant(c)), 2)
    assert pair is not None and pair.populations == 1 and pair.mass[0] > 0.99


def test_too_many_profiles_leave_alpha_rank_out():
    counts = multisets(5, 4)  # 625 profiles
    assert metagame_rank.alpha_rank(counts, table_payoffs(counts, dominant), 4) is None


# ---------------------------------------------------------------- from games


def games_frame(labels: list[str], seat_payoff, deals: int, seed: int = 0,
                repeats: bool = True) -> pd.DataFrame:  # fmt: skip
    """Games in the run layout at three seats: every multiset (``repeats``) or combination of
    the strategies is a table, each dealt ``deals`` times and each deal played under the three
    rotations; the winner is drawn with each seat's payoff as its chance."""
    rng = np.random.default_rng(seed)
    k = len(labels)
    tables = (itertools.combinations_with_replacement if repeats else itertools.combinations)(
        range(k), 3
    )
    rows = []
    for t, table in enumerate(tables):
        counts = np.bincount(table, minlength=k)
        chance = np.where(counts > 0, seat_payoff(counts), 0.0)
        for deal in range(deals):
            for r in range(3):
                seats = [table[(s + r) % 3] for s in range(3)]
                p = chance[seats] / chance[seats].sum()
                win = int(rng.choice(3, p=p))
                row = {f"seat_{s}": labels[seats[s]] for s in range(3)}
                row.update({f"cards_left_{s}": 0 if s == win else 3 for s in range(3)})
                row.update(n_players=3, first_player=r, winner_seat=win, turns=40, rounds=6,
                           unfinished=False, forfeit=-1, deal=t * deals + deal, table=t)  # fmt: skip
                rows.append(row)
    return pd.DataFrame(rows)


STRONG = ["ace", "bee", "cat", "dog"]


def test_payoff_table_is_the_win_share_per_seat():
    df = games_frame(STRONG, dominant, deals=6, seed=2)
    d = mg.design(reports.as_run(df))
    assert d is not None and d.players == 3 and len(d.counts) == math.comb(4 + 2, 3)
    assert (d.sets == 6).all() and d.games.sum() == len(df)
    # the same by hand: per table, each strategy's wins over the seats it took
    df["key"] = [tuple(sorted((r.seat_0, r.seat_1, r.seat_2))) for r in df.itertuples()]
    pay = d.payoffs()
    for r, counts in enumerate(d.counts):
        key = tuple(sorted(np.repeat(STRONG, counts)))
        sub = df[df["key"] == key]
        for i, s in enumerate(STRONG):
            if counts[i]:
                won = sum((sub[f"seat_{w}"] == s) & (sub["winner_seat"] == w) for w in range(3))
                assert pay[r, i] == pytest.approx(won.sum() / (counts[i] * len(sub)))
    sums = (pay * d.counts).sum(axis=1)
    np.testing.assert_allclose(sums, 1.0)  # every game has a winner: a table's payoffs sum to 1


def test_dominant_strategy_from_games():
    tables = metagame(reports.as_run(games_frame(STRONG, dominant, deals=8, seed=3)))
    mix = tables["metagame_mix"]
    assert mix["strategy"].iloc[0] == "ace" and mix["weight"].iloc[0] == pytest.approx(1.0)
    assert mix["ci_low"].iloc[0] == pytest.approx(1.0)  # ace wins every game it plays
    assert mix["same_support"].iloc[0] == 1.0 and int(mix["replicates"].iloc[0]) == 200
    assert "ace alone" in metagame_lead(tables)


def test_several_equilibria_are_named_in_the_lead():
    tables = metagame(reports.as_run(games_frame(["hare", "stag"], coord, deals=40, seed=6)))
    eq = tables["metagame_equilibria"]
    assert len(eq) == 2 and eq["from_uniform"].tolist() == [True, False]
    assert "reach 2 different equilibria" in metagame_lead(tables)


def test_no_meta_game_without_every_multiset():
    run = reports.as_run(games_frame(STRONG, dominant, deals=6, repeats=False))
    assert mg.design(run) is None and metagame(run) == {}


def test_too_few_deals_says_so():
    tables = metagame(reports.as_run(games_frame(STRONG, dominant, deals=2)))
    assert list(tables) == ["metagame_payoffs"]
    assert "Too few deals" in metagame_lead(tables) and "2 duplicate sets" in metagame_lead(tables)


def test_bootstrap_is_deterministic():
    df = games_frame(["x", "y", "z"], rps_named, deals=10, seed=4)
    first = metagame(reports.as_run(df))
    again = metagame(reports.as_run(df.copy()))
    assert first.keys() == again.keys()
    for name in first:
        pd.testing.assert_frame_equal(first[name], again[name])


def rps_named(counts: np.ndarray) -> np.ndarray:
    return rps(counts)


# ---------------------------------------------------------------- a real tournament


@pytest.fixture(scope="module")
def repeats_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("mg") / "run"
    from leaves_cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(["tournament", "random", "taker", "counter", "--players", "3", "--repeats",
              "--games", "600", "--seed", "1", "--jobs", "1", "--out", str(out)])  # fmt: skip
        raise SystemExit(0)
    assert not exc.value.code
    return out


@pytest.mark.slow
def test_repeats_run_gets_the_section_csvs_and_chart(repeats_run, tmp_path, capsys):
    code, out, err = cli(capsys, "report", str(repeats_run), "--out", str(tmp_path / "r"))
    assert code == 0, err
    r = tmp_path / "r"
    said = [line for line in (r / "findings.txt").read_text().splitlines()
            if line.startswith("Meta-game: the stable mix of strategies is ")
            and "bootstrap replicates of the deals)" in line]  # fmt: skip
    assert len(said) == 1 and f"- {said[0]}" in out.splitlines()  # the key findings, printed
    for name in ("metagame_payoffs", "metagame_mix", "metagame_equilibria",
                 "metagame_trajectory"):  # fmt: skip
        assert len(pd.read_csv(r / f"{name}.csv"))
    assert (r / "charts" / "metagame_trajectory.png").stat().st_size > 1000
    page = (r / "report.html").read_text()
    assert "Meta-game: which mix of strategies is stable?" in page
    assert "The stable mix is" in page and "bootstrap replicates" in page
    mix = pd.read_csv(r / "metagame_mix.csv")
    assert mix["weight"].sum() == pytest.approx(1.0) and mix["regret"].iloc[0] <= mg.EPS
    assert mix["strategy"].iloc[0] != "random"  # the baseline is in no stable mix
    traj = pd.read_csv(r / "metagame_trajectory.csv")
    np.testing.assert_allclose(traj[["counter", "random", "taker"]].sum(axis=1), 1.0)
    if _have_openspiel():
        rank = pd.read_csv(r / "metagame_alpharank.csv")
        assert rank["mass"].sum() == pytest.approx(1.0, abs=1e-6) and rank["alpha"].iloc[0] > 0


@pytest.mark.slow
def test_run_without_repeats_has_no_section(tmp_path, capsys):
    out = tmp_path / "plain"
    code, _, err = cli(capsys, "tournament", "random", "taker", "counter", "greedy",
                       "--players", "3", "--games", "240", "--seed", "2", "--jobs", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    code = (
        "import sys, reports; reports.build_report(sys.argv[1], out=sys.argv[2]); "
        "print(sorted(m for m in ('open_spiel', 'scipy.integrate') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code, str(out), str(tmp_path / "r")],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == "[]"  # nothing loaded for the section
    assert "Meta-game" not in (tmp_path / "r" / "report.html").read_text()
    assert not list((tmp_path / "r").glob("metagame_*.csv"))


@pytest.mark.slow
def test_the_same_run_gives_the_same_numbers(repeats_run):
    one = metagame(reports.load_run(repeats_run))
    two = metagame(reports.load_run(repeats_run))
    for name in one:
        pd.testing.assert_frame_equal(one[name], two[name])


class _NoOpenSpiel(importlib.abc.MetaPathFinder):
    """OpenSpiel not found, as where it is not installed."""

    def find_spec(self, name, path=None, target=None):
        if name == "open_spiel":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


@pytest.mark.slow
def test_without_openspiel_the_section_says_what_to_install(repeats_run, tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "open_spiel" or m.startswith("open_spiel.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_NoOpenSpiel(), *sys.meta_path])
    assert metagame_rank.egt() is None
    page = reports.build_report(repeats_run, out=tmp_path / "r").read_text()
    assert "OpenSpiel is not installed: pip install &#x27;.[research]&#x27;" in page  # escaped
    assert "The stable mix is" in page  # the rest of the analysis needs no OpenSpiel
    assert not (tmp_path / "r" / "metagame_alpharank.csv").exists()
    assert (tmp_path / "r" / "metagame_mix.csv").exists()


@pytest.mark.slow
def test_reports_import_neither_openspiel_nor_scipy():
    code = (
        "import sys, reports; print(sorted(m for m in ('open_spiel', 'scipy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _sorted_csv(path) -> pd.DataFrame:
    """A CSV with its columns and rows in one order, whatever order produced it."""
    df = pd.read_csv(path)
    df = df[sorted(df.columns)]
    keys = [c for c in df.columns if df[c].dtype == object]
    return df.sort_values(keys or list(df.columns)).reset_index(drop=True)


@pytest.mark.slow
def test_the_meta_game_does_not_move_with_listing_order_or_jobs(repeats_run, tmp_path, capsys):
    """The same field listed in another order and played by two workers: the same payoff
    table, equilibrium, bootstrap intervals, alpha-rank and trajectory."""
    from leaves_cli.main import main

    other = tmp_path / "other"
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "counter", "random", "taker", "--players", "3", "--repeats",
              "--games", "600", "--seed", "1", "--jobs", "2", "--out", str(other)])  # fmt: skip
        raise SystemExit(0)
    assert not exc.value.code
    for run, out in ((repeats_run, tmp_path / "a"), (other, tmp_path / "b")):
        code, _, err = cli(capsys, "report", str(run), "--out", str(out))
        assert code == 0, err
    names = [p.name for p in (tmp_path / "a").glob("metagame_*.csv")]
    assert len(names) >= 4
    for name in names:
        pd.testing.assert_frame_equal(
            _sorted_csv(tmp_path / "a" / name), _sorted_csv(tmp_path / "b" / name), rtol=1e-9
        )
