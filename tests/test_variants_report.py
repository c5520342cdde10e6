"""Comparing rule variants (``leaves variants``, ``reports.variants``): the measures agree with
the run report's own tables, their 95% intervals and the differences' cover a known truth on
synthetic runs, and the command plays real small runs into one page whose findings say what
changed (a much shorter game) and what did not (a rule the games never reach)."""

from __future__ import annotations

import csv
import functools
import itertools

import numpy as np
import pytest
from click.testing import CliRunner

import reports
from leaves.commands.variants import folder_name
from leaves_cli import main
from leaves_cli.main import cli
from reports.clusters import seat_sums
from reports.data import MISSING, Games, ReportError, Run
from reports.significance import paired
from reports.variants import build_variants_report
from reports.variants_metrics import (
    difference,
    estimate,
    interval,
    intervals,
    measures,
    paired_design,
    stack,
)

LABELS = ("a", "b", "c", "d", "random")
STRENGTH = np.array([2.0, 0.6, 0.3, 0.0, -1.5])
RULES_A = {"skill": 1.0, "bonus": 0.5, "turns": 40.0, "unfinished": 0.02}
RULES_B = {"skill": 0.6, "bonus": 0.0, "turns": 34.0, "unfinished": 0.05}
N, DEALS = 3, 8
TABLES = np.array(list(itertools.combinations(range(len(LABELS)), N)))
SETS = len(TABLES) * DEALS


def _latent(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """What a deal fixes for every seating of it: the hands' luck, how long its games run
    and who moves first (shared by two rule sets that deal the same cards)."""
    return {"luck": rng.normal(0, 0.8, (SETS, N)), "z": rng.normal(0, 1, SETS),
            "first": rng.integers(0, N, SETS)}  # fmt: skip


def _play(rng: np.random.Generator, rules: dict[str, float], lat: dict[str, np.ndarray]) -> Games:
    """A synthetic run: every table of 3 of the 5 strategies, DEALS deals each played under
    the 3 rotations. The winner has the best strength * skill + hand luck + first-player bonus
    + noise; losers keep cards by how far behind they are; turns follow the deal (z) and
    whether random sits (the tables differ: strata); some games end unfinished."""
    set_id = np.repeat(np.arange(SETS), N)
    rot = np.array([np.roll(np.arange(N), -r) for r in range(N)])
    seats = TABLES[set_id // DEALS][np.arange(set_id.size)[:, None], rot[np.tile(np.arange(N),
                                                                                   SETS)]]  # fmt: skip
    g = set_id.size
    first = lat["first"][set_id]
    pos = (np.arange(N)[None, :] - first[:, None]) % N
    score = (rules["skill"] * STRENGTH[seats] + lat["luck"][set_id] + rules["bonus"] * (pos == 0)
             + rng.normal(0, 0.7, (g, N)))  # fmt: skip
    cards = np.rint(1 + 1.5 * (score.max(axis=1, keepdims=True) - score)
                    + rng.normal(0, 0.8, (g, N))).clip(1, 20).astype(np.int16)  # fmt: skip
    unfinished = rng.random(g) < rules["unfinished"]
    winner = np.where(unfinished, -1, score.argmax(axis=1))
    cards[np.flatnonzero(winner >= 0), winner[winner >= 0]] = 0
    random_sits = (seats == len(LABELS) - 1).any(axis=1)
    turns = np.rint(rules["turns"] + 6 * lat["z"][set_id] + 3 * random_sits
                    + rng.normal(0, 2, g)).clip(1).astype(np.int32)  # fmt: skip
    rounds = np.rint(turns / 7 + rng.normal(0, 0.5, g)).clip(1).astype(np.int32)
    full = np.full((g, 6), -1, np.int8)
    full[:, :N] = seats
    values = np.full((g, 6), MISSING, np.int16)
    values[:, :N] = cards
    return Games(labels=LABELS, seats=full, values=values, n_players=np.full(g, N, np.int8),
                 first=first.astype(np.int8), winner=winner.astype(np.int8),
                 unfinished=unfinished, forfeited=np.zeros(g, bool),
                 forfeit_seat=np.full(g, -1, np.int8), deal=(set_id % DEALS).astype(np.int64),
                 table=(set_id // DEALS).astype(np.int64),
                 lengths={"turns": turns, "rounds": rounds})  # fmt: skip


def test_the_measures_are_the_run_reports_own_numbers():
    g = _play(np.random.default_rng(5), RULES_A, _latent(np.random.default_rng(6)))
    ms = {m.id: m for m in measures(Run(games=g))}
    lengths = reports.lengths(g).set_index(["by", "measure"])
    for metric in ("turns", "rounds"):
        assert ms[(metric, "all", -1)].value == pytest.approx(lengths.loc[("all", metric), "mean"])
    seats = reports.seats(g.select(g.winner >= 0)).set_index("position")  # games someone won
    for p in range(N):
        m = ms[("seat", str(N), p)]
        lo, hi = interval(m)
        assert m.value == pytest.approx(seats.loc[p, "win_rate"])
        assert (lo + m.fair, hi + m.fair) == pytest.approx((seats.loc[p, "ci_low"],
                                                            seats.loc[p, "ci_high"]))  # fmt: skip
    spread = ms[("skill_spread", "all", -1)]
    assert spread.detail == "a - random"
    r = paired(g, seat_sums(g, g.n_strategies), g.labels.index("a"), g.labels.index("random"))
    assert spread.value == pytest.approx(r["diff"])
    assert estimate(spread).se[0] == pytest.approx(r["se"])
    assert interval(spread) == pytest.approx((r["ci_low"], r["ci_high"]))
    h2h = reports.head_to_head(g).set_index(["strategy", "opponent"]).loc[("a", "random")]
    best = ms[("best_vs_random", "all", -1)]
    assert best.value == pytest.approx(h2h["ahead_rate"])
    assert interval(best) == pytest.approx((h2h["ci_low"], h2h["ci_high"]))
    done = reports.tables.completion(g).iloc[-1]
    assert ms[("unfinished", "all", -1)].value == pytest.approx(done["unfinished_share"])
    finished = (g.winner >= 0) & ~g.unfinished
    runner_up = np.sort(np.where(g.values[:, :N] > 0, g.values[:, :N], 99), axis=1)[:, 0]
    assert ms[("runner_up", "all", -1)].value == pytest.approx(runner_up[finished].mean())


REPS = 200


@functools.cache
def _coverage(shared: bool, seed: int) -> dict[str, np.ndarray]:
    """Over REPS pairs of independent synthetic runs (one under each rule set; ``shared``:
    both dealt the same deals, as ``leaves variants`` deals them), whether each measure's
    95% interval, and each difference's (paired when ``shared``, else unpaired), covers the
    truth: the mean of the estimates over all the runs. Also the differences' half-widths,
    and whether a naive interval of the mean turns, every game taken as independent, covers."""
    rng = np.random.default_rng(seed)
    per_run, diffs, naive = [], [], []
    for _ in range(REPS):
        lat_a = _latent(rng)
        lat_b = lat_a if shared else _latent(rng)
        ga, gb = _play(rng, RULES_A, lat_a), _play(rng, RULES_B, lat_b)
        ma, mb = measures(Run(games=ga)), measures(Run(games=gb))
        assert [m.id for m in ma] == [m.id for m in mb]
        assert {m.detail for m in ma + mb} == {"", "a - random", "a ahead of random"}
        both = ma + mb
        est = stack([estimate(m) for m in both])
        lo, hi = intervals(both, est)
        per_run.append((np.array([m.value - m.fair for m in both]), lo, hi))
        d = stack([difference(a, b, shared) for a, b in zip(ma, mb, strict=True)])
        d_lo, d_hi = d.interval()
        diffs.append((d.value, d_lo, d_hi))
        turns = ga.lengths["turns"]
        naive.append(1.96 * turns.std(ddof=1) / np.sqrt(turns.size))
    value, lo, hi = (np.array(x) for x in zip(*per_run, strict=True))
    d_value, d_lo, d_hi = (np.array(x) for x in zip(*diffs, strict=True))
    truth, d_truth = value.mean(axis=0), d_value.mean(axis=0)
    naive_hw = np.array(naive)
    return {
        "measures": (lo <= truth) & (truth <= hi),
        "differences": (d_lo <= d_truth) & (d_truth <= d_hi),
        "half_width": (d_hi - d_lo) / 2,
        "naive_turns": np.abs(value[:, 0] - truth[0]) <= naive_hw,
    }


@pytest.mark.slow
@pytest.mark.parametrize("shared", [True, False], ids=["same deals, paired", "independent"])
def test_intervals_of_measures_and_differences_cover_a_known_truth(shared):
    got = _coverage(shared, seed=11 if shared else 12)
    for key in ("measures", "differences"):
        every = got[key]
        assert np.isfinite(every).all()
        assert 0.93 <= every.mean() <= 0.97, (key, every.mean(0))
        assert (every.mean(axis=0) >= 0.89).all() and (every.mean(axis=0) <= 0.995).all(), (
            key, every.mean(axis=0))  # fmt: skip
    # the design matters: games taken as independent cover far too little (the seatings of a
    # deal share its length)
    assert got["naive_turns"].mean() < 0.85


@pytest.mark.slow
def test_pairing_by_deal_is_tighter_where_the_rules_deal_the_same_cards():
    paired_run = _coverage(True, seed=11)  # the coverage test's runs
    rng = np.random.default_rng(14)
    lat = _latent(rng)
    ma = measures(Run(games=_play(rng, RULES_A, lat)))
    mb = measures(Run(games=_play(rng, RULES_B, lat)))
    turns = [i for i, m in enumerate(ma) if m.id == ("turns", "all", -1)][0]
    unpaired = difference(ma[turns], mb[turns], paired=False)
    assert paired_run["half_width"][:, turns].mean() < 0.6 * unpaired.half_width()[0]
    # on the same cards the paired error is the smaller one (unpaired, the variances add)
    assert difference(ma[turns], mb[turns], True).se[0] < unpaired.se[0]


def test_runs_pair_only_when_they_dealt_the_same_seeds_at_the_same_tables():
    spec = {"game": "leaves", "seed": 3, "strategies": ["a", "b"], "players": [3],
            "game_config": {"turn_limit": 1000}, "target": 20}  # fmt: skip
    variant = {**spec, "game_config": {"turn_limit": 1000, "rules": {"take": "ends"}},
               "target": 30}  # fmt: skip
    assert paired_design(spec, variant)
    assert not paired_design(spec, {**variant, "seed": 4})
    assert not paired_design(spec, {**variant, "strategies": ["a", "c"]})
    assert not paired_design({}, variant)


def test_folder_names_are_safe_and_unique():
    taken: set[str] = set()
    assert folder_name("hand_size=9", taken) == "hand_size=9"
    assert folder_name("take=ends, min_count=off", taken) == "take=ends,min_count=off"
    assert folder_name("hand_size=3:12/4:11", taken) == "hand_size=3_12_4_11"
    assert folder_name("hand_size=9", taken) == "hand_size=9-2"


# ---------------------------------------------------------------------- the command, for real


def _invoke(*args: object):
    return CliRunner().invoke(cli, ["variants", *map(str, args)], catch_exceptions=False)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """random, low and greedy at 3 players, 600 games per rule set: the default rules, a
    much smaller hand and a rule no game of a plain run reaches (the expert target)."""
    out = tmp_path_factory.mktemp("variants") / "out"
    res = _invoke("random", "low", "greedy", "--rules", "hand_size=6", "--rules",
                  "turn_limit=2000", "--players", "3", "--games", "600", "--seed", "2",
                  "--jobs", "1", "--out", out)  # fmt: skip
    assert res.exit_code == 0, res.output
    return out, res.output


def _rows(path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.slow
def test_the_command_plays_each_rule_set_and_writes_one_report(played):
    out, output = played
    assert output.splitlines()[-1] == f"report: {out / 'report.html'}"
    for name in ("default", "hand_size=6", "turn_limit=2000"):
        assert (out / name / "manifest.json").is_file()
    page = (out / "report.html").read_text(encoding="utf-8")
    for title in ("Key findings", "Game length", "First player and seats",
                  "How much skill matters", "How close games are"):  # fmt: skip
        assert title in page
    assert page.count("<img") >= 8 and str(out) not in page  # the runs named relative to it
    for chart in ("turns", "turns_distribution", "seats", "skill_spread", "best_vs_random"):
        assert (out / "charts" / f"{chart}.png").stat().st_size > 1000
    runs = _rows(out / "variants_runs.csv")
    assert [r["rules"] for r in runs] == ["default", "hand_size=6", "turn_limit=2000"]
    assert {r["games"] for r in runs} == {"600"} and runs[1]["changes"] == "hand_size=6"
    assert {r["run"] for r in runs} == {"default", "hand_size=6", "turn_limit=2000"}


@pytest.mark.slow
def test_a_much_smaller_hand_makes_games_clearly_shorter(played):
    out, output = played
    diffs = {(r["rules"], r["metric"], r["position"]): r
             for r in _rows(out / "variants_differences.csv")}  # fmt: skip
    turns = diffs[("hand_size=6", "turns", "-1")]
    assert float(turns["diff"]) < 0 and float(turns["ci_high"]) < 0
    assert turns["significant"] == "True" and turns["method"] == "paired"
    findings = (out / "findings.txt").read_text(encoding="utf-8").splitlines()
    assert findings[0].startswith("With hand_size=6, games are ")
    assert "turns shorter [" in findings[0]
    assert all(line in output for line in findings)  # the command prints them


@pytest.mark.slow
def test_a_rule_the_games_never_reach_changes_nothing(played):
    out, _ = played
    rows = [r for r in _rows(out / "variants_differences.csv") if r["rules"] == "turn_limit=2000"]
    assert rows and all(float(r["diff"]) == 0 and r["significant"] == "False" for r in rows)
    findings = (out / "findings.txt").read_text(encoding="utf-8")
    assert "With turn_limit=2000, every measure is the same as under the default rules" in findings


@pytest.mark.slow
def test_the_metrics_table_has_every_measure_with_its_interval(played):
    out, _ = played
    rows = _rows(out / "variants_metrics.csv")
    metrics = {(r["rules"], r["metric"]) for r in rows}
    for rules in ("default", "hand_size=6"):
        for metric in ("turns", "rounds", "seat", "skill_spread", "best_vs_random", "runner_up",
                       "unfinished"):  # fmt: skip
            assert (rules, metric) in metrics
    for r in rows:
        assert float(r["ci_low"]) <= float(r["value"]) <= float(r["ci_high"])


@pytest.mark.slow
def test_the_report_builds_from_run_directories_in_markdown_too(played, tmp_path):
    out, _ = played
    page = build_variants_report([("default", out / "default"), ("hand_size=6", out /
                                  "hand_size=6")], tmp_path / "md", fmt="md")  # fmt: skip
    assert page.name == "report.md" and "# Rule variants: default against hand_size=6" in (
        page.read_text(encoding="utf-8"))  # fmt: skip
    with pytest.raises(ReportError, match="at least one variant"):
        build_variants_report([("default", out / "default")], tmp_path / "one")
    with pytest.raises(ReportError, match="not found"):
        build_variants_report([("default", out / "default"), ("x", tmp_path / "no")], tmp_path)


@pytest.mark.slow
def test_a_run_too_small_for_intervals_says_so(tmp_path):
    res = _invoke("low", "greedy", "--rules", "take=ends", "--players", "3", "--games", "6",
                  "--seed", "1", "--jobs", "1", "--out", tmp_path / "small")  # fmt: skip
    assert res.exit_code == 0, res.output
    findings = (tmp_path / "small" / "findings.txt").read_text(encoding="utf-8")
    assert "With take=ends, the runs are too small to tell any difference" in findings
    assert "Random was added to the field" in findings  # random was not listed


@pytest.mark.slow
def test_expert_matches_report_shared_wins(tmp_path):
    res = _invoke("random", "low", "greedy", "--rules", "expert_target=10", "--expert",
                  "--players", "3", "--games", "60", "--seed", "1", "--jobs", "1",
                  "--out", tmp_path / "ex")  # fmt: skip
    assert res.exit_code == 0, res.output
    metrics = {r["metric"] for r in _rows(tmp_path / "ex" / "variants_metrics.csv")}
    assert {"shared_wins", "match_games"} <= metrics
    assert "Expert matches" in (tmp_path / "ex" / "report.html").read_text(encoding="utf-8")
    diffs = {r["metric"]: r for r in _rows(tmp_path / "ex" / "variants_differences.csv")}
    assert float(diffs["match_games"]["diff"]) < 0  # a lower target ends matches sooner


def _error(capsys, *args: object) -> tuple[int, str]:
    try:
        main(["variants", *map(str, args)])
        code = 0
    except SystemExit as exc:
        code = int(exc.code)
    err = capsys.readouterr().err.strip()
    return code, err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rules", "hand_size=x"], "--rules 'hand_size=x': hand_size must be"),
        (["--rules", "colour=red"], "unknown rule 'colour'"),
        (["--rules", "take"], "write key=value"),
        (["--rules", "expert_target=20"], "is today's rules"),
        (["--rules", "take=ends", "--rules", "take=ends"], "given twice"),
        (["--rules", "hand_size=16", "--players", "4"], "--players 4: 13 Leaves under hand_si"),
        ([], "give at least one variant"),
        (["--rules", "take=ends", "nosuchbot"], "nosuchbot"),
    ],
)
def test_bad_input_is_one_line(capsys, tmp_path, args, message):
    code, err = _error(capsys, *args, "--games", "6", "--out", tmp_path / "o")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("leaves: error: ") and message in err, err
    assert not (tmp_path / "o").exists()


def test_an_existing_output_folder_is_refused(capsys, tmp_path):
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "file").write_text("x")
    code, err = _error(capsys, "--rules", "take=ends", "--out", tmp_path / "o")
    assert code == 2 and "is not empty" in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_mixed_table_sizes_are_measured_per_size(tmp_path):
    res = _invoke("random", "low", "greedy", "counter", "--rules", "take=nothing", "--players",
                  "3", "--players", "4", "--games", "480", "--seed", "1", "--jobs", "1",
                  "--out", tmp_path / "mix")  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = _rows(tmp_path / "mix" / "variants_metrics.csv")
    sizes = {(r["metric"], r["n_players"]) for r in rows if r["rules"] == "take=nothing"}
    assert {("turns", "all"), ("turns", "3"), ("turns", "4"), ("seat", "3"), ("seat", "4")} <= sizes
    seats = _rows(tmp_path / "mix" / "variants_seats.csv")
    assert [r["n_players"] for r in seats] == ["3", "3", "4", "4"]
    # every seat has its difference to the default rules, none at a seat the table lacks
    assert list(seats[0])[-4:] == [f"vs default: {p}" for p in ("first", "second", "third",
                                                               "fourth")]  # fmt: skip
    assert seats[0]["fourth"] == seats[0]["vs default: fourth"] == ""
    third = seats[1]["vs default: third"]  # take=nothing at 3 players
    assert third.endswith((" pp", " pp *"))
    assert seats[0]["vs default: first"] == ""  # the default rules' own row


def _tables(default_edge: tuple, variant_edge: tuple, diff: tuple, significant: bool):
    """A metrics and a differences table of the first player's edge alone (value, lo, hi)."""
    import pandas as pd

    metrics = pd.DataFrame([
        {"rules": r, "metric": "seat", "n_players": "4", "position": 0, "value": v,
         "ci_low": lo, "ci_high": hi, "fair": 0.25, "detail": ""}
        for r, (v, lo, hi) in (("default", default_edge), ("hand_size=9", variant_edge))
    ])  # fmt: skip
    diffs = pd.DataFrame([{"rules": "hand_size=9", "metric": "seat", "n_players": "4",
                           "position": 0, "diff": diff[0], "ci_low": diff[1],
                           "ci_high": diff[2], "se": 0.01, "p_value": 0.001 if significant
                           else 0.2, "significant": significant}])  # fmt: skip
    return metrics, diffs


def test_the_first_players_advantage_is_no_longer_shown_only_with_a_clear_change():
    from reports.variants_text import findings

    gone = findings(*_tables((0.03, 0.02, 0.04), (0.0, -0.01, 0.01), (-0.03, -0.045, -0.015),
                             True), ["default", "hand_size=9"], "Paired")  # fmt: skip
    assert gone[0][1] == ["seat"]  # the finding links the seats' chart and table
    assert gone[0][0].startswith(
        "With hand_size=9, the first player's advantage shrinks by 3.0 percentage points "
        "[1.5, 4.5] and is no longer shown (at 4 players the first player wins 25.0% "
        "[24.0, 26.0] against 28.0%"
    )
    unclear = findings(*_tables((0.02, 0.002, 0.038), (0.012, -0.005, 0.029),
                                (-0.008, -0.03, 0.014), False), ["default", "hand_size=9"],
                       "Paired")  # fmt: skip
    assert "the first player's advantage is no longer clear" in unclear[0][0]
    assert "the change, -0.8 percentage points [-3.0, +1.4], is not clear" in unclear[0][0]
    grows = findings(*_tables((0.02, 0.01, 0.03), (0.06, 0.05, 0.07), (0.04, 0.03, 0.05), True),
                     ["default", "hand_size=9"], "Paired")  # fmt: skip
    assert "the first player's edge grows by 4.0 percentage points [3.0, 5.0]" in grows[0][0]


@pytest.mark.slow
def test_the_comparison_does_not_move_with_listing_order_or_jobs(played, tmp_path):
    """The same field listed in another order, the variants given in another order, two
    workers: every measure and every difference the same."""
    out, _ = played
    other = tmp_path / "other"
    res = _invoke("greedy", "random", "low", "--rules", "turn_limit=2000", "--rules",
                  "hand_size=6", "--players", "3", "--games", "600", "--seed", "2",
                  "--jobs", "2", "--out", other)  # fmt: skip
    assert res.exit_code == 0, res.output
    for name in ("variants_metrics.csv", "variants_differences.csv", "variants_seats.csv",
                 "variants_skill.csv", "variants_close.csv", "variants_length.csv"):  # fmt: skip
        key = lambda row: tuple(sorted(row.items()))  # noqa: E731 - rows in one order
        assert sorted(_rows(out / name), key=key) == sorted(_rows(other / name), key=key), name


def test_a_difference_of_two_shares_without_spread_keeps_an_interval():
    """Where the best strategy finishes ahead of random in every duplicate set under both
    rule sets, the t interval of the difference would be the point 0 (it covered the truth
    89% of the time in the calibration benchmark at 6 deals); it is recovered from the two
    Wilson intervals instead, and it holds 0."""
    from reports.variants_metrics import difference_intervals

    strong = {**RULES_A, "skill": 60.0, "unfinished": 0.0}
    lat = _latent(np.random.default_rng(1))
    runs = [_play(np.random.default_rng(s), strong, lat) for s in (2, 3)]
    base, other = ({m.id: m for m in measures(Run(games=g))} for g in runs)
    key = ("best_vs_random", "all", -1)
    assert base[key].value == other[key].value == 1.0
    est = stack([difference(base[key], other[key], True)])
    assert est.se[0] == 0  # the plain t interval would be a point
    lo, hi = difference_intervals([(base[key], other[key])], est)
    assert lo[0] < 0 < hi[0] and hi[0] - lo[0] > 0.05
    turns = ("turns", "all", -1)  # not a share: value +- t * se, as before
    est = stack([difference(base[turns], other[turns], True)])
    assert np.allclose(difference_intervals([(base[turns], other[turns])], est), est.interval())
