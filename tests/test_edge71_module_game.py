"""A game given as ``--game module:Class`` (not installed) gets no flag of its own, as the docs
say; a setting of it typed as a flag was refused as any unknown option is ("unknown option
'--deck-size'; did you mean '--chunk-size'?"), with no word of how to set it: the line now
says whose setting it is and how to set it from the command line (install the game)."""

from __future__ import annotations

from typing import Any

import pytest

from leaves_cli.options import module_game_flag
from tests.helpers import cli, doc_text, one_error_line
from tests.toygame import ToyGame
from tournaments.game import GameOption

HERE = __name__
SPEC = f"{HERE}:DeckGame"
RUN = ("a", "b", "--players", "2", "--games", "8", "--seed", "1", "--jobs", "1", "--no-progress")
SAID = (
    f"--deck-size is a setting of Deck ({SPEC}), a game given as module:Class, which gets no "
    "flag of its own: install it in the entry-point group leaves.games to set its settings from "
    "the command line"
)


class DeckGame(ToyGame):
    """Not installed: its setting is no flag."""

    name = "edge71deck"
    title = "Deck"
    options = (GameOption("deck_size", int, "Cards in the deck."),)

    def __init__(self, deck_size: int = 52, **kw: Any):
        super().__init__(**kw)
        self.deck_size = deck_size


@pytest.mark.parametrize("args", [
    ["tournament", "--game", SPEC, "--deck-size", "3"],
    ["gauntlet", f"--game={SPEC}", "a", "--against", "b", "--deck-size", "3"],
    ["tournament", "--game", "leaves", "--game", SPEC, "--deck-size", "3"],  # the last --game
])  # fmt: skip
def test_a_module_class_games_setting_says_how_to_set_it(args):
    assert module_game_flag("--deck-size", args) == SAID


@pytest.mark.parametrize(("option", "args"), [
    ("--deck-sise", ["tournament", "--game", SPEC]),  # not its setting: click's own words
    ("--deck-size", ["tournament", "--game", "leaves"]),  # an installed game's id
    ("--deck-size", ["tournament"]),  # no --game
    ("--deck-size", ["tournament", "--", "--game", SPEC]),  # an argument, not the option
])  # fmt: skip
def test_other_unknown_options_get_no_such_line(option, args):
    assert module_game_flag(option, args) == ""


def test_the_line_says_what_the_docs_say():
    said = doc_text("cli.md")
    assert ("a game given as `module:Class` and not installed gets no flag of its own (install "
            "it in `leaves.games` to set its options from the command line)") in said  # fmt: skip
    assert f"`{SAID.replace(SPEC, 'mymod:DeckGame')}`, exit 2" in said


def test_the_command_says_how_to_set_a_module_class_games_setting(capsys, tmp_path):
    """Was: "unknown option '--deck-size'; did you mean '--chunk-size'? (see ...)"."""
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "--game", SPEC, *RUN, "--deck-size", "3",
                          "--out", str(out))  # fmt: skip
    assert (code, said) == (2, "")
    assert one_error_line(err) == f"leaves: error: {SAID} (see 'leaves tournament --help')"
    assert not out.exists()
