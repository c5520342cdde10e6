"""A game's own command given ``--game`` said "No such option '--game'. Did you mean
'--save'?": it now says whose command it is, in one line, exit 2; the shared commands keep
click's suggestions for a mistyped option."""

from __future__ import annotations

import pytest

from leaves_cli.main import games
from tests.helpers import cli


def _own_commands() -> list[tuple[str, str]]:
    return [(name, g.title) for g in games() for name in sorted(g.commands)]


@pytest.mark.parametrize(("name", "title"), _own_commands())
@pytest.mark.parametrize("flag", [["--game", "other"], ["--game=other"]])
def test_a_games_own_command_says_it_takes_no_game(capsys, name, title, flag):
    code, _, err = cli(capsys, name, *flag)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"leaves: error: --game: 'leaves {name}' is a command of {title} "
                          f"only: it takes no --game (see 'leaves {name} --help')")  # fmt: skip


def test_a_shared_command_still_suggests_the_option_meant(capsys):
    code, _, err = cli(capsys, "tournament", "--gam", "x")
    assert code == 2 and "unknown option '--gam'; did you mean '--game'" in err


@pytest.mark.parametrize("typed", ["LIGRETTO", "Ligreto", "ligreto"])
def test_a_game_id_typed_in_capitals_or_misspelt_is_offered_the_id(capsys, typed, tmp_path):
    code, _, err = cli(capsys, "tournament", "--game", typed, "a", "b", "--games", "8",
                       "--out", str(tmp_path / "o"))  # fmt: skip
    assert code == 2 and "did you mean 'ligretto'?" in err, err
