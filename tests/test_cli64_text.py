"""Each way of writing something as text has one name: two writers of one name (the player
counts in words, the cards of a hand) would let a caller import the one it did not mean."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from leaves.commands.render import cards_text
from leaves.rule_text import counts_text

ROOT = Path(__file__).resolve().parent.parent


def test_every_text_writer_is_defined_once():
    where = defaultdict(list)
    for package in ("leaves", "leaves_cli"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.FunctionDef) and node.name.endswith("_text"):
                    where[node.name].append(str(path.relative_to(ROOT)))
    assert not {name: paths for name, paths in where.items() if len(paths) > 1}


def test_the_two_writers_say_what_they_always_said():
    assert cards_text((0, 2, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0)) == "2 2 5 6 6 6"
    assert cards_text((0,) * 13) == "-"
    assert counts_text((3, 4, 5, 6)) == "3 to 6"
    assert counts_text((2, 3, 5)) == "2, 3 or 5"
