"""What a run tells its user about a strategy while it plays, as a Python warning each (the
command line shows it as one ``leaves: warning:`` line), once a run, as soon as a chunk shows it:

- a strategy that draws from the global random state of the process playing it (Python's
  ``random`` module, ``numpy.random``): its games (its game's units: rounds, say) do not replay from
  their seeds. A process
  compares both states before and after the first chunk it plays of each table where a
  strategy that is not built in sits (``strategies.global_random``): about 0.2 ms once a
  table, nothing at a table of built-ins.
- a strategy whose decisions run past the decision timeout: each such game is forfeited
  and costs the whole timeout, so a run of one that always hangs would otherwise play on
  silently for games x timeout. The chunk's forfeits say which, and why.

``Watched`` wraps the function the players call on each task, in whatever process plays it,
and returns its output with what that process noticed (``Noted``); ``said`` unwraps the stream
in the driver and warns (``Notices``). Tasks other than a chunk pass through unnoticed.
"""

from __future__ import annotations

import threading
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from strategies import global_random
from strategies.deadline import timed_out_after

from .work import FORFEIT_DETAILS_PER_CHUNK, ChunkOutput, ChunkTask

__all__ = ["Notes", "Noted", "Notices", "Said", "Watched", "not_replayed", "runs_as_one", "said",
           "unwrapping"]  # fmt: skip


@dataclass(frozen=True)
class Notes:
    """What the process that played a chunk noticed: ``games`` each entrant (by label) played
    in it, ``timeouts`` those of them it forfeited by a timed-out decision (at least, where
    ``cut``: the chunk kept the details of only some forfeits) and the ``bound`` they ran past;
    the global random ``sources`` that changed while it played, and the entrants at its table
    that could have drawn from them (``drew``: the ones not built in), what the game calls one
    of its games (``unit``) and what to do about it (``advice``)."""

    games: dict[str, int]
    timeouts: dict[str, int] = field(default_factory=dict)
    bound: str = ""
    cut: bool = False
    sources: tuple[str, ...] = ()
    drew: tuple[str, ...] = ()
    unit: str = "game"
    advice: str = ""


@dataclass(frozen=True)
class Noted:
    """A task's output, and what the process that played it noticed (None: no chunk)."""

    output: Any
    notes: Notes | None


def _suspects(task: ChunkTask) -> dict[str, Any] | None:
    """The chunk's entrants that are not built in, by label (None: a strategy cannot be
    looked up here; playing the chunk then says why)."""
    entrants = dict.fromkeys(chain(task.table, *task.seatings))
    try:
        strategies = [(e, task.game.strategy(task.payloads[e])) for e in entrants]
    except Exception:  # noqa: BLE001 - the chunk's own play raises it, worded
        return None
    return {task.labels[e]: s for e, s in strategies if not global_random.own_code(s)}


def _compares_here() -> bool:
    """Whether this thread may compare the process's random state around a chunk: the main
    thread plays one chunk at a time (a Dask worker's threads may play several at once, and
    its helper process compares for it where a timeout is set)."""
    return threading.current_thread() is threading.main_thread()


_compared: dict[tuple[int, tuple[str, ...]], set[int]] = {}
"""The tables of the last run (seed, entrants) this process compared a chunk of."""


def _first_of_table(task: ChunkTask) -> bool:
    """Whether ``task`` is the first chunk of its table this process plays in its run: only
    that one is compared (a compiled chunk of 2,000 games takes 10 to 20 ms, a comparison
    0.2 ms; a strategy that draws does so in its first games)."""
    run = (task.seed, task.labels)
    if run not in _compared:
        _compared.clear()
        _compared[run] = set()
    new = task.chunk.table not in _compared[run]
    _compared[run].add(task.chunk.table)
    return new


class Watched:
    """``fn(task)`` as ``Noted``: its output and, for a chunk, what playing it showed. With
    ``compare=False`` (players that are threads of one process, which play compiled code
    only) no random state is compared."""

    def __init__(self, fn: Callable[[Any], Any], compare: bool = True):
        self.fn = fn
        self.compare = compare

    def __call__(self, task: Any) -> Noted:
        if not isinstance(task, ChunkTask):
            return Noted(self.fn(task), None)
        compare = (self.compare and _compares_here() and _suspects(task) != {}
                   and _first_of_table(task))  # fmt: skip
        output, sources = global_random.drawn_during(lambda: self.fn(task), compare)
        return Noted(output, _notes(task, output, sources))


def _notes(task: ChunkTask, output: Any, sources: tuple[str, ...]) -> Notes | None:
    """What ``output`` (the chunk's) says of its entrants' games and timeouts, and who could
    have drawn from the global random ``sources`` that changed while it played."""
    if not isinstance(output, ChunkOutput):
        return None
    agg = output.aggregates
    per_game = int(agg["games"].sum()) // max(len(task.table), 1)  # seats: every one a game's
    games = {task.labels[e]: per_game for e, n in enumerate(agg["games"]) if n}  # each sat in all
    timeouts: Counter[str] = Counter()
    bound = ""
    for detail in output.forfeits:
        said = None if "traceback" in detail else timed_out_after(detail["error"])
        if said is not None:  # a timeout keeps no traceback: the strategy's code raised none
            timeouts[detail["strategy"]] += 1
            bound = said
    kept = len(output.forfeits)
    cut = kept >= FORFEIT_DETAILS_PER_CHUNK and int(agg["forfeits"].sum()) > kept
    suspects = (_suspects(task) or {}) if sources else {}
    unit = str(getattr(task.game, "unit", "game"))
    advice = global_random.advice(suspects.values())
    return Notes(games, dict(timeouts), bound, cut, sources, tuple(suspects), unit, advice)


def not_replayed(drew: tuple[str, ...], sources: tuple[str, ...], unit: str = "game") -> str:
    """Why the ``unit``s (a game's word for them) of entrants of whom one or more drew from
    the global random ``sources`` do not replay: the one wording of the run's warning, a
    replay's and ``leaves variants``' traces."""
    who = (
        drew[0]
        if len(drew) == 1
        else f"at least one of {', '.join(drew)} (they played the same {unit}s)"
    )
    return (
        f"{who} draws from the global random state ({' and '.join(sources)}), which no seed "
        f"sets: its {unit}s do not replay from their seeds"
    )


def drew_line(drew: tuple[str, ...], sources: tuple[str, ...], unit: str = "game",
              advice: str = "") -> str:  # fmt: skip
    """The warning for entrants of whom one or more drew from global random state."""
    advice = advice or global_random.advice(())
    return (f"{not_replayed(drew, sources, unit)}, and the run is not reproducible from its "
            f"seed; {advice}")  # fmt: skip


def timeout_line(label: str, timed_out: int, games: int, bound: str, cut: bool) -> str:
    """The warning for an entrant whose decisions ran past the decision timeout."""
    many = f"at least {timed_out}" if cut else f"{timed_out}"
    return (
        f"{label} timed out in {many} of the {games} games it played so far (a decision took "
        f"longer than {bound}): a timed-out decision forfeits its game (no winner; the error "
        "is kept with the game) and the run goes on"
    )


@dataclass
class Said:
    """What was warned of, by key: a strategy's label within one run; within ``runs_as_one``,
    its name without parameters, across the runs (a tuning's candidates are runs of one class
    at many parameters: it was named once a candidate)."""

    drew: set[frozenset[str]] = field(default_factory=set)
    timed_out: set[str] = field(default_factory=set)
    by_class: bool = False

    def key(self, label: str) -> str:
        return label.split("(", 1)[0] if self.by_class else label


_SCOPE: ContextVar[Said | None] = ContextVar("notices_scope", default=None)


@contextmanager
def runs_as_one() -> Iterator[None]:
    """The runs played inside it warn of each strategy class once, whatever its parameters."""
    token = _SCOPE.set(Said(by_class=True))
    try:
        yield
    finally:
        _SCOPE.reset(token)


class Notices:
    """The driver's side: what the chunks collected so far noticed, and each warning once (a
    strategy named alone once; several that shared a table, once, unless one was named alone)."""

    def __init__(self) -> None:
        self.games: Counter[str] = Counter()
        self._said = _SCOPE.get() or Said()

    def heard(self, notes: Notes | None) -> list[str]:
        """The warnings ``notes`` (a chunk's, just collected) calls for, not said before."""
        if notes is None:
            return []
        self.games.update(notes.games)
        lines = []
        key = self._said.key
        if notes.sources and notes.drew and self._new_drew(frozenset(map(key, notes.drew))):
            lines.append(drew_line(notes.drew, notes.sources, notes.unit, notes.advice))
        for label, timed_out in notes.timeouts.items():
            if key(label) not in self._said.timed_out:
                self._said.timed_out.add(key(label))
                lines.append(timeout_line(label, timed_out, self.games[label], notes.bound,
                                          notes.cut))  # fmt: skip
        return lines

    def _new_drew(self, who: frozenset[str]) -> bool:
        alone = {frozenset([label]) for label in who}
        if who in self._said.drew or (len(who) > 1 and alone & self._said.drew):
            return False
        self._said.drew.add(who)
        return True


def unwrapping(salvage: Callable[[Any], None] | None) -> Callable[[Noted], None] | None:
    """``salvage`` for ``Noted`` items: it receives their outputs."""
    if salvage is None:
        return None
    return lambda item: salvage(item.output)


def said(stream: Iterator[Noted]) -> Iterator[Any]:
    """The outputs of ``stream``, warning as each chunk's notes call for (``Notices``); closing
    this closes ``stream``."""
    notices = Notices()
    try:
        for item in stream:
            for line in notices.heard(item.notes):
                warnings.warn(line, stacklevel=2)
            yield item.output
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
