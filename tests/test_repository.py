"""The repository speaks only of the project: long modules say why, no machine paths."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LONG = 420  # "no module over ~400 lines ... except where one job needs it (say why at its top)"


def _tracked(*patterns: str) -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (an installed copy): nothing to check")
    return [ROOT / line for line in out.splitlines() if (ROOT / line).is_file()]


@pytest.mark.parametrize("package", ["leaves", "strategies"])
def test_long_modules_say_why_at_their_top(package):
    for path in sorted((ROOT / package).rglob("*.py")):  # the command (leaves_cli) too
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > LONG:
            doc = ast.get_docstring(ast.parse(text)) or ""
            assert "one job" in doc, f"{path.relative_to(ROOT)} is long and does not say why"


def test_no_machine_paths_in_the_repository():
    # Absolute paths of a checkout, a shared folder, a home or a temporary directory.
    pattern = re.compile(r"(?<![\w.])/(tmp|work|home|root|Users|mnt|scratch)/\w")
    offenders = []
    for path in _tracked("*.py", "*.md", "*.toml", "*.cfg", "*.txt", "*.yml", "*.yaml", ".ci/*"):
        if path == Path(__file__):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
