"""Review of this stop's changes outside the runner and the command line, each defect
reproduced here and fixed, with guards for new code no test held.

- The report's ``versions changed`` named a change nothing recorded: a run that an older
  release played throughout (no session recorded its versions) and resumed once, and a run
  begun before ``leaves play`` was recorded and resumed by the same release ('leaves play 1
  (the run began with none)': the one release played both parts).
- A tuning's paired verification difference kept an interval past +-100 percentage points
  ('[-115.0, +115.0]'), where every other difference of rates is cut to them.
- ``leaves variants --format md`` on a folder holding a comparison advised the resume without
  ``--format md`` (the Ctrl-C advice keeps it); that command writes report.html.
- A tuning of a game played in rounds refused a size of the wrong type in games ('candidate_games
  takes a number of games or None'), where its other refusals count rounds.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import leaves
import strategies.provenance
from gamekit.errors import ParameterError
from reports import load_run
from reports.run_overview import overview
from tests.helpers import copied_run, usage_error
from tests.test_edge72_units import _plan  # a Ligretto tuning's plan, its strategy written
from tournaments import Tournament

NEW = "0.2.0"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of 13 Leaves: 12 games in 2 chunks, one session."""
    out = tmp_path_factory.mktemp("selfreview72") / "run"
    Tournament(["random", "greedy", "low"], players=3, games=12, seed=1, chunk_size=6).run(out=out)
    return out


def _items(out: Path) -> dict[str, str]:
    return dict(overview(load_run(out), out / "report"))


def _resumed(m: dict, versions: dict | None) -> None:
    """A second session that played 6 games more, recording ``versions`` (None: none)."""
    later = {"started": m["created"], "units_played": 6, "wall_s": 0.1}
    if versions is not None:
        later["versions"] = versions
    m["sessions"].append(later)
    m["units_done"] = 18


# ------------------------------------------------------------------ the report's versions


def test_a_run_an_older_release_played_throughout_says_no_versions_changed(run, tmp_path):
    def older_throughout(m: dict) -> None:
        for session in m["sessions"]:  # as a version before sessions recorded them wrote it
            session.pop("versions", None), session.pop("chunks", None)
        _resumed(m, None)

    items = _items(copied_run(run, tmp_path, older_throughout))
    assert "versions changed" not in items, items["versions changed"]
    assert not items["versions"].endswith("when the run began")


def test_a_release_that_records_versions_resumed_by_an_older_one_is_said_so(run, tmp_path):
    """The run began recording its sessions' versions: one that recorded none is older."""
    copy = copied_run(run, tmp_path, lambda m: _resumed(m, None))
    assert _items(copy)["versions changed"] == (
        "session 2 played 6 of 18 games with versions it did not record (an older version "
        "played it)"
    )


def test_a_version_the_run_did_not_record_is_no_change(run, tmp_path):
    def before_play_versions(m: dict) -> None:
        now = dict(m["versions"])
        m["versions"].pop("leaves play")  # recorded before play versions were
        for session in m["sessions"]:
            session.pop("versions", None), session.pop("chunks", None)
        _resumed(m, now)  # the same release, which records its play version

    items = _items(copied_run(run, tmp_path, before_play_versions))
    assert "versions changed" not in items, items["versions changed"]


def test_a_version_that_changed_beside_one_not_recorded_is_named_alone(run, tmp_path):
    def newer(m: dict) -> None:
        now = {**m["versions"], "leaves": NEW}
        m["versions"].pop("leaves play")
        m["sessions"][0]["versions"].pop("leaves play")
        _resumed(m, now)

    said = _items(copied_run(run, tmp_path, newer))["versions changed"]
    assert said.startswith(f"session 2 played 6 of 18 games with leaves {NEW} (the run began ")
    assert said.count("(the run began with") == 1, said


def test_a_resumed_match_run_counts_its_sessions_in_matches(tmp_path, monkeypatch):
    """``version_items`` is given the run's unit: matches for an expert run (no test held it)."""
    out = tmp_path / "m"

    def matches(stages: list[int] | None = None) -> Tournament:
        t = Tournament(["random", "greedy", "low"], players=3, games=6, seed=1, chunk_size=3,
                       expert=True)  # fmt: skip
        return t if stages is None else t.with_stages(stages)

    first = matches()
    first.run(out=out)
    monkeypatch.setattr(leaves, "__version__", NEW)
    monkeypatch.setattr(strategies.provenance, "_package_version", lambda _: f"leaves {NEW}")
    deals = first.schedule.stages[0]
    matches([deals, 2 * deals]).run(out=out, resume=True)
    m = json.loads((out / "manifest.json").read_text())
    played, total = m["sessions"][1]["units_played"], m["units_done"]
    assert _items(out)["versions changed"].startswith(
        f"session 2 played {played:,} of {total:,} matches with leaves {NEW} "
    )


# ------------------------------------------------------------------ the tuning's verification


class _Arm:
    """A verification arm's result, as ``tuning.verify.compare`` reads one (its games given)."""

    spec: dict = {}

    def __init__(self, won: list[int]):
        n = len(won)
        self.frame = pd.DataFrame({"key": [f"{d}|x" for d in range(n)], "deal": np.arange(n),
                                   "table": np.zeros(n, np.int64), "won": np.array(won, bool)})  # fmt: skip


def test_the_verifications_difference_stays_within_a_hundred_points(monkeypatch):
    import tuning.verify as verify

    tuned, start = _Arm([1, 1, 1, 0, 0, 0]), _Arm([0, 0, 0, 1, 1, 1])
    monkeypatch.setattr(verify, "_games", lambda result, label: result.frame)
    monkeypatch.setattr(verify, "unfinished_clause", lambda results: "")
    v = verify.compare(("a", "a", tuned), ("b", "b", start), seed=1)
    assert np.isfinite(v.diff_low), "6 deals give an interval"
    assert -1 <= v.diff_low <= v.diff <= v.diff_high <= 1, (v.diff_low, v.diff_high)
    assert v.difference() == "+0.0 percentage points [-100.0, +100.0]"


# ------------------------------------------------------------------ variants' advice


def test_a_markdown_comparison_on_a_folder_holding_one_is_advised_its_format(capsys, tmp_path):
    out = tmp_path / "v"
    out.mkdir()
    (out / "variants.json").write_text("{}")  # a comparison's state: all check_out looks at
    line = usage_error(capsys, ["variants", "--rules", "take=ends", "--games", "24", "--out",
                                str(out), "--format", "md"])  # fmt: skip
    assert line == (f"leaves: error: --out {out} holds a comparison: 'leaves variants --out "
                    f"{out} --resume --format md' continues it, or choose another --out")  # fmt: skip


def test_an_html_comparison_on_a_folder_holding_one_is_advised_as_before(capsys, tmp_path):
    out = tmp_path / "v"
    out.mkdir()
    (out / "variants.json").write_text("{}")
    line = usage_error(capsys, ["variants", "--rules", "take=ends", "--games", "24", "--out",
                                str(out)])  # fmt: skip
    assert line.endswith(f"'leaves variants --out {out} --resume' continues it, or choose "
                         "another --out")  # fmt: skip


# ------------------------------------------------------------------ a tuning in rounds


@pytest.mark.parametrize(
    ("budget", "opts"),
    [("x", {}), (1000, {"candidate_games": "x"}), (1000, {"verify_games": 1.5})],
)
def test_a_tuning_in_rounds_refuses_a_size_of_the_wrong_type_in_rounds(tmp_path, budget, opts):
    with pytest.raises((TypeError, ParameterError)) as exc:
        _plan(tmp_path, budget, **opts)
    assert " rounds" in str(exc.value) and " games" not in str(exc.value), str(exc.value)
