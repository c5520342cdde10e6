"""Hints: what the search bot would play here, and why ``weighted`` would.

The search bot (``ismcts`` with its default settings, when registered; ``--level hard`` plays
its stronger ``preset=strong``) plays better than any heuristic but cannot say why; the
best heuristic (``weighted``) scores every move as weights x features, so its top choices can
be shown with each feature's contribution. ``play`` and ``replay`` both show this text.

Imports inside functions: start-up (the players load with the first hint).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from rich.console import Console, Group, RenderableType
from rich.text import Text

from leaves import PlayerView
from leaves_cli.fitted import FittedTable

SEARCH_BOT = "ismcts"
"""The search bot, with its default settings, when it is registered (``docs/performance.md``
has the hint's time: ``benchmarks/bench_hint.py``)."""

TOP = 3
"""How many of weighted's choices a hint explains."""

PREPARING = "compiling the search, first time only..."
"""Said before the first search decision of a session where the search runs on numba (no C
engine: ``leaves.players.compiled.engine``): numba compiles (or loads from its cache) the
search's kernels then, and the screen would freeze unsaid. The C engine compiles nothing. It
promises no time: how long numba takes depends on the machine and its load."""

_search_ready = False


def preparing_search(console: Console | None) -> None:
    """Say ``PREPARING`` on ``console`` before the session's first search decision (once),
    when the search will compile: on numba, not on the C engine."""
    global _search_ready
    if not _search_ready and console is not None:
        from leaves.players.compiled import engine

        if not engine.available():
            console.print(Text(PREPARING, style="dim"))
    _search_ready = True


def _describe(action) -> str:
    if action.is_pass:
        return "pass" if action.taken is None else f"take {action.value}"
    return f"play {action.count}x{action.value}"


def hint(
    view: PlayerView, rng: np.random.Generator, top: int = TOP, console: Console | None = None
) -> RenderableType:
    """The hint for ``view`` (its owner to act): the search bot's move, then weighted's top
    ``top`` choices with the contributions (weight x feature value) that make their scores.
    ``console`` hears, before the first search of the session, that it compiles."""
    import strategies
    from leaves.players.builtin import BEST_HEURISTIC

    legal = view.legal_actions()
    lines: list[RenderableType] = []
    if SEARCH_BOT in strategies.names():
        bot = strategies.get(SEARCH_BOT)
        preparing_search(console)
        move = bot.choose(view, legal, rng)
        lines.append(Text(f"Hint: {bot.label} (search) would {_describe(move)}.", style="bold"))
    best = strategies.get(BEST_HEURISTIC)
    scored = best.explain(view)
    head = f"{best.label} would {_describe(scored[0].action)}"
    if scored[0].wins:
        lines.append(Text(f"{head}: it plays the last cards of the hand and wins.", style="bold"))
        return Group(*lines)
    if len(scored) > 1 and scored[1].score == scored[0].score:  # rows of one score: which
        head += f" (tied with {_describe(scored[1].action)}: it plays the one listed first)"
    lines.append(Text(f"{head}; its top choices (score = sum of weight x feature):"))
    lines.append(_contributions(scored[:top]))
    return Group(*lines)


def _contributions(scored: Sequence) -> _Explained:
    from reports.numbers import fixed

    rows = []
    for s in scored:
        parts = [
            f"{name} = {s.features[name]:g}: {fixed(c, 2, '+')}"
            for name, c in s.contributions.items()
            if c != 0
        ]
        rows.append([_describe(s.action), fixed(s.score, 2), ", ".join(parts) or "all zero"])
    return _Explained(("move", "score", "because (feature = value: contribution)"), rows)


class _Explained(FittedTable):
    """weighted's choices, a move and its score whole on a line where they fit."""

    BOX, RIGHT, WHOLE = None, ("score",), ("move", "score")
