"""Bad input said in one line: a strategy parameter past a float's range or longer than Python
reads, a run's manifest whose entrant file or hash is no text, a run without rows pointing to
the totals its game has, and --hints on a game whose records are text, however it is reached."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from strategies import registry
from tests.helpers import cli, cli_output, copied_run, one_error_line

HUGE = 10**400  # past a float's range (about 1.8e308)
LIG = ["--game", "ligretto", "--players", "2", "--games", "30", "--seed", "3", "--jobs", "1"]


@pytest.mark.parametrize(("game", "name", "key"), [
    ("leaves", "taker", "harm_weight"),
    ("ligretto", "stack", "speed"),
])  # fmt: skip
@pytest.mark.parametrize("sign", ["", "-"])
def test_a_whole_number_past_a_float_is_refused_naming_the_parameter(
    game, name, key, sign, tmp_path, capsys
):
    spec = f"{name}:{key}={sign}{HUGE}"
    code, _, err = cli(capsys, "tournament", "--game", game, spec, name, "--games", "4",
                       "--out", str(tmp_path / "r"))  # fmt: skip
    line = one_error_line(err)  # was: OverflowError: int too large to convert to float
    negative = "negative " if sign else ""
    assert code != 0 and line == (
        f"leaves: error: parameter {key!r} of strategy {name} expects float, got a {negative}"
        "whole number of about 401 digits (past a float's range, about 1.8e308)"
    )
    with pytest.raises(ValueError, match=f"^parameter '{key}' .*past a float's range"):
        registry.get(name, game=game, **{key: -HUGE if sign else HUGE})


def test_the_largest_whole_number_a_float_holds_is_still_taken():
    most = int(sys.float_info.max)
    assert registry.get("taker", harm_weight=most).params["harm_weight"] == sys.float_info.max


@pytest.mark.parametrize(("game", "spec", "kind"), [
    ("ligretto", "cautious:patience=", "int"),
    ("ligretto", "stack:speed=", "float"),
    ("leaves", "patient:min_hand=", "int"),
])  # fmt: skip
def test_a_number_longer_than_python_reads_is_said_so_on_a_short_line(
    game, spec, kind, tmp_path, capsys
):
    most = sys.get_int_max_str_digits()
    other = "stack" if game == "ligretto" else "low"
    code, _, err = cli(capsys, "tournament", "--game", game, spec + "7" * (most + 1), other,
                       "--games", "4", "--out", str(tmp_path / "r"))  # fmt: skip
    line = one_error_line(err)  # was: the number's 4,301 digits, quoted as text
    assert code != 0 and len(line) < 250, line
    assert f"expects {kind}, got '7777" in line
    assert line.endswith(f"... (a number of more digits than Python reads: {most:,})")


def test_text_of_digits_that_python_reads_has_no_hint_of_length(capsys):
    with pytest.raises(ValueError) as exc:
        registry.get("patient", min_hand="12")
    assert str(exc.value) == "parameter 'min_hand' of strategy patient expects int, got '12'"


MINE = '''\
from ligretto.players.builtin import StackFirst


class Mine(StackFirst, register=False):
    """StackFirst under a name of its own: a class found by its file only."""

    name = "mine"
'''


@pytest.fixture(scope="module")
def file_run(tmp_path_factory) -> Path:
    """A Ligretto run with a strategy of a file, whose manifest names the file and its hash."""
    root = tmp_path_factory.mktemp("file_run")
    (root / "mine.py").write_text(MINE)
    code, _, err = cli_output("tournament", *LIG, f"{root / 'mine.py'}:Mine", "row",
                              "--out", str(root / "run"))  # fmt: skip
    assert code == 0, err
    return root / "run"


def _entrant(key: str, value: object):
    def edit(manifest: dict) -> None:
        mine = next(e for e in manifest["spec"]["entrants"] if e["label"] == "mine")
        mine[key] = value

    return edit


@pytest.mark.parametrize(("key", "value", "said", "expected"), [
    ("file", 5, "5", "a file's path (text)"),
    ("file", ["a.py"], '["a.py"]', "a file's path (text)"),
    ("file", False, "false", "a file's path (text)"),
    ("file_sha256", 5, "5", "the file's SHA-256 (text)"),
    ("file_sha256", {"a": 1}, '{"a": 1}', "the file's SHA-256 (text)"),
    ("file", "mine\0.py", '"mine\\u0000.py"', "a path (no NUL)"),
])  # fmt: skip
def test_an_entrant_file_or_hash_that_is_no_text_is_a_corrupt_manifest(
    file_run, tmp_path, capsys, key, value, said, expected
):
    run = copied_run(file_run, tmp_path, _entrant(key, value))
    code, _, err = cli(capsys, "replay", str(run), "--game", "2", "--all")
    line = one_error_line(err)  # was: expected str, bytes or os.PathLike object, not int
    assert code == 1 and line == (  # a hash of 5 was: the file changed since the run
        f"leaves: error: corrupt manifest {run / 'manifest.json'}: mine: its {key} in the "
        f"manifest (spec.entrants) is {said}, expected {expected}"
    )


def test_a_run_whose_entrant_file_is_whole_replays_without_a_warning(file_run, capsys):
    code, out, err = cli(capsys, "replay", str(file_run), "--game", "2", "--all")
    assert code == 0 and "mine" in out and err == ""


@pytest.mark.parametrize(("game", "names", "offsets"), [
    ("ligretto", ["stack", "row"], False),
    ("leaves", ["greedy", "low", "random"], True),
])  # fmt: skip
def test_a_run_without_rows_names_the_seat_offsets_only_for_a_game_with_a_first_player(
    game, names, offsets, tmp_path, capsys
):
    import tournaments

    out = tmp_path / "r"
    players = "2" if game == "ligretto" else "3"
    code, said, err = cli(capsys, "tournament", "--game", game, *names, "--players", players,
                          "--games", "30", "--jobs", "1", "--no-rows", "--out", str(out))  # fmt: skip
    assert code == 0, err
    unit = "round" if game == "ligretto" else "game"
    reads = ".summary(), .head_to_head()" + (", .seat_offsets()" if offsets else "")
    assert (f"its totals are read by tournaments.load({str(out)!r}) ({reads})\n") in said
    code, _, err = cli(capsys, "report", str(out))
    line = one_error_line(err)
    assert code != 0 and line == (
        f"leaves: error: {out} kept no per-{unit} rows (--no-rows), which a report is made "
        f"from; its totals are read by tournaments.load({str(out)!r}) ({reads})"
    )
    assert (len(tournaments.load(out).seat_offsets()) > 0) == offsets  # what the hint names


HINTS = "--hints: no hints for Ligretto: its records are shown as lines of text\n"


@pytest.mark.parametrize("way", ["record file", "record N", "run", "run --game N"])
def test_hints_on_a_game_whose_records_are_text_are_said_none_every_way(way, tmp_path, capsys):
    run = tmp_path / "r"
    code, _, err = cli(capsys, "tournament", *LIG, "stack", "row", "--record",
                       str(run / "rec.jsonl"), "--out", str(run))  # fmt: skip
    assert code == 0, err
    target = str(run / "rec.jsonl") if way.startswith("record") else str(run)
    args = ["--game", "3"] if way.endswith("N") else []
    code, out, err = cli(capsys, "replay", target, *args, "--hints", "--all")
    assert code == 0 and err == HINTS and "round over" in out
