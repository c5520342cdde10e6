"""The words and figures the command line writes beside the reports': a difference and its
interval read alike in a sentence and in the table beside it (signed bounds, the decimals of
``reports.numbers.apart_digits``), a half-width set against its target with the decimals that
show which side of it it lies, a p-value below the level never written as the level."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from reports.numbers import apart_digits, fixed
from tests.helpers import compared_rule_sets, load_benchmark

ROOT = Path(__file__).resolve().parents[1]
NUMBER = r"[+-]?\d+(?:\.\d+)?"


def _compare_row(**kw) -> dict:
    row = {"strategy": "x", "win_rate_a": 0.05, "ci_low_a": 0.043, "ci_high_a": 0.058,
           "win_rate_b": 0.067, "ci_low_b": 0.055, "ci_high_b": 0.08, "diff": 0.0167,
           "ci_low": 0.00036, "ci_high": 0.033, "no_spread": False, "p_value": 0.045,
           "p_holm": 0.136, "significant": False}  # fmt: skip
    return {**row, **kw}


def _printed(capsys, *rows: dict) -> str:
    from leaves_cli.compare_cmd import _print

    _print(SimpleNamespace(findings=[], table=pd.DataFrame(list(rows))))
    return capsys.readouterr().out


# --- leaves compare ---------------------------------------------------------------------------


def test_compare_s_table_writes_a_bound_clear_of_0_as_its_sentence_does(capsys):
    """B - A of +1.67 [+0.036, +3.30] percentage points read '+1.7 [+0.0, +3.3]' in the
    table beside the sentence's '+1.67 percentage points [+0.04, +3.30]'."""
    out = _printed(capsys, _compare_row())
    assert "+1.67 [+0.04, +3.30]" in out, out
    wide = _printed(capsys, _compare_row(diff=-0.004, ci_low=-0.035, ci_high=0.026))
    assert "-0.4 [-3.5, +2.6]" in wide, wide


def test_compare_s_holm_p_below_0_05_never_reads_0_05(capsys):
    """A Holm p of 0.0496, significant at 0.05, read '0.050' beside 'yes'."""
    out = _printed(capsys, _compare_row(p_holm=0.0496, significant=True))
    (line,) = [x for x in out.splitlines() if re.match(r"\W*x\W", x)]
    assert "0.0496" in line and "0.050 " not in line, line


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> str:
    """What 'leaves compare' prints of two small runs on the same deals under other rules."""
    root = tmp_path_factory.mktemp("c")
    said = compared_rule_sets(root)
    return said


def test_compare_s_sentence_and_table_row_write_the_same_figures(compared):
    m = re.search(rf"largest: (?P<who>\w+) (?P<fig>{NUMBER}) percentage points? "
                  rf"(?P<span>\[{NUMBER}, {NUMBER}\]), p [=<] \S+ before", compared)  # fmt: skip
    assert m, compared
    (line,) = [x for x in compared.splitlines() if re.match(rf"\W*{m['who']}\W", x)]
    assert f"{m['fig']} {m['span']}" in line, (m.group(0), line)


# --- leaves tournament --precision ------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "widest", "said"),
    [(1.0, 1.004, "NOT reached (cap on games): 4,000 games, widest 95% half-width 1.004 "
                  "percentage points"),
     (1.0, 0.9996, "reached: 4,000 games, widest 95% half-width 0.9996 percentage points"),
     (4.0, 3.214, "reached: 4,000 games, widest 95% half-width 3.21 percentage points"),
     (0.5, 0.5, "reached: 4,000 games, widest 95% half-width 0.50 percentage points")],
)  # fmt: skip
def test_the_precision_line_shows_which_side_of_its_target_the_width_is(target, widest, said):
    """'NOT reached ... widest 95% half-width 1.00 percentage point' against a target of 1:
    the width as written met the target it was said to miss."""
    from leaves_cli.tournament_cmd import _precision_line

    line = _precision_line(target, widest, 4000, "games")
    assert line.endswith(said), line


def test_each_precision_stage_writes_its_width_as_the_final_line(monkeypatch):
    from leaves_cli import sequential

    widths = iter([1.004, 0.9996])
    monkeypatch.setattr(sequential, "widest_half_width", lambda result: next(widths))
    monkeypatch.setattr(sequential, "_write_manifest_entry", lambda *a: None)

    def grown(stages):
        return SimpleNamespace(n_games=100 * stages[-1], units="games")

    t = SimpleNamespace(schedule=SimpleNamespace(stages=[10], seats_per_set=4),
                        with_stages=grown)  # fmt: skip
    logged: list[str] = []
    sequential.run_precision(t, Path("unused"), lambda *a: None, 1.0, 10**6, logged.append)
    assert [x.split("widest half-width ")[1] for x in logged] == [
        "1.004 percentage points", "0.9996 percentage points"]  # fmt: skip


# --- leaves gauntlet --sequential -------------------------------------------------------------


def test_a_batch_line_writes_a_bound_clear_of_0_as_clear_of_it():
    """A batch's estimate of +0.30 [+0.003, +0.60] percentage points read '[+0.00, +0.60]':
    a bound clear of 0 written 0, where the final sentence writes it so that it shows."""
    from leaves_cli.sequential import batch_line
    from tournaments.sequential import Sequential

    test = Sequential(0.01)
    r = {"diff": 0.003, "se": 0.0015, "ci_low": 0.00003, "ci_high": 0.006}
    test.update(r["diff"], r["se"])
    line = batch_line(test, 4000, r)
    assert "difference +0.300 percentage points [+0.003, +0.600], LLR" in line, line
    k = apart_digits(r["ci_low"], r["ci_high"], 2)
    assert k == 3 and fixed(100 * r["ci_low"], k, "+") == "+0.003"


# --- benchmarks/findings.py and the pages that quote the tool ---------------------------------


def test_the_findings_benchmark_signs_a_difference_s_interval():
    """'+11.0 percentage points [10.5, 11.5]' in docs/findings.md: an unsigned interval beside
    a signed difference."""
    findings = load_benchmark("findings")
    assert findings._difference(0.11, 0.105, 0.115) == "+11.0 percentage points [+10.5, +11.5]"
    assert findings._difference(0.013, 0.0003, 0.026, unit=False) == "+1.30 [+0.03, +2.60]"
    assert findings._difference(-0.015, -0.031, 0.001, unit=False) == "-1.5 [-3.1, +0.1]"


def _difference_spans(text: str) -> list[re.Match]:
    return list(re.finditer(rf"(?P<fig>{NUMBER}) percentage points? (?:[a-z ]+ )?"
                            rf"\[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\]", text))  # fmt: skip


@pytest.mark.parametrize("page", ["README.md", "docs/findings.md"])
def test_a_page_quotes_a_difference_s_interval_signed(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    spans = _difference_spans(" ".join(text.split()))
    assert spans
    for m in spans:
        assert m["lo"][0] in "+-" and m["hi"][0] in "+-", m.group(0)


def test_the_readme_says_a_difference_of_rates_in_percentage_points():
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert not re.findall(r"[+-]\d+\.\d points?\b", text)


def test_an_interrupted_precision_run_names_its_own_precision(tmp_path, capsys, monkeypatch):
    """'--precision 0.1234567' was said back as '--precision 0.123457' in the command that
    continues the run: a run continued so would stop at another width than the one asked."""
    from leaves_cli import sequential
    from tests.helpers import cli

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sequential, "run_precision", stop)
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--games", "40", "--precision",
                       "0.1234567", "--jobs", "1", "--out", str(tmp_path / "p"))  # fmt: skip
    assert code == 130, err
    (line,) = [x for x in err.splitlines() if x.startswith("interrupted:")]
    assert "--resume --precision 0.1234567'" in line, line
    _, said = line.split("--precision ")
    assert float(said.split("'")[0]) == 0.1234567


def test_a_sequential_resume_refused_counts_its_batches_in_words(monkeypatch, tmp_path):
    """'its sequential test recorded 1 batches but the run holds 3'."""
    from leaves_cli import sequential
    from leaves_cli.errors import CLIError
    from tournaments import storage

    manifest = {"spec": {"deal_stages": [10, 13, 17]}, "sequential": {"batches": 1}}
    monkeypatch.setattr(storage, "read_manifest", lambda out: manifest)
    with pytest.raises(CLIError) as exc:
        sequential._resume_point(tmp_path, 10**6)
    assert "recorded 1 batch but the run holds 3" in str(exc.value), exc.value
