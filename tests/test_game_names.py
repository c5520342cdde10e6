"""The generic layers never name a game, in code or in text: a game is a plug-in, so what they
say about one must hold for any game that declares the same, a third party's included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournaments.games import game_class, game_names

ROOT = Path(__file__).resolve().parents[1]
GENERIC = ["gamekit", "strategies", "tournaments", "reports", "tuning", "leaves_cli"]
NAMES = ["13 Leaves", "Ligretto", "climb"]
"""Titles and ids that mean a game and nothing else. "climb" (the tests' game) is installed only
when ``tests/plugins`` is on ``sys.path``, so it is named here as well as found."""
AMBIGUOUS = {"leaves"}
"""Ids that are also something else: "leaves" is the project's name too (the command, the
entry-point groups, the distribution, the cache folder), so only its title counts."""


def _names() -> list[str]:
    """The literal names and every installed game's title and (unambiguous) id."""
    found = set(NAMES)
    for name in game_names():
        found.add(game_class(name).title)
        if name not in AMBIGUOUS:
            found.add(name)
    return sorted(found, key=str.lower)


def _pattern(names: list[str]) -> re.Pattern[str]:
    """Any of ``names`` as whole words, case-insensitive, its words split by any whitespace (a
    title wrapped over two lines still counts)."""
    words = (r"\s+".join(map(re.escape, n.split())) for n in names)
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE)


def _mentions(source: str, rel: str, pattern: re.Pattern[str]) -> list[str]:
    """``rel:line: text`` for every line where ``pattern`` starts."""
    lines = source.splitlines()
    found = []
    for match in pattern.finditer(source):
        n = source.count("\n", 0, match.start()) + 1
        text = lines[n - 1].strip()
        found.append(f"{rel}:{n}: {text}")
    return list(dict.fromkeys(found))


@pytest.mark.parametrize("package", GENERIC)
def test_no_generic_module_names_a_game(package):
    pattern = _pattern(_names())
    offenders = [
        m
        for path in sorted((ROOT / package).rglob("*.py"))
        for m in _mentions(
            path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix(), pattern
        )
    ]
    assert not offenders, "a game named in generic code:\n" + "\n".join(offenders)


def test_a_named_game_is_found():
    """A title wrapped over two lines and an id in any case count, a longer word does not, and
    every mention is found, in code as in words."""
    pattern = _pattern(["13 Leaves", "climb"])
    source = (
        '"""As in 13\n    Leaves."""\n'
        'x = "Climb"  # climbing is fine\n'
        'KERNEL_PACKAGES = ("climb",)\n'
    )
    assert _mentions(source, "m.py", pattern) == [
        'm.py:1: """As in 13',
        'm.py:3: x = "Climb"  # climbing is fine',
        'm.py:4: KERNEL_PACKAGES = ("climb",)',
    ]
