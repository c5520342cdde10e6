"""Imports flow one way: gamekit <- leaves, ligretto <- strategies <- tournaments <- reports <-
tuning <- interop (the research environments) <- leaves_cli (the command line). ``gamekit`` (seeds, the kernels' RNG, the lazy JIT)
knows no game; the two rules cores (``leaves``, ``ligretto``) do not import each other. A game
package's players and plug-in (``GAME_PARTS``) build on the shared layers only, and no other
package imports that game. No module is exempt."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["leaves", "strategies", "tournaments", "reports", "tuning", "interop", "leaves_cli"]
CORES = ["leaves", "ligretto"]  # side by side, above gamekit
BOTTOM = "gamekit"
GAME_PARTS = {
    "leaves": ("players", "plugin.py", "commands"),
    "ligretto": ("players", "plugin.py", "commands.py"),
}
"""What a game package holds above its rules core: its players and its plug-in, which build on
the shared layers (``strategies``, ``tournaments``) as a third party's game does, and its own
commands, which build on every layer (the command line's included)."""
SHARED = {BOTTOM, "strategies", "tournaments"}
COMMANDS_PART = "commands"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def _imported_packages(path: Path, allowed: set[str] = frozenset()) -> set[str]:
    return {m.split(".")[0] for m in _imported_modules(path) - allowed}


@pytest.mark.parametrize("layer", LAYERS)
def test_no_module_imports_a_higher_layer(layer):
    higher = set(LAYERS[LAYERS.index(layer) + 1 :])
    offenders = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        rel = path.relative_to(ROOT)
        if _game_part(path, layer):
            continue
        bad = _imported_packages(path) & higher
        if bad:
            offenders.append(f"{rel} imports {sorted(bad)}")
    assert not offenders, "; ".join(offenders)


def test_rules_core_imports_no_plotting_or_dataframes():
    heavy = {"pandas", "matplotlib", "pyarrow", "dask", "joblib"}
    for path in sorted((ROOT / "leaves").rglob("*.py")):
        assert _game_part(path, "leaves") or not (_imported_packages(path) & heavy), path


@pytest.mark.parametrize("core", CORES)
def test_rules_cores_import_neither_each_other_nor_higher_layers(core):
    forbidden = (set(CORES) | set(LAYERS[1:])) - {core}
    heavy = {"pandas", "matplotlib", "pyarrow", "dask", "joblib"}
    offenders = []
    for path in sorted((ROOT / core).rglob("*.py")):
        rel = path.relative_to(ROOT)
        if _game_part(path, core):
            continue
        bad = _imported_packages(path) & (forbidden | heavy)
        if bad:
            offenders.append(f"{rel} imports {sorted(bad)}")
    assert not offenders, "; ".join(offenders)


def _game_part(path: Path, game: str) -> bool:
    inner = path.relative_to(ROOT / game).parts
    return inner[0] in GAME_PARTS.get(game, ())


@pytest.mark.parametrize("game", GAME_PARTS)
def test_a_games_players_and_plug_in_build_on_the_shared_layers_only(game):
    project = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    offenders = []
    for path in sorted((ROOT / game).rglob("*.py")):
        if not _game_part(path, game):
            continue
        on = SHARED | {game}
        if path.relative_to(ROOT / game).parts[0] == COMMANDS_PART:
            on |= set(LAYERS) - set(CORES)
        if bad := _imported_packages(path) & project - on:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "; ".join(offenders)


@pytest.mark.parametrize("game", [g for g, parts in GAME_PARTS.items() if COMMANDS_PART in parts])
def test_a_games_commands_are_found_through_its_entry_point_only(game):
    """The command line lists a game's commands from its ``leaves.commands`` table: no module
    outside them imports them by name."""
    own = ROOT / game / COMMANDS_PART
    offenders = [
        str(path.relative_to(ROOT))
        for package in sorted(
            p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests"
        )
        for path in sorted((ROOT / package).rglob("*.py"))
        if own not in path.parents
        and any(
            m == f"{game}.{COMMANDS_PART}" or m.startswith(f"{game}.{COMMANDS_PART}.")
            for m in _imported_modules(path)
        )
    ]
    assert not offenders, f"import {game}.{COMMANDS_PART}: {offenders}"


@pytest.mark.parametrize("game", ["ligretto"])  # 13 Leaves' players are still in strategies/
def test_no_other_package_imports_a_game_package(game):
    """Ligretto is found through its plug-in (entry point), never imported by name."""
    project = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", game}
    offenders = [
        str(path.relative_to(ROOT))
        for package in sorted(project)
        for path in sorted((ROOT / package).rglob("*.py"))
        if game in _imported_packages(path)
    ]
    assert not offenders, f"import {game}: {offenders}"


def test_the_bottom_package_imports_no_package_of_the_project():
    project = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {BOTTOM}
    offenders = [
        f"{path.relative_to(ROOT)} imports {sorted(bad)}"
        for path in sorted((ROOT / BOTTOM).rglob("*.py"))
        if (bad := _imported_packages(path) & project)
    ]
    assert not offenders, "; ".join(offenders)


@pytest.mark.parametrize("package", ["leaves", "ligretto"])
def test_importing_a_rules_core_imports_no_other_package_of_the_project(package):
    import subprocess
    import sys

    """Nothing above the cores and not the other core: only ``gamekit``, the layer below
    them (their lazy exports), is loaded with them."""
    project = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {package, "tests", BOTTOM}
    code = (
        f"import sys, {package}\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(project)!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)  # fmt: skip
    assert done.stdout.strip() == "[]", done.stdout


PRODUCT = ["gamekit", "leaves", "ligretto", "strategies", "tournaments", "reports", "tuning",
           "interop", "leaves_cli"]  # fmt: skip
WHY = ("start-up", "circle")
"""An import inside a function either buys start-up time or breaks an import circle (each
circle left is named in docs/architecture.md); its comment says which."""


def _unexplained_imports(source: str, name: str) -> list[str]:
    """The imports inside functions of module ``source`` whose line, or the line above, says no
    reason, unless its docstring says why for all of them ("Imports inside functions: ...")."""
    tree = ast.parse(source)
    doc = ast.get_docstring(tree) or ""
    if any(line.startswith("Imports inside functions: ") and any(w in line for w in WHY)
           for line in doc.splitlines()):  # fmt: skip
        return []
    lines = source.splitlines()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    said = lines[sub.lineno - 1] + lines[sub.lineno - 2]
                    if not any(f"# {w}" in said for w in WHY):
                        found.append(f"{name}:{sub.lineno}")
    return sorted(set(found))


def test_every_import_inside_a_function_says_why():
    unexplained = [i for p in PRODUCT for f in sorted((ROOT / p).rglob("*.py"))
                   for i in _unexplained_imports(f.read_text(encoding="utf-8"),
                                                 str(f.relative_to(ROOT)))]  # fmt: skip
    assert not unexplained, f"imports inside functions without a reason: {unexplained}"


def test_an_import_inside_a_function_without_a_reason_is_found():
    bare = "def f():\n    import json\n\n    return json\n"
    assert _unexplained_imports(bare, "m.py") == ["m.py:2"]
    assert _unexplained_imports(bare.replace("json\n", "json  # start-up: x\n", 1), "m.py") == []
    assert _unexplained_imports('"""M.\n\nImports inside functions: circle."""\n' + bare, "m") == []
