"""A damaged manifest read alike by every command that opens a run: ``leaves verify`` advises
what a resume then does, ``leaves replay`` finds the run's game as a resume does
(``game_spec``), a field a resume cannot do without is said missing, and a game setting of
the wrong kind is named with its field and file, never in Python's words."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from leaves_cli.verify_cmd import NO_MANIFEST
from tests.helpers import cli, copied_run, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament, storage
from tournaments.game import GameOption
from tournaments.verify import verify_run

ADVICE = storage.NO_MANIFEST.replace("{out}", "out")
"""What the library's refusal to resume a corrupt manifest advises (``NO_MANIFEST``'s words,
its run folder named by its parameter)."""

STRATEGIES = ["a", "p1", "p2"]
TOY = dict(players=3, games=120, seed=3, chunk_size=30)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks)."""
    out = tmp_path_factory.mktemp("resume64") / "run"
    Tournament(STRATEGIES, game=ToyGame(), **TOY).run(out=out)
    return out


def _advised(line: str) -> list[str]:
    """The ``leaves ...`` command a line advises (between single quotes), as arguments."""
    start = line.index("'leaves ") + 1
    return shlex.split(line[start : line.index("'", start)])[1:]


# ------------------------------------------------------------------ verify says what a resume does


def _key(key: str, copy_of: str | None):
    def edit(m: dict) -> None:
        chunks = m["integrity"]["chunks"]
        chunks[key] = dict(chunks[copy_of]) if copy_of else {}

    return edit


@pytest.mark.parametrize("key, copy_of", [("03", "3"), ("abc", None), ("7", "0")])
def test_verify_says_a_resume_drops_an_entry_naming_no_chunk_and_the_resume_does(
    run, tmp_path, capsys, monkeypatch, key, copy_of
):
    """A chunk key that is no chunk number, or a chunk the run does not have: verify advised
    the resume 'replays them'; the resume drops the entry and plays nothing again."""
    monkeypatch.setenv("COLUMNS", "400")
    bad = copied_run(run, tmp_path, _key(key, copy_of))
    code, _, err = cli(capsys, "verify", str(bad))
    line = one_error_line(err)
    assert code == 1 and line.endswith(
        f"'leaves tournament --out {bad} --resume' drops the bad entry from the manifest"
    )
    code, out, err = cli(capsys, *_advised(line), "--jobs", "1", "--no-progress")
    assert code == 0, err
    said = next(s for s in (out + err).splitlines() if s.startswith("resume: "))
    assert said.startswith("resume: 4 of 4 chunks verified, 0 replayed")
    assert "dropped from the manifest" in said
    assert key not in storage.read_manifest(bad)["integrity"]["chunks"]
    assert cli(capsys, "verify", str(bad))[0] == 0


def test_verify_names_both_what_a_resume_replays_and_what_it_drops(
    run, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "400")

    def two_faults(m: dict) -> None:
        m["integrity"]["chunks"]["2"] = "junk"
        m["integrity"]["chunks"]["x"] = {}

    bad = copied_run(run, tmp_path, two_faults)
    code, _, err = cli(capsys, "verify", str(bad))
    line = one_error_line(err)
    assert code == 1 and line.endswith(
        f"'leaves tournament --out {bad} --resume' replays it and drops the bad entry from "
        "the manifest"
    )
    code, out, err = cli(capsys, *_advised(line), "--jobs", "1", "--no-progress")
    assert code == 0, err
    said = out + err
    assert ", 1 replayed" in said and "dropped from the manifest" in said
    assert verify_run(bad).ok


# ------------------------------------------------------------------ replay finds the game as resume does


class ShownToy(ToyGame):
    """The toy game, not installed (``module:Class`` only), its records shown as lines, with
    a setting declared as a whole number."""

    options = (GameOption("max_length", int, "The longest game."),)

    def replay_lines(self, record: str) -> list[str]:
        return [record]


SHOWN = f"{__name__}:ShownToy"


@pytest.fixture(scope="module")
def shown_run(tmp_path_factory) -> Path:
    """A run of a game given as ``module:Class``: its spec names the game's id ("toy"), which
    no installed game has; its ``game_spec`` says how it loads."""
    out = tmp_path_factory.mktemp("resume64") / "shown"
    Tournament(STRATEGIES, game=ShownToy(), **TOY).run(out=out)
    manifest = storage.read_manifest(out)
    assert (manifest["spec"]["game"], manifest["game_spec"]) == ("toy", SHOWN)
    return out


@pytest.mark.parametrize("which", [[], ["--game", "7"]])
def test_replay_loads_a_module_class_game_from_game_spec_as_resume_does(shown_run, capsys, which):
    """It loaded ``spec.game`` alone: 'names a game this installation cannot load: unknown
    game 'toy''; a resume of the same run loads it by its ``game_spec``."""
    code, out, err = cli(capsys, "replay", str(shown_run), *which, "--all")
    assert code == 0, err
    unit = 7 if which else 0
    assert out.startswith(f"Game {unit} of run {shown_run}, replayed from its seeds\n")
    code, _, err = cli(capsys, "tournament", "--out", str(shown_run), "--resume", "--jobs", "1")
    assert code == 0, err


# ------------------------------------------------------------------ a spec that names no game


def _no_game(m: dict) -> None:
    m["spec"].pop("game")
    m["status"] = "interrupted"


MISSING = "spec.game is missing, expected a game id"


def test_a_spec_naming_no_game_is_said_missing_by_every_command(shown_run, tmp_path, capsys):
    """The library refused it as 'differs in game' while the command line's resume read the
    current game (and then failed to load 'toy' or made another game); replay and verify
    read it too, each its own way."""
    bad = copied_run(shown_run, tmp_path, _no_game)
    path = bad / "manifest.json"
    with pytest.raises(ValueError) as exc:
        Tournament(STRATEGIES, game=ShownToy(), **TOY).run(out=bad, resume=True)
    said = f"cannot resume {bad}: corrupt manifest {path}: {MISSING}"
    assert str(exc.value) == f"{said}; {ADVICE}"  # the advice once, in the library's words
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume", "--game", SHOWN)
    assert code == 1
    assert one_error_line(err) == f"leaves: error: {said}; {NO_MANIFEST}"
    code, _, err = cli(capsys, "replay", str(bad), "--all")
    assert code == 1
    assert one_error_line(err) == f"leaves: error: corrupt manifest {path}: {MISSING}"
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 1 and out == f"bad: {path}: {MISSING}\n"
    assert one_error_line(err).startswith(
        f"leaves: error: a resume refuses the manifest of {bad}: {MISSING}; the run cannot be "
        "resumed or grown without it"
    )


def test_a_gauntlet_spec_missing_a_field_a_resume_reads_is_said_missing(tmp_path, capsys):
    """It said "leaves: error: 'players'" (a KeyError's words)."""
    out = tmp_path / "g"
    args = ["a", "--against", "p1", "--baseline", "p2", "--game", SHOWN, "--players", "3",
            "--games", "12", "--seed", "0", "--no-progress", "--out", str(out)]  # fmt: skip
    assert cli(capsys, "gauntlet", *args)[0] == 0
    bad = copied_run(out, tmp_path, lambda m: m["spec"].pop("players"))
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(bad))
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {bad / 'manifest.json'}: "
        "spec.players is missing, expected a list of player counts (whole numbers); "
        f"{NO_MANIFEST}"
    )


# ------------------------------------------------------------------ a setting of the wrong kind


def _setting(name: str, value: object):
    def edit(m: dict) -> None:
        m["spec"]["game_config"][name] = value
        m["status"] = "interrupted"

    return edit


@pytest.mark.parametrize("value, expected", [("abc", "a whole number"), (True, "a whole number"),
                                             ([3], "a whole number")])  # fmt: skip
def test_a_setting_of_the_wrong_kind_is_named_with_its_field_and_file(
    shown_run, tmp_path, capsys, value, expected
):
    """A game declaring a whole number got "abc": its own words, or Python's."""
    bad = copied_run(shown_run, tmp_path, _setting("max_length", value))
    why = f"game_config.max_length is {value!r}, expected {expected}"
    path = bad / "manifest.json"
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {path}: {why}; {NO_MANIFEST}"
    )
    code, _, err = cli(capsys, "replay", str(bad), "--all")
    assert code == 1
    assert one_error_line(err) == f"leaves: error: corrupt manifest {path}: {why}"


@pytest.fixture(scope="module")
def leaves_run(tmp_path_factory) -> Path:
    """A small run of 13 Leaves (2 chunks)."""
    out = tmp_path_factory.mktemp("resume64") / "leaves"
    Tournament(["greedy", "random"], games=8, seed=3, chunk_size=4).run(out=out)
    return out


def test_a_turn_limit_that_is_no_number_is_said_in_the_projects_words(leaves_run, tmp_path, capsys):
    """13 Leaves' ``turn_limit`` of "abc" was 'invalid literal for int() with base 10: 'abc''
    (resume, replay), and verify said the run was fine to resume."""
    bad = copied_run(leaves_run, tmp_path, _setting("turn_limit", "abc"))
    why = "game_config.turn_limit is 'abc', expected a whole number"
    path = bad / "manifest.json"
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {path}: {why}; {NO_MANIFEST}"
    )
    code, _, err = cli(capsys, "replay", str(bad), "--game", "1", "--all")
    assert code == 1
    assert one_error_line(err) == f"leaves: error: corrupt manifest {path}: {why}"
    code, out_, err = cli(capsys, "verify", str(bad))
    assert code == 1 and out_ == f"bad: {path}: {why}\n" and "invalid literal" not in err


# ------------------------------------------------------------------ other fields a resume reads


def _without(field: str):
    def edit(m: dict) -> None:
        m["spec"].pop(field)
        m["status"] = "interrupted"

    return edit


@pytest.mark.parametrize("field, expected", [
    ("rows", "true or false"),  # was 'rows takes True or False, got None' (no such flag given)
    ("repeats", "true or false"),
    ("seed", "a whole number of at least 0"),  # was 'differs in seed'
    ("game_config", "a table of the game's settings"),  # was 'differs in game_config'
])  # fmt: skip
def test_a_field_a_resume_reads_missing_is_said_missing(
    shown_run, tmp_path, capsys, field, expected
):
    bad = copied_run(shown_run, tmp_path, _without(field))
    said = (f"cannot resume {bad}: corrupt manifest {bad / 'manifest.json'}: spec.{field} is "
            f"missing, expected {expected}")  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1 and one_error_line(err) == f"leaves: error: {said}; {NO_MANIFEST}"
    with pytest.raises(ValueError) as exc:
        Tournament(STRATEGIES, game=ShownToy(), **TOY).run(out=bad, resume=True)
    assert str(exc.value) == f"{said}; {ADVICE}"


def test_a_spec_without_its_chunk_count_is_said_so_by_verify_and_resume(
    shown_run, tmp_path, capsys
):
    """Verify (and the library's ``verify_run``) said of each chunk 'records chunk 0, which
    the run does not have (it has none)' and advised a resume to drop them, which then kept
    them all."""
    bad = copied_run(shown_run, tmp_path, _without("n_chunks"))
    why = "spec.n_chunks is missing, expected a whole number of at least 0"
    path = bad / "manifest.json"
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 1 and out == f"bad: {path}: {why}\n"
    assert one_error_line(err).startswith(f"leaves: error: the manifest of {bad} cannot be used")
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {path}: {why}; {NO_MANIFEST}"
    )
    assert [str(p) for p in verify_run(bad).problems] == [f"manifest.json: {why}"]  # the library


@pytest.mark.slow
def test_leaves_run_names_a_stored_setting_of_the_wrong_kind_too(tmp_path, capsys):
    """``leaves run --resume`` said 'differs in turn_limit: 1000 here, abc in the run', while
    verify and ``leaves tournament --resume`` name the manifest as corrupt."""
    out = tmp_path / "run"
    assert cli(capsys, "run", "--out", str(out), "--games", "20", "--jobs", "1")[0] == 0
    bad = copied_run(out, tmp_path, _setting("turn_limit", "abc"))
    code, _, err = cli(capsys, "run", "--out", str(bad), "--resume", "--games", "20")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {bad / 'manifest.json'}: "
        f"game_config.turn_limit is 'abc', expected a whole number; {NO_MANIFEST}"
    )


def test_replay_names_a_field_an_entrant_lacks_in_the_manifest(leaves_run, tmp_path, capsys):
    """It said "cannot rebuild greedy: 'class'" (a KeyError's words)."""
    bad = copied_run(leaves_run, tmp_path, lambda m: m["spec"]["entrants"][0].pop("class"))
    code, _, err = cli(capsys, "replay", str(bad), "--game", "1", "--all")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: corrupt manifest {bad / 'manifest.json'}: the entrant greedy has no "
        "'class', which 13 Leaves rebuilds it from"
    )
    assert cli(capsys, "replay", str(leaves_run), "--game", "1", "--all")[0] == 0


def test_verify_finds_the_game_a_resume_loads_by_game_spec(leaves_run, tmp_path, capsys):
    """A ``game_spec`` naming a game this installation lacks, beside an installed game's id:
    verify read the id alone ('--resume finishes it'), and the resume refused the run."""

    def elsewhere(m: dict) -> None:
        m["game_spec"] = "resume64_absent"
        m["status"] = "interrupted"

    bad = copied_run(leaves_run, tmp_path, elsewhere)
    code, out, _ = cli(capsys, "verify", str(bad))
    assert code == 0
    waits = "--resume finishes it once this installation can load the run's game: unknown game"
    assert f"{waits} 'resume64_absent'" in out
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1 and "cannot load: unknown game 'resume64_absent'" in one_error_line(err)


def _spec_value(field: str, value: object):
    def edit(m: dict) -> None:
        m["spec"][field] = value
        m["status"] = "interrupted"

    return edit


@pytest.mark.parametrize("field, value, why", [
    # was '--games must be at least 1, got 0', a flag nobody gave
    ("games_asked", 0, "spec.games_asked is 0, expected a whole number of at least 1 (a run "
                       "plays a game or more)"),
])  # fmt: skip
def test_a_value_a_resume_cannot_play_is_the_manifests_fault_and_verify_says_so(
    leaves_run, tmp_path, capsys, field, value, why
):
    bad = copied_run(leaves_run, tmp_path, _spec_value(field, value))
    path = bad / "manifest.json"
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {path}: {why}; {NO_MANIFEST}"
    )
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 1 and out == f"bad: {path}: {why}\n"
    assert "--resume finishes it" not in err
