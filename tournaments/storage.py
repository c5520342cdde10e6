"""The output directory of a run: layout, atomic writes, the manifest, done chunks.

Layout of ``OUT``::

    manifest.json              spec, seed, versions, progress, wall time (JSON)
    games/part-NNNNNN.parquet  per-game rows of chunk NNNNNN (unless rows are off)
    matches/part-NNNNNN.parquet per-match rows (expert runs)
    chunks/chunk-NNNNNN.npz    the chunk's aggregates; its presence marks the chunk done
    records/chunk-NNNNNN.jsonl recorded games of the chunk (when recording)
    aggregates.npz             all chunks merged (written when the run completes)

Every file is written to a temporary name, flushed to disk (``fsync``), renamed into place,
and the folder is synced after the rename, so a killed run or a power loss never leaves a
half-written file under a final name. A chunk's aggregate file is written last. The manifest
records each finished chunk's files with their size and checksum (``file_entry``): a chunk
counts as done only when every one of its files still matches (``tournaments.verify``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "MANIFEST",
    "FORMAT",
    "CHECKSUM",
    "atomic_write_bytes",
    "digest",
    "file_digest",
    "file_entry",
    "check_entry",
    "chunk_path",
    "part_path",
    "record_path",
    "read_manifest",
    "write_manifest",
    "done_chunks",
    "clean_temporaries",
    "fsync_dir",
    "to_ranges",
]

MANIFEST = "manifest.json"
FORMAT = "leaves-tournament/1"
_CHUNK_RE = re.compile(r"^chunk-(\d+)\.npz$")

CHECKSUM = "blake2b-128"
"""The checksum of run files: stdlib BLAKE2b with a 16-byte digest (no extra dependency; it
hashes about a gigabyte a second, so it costs a 1M-game run a few milliseconds)."""

_BLOCK = 1 << 20


def _hasher() -> hashlib.blake2b:
    return hashlib.blake2b(digest_size=16)


def digest(data: bytes | memoryview) -> str:
    """Checksum of ``data`` (hex)."""
    h = _hasher()
    h.update(data)
    return h.hexdigest()


def file_digest(path: Path) -> str:
    """Checksum of the file at ``path`` (hex), read in blocks."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, _hasher).hexdigest()


def file_entry(data: bytes | memoryview) -> list[Any]:
    """What the manifest keeps for a file of content ``data``: ``[size, checksum]``."""
    return [len(data), digest(data)]


def check_entry(path: Path, entry: Sequence[Any]) -> str | None:
    """None if the file at ``path`` matches its manifest entry, else what is wrong with it."""
    size, checksum = int(entry[0]), str(entry[1])
    try:
        actual = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if actual < size:
        return f"truncated or replaced ({actual:,} of {size:,} bytes)"
    if actual > size:
        return f"too long or replaced ({actual:,} bytes, expected {size:,})"
    try:
        if file_digest(path) != checksum:
            return "corrupt or replaced by another run's file (checksum differs)"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    return None


def fsync_dir(folder: Path) -> None:
    """Make a rename (or a new entry) in ``folder`` durable. A no-op where folders cannot be
    opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory file descriptors
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse fsync on a directory
        pass
    finally:
        os.close(fd)


def _make_dirs(folder: Path) -> None:
    """Create ``folder`` (and parents), syncing each parent that gains an entry."""
    if folder.is_dir():
        return
    _make_dirs(folder.parent)
    try:
        folder.mkdir()
    except FileExistsError:
        return
    fsync_dir(folder.parent)


def _new_file_mode() -> int:
    """The mode ``open()`` gives a new file under this process's umask (read once, at import,
    before any writing thread: reading the umask sets it for a moment)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


NEW_FILE_MODE = _new_file_mode()
"""A temporary file is created private (0600); the run's files get this mode instead."""


def atomic_write_bytes(path: Path, data: bytes | memoryview, sync_dir: bool = True) -> None:
    """Write ``data`` to ``path`` durably: a temporary file in the same folder, ``fsync``, a
    rename, then ``fsync`` of the folder (so neither a crash nor a power loss can leave a
    partial or empty file under the final name). ``sync_dir=False`` leaves the folder's sync
    to the caller, who batches several renames before one ``fsync_dir`` (the runner syncs a
    chunk's folders before the manifest that records the chunk)."""
    _make_dirs(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with contextlib.suppress(OSError):  # a file system without modes keeps its own
            os.chmod(tmp, NEW_FILE_MODE)  # as any file the user writes: a shared run is readable
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if sync_dir:
        fsync_dir(path.parent)


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
    except NotADirectoryError:
        raise ValueError(f"{out} holds no tournament (it is not a directory)") from None
    except IsADirectoryError:
        raise ValueError(f"{out} holds no tournament ({path} is a directory)") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from None


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    atomic_write_bytes(Path(out) / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())


def done_chunks(out: Path) -> set[int]:
    """Chunks whose aggregate file exists (resume trusts only those the manifest vouches for:
    ``tournaments.verify``)."""
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
