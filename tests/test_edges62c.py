"""Edges found in stop 62's review: a damaged game declaration is refused when the manifest is
read (not after a resume verified its chunks); ``play_seatings`` refuses a mapping of tables;
the tuning's wide-interval warning writes its half-width on its side of the limit; a report
of a runner's run whose manifest lost its spec names the corrupt manifest."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers import cli, one_error_line


def _run(capsys, out, *game: str) -> dict:
    code, _, err = cli(capsys, "tournament", *game, "--games", "20", "--seed", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    return json.loads((out / "manifest.json").read_text())


def _damage(out, change) -> None:
    m = json.loads((out / "manifest.json").read_text())
    change(m)
    (out / "manifest.json").write_text(json.dumps(m))


def _unit_5(m: dict) -> None:
    m["game_declaration"]["unit"] = 5


def test_verify_refuses_a_damaged_game_declaration(tmp_path, capsys):
    """``leaves verify`` said 'ok: 5 of 5 chunks verified' of a declaration whose unit was 5."""
    out = tmp_path / "R"
    _run(capsys, out, "greedy", "random", "--players", "4")
    _damage(out, _unit_5)
    code, _, err = cli(capsys, "verify", str(out))
    line = one_error_line(err)
    assert code != 0 and "the game declaration's unit is 5, expected text" in line


def test_resume_refuses_a_damaged_game_declaration_before_verifying(tmp_path, capsys):
    """A resume printed 'resume: 5 of 5 chunks verified' before refusing the declaration."""
    out = tmp_path / "R"
    _run(capsys, out, "greedy", "random", "--players", "4")
    _damage(out, _unit_5)
    code, so, err = cli(capsys, "tournament", "--out", str(out), "--resume")
    assert code != 0 and "verified" not in so + err
    assert "the game declaration's unit is 5" in one_error_line(err)


def test_a_declaration_without_a_newer_key_is_still_read(tmp_path, capsys):
    """An older run's declaration lacks fields declared since (the report takes them from the
    installed game): the check asks each present field its kind, never a missing one."""
    from tournaments.manifest_fields import check_manifest

    out = tmp_path / "R"
    _run(capsys, out, "greedy", "random", "--players", "4")
    _damage(out, lambda m: m["game_declaration"].pop("match_label"))
    check_manifest(json.loads((out / "manifest.json").read_text()))
    code, _, err = cli(capsys, "verify", str(out))
    assert code == 0, err


def test_play_seatings_refuses_a_mapping_of_tables():
    """A dict of tables was gone through by its keys: 'tables[0] must be a list ..., got 0'."""
    from leaves.players.batch import play_seatings

    one = np.arange(1, dtype=np.uint64)
    with pytest.raises(TypeError, match="^tables must be a list of tables") as info:
        play_seatings({0: ["greedy"] * 4}, [0], one, one + 1)
    assert "\n" not in str(info.value) and "tables[0]" not in str(info.value)


@pytest.mark.parametrize("width", [0.05004, 0.050000001, 0.0504])
def test_the_wide_interval_warning_reads_over_the_limit(width):
    """A half-width of 5.004 points was written '+/-5.0' beside the warning that it is wide
    (over 5): the figure reads on its side of the limit."""
    from tuning.tune import WIDE_VERIFY, _warnings
    from tuning.verify import Arm, Verification

    assert width > WIDE_VERIFY
    arm = Arm("taker", "taker", 400, 200, 0.5, 0.45, 0.55)
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.0, diff_low=-width,
                     diff_high=width, p_value=1.0, units=100, games_differing=50)  # fmt: skip
    (line,) = _warnings(v, False, ["x"])
    shown = line.split("+/-")[1].split(" ")[0]
    assert float(shown) > 100 * WIDE_VERIFY and shown != "5.0", line


def test_load_run_names_the_corrupt_manifest_of_a_runners_run(tmp_path, capsys):
    """A runner's run (its chunks/) whose manifest is {"a": 1} was read as another tool's: the
    error said the games lacked 13 Leaves' columns (the default game's), not the manifest."""
    import reports
    from reports.data import ReportError

    out = tmp_path / "R"
    _run(capsys, out, "--game", "ligretto", "stack", "row", "--players", "2")
    (out / "manifest.json").write_text('{"a": 1}')
    with pytest.raises(ReportError, match="corrupt manifest .*spec is missing") as info:
        reports.load_run(out)
    assert "pinned column" not in str(info.value)


def test_the_runners_folder_rule_is_one():
    """``leaves report`` and ``reports.load_run`` read a runner's folder by one rule."""
    from leaves_cli import report_cmd
    from reports import loading

    assert not hasattr(report_cmd, "_runners")
    from tournaments.storage import written_by_runner

    assert loading.written_by_runner is written_by_runner
