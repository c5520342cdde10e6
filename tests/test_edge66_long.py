"""Long numbers and long text said in one short line on every way in (the API, a flag, a
config file), a game's bound on the target asked on every way in, a directory where a run's
manifest belongs not called corrupt, and the length section saying what it leaves out."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from gamekit.errors import ParameterError
from ligretto import rules
from ligretto.match import OUT_OF_REACH
from ligretto.plugin import LigrettoGame
from tests.helpers import cli, cli_output, copied_run, forfeiting_run, one_error_line
from tournaments import Tournament
from tournaments.schedule import Schedule, parse_players

HUGE = 10**5000
"""A whole number past the 4,300 digits Python writes out."""
DIGITS = "9" * 5000
"""The same, as typed: 5,000 digits."""
SAID = "a whole number of about 5,001 digits"
"""How ``shown`` says ``HUGE`` (its count of digits read from its bits past 4,300)."""
TYPED_SAID = "a whole number of about 5,000 digits"
"""How ``shown`` says ``DIGITS``."""
SIZES = f"Ligretto takes {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} players"


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def test_the_rules_say_a_count_too_long_for_the_line_by_its_digits():
    """``ligretto.rules.check_players(10**5000)`` said Python's "Exceeds the limit (4300
    digits)" line; so did a card, a score's counts and a card's colour or number."""
    with pytest.raises(ValueError, match=f"^{SIZES}, got {SAID}$"):
        rules.check_players(HUGE)
    with pytest.raises(ValueError, match=f"^{SIZES}, got 13$"):
        rules.check_players(np.int64(13))
    with pytest.raises(ValueError, match=f"^card must be a card id 0 to 39, got {SAID}$"):
        rules.check_card(HUGE)
    with pytest.raises(ValueError, match="^card must be a card id 0 to 39, got 45$"):
        rules.check_card(np.int64(45))
    with pytest.raises(ValueError, match=f"^stack_left must be 0 to 10, got {SAID}$"):
        rules.score(0, HUGE)
    with pytest.raises(ValueError, match=f"^no Ligretto card of colour 0 and number {SAID}$"):
        rules.card_id(0, HUGE)
    with pytest.raises(TypeError) as exc:
        rules.whole_number("x" * 5000, "players")
    assert len(str(exc.value)) < 100 and str(exc.value).startswith("players must be an integer")


def test_the_plug_in_says_the_rules_sentence_from_the_rules():
    """The plug-in wrote "Ligretto takes 2 to 12 players, got ..." itself, beside the rules'
    own sentence: two sources of one line. It asks the rules now, and says the same; so does
    a round record's check, which had a third wording ("players is 13: Ligretto takes ...")."""
    sources = [p.read_text() for p in Path(rules.__file__).parent.rglob("*.py")]
    sentence = re.compile(r"takes \{MIN_PLAYERS\} to \{MAX_PLAYERS\}")
    assert sum(len(sentence.findall(s)) for s in sources) == 1
    for count in (HUGE, -HUGE, 1, 13, np.int64(13)):
        with pytest.raises(ValueError) as ours:
            LigrettoGame().check_players(count)
        with pytest.raises(ValueError) as theirs:
            rules.check_players(count)
        assert str(ours.value) == str(theirs.value)


def test_a_long_players_string_is_cut_and_a_long_size_said_by_its_digits(capsys):
    """A 5,000-character ``players`` string was echoed whole; a 5,000-digit table size was
    "takes numbers like 4 or 3,4,5": it is a number, refused as the game's table sizes say."""
    with pytest.raises(ParameterError) as exc:
        parse_players("3,x" + DIGITS)
    assert str(exc.value) == f"players takes numbers like 4 or 3,4,5, got '3,x{'9' * 53}..."
    with pytest.raises(TypeError) as exc:
        parse_players([3, "a" * 5000])
    assert len(str(exc.value)) < 150
    assert parse_players(f"3,{DIGITS}") == (3, 10**5000 - 1)
    with pytest.raises(ValueError, match=f"^players: {SIZES}, got {TYPED_SAID}$"):
        Tournament(["stack", "cautious"], players=DIGITS, games=1, game=LigrettoGame())
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "cautious",
                       "--players", f"2,{DIGITS}", "--out", "unused")  # fmt: skip
    line = one_error_line(err)
    assert code == 2 and line.endswith(f"{SIZES}, got {TYPED_SAID}"), line
    assert not Path("unused").exists()


def test_a_games_count_of_thousands_of_digits_is_refused_as_too_many(capsys):
    """4,000 digits of games raised "OverflowError: integer division result too large for a
    float" (the deals per table were a float's ceiling); a negative 5,000-digit count raised
    Python's digit-limit error instead of its own line."""
    with pytest.raises(ParameterError, match=r"^games asks for a number of games about 4,001 "
                       r"digits long in all \(rounded up to whole duplicate sets\), past 2\*\*32 - 1 "
                       r"\(a run's most games\)$"):  # fmt: skip
        Schedule([(0, 1)], int("9" * 4000))
    with pytest.raises(
        ParameterError, match=f"^games must be at least 1, got a negative {SAID[2:]}$"
    ):
        Schedule([(0, 1)], -HUGE)
    with pytest.raises(ParameterError, match=f"^chunk_size must be at least 1 game, got a "
                                             f"negative {SAID[2:]}$"):  # fmt: skip
        Schedule([(0, 1)], 5, chunk_games=-HUGE)
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--games", "9" * 4000,
                       "--out", "unused")  # fmt: skip
    assert code != 0 and one_error_line(err).endswith("past 2**32 - 1 (a run's most games)")
    assert one_error_line(err).startswith("leaves: error: --games asks for a number of games")


@pytest.mark.parametrize(("args", "said"), [
    (["tournament", "greedy", "random", "--target", DIGITS],
     f"--target takes a whole number, got {TYPED_SAID}"),
    (["tournament", "greedy", "random", "--target", "x" * 5000],
     f"--target takes a whole number, got '{'x' * 56}..."),
    (["compare", "a", "b", "--alpha", "-" + "9" * 100],
     "--alpha takes a number above 0 and below 1, got a negative whole number of about 100 "
     "digits"),
    (["compare", "a", "b", "--alpha", "1." + "9" * 100],
     f"--alpha takes a number above 0 and below 1, got '1.{'9' * 54}..."),
    (["compare", "a", "b", "--alpha", "1" * 5000],
     "--alpha takes a number above 0 and below 1, got a whole number of about 5,000 digits, "
     "a number too large to be held (it would read as infinity)"),
    (["tournament", "greedy", "random", "--target", "1.5"],
     "--target takes a whole number, got '1.5'"),  # short: as before
    (["compare", "a", "b", "--alpha", "5"], "--alpha takes a number above 0 and below 1, got 5"),
], ids=["target-digits", "target-text", "alpha-negative", "alpha-fraction", "alpha-infinite",
        "target-short", "alpha-short"])  # fmt: skip
def test_a_long_value_of_a_number_flag_is_cut_the_one_way(capsys, args, said):
    """``--target`` with 5,000 digits echoed them whole (so did any number flag): a whole
    number is said by its digits, other long text quoted and cut at 60 characters."""
    code, _, err = cli(capsys, *args)
    line = one_error_line(err)
    assert code == 2 and line.startswith(f"leaves: error: {said} (see "), line


def _config(tmp_path: Path, text: str | bytes) -> Path:
    """A config file holding ``text`` (bytes: as they are)."""
    config = tmp_path / "run.toml"
    config.write_bytes(text.encode() if isinstance(text, str) else text)
    return config


@pytest.mark.parametrize(("text", "where", "digits"), [
    (f"games = {DIGITS}\n", "games (line 1)", "5,000"),
    (f"[tournament]\ngames = 1\nseed = -{DIGITS}\n", "seed (line 3)", "5,000"),
    (f"players = [\n 3,\n {'9_' * 4400}9]\n", "line 3", "4,401"),  # no key on its line
], ids=["top-level", "in-a-table", "in-a-list"])  # fmt: skip
def test_a_config_number_past_pythons_digits_names_the_file_and_key(
    tmp_path, capsys, text, where, digits
):
    """A TOML number of 5,000 digits said Python's raw "Exceeds the limit (4300 digits) ...
    value has 5000 digits", naming neither the file nor the key."""
    config = _config(tmp_path, text)
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--config", str(config),
                       "--out", str(tmp_path / "out"))  # fmt: skip
    line = one_error_line(err)
    assert code == 2, err
    assert line.startswith(f"leaves: error: --config: {config}: {where} holds a whole number "
                           f"of {digits} digits, past the 4,300 Python reads"), line  # fmt: skip
    assert not (tmp_path / "out").exists()


def test_a_config_file_that_is_not_utf8_is_named(tmp_path, capsys):
    """A config file of other bytes than UTF-8 said "'utf-8' codec can't decode byte 0xff
    in position 0": which file, and that it is the config, unsaid."""
    config = _config(tmp_path, b'games = 5\nx = "\xff"\n')
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--config", str(config),
                       "--out", str(tmp_path / "out"))  # fmt: skip
    assert code == 2
    assert one_error_line(err).startswith(f"leaves: error: --config: {config} is not valid "
                                          "TOML: not UTF-8 text (byte 16 cannot be read)")  # fmt: skip


@pytest.mark.parametrize("target", [2561, 10**50, HUGE], ids=["2561", "1e50", "huge"])
def test_a_target_out_of_reach_is_refused_through_the_api(target):
    """``Tournament(..., game=LigrettoGame(), expert=True, target=10**50)`` was accepted (the
    game's check was the command line's alone): each of its games would stop at the cap on
    rounds. 2,560 itself is reached."""
    args = {"players": 2, "games": 4, "game": LigrettoGame(), "expert": True}
    said = f"{target:,}" if target < 10**60 else SAID
    reach = f"^target {said} is out of reach: {re.escape(OUT_OF_REACH)}$"
    with pytest.raises(ParameterError, match=reach):
        Tournament(["stack", "cautious"], target=target, **args)
    assert Tournament(["stack", "cautious"], target=2560, **args).target == 2560


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A 2-player Ligretto run in which some rounds were forfeited."""
    return forfeiting_run(tmp_path_factory.mktemp("long") / "run")


def test_report_on_a_directory_where_the_manifest_belongs_says_no_corrupt_manifest(
    run, tmp_path, capsys
):
    """'leaves report' said "corrupt manifest: RUN/manifest.json is a directory ...": nothing
    there is corrupt; it says what verify says. A manifest of bad text stays corrupt."""
    bad = copied_run(run, tmp_path)
    (bad / "manifest.json").unlink()
    (bad / "manifest.json").mkdir()
    code, _, err = cli(capsys, "report", str(bad), "--out", str(tmp_path / "report"))
    line = one_error_line(err)
    assert code == 1 and "corrupt" not in line, line
    assert line.startswith(f"leaves: error: the manifest of {bad} cannot be used: "
                           f"{bad / 'manifest.json'} is a directory where the run's manifest "
                           "file belongs; "), line  # fmt: skip
    (bad / "manifest.json").rmdir()
    (bad / "manifest.json").write_text("{")
    code, _, err = cli(capsys, "report", str(bad), "--out", str(tmp_path / "report"))
    assert one_error_line(err).startswith(f"leaves: error: corrupt manifest: {bad}")
    assert not (tmp_path / "report").exists()


def _length_lead(page: str) -> str:
    """The text under the page's Round length section's heading of how it is computed."""
    heading = "### Round length and outcomes: how it is computed"
    return page.split(heading, 1)[1].strip().split("\n\n", 1)[0]


def test_the_length_section_says_it_leaves_forfeits_out(run, tmp_path):
    """The lengths and the outcomes' shares and means leave the forfeited rounds out while
    the outcomes' count covers every one: the page did not say so. Where none was forfeited,
    nothing is added."""
    code, _, err = cli_output("report", str(run), "--format", "md", "--out", str(tmp_path / "r"))
    assert code == 0, err
    rows = pd.concat([pd.read_parquet(p) for p in sorted((run / "games").glob("*.parquet"))])
    forfeited = int(rows["forfeit"].sum())
    assert 1 < forfeited < len(rows)
    lead = _length_lead((tmp_path / "r" / "report.md").read_text())
    assert lead.endswith(f" The {forfeited} forfeited rounds (cut short) are left out of the "
                         "lengths and the outcomes' shares and means; the outcomes' rounds "
                         "column counts every round."), lead  # fmt: skip
    outcomes = pd.read_csv(tmp_path / "r" / "outcomes.csv").astype({"n_players": str})
    assert outcomes[outcomes["n_players"] == "all"]["rounds"].iloc[0] == len(rows)
    assert outcomes[outcomes["n_players"] == "all"]["valid_rounds"].iloc[0] == len(rows) - forfeited

    clean = tmp_path / "clean"
    code, _, err = cli_output("tournament", "--game", "ligretto", "stack", "cautious",
                              "--players", "2", "--games", "8", "--seed", "1", "--jobs", "1",
                              "--out", str(clean))  # fmt: skip
    assert code == 0, err
    code, _, err = cli_output("report", str(clean), "--format", "md", "--out", str(tmp_path / "c"))
    assert code == 0, err
    lead = _length_lead((tmp_path / "c" / "report.md").read_text())
    assert "forfeited" not in lead and lead.endswith("the share ended by blockade (95% "
                                                     "intervals)."), lead  # fmt: skip


@pytest.mark.parametrize(("forfeited", "outcomes", "said"), [
    (0, True, ""),
    (1, True, " The 1 forfeited game (cut short) is left out of the lengths and the outcomes' "
              "shares and means; the outcomes' games column counts every game."),
    (1200, False, " The 1,200 forfeited games (cut short) are left out of the lengths."),
], ids=["none", "one", "many-no-outcomes"])  # fmt: skip
def test_the_forfeits_clause_counts_and_names_the_tables(forfeited, outcomes, said):
    """One forfeit is said in the singular; a game without an outcomes table (nothing of it
    has a mean but the lengths) is told of the lengths alone."""
    from reports.sections import _forfeits_left_out  # the clause alone: every wording

    done = pd.DataFrame([{"n_players": 4, "forfeited": forfeited},
                         {"n_players": "all", "forfeited": forfeited}])  # fmt: skip
    tables = {"completion": done} | ({"outcomes": pd.DataFrame()} if outcomes else {})
    assert _forfeits_left_out(tables, SimpleNamespace(unit="game")) == said


@pytest.mark.parametrize(("value", "got"), [
    ('"' + "x" * 300 + '"', ('"' + "x" * 56 + "...")),
    ("2020-01-01", "2020-01-01"),  # a date as the file writes it
    ("[1, 2]", "[1, 2]"),
], ids=["long-text", "date", "list"])  # fmt: skip
def test_a_config_value_of_the_wrong_kind_is_cut_the_one_way(tmp_path, capsys, value, got):
    """A config file's 300-character text where a number belongs was echoed whole."""
    config = _config(tmp_path, f"games = {value}\n")
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--config", str(config),
                       "--out", str(tmp_path / "out"))  # fmt: skip
    assert code == 2
    assert one_error_line(err) == f"leaves: error: {config}: games takes a whole number, got {got}"
