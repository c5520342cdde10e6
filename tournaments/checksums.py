"""The manifest's ``integrity`` part: the sizes and checksums a run records of its files.

It holds, per chunk, ``{relative path: [size, checksum]}`` for the chunk's rows, records and
aggregates, and for a complete run the merged files. Checksums a hand-edited manifest holds in
a shape this version never writes vouch for nothing (``malformed`` names them; ``integrity``
drops them, so a resume plays their chunks again). Nothing here touches the run's files.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from gamekit.errors import shown

from . import storage
from .problems import DROP, REPLAY, Problem

__all__ = [
    "INTEGRITY",
    "RECORD_FILE",
    "chunk_entries",
    "dropped",
    "integrity",
    "malformed",
    "recorded_chunks",
    "recorded_entries",
    "recorded_files",
]

_SAID = "checksums (integrity)"

INTEGRITY = "integrity"
"""Manifest key: ``{"algorithm", "chunks": {chunk id: {path: [size, checksum]}}, "files"}``."""

RECORD_FILE = "record_file"
"""Integrity key: ``{"path", "beside", "entry": [size, checksum]}`` of the run's ``--record``
file (``path`` relative to the run where it lies inside it, so a moved run still finds it;
else absolute, and ``beside`` the way from the run, so a run moved with its records finds
them too; ``entry`` once a complete run wrote it); runs recorded by older versions have none."""

_CHUNK_KEY = re.compile(r"0|[1-9][0-9]*")
"""A chunk's key as the runner writes it (``str(chunk id)``): "03" beside "3" is no second
name of chunk 3 (its files would be counted twice), but a key this version cannot read."""


def _chunk_key(key: str) -> bool:
    """Is ``key`` a chunk's number (``_CHUNK_KEY``) that Python reads? One of more digits than
    it reads (4,300 unless set otherwise) names no chunk of any run: not a chunk number."""
    most = sys.get_int_max_str_digits()
    return (most == 0 or len(key) <= most) and _CHUNK_KEY.fullmatch(key) is not None


def integrity(manifest: dict[str, Any]) -> dict[str, Any]:
    """The manifest's integrity part, created empty if missing (older runs have none). What
    this version cannot check is dropped, so a resume plays it again (``dropped`` says it): a
    part that is not a table, or names another checksum (every chunk), a key that is no chunk
    number (``_CHUNK_KEY``). (A chunk whose files' entries are malformed stays:
    ``check_chunks`` finds it bad.)"""
    part = manifest.get(INTEGRITY)
    if not isinstance(part, dict):
        part = manifest[INTEGRITY] = {}
    if part.setdefault("algorithm", storage.CHECKSUM) != storage.CHECKSUM:
        part.update(algorithm=storage.CHECKSUM, chunks={}, files={})
    for key in ("chunks", "files"):
        if not isinstance(part.get(key), dict):
            part[key] = {}
    if not all(map(_chunk_key, part["chunks"])):  # at a run's every chunk
        for key in [k for k in part["chunks"] if not _chunk_key(k)]:
            del part["chunks"][key]
    return part


def dropped(manifest: dict[str, Any]) -> str:
    """What ``integrity`` drops of the manifest (what ``malformed`` names), as a resume says
    it before dropping it; "" where nothing."""
    said = "; ".join(what for what, _ in _unread(manifest))
    return f"; malformed {_SAID} dropped from the manifest: {said}" if said else ""


def chunk_entries(manifest: Any) -> dict[str, Any] | None:
    """The manifest's ``{chunk id: {path: [size, checksum]}}`` (chunks named by a number);
    None where it has none."""
    part = manifest.get(INTEGRITY) if isinstance(manifest, dict) else None
    chunks = part.get("chunks", {}) if isinstance(part, dict) else None
    if not isinstance(chunks, dict):
        return None
    return {k: v for k, v in chunks.items() if isinstance(k, str) and _chunk_key(k)}


def malformed(manifest: dict[str, Any]) -> list[Problem]:
    """What in the manifest's integrity part this version cannot read (a hand-edited
    manifest's): it vouches for nothing, and ``integrity`` drops it for a resume, which then
    plays every chunk again where the chunks' checksums were lost as a whole (``REPLAY``),
    else plays nothing for it (``DROP``: a key that names no chunk, the merged files')."""
    return [Problem(storage.MANIFEST, f"its {_SAID} are malformed: {what}", None, then)
            for what, then in _unread(manifest)]  # fmt: skip


def _unread(manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """What ``malformed`` names, each as the rest of its line, with what a resume does."""
    if INTEGRITY not in manifest:
        return []  # an older version's run: it records none
    part = manifest[INTEGRITY]
    if not isinstance(part, dict):
        return [(f"{shown(part, typed=False)}, not a table", REPLAY)]
    found = [(f"{key} is {shown(part.get(key), typed=False)}, not a table",
              REPLAY if key == "chunks" else DROP)
             for key in ("chunks", "files") if not isinstance(part.get(key, {}), dict)]  # fmt: skip
    chunks = part.get("chunks")
    if isinstance(chunks, dict):
        found += [(f"chunk {shown(k, typed=False)} is not a chunk number", DROP)
                  for k in chunks if not _chunk_key(k)]  # fmt: skip
    return found


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
