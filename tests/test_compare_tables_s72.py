"""``leaves compare`` pairs a deal table by table: a gauntlet deals the strategy's table and the
baseline's alike, and two gauntlets of other baselines share the strategy's table only. That
table is paired (the same deals, seats and winners: B - A is 0 with no spread, and said so),
the baselines' are left out of B - A and of both win rates, and the sentences say which. Each
figure is checked against the runs' own rows, or against a computation made here by hand."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from reports import compare
from reports.compare_deals import overlap, paired_difference
from reports.loading import as_run
from tests.helpers import cli, exit_code
from tests.test_edge72_claims import rows, seated
from tests.test_mutation_gauntlet60 import frame

GAUNTLET = ["weighted", "--against", "minimal", "--players", "3", "--games", "24", "--seed",
            "3", "--jobs", "1"]  # fmt: skip


@pytest.fixture(scope="module")
def gauntlets(tmp_path_factory):
    """Two gauntlets of weighted against minimal on the same deals, one with greedy as its
    baseline, the other with low."""
    base = tmp_path_factory.mktemp("compare_tables")
    for baseline in ("greedy", "low"):
        code = exit_code(["gauntlet", *GAUNTLET, "--baseline", baseline, "--out",
                          str(base / baseline)])  # fmt: skip
        assert code == 0
    return base / "greedy", base / "low"


def _at_weighted(df: pd.DataFrame) -> pd.DataFrame:
    """The games at weighted's table (the strategy's), the one both gauntlets seat alike."""
    return df[seated(df, "weighted").any(axis=1)]


def test_two_gauntlets_of_other_baselines_pair_the_strategys_table(gauntlets):
    a, b = gauntlets
    da, db = rows(a), rows(b)
    n = da["deal_seed"].nunique()
    assert n == db["deal_seed"].nunique() == 8 and set(da["deal_seed"]) == set(db["deal_seed"])
    c = compare(a, b)
    assert c.paired and c.pairing == (
        f"paired where the deal seeds agree: A dealt {n} deals, B {n}, {n} of them with the same "
        f"seed; B - A is paired over the {n} duplicate sets both played at the same table (A has "
        f"{n}, B {n}); each is paired at the tables both runs seated alike only: A's (greedy, "
        "minimal, minimal) and B's (low, minimal, minimal), where the other run did not deal "
        "them, are left out")  # fmt: skip
    assert ("no strategy changed: each won as often in B as in A in every duplicate set paired "
            "(B - A is 0, with no spread)") in c.findings  # fmt: skip
    assert (f"the win rates too are over the {n} duplicate sets paired (of A's {n} and B's {n}) "
            "at the tables paired, so that B's less A's is B - A") in c.findings  # fmt: skip
    t = c.table.set_index("strategy")
    assert sorted(t.index) == ["minimal", "weighted"]  # greedy and low: one run each
    for who in t.index:  # both rates over weighted's table alone, from the rows
        for df, col in ((da, "win_rate_a"), (db, "win_rate_b")):
            games = _at_weighted(df)
            rate = (games["winner"] == who).sum() / seated(games, who).values.sum()
            assert t.loc[who, col] == pytest.approx(rate)
    assert (t["diff"] == 0).all() and t["no_spread"].all() and t["ci_low"].isna().all()
    assert (t["units"] == n).all()


def test_leaves_compare_says_the_strategys_table_is_paired(gauntlets, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, said, err = cli(capsys, "compare", str(gauntlets[0]), str(gauntlets[1]))
    assert code == 0, err
    assert "unpaired" not in said and "variances add" not in said
    cells = {r[0]: r[3] for line in said.splitlines() if line.startswith("│")
             for r in [[x.strip() for x in line.strip("│").split("│")]]}  # fmt: skip
    assert cells == {"minimal": "+0.0 (no spread)", "weighted": "+0.0 (no spread)"}


# ------------------------------------------------------------------ by hand
# Six deals, each dealt at (x, y) and at a second table of the same deal stream: (x, z) in A,
# (x, w) in B; per deal the winning seat of each of the four games (x first, then second).
WINS_A = [(0, 1, 0, 0), (1, 1, 0, 1), (0, 0, 1, 1), (1, 0, 0, 0), (0, 1, 1, 0), (1, 1, 1, 1)]
WINS_B = [(0, 0, 1, 0), (1, 1, 0, 0), (0, 1, 1, 1), (0, 0, 0, 1), (1, 1, 0, 0), (0, 1, 0, 1)]


def _gauntlet_like(wins: list[tuple[int, ...]], other: str) -> pd.DataFrame:
    sets = []
    for seed, w in enumerate(wins, start=1):
        games = [(("x", "y"), w[0], -1), (("y", "x"), w[1], -1),
                 (("x", other), w[2], -1), ((other, "x"), w[3], -1)]  # fmt: skip
        sets.append((0, seed, games))
    return frame(sets)


def _x_wins_at_xy(wins: tuple[int, ...]) -> int:
    """x's wins at (x, y) in one deal: x is seat 0 of the first game, seat 1 of the second."""
    return int(wins[0] == 0) + int(wins[1] == 1)


def test_b_less_a_over_the_table_both_seat_alike_by_hand():
    """x over (x, y) only, two seats a deal: per deal d = (B's wins - A's) / 2, weighing as its
    seats; B - A their mean; each deal's contribution 2 (d - diff) / 12, the one stratum's
    6 / 5 times their squared deviations from their mean, 5 degrees of freedom."""
    fa, fb = _gauntlet_like(WINS_A, "z"), _gauntlet_like(WINS_B, "w")
    ga, gb = as_run(fa).games, as_run(fb).games
    names = ([s if s != "z" else "A:z" for s in ga.labels],
             [s if s != "w" else "B:w" for s in gb.labels])  # fmt: skip
    seeds = tuple(f["deal_seed"].to_numpy().astype(np.uint64) for f in (fa, fb))
    ov = overlap(ga, gb, seeds, names)
    assert ov.paired and ov.shared_sets == 6 and ov.partial == 6
    assert ov.b_of_a.tolist() == [0, -1, 2, -1, 4, -1, 6, -1, 8, -1, 10, -1]
    d = [(_x_wins_at_xy(b) - _x_wins_at_xy(a)) / 2 for a, b in zip(WINS_A, WINS_B, strict=True)]
    diff = sum(d) / len(d)
    u = [2 * (x - diff) / 12 for x in d]
    mean = sum(u) / len(u)
    se = math.sqrt(6 / 5 * sum((x - mean) ** 2 for x in u))
    est, identical = paired_difference(ga, gb, [(ga.labels.index("x"), gb.labels.index("x"))],
                                       ov)  # fmt: skip
    assert not identical and se > 0
    np.testing.assert_allclose([est.value[0], est.se[0]], [diff, se], rtol=0, atol=1e-12)
    assert est.df[0] == 5 and est.units[0] == 6
    c = compare(fa, fb)
    x = c.table.set_index("strategy").loc["x"]
    wa = sum(_x_wins_at_xy(w) for w in WINS_A) / 12
    wb = sum(_x_wins_at_xy(w) for w in WINS_B) / 12
    assert (x["win_rate_a"], x["win_rate_b"]) == pytest.approx((wa, wb))
    assert x["diff"] == pytest.approx(wb - wa) == pytest.approx(diff)
    said = re.search(r"each is paired at the tables both runs seated alike only: (.*?), where",
                     c.pairing)  # fmt: skip
    assert said and said.group(1) == "A's (x, z) and B's (w, x)"
