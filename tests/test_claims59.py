"""Three printed claims that were not always true: a sequential gauntlet's "better" after a
batch with no spread, ``leaves compare`` of two runs whose fields differ, and ``leaves verify``
of a run whose game records it did not check."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import cli, forget_loaded_files  # noqa: F401 - a fixture

# users' files loaded here are forgotten after each test: another file's 'never' would clash
pytestmark = pytest.mark.usefixtures("forget_loaded_files")

NEVER = '''
from strategies import Strategy


class Silent(Strategy):
    """Passes whenever it may."""

    name = "silent"
    description = "passes whenever it may"
    classifier = {"stochastic": False, "uses_card_counting": False}

    def choose(self, view, legal, rng):
        passes = [a for a in legal if a.is_pass]
        return passes[0] if passes else legal[0]


class Mute(Silent):
    """Passes whenever it may, too."""

    name = "mute"
'''


# ------------------------------------------------ a sequential batch with no spread
@pytest.fixture(scope="module")
def never(tmp_path_factory):
    """The file of the strategies that never win (one file: a name is registered once)."""
    import strategies

    spec = tmp_path_factory.mktemp("never") / "never.py"
    spec.write_text(NEVER)
    yield spec
    for name in ("silent", "mute"):  # loaded by the gauntlets: the docs' tests list the rest
        if name in strategies.names():
            strategies.registry.unregister(name)


def _gauntlet(tmp_path, capsys, spec, *extra: str, strategy: str = "greedy",
              baseline: str = "Mute"):  # fmt: skip
    """``strategy`` against two that never win, ``baseline`` a third that never wins (or a
    strategy by name): 24 games a side, 8 duplicate sets in the first batch."""
    base = f"{spec}:{baseline}" if baseline[0].isupper() else baseline
    args = [strategy, "--against", f"{spec}:Silent", "--baseline", base, "--players", "3",
            "--games", "24", "--jobs", "1", "--out", str(tmp_path / "g"), "--sequential",
            *extra]  # fmt: skip
    return cli(capsys, "gauntlet", *args)


def _sets_for_better(alpha: float, beta: float = 0.05) -> int:
    """The fewest duplicate sets with no spread whose LLR, N/2, reaches the upper bound."""
    from tournaments.sequential import bounds

    return math.ceil(2 * bounds(alpha, beta)[1])


def test_a_flat_batch_is_better_only_once_n_over_2_reaches_the_bound(tmp_path, capsys, never):
    """greedy wins every game, mute none: every set +100 points. Its LLR was +inf, then
    'better' once the sign test agreed (10 sets at alpha 0.001), a rule of its own that spent
    alpha a second time; the cap of every batch gives N/2 for N sets with no spread, so
    'better' at the bound log(0.95 / 0.001) = 6.86: 14 sets, the fourth batch's 17 (8, 10, 13,
    17)."""
    assert _sets_for_better(0.001) == 14
    code, out, err = _gauntlet(tmp_path, capsys, never, "--alpha", "0.001")
    assert code == 0
    lines = [x for x in err.splitlines() if x.startswith("batch ")]
    assert lines[0] == (  # as docs/tournaments.md gives it
        "batch 1: 24 games per side, difference +100.00 percentage points over 8 duplicate "
        "sets, LLR 4.00, "
        "N/2 for N = 8 duplicate sets with no spread (stop at -2.99 or 6.86)"
    )
    for line, sets in zip(lines, (8, 10, 13, 17), strict=True):
        llr = f"LLR {sets / 2:.2f}, N/2 for N = {sets} duplicate sets with no spread"
        assert f"{3 * sets} games per side" in line and llr in line, line
        assert "(stop at -2.99 or 6.86)" in line and "inf" not in line, line
    assert "greedy is better than mute" in out and "4 batches, LLR 8.50, N/2 for N = 17" in out
    assert "sign test" not in out + err


def test_a_flat_batch_short_of_the_bound_ends_undecided_at_the_cap(tmp_path, capsys, never):
    code, out, _ = _gauntlet(tmp_path, capsys, never, "--alpha", "0.001", "--max-games", "24")
    assert code == 0
    assert "Undecided whether greedy is better than mute" in out, out
    assert "1 batch, LLR 4.00, N/2 for N = 8 duplicate sets with no spread" in out, out
    assert "reached --max-games" in out
    assert "is better than" not in out.replace("whether greedy is better than", "")


def test_a_default_alpha_flat_batch_still_decides_at_once(tmp_path, capsys, never):
    """8 sets all one way: N/2 = 4 reaches the default bound log(19) = 2.94 (6 sets would)."""
    assert _sets_for_better(0.05) == 6
    code, out, err = _gauntlet(tmp_path, capsys, never)
    assert code == 0
    assert [x for x in err.splitlines() if x.startswith("batch ")][0].startswith("batch 1")
    assert "greedy is better than mute" in out and "1 batch, LLR 4.00, N/2 for N = 8" in out
    assert "at most 5% of the time" in out, out


def test_two_entrants_that_play_alike_decide_nothing_and_play_on(tmp_path, capsys, never):
    """Every set +0 points: no bound on beta below half the margin (it was 'not better' at
    once on LLR -inf, said wrong at most beta of the time), so it plays on to --max-games."""
    code, out, err = _gauntlet(tmp_path, capsys, never, "--alpha", "0.001", "--max-games", "48",
                               strategy="greedy", baseline="greedy:keep_pairs=True")  # fmt: skip
    assert code == 0
    assert "Undecided whether greedy is better than greedy(keep_pairs=True)" in out, out
    assert "reached --max-games" in out and "beta" not in out, out
    batches = [x for x in err.splitlines() if x.startswith("batch ")]
    assert len(batches) > 1 and all("so the test plays on" in x for x in batches), err


def test_a_flat_batch_with_a_negative_difference_decides_nothing(tmp_path, capsys, never):
    """mute never wins and greedy, the baseline, wins every game: all sets -100 points, which
    bound no error against the margin: no decision, to --max-games."""
    code, out, _ = _gauntlet(tmp_path, capsys, never, "--alpha", "0.001", "--max-games", "48",
                             strategy=f"{never}:Mute", baseline="greedy")  # fmt: skip
    assert code == 0
    assert "Undecided whether mute is better than greedy: -100.0 percentage points" in out, out


def test_the_test_weighs_a_flat_batch_by_n_over_2():
    from tournaments.sequential import BETTER, NOT_BETTER, Sequential

    for sets, decision in ((13, None), (14, BETTER)):  # 6.5 < log(0.95 / 0.001) = 6.86 <= 7
        t = Sequential(0.01, alpha=0.001)
        assert t.update(1.0, 0.0, df=sets - 1) == decision and t.llr == sets / 2
    t = Sequential(0.01, alpha=0.001)  # a caller that weighs no sets: +inf, as before
    assert t.update(1.0, 0.0) == BETTER and t.llr == math.inf
    for sets in (1, 6, 50):  # below half the margin: no decision however many sets
        t = Sequential(0.01, alpha=0.001)
        assert t.update(-1.0, 0.0, df=sets - 1) is None and math.isnan(t.llr)
    assert Sequential(0.01, alpha=0.001).update(0.0, 0.0) is None  # no sets: the same
    spread = Sequential(0.01, alpha=0.001).update(-1.0, 0.01, df=9)
    assert spread == NOT_BETTER  # sets with spread: as ever


def test_a_flat_batch_weighed_by_n_over_2_says_no_spread_when_interrupted_too():
    """12 sets all +100 points, weighed on their 11 degrees of freedom: LLR 6.00, finite (short
    of 6.86 at alpha 0.001), so the record of a run interrupted after that batch no longer told
    no spread by an infinite LLR, and its sentence said 'too few deals for an interval'."""
    from reports.gauntlet import sequential_sentence
    from reports.numbers import NO_SPREAD_WITHIN, TOO_FEW
    from tournaments.sequential import Sequential

    test = Sequential(0.01, alpha=0.001)
    assert test.update(1.0, 0.0, df=11) is None and test.llr == 6.0
    rec = test.record(36)
    row = {"strategy": "a", "baseline": "b", "games": 36, "diff": 1.0, "diff_ci_low": math.nan,
           "diff_ci_high": math.nan, "p_value": 2 * 0.5**12, "deals": 12,
           **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip
    said = sequential_sentence({**row, "sequential_decision": "undecided"})
    assert "1 batch, LLR 6.00, N/2 for N = 12 duplicate sets with no spread, bounds" in said
    row.update(sequential_decision="running", sequential_difference=100.0, sequential_ci_low=None,
               sequential_ci_high=None, sequential_games_per_side=36)  # fmt: skip
    said = sequential_sentence(row, run="g")
    assert (
        f"+100.0 percentage points ({NO_SPREAD_WITHIN}) over 36 games per side, after batch 1"
        in said
    ), said
    assert TOO_FEW not in said


def _null_estimate(rng: np.random.Generator):
    """A paired estimate of two equally strong strategies, as the command weighs it: each set
    +1 or -1 in difference, as likely either way; no spread where all sets agree."""
    from leaves_cli.sequential import weighable

    d = np.empty(0)

    def estimate(stages: list[int]) -> dict[str, float]:
        nonlocal d
        d = np.concatenate([d, rng.choice([-1.0, 1.0], stages[-1] - d.size)])
        n, mean = d.size, float(d.mean())
        if np.all(d == d[0]):
            p = 1.0 if d[0] == 0 else 2 * 0.5**n
            r = {"diff": mean, "se": 0.0, "ci_low": math.nan, "ci_high": math.nan,
                 "p_value": p, "units": n}  # fmt: skip
        else:
            se = float(d.std(ddof=1) / math.sqrt(n))
            r = {"diff": mean, "se": se, "ci_low": mean - 2 * se, "ci_high": mean + 2 * se,
                 "p_value": 0.5, "units": n}  # fmt: skip
        return weighable(r)

    return estimate


def test_equal_strategies_are_called_better_on_no_spread_at_most_alpha_of_the_time():
    """The truth the sentence states: 'better' for two equally strong strategies at most alpha
    of the time. With 8 sets in the first batch, a flat batch (all 8 one way) alone made it
    0.5^8 = 0.39% at alpha 0.001 (83 of these 20,000 tests); the sign test then made it 0.5^10
    (16 here), on top of the alpha the batches with spread spend; N/2 for N flat sets needs 14,
    the 17 of the fourth batch, 0.5^17. (Only the flat decisions are counted here: the total is
    ``tests/test_sequential_small59.py``'s.)"""
    from tournaments.sequential import BETTER, Sequential, run_batches

    rng = np.random.default_rng(59)
    n, alpha, better = 20_000, 0.001, 0
    for _ in range(n):
        test = Sequential(1.0, alpha=alpha, beta=0.05)  # a margin of 100 points: quick tests
        _, est = run_batches([8], 40, _null_estimate(rng), test)
        better += test.decision == BETTER and est["se"] == 0
    assert better <= alpha * n + 3 * math.sqrt(alpha * n), better


@pytest.mark.parametrize("llr, flat, words", [
    (5.0, 10, "LLR 5.00, N/2 for N = 10 duplicate sets with no spread"),
    (5.0, 0, "LLR 5.00"), (0.0, 10, "LLR 0.00"),
    (math.nan, 10, "no LLR: within each table every duplicate set gave the same difference, "
                   "below half the margin, which bounds no error against the margin, so the "
                   "test plays on"),
    (-math.inf, 10, "LLR -inf, as within each table every duplicate set gave the same "
                    "difference"),
])  # fmt: skip
def test_the_llr_words_give_the_reason_of_a_flat_batch(llr, flat, words):
    from reports.gauntlet import llr_words

    assert llr_words(llr, flat) == words


# ------------------------------------------------ leaves compare of runs whose fields differ
@pytest.fixture(scope="module")
def fields(tmp_path_factory):
    """Runs of greedy, low and high with counter (A, and A2 on another seed), or with taker
    (B), at 3-player tables on the same seed."""
    from tests.helpers import cli_output

    root = tmp_path_factory.mktemp("fields")
    for name, fourth, seed in (("a", "counter", "1"), ("a2", "counter", "2"), ("b", "taker", "1")):
        code, _, err = cli_output("tournament", "greedy", "low", "high", fourth, "--players", "3",
                                  "--games", "120", "--seed", seed, "--jobs", "1", "--out",
                                  str(root / name))  # fmt: skip
        assert code == 0, err
    return root


FIELDS_DIFFER = (
    "the runs' fields differ (only in A: counter; only in B: taker), so a strategy's change "
    "from A to B may come from the players it met, not from the strategy itself"
)


def test_compare_says_when_the_runs_fields_differ(fields, capsys):
    """counter replaced by taker: greedy, low and high met other players in B, so a change of
    theirs may come from their company; the output flagged such a change as the strategy's
    own without a word on the fields."""
    code, out, _ = cli(capsys, "compare", str(fields / "a"), str(fields / "b"))
    assert code == 0
    lines = out.splitlines()
    assert lines[2] == FIELDS_DIFFER, out  # first after the runs, before any finding
    assert out.count("fields differ") == 1
    assert out.index(FIELDS_DIFFER) < out.index("Win rates in %")


def test_compare_of_runs_with_the_same_field_says_nothing_of_fields(fields, capsys):
    code, out, _ = cli(capsys, "compare", str(fields / "a"), str(fields / "a2"))
    assert code == 0 and "fields differ" not in out, out
    code, out, _ = cli(capsys, "compare", str(fields / "a"), str(fields / "a"))
    assert code == 0 and "fields differ" not in out, out


# ------------------------------------------------ leaves verify of a run's --record file
def _recorded_run(root, record):
    from tests.helpers import cli_output

    code, _, err = cli_output("tournament", "greedy", "low", "high", "--players", "3", "--games",
                              "60", "--seed", "3", "--jobs", "1", "--out", str(root / "t"),
                              "--record", str(record))  # fmt: skip
    assert code == 0, err
    return root / "t"


def test_verify_checks_the_record_file(tmp_path, capsys):
    """A truncated --record file passed 'leaves verify' ('ok: ... run complete')."""
    record = tmp_path / "games.jsonl"
    run = _recorded_run(tmp_path, record)
    code, out, _ = cli(capsys, "verify", str(run))
    assert code == 0 and f"records in {record} verified" in out, out
    lines = record.read_bytes().splitlines(keepends=True)
    assert len(lines) == 60
    record.write_bytes(b"".join(lines[:-1]))  # the last game lost
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 1
    bad = [x for x in out.splitlines() if x.startswith("bad:")]
    assert bad == [f"bad: {record}: truncated or replaced ({record.stat().st_size:,} of "
                   f"{sum(map(len, lines)):,} bytes)"], out  # fmt: skip
    assert len(err.strip().splitlines()) == 1 and str(record) in err, err
    assert f"'leaves tournament --out {run} --resume' writes it again" in err, err
    code, _, err = cli(capsys, "report", str(run), "--out", str(tmp_path / "r"))
    assert code == 0, err  # a report reads no record: it goes on


def test_the_advice_for_a_damaged_record_file_mends_it(tmp_path, capsys):
    record = tmp_path / "games.jsonl"
    run = _recorded_run(tmp_path, record)
    whole = record.read_bytes()
    record.write_bytes(whole[: len(whole) // 2])
    assert cli(capsys, "verify", str(run))[0] == 1
    assert cli(capsys, "tournament", "--out", str(run), "--resume")[0] == 0
    assert record.read_bytes() == whole
    assert cli(capsys, "verify", str(run))[0] == 0


def test_a_record_file_inside_the_run_is_checked_where_the_run_is_moved(
    tmp_path, capsys, monkeypatch
):
    run = _recorded_run(tmp_path, tmp_path / "t" / "games.jsonl")
    (tmp_path / "runs").mkdir()
    run.rename(tmp_path / "runs" / "moved")
    monkeypatch.chdir(tmp_path)  # the run named relative to here, as users name it
    moved = Path("runs") / "moved"
    code, out, _ = cli(capsys, "verify", str(moved))
    assert code == 0 and f"records in {moved / 'games.jsonl'} verified" in out, out
    (moved / "games.jsonl").write_text("")
    code, out, err = cli(capsys, "verify", str(moved))
    assert code == 1 and f"bad: {moved / 'games.jsonl'}: truncated" in out, out
    assert err.strip().endswith(f"the run's chunks ({moved / 'games.jsonl'})"), err


def test_an_older_manifest_without_the_records_checksum_verifies_as_before(tmp_path, capsys):
    import json

    record = tmp_path / "games.jsonl"
    run = _recorded_run(tmp_path, record)
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["integrity"]["record_file"]
    (run / "manifest.json").write_text(json.dumps(manifest))
    record.write_text("")  # nothing to tell it by
    code, out, _ = cli(capsys, "verify", str(run))
    assert code == 0, out
    assert out.strip().endswith(
        f"run complete; records in {record} not checked (an older version kept no checksum of them)"
    ), out


def test_a_run_without_records_says_nothing_of_them(tmp_path, capsys):
    from tests.helpers import cli_output

    run = tmp_path / "t"
    assert cli_output("tournament", "greedy", "low", "high", "--players", "3", "--games", "30",
                      "--jobs", "1", "--out", str(run))[0] == 0  # fmt: skip
    code, out, _ = cli(capsys, "verify", str(run))
    assert code == 0 and "records" not in out, out


def test_a_malformed_records_checksum_is_one_line_not_a_traceback(tmp_path, capsys):
    import json

    record = tmp_path / "games.jsonl"
    run = _recorded_run(tmp_path, record)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["integrity"]["record_file"]["entry"] = ["many", None]
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 1 and "Traceback" not in out + err
    assert [x for x in out.splitlines() if x.startswith("bad:")] == [
        f"bad: {record}: its checksum in the manifest is malformed"
    ], out
    assert len(err.strip().splitlines()) == 1, err
