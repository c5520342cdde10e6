"""A tuning plays its user's strategy file as it was when the tuning started: a file edited
during it is refused in one line (a tournament loads a file as it is now, so the later
candidates would otherwise play other code than the earlier ones)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from leaves_cli.flags import message
from tests.helpers import loaded_files_forgotten
from tuning.evaluate import Field

BOT = """from strategies import Strategy


class Bot(Strategy):
    description = "the move at index {pick}"
    classifier = {{"stochastic": False, "uses_card_counting": False}}

    def __init__(self, shift: int = 0):
        self.shift = shift

    def choose(self, view, legal, rng):
        return legal[{pick} % len(legal)]
"""


def test_a_file_edited_during_a_tuning_is_refused(tmp_path):
    """Was: the third candidate played the edited file, on the same deals as the first two,
    and the tuning went on scoring two versions as one strategy."""
    path = tmp_path / "bot.py"
    path.write_text(BOT.format(pick=0), encoding="utf-8")
    field = Field(("greedy", "low"), (3,))
    with loaded_files_forgotten():
        field.tournament(f"{path}:Bot", 30, 1)
        path.touch()  # a new modification time, the same bytes: the same code
        field.tournament(f"{path}:Bot:shift=1", 30, 1)
        path.write_text(BOT.format(pick=-1), encoding="utf-8")
        with pytest.raises(ValueError) as err:
            field.tournament(f"{path}:Bot:shift=2", 30, 1)
    said = str(err.value)
    assert err.value.usage_error is False  # the command was right: exit 1, not 2
    assert "\n" not in said
    assert said.startswith(f"strategy file {path} changed during the tuning (SHA-256 ")
    advice = "put the file back as it was and continue with {}, or tune the new version in a new {}"
    assert said.endswith(advice.format("resume", "out"))  # tune()'s own parameters
    assert message(err.value).endswith(advice.format("--resume", "--out"))  # leaves tune's flags


def test_fields_without_a_users_file_play_on(tmp_path):
    """Built-ins carry no file: every tournament of the field is made."""
    field = Field(("greedy",), (3,))
    for shift in (0, 1):
        assert field.tournament(f"weighted:w_shed={shift}", 30, 1).labels
    assert field.files == {}


def test_the_tuning_guide_quotes_the_refusal(tmp_path):
    """docs/tuning.md quotes the line as the refusal writes it (the path and digests elided)."""
    guide = " ".join(Path("docs/tuning.md").read_text(encoding="utf-8").split())
    quoted = re.search(r"\(`(strategy file [^`]*)`\)", guide)[1]
    path = tmp_path / "my_bot.py"
    path.write_text(BOT.format(pick=0), encoding="utf-8")
    field = Field(("greedy",), (3,))
    with loaded_files_forgotten():
        field.tournament(f"{path}:Bot", 30, 1)
        path.write_text(BOT.format(pick=1), encoding="utf-8")
        with pytest.raises(ValueError) as err:
            field.tournament(f"{path}:Bot", 30, 1)
    pattern = re.escape(quoted).replace(re.escape("..."), ".+")
    assert re.match(pattern, str(err.value)), (quoted, str(err.value))
