"""The research extra's PettingZoo floor is one the environment runs on, and a PettingZoo that
cannot be imported is said for what it is: "not installed" only when it is not; an older one
by the release found and the one needed, in one line (the example too, with no traceback)."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from gamekit import requirement
from gamekit.requirement import FLOORS, import_failure

ROOT = Path(__file__).resolve().parent.parent
OLD = (
    "PettingZoo 1.24.3 is installed; PettingZoo 1.25 or later is needed: "
    "pip install 'pettingzoo>=1.25'"
)


def _old_pettingzoo(where: Path) -> dict[str, str]:
    """A PettingZoo 1.24.3 as far as the import goes (no ``AgentSelector``: its
    ``agent_selector`` was renamed in 1.25), first on the path; the environment to run under."""
    package = where / "pettingzoo"
    (package / "utils").mkdir(parents=True)
    (package / "__init__.py").write_text('__version__ = "1.24.3"\n\n\nclass AECEnv:\n    pass\n')
    (package / "utils" / "__init__.py").write_text("class agent_selector:\n    pass\n")
    meta = where / "pettingzoo-1.24.3.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: pettingzoo\nVersion: 1.24.3\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)])}


def _needs_gymnasium() -> None:
    if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
        pytest.importorskip("gymnasium")


def test_the_research_extra_asks_for_the_pettingzoo_the_code_needs():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    (wanted,) = [r for r in extra["research"] if re.match(r"pettingzoo\b", r)]
    assert wanted == "pettingzoo>=" + ".".join(map(str, FLOORS["pettingzoo"]))  # was >=1.24


def test_an_older_pettingzoo_is_named_not_said_missing(tmp_path):
    _needs_gymnasium()
    code = "import interop.pettingzoo"
    proc = subprocess.run([sys.executable, "-c", code], env=_old_pettingzoo(tmp_path),
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 1
    # was: "PettingZoo is not installed: pip install '.[research]'", with 1.24.3 installed
    assert proc.stderr.strip().splitlines()[-1] == f"ImportError: {OLD}"


def test_the_reinforce_example_says_it_in_one_line(tmp_path):
    _needs_gymnasium()  # quick: it stops at the import
    script = ROOT / "examples" / "train_reinforce.py"
    proc = subprocess.run([sys.executable, str(script)], env=_old_pettingzoo(tmp_path),
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr == f"train_reinforce.py: error: {OLD}\n"  # was a traceback


def test_not_installed_only_for_a_module_not_found():
    missing = ModuleNotFoundError("No module named 'pettingzoo'", name="pettingzoo")
    said = "PettingZoo is not installed: pip install '.[research]'"
    assert import_failure(missing, "pettingzoo", "PettingZoo") == said
    gone = ModuleNotFoundError("No module named 'gymnasium'", name="gymnasium")
    assert import_failure(gone, "pettingzoo", "PettingZoo").startswith("gymnasium is not ")


def test_a_release_new_enough_that_fails_says_the_import_error(monkeypatch):
    monkeypatch.setattr(requirement, "_version", lambda package: "1.27.0")
    exc = ImportError("cannot import name 'X' from 'pettingzoo.utils'\n(somewhere)")
    said = import_failure(exc, "pettingzoo", "PettingZoo")
    assert said == "PettingZoo 1.27.0 cannot be imported: cannot import name 'X' from "\
        "'pettingzoo.utils' (somewhere)"  # fmt: skip
    # a missing submodule of an installed package is no missing package
    sub = ModuleNotFoundError("No module named 'pettingzoo.utils'", name="pettingzoo.utils")
    assert "not installed" not in import_failure(sub, "pettingzoo", "PettingZoo")


def test_a_copy_without_metadata_is_named_by_its_version(monkeypatch):
    def no_metadata(package: str) -> str:
        raise importlib.metadata.PackageNotFoundError(package)

    monkeypatch.setattr(importlib.metadata, "version", no_metadata)
    monkeypatch.setitem(sys.modules, "pettingzoo", types.SimpleNamespace(__version__="1.24.3"))
    said = import_failure(ImportError("cannot import name 'AgentSelector'"), "pettingzoo",
                          "PettingZoo")  # fmt: skip
    assert said == OLD
    monkeypatch.setitem(sys.modules, "pettingzoo", types.SimpleNamespace())
    said = import_failure(ImportError("no"), "pettingzoo", "PettingZoo")
    assert said == "PettingZoo (release unknown) cannot be imported: no"
