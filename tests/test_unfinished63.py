"""The words for units stopped unfinished say what stopped them: a game declares its limits in
words (``Declaration.limits``), the manifest keeps them, and the tournament's line and the
report's finding name them; a game that declares none keeps "the game's limit on <unit>
length". The truth is the rows' (``time_ms`` under the time limit: the action limit fired)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import reports
from ligretto.plugin import LigrettoGame
from ligretto.rules import MAX_ACTIONS, MAX_ROUND_MS
from reports.data import ReportError, run_declaration
from reports.findings import key_findings, unfinished_words
from tests.helpers import cli
from tournaments.declaration import Declaration, check_kinds
from tournaments.games import get_game

ROOT = Path(__file__).resolve().parents[1]
FAST = "think_ms=0,look_ms=0,flip_ms=0,spread_ms=0,patience=9000000"  # the action limit fires
LIMITS = "10 minutes of game time or 2,000,000 actions a round"
ACTIONS = "2,000,000 actions a round"  # the one of them the rows show stopped these rounds


def test_ligretto_declares_its_two_limits_as_its_rules_set_them():
    assert (MAX_ROUND_MS, MAX_ACTIONS) == (600_000, 2_000_000)  # the words below are these
    d = Declaration.of(LigrettoGame())
    assert d.limits == LIMITS
    assert Declaration.from_dict(d.to_dict()) == d  # the manifest keeps it


@pytest.mark.slow
def test_rounds_stopped_at_the_action_limit_are_not_said_stopped_at_a_length_limit(
    capsys, tmp_path: Path
):
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "--game", "ligretto", f"cautious:{FAST}",
                          f"cautious:speed=1.5,{FAST}", "--players", "4", "--games", "8",
                          "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    run = reports.load_run(out)
    rows = pd.concat(pd.read_parquet(p) for p in sorted((out / "games").rglob("*.parquet")))
    stopped = rows[rows["unfinished"]]
    assert len(stopped) == 8 and (stopped["time_ms"] < MAX_ROUND_MS).all()  # not the clock
    assert json.loads((out / "manifest.json").read_text())["game_declaration"]["limits"] == LIMITS
    (line,) = [x for x in said.splitlines() if "stopped unfinished" in x]
    assert line == (
        f"8 rounds (40.0%) stopped unfinished at a limit of the game ({ACTIONS}) and are scored "
        "as they stood, won by whoever was ahead (a higher score) when they stopped."
    )
    tables, method = reports.compute_tables(run)
    (text,) = [f.text for f in key_findings(tables, method, run.declaration)
               if f.topic == "completion"]  # fmt: skip
    assert f"stopped unfinished at a limit of the game ({ACTIONS})" in text
    assert "length" not in text and "minutes" not in text
    docs = " ".join((ROOT / "docs" / "ligretto.md").read_text(encoding="utf-8").split())
    assert f"`cautious:{FAST}` against itself at `speed=1.5`, at 4 players" in docs
    assert f"`stopped unfinished at a limit of the game ({ACTIONS})` for the run above" in docs


def _row(unfinished: int, won: int = 0) -> pd.Series:
    return pd.Series({"games": 10, "unfinished": unfinished, "unfinished_won": won})


def test_a_game_that_declares_no_limits_keeps_its_words_on_length():
    d = replace(Declaration.of(get_game("leaves")), limits=None)
    assert unfinished_words(_row(2), d) == (
        "2 games (20.0%) stopped unfinished at the game's limit on game length and count as "
        "nobody's win"
    )


def test_a_plugin_without_a_limits_attribute_declares_none():
    class Bare:  # a duck-typed plug-in: every declared attribute but the optional one
        pass

    bare = Bare()
    for k, v in Declaration.of(get_game("leaves")).to_dict().items():
        if k != "limits":
            setattr(bare, k, v)
    assert not hasattr(bare, "limits")
    assert Declaration.of(bare).limits is None


def _manifest(declaration: dict) -> dict:
    return {"game_declaration": declaration}


def test_an_older_manifest_without_limits_reads_back():
    older = Declaration.of(LigrettoGame()).to_dict()
    del older["limits"], older["limit_columns"]
    assert run_declaration(_manifest(older)).limits == LIMITS  # the installed game's
    unknown = {**older, "name": "no-such-game"}
    assert run_declaration(_manifest(unknown)).limits is None  # none installed: none said
    assert unfinished_words(_row(1, 1), run_declaration(_manifest(unknown))).startswith(
        "1 round (10.0%) stopped unfinished at the game's limit on round length"
    )


@pytest.mark.parametrize("bad", [5, "", "  ", ["10 minutes"]])
def test_limits_of_another_kind_are_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=r"^the game declaration's limits is .*, expected text "
                       r"or null$"):  # fmt: skip
        check_kinds({"limits": bad})
    declared = {**Declaration.of(LigrettoGame()).to_dict(), "limits": bad}
    with pytest.raises(ReportError, match=r"^corrupt manifest: the game declaration's limits"):
        run_declaration(_manifest(declared))


def test_check_game_refuses_limits_that_are_no_words():
    from tournaments.testing import GameCheckError, check_game

    class Odd(LigrettoGame):
        limits = 5

    with pytest.raises(GameCheckError, match=r"the declaration check failed: limits = 5 is not"):
        check_game(Odd)
