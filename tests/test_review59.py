"""The advice ``leaves verify`` gives for a damaged ``--record`` file mends it from wherever
it is followed (the records' folder gone too), a malformed checksum names the file where it
lies, a game record's read-only rules still write as JSON and as a dataclass, Ligretto's
replay example names the run it replays, and no signed figure reads '-0.0'."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest

from tests.helpers import cli


def _recorded_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A run ``t`` whose --record file was named relative to the folder it was started in,
    as users name it; (run, record file)."""
    monkeypatch.chdir(tmp_path)
    from tests.helpers import cli_output

    code, _, err = cli_output("tournament", "greedy", "low", "high", "--players", "3", "--games",
                              "30", "--seed", "3", "--jobs", "1", "--out", "t",
                              "--record", "games.jsonl")  # fmt: skip
    assert code == 0, err
    return tmp_path / "t", tmp_path / "games.jsonl"


def test_the_advice_for_a_damaged_record_file_mends_it_when_followed_elsewhere(
    tmp_path, capsys, monkeypatch
):
    """Followed from another folder, the advised resume wrote the records there (the run
    names them relative to where it started), left the damaged file as it was, and verify
    then said 'ok'."""
    run, record = _recorded_run(tmp_path, monkeypatch)
    whole = record.read_bytes()
    record.write_bytes(whole[: len(whole) // 2])
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, _, err = cli(capsys, "verify", str(run))
    assert code == 1, err
    advised = re.search(r"'leaves ([^']*)' writes it again", err)
    assert advised, err
    assert cli(capsys, *shlex.split(advised.group(1)))[0] == 0
    assert record.read_bytes() == whole
    assert not (tmp_path / "elsewhere" / "games.jsonl").exists()
    assert cli(capsys, "verify", str(run))[0] == 0


def test_the_plain_resume_is_advised_where_it_writes_the_file_checked(
    tmp_path, capsys, monkeypatch
):
    run, record = _recorded_run(tmp_path, monkeypatch)
    record.write_text("")
    code, _, err = cli(capsys, "verify", "t")
    assert code == 1 and "'leaves tournament --out t --resume' writes it again" in err, err


def test_a_malformed_records_checksum_names_the_file_where_it_lies(tmp_path, capsys, monkeypatch):
    """'bad: t/games.jsonl' named a file inside the run where the records lie beside it."""
    run, record = _recorded_run(tmp_path, monkeypatch)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["integrity"]["record_file"]["entry"] = ["many", None]
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, out, _ = cli(capsys, "verify", "t")
    bad = [x for x in out.splitlines() if x.startswith("bad:")]
    assert code == 1 and len(bad) == 1, out
    named = Path(bad[0].removeprefix("bad: ").split(": its checksum")[0])
    assert named.exists() and named.samefile(record), out


def _record_with_rules():
    from leaves import Rules
    from leaves.record import GameRecord
    from leaves.state import new_game

    initial = new_game(3, seed=5, rules=Rules(take="ends"))
    return GameRecord(hands=[list(h) for h in initial.hands], first_player=0, actions=[],
                      winner=None, turns=0, rounds=0, rules={"take": "ends"})  # fmt: skip


def test_a_records_read_only_rules_still_write_as_json_and_as_a_dataclass():
    """``json.dumps(record.rules)`` and ``dataclasses.asdict(record)`` raised TypeError
    (a mappingproxy is neither JSON nor deep-copied), where a dict did before."""
    rec = _record_with_rules()
    assert json.loads(json.dumps(rec.rules)) == {"take": "ends"}
    d = dataclasses.asdict(rec)  # a copy of each field of its own type, as tuples stay tuples
    assert d["rules"] == {"take": "ends"} and d["rules"] is not rec.rules
    with pytest.raises(TypeError):
        rec.rules["take"] = "any"  # type: ignore[index]
    for change in (lambda r: r.update(take="any"), lambda r: r.pop("take"), lambda r: r.clear()):
        with pytest.raises(TypeError):
            change(rec.rules)
    assert rec.rules == {"take": "ends"}


def test_a_project_moved_whole_verifies_its_records_beside_the_run(tmp_path, capsys, monkeypatch):
    """A project moved whole (the run and its records beside it): the records are found where
    they now lie, beside the run, and verified (the folder first given is gone)."""
    (tmp_path / "proj").mkdir()
    _recorded_run(tmp_path / "proj", monkeypatch)
    (tmp_path / "proj").rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path / "moved")
    code, out, err = cli(capsys, "verify", "t")
    assert code == 0 and "records in" in out and "verified" in out, (out, err)


def test_verify_help_names_the_record_file_it_checks(capsys):
    code, out, _ = cli(capsys, "verify", "--help")
    assert code == 0 and "finished run and its --record file" in " ".join(out.split()), out


def test_the_ligretto_replay_example_names_the_run_it_replays():
    """'# round 3 of that run' stood under the example writing runs/m, and replayed runs/lig."""
    from ligretto.commands import EXAMPLES

    replays = [x for x in EXAMPLES if x.startswith("leaves replay ")]
    assert replays
    for line in replays:
        command, _, comment = line.partition("#")
        run = shlex.split(command)[2]
        assert f"of {run}," in comment, line


# --- '-0.0' left in leaves compare's table and the workbench's unclear change --------------
def test_compare_table_never_reads_minus_zero(capsys):
    """The 'B - A [95%]' cell read '-0.0 [-0.0, +0.3]' for a difference of -0.004 points."""
    from types import SimpleNamespace

    import pandas as pd

    from leaves_cli.compare_cmd import _print

    row = {"strategy": "greedy", "win_rate_a": 0.25, "ci_low_a": 0.2, "ci_high_a": 0.3,
           "win_rate_b": 0.25, "ci_low_b": 0.2, "ci_high_b": 0.3, "diff": -0.00004,
           "no_spread": False, "ci_low": -0.00003, "ci_high": 0.003, "p_holm": 0.9,
           "significant": False}  # fmt: skip
    _print(SimpleNamespace(findings=[], table=pd.DataFrame([row])))
    out = capsys.readouterr().out
    # across 0: the decimals that show each bound's side of 0 (the cell may wrap), no '-0.0'
    assert "-0.004" in out and "[-0.003, +0.300]" in out, out
    assert re.search(r"-0\.0+(?![0-9])", out) is None, out


def test_the_workbench_s_unclear_change_never_reads_minus_zero():
    import pandas as pd

    from reports.variants_text import _signed

    said = _signed(pd.Series({"diff": -0.00004, "ci_low": -0.00003, "ci_high": 0.003}))
    assert said == "-0.004 percentage points [-0.003, +0.300]", said  # its side of 0 shown


def test_no_signed_figure_is_formatted_past_the_one_rounding():
    """A signed format ('{x:+.1f}') writes '-0.0' for a difference that rounds to zero: the
    product's signed figures go through ``reports.numbers.fixed`` (two were left in compare's
    table and the workbench's sentence)."""
    root = Path(__file__).resolve().parents[1]
    signed = re.compile(r"\{[^{}]*:\+[0-9]*\.(?:[0-9]+|\{[^{}]*\})f\}")
    packages = ("reports", "leaves_cli", "leaves", "tuning", "tournaments", "strategies",
                "gamekit", "ligretto", "interop", "examples")  # fmt: skip
    found = [
        f"{path.relative_to(root)}:{n}"
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
        if path != root / "reports" / "numbers.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if signed.search(line)
    ]
    assert not found, found
