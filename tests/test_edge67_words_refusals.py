"""Refusals said in the project's one line, as the command's own check says them.

A file named where a folder is wanted (``leaves tune ... --out FILE``) and a folder named
where a file is (``leaves play --save DIR``) were refused in click's words ("Invalid value for
'--out': Directory 'x' is a file."); a flag's value ``--filter search=1`` was refused without
the words that are read ('yes', 'on', 'True' are, '1' is not); and ``leaves rules --check``
as docs/cli.md writes it prints the player counts it deals.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from leaves_cli.errors import CLIError
from leaves_cli.writable import check_file_writable, check_writable
from strategies.registry import FLAG_WORDS
from strategies.spec_values import parse_value

from .helpers import cli


@pytest.fixture
def wide(monkeypatch, tmp_path):
    """A wide console, the thread setting ``main`` would make, and a folder to work in."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a directory\n")
    (tmp_path / "adir").mkdir()
    return tmp_path


def said(check, *args) -> tuple[int, str]:
    """(exit code, line) the command's own check raises."""
    with pytest.raises(CLIError) as exc:
        check(*args)
    return exc.value.exit_code, f"leaves: error: {exc.value.format_message()}"


FOLDER_FOR_A_FILE = [
    ["play", "--save", "adir"],
    ["tournament", "low", "high", "--out", "t", "--record", "adir"],
    ["tournament", "low", "high", "--config", "adir"],
    ["strategies", "--load", "adir"],
]
FILE_FOR_A_FOLDER = [
    ["tune", "weighted", "--against", "taker", "--out", "afile"],
    ["tournament", "low", "high", "--out", "afile"],
    ["gauntlet", "low", "--against", "taker", "--out", "afile"],
    ["variants", "low", "high", "--rules", "take=ends", "--out", "afile"],
]


@pytest.mark.parametrize("args", FOLDER_FOR_A_FILE, ids=" ".join)
def test_a_folder_named_for_a_file_is_refused_as_the_file_check_says_it(wide, capsys, args):
    flag, value = args[-2], args[-1]
    code, line = said(check_file_writable, value, flag)
    assert (
        line == f"leaves: error: {flag} {value} is not a regular file but a directory: name a file"
    )
    got, out, err = cli(capsys, *args)
    assert (got, out, err) == (code, "", line + "\n")


@pytest.mark.parametrize("args", FILE_FOR_A_FOLDER, ids=" ".join)
def test_a_file_named_for_a_folder_is_refused_as_tournament_out_says_it(wide, capsys, args):
    code, line = said(check_writable, "afile", "--out")
    assert line == "leaves: error: cannot write to afile: it is not a directory (--out)"
    # the line a path under that file gets, which click never refused: the same words
    got, _, under = cli(capsys, "tournament", "low", "high", "--out", "afile/sub")
    assert (got, under) == (1, f"leaves: error: cannot write to afile/sub: {wide / 'afile'} is "
                            "not a directory (--out)\n")  # fmt: skip
    got, out, err = cli(capsys, *args)
    assert (got, out, err) == (code, "", line + "\n")


def test_a_flag_filter_names_the_words_it_reads(wide, capsys):
    got, out, err = cli(capsys, "strategies", "--filter", "search=1")
    assert got == 2 and out == ""
    assert err == (
        "leaves: error: --filter search=1: '1' is not a value of search, which is true or false "
        "(written true, yes or on; false, no or off; in any case)\n"
    )
    # the words named are those read, each in any case; others are not
    for word in ("true", "yes", "on", "false", "no", "off"):
        assert word in FLAG_WORDS
        for typed in (word, word.upper(), word.title()):
            assert parse_value(typed) is (word in ("true", "yes", "on"))
            got, out, _ = cli(capsys, "strategies", "--filter", f"search={typed}", "--names")
            assert got == 0 and out
    for other in ("1", "0", "y", "n", "t", "f"):
        assert not isinstance(parse_value(other), bool)


def test_rules_check_as_the_docs_write_it_prints_the_counts_it_deals(wide, capsys):
    # docs/cli.md: leaves rules --check "hand_size=9,take=ends"  # the rules, and the counts
    got, out, _ = cli(capsys, "rules", "--check", "hand_size=9,take=ends")
    assert got == 0
    assert "Player counts: 3, 4, 5, 6\n" in out
    for n in (3, 4, 5, 6):
        assert f"  {n} players: 9 cards each ({9 * n} of the deck's 62 dealt)\n" in out


def test_the_docs_quote_these_lines():
    docs = (Path(__file__).parents[1] / "docs" / "cli.md").read_text()
    assert "(`--save DIR is not a regular file but a directory: name a file`, exit 2," in docs
    assert "(`cannot write to FILE: it is not a directory (--out)`, exit 1," in docs
