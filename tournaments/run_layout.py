"""A run's output directory by its files' names: where each lies, and what they say is there.

One job: where a run's files go, and what the files a folder holds say of it: a run (the
runner's, one that lost its manifest, one killed as it began) or other files.

Layout of ``OUT``::

    manifest.json              spec, seed, versions, progress, wall time (JSON)
    games/part-NNNNNN.parquet  per-game rows of chunk NNNNNN (unless rows are off)
    matches/part-NNNNNN.parquet per-match rows (expert runs)
    chunks/chunk-NNNNNN.npz    the chunk's aggregates; its presence marks the chunk done
    records/chunk-NNNNNN.jsonl recorded games of the chunk (when recording)
    aggregates.npz             all chunks merged (written when the run completes)
    .run.lock                  held by the process playing the run (``storage.run_lock``)

How they are written (durably, checksummed, under a lock) is ``tournaments.storage``'s part.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from gamekit.errors import ParameterError

__all__ = ["MANIFEST", "LOCK", "RUN_FOLDERS", "chunk_path", "part_path", "record_path",
           "done_chunks", "clean_temporaries", "holds_files", "written_by_runner", "NO_MANIFEST",
           "lost_manifest"]  # fmt: skip

MANIFEST = "manifest.json"
_CHUNK_RE = re.compile(r"^chunk-(\d+)\.npz$")

LOCK = ".run.lock"
"""The lock file of a run: the process that writes the run holds it (``flock``) the whole
time, the OS lets go of it when that process ends however it ends, and a run that ends in
order (finished, interrupted) removes it. A lock file that no process holds was left by a
killed run: the next writer takes it over (made anew where another user's run made it)."""

RUN_FOLDERS = ("games", "matches", "chunks", "records")
"""The folders a run makes in its ``out`` (``clean_temporaries`` clears them of temporaries)."""


def chunk_path(out: Path, chunk_id: int) -> Path:
    return out / "chunks" / f"chunk-{chunk_id:06d}.npz"


def part_path(out: Path, kind: str, chunk_id: int) -> Path:
    return out / kind / f"part-{chunk_id:06d}.parquet"


def record_path(out: Path, chunk_id: int) -> Path:
    return out / "records" / f"chunk-{chunk_id:06d}.jsonl"


def done_chunks(out: Path) -> set[int]:
    """Chunks whose aggregate file exists (resume trusts only those the manifest vouches for:
    ``tournaments.verify``)."""
    folder = Path(out) / "chunks"
    names = os.listdir(folder) if folder.is_dir() else ()
    return {int(m.group(1)) for m in map(_CHUNK_RE.match, names) if m}


def clean_temporaries(out: Path) -> None:
    """Remove temporary files a killed run left behind (never a finished file)."""
    for sub in ("", *RUN_FOLDERS):
        for p in (Path(out) / sub).glob(".*.tmp"):  # none in a folder that is not there
            p.unlink(missing_ok=True)


def holds_files(out: Path) -> bool:
    """Does folder ``out`` hold anything but a run's lock file and what a run killed as it
    began leaves (temporary files, its empty folders): a run, or other files?"""
    out = Path(out)
    if not out.is_dir():
        return False
    for p in out.iterdir():
        if p.name == LOCK or _temporary(p):
            continue
        if p.name in RUN_FOLDERS and p.is_dir() and all(_temporary(q) for q in p.iterdir()):
            continue
        return True
    return False


def written_by_runner(out: Path, manifest: Any) -> bool:
    """Did the runner write the run in ``out``: its manifest says its ``format``, or, damaged
    past saying it, the folder holds what only the runner writes (chunks/, aggregates.npz).
    Such a run is read as the runner's (its spec required), never as another tool's."""
    said = isinstance(manifest, dict) and "format" in manifest
    return said or (Path(out) / "chunks").exists() or (Path(out) / "aggregates.npz").exists()


NO_MANIFEST = ("the run cannot be resumed or grown without it: restore it, or play the run again "
               "into a new {out} (the same options and seed give the same results)")  # fmt: skip
"""What a run whose manifest cannot be used leaves to do (``{out}``: the run folder's
parameter as ``ParameterError`` names it, ``--out`` on the command line)."""


def lost_manifest(out: str | Path) -> ParameterError | None:
    """The one error for ``out``, a run's folder that lost its manifest: it holds a chunk's
    aggregates or the merged ones (not only what a run killed as it began leaves, nor only
    others' files); None where the manifest is there, or the folder holds no run's files."""
    out = Path(out)
    if (out / MANIFEST).exists() or not (done_chunks(out) or (out / "aggregates.npz").is_file()):
        return None
    return ParameterError(f"{out} holds a run's files but not its {MANIFEST} (missing): "
                          f"nothing vouches for them; {NO_MANIFEST}", "out")  # fmt: skip


def _temporary(p: Path) -> bool:
    """A file written to a temporary name before its rename (``.NAME.XXXX.tmp``)."""
    return p.name.startswith(".") and p.name.endswith(".tmp") and p.is_file()
