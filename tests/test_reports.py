"""Report tables on hand-made data (exact numbers), statistics, rating, significance."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

import reports
from reports.rating import choice_patterns, fit_plackett_luce
from reports.significance import PAIRED, UNPAIRED
from reports.stats import hist_quantiles, holm
from reports.synthetic import synthetic_expert, synthetic_games


def frame(rows: list[tuple], extra: dict | None = None) -> pd.DataFrame:
    """Games from (seats, cards, winner, first, turns, rounds, unfinished) tuples."""
    cols: dict[str, list] = {f"seat_{s}": [] for s in range(6)}
    cols.update({f"cards_left_{s}": [] for s in range(6)})
    for k in ("n_players", "first_player", "winner_seat", "turns", "rounds", "unfinished"):
        cols[k] = []
    for seats, cards, winner, first, turns, rounds, unfinished in rows:
        for s in range(6):
            cols[f"seat_{s}"].append(seats[s] if s < len(seats) else None)
            cols[f"cards_left_{s}"].append(cards[s] if s < len(cards) else None)
        cols["n_players"].append(len(seats))
        cols["first_player"].append(first)
        cols["winner_seat"].append(winner)
        cols["turns"].append(turns)
        cols["rounds"].append(rounds)
        cols["unfinished"].append(unfinished)
    df = pd.DataFrame(cols)
    for s in range(6):
        df[f"cards_left_{s}"] = df[f"cards_left_{s}"].astype("Int16")
    df.insert(0, "game", np.arange(len(df)))
    for k, v in (extra or {}).items():
        df[k] = v
    return df


def _twice(games: pd.DataFrame) -> pd.DataFrame:
    """Twice the games: each of ``games`` again under a new number (a report refuses a game
    number given twice)."""
    again = games.assign(game=games["game"] + len(games))
    return pd.concat([games, again], ignore_index=True)


HAND = frame(
    [
        (("A", "B", "C"), (0, 3, 5), 0, 0, 10, 2, False),
        (("B", "C", "A"), (2, 0, 2), 1, 1, 20, 3, False),
        (("C", "A", "B"), (4, 4, 0), 2, 2, 30, 4, False),
        (("A", "B", "C"), (0, 2, 3), 0, 0, 40, 5, False),
        (("B", "C", "A"), (1, 1, 3), -1, 0, 1000, 90, True),
    ]
)


def test_summary_exact():
    s = reports.summary(HAND).set_index("strategy")
    assert list(s.index) == ["A", "B", "C"]  # A strongest; B, C tied -> by name
    assert s["games"].tolist() == [5, 5, 5]
    assert s["wins"].tolist() == [2, 1, 1]
    assert s["win_rate"].tolist() == pytest.approx([0.4, 0.2, 0.2])
    assert s["mean_cards_left_when_losing"].tolist() == pytest.approx([3.0, 2.0, 3.25])
    assert s["unfinished"].tolist() == [1, 1, 1]
    assert s["forfeits"].tolist() == [0, 0, 0]
    assert s["fair_share"].tolist() == pytest.approx([1 / 3] * 3)
    # Without a deal column every game is its own unit: five games, 4 degrees of freedom, too
    # few for an interval (no interval rather than a false one)
    assert s["df"].tolist() == pytest.approx([4.0] * 3)
    assert s["ci_low"].isna().all() and s["ci_high"].isna().all()
    # Twice the games: Wilson's score interval on the games' own variance (not the binomial
    # one) with Student's t for 9 degrees of freedom, computed here independently
    s = reports.summary(_twice(HAND)).set_index("strategy")
    won = {"A": [1, 0, 0, 1, 0] * 2, "B": [0, 1, 0, 0, 0] * 2, "C": [0, 0, 1, 0, 0] * 2}
    for name, x in won.items():
        got = (s.loc[name, "ci_low"], s.loc[name, "ci_high"])
        assert got == pytest.approx(_wilson_t(np.array(x, float)), abs=1e-9), name
        assert s.loc[name, "df"] == pytest.approx(9.0)


def _wilson_t(x: np.ndarray) -> tuple[float, float]:
    """Wilson's interval for the mean of independent 0/1 ``x`` with its sample variance."""
    from scipy import stats as sps

    n, p = len(x), x.mean()
    z = sps.t.ppf(0.975, n - 1)
    n_eff = p * (1 - p) / (x.var(ddof=1) / n)
    centre = (p + z * z / (2 * n_eff)) / (1 + z * z / n_eff)
    half = z * np.sqrt(p * (1 - p) / n_eff + z * z / (4 * n_eff**2)) / (1 + z * z / n_eff)
    return centre - half, centre + half


def test_wilson_values():
    lo, hi = reports.wilson(np.array([0, 1, 7, 50, 10]), np.array([10, 4, 9, 100, 10]))
    for k, n, a, b in zip([0, 1, 7, 50, 10], [10, 4, 9, 100, 10], lo, hi, strict=True):
        ci = binomtest(k, n).proportion_ci(method="wilson")
        assert (a, b) == pytest.approx((ci.low, ci.high), abs=1e-9)
    assert (lo[1], hi[1]) == pytest.approx((0.0455873, 0.6993582), abs=2e-7)
    assert np.isnan(reports.wilson(0, 0)[0])


def test_head_to_head_exact():
    h = reports.head_to_head(HAND).set_index(["strategy", "opponent"])
    assert tuple(h.loc[("A", "B"), ["shared", "ahead", "behind", "ties"]]) == (5, 2, 2, 1)
    assert tuple(h.loc[("A", "C"), ["shared", "ahead", "behind", "ties"]]) == (5, 2, 2, 1)
    assert tuple(h.loc[("B", "C"), ["shared", "ahead", "behind", "ties"]]) == (5, 3, 1, 1)
    assert tuple(h.loc[("C", "B"), ["shared", "ahead", "behind", "ties"]]) == (5, 1, 3, 1)
    assert h.loc[("B", "C"), "ahead_rate"] == pytest.approx(0.6)
    assert h.loc[("B", "C"), "score"] == pytest.approx(0.7)
    mat = reports.head_to_head_matrix(h.reset_index())
    assert mat.loc["B", "C"] == pytest.approx(0.6) and np.isnan(mat.loc["A", "A"])


def _brute_h2h(df: pd.DataFrame) -> dict:
    out: dict = {}
    for _, r in df.iterrows():
        if r["forfeit"] >= 0:  # a forfeited game is left out, as from the paired comparisons
            continue
        n = int(r["n_players"])
        for i, j in itertools.permutations(range(n), 2):
            a, b = r[f"seat_{i}"], r[f"seat_{j}"]
            if a == b:
                continue
            ci, cj = r[f"cards_left_{i}"], r[f"cards_left_{j}"]
            if r["winner_seat"] == i:
                ci = -1
            if r["winner_seat"] == j:
                cj = -1
            rec = out.setdefault((a, b), [0, 0, 0])
            rec[0] += 1
            rec[1] += ci < cj
            rec[2] += ci == cj
    return out


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([(3,), (4,), (3, 5), (6,)]))
def test_head_to_head_symmetry_and_brute_force(seed, players):
    df = synthetic_games({"p": 0.5, "q": 0.0, "r": -0.3, "s": 0.2}, players=players, deals=2,
                         seed=seed, forfeit_p=0.1, unfinished_p=0.1)  # fmt: skip
    h = reports.head_to_head(df).set_index(["strategy", "opponent"])
    brute = _brute_h2h(df)
    for (a, b), row in h.iterrows():
        back = h.loc[(b, a)]
        assert row["ahead"] + back["ahead"] + row["ties"] == row["shared"]
        assert row["ties"] == back["ties"] and row["shared"] == back["shared"]
        assert [row["shared"], row["ahead"], row["ties"]] == brute[(a, b)]
    assert len(h) == len(brute)


def test_seats_exact():
    s = reports.seats(HAND)
    assert s["n_players"].tolist() == [3, 3, 3]
    assert s["position"].tolist() == [0, 1, 2]
    assert s["games"].tolist() == [5, 5, 5]
    assert s["wins"].tolist() == [4, 0, 0]
    assert s["fair"].tolist() == pytest.approx([1 / 3] * 3)
    # cards by position: first player's seat in each game: 0, 2(B,seat1=C? first=1 -> seat 1)
    # positions -> seats: g0 f0 (0,1,2); g1 f1 (1,2,0); g2 f2 (2,0,1); g3 f0; g4 f0
    pos0 = np.mean([0, 0, 0, 0, 1])
    assert s["mean_cards_left"].iloc[0] == pytest.approx(pos0)


def test_lengths_exact():
    lens = reports.lengths(HAND)
    t = lens[(lens["by"] == "all") & (lens["measure"] == "turns")].iloc[0]
    vals = np.array([10, 20, 30, 40, 1000])
    assert t["games"] == 5 and t["mean"] == pytest.approx(220.0)
    assert t["median"] == 30 and t["min"] == 10 and t["max"] == 1000
    assert t["p10"] == pytest.approx(np.percentile(vals, 10))
    assert t["p90"] == pytest.approx(np.percentile(vals, 90))
    assert t["std"] == pytest.approx(vals.std(ddof=1))
    r = lens[(lens["by"] == "all") & (lens["measure"] == "rounds")].iloc[0]
    assert r["mean"] == pytest.approx(20.8) and r["median"] == 4
    by_strat = lens[(lens["by"] == "strategy") & (lens["measure"] == "turns")]
    assert set(by_strat["group"]) == {"A", "B", "C"}
    assert (by_strat["games"] == 5).all()


@settings(max_examples=25)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=60))
def test_hist_quantiles_match_numpy(values):
    counts = np.bincount(values)
    qs = [0.0, 0.1, 0.25, 0.5, 0.9, 0.99, 1.0]
    assert hist_quantiles(counts, qs)[0] == pytest.approx(
        np.percentile(values, np.multiply(qs, 100))
    )


def test_holm():
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])


STRONG = {"best": 1.2, "good": 0.6, "mid": 0.0, "weak": -0.6, "worst": -1.2}


def test_rating_orders_strategies():
    df = synthetic_games(STRONG, players=(3, 4, 5), deals=20, seed=3)
    r = reports.rating(df)
    assert r["strategy"].tolist() == list(STRONG)
    assert (r["ci_low"] < r["rating"]).all() and (r["rating"] < r["ci_high"]).all()
    assert r["rating"].sum() == pytest.approx(0.0, abs=1e-9)
    assert r["worth"].sum() == pytest.approx(1.0)
    # Hessian intervals narrow like 1/sqrt(games): four times the deals, half the width.
    r4 = reports.rating(synthetic_games(STRONG, players=(3, 4, 5), deals=80, seed=3))
    ratio = (r["ci_high"] - r["ci_low"]) / (r4["ci_high"] - r4["ci_low"]).to_numpy()
    assert ((ratio > 1.6) & (ratio < 2.5)).all(), ratio.tolist()


def test_plackett_luce_matches_choix_without_ties():
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(5)
    worth = np.array([2.0, 1.0, 0.5, 0.25, 1.5])
    labels = list("abcde")
    rows, rankings = [], []
    for _ in range(300):
        table = rng.choice(5, 4, replace=False)
        order = []
        left = list(table)
        while left:  # sample a Plackett-Luce ranking
            p = worth[left] / worth[left].sum()
            order.append(left.pop(rng.choice(len(left), p=p)))
        rankings.append(order)
        cards = [order.index(x) for x in table]
        rows.append(([labels[x] for x in table], cards, cards.index(0), 0, 50, 5, False))
    g = reports.as_games(frame(rows))
    chosen, comp, w = choice_patterns(g)
    theta, _ = fit_plackett_luce(chosen, comp, w, ridge=1e-9)
    ref = choix.opt_rankings(5, [[g.labels.index(labels[x]) for x in o] for o in rankings],
                             alpha=1e-9)  # fmt: skip
    assert theta == pytest.approx(ref - ref.mean(), abs=2e-3)


def test_significance_paired_detects_real_difference_not_null():
    real = synthetic_games({"a": 0.35, "b": 0.0, "c": -0.2}, players=(3,), deals=400,
                           seed=11, luck=2.0)  # fmt: skip
    sig = reports.significance(real).set_index(["a", "b"])
    assert (sig["method"] == PAIRED).all()
    assert sig.loc[("a", "b"), "significant"] and sig.loc[("a", "b"), "better"] == "a"
    assert sig.loc[("a", "b"), "units"] == 400
    null = synthetic_games({"a": 0.0, "b": 0.0, "c": -0.2}, players=(3,), deals=400,
                           seed=12, luck=2.0)  # fmt: skip
    nsig = reports.significance(null)
    row = nsig[(nsig[["a", "b"]].apply(set, axis=1) == {"a", "b"})].iloc[0]
    assert not row["significant"] and row["p_value"] > 0.05


def test_significance_falls_back_to_unpaired_without_deal():
    df = synthetic_games({"a": 0.8, "b": 0.0}, players=(3,), deals=200, seed=2)
    sig = reports.significance(df.drop(columns="deal"))
    assert (sig["method"] == UNPAIRED).all()
    assert sig.iloc[0]["units"] == (df["forfeit"] < 0).sum() < len(df)  # forfeits left out


def _expert_frames():
    games = frame(
        [
            (("A", "B", "C"), (0, 5, 8), 0, 0, 50, 5, False),
            (("A", "B", "C"), (7, 0, 13), 1, 1, 50, 5, False),
            (("B", "C", "A"), (0, 9, 9), 0, 2, 50, 5, False),
            (("B", "C", "A"), (9, 0, 12), 1, 0, 50, 5, False),
        ],
        extra={"match": [0, 0, 1, 1]},
    )
    for s in range(6):
        games[f"score_{s}"] = games[f"cards_left_{s}"]
    matches = pd.DataFrame(
        {
            "match": [0, 1],
            "games": [2, 2],
            "total_0": [7, 9],
            "total_1": [5, 9],
            "total_2": [21, 21],
        }  # fmt: skip
    )
    return games, matches


@pytest.mark.parametrize("with_matches", [True, False])
def test_expert_exact(with_matches):
    games, matches = _expert_frames()
    e = reports.expert(games, matches=matches if with_matches else None).set_index("strategy")
    assert e.loc["B", "match_wins"] == 2 and e.loc["B", "shared_wins"] == 1
    assert e.loc["C", "match_wins"] == 1 and e.loc["C", "shared_wins"] == 1
    assert e.loc["A", "match_wins"] == 0
    assert (e["matches"] == 2).all()
    assert e["points_per_game"].to_dict() == pytest.approx({"A": 7.0, "B": 3.5, "C": 7.5})
    assert e["mean_final_total"].to_dict() == pytest.approx({"A": 14.0, "B": 7.0, "C": 15.0})
    assert (e["mean_match_games"] == 2).all()
    assert e.index[0] == "B"
    scores = reports.expert_scores(games, matches=matches if with_matches else None)
    assert scores[scores["strategy"] == "A"]["total"].tolist() == [7, 21]
    assert scores[scores["strategy"] == "B"]["total"].tolist() == [5, 9]
    assert scores["matches"].sum() == 6
    lens = reports.expert_lengths(games)
    assert lens.iloc[0]["matches"] == 2 and lens.iloc[0]["mean"] == 2


def test_expert_synthetic_consistent():
    games, matches = synthetic_expert({"x": 1.0, "y": 0.0, "z": -1.0}, players=(3,), matches=30)
    a = reports.expert(games, matches=matches)
    b = reports.expert(games)
    pd.testing.assert_frame_equal(a, b)
    assert a["strategy"].tolist() == ["x", "y", "z"]


def test_expert_rejects_plain_run():
    with pytest.raises(reports.ReportError, match="not an expert run"):
        reports.expert(HAND)


def test_bad_frames():
    with pytest.raises(reports.ReportError, match="pinned column"):
        reports.summary(HAND.drop(columns="winner_seat"))
    with pytest.raises(reports.ReportError, match="no games"):
        reports.summary(HAND.iloc[:0])


def test_forfeit_seat_counts_and_ranks_last():
    df = frame([(("A", "B", "C"), (3, 4, 5), -1, 0, 9, 1, False)], extra={"forfeit": [0]})
    s = reports.summary(df).set_index("strategy")
    assert s["forfeits"].to_dict() == {"A": 1, "B": 0, "C": 0}
    assert reports.head_to_head(df).empty  # left out, as from the paired comparisons
    key = reports.as_games(df).ranks_key()[0]
    assert key[0] > key[1:3].max()  # the finishing order (the rating's) puts it last


def test_games_roundtrip_frame():
    g = reports.as_games(HAND)
    back = reports.as_games(g.to_frame())
    assert np.array_equal(back.seats, g.seats) and np.array_equal(back.values, g.values)
    assert back.labels == g.labels


def test_wilson_bounds_are_exact_at_zero_and_all_wins():
    from reports.stats import wilson

    lo, hi = wilson([0, 10], [10, 10])
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert (lo <= [0.0, 1.0]).all() and (hi >= [0.0, 1.0]).all()


def test_neighbours_exact():
    t = reports.neighbours(HAND)
    got = {(r.strategy, r.before): (r.games, r.wins) for r in t.itertuples()}
    # clockwise: the seat before seat s is s - 1 (seat 0: the last seat)
    assert got == {("A", "C"): (5, 2), ("B", "A"): (5, 1), ("C", "B"): (5, 1)}
    assert t["vs_overall"].tolist() == pytest.approx([0.0, 0.0, 0.0])
    assert t["ci_low"].isna().all()  # five games: too few for an interval
    m = reports.neighbour_matrix(t, "wins")
    assert m.loc["A", "C"] == 2 and np.isnan(m.loc["A", "B"])
    t = reports.neighbours(_twice(HAND))
    lo, hi = _wilson_t(np.array([1, 0, 0, 1, 0] * 2, float))  # A after C: every game, as A's
    assert t["ci_low"].iloc[0] == pytest.approx(lo) and t["ci_high"].iloc[0] == pytest.approx(hi)


def _pair_games(df: pd.DataFrame, after: bool) -> dict:
    """(strategy, other) -> the games, by row, of each seat of the strategy with the other
    directly before it (``after``), else with it at the table but no copy directly before."""
    out: dict = {}
    for i, row in enumerate(df.itertuples(index=False)):
        n = row.n_players
        for s in range(n):
            me, prev = getattr(row, f"seat_{s}"), getattr(row, f"seat_{(s - 1) % n}")
            others = (
                {prev}
                if after
                else ({getattr(row, f"seat_{(s - b) % n}") for b in range(2, n)} - {prev})
            )
            for other in others:
                out.setdefault((me, other), []).append(i)
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_neighbours_match_a_brute_force_count(seed):
    df = synthetic_games({"a": 0.5, "b": 0.0, "c": -0.5, "d": 0.2}, players=(3, 4, 5),
                         deals=3, seed=seed)  # fmt: skip
    t = reports.neighbours(df).set_index(["strategy", "before"])
    df = df[df["forfeit"] < 0]  # a forfeited game is left out: it has no winner to count
    games: dict = {}
    wins: dict = {}
    for row in df.itertuples(index=False):
        n = row.n_players
        for s in range(n):
            key = (getattr(row, f"seat_{s}"), getattr(row, f"seat_{(s - 1) % n}"))
            games[key] = games.get(key, 0) + 1
            wins[key] = wins.get(key, 0) + int(row.winner_seat == s)
    assert {k: int(v) for k, v in t["seats"].items()} == games  # a seat each
    once = {k: len(set(g)) for k, g in _pair_games(df, after=True).items()}
    assert {k: int(v) for k, v in t["games"].items()} == once  # a game once
    assert {k: int(v) for k, v in t["wins"].items()} == wins
    # elsewhere: a seat's game with the other at the table but no copy of it directly before,
    # counted once however many seats the other holds; after: a copy directly before. The
    # difference is taken within each duplicate set (a deal of a table) holding both kinds,
    # then averaged with each set weighing as its games after (sets of mixed table sizes count
    # unequal games)
    by_set: dict = {}  # (strategy, other, deal) -> [games after, wins after, else, wins else]
    for row in df.itertuples(index=False):
        n = row.n_players
        for s in range(n):
            me, prev = getattr(row, f"seat_{s}"), getattr(row, f"seat_{(s - 1) % n}")
            won = int(row.winner_seat == s)
            c = by_set.setdefault((me, prev, row.deal), [0, 0, 0, 0])
            c[0] += 1
            c[1] += won
            for other in {getattr(row, f"seat_{(s - b) % n}") for b in range(2, n)} - {prev}:
                c = by_set.setdefault((me, other, row.deal), [0, 0, 0, 0])
                c[2] += 1
                c[3] += won
    elsewhere = _pair_games(df, after=False)
    for (me, other), r in t.iterrows():
        cells = [c for (a, b, _), c in by_set.items() if (a, b) == (me, other)]
        assert r["elsewhere_games"] == len(set(elsewhere.get((me, other), [])))
        both = [c for c in cells if c[0] and c[2]]
        if not both:
            assert np.isnan(r["vs_elsewhere"])
            continue
        diff = [c[1] / c[0] - c[3] / c[2] for c in both]  # each set weighs as its games after
        assert r["vs_elsewhere"] == pytest.approx(np.average(diff, weights=[c[0] for c in both]))
        assert r["vs_elsewhere_sets"] == len(both)
        if np.isfinite(r["vs_elsewhere_low"]):
            assert r["vs_elsewhere_low"] <= r["vs_elsewhere"] <= r["vs_elsewhere_high"]


def test_neighbours_separate_sitting_after_from_sharing_a_table():
    # No seat effect at all in these games, but a very weak "w": whoever shares a table with
    # it wins more, so its successor's vs_overall is high; vs_elsewhere finds no effect, also
    # when the pairs' games mix player counts differently.
    strengths = {"a": 0.0, "b": 0.0, "c": 0.0, "d": 0.0, "w": -3.0}
    df = synthetic_games(strengths, players=(3, 4, 5), deals=40, seed=11, seating="balanced")
    t = reports.neighbours(df).set_index(["strategy", "before"])
    after_w = t.xs("w", level="before").dropna(subset=["vs_elsewhere"])
    assert len(after_w) >= 2
    assert (after_w["vs_overall"] > 0.02).all()
    assert (after_w["vs_elsewhere_low"] < 0).all() and (after_w["vs_elsewhere_high"] > 0).all()
    assert (after_w["vs_elsewhere"].abs() < 0.05).all()


def test_design_effect_counts_correlated_games_of_a_deal():
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(60):
        order = tuple(rng.permutation(["A", "B", "C"]))
        winner = int(rng.integers(3))
        cards = tuple(0 if s == winner else int(rng.integers(1, 6)) for s in range(3))
        rows.append((order, cards, winner, 0, 10, 2, False))
    single = frame(rows, {"deal": np.arange(60)})
    copies = frame([r for r in rows for _ in range(4)], {"deal": np.repeat(np.arange(60), 4)})
    s1 = reports.summary(single).set_index("strategy")
    s4 = reports.summary(copies).set_index("strategy")
    # four identical copies of each deal carry the information of one: the effect is ~4
    assert s1["design_effect"].tolist() == pytest.approx([60 / 59] * 3)
    assert s4["design_effect"].tolist() == pytest.approx([4 * 60 / 59] * 3)
    assert s4["ci_low"].tolist() == pytest.approx(s1["ci_low"].tolist())
    assert s4["win_rate"].tolist() == pytest.approx(s1["win_rate"].tolist())
    assert s4["deal_sets"].tolist() == [60] * 3 and s4["df"].tolist() == pytest.approx([59] * 3)
    no_deal = reports.summary(single.drop(columns="deal"))  # each game its own unit
    assert no_deal["design_effect"].tolist() == pytest.approx([60 / 59] * 3)
