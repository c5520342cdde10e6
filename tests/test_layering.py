"""Imports flow one way: leaves <- strategies <- tournaments <- reports <- tuning; the CLI on top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["leaves", "strategies", "tournaments", "reports", "tuning"]


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_no_module_imports_a_higher_layer(layer):
    higher = set(LAYERS[LAYERS.index(layer) + 1 :])
    offenders = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[:2] == ("leaves", "cli"):
            continue  # the command line sits on top of every layer
        bad = _imported_packages(path) & higher
        if bad:
            offenders.append(f"{rel} imports {sorted(bad)}")
    assert not offenders, "; ".join(offenders)


def test_rules_core_imports_no_plotting_or_dataframes():
    heavy = {"pandas", "matplotlib", "pyarrow", "dask", "joblib"}
    for path in sorted((ROOT / "leaves").rglob("*.py")):
        if "cli" in path.parts:
            continue
        assert not (_imported_packages(path) & heavy), path
