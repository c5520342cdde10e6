"""Audit of ``leaves compare`` as a demanding user: every sentence and figure checked against a
direct computation on the two runs' saved rows. Forfeited games leave the comparison as they
leave the report's paired comparisons; a strategy with no valid game in a run is not compared,
and the output says so; runs of other seeds, strategies, game counts, an unfinished run, a
folder without a manifest, bad ``--pair`` and one folder twice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import reports
from reports import ReportError
from tests.helpers import cli, one_error_line
from tournaments import Tournament

ALWAYS = """
from strategies import Strategy


class Bad(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("always")
"""

WHY = "every game it sat in there ended by a forfeit, so its win rate measures nothing"

BOOM = """
from strategies import Strategy


class Boom(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        if view.turn >= 14 and len(legal) > 2:
            raise RuntimeError("boom")
        return legal[0]
"""

FIXED = ALWAYS.replace('raise RuntimeError("always")', "return legal[0]")


def _spec(folder: Path, text: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bad.py").write_text(text)
    return f"{folder / 'bad.py'}:{text.split('class ')[1].split('(')[0]}"


def play(out: Path, entrants: list[str], games: int = 240, seed: int = 1,
         players: int = 3) -> Path:  # fmt: skip
    Tournament(entrants, players=players, games=games, seed=seed).run(out=out)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("cmp4")
    bad, fixed = _spec(d / "v1", ALWAYS), _spec(d / "v2", FIXED)
    play(d / "forfeits", [bad, "low", "high", "greedy"])  # Bad forfeits every game it sits in
    play(d / "fixed", [fixed, "low", "high", "greedy"])  # the same deals, Bad fixed
    play(d / "fixed_seed2", [fixed, "low", "high", "greedy"], seed=2)  # other deals
    boom, unboomed = (
        _spec(d / "b1", BOOM),
        _spec(d / "b2", BOOM.replace('raise RuntimeError("boom")', "return legal[-1]")),
    )
    play(d / "boom", [boom, "low", "high", "greedy"])  # forfeits in some games of its sets
    play(d / "unboomed", [unboomed, "low", "high", "greedy:keep_pairs=True"])
    play(d / "bad_only", [bad, "low", "high", "random"], games=48)
    play(d / "fixed_only", [fixed, "greedy", "counter", "taker"], games=48)
    return d


def rows(run: Path | pd.DataFrame) -> pd.DataFrame:
    """The run's games as written, read independently of the code tested."""
    if isinstance(run, pd.DataFrame):
        return run
    return pd.concat([pd.read_parquet(f) for f in sorted((run / "games").rglob("*.parquet"))],
                     ignore_index=True)  # fmt: skip


def seats(run: Path, rename: dict[str, str] | None = None) -> pd.DataFrame:
    """One row a seat: its duplicate set (deal seed and who sat at the table, labels renamed
    by ``rename``), the strategy, whether it won, whether its game ended by a forfeit."""
    g, rename = rows(run), rename or {}
    cols = [c for c in g.columns if c.startswith("seat_")]
    names = g[cols].map(lambda x: rename.get(x, x) if isinstance(x, str) else x)
    table = names.apply(lambda r: "|".join(sorted(x for x in r if isinstance(x, str))), axis=1)
    out = [pd.DataFrame({"deal_seed": g["deal_seed"], "table": table, "strategy": names[c],
                         "won": g["winner_seat"] == i, "forfeit": g["forfeit"]})[g[c].notna()]
           for i, c in enumerate(cols)]  # fmt: skip
    return pd.concat(out, ignore_index=True)


def paired_truth(a: Path | pd.DataFrame, b: Path | pd.DataFrame,
                 rename: dict[str, str] | None = None, pooled: bool = False) -> pd.DataFrame:  # fmt: skip
    """Per strategy, over the duplicate sets (deal seed, table) both runs played with no game
    forfeited: its win rate in each run, and B's rate less A's with its stratified error
    (strata: the tables, or one if ``pooled``; t on the sets less the strata)."""
    sa, sb = seats(a), seats(b, rename)
    keys = ["deal_seed", "table"]
    clean = pd.concat([x.groupby(keys)["forfeit"].any() for x in (sa, sb)], axis=1, join="inner")
    shared = clean[~clean.any(axis=1)].index.to_frame(index=False)
    rows_ = {}
    for s in sorted(set(sa["strategy"]) & set(sb["strategy"])):
        per = [x[x["strategy"] == s].merge(shared).groupby(keys)["won"].agg(["sum", "size"])
               for x in (sa, sb)]  # fmt: skip
        m = per[0].merge(per[1], on=keys, suffixes=("_a", "_b")).reset_index()
        if m.empty:  # in no set paired
            rows_[s] = {"sets": 0}
            continue
        ra, rb = m["sum_a"].sum() / m["size_a"].sum(), m["sum_b"].sum() / m["size_b"].sum()
        m["u"] = ((m["sum_b"] - rb * m["size_b"]) / m["size_b"].sum()
                  - (m["sum_a"] - ra * m["size_a"]) / m["size_a"].sum())  # fmt: skip
        by = m.groupby("table" if not pooled else np.zeros(len(m)))["u"]
        var = by.count() / (by.count() - 1) * by.apply(lambda u: ((u - u.mean()) ** 2).sum())
        df = len(m) - by.ngroups
        half = stats.t.ppf(0.975, df) * np.sqrt(var.sum())
        rows_[s] = {"win_rate_a": ra, "win_rate_b": rb,  # over the sets paired, as B - A
                    "diff": rb - ra, "half": half, "sets": len(m)}  # fmt: skip
    return pd.DataFrame(rows_).T


# ------------------------------------------------------------- 1. forfeits leave the comparison
def test_forfeited_games_leave_the_comparison_and_a_strategy_without_a_valid_game_is_named(runs):
    """Forfeited games leave the comparison; where B - A is the same in every set paired (the
    table without Bad plays alike in both runs) no interval is stated (a zero-width one
    claimed certainty) and p is the exact sign test's over the sets."""
    a, b = runs / "forfeits", runs / "fixed"
    c = reports.compare(a, b)
    ra = rows(a)
    forfeited, games = int(ra["forfeit"].sum()), len(ra)
    assert (forfeited, games) == (180, 240) and not rows(b)["forfeit"].any()
    t = c.table.set_index("strategy")
    assert "Bad" not in t.index  # its 0% in A measures nothing
    truth = paired_truth(a, b)
    assert sorted(t.index) == ["greedy", "high", "low"]
    for s, r in t.iterrows():
        assert r["win_rate_a"] == pytest.approx(truth.loc[s, "win_rate_a"], abs=1e-12)
        assert r["win_rate_b"] == pytest.approx(truth.loc[s, "win_rate_b"], abs=1e-12)
        assert r["diff"] == pytest.approx(truth.loc[s, "diff"], abs=1e-12)
        assert r["units"] == truth.loc[s, "sets"] == 10  # the one table without Bad, 10 deals
        if abs(truth.loc[s, "half"]) < 1e-12:  # every set the same B - A: no spread
            assert r["no_spread"] and np.isnan(r["ci_low"]) and np.isnan(r["ci_high"])
            signs = 0 if r["diff"] == 0 else 10  # the sets that differ, all one way
            assert r["p_value"] == pytest.approx(min(1.0, 2 * 0.5**signs))
        else:
            assert r["ci_high"] - r["diff"] == pytest.approx(truth.loc[s, "half"], abs=1e-12)
    deals_a, deals_b = ra["deal_seed"].nunique(), rows(b)["deal_seed"].nunique()
    void = ra.groupby("deal_seed")["forfeit"].any().sum()  # one table a deal seed
    assert (deals_a, deals_b, void) == (40, 40, 30)
    assert c.paired and c.pairing == (
        f"paired where the deal seeds agree: A dealt {deals_a} deals, B {deals_b}, {deals_a} of "
        f"them with the same seed; B - A is paired over the 10 duplicate sets both played at "
        f"the same table (A has {deals_a}, B {deals_b}); {void} more, each holding a game ended "
        "by a forfeit, are left out")  # fmt: skip
    assert (f"games ended by a forfeit are left out, as in the report's paired comparisons: A "
            f"{forfeited:,} of {games:,} games, B 0 of 240") in c.findings  # fmt: skip
    assert f"not compared, with no valid game ({WHY}: Bad in A)" in c.findings
    assert not any(f.startswith("Bad ") or "Bad wins" in f for f in c.findings)


def test_a_set_with_a_forfeited_game_in_either_run_is_not_paired(runs):
    """Boom forfeits some games of its sets: the rest of such a set are some of its seatings
    only, so the set leaves the paired comparison; B - A is over the sets both runs played
    whole, as computed from the rows (before: the partial sets counted, and a lone one gave
    'high wins 2.4 points more in B [+2.4, +2.4]', significant, with no spread)."""
    a, b = runs / "boom", runs / "unboomed"
    c = reports.compare(a, b)
    truth = paired_truth(a, b, {"greedy(keep_pairs=True)": "greedy"})
    t = c.table.set_index("strategy_a")
    assert truth.loc["Boom", "sets"] == 0 and 0 < rows(a)["forfeit"].mean() < 1
    assert "Boom" not in t.index
    assert "not compared, having sat in none of the duplicate sets compared: Boom" in c.findings
    assert sorted(t.index) == ["greedy", "high", "low"] and t["diff"].abs().max() > 0
    for s, r in t.iterrows():
        assert r["win_rate_a"] == pytest.approx(truth.loc[s, "win_rate_a"], abs=1e-12)
        assert r["win_rate_b"] == pytest.approx(truth.loc[s, "win_rate_b"], abs=1e-12)
        assert r["diff"] == pytest.approx(truth.loc[s, "diff"], abs=1e-12)
        assert r["ci_high"] - r["diff"] == pytest.approx(truth.loc[s, "half"], abs=1e-12)
        assert r["units"] == truth.loc[s, "sets"]


def test_a_set_alone_in_its_table_does_not_make_a_difference_without_spread(runs):
    """B forfeited every deal of one table but one, where low won one game more: every other
    set is the same in both runs. The lone set added nothing to the variance: 'low wins 0.8
    points more in B [+0.8, +0.8]', significant on one deal. Its pair's sets now form one
    stratum, whose variance counts it."""
    a = rows(runs / "fixed")
    b = a.copy()
    low = (a.filter(like="seat_") == "low").any(axis=1)
    table = a.loc[low, "table"].iloc[0]
    at = b["table"] == table
    lone = at & (b["deal"] == b.loc[at, "deal"].min())
    b.loc[at & ~lone, ["forfeit", "winner_seat", "forfeit_seat"]] = [True, -1, 0]
    won = lone & low & (b["winner_seat"] >= 0)
    i = b.index[
        won
        & (b.filter(like="seat_").to_numpy() != "low")[
            np.arange(len(b)), b["winner_seat"].clip(lower=0)
        ]
    ][0]  # low lost this game in A
    b.loc[i, "winner_seat"] = int(np.flatnonzero(b.loc[i].filter(like="seat_") == "low")[0])
    c = reports.compare(a, b)
    t = c.table.set_index("strategy")
    truth = paired_truth(a, b, pooled=True)
    assert (
        t.loc["low", "diff"] == pytest.approx(truth.loc["low", "diff"]) and t.loc["low", "diff"] > 0
    )
    assert t.loc["low", "ci_high"] - t.loc["low", "diff"] == pytest.approx(truth.loc["low", "half"])
    assert not t["significant"].any() and c.findings[0].startswith("no strategy changed")


def unpaired_truth(run: Path, table: str) -> pd.DataFrame:
    """Per strategy, over the games at ``table`` not ended by a forfeit: its win rate, and the
    variance of that rate over the run's deals (one stratum: a table)."""
    s = seats(run)
    s = s[(s["table"] == table) & ~s["forfeit"]]
    out = {}
    for name, d in s.groupby("strategy"):
        per = d.groupby("deal_seed")["won"].agg(["sum", "size"])
        rate, n = per["sum"].sum() / per["size"].sum(), per["size"].sum()
        z = (per["sum"] - rate * per["size"]) / n
        out[name] = {"rate": rate, "var": len(z) / (len(z) - 1) * ((z - z.mean()) ** 2).sum(),
                     "df": len(z) - 1}  # fmt: skip
    return pd.DataFrame(out).T


def test_unpaired_rates_leave_out_the_tables_a_run_forfeited_whole(runs):
    """Other seeds: no pairing. A's Bad forfeited every game at its three tables, so A's valid
    games are all at the fourth; B's rates at all four compared with them said 'high wins
    11.1 points more in B' of tables, not of a change. Both runs' rates leave those tables out."""
    a, b = runs / "forfeits", runs / "fixed_seed2"
    c = reports.compare(a, b)
    assert not c.paired
    ta, tb = unpaired_truth(a, "greedy|high|low"), unpaired_truth(b, "greedy|high|low")
    t = c.table.set_index("strategy")
    assert sorted(t.index) == ["greedy", "high", "low"]
    for s, r in t.iterrows():
        va, vb = ta.loc[s, "var"], tb.loc[s, "var"]
        df = (va + vb) ** 2 / (va**2 / ta.loc[s, "df"] + vb**2 / tb.loc[s, "df"])
        assert r["win_rate_a"] == pytest.approx(ta.loc[s, "rate"], abs=1e-12)
        assert r["win_rate_b"] == pytest.approx(tb.loc[s, "rate"], abs=1e-12)
        assert r["diff"] == pytest.approx(tb.loc[s, "rate"] - ta.loc[s, "rate"], abs=1e-12)
        half = stats.t.ppf(0.975, df) * np.sqrt(va + vb)
        assert r["ci_high"] - r["diff"] == pytest.approx(half, abs=1e-9)
    assert ("games ended by a forfeit are left out, as in the report's paired comparisons: A 180 "
            "of 240 games, B 0 of 240; so are, from both runs' win rates, the tables one run "
            "forfeited every game at: (Bad, greedy, high), (Bad, greedy, low), (Bad, high, low)"
            ) in c.findings  # fmt: skip


def test_the_command_says_what_was_left_out_and_shows_no_row_for_it(runs, capsys, tmp_path):
    code, out, err = cli(capsys, "compare", str(runs / "forfeits"), str(runs / "fixed"),
                         "--out", str(tmp_path / "o"))  # fmt: skip
    assert code == 0, err
    assert "Bad in A" in out and "A 180 of 240 games, B 0 of 240" in out
    assert not any(line.startswith("│ Bad ") for line in out.splitlines())
    assert "Bad" not in pd.read_csv(tmp_path / "o" / "compare.csv")["strategy"].tolist()


def test_nothing_left_to_compare_is_exit_1_in_one_line(runs, capsys):
    """The one strategy both runs have forfeited every game it sat in in A: as ``leaves report``
    with nothing valid, exit 1 and a sentence."""
    a, b = runs / "bad_only", runs / "fixed_only"
    with pytest.raises(ReportError) as exc:
        reports.compare(a, b)
    message = (f"nothing to compare between {a} and {b}: no strategy both runs have has a valid "
               f"game in both runs ({WHY}: Bad in A)")  # fmt: skip
    assert str(exc.value) == message
    code, out, err = cli(capsys, "compare", str(a), str(b))
    assert code == 1 and one_error_line(err) == f"leaves: error: {message}"


# ------------------------------------------------------------------ 2. the audit's other cases
def test_single_games_against_matches_are_unpaired_in_words_that_count_each(tmp_path):
    """A match run's duplicate sets are its matches (named by the match seed), a single-game
    run's its deals: no seed pairs them. The line said 'the runs share no deal seed (A dealt 4
    deals, B 4)', B's 4 being matches (which dealt more deals than that)."""
    single = play(tmp_path / "single", ["low", "high", "greedy"], games=24)
    matches = tmp_path / "matches"
    Tournament(["low", "high", "greedy"], players=3, games=24, seed=1, expert=True).run(out=matches)
    m = rows(matches)
    assert m["match_seed"].nunique() < m["deal_seed"].nunique()
    c = reports.compare(single, matches)
    assert not c.paired and c.pairing == (
        "unpaired: A's duplicate sets are deals, B's matches: the two runs' variances add"
    )
    assert "the runs play differently: A single games; B expert matches to 20" in c.findings


def test_rows_without_a_manifest_are_refused_as_the_report_refuses_them(runs, capsys, tmp_path):
    """Rows under games/ with no manifest.json vouch for nothing: `leaves report` refuses them
    (exit 2); compare compared them and said 'the runs were played under different rules: A
    today's rules; B not recorded'."""
    import shutil

    bare = tmp_path / "bare"
    shutil.copytree(runs / "fixed", bare)
    (bare / "manifest.json").unlink()
    message = (f"leaves: error: {bare} holds a run's files but not its manifest.json (missing): "
               "nothing vouches for them; the run cannot be resumed or grown without it: "
               "restore it, or play the run again into a new --out (the same options and seed "
               "give the same results)")  # fmt: skip
    for args in (["report", str(bare)], ["compare", str(runs / "fixed"), str(bare)]):
        code, out, err = cli(capsys, *args)
        assert (code, one_error_line(err)) == (2, message) and not out


def test_rules_one_side_does_not_record_are_not_called_different(runs):
    """Rows given as a frame carry no settings: unknown is not 'different'."""
    c = reports.compare(runs / "fixed", rows(runs / "fixed"))
    assert "run B does not record its rules (A today's rules): they may differ" in c.findings
    assert not any("played under different rules" in f for f in c.findings)


def test_a_run_killed_before_any_game_is_said_to_hold_none_not_to_be_forfeited(tmp_path, capsys):
    """No game recorded is not 'every one ended by a forfeit', as the old refusal said."""
    from tests.test_audit3_state import _as_killed

    run = tmp_path / "killed"
    Tournament(["low", "high", "greedy"], players=3, games=48, seed=1, chunk_size=12).run(out=run)
    assert _as_killed(run, keep=0) == 0
    code, out, err = cli(capsys, "compare", str(run), str(run))
    assert code == 1 and "Unfinished run: 0 of 48 games played" in out
    assert one_error_line(err) == (
        f"leaves: error: no games in {run} (expected Parquet parts under {run / 'games'})"
    )


def test_a_strategy_both_runs_have_is_not_said_to_be_only_in_one(runs):
    """--pair low=high leaves A's high and B's low without a partner: they are in both runs,
    where the line said 'only in A high; only in B low'."""
    a = runs / "fixed"
    c = reports.compare(a, a, pairs=[("low", "high")])
    labels = set(rows(a).filter(like="seat_").stack())
    assert {"low", "high"} <= labels
    assert not any(f.startswith("not compared: only in") for f in c.findings)
    assert c.findings[-1] == ("not compared, as their namesakes in the other run were paired "
                              "with another strategy: high of A, low of B")  # fmt: skip
    assert sorted(c.table["strategy"]) == ["Bad", "greedy", "low -> high"]


def test_a_strategy_an_unfinished_run_never_seated_is_named_for_that(tmp_path, capsys):
    """The games a killed run recorded may not reach every table: a strategy that sat in none
    of them was a row of NaN ('+nan'), now a line saying why."""
    from tests.test_audit3_state import _as_killed

    whole, killed = tmp_path / "whole", tmp_path / "killed"
    for run in (whole, killed):
        Tournament(["low", "high", "greedy", "counter"], players=3, games=96, seed=1,
                   chunk_size=24).run(out=run)  # fmt: skip
    _as_killed(killed, keep=1)
    g = reports.load_run(killed).games  # the recorded chunks only
    seated = {g.labels[i] for i in np.unique(g.seats[g.seats >= 0])}
    absent = sorted({"low", "high", "greedy", "counter"} - seated)
    assert absent  # the first chunk is one table's
    c = reports.compare(killed, whole)
    assert sorted(c.table["strategy"]) == sorted(seated)
    assert (
        f"not compared, with no valid game (it played none there, as an unfinished run may "
        f"not reach every table: {', '.join(f'{x} in A' for x in absent)})"
    ) in c.findings
    code, out, err = cli(capsys, "compare", str(killed), str(whole))
    assert code == 0 and "nan" not in out.lower(), err


def test_the_tables_rate_cells_hold_each_rates_interval(tmp_path, capsys):
    """A rate's cell said '17.8+-5.6', half the width of an interval not centred on the rate
    (Wilson's): it read as [12.2, 23.4] where the interval is [12.9, 24.0]. The cell now
    gives the interval in whole points rounded outward, which holds it."""
    import re

    runs = []
    for name, seed in (("a", "1"), ("b", "2")):
        out = tmp_path / name
        code, _, err = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                           "--games", "120", "--seed", seed, "--jobs", "1", "--out", str(out))  # fmt: skip
        assert code == 0, err
        runs.append(str(out))
    code, out, err = cli(capsys, "compare", *runs, "--out", str(tmp_path / "c"))
    assert code == 0, err
    table = pd.read_csv(tmp_path / "c" / "compare.csv").set_index("strategy")
    seen = 0
    for name, rate, lo, hi in re.findall(r"│ (\w+)\s+│\s+([\d.]+) \[(\d+)-(\d+)\]", out):
        row = table.loc[name]
        assert float(rate) == pytest.approx(100 * row["win_rate_a"], abs=0.05)
        assert int(lo) <= 100 * row["ci_low_a"] and 100 * row["ci_high_a"] <= int(hi)
        seen += 1
    assert seen == 3, out
