"""``Tournament.run``'s ``keep``: the entries a caller keeps in the run's manifest beside the
run's own. It never overwrites nor drops one of the run's own (``session.RUN_KEYS``: a kept
"spec" or "chunks_done" would break the resume and the results), nor takes a value the
manifest, a JSON file, cannot hold; either is refused before anything is made. The list of
the run's own entries is checked against the manifests runs write."""

from __future__ import annotations

import json
import signal

import pytest

from gamekit.errors import ParameterError
from tournaments import Tournament
from tournaments.gauntlet import Gauntlet
from tournaments.run_state import PRECISION_RUN
from tournaments.session import RUN_KEYS

KEPT = {PRECISION_RUN: {"precision": 0.1, "max_games": 60}}


def _small() -> Tournament:
    return Tournament(["greedy", "low", "high"], players=3, games=12, seed=1, chunk_size=6)


def _manifest(out) -> dict:
    return json.loads((out / "manifest.json").read_text())


@pytest.mark.parametrize("key", ["spec", "chunks_done", "status", "sessions", "integrity",
                                 "record_file", "finished", "units_done"])  # fmt: skip
@pytest.mark.parametrize("value", [None, "mine"])
def test_a_kept_entry_of_the_runs_own_is_refused_before_anything_is_made(tmp_path, key, value):
    out = tmp_path / "run"
    with pytest.raises(ParameterError, match=f"keep names '{key}', an entry the run writes"):
        _small().run(out=out, keep={key: value})
    assert not out.exists()


def test_a_kept_entry_the_manifest_cannot_hold_is_refused_before_anything_is_made(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ParameterError, match=r"keep's 'mine' is no value a JSON file holds"):
        _small().run(out=out, keep={"mine": {1, 2}})
    with pytest.raises(ParameterError, match=r"keep's keys are names, got 3"):
        _small().run(out=out, keep={3: "x"})
    with pytest.raises(ParameterError, match=r"keep must map names to values, got \['mine'\]"):
        _small().run(out=out, keep=["mine"])
    assert not out.exists()


def test_a_kept_entry_is_written_and_a_resume_keeping_none_drops_it(tmp_path):
    out = tmp_path / "run"
    _small().run(out=out, keep=KEPT)
    assert _manifest(out)[PRECISION_RUN] == KEPT[PRECISION_RUN]
    _small().run(out=out, resume=True, keep={PRECISION_RUN: None})
    assert PRECISION_RUN not in _manifest(out)


def _stopped_after_one_chunk(t: Tournament, out) -> None:
    """``t`` played into ``out`` and stopped by Ctrl-C once a chunk is written."""
    from tournaments.session import RunLog  # patched for this run only

    real = RunLog.record

    def record(self, output, files):
        real(self, output, files)
        signal.raise_signal(signal.SIGINT)

    with pytest.MonkeyPatch.context() as mp, pytest.raises(KeyboardInterrupt):
        mp.setattr(RunLog, "record", record)
        t.run(out=out, keep=KEPT)


def test_the_runs_own_entries_are_every_entry_its_manifests_hold_but_the_kept(tmp_path):
    """``RUN_KEYS`` against what runs write: a new run, one finished with a record file, one
    stopped, and a gauntlet; an entry the runner writes that the list lacks fails here."""
    seen: set[str] = set()
    t = Tournament(["greedy", "low", "high"], players=3, games=12, seed=1, chunk_size=6,
                   record=tmp_path / "records.jsonl")  # fmt: skip
    t.run(out=tmp_path / "recorded", keep=KEPT)
    seen |= set(_manifest(tmp_path / "recorded"))
    _stopped_after_one_chunk(_small(), tmp_path / "stopped")
    seen |= set(_manifest(tmp_path / "stopped"))
    g = Gauntlet("greedy", ["low"], players=3, games=12, seed=1, chunk_size=6)
    g.run(out=tmp_path / "gauntlet", keep=KEPT)
    seen |= set(_manifest(tmp_path / "gauntlet"))
    assert seen - {PRECISION_RUN} == set(RUN_KEYS)
