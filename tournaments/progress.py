"""What a run shows on stderr (rich): a spinner while it compiles, then a progress bar.

The progress bar shows games done, this session's games per second and the time left at that
pace.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

__all__ = ["COMPILING", "RunProgress", "compiling"]

COMPILING = "compiling (first run only)"


@contextmanager
def compiling(enabled: bool = True) -> Iterator[None]:
    """A spinner saying ``COMPILING`` for the duration (nothing when not ``enabled``)."""
    if not enabled:
        yield
        return
    from rich.console import Console  # start-up: rich loads to draw a bar

    with Console(stderr=True).status(COMPILING, spinner="dots"):
        yield


class RunProgress:
    """Context manager; ``advance(n)`` after each chunk. Silent when ``enabled`` is false.

    Its pace is this session's: the units advanced since it opened over the time since then
    (``clock``'s seconds), and the time left is the units left at that pace. A pace measured
    over the last chunks only (rich's ``Task.speed``) is wild where chunks finish in bursts:
    a run that played 114 games/s said 153,442 games/s.
    """

    def __init__(self, total: int, done: int = 0, enabled: bool = True, unit: str = "games",
                 clock: Callable[[], float] = time.perf_counter):  # fmt: skip
        self.total, self.done, self.enabled, self.unit = total, done, enabled, unit
        self._clock, self._first, self._t0 = clock, done, clock()
        self._progress = None
        self._task = None

    def __enter__(self) -> RunProgress:
        self._first, self._t0 = self.done, self._clock()  # the session starts playing now
        if not self.enabled:
            return self
        from rich.console import Console  # start-up: rich loads to draw a bar
        from rich.progress import (  # start-up: as the line above
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            BarColumn(bar_width=24),
            TaskProgressColumn(),
            MofNCompleteColumn(),
            TextColumn(self.unit),
            _column(self.rate_words),
            TimeElapsedColumn(),
            TextColumn("left"),
            _column(self.left_words),
            console=Console(stderr=True),
            get_time=self._clock,  # its elapsed time and the pace count alike
        )
        self._progress.__enter__()
        self._task = self._progress.add_task("run", total=self.total, completed=self.done)
        return self

    def advance(self, n: int) -> None:
        self.done += n
        if self._progress is not None:
            self._progress.update(self._task, advance=n)

    def _pace(self) -> float | None:
        """Units a second this session (None before any, or before any time passed)."""
        played, seconds = self.done - self._first, self._clock() - self._t0
        return played / seconds if played > 0 and seconds > 0 else None

    def rate_words(self) -> str:
        """This session's pace, as the bar shows it ("114 games/s"; "" before any)."""
        pace = self._pace()
        return "" if pace is None else f"{pace:,.0f} {self.unit}/s"

    def left_words(self) -> str:
        """The time the units left take at this session's pace ("-:--" before any)."""
        pace = self._pace()
        if pace is None:
            return "-:--"
        minutes, seconds = divmod(round(max(0, self.total - self.done) / pace), 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.__exit__(exc_type, exc, tb)


def _column(words: Callable[[], str]) -> Any:
    """A column of the bar showing ``words()`` as it is drawn (not as of the last chunk)."""
    from rich.progress import ProgressColumn  # start-up: rich loads to draw a bar
    from rich.text import Text  # start-up: as the line above

    class Words(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(words())

    return Words()
