"""The output directory of a run: layout, atomic writes, the manifest, done chunks.

Layout of ``OUT``::

    manifest.json              spec, seed, versions, progress, wall time (JSON)
    games/part-NNNNNN.parquet  per-game rows of chunk NNNNNN (unless rows are off)
    matches/part-NNNNNN.parquet per-match rows (expert runs)
    chunks/chunk-NNNNNN.npz    the chunk's aggregates; its presence marks the chunk done
    records/chunk-NNNNNN.jsonl recorded games of the chunk (when recording)
    aggregates.npz             all chunks merged (written when the run completes)

Every file is written to a temporary name and renamed into place, and a chunk's aggregate
file is written last, so a killed run never leaves a half chunk that resume would count.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = [
    "MANIFEST",
    "FORMAT",
    "atomic_write_bytes",
    "chunk_path",
    "part_path",
    "record_path",
    "read_manifest",
    "write_manifest",
    "done_chunks",
    "clean_temporaries",
    "to_ranges",
]

MANIFEST = "manifest.json"
FORMAT = "leaves-tournament/1"
_CHUNK_RE = re.compile(r"^chunk-(\d+)\.npz$")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def chunk_path(out: Path, chunk_id: int) -> Path:
    return out / "chunks" / f"chunk-{chunk_id:06d}.npz"


def part_path(out: Path, kind: str, chunk_id: int) -> Path:
    return out / kind / f"part-{chunk_id:06d}.parquet"


def record_path(out: Path, chunk_id: int) -> Path:
    return out / "records" / f"chunk-{chunk_id:06d}.jsonl"


def read_manifest(out: Path) -> dict[str, Any]:
    path = Path(out) / MANIFEST
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{out} holds no tournament (no {MANIFEST})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from None


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    atomic_write_bytes(Path(out) / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())


def done_chunks(out: Path) -> set[int]:
    """Chunks whose aggregate file exists: the ground truth for resume."""
    folder = Path(out) / "chunks"
    if not folder.is_dir():
        return set()
    done = set()
    for name in os.listdir(folder):
        m = _CHUNK_RE.match(name)
        if m:
            done.add(int(m.group(1)))
    return done


def clean_temporaries(out: Path) -> None:
    """Remove temporary files a killed run left behind (never a finished file)."""
    for sub in ("", "games", "matches", "chunks", "records"):
        folder = Path(out) / sub
        if folder.is_dir():
            for p in folder.glob(".*.tmp"):
                p.unlink(missing_ok=True)


def to_ranges(ids: Iterable[int]) -> list[list[int]]:
    """Sorted ids as inclusive ``[first, last]`` ranges (compact in the manifest)."""
    ranges: list[list[int]] = []
    for i in sorted(ids):
        if ranges and ranges[-1][1] == i - 1:
            ranges[-1][1] = i
        else:
            ranges.append([i, i])
    return ranges
