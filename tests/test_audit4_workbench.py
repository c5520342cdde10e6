"""The designer's workbench (``leaves variants``) says only what its data hold: each test runs a
case whose truth is known (a small run read back with pandas, or tables made by hand) and
checks the sentence, the chart or the refusal against it; an interrupted comparison resumes
to the report an uninterrupted one writes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from leaves_cli.main import cli
from reports.variants import DIFF_COLUMNS, METRIC_COLUMNS
from reports.variants_text import findings
from tests.helpers import exit_code, usage_error

NO_PASS = "weighted: never passes while it can play"
SINGLE = "weighted: never plays more than one card at a time"


def _run(args: list[str]) -> tuple[int, str]:
    res = CliRunner().invoke(cli, args)
    return res.exit_code, res.output


def _metric(rules, metric, value, detail="", sets=30, lo=None, hi=None):
    lo = value - 0.05 if lo is None else lo
    hi = value + 0.05 if hi is None else hi
    return {"rules": rules, "metric": metric, "n_players": "all", "position": -1, "value": value,
            "ci_low": lo, "ci_high": hi, "se": 0.025, "df": 29.0, "deal_sets": sets,
            "games": 4 * sets, "fair": 0.0, "detail": detail, "conservative": False}  # fmt: skip


def _diff(rules, metric, diff, p, detail=""):
    return {"rules": rules, "metric": metric, "n_players": "all", "position": -1, "default": 0.1,
            "value": 0.1 + diff, "diff": diff, "ci_low": diff - 0.05, "ci_high": diff + 0.05,
            "se": 0.025, "df": 29.0, "p_value": p, "p_holm": p, "significant": p < 0.05,
            "method": "paired", "detail": detail}  # fmt: skip


# ------------------------------------------------------------ 1. each restriction on its own


def test_each_restriction_is_named_and_judged_on_its_own():
    """One restriction's cost changes clearly, the other's does not: the findings say the first
    is clear and list the second, by its own name, under 'no clear difference' (they used to
    list 'the cost of restricted play' there, as if neither were clear)."""
    metrics = pd.DataFrame([
        _metric(r, m, v, d) for r in ("default", "take=ends")
        for m, v, d in (("restricted_no_pass", 0.05, NO_PASS),
                        ("restricted_single", 0.5 if r == "default" else 0.2, SINGLE))
    ], columns=METRIC_COLUMNS)  # fmt: skip
    diffs = pd.DataFrame([_diff("take=ends", "restricted_no_pass", 0.0, 0.9, NO_PASS),
                          _diff("take=ends", "restricted_single", -0.3, 1e-6, SINGLE)],
                         columns=DIFF_COLUMNS)  # fmt: skip
    text = " ".join(t for t, _ in findings(metrics, diffs, ["default", "take=ends"], "Paired"))
    assert "restricting weighted so that it never plays more than one card at a time costs" in text
    unclear = text.split("there is no clear difference in ")[1].split(".")[0]
    assert "never passes while it can play" in unclear
    assert "more than one card" not in unclear
    assert "the cost of restricted play" not in text


@pytest.mark.parametrize("lost", [["restricted_single"], ["restricted_no_pass",
                                                          "restricted_single"]])  # fmt: skip
def test_a_restriction_that_cannot_be_measured_is_named_on_its_own(lost):
    """Under a variant no replayed game gives one restriction's cost: that one is named alone
    (the other is measured); where none gives any, restricted play as a whole is."""
    rows = [
        _metric("default", "restricted_no_pass", 0.05, NO_PASS),
        _metric("default", "restricted_single", 0.5, SINGLE),
    ]
    rows += [
        _metric("take=ends", m, 0.05, d)
        for m, d in (("restricted_no_pass", NO_PASS), ("restricted_single", SINGLE))
        if m not in lost
    ]
    metrics = pd.DataFrame(rows, columns=METRIC_COLUMNS)  # fmt: skip
    kept = [_diff("take=ends", "restricted_no_pass", 0.0, 0.9, NO_PASS)] if len(lost) == 1 else []
    diffs = pd.DataFrame(kept, columns=DIFF_COLUMNS)
    text = " ".join(t for t, _ in findings(metrics, diffs, ["default", "take=ends"], "Paired"))
    said = text.split(" cannot be measured")[0].split("With take=ends, ")[-1]
    if len(lost) == 1:
        assert said == ("the cost of restricting weighted so that it never plays more than one "
                        "card at a time")  # fmt: skip
    else:
        assert said == "the cost of restricted play"


# ------------------------------------------------------------ 2. the skill spread's sets


@pytest.fixture(scope="module")
def six(tmp_path_factory):
    """Six strategies at four seats: the best and the worst share only some duplicate sets."""
    out = tmp_path_factory.mktemp("six") / "o"
    code, output = _run(["variants", "random", "low", "greedy", "weighted", "high", "counter",
                         "--rules", "take=ends", "--games", "360", "--seed", "5", "--jobs", "1",
                         "--trace-games", "0", "--restricted-games", "0",
                         "--out", str(out)])  # fmt: skip
    assert code == 0, output
    return out


def _sets_both_sat(run, best: str, worst: str) -> tuple[int, int]:
    rows = pd.read_parquet(run / "games")
    rows = rows[rows["forfeit_seat"] < 0]
    seats = [c for c in rows.columns if c.startswith("seat_")]
    key = list(zip(rows["table"], rows["deal"], strict=True))
    rows = rows.assign(_key=key)
    has = lambda s: (rows[seats].astype(object) == s).any(axis=1)  # noqa: E731
    both = rows[has(best)]["_key"].isin(set(rows[has(worst)]["_key"]))
    return int(rows.loc[both[both].index, "_key"].nunique()), int(rows["_key"].nunique())


def test_the_skill_spread_says_over_how_many_duplicate_sets_it_is_paired(six):
    """'the best strategy beats the worst by X' is a mean over the duplicate sets where both
    sat: the sentence says how many of the run's sets those are, counted here from the rows."""
    m = pd.read_csv(six / "variants_metrics.csv")
    row = m[(m["rules"] == "default") & (m["metric"] == "skill_spread")].iloc[0]
    best, worst = row["detail"].split(" - ")
    both, total = _sets_both_sat(six / "default", best, worst)
    assert both < total  # the case the sentence must tell
    text = (six / "findings.txt").read_text()
    said = f"paired over the {both} of {total} duplicate sets where both sat"
    assert said in text.split("Under the default rules")[1]


# ------------------------------------------------------------ 3. a repeated ladder rung


def test_a_rung_given_twice_to_the_ladder_is_refused(capsys, tmp_path):
    """The ladder is ordered by strength, so a repeat means nothing: it is refused in one line
    (it used to be dropped silently)."""
    err = usage_error(capsys, ["variants", "low", "greedy", "weighted", "--rules", "take=ends",
                               "--ladder", "weighted,greedy,weighted", "--games", "1",
                               "--out", str(tmp_path / "o")])  # fmt: skip
    assert "--ladder weighted,greedy,weighted: weighted is given twice" in err
    assert not (tmp_path / "o").exists()


# ------------------------------------------------------------ 4. the sweep chart's bands


def _sweep_table(with_band: bool) -> pd.DataFrame:
    from reports.variants_sweep import SWEEP_COLUMNS

    rows = []
    for i, value in enumerate(("9", "10")):
        for metric in ("turns", "lead_changes"):
            band = with_band or metric == "turns"
            v = 40.0 + i if metric == "turns" else 4.0 + i
            rows.append({"key": "hand_size", "value": value, "x": float(value),
                         "rules": "default" if i else "hand_size=9", "metric": metric,
                         "n_players": "all", "position": -1, "measure": metric, "detail": "",
                         "estimate": v, "ci_low": v - 1 if band else np.nan,
                         "ci_high": v + 1 if band else np.nan, "default": bool(i)})  # fmt: skip
    return pd.DataFrame(rows, columns=SWEEP_COLUMNS)


@pytest.mark.parametrize("with_band", [True, False])
def test_the_sweep_chart_promises_bands_only_where_it_draws_them(with_band):
    """A panel whose measure has no interval (a replayed sample too small) draws no band: its
    title says so, and the chart's title promises bands only where they are drawn."""
    from reports.variants_forest import sweep

    fig = sweep(_sweep_table(with_band))
    title = fig._suptitle.get_text()
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        drawn = any(len(p.get_paths()) and len(p.get_paths()[0].vertices)
                    for p in ax.collections)  # fmt: skip
        assert drawn == ("(no interval)" not in ax.get_title().replace("\n", " ")), ax.get_title()
    if with_band:
        assert title.endswith("with 95% bands")
    else:
        assert "where" in title and "no interval" in title


# ------------------------------------------------------------ 5. resuming a comparison

ARGS = [
    "variants",
    "low",
    "greedy",
    "weighted",
    "high",
    "--rules",
    "take=ends",
    "--games",
    "120",
    "--seed",
    "7",
    "--jobs",
    "1",
    "--trace-games",
    "24",
    "--restricted-games",
    "24",
]
"""Five strategies (random added) at four seats: five tables, so a run has several chunks."""
RUNS = ("default", "take=ends")


def _tables(out) -> dict[str, pd.DataFrame]:
    return {p.name: pd.read_csv(p) for p in sorted(out.glob("variants_*.csv"))}


def _same_numbers(a, b) -> None:
    """Two comparisons hold the same numbers: every table, the findings, each run's rows and
    designers' files."""
    ta, tb = _tables(a), _tables(b)
    assert list(ta) == list(tb) and ta
    for name in ta:
        got, want = tb[name], ta[name]
        if "run" in want:  # the run's folder, relative to --out: the same names
            assert list(got["run"]) == list(want["run"])
        pd.testing.assert_frame_equal(got, want, obj=name)
    assert (b / "findings.txt").read_text() == (a / "findings.txt").read_text()
    for run in RUNS:
        cols = ["game", "winner_seat", "turns", "deal_seed"]
        pd.testing.assert_frame_equal(
            pd.read_parquet(b / run / "games", columns=cols).sort_values("game", ignore_index=True),
            pd.read_parquet(a / run / "games", columns=cols).sort_values("game", ignore_index=True),
        )  # fmt: skip
        for f in ("designer_games.csv", "designer_restricted.csv"):
            assert (b / run / f).read_bytes() == (a / run / f).read_bytes()


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The comparison played at once: what every resumed one must come to."""
    out = tmp_path_factory.mktemp("whole") / "o"
    code, output = _run([*ARGS, "--out", str(out)])
    assert code == 0, output
    return out


def test_an_interrupted_comparison_resumes_to_the_report_of_an_uninterrupted_one(
    whole, tmp_path, monkeypatch, capsys
):
    """Ctrl-C in the variant's run, after one of its chunks: the message names the resume
    command; resuming verifies the finished run of the default rules (nothing played again),
    plays only what the variant's lacks, and the report's numbers are those of the comparison
    played at once."""
    import tournaments.runner as runner

    out = tmp_path / "o"
    calls = []
    real = runner.imap_unordered

    def interrupting(*args, **kwargs):
        calls.append(1)
        results = real(*args, **kwargs)
        if len(calls) < 2:
            yield from results
            return
        yield next(iter(results))
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "imap_unordered", interrupting)
    assert exit_code([*ARGS, "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert f"interrupted: 'leaves variants --out {out} --resume' continues it" in err
    from tournaments import storage

    second = storage.read_manifest(out / "take=ends")
    assert 0 < second["n_chunks_done"] < second["spec"]["n_chunks"]  # an unfinished run
    monkeypatch.setattr(runner, "imap_unordered", real)
    assert exit_code(["variants", "--out", str(out), "--resume", "--jobs", "1"]) == 0
    said = capsys.readouterr()
    err = said.err
    assert "2 rule sets verified and finished in" in said.out
    assert "default: all 120 games kept" in err
    played = 120 - int(second["units_done"])
    assert f"take=ends: {played} of 120 games played (the rest kept)" in err
    _same_numbers(whole, out)


def test_an_interruption_in_the_designers_measures_keeps_those_written(
    whole, tmp_path, monkeypatch, capsys
):
    """Ctrl-C while the variant's sample is replayed: the default rules' designers' files are
    kept on resuming (checked against their checksums), the variant's replayed, and the report
    is the uninterrupted one's."""
    import leaves.commands.variants_designer as designer

    out = tmp_path / "o"
    real = designer.replay_designer
    calls = []

    def interrupting(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(designer, "replay_designer", interrupting)
    assert exit_code([*ARGS, "--out", str(out)]) == 130
    monkeypatch.setattr(designer, "replay_designer", real)
    capsys.readouterr()
    assert exit_code(["variants", "--out", str(out), "--resume", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "default: designers' measures kept" in err
    assert "take=ends: designers' measures: " in err
    _same_numbers(whole, out)


def test_a_damaged_designers_file_is_replayed_on_resuming(whole, tmp_path, capsys):
    """A designers' file that no longer matches its checksum is replayed, not trusted."""
    import shutil

    out = tmp_path / "o"
    shutil.copytree(whole, out)
    (out / "take=ends" / "designer_games.csv").write_text("game\n1\n")
    assert exit_code(["variants", "--out", str(out), "--resume", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "default: designers' measures kept" in err
    assert "take=ends: designers' measures: " in err
    _same_numbers(whole, out)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--games", "480"], "--games 480 differs from this run's --games 120: resume with "
         "--games 120"),
        (["--seed", "8"], "--seed 8 differs from this run's --seed 7: resume with --seed 7"),
        (["--players", "3,4"], "--players 3,4 differs from this run's --players 4: resume with "
         "--players 4"),
        (["--rules", "hand_size=9"], "--rules hand_size=9 differs from this run's --rules "
         "take=ends: resume with --rules take=ends"),
        (["low"], "strategies low differs from this run's strategies low,greedy,weighted,high: "
         "give no strategies"),
        (["--trace-games", "0"], "--trace-games 0 differs from this run's --trace-games 24: "
         "resume with --trace-games 24"),
    ],
)  # fmt: skip
def test_resuming_with_other_options_is_refused_in_one_line(whole, capsys, extra, said):
    err = usage_error(capsys, ["variants", "--out", str(whole), "--resume", *extra])
    assert f"cannot resume {whole}: {said}" in err


def test_resuming_where_no_comparison_is_and_starting_over_one_are_refused(whole, capsys,
                                                                          tmp_path):  # fmt: skip
    err = usage_error(capsys, ["variants", "--out", str(tmp_path / "none"), "--resume"])
    assert "holds no comparison of rule variants (no variants.json)" in err
    err = usage_error(capsys, [*ARGS, "--out", str(whole)])
    assert f"'leaves variants --out {whole} --resume' continues it" in err


# ------------------------------------------------------------ a restriction that helps


def test_a_restriction_that_raises_the_win_rate_is_not_called_a_cost():
    """A restricted strategy that wins clearly more (its own choice to pass was the worse one)
    is said to gain, with the interval in that direction, not to 'cost it -8.0 points'."""
    metrics = pd.DataFrame([_metric("default", "turns", 40.0, sets=30, lo=39.0, hi=41.0),
                            _metric("default", "restricted_no_pass", -0.08, NO_PASS,
                                    lo=-0.12, hi=-0.04)], columns=METRIC_COLUMNS)  # fmt: skip
    diffs = pd.DataFrame(columns=DIFF_COLUMNS)
    text = " ".join(t for t, _ in findings(metrics, diffs, ["default"], "Paired"))
    assert "costs it -" not in text
    assert ("restricting weighted so that it never passes while it can play raises its win "
            "rate by 8.0 percentage points [4.0, 12.0]") in text  # fmt: skip


# ------------------------------------------------------------ the sweep's ring


def test_the_sweep_promises_a_ring_only_where_a_value_plays_as_today(tmp_path):
    """hand_size=8..9 at four players: no value is today's (11), so no ring is drawn and the
    page does not say that one marks today's value."""
    out = tmp_path / "o"
    code, output = _run(["variants", "low", "weighted", "--sweep", "hand_size=8..9", "--games",
                         "24", "--seed", "3", "--jobs", "1", "--trace-games", "0",
                         "--restricted-games", "0", "--out", str(out)])  # fmt: skip
    assert code == 0, output
    table = pd.read_csv(out / "variants_sweep.csv")
    assert not table["default"].any()  # the truth: no point plays as today's rules
    page = (out / "report.html").read_text()
    assert "ring marks" not in page
    assert "no value swept plays as today&#x27;s rules" in page


# ------------------------------------------------------------ Holm's family


def test_holm_is_said_over_each_variants_own_number_of_measures():
    """A variant that lost measures (its games gave none) was corrected over fewer: the
    sentence gives each variant's count, as the differences table holds them."""
    metrics = pd.DataFrame([_metric(r, m, 40.0) for r in ("default", "a=1", "b=2")
                            for m in ("turns", "rounds")], columns=METRIC_COLUMNS)  # fmt: skip
    diffs = pd.DataFrame([_diff("a=1", "turns", 0.0, 0.9), _diff("a=1", "rounds", 0.0, 0.9),
                          _diff("b=2", "turns", 0.0, 0.9)], columns=DIFF_COLUMNS)  # fmt: skip
    text = findings(metrics, diffs, ["default", "a=1", "b=2"], "Paired")[-1][0]
    counts = diffs.groupby("rules").size()
    assert counts.to_dict() == {"a=1": 2, "b=2": 1}
    assert "over each variant's measures (2 for a=1, 1 for b=2)" in text


def test_a_variant_where_a_restriction_helps_says_so_in_its_direction():
    """Under the variant the restricted strategy wins clearly more (value < 0), under the
    default rules the restriction costs it: each said in its own direction."""
    metrics = pd.DataFrame([_metric("default", "restricted_no_pass", 0.03, NO_PASS),
                            _metric("take=ends", "restricted_no_pass", -0.08, NO_PASS,
                                    lo=-0.12, hi=-0.04)], columns=METRIC_COLUMNS)  # fmt: skip
    diffs = pd.DataFrame([_diff("take=ends", "restricted_no_pass", -0.11, 1e-6, NO_PASS)],
                         columns=DIFF_COLUMNS)  # fmt: skip
    text = " ".join(t for t, _ in findings(metrics, diffs, ["default", "take=ends"], "Paired"))
    assert "costs it -" not in text
    assert ("restricting weighted so that it never passes while it can play raises its win rate "
            "by 8.0 percentage points [4.0, 12.0] (under the default rules it costs it 3.0 "
            "percentage points of win rate): 11.0 percentage points less") in text  # fmt: skip
