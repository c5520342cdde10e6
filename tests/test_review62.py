"""Review of the API and damaged runs: valid seeds refused, manifest fields read unchecked."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from leaves.players.batch import play_batch, play_seatings

from .helpers import cli

TABLE = ["greedy", "random", "greedy", "random"]


@pytest.mark.parametrize("seeds", [[2**63, 1], [2**64 - 1, 2]])
def test_a_list_of_seeds_past_int64_plays_as_their_uint64_array(seeds):
    """numpy reads a list of Python ints, one past int64 beside a small one, as float64:
    whole seeds in the kernels' range were refused as not integers ("got dtype float64")."""
    as_array = np.array(seeds, np.uint64)
    got = play_batch(TABLE, seeds, [5, 6])
    want = play_batch(TABLE, as_array, [5, 6])
    assert got.turns.tolist() == want.turns.tolist()
    assert got.winner_seat.tolist() == want.winner_seat.tolist()
    seated = play_seatings([TABLE], [0, 0], [7, 8], seeds)
    assert seated.turns.tolist() == play_seatings([TABLE], [0, 0], [7, 8], as_array).turns.tolist()


def test_a_list_of_fractional_seeds_names_the_item():
    with pytest.raises(TypeError, match=r"^deal_seeds\[0\] must be a whole number 0 to 2\*\*64"):
        play_batch(TABLE, [1.5, 2], [5, 6])


@pytest.mark.parametrize("part", ["x", ["chunks"], 5])
def test_a_resume_of_a_manifest_whose_checksums_are_no_table_says_so(tmp_path, capsys, part):
    """``integrity`` that is no table (verify: 'its checksums (integrity) are malformed ...
    --resume replays them'): the resume failed with "AttributeError: 'str' object has no
    attribute 'get'" where it looked for the records' entry."""
    from tournaments.verify import Verification, check_record_file, record_location

    out, record = tmp_path / "run", tmp_path / "games.jsonl"
    args = ["greedy", "random", "--games", "80", "--seed", "3", "--out", str(out)]
    assert cli(capsys, "tournament", *args, "--record", str(record))[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["integrity"] = part
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert record_location(out, manifest) is None
    check_record_file(out, manifest, found := Verification(out, complete=True))
    assert found.record is None and found.record_unchecked == Path(manifest["record_file"])
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out))
    assert code == 0 and "Error" not in err, err


@pytest.fixture(scope="module")
def sequential_run(tmp_path_factory):
    from .helpers import cli_output

    out = tmp_path_factory.mktemp("sequential") / "run"
    args = ["--sequential", "--margin", "20", "--games", "200", "--max-games", "400"]
    code, _, err = cli_output("gauntlet", "greedy", "--against", "random", "--players", "3",
                              *args, "--seed", "2", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"batches": "x"}, "sequential.batches is 'x', expected a whole number of at least 0"),
        ({"batches": None}, "sequential.batches is None, expected a whole number of at least 0"),
        ({"llr": "x"}, 'sequential.llr is \'x\', expected a number, "inf", "-inf" or null'),
        ({"lower": None}, "sequential.lower is None, expected a number"),
        ({"finished": "no"}, "sequential.finished is 'no', expected true or false"),
        (None, "sequential.batches is missing, expected a whole number of at least 0"),
        ("x", "sequential is 'x', expected a table (the sequential test's record)"),
    ],
)
def test_a_sequential_gauntlets_damaged_test_record_is_named(
    sequential_run, tmp_path, capsys, edit, said
):
    """The manifest's ``sequential`` (the test's record) was read unchecked: 'invalid literal
    for int() with base 10: 'x'', "'batches'" or 'could not convert string to float' from
    ``leaves report`` and ``leaves gauntlet --resume``, and ``leaves verify`` said ok."""
    import shutil

    from .helpers import one_error_line

    run = tmp_path / "run"
    shutil.copytree(sequential_run, run)
    manifest = json.loads((run / "manifest.json").read_text())
    record = manifest["sequential"]
    if edit is None:
        del record["batches"]
    elif isinstance(edit, dict):
        record.update(edit)
    else:
        manifest["sequential"] = edit
    (run / "manifest.json").write_text(json.dumps(manifest))
    for args in (["report", str(run), "--out", str(tmp_path / "page")], ["verify", str(run)],
                 ["gauntlet", "--resume", "--out", str(run)]):  # fmt: skip
        code, _, err = cli(capsys, *args)
        line = one_error_line(err)
        assert (
            code == 1
            and f"corrupt manifest {run / 'manifest.json'}: {said}" in line
            or (args[0] == "verify" and f"the manifest of {run} cannot be used: {said}" in line)
        ), (args, line)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from .helpers import cli_output

    out = tmp_path_factory.mktemp("small") / "run"
    code, _, err = cli_output("tournament", "greedy", "random", "--games", "80", "--seed", "3",
                              "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("unit", 5, "the game declaration's unit is 5, expected text"),
        (
            "higher_is_better",
            "false",
            "the game declaration's higher_is_better is 'false', expected true or false",
        ),  # fmt: skip
        (
            "seat_columns",
            "x",
            "the game declaration's seat_columns is 'x', expected a list of column names",
        ),  # fmt: skip
        (
            "max_players",
            "6",
            "the game declaration's max_players is '6', expected a whole number",
        ),  # fmt: skip
    ],
)
def test_a_game_declaration_of_the_wrong_kind_is_named(small_run, tmp_path, capsys, key, value,
                                                       said):  # fmt: skip
    """The declaration's fields were converted unchecked: a unit of 5 stopped the report with
    "object of type 'int' has no len()", and higher_is_better "false" read as true (bool of
    text), every rank the other way round."""
    import shutil

    from tournaments.declaration import Declaration

    from .helpers import one_error_line

    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["game_declaration"][key] = value
    with pytest.raises(ValueError, match=f"^{said}$"):
        Declaration.from_dict(manifest["game_declaration"])
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "report", str(run), "--out", str(tmp_path / "page"))
    assert code == 1 and said in one_error_line(err), err


@pytest.mark.parametrize("entrant", [{}, {"label": 5}, "greedy"])
def test_an_entrant_without_its_label_is_named(small_run, tmp_path, capsys, entrant):
    """``leaves replay RUN`` said only "'label'" (a KeyError) of an entrant without one."""
    import shutil

    from .helpers import one_error_line

    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["spec"]["entrants"][0] = entrant
    (run / "manifest.json").write_text(json.dumps(manifest))
    said = "spec.entrants is [" + repr(entrant)
    for args in (["replay", str(run), "--game", "1"], ["verify", str(run)]):
        code, _, err = cli(capsys, *args)
        line = one_error_line(err)
        assert code == 1 and said in line, line
        assert "expected a list of tables (one per strategy, each with its label)" in line
