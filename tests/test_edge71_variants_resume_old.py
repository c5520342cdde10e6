"""A comparison of rule variants resumed as it should be: a restricted-play file an earlier
version wrote (no base_finished / restricted_finished) is recomputed, not kept (the resumed
report said a turn limit "costs it 20.0 pp ... 60.0 pp less [46.0, 74.0]" where a fresh one
saw no clear difference); a variants.json made again from its runs is saved where no
designers' measures are recorded (it stayed missing, and a plain resume then failed); and a
rule set's corrupt manifest is refused with what to do, once (it gave no advice)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from leaves.commands.variants_resume import STATE, designer_earlier, designer_kept, record_designer
from leaves_cli.errors import CLIError
from reports.designer_measures import FINISHED, RESTRICTED_FILE
from tests.variants_comparison import run
from tournaments import Tournament, storage

EARLIER = " of an earlier version recomputed"
ADVICE = storage.NO_MANIFEST.replace("{out}", "--out")


def _restricted(where: Path, finished: bool) -> None:
    """A restricted file in ``where``, of this version (``finished``) or an earlier one's."""
    row = {"game": 0, "table": 0, "deal": 0, "n_players": 3, "restriction": "single",
           "meaning": "never plays more than one card at a time", "strategy": "weighted",
           "base_win": 1.0, "restricted_win": 0.0, "base_finished": 1.0,
           "restricted_finished": 1.0}  # fmt: skip
    df = pd.DataFrame([row])
    (df if finished else df.drop(columns=list(FINISHED))).to_csv(
        where / RESTRICTED_FILE, index=False
    )


@pytest.mark.parametrize("finished", [True, False])
def test_a_restricted_file_of_an_earlier_version_is_not_kept(tmp_path, finished):
    where = tmp_path / "turn_limit=25"
    where.mkdir()
    (where / storage.MANIFEST).write_text(json.dumps({"integrity": {"chunks": {}}}))
    _restricted(where, finished)
    state = {"format": 1, "options": {}, "designer": {}}
    record_designer(tmp_path, state, where)  # its checksums and its run's, as recorded
    assert designer_kept(state, where) is finished
    assert designer_earlier(state, where) == ("" if finished else EARLIER)


def _findings(out: Path) -> str:
    return (out / "findings.txt").read_text()


@pytest.mark.slow
def test_a_comparison_begun_by_an_earlier_version_resumes_to_the_fresh_report(tmp_path):
    out = tmp_path / "ov3"
    code, text = run(["variants", "weighted", "greedy", "low", "--rules", "turn_limit=25",
                      "--players", "3", "--games", "240", "--seed", "1", "--jobs", "1",
                      "--trace-games", "30", "--restricted-games", "60", "--no-progress",
                      "--out", str(out)])  # fmt: skip
    assert code == 0, text
    fresh = _findings(out)
    state = json.loads((out / STATE).read_text())
    for name in ("default", "turn_limit=25"):  # as the earlier version wrote and recorded them
        path = out / name / RESTRICTED_FILE
        pd.read_csv(path).drop(columns=list(FINISHED)).to_csv(path, index=False)
        record_designer(out, state, out / name)
    code, text = run(["variants", "--resume", "--out", str(out), "--jobs", "1"])
    assert code == 0, text
    assert f"turn_limit=25: designers' measures{EARLIER}: " in text
    assert _findings(out) == fresh  # over the finished games, as a fresh comparison counts


@pytest.mark.slow
def test_a_state_made_again_is_saved_where_no_designers_measures_are(tmp_path):
    out = tmp_path / "v1b"
    args = ["random", "low", "--rules", "hand_size=9", "--players", "3", "--games", "60",
            "--jobs", "1", "--trace-games", "0", "--restricted-games", "0", "--no-progress"]  # fmt: skip
    assert run(["variants", *args, "--seed", "1", "--out", str(out)])[0] == 0
    (out / STATE).unlink()
    code, text = run(["variants", *args, "--resume", "--out", str(out)])
    assert code == 0, text
    assert json.loads((out / STATE).read_text())["options"]["seed"] == 1
    code, text = run(["variants", "--resume", "--out", str(out), "--jobs", "1"])
    assert code == 0, text  # nothing given again: it reads the state saved
    manifest = json.loads((out / "hand_size=9" / storage.MANIFEST).read_text())
    del manifest["spec"]["seed"]
    (out / "hand_size=9" / storage.MANIFEST).write_text(json.dumps(manifest))
    code, text = run(["variants", "--resume", "--out", str(out), "--jobs", "1"])
    line = text.strip().splitlines()[-1]
    assert code == 1 and line.startswith(f"leaves: error: cannot resume {out / 'hand_size=9'}: ")
    assert line.endswith(f"spec.seed is missing, expected a whole number of at least 0; {ADVICE}")


def test_a_corrupt_manifest_resumed_by_the_library_says_what_to_do_once(tmp_path):
    out = tmp_path / "run"
    t = Tournament(["random", "low", "greedy"], players=3, games=6, seed=1)
    t.run(out=out, n_jobs=1)
    manifest = json.loads((out / storage.MANIFEST).read_text())
    del manifest["spec"]["seed"]
    (out / storage.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ValueError) as exc:
        t.run(out=out, resume=True, n_jobs=1)
    said = CLIError.of(exc.value).message  # as a variants comparison's resume says it
    assert said.endswith(f"spec.seed is missing, expected a whole number of at least 0; {ADVICE}")
    assert said.count("cannot be resumed") == 1
