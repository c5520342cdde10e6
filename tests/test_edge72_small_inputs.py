"""Small inputs said right: a --precision below a float's normal range is named as typed (it
was '9.99989e-321' for 1e-320); a gauntlet's --games past a run's most is refused naming
--games, also with --sequential (it named a --max-games no one gave); a run whose manifest is
damaged gets the advice every corrupt manifest gets, from ``same_run.check_out`` too; an empty
run name given to ``compare`` is named as the argument that got it (it said ``run_dir``); a
folder name holding a character not shown (a line break, U+0085, a byte no encoding decodes)
is advised as one word that bash reads back as that folder; and a number in another form
(``-0``, ``-02``) is never advised a value its flag then refuses (``--jobs -0`` said 'write 0')."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekit.errors import ParameterError
from leaves_cli.precision_lines import precision_line
from tests.helpers import cli, copied_run, one_error_line, usage_error
from tournaments import Tournament, storage
from tournaments.run_state import continue_command, precision_flags, shell_word, typed_number
from tournaments.same_run import check_out

THREE = ["greedy", "low", "high"]


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


# ------------------------------------------------- a --precision below the normal range


@pytest.mark.parametrize("typed", ["1e-320", "5e-324", "2.5e-315", "1e-300", "0.5", "0.1234567"])
def test_a_precision_is_named_as_typed_below_a_floats_normal_range(typed):
    """Was: ' --precision 9.99989e-321' (the short form of a subnormal reads back as it, but
    is not what was typed)."""
    assert precision_flags(float(typed), None) == f" --precision {typed}"
    line = precision_line(float(typed), 2.5, 200, "games")
    assert line.startswith(f"precision +-{typed} percentage points NOT reached")


@given(st.floats(min_value=0, exclude_min=True, allow_infinity=False))
def test_a_typed_number_reads_back_as_the_number_and_is_never_longer_than_pythons(x):
    said = typed_number(x)
    assert float(said) == x and len(said) <= len(repr(x))


def test_a_precision_run_below_the_normal_range_says_its_target_as_typed(tmp_path, capsys):
    code, out, err = cli(capsys, "tournament", "greedy", "low", "--games", "100",
                         "--max-games", "200", "--precision", "1e-320", "--jobs", "1", "--seed",
                         "1", "--out", str(tmp_path / "p"))  # fmt: skip
    assert code == 0, err
    (line,) = [x for x in (out + err).splitlines() if x.startswith("precision ")]
    assert line.startswith("precision +-1e-320 percentage points NOT reached (cap on games): "
                           "200 games, widest 95% half-width ")  # fmt: skip


# ------------------------------------------------------ a gauntlet's games past a run's most


@pytest.mark.parametrize("games", ["3000000000", "2147483648"])
def test_a_sequential_gauntlets_games_past_a_runs_most_are_refused_as_games(tmp_path, capsys,
                                                                             games):  # fmt: skip
    line = usage_error(capsys, ["gauntlet", "greedy", "--against", "random", "--sequential",
                                "--games", games, "--out", str(tmp_path / "g")])  # fmt: skip
    assert line.startswith(f"leaves: error: --games asks for {int(games):,} games a side, ")
    assert "past 2**32 - 1 (a run's most games)" in line and "--max-games" not in line
    assert not (tmp_path / "g").exists()


def test_a_gauntlets_typed_cap_past_a_runs_most_is_still_refused_as_the_cap(tmp_path, capsys):
    line = usage_error(capsys, ["gauntlet", "greedy", "--against", "random", "--sequential",
                                "--max-games", "3000000000", "--out", str(tmp_path / "g")])  # fmt: skip
    assert line.startswith("leaves: error: --max-games must be at most 2**31 - 1")


# ------------------------------------------------------------- a damaged manifest's advice


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished run of 30 games at 3 players, seed 7."""
    out = tmp_path_factory.mktemp("small72") / "run"
    Tournament(THREE, players=3, games=30, seed=7).run(out=out, progress=False)
    return out


def _params_damaged(manifest: dict) -> None:
    manifest["spec"]["entrants"][0]["params"] = [["keep_pairs", True]]


def test_a_damaged_manifest_gets_the_advice_from_the_same_run_check_too(run, tmp_path):
    """Was: 'cannot resume X: corrupt manifest X/manifest.json: ...' and nothing to do, where
    ``Tournament.check_out`` says it with ``storage.NO_MANIFEST``."""
    copy = copied_run(run, tmp_path, _params_damaged)
    t = Tournament(THREE, players=3, games=30, seed=7)
    advice = storage.NO_MANIFEST.replace("{out}", "out")
    said = []
    for check in (lambda: check_out(t, copy, resume=True), lambda: t.check_out(copy, True)):
        with pytest.raises(ValueError) as caught:
            check()
        said.append(caught.value)
    assert str(said[0]) == str(said[1])
    assert str(said[0]).startswith(f"cannot resume {copy}: corrupt manifest ")
    assert str(said[0]).endswith(f"; {advice}")
    assert getattr(said[0], "usage_error", True) is False  # the folder is at fault: exit 1


# ------------------------------------------------------------------- compare's run names


@pytest.mark.parametrize(("a", "b", "named"), [
    ("", "runs/b", "run_a"), (" ", "runs/b", "run_a"),
    ("runs/nowhere", "", "run_b"), (Path("runs/a"), "  ", "run_b"),
])  # fmt: skip
def test_compare_names_the_run_given_no_name(a, b, named):
    """Was: 'run_dir: an empty name was given, not a directory', a name the caller never
    passed; both are checked before either run is read."""
    from reports.compare import compare

    with pytest.raises(ParameterError) as caught:
        compare(a, b)
    assert str(caught.value) == f"{named}: an empty name was given, not a run directory"
    assert caught.value.params == (named,)


def test_compare_on_the_command_line_names_the_argument(capsys, run):
    for args, said in ((["", str(run)], "RUN_A"), ([str(run), ""], "RUN_B")):
        line = usage_error(capsys, ["compare", *args])
        assert line.startswith(f"leaves: error: {said}: an empty name was given")


# ------------------------------------------------------------- a folder name in a command


NAMES = ["a\nb", "tab\there", "esc\x1b[31m", "nel\u0085x", "soft\u00adhyphen", "ls\u2028x",
         "q'\nuote", "back\\\nslash", "dollar$\nx", "-\nlead", "\u00e9\n", "del\x7f", "x\x85a1"]  # fmt: skip
if sys.platform.startswith("linux"):  # a byte no encoding decodes: a name Linux takes
    NAMES.append("byte\udcffname")


@pytest.mark.skipif(shutil.which("bash") is None, reason="the advice is for bash")
@pytest.mark.parametrize("name", NAMES)
def test_a_folder_name_with_a_character_not_shown_is_one_word_bash_reads_back(tmp_path, name):
    """Was: a line break kept in the quoted word (the command printed over two lines), and
    U+0085 or an undecodable byte escaped as Python writes it (``\\x85``, ``\\udcff``), which
    bash reads as other bytes: the command pasted named no such folder."""
    folder = tmp_path / name
    folder.mkdir()
    word = shell_word(os.path.relpath(folder, tmp_path))
    assert word.isprintable()  # one line, nothing a terminal obeys
    command = continue_command("tournament", os.path.relpath(folder, tmp_path))
    assert "\n" not in command and command.endswith(word)
    for env in ({"LC_ALL": "C.UTF-8"}, {"LC_ALL": "C"}):  # read back in any locale
        done = subprocess.run(["bash", "-c", f"test -d {word} && printf %s {word}"],
                              cwd=tmp_path, capture_output=True, env={**os.environ, **env},
                              check=False)  # fmt: skip
        assert done.returncode == 0, (word, done.stderr)
        said = os.path.normpath(os.fsdecode(done.stdout))  # './-x' is '-x'
        assert said == os.path.relpath(folder, tmp_path), word


# ------------------------------------------------------- a number flag's form to write


@pytest.mark.parametrize(("args", "typed"), [
    (["tournament", "greedy", "low", "--jobs"], "-0"),
    (["tournament", "greedy", "low", "--jobs"], "00"),
    (["tournament", "greedy", "low", "--jobs"], "+0"),
    (["tournament", "greedy", "low", "--jobs"], "-02"),
    (["gauntlet", "greedy", "--against", "low", "--jobs"], "-0"),
    (["gauntlet", "greedy", "--against", "low", "--games"], "-0"),
    (["gauntlet", "greedy", "--against", "low", "--sequential", "--max-games"], "00"),
    (["tournament", "greedy", "low", "--chunk-size"], "-0"),
    (["tournament", "greedy", "low", "--turn-limit"], "-05"),
    (["bench", "--games"], "-0"),
    (["bench", "--players"], "+0"),
    (["tune", "greedy", "--against", "low", "--budget"], "-0"),
])  # fmt: skip
def test_a_number_in_another_form_is_never_advised_a_value_its_flag_refuses(
    capsys, tmp_path, args, typed
):
    """Was: '--jobs takes a whole number, got '-0', written with a sign: write 0', and --jobs 0
    is refused ('--jobs must be a positive number (or -1), got 0')."""
    out = ["--out", str(tmp_path / "o")] if args[0] in ("tournament", "gauntlet") else []
    line = usage_error(capsys, [*args, typed, *out])
    assert "written with" in line and "write " not in line, line
    code, _, err = cli(capsys, *args, str(int(typed)), *out)
    assert code == 2, err  # what 'write N' would have led to: refused
    one_error_line(err)


@pytest.mark.parametrize(("args", "said"), [
    (["tournament", "greedy", "low", "--jobs", "-01"], "write -1"),  # one a core
    (["tournament", "greedy", "low", "--jobs", "+4"], "write 4"),
    (["tournament", "greedy", "low", "--seed", "-0"], "write 0"),  # its bounds take 0
    (["gauntlet", "greedy", "--against", "low", "--games", "+010"], "write 10"),
])  # fmt: skip
def test_a_number_in_another_form_is_advised_where_its_flag_takes_it(capsys, tmp_path, args,
                                                                     said):  # fmt: skip
    line = usage_error(capsys, [*args, "--out", str(tmp_path / "o")])
    assert line.split(" (see ")[0].endswith(said), line


def test_a_margin_no_run_can_tell_from_0_is_refused(capsys):
    """--margin 1e-320 played 200,000 games a side and said '0 against +0 percentage
    points' (the record rounded it away); the least is one game in the most a side plays."""
    from tournaments.sequential import MIN_MARGIN, Sequential

    code, _, err = cli(capsys, "gauntlet", "greedy", "--against", "low", "--sequential",
                       "--margin", "1e-320")  # fmt: skip
    assert code == 2 and err.strip() == (
        "leaves: error: --margin must be at least 4.656612875245797e-08 percentage points, one game in the "
        "most a side can play (no run tells a smaller margin from 0), got 1e-320"
    )
    with pytest.raises(ValueError, match=r"^margin must be at least 1 / \(2\*\*31 - 1\)"):
        Sequential(MIN_MARGIN / 2, 0.05, 0.05)
    assert Sequential(1e-9, 0.05, 0.05).record(2)["margin"] == 1e-07  # as typed, not 0.0
    assert Sequential(0.02, 0.05, 0.05).record(2)["margin"] == 2.0


def test_a_refusal_and_an_advice_say_a_number_alike():
    """One rule for a number typed back (``sequential.figure`` is ``typed_number``'s)."""
    from tournaments.run_state import typed_number
    from tournaments.sequential import figure

    for x in (1e-320, 0.5, 1.0, 200.0, 1.000001, 0.1234567, 2**0.5):
        assert figure(x) == typed_number(x) and float(figure(x)) == x
