"""What a check of a run finds: each bad file (``Problem``), what a resume does about it, and
the whole check's outcome (``Verification``, which ``tournaments.verify.verify_run`` fills)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DROP", "LEAVE", "REMOVE", "REPLAY", "Problem", "Verification"]

REPLAY, REMOVE, LEAVE, DROP = "replay", "remove", "leave", "drop"
"""What ``--resume`` does about a ``Problem``: plays its chunk again (or writes a merged file
again), removes the file, leaves it (a file it did not write: it never guesses), or drops
the manifest's entry, which plays nothing again (a key or a chunk that is none of the run's,
the merged files' checksums in a shape it cannot read: written anew at the end)."""


@dataclass(frozen=True)
class Problem:
    """One bad file: its path relative to the run, its chunk (None: not a chunk file), why,
    and what a resume does about it (``REPLAY``, ``REMOVE``, ``LEAVE``, ``DROP``)."""

    path: str
    reason: str
    chunk: int | None = None
    resume: str = REPLAY

    def __str__(self) -> str:
        where = f" (chunk {self.chunk})" if self.chunk is not None else ""
        return f"{self.path}{where}: {self.reason}"


@dataclass
class Verification:
    """What ``verify_run`` found. ``ok``: nothing is wrong (the run may still be unfinished)."""

    out: Path
    n_chunks: int = 0
    done: set[int] = field(default_factory=set)
    bad: dict[int, list[Problem]] = field(default_factory=dict)
    other: list[Problem] = field(default_factory=list)
    complete: bool = False
    files_checked: int = 0
    has_checksums: bool = False  # False: an older runner wrote the manifest, or none is readable
    record: tuple[Path, Problem | None] | None = None  # the --record file checked, what's wrong
    record_unchecked: Path | None = None  # a --record file no entry tells the truth of

    @property
    def problems(self) -> list[Problem]:
        return [p for cid in sorted(self.bad) for p in self.bad[cid]] + self.other

    @property
    def ok(self) -> bool:
        return not self.bad and not self.other
