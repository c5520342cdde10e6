"""A seating design too large to list (``--seating all`` at twelve seats: 531,441 seatings a
deal) is recorded by its digest: the manifest stays small, a resume of the same run goes on,
and a run played under other seatings is still refused."""

from __future__ import annotations

import json

import pytest

from tests.helpers import cli
from tournaments import seating_record
from tournaments.seating_record import design_record, patterns, played_under

ARGS = ("tournament", "greedy", "low", "--players", "3", "--games", "12", "--seed", "1",
        "--jobs", "1", "--seating", "all")  # fmt: skip


def test_a_design_over_the_listed_most_is_kept_by_its_digest_and_tells_designs_apart():
    small = patterns([(0, 1, 1)], [[(0, 1, 1), (1, 0, 1), (1, 1, 0)]])
    assert small == {"0,1,1": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}
    assert design_record("all", small)["seatings"] == small
    big = {"0,1": [[0, 1], [1, 0]] * (seating_record.LISTED_MAX // 4 + 1)}
    record = design_record("all", big)
    assert "seatings" not in record and record["seatings_per_deal"] == {"0,1": len(big["0,1"])}
    assert played_under(record, big)
    assert not played_under(record, {"0,1": big["0,1"][::-1]})
    assert played_under({"kind": "all"}, big)  # an earlier version's record: nothing to check


def test_a_run_recorded_by_its_digest_resumes_and_refuses_other_seatings(tmp_path, capsys,
                                                                         monkeypatch):  # fmt: skip
    monkeypatch.setattr(seating_record, "LISTED_MAX", 10)
    out = tmp_path / "r"
    code, _, err = cli(capsys, *ARGS, "--out", str(out))
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    design = manifest["seating_design"]
    assert "seatings" not in design and len(design["seatings_sha256"]) == 64
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out))
    assert code == 0, err
    design["seatings_sha256"] = "0" * 64  # as if played under other seatings
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out))
    assert code == 2 and "played under other seatings" in err, err


@pytest.mark.parametrize("listed", [True, False])
def test_the_report_says_the_seatings_per_deal_either_way(tmp_path, capsys, monkeypatch,
                                                          listed):  # fmt: skip
    if not listed:
        monkeypatch.setattr(seating_record, "LISTED_MAX", 10)
    out = tmp_path / "r"
    assert cli(capsys, *ARGS, "--out", str(out))[0] == 0
    code, _, err = cli(capsys, "report", str(out), "--format", "md")
    assert code == 0, err
    page = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "- **seating**: all, " in page and " seatings per deal" in page
