"""A manifest's entrants and declaration read alike by every game and command: an entrant's
params that are no table refused in the manifest's words by both games' rebuild and said so
by a resume, and a declaration lacking a field that no installed game fills in refused by
verify, report and resume alike, each naming the file."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from leaves_cli.verify_cmd import NO_MANIFEST
from ligretto.plugin import LigrettoGame
from reports.data import ReportError, run_declaration
from strategies.provenance import provenance_change
from tests.helpers import cli, copied_run, one_error_line, refused_alike
from tournaments import Tournament, storage
from tournaments.declaration import Declaration
from tournaments.manifest_fields import check_manifest, filling_game

NO_TABLE = "expected a table of parameter names to values"


@pytest.fixture(scope="module")
def leaves_run(tmp_path_factory) -> Path:
    """A small complete run of 13 Leaves (20 games, in chunks)."""
    out = tmp_path_factory.mktemp("entrant64") / "leaves"
    Tournament(["greedy", "random"], games=8, seed=3, chunk_size=4).run(out=out)
    return out


@pytest.mark.parametrize(("game", "spec"), [("leaves", "greedy"), ("ligretto", "cautious")])
@pytest.mark.parametrize(("params", "shown"), [("x", "'x'"), ([["speed", 2.0]], None)])
def test_both_games_refuse_an_entrants_params_that_are_no_table(game, spec, params, shown):
    """Ligretto's said "dictionary update sequence element #0 has length 1; 2 is required"
    for "x", and took a list of pairs for a table."""
    from tournaments.games import get_game

    plugin = get_game(game)
    described = plugin.describe(plugin.resolve(spec)[1])
    assert str(plugin.rebuild(described)) == spec  # a table: the entrant again
    with pytest.raises(ValueError) as info:
        plugin.rebuild({**described, "params": params})
    assert str(info.value) == (
        f"its params in the manifest (spec.entrants) are {shown or repr(params)}, {NO_TABLE}"
    )


def test_a_stored_entrants_params_that_are_no_table_are_said_so_not_new_names():
    """It said "greedy: new parameter keep_pairs=False": the text "x" read as names."""
    new = {"label": "greedy", "class": "c", "params": {"keep_pairs": False}}
    assert provenance_change({**new, "params": "x"}, new) == (
        f"greedy: its params in the manifest (spec.entrants) are 'x', {NO_TABLE}"
    )
    assert provenance_change({**new, "params": {}}, new) == "greedy: new parameter keep_pairs=False"
    assert provenance_change(new, new) is None


def test_a_resume_says_the_stored_params_are_no_table(leaves_run, tmp_path, capsys, monkeypatch):
    """Damage, said as the other damaged fields are: it said "an entrant changed"."""
    monkeypatch.setenv("COLUMNS", "400")

    def edit(m: dict) -> None:
        m["spec"]["entrants"][0]["params"] = "x"

    bad = copied_run(leaves_run, tmp_path, edit)
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code != 0
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {bad / storage.MANIFEST}: "
        f"greedy: its params in the manifest (spec.entrants) are 'x', {NO_TABLE}; {NO_MANIFEST}"
    )


def _unfilled(m: dict) -> None:
    """A declaration of a game not installed here, written before ``match_label``."""
    m["game_declaration"]["name"] = "no-such-game"
    del m["game_declaration"]["match_label"]


WHY = ("the game declaration lacks match_label, which no installed game fills in (none is "
       "named 'no-such-game')")  # fmt: skip


def test_a_declaration_no_installed_game_completes_is_refused_alike_naming_the_file(
    leaves_run, tmp_path, capsys, monkeypatch
):
    """verify said the run was fine; report and resume said "corrupt manifest: the game
    declaration lacks match_label", naming no file (the resume after verifying every chunk)."""
    monkeypatch.setenv("COLUMNS", "400")
    refused_alike(capsys, copied_run(leaves_run, tmp_path, _unfilled), WHY)


def test_a_declaration_is_completed_by_the_installed_game_of_its_name(leaves_run):
    manifest = json.loads((leaves_run / storage.MANIFEST).read_text())
    older = dict(manifest["game_declaration"])
    del older["match_label"]
    assert filling_game(older) is not None  # 13 Leaves, installed: it fills the field in
    check_manifest({**manifest, "game_declaration": older})
    assert run_declaration({**manifest, "game_declaration": older}) == run_declaration(manifest)
    ligretto = Declaration.of(LigrettoGame()).to_dict()
    unknown = {k: v for k, v in ligretto.items() if k != "limits"} | {"name": "no-such-game"}
    assert filling_game(unknown) is None  # only a field with a default is lacking
    assert run_declaration({"game_declaration": unknown}).limits is None
    bad = copy.deepcopy(manifest)
    _unfilled(bad)
    with pytest.raises(ValueError, match=f"^{WHY.replace('(', '[(]').replace(')', '[)]')}$"):
        check_manifest(bad)
    with pytest.raises(ReportError, match="^corrupt manifest: the game declaration lacks"):
        run_declaration(bad)
