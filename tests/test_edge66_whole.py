"""A whole number of any length read by one reader (``gamekit.whole``), a long games count or
seed said by its digits, a round record's player count in the rules' one sentence, and the
Ligretto doc saying that the API refuses a target out of reach as the command line does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ligretto
from gamekit.errors import ParameterError
from gamekit.whole import read_whole
from ligretto.match import OUT_OF_REACH
from ligretto.players import play_round
from ligretto.plugin import LigrettoGame
from tournaments import Tournament

ROOT = Path(__file__).resolve().parents[1]
HUGE = 10**5000
"""A whole number past the 4,300 digits Python writes out."""
SAID = "a negative whole number of about 5,001 digits"
"""How ``shown`` says ``-HUGE``."""


def test_one_module_reads_a_whole_number_past_the_digits_int_reads():
    """The command line's options and the table sizes each held a reader of their own (a
    pattern, then ``Decimal``): one now, which both use."""
    pattern = "[+-]?[0-9]+"
    packages = sorted(p.parent for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")
    holders = [
        str(path.relative_to(ROOT))
        for package in packages
        for path in sorted(package.rglob("*.py"))
        if pattern in path.read_text(encoding="utf-8")
    ]
    assert holders == ["gamekit/whole.py"], holders


@pytest.mark.parametrize(("text", "number"), [
    ("9" * 5000, 10**5000 - 1),
    ("-" + "9" * 5000, -(10**5000 - 1)),
    ("+12", 12),
    ("007", 7),
    ("1_000", None),  # int() reads it; typed text of a count does not
    (" 3", None),
    ("\u0663", None),  # an Arabic-Indic three: digits are ASCII
    ("", None),
    ("1.0", None),
    ("3\n", None),
], ids=["digits", "negative", "plus", "zeros", "underscore", "space", "other-digit", "empty",
        "fraction", "newline"])  # fmt: skip
def test_read_whole_reads_a_sign_and_digits_of_any_length(text, number):
    assert read_whole(text) == number


@pytest.mark.parametrize(("args", "said"), [
    ({"games": -HUGE}, f"games must be at least 1, got {SAID}"),
    ({"seed": -HUGE}, f"seed must be a non-negative integer, got {SAID}"),
    ({"games": -5}, "games must be at least 1, got -5"),  # short: as before
    ({"seed": -3}, "seed must be a non-negative integer, got -3"),
], ids=["games-huge", "seed-huge", "games-short", "seed-short"])  # fmt: skip
def test_a_games_count_or_seed_too_long_to_write_is_said_by_its_digits(args, said):
    """``Tournament(games=-10**5000)`` (or ``seed=``) raised Python's "Exceeds the limit (4300
    digits) for integer string conversion" from writing the value into its own error."""
    with pytest.raises(ParameterError) as exc:
        Tournament(["stack", "cautious"], players=2, game=LigrettoGame(), **args)
    assert str(exc.value) == said


@pytest.mark.parametrize(("players", "said"), [
    (13, "13"),
    (1, "1"),
    (HUGE, "a whole number of about 5,001 digits"),
], ids=["13", "1", "huge"])  # fmt: skip
def test_a_records_player_count_is_refused_in_the_rules_sentence(players, said):
    """A record's check said "players is 13: Ligretto takes 2 to 12 players", a third wording
    of the rules' one sentence; it names the field, then says that sentence."""
    record = json.loads(play_round(["stack", "row"], 3, 4, record=True).record.to_json())
    with pytest.raises(ligretto.RecordError) as exc:
        ligretto.replay(ligretto.RoundRecord(**{**record, "players": players}))
    assert str(exc.value) == f"players: Ligretto takes 2 to 12 players, got {said}"


def test_the_ligretto_doc_says_the_api_refuses_a_target_out_of_reach():
    """The doc told of the command line's refusal alone; ``Tournament(..., target=2561)``
    refuses it too, in the words the doc quotes (and ``rounds=65`` as well)."""
    doc = " ".join((ROOT / "docs" / "ligretto.md").read_text(encoding="utf-8").split())
    call = "Tournament(..., game=LigrettoGame(), expert=True, target=2561)"
    assert (f"The Python API refuses both as well, before anything runs: `{call}` raises "
            "`ParameterError` (`target 2,561 is out of reach: ...`), as `rounds=65` "
            "does.") in doc  # fmt: skip
    args = {"players": 2, "games": 4, "game": LigrettoGame(), "expert": True}
    reach = f"^target 2,561 is out of reach: {re.escape(OUT_OF_REACH)}$"
    with pytest.raises(ParameterError, match=reach):
        Tournament(["stack", "cautious"], target=2561, **args)
    with pytest.raises(ParameterError, match="^rounds can be at most 64"):
        Tournament(["stack", "cautious"], rounds=65, **args)
