"""The designers' measures of ``leaves variants`` (``reports.designer_measures``): lead changes,
drama, wins from behind and when a game is decided on hand-made games whose values are known;
their intervals and the differences' cover a known truth on synthetic samples with correlated
duplicate sets; restricted play's cost and the skill ladder; the restricted strategies obey
their restriction; sweeps parse and play; and the command writes them all with intervals."""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from leaves.commands.variants_designer import restricted_class, sample_sets
from leaves.commands.variants_sweep import plays_as, sweep_sets
from leaves_cli import main
from leaves_cli.main import cli
from reports.clusters import seat_sums
from reports.designer_measures import (
    ladder_measures,
    ladder_table,
    restricted_measures,
    sample_design,
    trace_measures,
    trace_stats,
)
from reports.significance import paired
from reports.variants_metrics import difference, estimate, interval, stack
from reports.variants_sets import design

# ------------------------------------------------------------------ trace measures, by hand

SEESAW = np.array([[5, 5, 5],  # the deal: all level, nobody leads
                   [3, 5, 5],  # seat 0 leads
                   [3, 2, 5],  # seat 1 leads: a change
                   [3, 2, 5],
                   [1, 2, 5],  # seat 0 again: a change
                   [1, 1, 5],  # level at the top: no leader, no change
                   [1, 0, 5]])  # seat 1 goes out: a change; it won  # fmt: skip


def test_a_seesaw_game_has_three_lead_changes_and_is_decided_at_its_last_turn():
    got = trace_stats(SEESAW, winner=1)
    assert got["lead_changes"] == 3
    assert got["drama"] == pytest.approx(2 / 6)  # behind after turns 1 and 4 of 6
    assert got["comeback"] == 0  # level with the best after turn 3 is not behind
    assert got["decided_at"] == 1.0  # it led for good only once it went out


def test_a_runaway_game_is_decided_early_with_no_drama():
    runaway = np.array([[4, 4, 4], [4, 3, 4], [4, 2, 4], [3, 1, 4], [3, 0, 4]])
    got = trace_stats(runaway, winner=1)
    assert got == {"lead_changes": 0.0, "drama": 0.0, "comeback": 0.0, "decided_at": 0.25}
    comeback = np.array([[4, 4, 4], [2, 4, 4], [2, 3, 4], [2, 1, 4], [2, 0, 4]])
    got = trace_stats(comeback, winner=1)
    assert got["comeback"] == 1 and got["drama"] == 0.5 and got["decided_at"] == 0.75
    assert got["lead_changes"] == 1


def test_higher_standings_lead_where_the_game_declares_it():
    points = 10 - SEESAW  # the same game told in points, higher is better
    assert trace_stats(points, 1, higher_is_better=True) == trace_stats(SEESAW, 1)


def test_an_unfinished_game_has_no_trace_measures():
    with pytest.raises(ValueError, match="finished game"):
        trace_stats(SEESAW, winner=-1)


# ------------------------------------------------------------ intervals over duplicate sets

TABLES, DEALS, SEATINGS = 6, 10, 4
TRUE = {"lead_changes": 3.0, "drama": 0.3, "comeback": 0.4, "decided_at": 0.8}


def _sample(rng: np.random.Generator, shift: float, set_effect: np.ndarray) -> pd.DataFrame:
    """A replayed sample: per game trace values around ``TRUE`` (+ ``shift`` for the lead
    changes), the games of a duplicate set sharing ``set_effect`` (correlated, as seatings
    of one deal are); tables differ by a fixed amount (strata)."""
    sets = np.repeat(np.arange(TABLES * DEALS), SEATINGS)
    table = sets // DEALS
    e = set_effect[sets] + 0.2 * (table - (TABLES - 1) / 2)
    n = sets.size
    return pd.DataFrame({
        "game": np.arange(n), "table": table, "deal": sets % DEALS, "n_players": 4,
        "finished": True,
        "lead_changes": TRUE["lead_changes"] + shift + e + rng.normal(0, 1, n),
        "drama": np.clip(TRUE["drama"] + 0.1 * e + rng.normal(0, 0.1, n), 0, 1),
        "comeback": rng.random(n) < TRUE["comeback"] + 0.1 * np.tanh(e),
        "decided_at": TRUE["decided_at"] + 0.05 * e + rng.normal(0, 0.05, n),
    })  # fmt: skip


@pytest.mark.slow
def test_trace_intervals_and_paired_differences_cover_the_truth():
    """Over 300 synthetic pairs of samples on the same deals (a shared set effect): every
    trace measure's 95% interval, and the paired difference's, covers its mean over all the
    samples about 95% of the time; taken as unpaired, the difference is wider."""
    rng = np.random.default_rng(7)
    values, his, los, diffs = [], [], [], []
    for _ in range(300):
        effect = rng.normal(0, 0.8, TABLES * DEALS)
        a = trace_measures(_sample(rng, 0.0, effect))
        b = trace_measures(_sample(rng, 0.5, effect))
        ints = [interval(m) for m in a]
        values.append([m.value for m in a])
        los.append([lo for lo, _ in ints])
        his.append([hi for _, hi in ints])
        est = stack([difference(x, y, True) for x, y in zip(a, b, strict=True)])
        lo, hi = est.interval()
        unpaired = difference(a[0], b[0], False)
        diffs.append((est.value, lo, hi, unpaired.half_width()[0] > est.half_width()[0]))
    v, lo, hi = np.array(values), np.array(los), np.array(his)
    cover = ((lo <= v.mean(0)) & (v.mean(0) <= hi)).mean(0)
    assert [m.metric for m in a] == list(TRUE) and a[2].rate  # comeback is a share
    assert (cover >= 0.92).all() and (cover <= 0.98).all(), cover
    dv, dlo, dhi, wider = (np.array(x) for x in zip(*diffs, strict=True))
    d_cover = ((dlo <= dv.mean(0)) & (dv.mean(0) <= dhi)).mean(0)
    assert (d_cover >= 0.92).all() and (d_cover <= 0.98).all(), d_cover
    assert dv.mean(0)[0] == pytest.approx(0.5, abs=0.05) and wider.mean() > 0.95
    assert v.mean(0)[0] == pytest.approx(3.0, abs=0.05)


def test_unfinished_games_are_left_out_of_the_trace_measures():
    rng = np.random.default_rng(1)
    df = _sample(rng, 0.0, np.zeros(TABLES * DEALS))
    df.loc[df["game"] % 2 == 0, ["finished", "lead_changes"]] = [False, np.nan]
    m = {x.metric: x for x in trace_measures(df)}
    assert m["lead_changes"].games == len(df) // 2
    assert m["lead_changes"].value == pytest.approx(df["lead_changes"].mean())


def test_restricted_play_costs_the_win_rate_lost_on_the_same_games():
    rng = np.random.default_rng(3)
    rows = _sample(rng, 0.0, np.zeros(TABLES * DEALS))[["game", "table", "deal", "n_players"]]
    base = (rng.random(len(rows)) < 0.6).astype(float)
    lost = base * (rng.random(len(rows)) < 0.5)  # half of the wins lost to the restriction
    df = pd.concat([rows.assign(restriction="single", meaning="plays one card", strategy="w",
                                base_win=base, restricted_win=base - lost),
                    rows.assign(restriction="none", meaning="nothing", strategy="w",
                                base_win=base, restricted_win=base)])  # fmt: skip
    got = {m.metric: m for m in restricted_measures(df)}
    assert got["restricted_single"].value == pytest.approx(lost.mean())
    assert got["restricted_single"].detail == "w: plays one card"
    lo, hi = interval(got["restricted_single"])
    assert lo < lost.mean() < hi and lo > 0
    assert got["restricted_none"].value == 0 and estimate(got["restricted_none"]).se[0] == 0


def test_sampled_sets_are_keyed_as_the_run_keys_them():
    d = sample_design(np.array([0, 0, 1, 1, 2]), np.array([5, 5, 5, 6, 5]), np.full(5, 4))
    assert d.key.tolist() == [5, (1 << 32) + 5, (1 << 32) + 6, (2 << 32) + 5]
    assert d.stratum.tolist() == [-5, 1, 1, -5]  # tables sampled once pool per size


# ---------------------------------------------------------------------------- skill ladder


def test_the_ladder_steps_are_the_paired_differences_of_neighbours_in_strength():
    from tests.test_variants_report import RULES_A, _latent, _play

    g = _play(np.random.default_rng(5), RULES_A, _latent(np.random.default_rng(6)))
    # the steps count finished games: the duplicate sets that hold an unfinished game left
    # out, every set weighs alike in both (the report weighs a set by its games)
    of_set = design(g).of_game
    g = g.select(~np.isin(of_set, of_set[g.unfinished]))
    order = ["a", "b", "c", "d", "random"]
    steps = ladder_measures(design(g), order)
    assert [m.detail for m in steps] == ["a - b", "b - c", "c - d", "d - random"]
    sums = seat_sums(g, g.n_strategies)
    for m, (hi, lo) in zip(steps, zip(order[:-1], order[1:], strict=True), strict=True):
        r = paired(g, sums, g.labels.index(hi), g.labels.index(lo))
        assert m.value == pytest.approx(r["diff"]) and interval(m) == pytest.approx(
            (r["ci_low"], r["ci_high"]))  # fmt: skip


def test_the_ladder_counts_the_levels_its_significant_steps_tell_apart():
    metrics = pd.DataFrame({
        "rules": "default", "metric": "ladder_step", "n_players": "all", "position": [0, 1, 2],
        "value": [0.30, 0.01, 0.20], "ci_low": [0.2, -0.05, 0.1], "ci_high": [0.4, 0.07, 0.3],
        "se": [0.05, 0.03, 0.05], "df": [100.0, 100.0, 100.0], "deal_sets": 120,
        "detail": ["a - b", "b - c", "c - d"]})  # fmt: skip
    t = ladder_table(metrics)
    assert t["significant"].tolist() == [True, False, True]
    assert set(t["levels"]) == {3} and t["upper"].tolist() == ["a", "b", "c"]


# --------------------------------------------------------------- sampling, restrictions


def test_a_sample_is_whole_duplicate_sets_and_the_same_sets_in_every_run():
    rows = pd.DataFrame(
        {
            "table": np.repeat(np.arange(20), 24) // 4,
            "deal": np.repeat(np.arange(20), 24) % 4,
            "game": np.arange(480),
        }
    )
    a = sample_sets(rows, 100)
    b = sample_sets(rows.sample(frac=1, random_state=1), 100)
    assert len(a) == 120 and a.groupby(["table", "deal"]).size().eq(24).all()  # 5 whole sets
    assert sorted(a["game"]) == sorted(b["game"])


@pytest.fixture(scope="module")
def restricted_games():
    import strategies
    from leaves.record import replay

    cls = restricted_class()
    out = {}
    for name in ("single", "no_pass"):
        res = strategies.play_batch([cls("weighted", name), "counter", "greedy"],
                                    np.arange(12, dtype=np.uint64),
                                    np.arange(12, dtype=np.uint64) + 99, record=True)  # fmt: skip
        out[name] = [replay(r) for r in res.records]
    return out


def _turns_of(states, seat: int):
    for before, after in zip(states, states[1:], strict=False):
        if before.current_player == seat:
            yield before, after.history[-1][1]


def test_the_restricted_strategies_keep_their_restriction(restricted_games):
    singles = [a for game in restricted_games["single"] for _, a in _turns_of(game, 0)]
    assert singles and all(a.count == 1 for a in singles if a.is_play)
    passes = [(s, a) for game in restricted_games["no_pass"] for s, a in _turns_of(game, 0)
              if a.is_pass]  # fmt: skip
    assert all(not any(x.is_play for x in s.legal_actions()) for s, _ in passes)


# ------------------------------------------------------------------------------- sweeps


def test_a_sweep_is_the_default_rules_and_a_rule_set_per_value():
    from leaves.ruleset import DEFAULT_RULES, Rules

    sets, points = sweep_sets("hand_size=9..11", (), [4])
    assert sets == [DEFAULT_RULES, Rules(hand_size=9), Rules(hand_size=10)]
    assert points == [("9", 1), ("10", 2), ("11", 0)]  # 11 cards is today's rule at 4 players
    sets, points = sweep_sets("hand_size=9..11", (), [3, 4])
    assert len(sets) == 4 and points[-1] == ("11", 3)  # at 3 players today's is 12
    sets, points = sweep_sets("take=any,ends", ("min_count=off",), [4])
    assert [str(s) for s in sets] == ["default", "min_count=off", "min_count=off, take=ends"]
    assert plays_as(Rules(hand_size=11), DEFAULT_RULES, [4])
    assert not plays_as(Rules(hand_size=11), DEFAULT_RULES, [3, 4])


@pytest.mark.parametrize("args, message", [
    (["--sweep", "hand_size"], "write KEY=V1,V2,... or KEY=LO..HI"),
    (["--sweep", "colour=1,2"], "unknown rule 'colour'"),
    (["--sweep", "take=any..nothing"], "a range LO..HI sweeps a key that takes one whole"),
    (["--sweep", "hand_size=12..9"], "the range is empty"),
    (["--sweep", "hand_size=9"], "give 2 to 16 values"),
    (["--sweep", "turn_limit=1..100"], "give 2 to 16 values, got 100"),
    (["--sweep", "hand_size=9,9"], "the value 9 is given twice"),
    (["--sweep", "hand_size=9,x"], "--sweep hand_size=x: hand_size must be"),
    (["--sweep", "hand_size=9,10", "--rules", "hand_size=8"], "which --sweep varies"),
    (["--sweep", "hand_size=9,10", "--restrict", "nosuch"], "--restrict 'nosuch' is not in"),
    (["--sweep", "hand_size=9,10", "--restrict", "low"], "needs a strategy that ranks"),
    (["--sweep", "hand_size=9,10", "--ladder", "low,nosuch"], "--ladder low,nosuch: nosuch"),
])  # fmt: skip
def test_bad_sweeps_are_one_line(capsys, tmp_path, args, message):
    try:
        main(["variants", "random", "low", "weighted", *args, "--games", "6", "--out",
              str(tmp_path / "o")])  # fmt: skip
        code = 0
    except SystemExit as exc:
        code = int(exc.code)
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("leaves: error: ") and message in err, err
    assert not (tmp_path / "o").exists()


def _rows(path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "out"
    res = CliRunner().invoke(cli, ["variants", "random", "low", "weighted", "--sweep",
                                   "hand_size=10..12", "--players", "3", "--games", "360",
                                   "--seed", "4", "--jobs", "1", "--trace-games", "120",
                                   "--restricted-games", "36", "--out", str(out)],
                             catch_exceptions=False)  # fmt: skip
    assert res.exit_code == 0, res.output
    return out, res.output


@pytest.mark.slow
def test_a_sweep_writes_every_measure_per_value_with_intervals(swept):
    out, output = swept
    rows = _rows(out / "variants_sweep.csv")
    assert [r["value"] for r in rows if r["metric"] == "turns"] == ["10", "11", "12"]
    turns = {r["value"]: r for r in rows if r["metric"] == "turns"}
    assert turns["12"]["rules"] == "default" and turns["12"]["default"] == "True"
    assert float(turns["10"]["diff"]) < 0 and turns["10"]["significant"] == "True"
    for r in rows:
        if r["metric"] in ("turns", "lead_changes", "drama") and r["ci_low"]:
            assert float(r["ci_low"]) <= float(r["estimate"]) <= float(r["ci_high"])
    for chart in ("overview", "sweep", "ladder", "lead_changes", "restricted"):
        assert (out / "charts" / f"{chart}.png").stat().st_size > 2000
    assert "designers' measures: 120 games traced" in output
    assert "hand_size=11: designers' measures" in output


@pytest.mark.slow
def test_the_designers_measures_are_in_the_metrics_with_intervals(swept):
    out, _ = swept
    rows = _rows(out / "variants_metrics.csv")
    got = {(r["rules"], r["metric"]): r for r in rows}
    for rules in ("default", "hand_size=10"):
        for metric in ("lead_changes", "drama", "comeback", "decided_at", "restricted_single",
                       "restricted_no_pass", "ladder_step"):  # fmt: skip
            assert (rules, metric) in got, (rules, metric)
        r = got[(rules, "lead_changes")]
        assert float(r["ci_low"]) < float(r["value"]) < float(r["ci_high"])
        assert int(r["games"]) >= 120 and int(r["deal_sets"]) >= 120 // 6
    single = got[("default", "restricted_single")]
    assert float(single["value"]) > 0.2  # one card at a time costs weighted much of its edge
    diffs = {(r["rules"], r["metric"]) for r in _rows(out / "variants_differences.csv")}
    assert ("hand_size=10", "drama") in diffs and ("hand_size=10", "restricted_single") in diffs


@pytest.mark.slow
def test_the_page_opens_with_the_overview_chart_and_links_each_finding(swept):
    out, _ = swept
    page = (out / "report.html").read_text(encoding="utf-8")
    first = page.index("<h2>")
    assert page.index('id="chart-overview"') < page.index("<ul>") < page.index("variants_overview")
    assert page.index("<h2>Run</h2>") > page.index("variants_overview") > first
    findings = page[page.index("<ul>") : page.index("</ul>")]
    assert '<a href="#chart-turns">turns chart</a>' in findings
    assert '<a href="variants_length.csv">variants_length.csv</a>' in findings
    assert '<a href="default/manifest.json">' in page  # the runs, linked
    assert "Sweep over hand_size" in page and 'id="chart-sweep"' in page
