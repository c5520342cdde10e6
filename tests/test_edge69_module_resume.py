"""A run resumes whatever way its strategies were given: a module's class, an entry point
named otherwise than its class, a class of the script that started the run."""

from __future__ import annotations

import hashlib
import sys
import types
from typing import Any

import pytest
from click.testing import CliRunner

from leaves_cli.errors import CLIError
from leaves_cli.main import cli
from leaves_cli.resume import entrant_specs
from strategies import Strategy
from strategies.provenance import entrant_target, provenance

MODULE = """
from strategies import Strategy


class Keeper(Strategy):
    name = "keeper69"

    def __init__(self, k: int = 2):
        self.k = k

    def choose(self, view, legal, rng):
        return legal[0]
"""


class _Game:
    """A game that resolves only the specs given (the others are unknown)."""

    def __init__(self, *known: str) -> None:
        self.known, self.asked = set(known), []

    def resolve(self, spec: str) -> tuple[str, Any]:
        self.asked.append(spec)
        if spec not in self.known:
            raise ValueError(f"unknown strategy {spec!r}")
        return spec, spec


def _spec(*entrants: dict[str, Any]) -> dict[str, Any]:
    return {"entrants": list(entrants), "strategies": [e["label"] for e in entrants]}


def test_a_module_class_is_rebuilt_by_its_class_with_its_labels_parameters():
    spec = _spec(
        {"label": "greedy", "class": "leaves.players.builtin.simple:GreedyStrategy"},
        {"label": "Unnamed(k=3)", "class": "my_package.more:Unnamed", "params": {"k": 3}},
    )
    game = _Game("greedy", "my_package.more:Unnamed(k=3)")
    assert entrant_specs(spec, game) == ("greedy", "my_package.more:Unnamed(k=3)")


def test_a_module_that_cannot_load_is_said_so_without_advising_load():
    spec = _spec({"label": "hoarder", "class": "mypkg.strats:Hoarder"})
    with pytest.raises(CLIError) as err:
        entrant_specs(spec, _Game())
    said = str(err.value)
    assert "'hoarder' cannot be rebuilt" in said and "mypkg.strats:Hoarder" in said
    assert "--load" not in said


def test_a_scripts_class_the_run_did_not_record_is_said_so_without_advising_load():
    spec = _spec({"label": "Anon", "class": "__main__:Anon", "params": {}})
    with pytest.raises(CLIError) as err:
        entrant_specs(spec, _Game())
    assert "script that started the run" in str(err.value)
    assert "--load" not in str(err.value)
    with pytest.raises(ValueError, match="did not record"):
        entrant_target({"class": "__main__:Anon"})


def test_a_label_alone_still_advises_load():
    with pytest.raises(CLIError, match="--load"):
        entrant_specs(_spec({"label": "mine"}), _Game())


def test_a_scripts_class_is_recorded_by_its_script_file_and_hash(tmp_path, monkeypatch):
    script = tmp_path / "run_it.py"
    script.write_text("# the script\n")
    main = types.ModuleType("__main__")
    main.__file__ = str(script)

    class Scripted(Strategy, register=False):
        def choose(self, view, legal, rng):
            return legal[0]

    Scripted.__module__, Scripted.__qualname__ = "__main__", "Scripted"
    main.Scripted = Scripted
    monkeypatch.setitem(sys.modules, "__main__", main)
    described = provenance(Scripted())
    assert described["file"] == str(script.resolve())
    assert described["class"] == "Scripted" and described["package"] is None
    assert described["file_sha256"] == hashlib.sha256(script.read_bytes()).hexdigest()
    assert entrant_target(described) == f"{script.resolve()}:Scripted"


@pytest.mark.slow
def test_a_run_of_a_module_spec_resumes(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg69"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bots.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = str(tmp_path / "run")
    first = CliRunner().invoke(cli, ["tournament", "pkg69.bots:Keeper(k=3)", "greedy", "low",
                                     "--games", "24", "--out", out])  # fmt: skip
    assert first.exit_code == 0, first.output
    from strategies import registry

    registry.unregister("keeper69")  # another process: the name is not registered there
    again = CliRunner().invoke(cli, ["tournament", "--out", out, "--resume", "--add", "24"])
    assert again.exit_code == 0, again.output
    assert "grown by 1 more stage" in again.output
