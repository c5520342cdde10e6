"""What a run shows on stderr (rich): a spinner while it compiles, then a progress bar.

The progress bar shows games done, games per second and time left.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

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
    """Context manager; ``advance(n)`` after each chunk. Silent when ``enabled`` is false."""

    def __init__(self, total: int, done: int = 0, enabled: bool = True, unit: str = "games"):
        self.total, self.done, self.enabled, self.unit = total, done, enabled, unit
        self._progress = None
        self._task = None

    def __enter__(self) -> RunProgress:
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
            TimeRemainingColumn,
        )

        self._progress = Progress(
            BarColumn(bar_width=24),
            TaskProgressColumn(),
            MofNCompleteColumn(),
            TextColumn(self.unit),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(compact=True),
            console=Console(stderr=True),
            speed_estimate_period=30.0,
        )
        self._progress.__enter__()
        self._task = self._progress.add_task("run", total=self.total, completed=self.done, rate="")
        return self

    def advance(self, n: int) -> None:
        self.done += n
        if self._progress is None:
            return
        self._progress.update(self._task, advance=n)
        speed = self._progress.tasks[0].speed
        rate = f"{speed:,.0f} {self.unit}/s" if speed else ""
        self._progress.update(self._task, rate=rate)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.__exit__(exc_type, exc, tb)
