"""A strategy class defined inside another class of a user's file (``Outer.Bot``): a spec names
it by its qualified name (``file.py:Outer.Bot``), the spec each class of the file keeps loads
it back (a worker loads a loaded file's strategy so; a class made in a function keeps the name
the file binds it to), and a class path that holds no strategy is said so in one line."""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import pytest

from strategies import registry
from tests.helpers import cli, forget_loaded_files  # noqa: F401  (a fixture)

NESTED = """
import os
import time

from strategies import Strategy


class Outer:
    class Bot(Strategy):
        name = "edge66-nested"

        def __init__(self, pick: int = 0):
            self.pick = pick

        def choose(self, view, legal, rng):
            if os.getpid() == {driver}:  # the driver slow: the workers play, however busy
                time.sleep(0.002)
            if {log!r}:
                with open({log!r}, "a", encoding="utf-8") as f:
                    f.write(f"{{os.getpid()}}\\n")
            return legal[min(self.pick, len(legal) - 1)]
"""


def _file(tmp_path: Path, body: str, name: str = "bots.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return str(path.resolve())


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_nested_class_loads_by_its_qualified_name(tmp_path):
    """Was: "cannot read parameter 'Outer.Bot' in strategy spec '.../bots.py:Outer.Bot'"."""
    path = _file(tmp_path, NESTED.format(log="", driver=-1))
    bot = registry.get(f"{path}:Outer.Bot:pick=1")
    cls = type(bot)
    assert (cls.__qualname__, bot.params) == ("Outer.Bot", {"pick": 1})
    assert cls._source_spec == f"{path}:Outer.Bot"
    assert type(registry.get(cls._source_spec)) is cls
    assert registry.get_class("edge66-nested") is cls


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_class_path_that_holds_no_strategy_is_said_in_one_line(tmp_path):
    """Was: "cannot read parameter 'Outer.Nope' ..." (the class path read as parameters). A
    class path goes through classes only, not a module the file imports."""
    path = _file(tmp_path, NESTED.format(log="", driver=-1))
    for target in ("Outer.Nope", "os.path", "Outer.Bot.pick"):
        with pytest.raises(ValueError) as exc:
            registry.get(f"{path}:{target}")
        assert re.fullmatch(rf"'.+' has no class '{re.escape(target)}'; it defines Outer\.Bot",
                            str(exc.value)), str(exc.value)  # fmt: skip
    with pytest.raises(ValueError, match=r"as .+:Outer\.Bot \(it defines Outer\.Bot\)$"):
        registry.get(path)


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_class_made_in_a_function_keeps_a_spec_that_loads_it(tmp_path):
    """Was: its spec was ``file.py:make.<locals>.Bot``, which no spec loads (a worker could
    not play it). An alias keeps the class's own name as its spec."""
    path = _file(tmp_path, """
        from strategies import Strategy


        def make():
            class Bot(Strategy, register=False):
                def choose(self, view, legal, rng):
                    return legal[0]

            return Bot


        Made = make()


        class Own(Strategy, register=False):
            def choose(self, view, legal, rng):
                return legal[0]


        Alias = Own
    """)  # fmt: skip
    for target, spec in (("Made", "Made"), ("Alias", "Own"), ("Own", "Own")):
        cls = type(registry.get(f"{path}:{target}"))
        assert cls._source_spec == f"{path}:{spec}"
        assert type(registry.get(cls._source_spec)) is cls


@pytest.mark.parametrize(
    ("spec", "target"),
    [
        ("/x/a:b.py:Bot", "/x/a:b.py:Bot"),
        ("/x/a:b.py:Outer.Bot:k=1", "/x/a:b.py:Outer.Bot"),
        ("pkg.mod:Outer.Bot:k=1", "pkg.mod:Outer.Bot"),
    ],
)
def test_a_class_path_is_no_file_name(spec, target):
    """A file whose name holds a colon stays one file (``b.py`` is no class path)."""
    assert registry.parse_spec(spec)[0] == target


@pytest.mark.slow
@pytest.mark.usefixtures("forget_loaded_files")
def test_a_nested_class_by_its_name_reaches_the_workers(tmp_path, capsys, monkeypatch):
    """Was: "unknown strategy 'edge66-nested'" from the workers (its class kept no spec, so the
    run sent them the name, which only this process had loaded), and the manifest recorded
    no file."""
    monkeypatch.setenv("COLUMNS", "300")
    log = tmp_path / "decisions.txt"
    path = _file(tmp_path, NESTED.format(log=str(log), driver=os.getpid()))
    code, _, err = cli(capsys, "tournament", "edge66-nested", "greedy", "low", "--load", path,
                       "--players", "3", "--games", "600", "--jobs", "2", "--no-progress",
                       "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 0, err
    pids = {int(pid) for pid in log.read_text(encoding="utf-8").split()}
    assert pids - {os.getpid()}, "no worker played it"
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    mine = next(e for e in manifest["spec"]["entrants"] if e["label"] == "edge66-nested")
    assert (mine["file"], mine["class"]) == (path, "Outer.Bot")


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_nested_class_loads_by_its_label_form(tmp_path):
    """Was: the label form ``file.py:Outer.Bot(pick=1)`` read "Outer.Bot(pick=1)" as the class
    (``spec_values._LABEL_HEAD`` took a simple class name only); the colon form worked."""
    path = _file(tmp_path, NESTED.format(log="", driver=-1))
    bot = registry.get(f"{path}:Outer.Bot(pick=1)")
    assert (type(bot).__qualname__, bot.params) == ("Outer.Bot", {"pick": 1})
