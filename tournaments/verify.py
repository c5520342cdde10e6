"""Check a run directory against its manifest: every file of every finished chunk, by size and
checksum, plus the merged files of a complete run and strays that do not belong to it.

The manifest's ``integrity`` part holds, per chunk, ``{relative path: [size, checksum]}`` for
the chunk's rows, records and aggregates, and for a complete run the merged files. A chunk is
*done* only if the manifest records it and every one of its files matches: a missing,
truncated, corrupt or swapped-in file (a part of another run) makes it *bad*, and ``--resume``
plays it again (its seeds make the replay exact). ``leaves verify`` and ``leaves report`` use
the same check. A complete run's ``--record`` file, gathered from its chunks' records, has its
own entry (``RECORD_FILE``), which also tells a resume where to write it: ``leaves verify``
checks it too (``verify_run(records=True)``, apart from ``problems``: a report does not read
it), and says of a run recorded before there was one that its records were not checked.
Checksums a hand-edited manifest holds in a shape this version never writes vouch for nothing
(``malformed`` names them; ``integrity`` drops them, so a resume plays their chunks again).
Nothing here writes, except ``remove_foreign`` (used by resume) and ``note_record``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import storage

__all__ = [
    "INTEGRITY",
    "LEAVE",
    "DamagedFile",
    "Problem",
    "REMOVE",
    "REPLAY",
    "RECORD_FILE",
    "Verification",
    "check_chunks",
    "check_record_file",
    "check_file",
    "integrity",
    "malformed",
    "note_record",
    "record_location",
    "recorded_chunks",
    "recorded_entries",
    "recorded_files",
    "record_file_entry",
    "remove_foreign",
    "verify_run",
]

INTEGRITY = "integrity"
"""Manifest key: ``{"algorithm", "chunks": {chunk id: {path: [size, checksum]}}, "files"}``."""

RECORD_FILE = "record_file"
"""Integrity key: ``{"path", "beside", "entry": [size, checksum]}`` of the run's ``--record``
file (``path`` relative to the run where it lies inside it, so a moved run still finds it;
else absolute, and ``beside`` the way from the run, so a run moved with its records finds
them too; ``entry`` once a complete run wrote it); runs recorded by older versions have none."""

ROW_FOLDERS = ("games", "matches")
_NAMED = {
    "games": re.compile(r"^part-(\d+)\.parquet$"),
    "matches": re.compile(r"^part-(\d+)\.parquet$"),
    "chunks": re.compile(r"^chunk-(\d+)\.npz$"),
    "records": re.compile(r"^chunk-(\d+)\.jsonl$"),
}

REPLAY, REMOVE, LEAVE = "replay", "remove", "leave"
"""What ``--resume`` does about a ``Problem``: plays its chunk again (or writes a merged file
again), removes the file, or leaves it (a file it did not write: it never guesses)."""


@dataclass(frozen=True)
class Problem:
    """One bad file: its path relative to the run, its chunk (None: not a chunk file), why,
    and what a resume does about it (``REPLAY``, ``REMOVE``, ``LEAVE``)."""

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


_CHUNK_KEY = re.compile(r"[0-9]+")


def _recorded(manifest: Any) -> dict[str, Any] | None:
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
        return [Problem(storage.MANIFEST, f"{said}: {_shown(part)}, not a table")]
    found = [Problem(storage.MANIFEST, f"{said}: {key} is {_shown(part.get(key))}, not a table")
             for key in ("chunks", "files") if not isinstance(part.get(key, {}), dict)]  # fmt: skip
    chunks = part.get("chunks")
    if isinstance(chunks, dict):
        found += [Problem(storage.MANIFEST, f"{said}: chunk {k!r} is not a chunk number")
                  for k in chunks if not _CHUNK_KEY.fullmatch(k)]  # fmt: skip
    return found


def _shown(value: Any) -> str:
    """A value of the manifest in a line, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def recorded_chunks(manifest: Any) -> list[int] | None:
    """The chunks the manifest records as finished, in order: what the run holds (a killed
    run's later chunks are on disk, recorded nowhere: ``--resume`` plays them again). None
    where it records no checksums (an older runner's, or another tool's manifest)."""
    chunks = _recorded(manifest)
    return None if chunks is None else sorted(int(k) for k in chunks)


def recorded_files(manifest: Any) -> set[str] | None:
    """Paths (relative to the run) of the files of the chunks ``recorded_chunks`` gives; None
    where the manifest records no checksums: nothing tells the run's parts from others."""
    chunks = _recorded(manifest)
    if chunks is None:
        return None
    return {str(rel) for files in chunks.values() if isinstance(files, dict) for rel in files}


def recorded_entries(manifest: Any) -> dict[str, Any]:
    """Every ``[size, checksum]`` the manifest keeps, by path relative to the run: of its
    recorded chunks' files and of a complete run's merged files."""
    found = {rel: entry for files in (_recorded(manifest) or {}).values()
             if isinstance(files, dict) for rel, entry in files.items()}  # fmt: skip
    part = manifest.get(INTEGRITY) if isinstance(manifest, dict) else None
    merged = part.get("files") if isinstance(part, dict) else None
    return {**found, **merged} if isinstance(merged, dict) else found


def recorded_parts(folder: Path, manifest: Any) -> list[Path]:
    """The Parquet parts of a run's ``games/`` or ``matches/`` that ``manifest`` records (a
    killed run leaves parts its manifest never vouched for), each checked against its entry
    (``check_file``: a damaged part raises ``DamagedFile``, never reads as other rows). Where
    it records no checksums (an older runner's, another tool's), every part (``_whole_part``)."""
    if _recorded(manifest) is None:
        return sorted(_whole_part(folder.parent, p, manifest) for p in folder.rglob("*.parquet"))
    run, entries = folder.parent, recorded_entries(manifest)
    return sorted(check_file(run, run / rel, entries[rel]) for rel in entries
                  if (run / rel).parent == folder and rel.endswith(".parquet"))  # fmt: skip


def _whole_part(run: Path, path: Path, manifest: Any) -> Path:
    """``path``, a row part no checksum vouches for, once Parquet reads its footer (a part
    cut short lacks it); else ``DamagedFile`` naming it, never skipped (nor fewer rows read)."""
    import pyarrow.parquet as pq  # start-up: pyarrow loads for rows only, not by workers

    m = manifest if isinstance(manifest, dict) else {}
    command = "gauntlet" if "gauntlet" in (m.get("spec") or {}) else "tournament"
    mend = [f"'leaves {command} --resume --out {run}' plays its chunk again"] * ("format" in m)
    if path.is_dir():  # (a resume of a runner's run without checksums plays every chunk)
        fix = ", then ".join(["remove it", *mend])
        raise DamagedFile(f"{path} is bad: {storage.IN_THE_WAY}; {fix}")
    try:
        pq.read_metadata(path)
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        why = getattr(exc, "strerror", None)
        said = f"unreadable ({why})" if why else "not a Parquet part as a run writes them"
        raise DamagedFile("; ".join([f"{path} is bad: {said}", *mend])) from None
    return path


class DamagedFile(OSError):
    """A file of a run that does not match the manifest's entry for it: one line, naming it.
    An ``OSError``, as reading a damaged file is: never taken for a run with nothing yet (a
    ``ValueError`` of the results)."""


def check_file(out: Path, path: Path, entry: Any) -> Path:
    """``path``, a file of the run in ``out``, once it matches its manifest ``entry``; else
    ``DamagedFile`` saying what is wrong and what mends it (a resume plays its chunk again)."""
    reason = storage.check_entry(path, entry)
    if reason:
        raise DamagedFile(f"{path} is bad: {reason}; 'leaves verify {out}' lists the run's bad "
                          "files, and --resume plays them again")  # fmt: skip
    return path


def check_chunks(
    out: Path, manifest: dict[str, Any], n_chunks: int
) -> tuple[set[int], dict[int, list[Problem]], int]:
    """(done, bad, files checked): chunks whose recorded files all match, and those that don't.

    Chunks the manifest does not record are neither (a killed run finished them after its last
    manifest write, or never): they are simply still to play.
    """
    part = manifest.get(INTEGRITY)
    recorded = _recorded(manifest) or {}
    algorithm = part.get("algorithm", storage.CHECKSUM) if isinstance(part, dict) else None
    done: set[int] = set()
    bad: dict[int, list[Problem]] = {}
    checked = 0
    for key, files in recorded.items():
        cid = int(key)
        if not 0 <= cid < n_chunks:
            bad[cid] = [Problem(f"chunk {cid}", "the run has no such chunk", cid)]
            continue
        if not isinstance(files, dict):
            reason = f"the checksums of chunk {cid} are malformed: {_shown(files)}, not a table"
            bad[cid] = [Problem(storage.MANIFEST, reason, cid)]
            continue
        if algorithm != storage.CHECKSUM:
            bad[cid] = [Problem(p, f"unknown checksum {algorithm!r}", cid) for p in files]
            continue
        problems = []
        for rel, entry in files.items():
            checked += 1
            reason = storage.check_entry(out / rel, entry)
            if reason:
                problems.append(_bad_file(rel, reason, cid))
        if problems:
            bad[cid] = problems
        else:
            done.add(cid)
    return done, bad, checked


def _bad_file(rel: str, reason: str, cid: int | None = None) -> Problem:
    """The problem of a recorded file: a resume writes it again, unless a directory is in
    its place (then it is to be removed first)."""
    return Problem(rel, reason, cid, LEAVE if reason == storage.IN_THE_WAY else REPLAY)


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


def _layout_files(out: Path) -> list[tuple[Path, str, int | None]]:
    """(path, folder, chunk id or None) of every visible file in the run's chunk folders."""
    found = []
    for sub, pattern in _NAMED.items():
        folder = out / sub
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.name.startswith("."):
                continue
            m = pattern.match(path.name) if path.parent == folder else None
            found.append((path, sub, int(m.group(1)) if m else None))
    return found


def remove_foreign(out: Path, n_chunks: int) -> int:
    """Delete files named like chunk files but of chunks beyond ``n_chunks``; how many.

    Such a file can only come from another run (copied in by mistake), and reports would read
    it with this run's rows. Files named otherwise are left alone (``verify_run`` names them).
    """
    removed = 0
    for path, _, cid in _layout_files(out):
        if cid is not None and cid >= n_chunks:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def row_strays(out: str | Path, manifest: dict[str, Any]) -> list[str]:
    """Parquet files in the run's row folders that its manifest does not record and that no
    chunk of it writes (relative paths): a report would read them with the run's rows, so it
    refuses the run while they are there, and a resume leaves them (``_strays``)."""
    out, recorded = Path(out), recorded_files(manifest) or set()
    return [path.relative_to(out).as_posix() for path, sub, cid in _layout_files(out)
            if cid is None and sub in ROW_FOLDERS and path.suffix == ".parquet"
            and path.relative_to(out).as_posix() not in recorded]  # fmt: skip


def _strays(out: Path, manifest: dict[str, Any], result: Verification) -> list[Problem]:
    """Files in the run's folders that its manifest does not account for.

    Any unrecorded Parquet file under ``games/`` or ``matches/`` would be read by a report, so
    it is bad unless it is a part of this run still to be (re)played. In a complete run every
    file of the layout must be recorded: one named like a file of a chunk that is bad, in a
    folder the run writes, is that chunk's (named with it: a resume writes it again); one of
    a good chunk, or in a folder the run does not write, a resume leaves there.
    """
    recorded = recorded_files(manifest) or set()
    writes = {rel.split("/")[0] for rel in recorded}  # the folders the run's chunks write
    problems = []
    for path, sub, cid in _layout_files(out):
        rel = path.relative_to(out).as_posix()
        if rel in recorded:
            continue
        if cid is not None and cid >= result.n_chunks:
            problems.append(Problem(rel, "not a part of this run (no such chunk)", None, REMOVE))
        elif cid is not None and result.complete:
            if cid in result.done or (writes and sub not in writes):
                problems.append(Problem(rel, "not recorded in the manifest", cid, LEAVE))
        elif cid is None and sub in ROW_FOLDERS and path.suffix == ".parquet":
            reason = "not a part of this run (reports would read it)"
            problems.append(Problem(rel, reason, None, LEAVE))
    return problems + _in_the_way(out, recorded)


def _in_the_way(out: Path, recorded: set[str]) -> list[Problem]:
    """Directories named like a chunk's file, which no resume can write over (those of
    recorded files ``check_chunks`` names)."""
    found = []
    for sub, pattern in _NAMED.items():
        folder = out / sub
        for path in sorted(folder.iterdir()) if folder.is_dir() else ():
            m = pattern.match(path.name)
            rel = path.relative_to(out).as_posix()
            if m and path.is_dir() and rel not in recorded:
                found.append(Problem(rel, storage.IN_THE_WAY, int(m.group(1)), LEAVE))
    return found


def verify_run(out: str | Path, *, records: bool = False) -> Verification:
    """Check every file of the run in ``out`` against its manifest, changing nothing; with
    ``records``, a complete run's ``--record`` file too (which no report reads)."""
    out = Path(out)
    result = Verification(out)
    try:
        manifest = storage.read_manifest(out)
    except ValueError as exc:
        result.other.append(Problem(storage.MANIFEST, str(exc)))
        return result
    if manifest.get("format") != storage.FORMAT or not isinstance(manifest.get("spec"), dict):
        result.other.append(Problem(storage.MANIFEST, "not a tournament run this version knows"))
        return result
    n_chunks = int(manifest["spec"].get("n_chunks", 0))
    result.n_chunks = n_chunks
    result.complete = manifest.get("status") == "complete"
    if INTEGRITY not in manifest:
        reason = "records no checksums (an older version wrote it): --resume replays every chunk"
        result.other.append(Problem(storage.MANIFEST, reason))
        return result
    result.has_checksums = True
    result.other.extend(malformed(manifest))
    if _recorded(manifest) is None:  # no chunk can be told good: a resume plays every one
        return result
    result.done, result.bad, result.files_checked = check_chunks(out, manifest, n_chunks)
    if result.complete:
        for cid in range(n_chunks):
            if cid not in result.done and cid not in result.bad:
                path = storage.chunk_path(Path(), cid).as_posix()
                result.bad[cid] = [Problem(path, "finished run, but no record of this chunk", cid)]
        files = manifest[INTEGRITY].get("files") or {}
        for rel, entry in files.items() if isinstance(files, dict) else ():
            result.files_checked += 1
            reason = storage.check_entry(out / rel, entry)
            if reason:
                result.other.append(_bad_file(rel, reason))
    result.other.extend(_strays(out, manifest, result))
    if records:
        check_record_file(out, manifest, result)
    return result
