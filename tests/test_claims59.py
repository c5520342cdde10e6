"""Three printed claims that were not always true: a sequential gauntlet's "better" after a
batch with no spread, ``leaves compare`` of two runs whose fields differ, and ``leaves verify``
of a run whose game records it did not check."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import cli

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


def test_a_flat_batch_is_better_only_once_the_sign_test_says_so(tmp_path, capsys, never):
    """greedy wins every game, mute none: 8 sets all +100 points. The LLR is +inf, and it
    said 'better ... at most 0.1% of the time (alpha)' after that batch, where 8 sets all one
    way happen for two equally strong strategies 0.5^8 = 0.39% of the time. 10 sets (batch 2)
    give 0.5^10 = 0.098%: better then."""
    code, out, err = _gauntlet(tmp_path, capsys, never, "--alpha", "0.001")
    assert code == 0
    first, second = [x for x in err.splitlines() if x.startswith("batch ")]
    assert first.startswith("batch 1: 24 games per side") and "+inf" in first
    assert "8 duplicate sets all one way" in first and "0.5^8 = 0.0039, above alpha 0.001" in first
    assert second.startswith("batch 2: 30 games per side") and "sign test" not in second
    assert "greedy is better than mute" in out and "2 batches" in out, out
    assert "0.5^10 = 0.00098, at most alpha 0.001" in out, out


def test_a_flat_batch_the_sign_test_does_not_carry_ends_undecided_at_the_cap(
    tmp_path, capsys, never
):
    code, out, _ = _gauntlet(tmp_path, capsys, never, "--alpha", "0.001", "--max-games", "24")
    assert code == 0
    assert "Undecided whether greedy is better than mute" in out, out
    assert "reached --max-games" in out and "0.5^8 = 0.0039, above alpha 0.001" in out, out
    assert "is better than" not in out.replace("whether greedy is better than", "")


def test_a_default_alpha_flat_batch_still_decides_at_once(tmp_path, capsys, never):
    """8 sets all one way: 0.5^8 = 0.0039, within the default alpha of 0.05."""
    code, out, err = _gauntlet(tmp_path, capsys, never)
    assert code == 0
    assert [x for x in err.splitlines() if x.startswith("batch ")][0].startswith("batch 1")
    assert "greedy is better than mute" in out and "1 batch," in out, out
    assert "0.5^8 = 0.0039, at most alpha 0.05" in out and "at most 5% of the time" in out


def test_a_strategy_against_itself_is_still_not_better_at_once(tmp_path, capsys, never):
    """The documented case: every set +0 points, LLR -inf, 'not better' after batch 1."""
    code, out, _ = _gauntlet(tmp_path, capsys, never, "--alpha", "0.001", strategy="greedy",
                             baseline="greedy")  # fmt: skip
    assert code == 0
    assert "greedy is not 1 point better than greedy (baseline)" in out, out
    assert "1 batch, LLR -inf" in out and "sign test" not in out


def test_a_flat_batch_with_a_negative_difference_is_not_better_at_once(tmp_path, capsys, never):
    """mute never wins and greedy, the baseline, wins every game: all sets -100 points."""
    code, out, _ = _gauntlet(
        tmp_path, capsys, never, "--alpha", "0.001", strategy=f"{never}:Mute", baseline="greedy"
    )
    assert code == 0
    assert "mute is not 1 point better than greedy" in out and "1 batch, LLR -inf" in out, out


def test_the_test_weighs_a_flat_batch_by_the_sign_test():
    from tournaments.sequential import BETTER, NOT_BETTER, Sequential

    for sets, decision in ((9, None), (10, BETTER)):  # 0.5^9 > 0.001 >= 0.5^10
        t = Sequential(0.01, alpha=0.001)
        assert t.update(1.0, 0.0, flat_sets=sets) == decision and t.llr == math.inf
    assert Sequential(0.01, alpha=0.001).update(-1.0, 0.0, flat_sets=1) == NOT_BETTER
    assert Sequential(0.01, alpha=0.001).update(0.0, 0.0, flat_sets=1) == NOT_BETTER


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
    0.5^8 = 0.39% at alpha 0.001 (83 of these 20,000 tests); now 0.5^10 (16 here), as a flat
    batch waits for the 10 sets of the next batch. (Only the flat decisions are counted: on 8
    sets of +-1 the normal approximation of the rest is no guide.)"""
    from tournaments.sequential import BETTER, Sequential, run_batches

    rng = np.random.default_rng(59)
    n, alpha, better = 20_000, 0.001, 0
    for _ in range(n):
        test = Sequential(1.0, alpha=alpha, beta=0.05)  # a margin of 100 points: quick tests
        _, est = run_batches([8], 40, _null_estimate(rng), test)
        better += test.decision == BETTER and est["se"] == 0
    assert better <= alpha * n + 3 * math.sqrt(alpha * n), better


@pytest.mark.parametrize("sets", [8, 20])
def test_the_sign_words_state_the_chance(sets):
    from reports.gauntlet import sign_words

    text = sign_words(sets, 0.05)
    assert f"{sets} duplicate sets all one way" in text and f"0.5^{sets} = {0.5**sets:.2g}" in text


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
    assert out.index(FIELDS_DIFFER) < out.index("Win rates (points")


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
