"""A run's ``--record`` file: where its manifest places it, and whether it matches.

A complete run's ``--record`` file, gathered from its chunks' records, has its own entry
(``RECORD_FILE``), which also tells a resume where to write it: ``leaves verify`` checks it
(``verify_run(records=True)``; a report does not read it), and says of a run recorded before
there was one that its records were not checked. A run that records keeps each chunk's
records beside its other files (``storage.record_path``), which the file is gathered from: a
chunk whose entry lists none is not done (``unrecorded_chunks``). Nothing here writes the
file; ``note_record`` names it in the manifest.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from . import storage
from .checksums import INTEGRITY, RECORD_FILE, chunk_entries, integrity
from .problems import Problem, Verification

__all__ = [
    "check_record_file",
    "note_record",
    "record_file_entry",
    "record_location",
    "unrecorded_chunks",
]

NO_RECORDS = "not in the manifest's entry of the chunk, though the run records its games"
"""Why a chunk of a run that records is not done when its entry lists no records file."""


def record_file_entry(out: Path, record: Path, entry: list[Any] | None = None) -> dict[str, Any]:
    """The manifest's ``RECORD_FILE`` entry of the ``--record`` file ``record`` of the run in
    ``out``, with the ``storage.file_entry`` ``entry`` of its content once written: ``path``
    relative to the run where it lies inside it, else absolute, and then ``beside`` too, the
    way to it from the run (``../games.jsonl``), which ``record_location`` tries first."""
    path, run = record.resolve(), out.resolve()
    found: dict[str, Any] = {"path": str(path)}
    if path.is_relative_to(run):
        found["path"] = path.relative_to(run).as_posix()
    else:
        found["beside"] = Path(os.path.relpath(path, run)).as_posix()
    return found if entry is None else {**found, "entry": entry}


def note_record(manifest: dict[str, Any], out: Path, record: Path | None) -> None:
    """Name a starting run's ``--record`` file in its manifest: ``record_file`` as given, and
    where it lies (``RECORD_FILE``, whose checksum comes when the run completes)."""
    manifest["record_file"] = str(record) if record else None
    if record is None:
        integrity(manifest).pop(RECORD_FILE, None)
    else:
        integrity(manifest)[RECORD_FILE] = record_file_entry(out, Path(record))


def _record_places(out: Path, entry: dict[str, Any]) -> list[Path]:
    """Where the ``RECORD_FILE`` ``entry`` of the run in ``out`` says its records lie: beside
    the run as it is now first (a folder moved whole with its records), then where the run
    wrote them."""
    beside = entry.get("beside")
    places = [(out / beside).resolve()] if isinstance(beside, str) else []
    wrote = out / entry["path"]
    return places + [wrote] if wrote not in places else places


def record_location(out: Path, manifest: dict[str, Any]) -> Path | None:
    """The run's ``--record`` file, where its manifest places it (``record_file_entry``): the
    first place holding it (where two hold a file, the one matching its checksum, so another
    run's records beside a run moved alone are not taken for its own), else the first whose
    folder is there; None where the manifest does not say (an older version's names it only
    in ``record_file``, relative to the folder the run started in)."""
    entry = part.get(RECORD_FILE) if isinstance(part := manifest.get(INTEGRITY), dict) else None
    if not (isinstance(entry, dict) and isinstance(entry.get("path"), str)):
        return None
    places = _record_places(out, entry)
    found = [p for p in places if p.exists() or p.is_symlink()]
    if len(found) > 1 and _good_record_entry(entry):
        found = [p for p in found if storage.check_entry(p, entry["entry"]) is None] or found
    return (found or [p for p in places if p.parent.is_dir()] or places)[0]


def check_record_file(out: Path, manifest: dict[str, Any], result: Verification) -> None:
    """The complete run's ``--record`` file against its entry (``result.record``), or, where
    the manifest has none (an older version wrote it), the file left unchecked
    (``result.record_unchecked``); nothing for a run that records no games."""
    named = manifest.get("record_file")
    if not (result.complete and isinstance(named, str)):
        return
    entry = part.get(RECORD_FILE) if isinstance(part := manifest.get(INTEGRITY), dict) else None
    if entry is None:
        result.record_unchecked = Path(named)
        return
    if not _good_record_entry(entry):  # a hand-edited manifest: the file's truth is unknown
        # named where its entry says, else where a plain resume from here writes it: a path
        # the run was given (relative to where it started), not one inside the run
        path = entry.get("path") if isinstance(entry, dict) else None
        where = path if isinstance(path, str) else str(Path(named).absolute())
        result.record = (out / where, Problem(where, storage.MALFORMED))
        return
    path = record_location(out, manifest) or out / entry["path"]  # a good entry names one
    rel = entry["path"] if path == out / entry["path"] else str(path)
    result.files_checked += 1
    result.record = (path, _record_problem(rel, path, entry, out))


def _record_problem(rel: str, path: Path, entry: dict[str, Any], out: Path) -> Problem | None:
    """What is wrong with the records at ``path`` (``rel`` to the run), if anything: where
    they are missing, every place they were looked for."""
    if path.is_dir():
        return Problem(rel, "is a directory, not the run's records")
    reason = storage.check_entry(path, entry["entry"])
    others = [str(p) for p in _record_places(out, entry) if p != path]
    if reason == "missing" and others:
        reason = f"missing (and not at {', '.join(others)} either)"
    return None if reason is None else Problem(rel, reason)


def _good_record_entry(entry: Any) -> bool:
    """Is ``entry`` a ``RECORD_FILE`` entry as ``record_file_entry`` writes it?"""
    if not (isinstance(entry, dict) and isinstance(entry.get("path"), str)):
        return False
    return storage.good_entry(entry.get("entry"))


def unrecorded_chunks(
    manifest: dict[str, Any], done: set[int], bad: dict[int, list[Problem]]
) -> None:
    """Move from ``done`` into ``bad`` each chunk whose entry lists no records file where the
    run records its games (``record_file``): its records are what the run's file is gathered
    from, so a resume plays it again (its seeds make the replay exact) rather than ending on
    a file that is not there."""
    if not isinstance(manifest.get("record_file"), str):
        return
    entries = chunk_entries(manifest) or {}
    for cid in sorted(done):
        rel = storage.record_path(Path(), cid).as_posix()
        files = entries.get(str(cid))
        if isinstance(files, dict) and rel not in files:
            done.discard(cid)
            bad.setdefault(cid, []).append(Problem(rel, NO_RECORDS, cid))
