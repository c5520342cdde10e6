"""A match target given through a game setting (``--rules expert_target=N``) is checked the same
in ``leaves tournament`` and ``leaves gauntlet`` as in ``leaves play``: refused where no match
is played (it ends a match, never a game), refused where ``--target`` says another, today's
value typed included (a rule typed is a rule given); the gauntlet's help says how its field
fills the seats and which error rates it takes."""

from __future__ import annotations

import pytest

from leaves.plugin import LeavesGame
from leaves_cli import gauntlet_cmd
from leaves_cli.tournament_checks import refuse_target_settings
from tests.helpers import cli, one_error_line

NO_MATCH = "ends a match, never a game"


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")


def test_a_tournament_without_matches_refuses_a_rules_target(capsys, tmp_path):
    """Was: exit 0, 100 single games under 'the rules expert_target=30' (no match to end)."""
    code, _, err = cli(capsys, "tournament", "greedy", "low", "--rules", "expert_target=30",
                       "--games", "4", "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 2, err
    assert one_error_line(err) == (f"leaves: error: --rules expert_target=30 {NO_MATCH}: add "
                                   "--expert to play a match to it, or leave it out")  # fmt: skip
    assert not (tmp_path / "t").exists()


def test_a_gauntlet_refuses_a_rules_target(capsys, tmp_path):
    """Was: exit 0, single games under 'the rules expert_target=30' (a gauntlet has no
    --expert: it plays games, never matches)."""
    code, _, err = cli(capsys, "gauntlet", "counter", "--against", "taker", "--rules",
                       "expert_target=30", "--games", "4", "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 2, err
    assert one_error_line(err) == (f"leaves: error: --rules expert_target=30 {NO_MATCH}, and "
                                   "leaves gauntlet plays single games: leave it out")  # fmt: skip
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("rules", [("take=ends",), ("turn_limit=500",), ()])
def test_rules_that_set_no_target_are_not_refused(rules):
    """Only a target is refused: other rules change the games a gauntlet plays."""
    refuse_target_settings({"game_spec": "leaves", "rules": rules}, command="leaves gauntlet")


def test_a_target_and_todays_rules_target_that_disagree_are_refused(capsys, tmp_path):
    """Was: exit 0, matches to 30, the typed expert_target=20 dropped because 20 is today's
    value (only a target other than the default game's was counted): the game says the words
    its settings name a target in (``LeavesGame.target_named``), today's value too."""
    assert LeavesGame(rules="expert_target=20").target_named == "expert_target=20"
    assert LeavesGame(rules="take=ends").target_named is None
    code, _, err = cli(capsys, "tournament", "greedy", "low", "--expert", "--target", "30",
                       "--rules", "expert_target=20", "--games", "4", "--out",
                       str(tmp_path / "t"))  # fmt: skip
    assert code == 2, err
    assert one_error_line(err) == ("leaves: error: --target 30 and --rules expert_target=20 "
                                   "disagree: give one")  # fmt: skip
    code, _, err = cli(capsys, "tournament", "greedy", "low", "--rules", "expert_target=20",
                       "--games", "4", "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 2 and f"--rules expert_target=20 {NO_MATCH}" in err, err


def test_the_help_of_the_field_says_how_it_fills_the_seats(capsys):
    """Was: '(repeated in turn to fill them)', which reads as taker, greedy, taker for
    --against taker,greedy: the field is sorted by label first."""
    from tournaments import Gauntlet

    g = Gauntlet("counter", ["taker", "greedy"], "weighted", players=4, games=24)
    seated = [g.labels[i] for i in g.tables[0][1:]]
    assert seated == ["greedy", "taker", "greedy"]
    help_text = " ".join(_help(capsys).split())
    assert f"taker,greedy in three seats: {', '.join(seated)}" in help_text, help_text
    wide = Gauntlet("counter", ["taker", "greedy", "low", "high"], "weighted", players=3,
                    games=24)  # fmt: skip
    fields = {tuple(sorted(wide.labels[i] for i in t[1:])) for t in wide.tables}
    assert len(wide.tables) == 2 * len(fields) == 2 * 6  # each pair of the four, each side
    assert "more than the seats: a table for each combination" in help_text


def test_the_help_of_the_error_rates_gives_their_range(capsys, tmp_path):
    """Was: no range in the help of --alpha and --beta, though 0 and 0.5 are refused."""
    help_text = " ".join(_help(capsys).split())
    lo, hi = 0, 0.5  # what the refusals below take as the truth
    assert help_text.count(f"(between {lo} and {hi}, neither included; default 0.05)") == 2
    for flag, rate in (("--alpha", hi), ("--beta", lo)):
        code, _, err = cli(capsys, "gauntlet", "counter", "--against", "taker", "--sequential",
                           flag, str(rate), "--out", str(tmp_path / "g"))  # fmt: skip
        assert code == 2, err
        assert (
            one_error_line(err)
            == f"leaves: error: {flag} must be between {lo} and {hi}, got {rate}"
        )


def _help(capsys) -> str:
    with pytest.raises(SystemExit):
        gauntlet_cmd.gauntlet.main(["--help"], prog_name="leaves gauntlet")
    return capsys.readouterr().out


@pytest.mark.parametrize("target", ["1001", "100000"])
def test_a_tournament_target_out_of_the_rules_range_is_refused(capsys, tmp_path, target):
    """Was: exit 0 at 1001, every match stopped at the cap of 64 games; the rule's own range."""
    code, _, err = cli(capsys, "tournament", "greedy", "low", "--expert", "--target", target,
                       "--games", "4", "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 2, err
    assert one_error_line(err) == ("leaves: error: --target takes a whole number from 1 to 1000 "
                                   f"(as the rule expert_target does), got {target}")  # fmt: skip
