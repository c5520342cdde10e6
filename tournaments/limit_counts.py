"""The aggregates' counts of games stopped unfinished at each limit a game declares.

One job: their names. Each count is named by the test that tells its limit (``limit_key``:
``unfinished_at:i:column:least``), so a run's files say which limits they counted, and a
count is read back only by exactly these tests (``unfinished_by_limit``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["limit_key", "limit_of_key", "limit_keys", "limit_tests", "unfinished_by_limit"]

_LIMIT = "unfinished_at:"  # + "i:column:least": games stopped at the i-th limit, by its test


def limit_key(i: int, column: str, least: int) -> str:
    """A count's name that says which declared limit it counts (a run's files say it too)."""
    return f"{_LIMIT}{i}:{column}:{int(least)}"


def limit_of_key(key: str) -> tuple[int, str, int]:
    """(i, column, least) of a ``limit_key`` name: a column holding ':' reads whole."""
    i, rest = key[len(_LIMIT) :].split(":", 1)
    column, least = rest.rsplit(":", 1)
    return int(i), column, int(least)


def limit_keys(agg: Mapping[str, Any]) -> list[str]:
    """The counts by declared limit that ``aggregates.empty`` made, in the limits' order."""
    return sorted((k for k in agg if k.startswith(_LIMIT)), key=lambda k: limit_of_key(k)[0])


def limit_tests(limit_columns: Mapping[str, Any] | None) -> list[tuple[str, int]]:
    """(game column, least value) of each limit a game's ``limit_columns`` tells apart, in
    order: all of them but the last (the limit that stopped a game no test catches)."""
    return [(str(t[0]), int(t[1])) for t in (limit_columns or {}).values() if t is not None]


def unfinished_by_limit(agg: Mapping[str, Any], tests: Sequence[Any]) -> list[int] | None:
    """The games stopped unfinished at each declared limit (``tests`` as ``limit_tests`` gives
    them, then the last limit: the rest), over all table sizes; None where the aggregates did
    not count them by exactly these tests (a run written before, or a game without them)."""
    keys = [limit_key(i, column, least) for i, (column, least) in enumerate(tests)]
    if not keys or "size_unfinished" not in agg or keys != limit_keys(agg):
        return None
    counts = [int(agg[k].sum()) for k in keys]
    return [*counts, int(agg["size_unfinished"].sum()) - sum(counts)]
