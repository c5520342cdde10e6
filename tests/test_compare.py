"""``reports.compare``: B - A per strategy, paired where the deal seeds say the runs dealt the
same deals, a changed parameter's strategy matched with its old self, incomparable runs
refused. Every sentence is checked against counts taken from the runs' own Parquet rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from leaves.plugin import LeavesGame
from reports.compare import NotComparable
from tests.toygame import ToyGame
from tournaments import Tournament
from tournaments.gauntlet import gauntlet

FOUR = ["greedy", "low", "high", "counter"]


def play(out: Path, entrants: list[str], games: int = 600, seed: int = 1, players: int = 3,
         **kw) -> Path:  # fmt: skip
    Tournament(entrants, players=players, games=games, seed=seed, **kw).run(out=out)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("cmp")
    play(d / "a", FOUR)
    play(d / "a_more", FOUR, games=1200)  # the same deals and more
    play(d / "b", ["greedy", "low", "high", "counter:threat_weight=0.5"])  # a changed parameter
    play(d / "c", FOUR, seed=2)  # other deals
    play(d / "weak", ["greedy", "low", "high", "random"])  # other's taker replaced
    play(d / "other", ["greedy", "low", "high", "taker"])  # the same seeds at other tables
    play(d / "rules", FOUR, game=LeavesGame(rules="hand_size=9"))
    return d


def rows(run: Path) -> pd.DataFrame:
    """The run's games as written, to count its deals independently of the code tested."""
    return pd.concat([pd.read_parquet(f) for f in sorted((run / "games").rglob("*.parquet"))])


def deals(run: Path) -> int:
    return rows(run)["deal_seed"].nunique()


def test_a_run_compared_with_itself_is_paired_and_differs_by_nothing(runs):
    """B - A is 0 in every duplicate set: no spread, which is no evidence that the difference
    cannot vary, so no interval is stated (a zero-width [0, 0] claimed certainty); no set
    differs, so the sign test's p is 1."""
    c = reports.compare(runs / "a", runs / "a")
    n = deals(runs / "a")
    assert n == rows(runs / "a").groupby(["table", "deal"]).ngroups  # one set a deal seed
    assert c.paired and c.pairing == (
        f"paired: both runs dealt the same {n:,} deals (their deal seeds are identical) at "
        f"the same tables: B - A is paired over the {n:,} duplicate sets")  # fmt: skip
    t = c.table
    assert (t["diff"] == 0).all() and t["no_spread"].all()
    assert t["ci_low"].isna().all() and t["ci_high"].isna().all()
    assert (t["p_value"] == 1).all() and (t["p_holm"] == 1).all() and not t["significant"].any()
    assert c.findings[0].startswith("no strategy changed: each won as often in B as in A")
    assert c.findings[1] == c.pairing and len(c.findings) == 2


def test_a_changed_parameter_is_matched_with_its_old_self_and_paired(runs):
    c = reports.compare(runs / "a", runs / "b")
    assert c.only_a == [] and c.only_b == []
    assert [(m.a, m.b, m.how) for m in c.matches if m.how != "same"] == [
        ("counter", "counter(threat_weight=0.5)", "base")]  # fmt: skip
    assert ("counter in A compared with counter(threat_weight=0.5) in B (the same strategy, "
            "other parameters)") in c.findings  # fmt: skip
    assert c.paired and c.pairing.startswith(
        f"paired: both runs dealt the same {deals(runs / 'a'):,}"
    )
    t = c.table.set_index("strategy")
    assert sorted(t.index) == ["counter -> counter(threat_weight=0.5)", "greedy", "high", "low"]
    assert np.allclose(t["diff"], t["win_rate_b"] - t["win_rate_a"])  # every set in both
    sa = reports.summary(runs / "a").set_index("strategy")
    assert np.allclose(t["win_rate_a"], sa.loc[t["strategy_a"], "win_rate"])
    assert np.allclose(t["ci_low_a"], sa.loc[t["strategy_a"], "ci_low"])
    # pairing on the deals is tighter than two independent runs' intervals added
    half_a, half_b = (t["ci_high_a"] - t["ci_low_a"]) / 2, (t["ci_high_b"] - t["ci_low_b"]) / 2
    assert ((t["ci_high"] - t["ci_low"]) / 2 < 0.9 * np.hypot(half_a, half_b)).all()


def test_runs_of_other_deal_seeds_are_unpaired_and_say_so(runs):
    c = reports.compare(runs / "a", runs / "c")
    assert set(rows(runs / "a")["deal_seed"]).isdisjoint(rows(runs / "c")["deal_seed"])
    assert not c.paired and c.pairing == (
        f"unpaired: the runs share no deal seed (A dealt {deals(runs / 'a'):,} deals, "
        f"B {deals(runs / 'c'):,}): the two runs' variances add")  # fmt: skip
    t = c.table
    assert np.allclose(t["diff"], t["win_rate_b"] - t["win_rate_a"])
    assert ((t["ci_low"] < t["diff"]) & (t["diff"] < t["ci_high"])).all()


def test_the_same_seeds_at_other_tables_are_unpaired(runs):
    c = reports.compare(runs / "a", runs / "other")
    common = len(set(rows(runs / "a")["deal_seed"]) & set(rows(runs / "other")["deal_seed"]))
    assert common > 0 and not c.paired
    assert c.pairing == (
        f"unpaired: the runs share {common:,} deal seeds but dealt none of them at a table of "
        "the same strategies: the two runs' variances add")  # fmt: skip
    assert c.only_a == ["counter"] and c.only_b == ["taker"]
    assert c.findings[-1] == "not compared: only in A counter; only in B taker"


def test_more_deals_in_one_run_pair_the_deals_both_dealt(runs):
    c = reports.compare(runs / "a", runs / "a_more")
    na, nb = deals(runs / "a"), deals(runs / "a_more")
    assert nb == 2 * na
    assert c.paired and c.pairing == (
        f"paired where the deal seeds agree: A dealt {na:,} deals, B {nb:,}, {na:,} of them "
        f"with the same seed; B - A is paired over the {na:,} duplicate sets both played at "
        f"the same table (A has {na:,}, B {nb:,})")  # fmt: skip
    assert (c.table["diff"] == 0).all()  # the same games on the deals both dealt
    r = rows(runs / "a")
    for t in c.table.itertuples():  # the sets a strategy sat in, from the rows
        sat = (r.filter(like="seat_") == t.strategy).any(axis=1)
        assert t.units == r[sat].groupby(["table", "deal"]).ngroups < na


def test_pair_maps_any_two_labels_and_a_weaker_one_loses(runs):
    # random sits where taker sat (both sort after the others): the same tables when mapped
    c = reports.compare(runs / "other", runs / "weak", pairs=[("taker", "random")])
    assert "taker in A compared with random in B (--pair)" in c.findings
    assert c.paired and c.pairing.startswith("paired: both runs dealt the same")
    t = c.table.set_index("strategy")
    swapped = t.loc["taker -> random"]
    assert swapped["significant"] and swapped["ci_high"] < 0  # random wins far less
    assert (t.drop("taker -> random")["diff"] > 0).all()  # its opponents gain
    assert c.findings[0].startswith("taker -> random wins")
    with pytest.raises(NotComparable, match="run B has no strategy 'nobody'"):
        reports.compare(runs / "other", runs / "weak", pairs=[("taker", "nobody")])


def test_other_rules_are_compared_and_both_named(runs):
    c = reports.compare(runs / "a", runs / "rules")
    assert (
        "the runs were played under different rules: A today's rules; B hand_size=9" in c.findings
    )
    assert c.paired and c.pairing.startswith(
        f"paired: both runs drew their {deals(runs / 'a'):,} deals from the same deal seeds "
        "(under other rules a seed may deal other cards)")  # fmt: skip


def test_two_gauntlets_pair_their_sets_over_both_tables(tmp_path):
    a, b = tmp_path / "ga", tmp_path / "gb"
    gauntlet("counter", ["greedy", "low"], players=3, games=96, seed=1, out=a)
    gauntlet("counter:threat_weight=0.5", ["greedy", "low"], players=3, games=96, seed=1, out=b)
    c = reports.compare(a, b)
    n = deals(a)  # a gauntlet's two tables share their deals: one set a deal
    assert n == rows(a).groupby("deal").ngroups == deals(b)
    assert c.paired and c.pairing == (
        f"paired: both runs dealt the same {n:,} deals (their deal seeds are identical) at "
        f"the same tables: B - A is paired over the {n:,} duplicate sets")  # fmt: skip
    assert "counter in A compared with counter(threat_weight=0.5) in B (the same strategy, " \
           "other parameters)" in c.findings  # fmt: skip


def test_incomparable_runs_are_refused_in_one_line(runs, tmp_path):
    four = play(tmp_path / "four", FOUR, games=48, players=4)
    with pytest.raises(NotComparable) as exc:
        reports.compare(runs / "a", four)
    assert str(exc.value) == (
        f"cannot compare {runs / 'a'} and {four}: A's games were played by 3 players, B's by 4 "
        "(a win rate depends on the table size)")  # fmt: skip
    g = tmp_path / "g"
    gauntlet("counter", ["greedy", "low"], players=3, games=48, seed=1, out=g)
    with pytest.raises(NotComparable, match=r"A is a tournament, B is a gauntlet \(counter "
                                            r"against greedy, low\)"):  # fmt: skip
        reports.compare(runs / "a", g)
    toy = play(tmp_path / "toy", ["greedy", "low", "high"], games=60, game=ToyGame())
    with pytest.raises(NotComparable, match="A is a run of 13 Leaves, B of Toy$"):
        reports.compare(runs / "a", toy)
    z = play(tmp_path / "z", ["taker", "weighted", "random"], games=6)
    with pytest.raises(NotComparable, match="they share no strategy"):
        reports.compare(runs / "a", z)
