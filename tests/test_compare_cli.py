"""``leaves compare`` on the command line: what it prints, and bad input in one line with the
exit code docs/cli.md gives (1: a run or --out that cannot be used; 2: bad usage, runs that
cannot be compared). Label matching and ``--pair`` parsing are checked on their own too."""

from __future__ import annotations

import json
import shlex
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from reports.compare_match import NotComparable, match_labels, parse_pair
from tests.helpers import cli
from tournaments import Tournament

FOUR = ["greedy", "low", "high", "counter"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("cmpcli")
    Tournament(FOUR, players=3, games=240, seed=1).run(out=d / "a")
    Tournament(["greedy", "low", "high", "counter:threat_weight=0.5"], players=3, games=240,
               seed=1).run(out=d / "b")  # fmt: skip
    Tournament(FOUR, players=4, games=48, seed=1).run(out=d / "four")
    return d


def compare(capsys, *args) -> tuple[int, str, str]:
    return cli(capsys, "compare", *map(str, args))


def test_it_prints_the_pairing_the_findings_and_the_table_and_writes_csv(runs, capsys, tmp_path):
    code, out, err = compare(capsys, runs / "a", runs / "b", "--out", tmp_path / "o")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:2] == [f"A: {runs / 'a'}", f"B: {runs / 'b'}"]
    assert lines[3].startswith("paired: both runs dealt the same ")
    assert lines[4] == ("counter in A compared with counter(threat_weight=0.5) in B (the same "
                        "strategy, other parameters)")  # fmt: skip
    assert "Holm" in out and lines[-1] == f"table in {tmp_path / 'o' / 'compare.csv'}"
    table = pd.read_csv(tmp_path / "o" / "compare.csv")
    assert list(table.columns[:2]) == ["strategy", "win_rate_a"]
    row = table.set_index("strategy").loc["counter -> counter(threat_weight=0.5)"]
    assert (row["strategy_a"], row["strategy_b"]) == ("counter", "counter(threat_weight=0.5)")


def test_pair_names_the_pairing(runs, capsys):
    code, out, err = compare(capsys, runs / "a", runs / "b", "--pair",
                             "counter=counter(threat_weight=0.5)")  # fmt: skip
    assert code == 0, err
    assert "counter in A compared with counter(threat_weight=0.5) in B (--pair)" in out
    code, _, err = compare(capsys, runs / "a", runs / "b", "--pair", "counter")
    assert (code, err) == (2, "leaves: error: --pair expects A_LABEL=B_LABEL, got 'counter'\n")


def test_runs_that_cannot_be_compared_exit_2_in_one_line(runs, capsys):
    code, out, err = compare(capsys, runs / "a", runs / "four")
    assert code == 2 and not out
    assert err == (
        f"leaves: error: cannot compare {runs / 'a'} and {runs / 'four'}: A's games were played "
        "by 3 players, B's by 4 (a win rate depends on the table size)\n")  # fmt: skip
    code, _, err = compare(capsys, runs / "a", runs / "nothere")
    assert (code, err) == (2, f"leaves: error: run directory not found: {runs / 'nothere'}\n")


def _copy(runs: Path, tmp_path: Path) -> Path:
    run = tmp_path / "copy"
    shutil.copytree(runs / "a", run)
    return run


def test_a_truncated_part_is_one_line_naming_it(runs, capsys, tmp_path):
    run = _copy(runs, tmp_path)
    part = sorted((run / "games").rglob("*.parquet"))[0]
    size = part.stat().st_size
    part.write_bytes(part.read_bytes()[:100])
    code, out, err = compare(capsys, runs / "a", run)
    assert code == 1 and not out and err.count("\n") == 1
    assert err.startswith(f"leaves: error: {part} is bad: truncated or replaced (100 of {size:,}")
    assert "--resume" in err and "magic" not in err
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["integrity"]  # an older version's: no checksums to check against, Parquet's ends
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = compare(capsys, runs / "a", run)
    assert code == 1 and not out
    assert err == (f"leaves: error: {part} is not a whole Parquet file (truncated or corrupt): "
                   f"check the run with 'leaves verify {run}'\n")  # fmt: skip


def test_a_corrupt_manifest_exits_1_in_one_line(runs, capsys, tmp_path):
    run = _copy(runs, tmp_path)
    (run / "manifest.json").write_text('{"spec": ')
    code, out, err = compare(capsys, run, runs / "a")
    assert code == 1 and not out and err.count("\n") == 1
    assert err.startswith(
        f"leaves: error: corrupt manifest: {run / 'manifest.json'} is not valid JSON: "
    )  # report's check, which compare shares
    json.loads((runs / "a" / "manifest.json").read_text())  # the original is untouched


def test_an_unwritable_out_fails_before_comparing(runs, capsys, tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)  # a read-only folder, even for root
    code, out, err = compare(capsys, runs / "a", runs / "b", "--out", tmp_path / "ro")
    assert (code, out) == (1, "")
    assert err == (
        f"leaves: error: cannot write to {tmp_path / 'ro'}: Permission denied (in {tmp_path})\n"
    )  # the folder to be made, in its nearest parent
    monkeypatch.undo()
    afile = tmp_path / "afile"
    afile.write_text("")
    code, out, err = compare(capsys, runs / "a", runs / "b", "--out", afile / "sub")
    assert (code, out) == (1, "")
    assert (
        err
        == f"leaves: error: cannot write to {afile / 'sub'}: {afile} is not a directory (--out)\n"
    )


def test_labels_match_by_base_only_when_unambiguous():
    m, only_a, only_b = match_labels(("a", "t", "w"), ("a", "t(x=1)", "w(y=2)"))
    assert [(x.a, x.b, x.how) for x in m] == [("a", "a", "same"), ("t", "t(x=1)", "base"),
                                              ("w", "w(y=2)", "base")]  # fmt: skip
    assert only_a == only_b == []
    m, only_a, only_b = match_labels(("t", "t(x=2)"), ("t(x=1)", "t(x=3)"))  # two a side
    assert m == [] and only_a == ["t", "t(x=2)"] and only_b == ["t(x=1)", "t(x=3)"]
    m, _, _ = match_labels(("t", "t(x=2)"), ("t(x=1)", "t(x=3)"), [("t(x=2)", "t(x=3)")])
    assert [(x.a, x.b, x.how) for x in m] == [("t", "t(x=1)", "base"),
                                              ("t(x=2)", "t(x=3)", "pair")]  # fmt: skip
    with pytest.raises(NotComparable, match="already paired"):
        match_labels(("a", "b"), ("c",), [("a", "c"), ("b", "c")])


def test_a_pair_splits_at_the_equals_sign_outside_parentheses():
    assert parse_pair("taker=taker(harm_weight=0.5)") == ("taker", "taker(harm_weight=0.5)")
    assert parse_pair("t(a=1) = t(a=2)") == ("t(a=1)", "t(a=2)")
    for bad in ("taker", "=x", "t(a=1)"):
        with pytest.raises(NotComparable, match="^pairs expects A_LABEL=B_LABEL"):
            parse_pair(bad)


def _docs_example() -> tuple[list[list[str]], list[str], str]:
    """(the commands, the lines printed, the paragraph on pairing) of docs/reports.md's
    compare section."""
    text = (Path(__file__).parent.parent / "docs" / "reports.md").read_text(encoding="utf-8")
    section = text.split("## Comparing two runs (`leaves compare`)", 1)[1].split("\n## ", 1)[0]
    block = section.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    commands = [shlex.split(x[2:])[1:] for x in block if x.startswith("$ leaves ")]
    return commands, [x for x in block if not x.startswith("$ ")], " ".join(section.split())


def test_the_docs_example_is_what_it_prints(capsys, tmp_path, monkeypatch):
    commands, printed, words = _docs_example()
    monkeypatch.chdir(tmp_path)  # the example's relative runs/ folders, in a fresh folder
    for args in commands[:-1]:
        assert cli(capsys, *args, "--jobs", "1")[0] == 0
    code, out, err = cli(capsys, *commands[-1])
    assert code == 0, err
    assert out.splitlines()[: len(printed)] == printed
    t = reports.compare(tmp_path / "runs" / "a", tmp_path / "runs" / "b").table
    paired = 100 * (t["ci_high"] - t["ci_low"]) / 2
    each = np.hypot(t["ci_high_a"] - t["ci_low_a"], t["ci_high_b"] - t["ci_low_b"]) * 50
    claim = (f"the intervals of B - A above are +-{paired.min():.1f} to +-{paired.max():.1f} "
             "percentage points, where the two runs' own intervals added as independent ones (in "
             f"quadrature) would give +-{each.min():.1f} to +-{each.max():.1f}")  # fmt: skip
    assert claim in words
