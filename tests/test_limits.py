"""The limits a maintainer can live with, in CI: no product module over 500 lines, no function
over 80 lines (from ``def`` to its last line), none with more than 8 positional parameters
(``self``/``cls`` not counted). The linter (``ruff``, ``pyproject.toml``) checks the number of
positional parameters too; this test adds what it cannot count: lines."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ["gamekit", "interop", "leaves", "ligretto", "strategies", "tournaments", "reports", "tuning",
           "leaves_cli"]  # fmt: skip
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
MAX_POSITIONAL = 8


def _modules() -> list[Path]:
    return [p for pkg in PRODUCT for p in sorted((ROOT / pkg).rglob("*.py"))]


def _functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _positional(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = [*node.args.posonlyargs, *node.args.args]
    return len(args) - (1 if args and args[0].arg in ("self", "cls") else 0)


def _where(path: Path, node: ast.AST | None = None) -> str:
    rel = path.relative_to(ROOT).as_posix()
    return f"{rel}:{node.lineno} {node.name}" if node is not None else rel


def test_the_product_packages_exist():
    missing = [pkg for pkg in PRODUCT if not (ROOT / pkg / "__init__.py").is_file()]
    assert not missing, missing


def test_no_module_is_over_500_lines():
    long = [f"{_where(p)} ({n})" for p in _modules()
            if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_MODULE_LINES]  # fmt: skip
    assert not long, "modules over 500 lines: " + ", ".join(long)


def test_no_function_is_over_80_lines():
    long = [
        f"{_where(p, f)} ({f.end_lineno - f.lineno + 1})"
        for p in _modules()
        for f in _functions(p)
        if f.end_lineno - f.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, "functions over 80 lines: " + ", ".join(long)


def test_no_function_takes_more_than_8_positional_parameters():
    many = [
        f"{_where(p, f)} ({_positional(f)})"
        for p in _modules()
        for f in _functions(p)
        if _positional(f) > MAX_POSITIONAL
    ]
    assert not many, "functions with more than 8 positional parameters: " + ", ".join(many)


def test_the_checks_count_what_they_say(tmp_path):
    # a file made to break every limit breaks each of them
    args = ", ".join(f"a{i}" for i in range(MAX_POSITIONAL + 1))
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    path = tmp_path / "big.py"
    path.write_text(f"def f({args}):\n{body}\n" + "\n" * MAX_MODULE_LINES)
    (node,) = _functions(path)
    assert node.end_lineno - node.lineno + 1 == MAX_FUNCTION_LINES + 1
    assert _positional(node) == MAX_POSITIONAL + 1
    assert path.read_text().count("\n") > MAX_MODULE_LINES


def test_the_tree_is_linted_and_formatted():
    # ruff's rules (pyproject.toml), PLR0917 among them, hold for every file, tests included
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]' installs it)")
    for args in (["check", "."], ["format", "--check", "."]):
        done = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT,
                              capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
