"""The manifest's ``integrity`` part: the sizes and checksums a run records of its files.

It holds, per chunk, ``{relative path: [size, checksum]}`` for the chunk's rows, records and
aggregates, and for a complete run the merged files. Checksums a hand-edited manifest holds in
a shape this version never writes vouch for nothing (``malformed`` names them; ``integrity``
drops them, so a resume plays their chunks again). Nothing here touches the run's files.
"""

from __future__ import annotations

import re
from typing import Any

from . import storage
from .problems import Problem

__all__ = [
    "INTEGRITY",
    "RECORD_FILE",
    "chunk_entries",
    "integrity",
    "malformed",
    "recorded_chunks",
    "recorded_entries",
    "recorded_files",
    "shown",
]

INTEGRITY = "integrity"
"""Manifest key: ``{"algorithm", "chunks": {chunk id: {path: [size, checksum]}}, "files"}``."""

RECORD_FILE = "record_file"
"""Integrity key: ``{"path", "beside", "entry": [size, checksum]}`` of the run's ``--record``
file (``path`` relative to the run where it lies inside it, so a moved run still finds it;
else absolute, and ``beside`` the way from the run, so a run moved with its records finds
them too; ``entry`` once a complete run wrote it); runs recorded by older versions have none."""

_CHUNK_KEY = re.compile(r"[0-9]+")


def integrity(manifest: dict[str, Any]) -> dict[str, Any]:
    """The manifest's integrity part, created empty if missing (older runs have none). What
    this version cannot check is dropped, so a resume plays it again: a part that is not a
    table, or names another checksum (every chunk), a chunk that is not a number. (A chunk
    whose files' entries are malformed stays: ``check_chunks`` finds it bad.)"""
    part = manifest.get(INTEGRITY)
    if not isinstance(part, dict):
        part = manifest[INTEGRITY] = {}
    if part.setdefault("algorithm", storage.CHECKSUM) != storage.CHECKSUM:
        part.update(algorithm=storage.CHECKSUM, chunks={}, files={})
    for key in ("chunks", "files"):
        if not isinstance(part.get(key), dict):
            part[key] = {}
    keys = "".join(part["chunks"])  # at a run's every chunk: one pass in C, not a loop
    if not (keys.isascii() and keys.isdigit()):
        for key in [k for k in part["chunks"] if not _CHUNK_KEY.fullmatch(k)]:
            del part["chunks"][key]
    return part


def chunk_entries(manifest: Any) -> dict[str, Any] | None:
    """The manifest's ``{chunk id: {path: [size, checksum]}}`` (chunks named by a number);
    None where it has none."""
    part = manifest.get(INTEGRITY) if isinstance(manifest, dict) else None
    chunks = part.get("chunks", {}) if isinstance(part, dict) else None
    if not isinstance(chunks, dict):
        return None
    return {k: v for k, v in chunks.items() if isinstance(k, str) and _CHUNK_KEY.fullmatch(k)}


def malformed(manifest: dict[str, Any]) -> list[Problem]:
    """What in the manifest's integrity part this version cannot read (a hand-edited
    manifest's): it vouches for nothing, and ``integrity`` drops it for a resume."""
    part = manifest.get(INTEGRITY)
    said = "its checksums (integrity) are malformed"
    if not isinstance(part, dict):
        return [Problem(storage.MANIFEST, f"{said}: {shown(part)}, not a table")]
    found = [Problem(storage.MANIFEST, f"{said}: {key} is {shown(part.get(key))}, not a table")
             for key in ("chunks", "files") if not isinstance(part.get(key, {}), dict)]  # fmt: skip
    chunks = part.get("chunks")
    if isinstance(chunks, dict):
        found += [Problem(storage.MANIFEST, f"{said}: chunk {k!r} is not a chunk number")
                  for k in chunks if not _CHUNK_KEY.fullmatch(k)]  # fmt: skip
    return found


def shown(value: Any) -> str:
    """A value of the manifest in a line, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def recorded_chunks(manifest: Any) -> list[int] | None:
    """The chunks the manifest records as finished, in order: what the run holds (a killed
    run's later chunks are on disk, recorded nowhere: ``--resume`` plays them again). None
    where it records no checksums (an older runner's, or another tool's manifest)."""
    chunks = chunk_entries(manifest)
    return None if chunks is None else sorted(int(k) for k in chunks)


def recorded_files(manifest: Any) -> set[str] | None:
    """Paths (relative to the run) of the files of the chunks ``recorded_chunks`` gives; None
    where the manifest records no checksums: nothing tells the run's parts from others."""
    chunks = chunk_entries(manifest)
    if chunks is None:
        return None
    return {str(rel) for files in chunks.values() if isinstance(files, dict) for rel in files}


def recorded_entries(manifest: Any) -> dict[str, Any]:
    """Every ``[size, checksum]`` the manifest keeps, by path relative to the run: of its
    recorded chunks' files and of a complete run's merged files."""
    found = {rel: entry for files in (chunk_entries(manifest) or {}).values()
             if isinstance(files, dict) for rel, entry in files.items()}  # fmt: skip
    part = manifest.get(INTEGRITY) if isinstance(manifest, dict) else None
    merged = part.get("files") if isinstance(part, dict) else None
    return {**found, **merged} if isinstance(merged, dict) else found
