"""Check a run directory against its manifest: every file of every finished chunk, by size and
checksum, plus the merged files of a complete run and strays that do not belong to it.

The manifest's ``integrity`` part (``tournaments.checksums``) holds the size and checksum of
every file of each finished chunk, and of a complete run's merged files. A chunk is *done*
only if the manifest records it and every one of its files matches: a missing, truncated,
corrupt or swapped-in file (a part of another run) makes it *bad*, and ``--resume`` plays it
again (its seeds make the replay exact). ``leaves verify`` and ``leaves report`` use the same
check; ``leaves verify`` checks a complete run's ``--record`` file too
(``tournaments.record_check``). Nothing here reads a file as what it holds (rows, aggregates): a
checksum vouches for the file the manifest recorded, not that it reads (``leaves verify
--deep`` reads them: ``tournaments.verify_contents``). Nothing here writes, except ``remove_foreign`` (used by
resume). The names of the modules this check is made of are importable from here too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from gamekit.errors import shown

from . import storage
from .checked_files import DamagedFile, check_file, recorded_parts
from .checksums import (
    INTEGRITY,
    RECORD_FILE,
    chunk_entries,
    integrity,
    malformed,
    recorded_chunks,
    recorded_entries,
    recorded_files,
)
from .manifest_fields import CHECK_READS, check_fields, chunks_laid_out
from .problems import DROP, LEAVE, REMOVE, REPLAY, Problem, Verification
from .record_check import (
    check_record_file,
    note_record,
    record_file_entry,
    record_location,
    unrecorded_chunks,
)

__all__ = [
    "DROP",
    "INTEGRITY",
    "LEAVE",
    "DamagedFile",
    "folders_blocked",
    "Problem",
    "REMOVE",
    "REPLAY",
    "RECORD_FILE",
    "ROW_FOLDERS",
    "STRAY",
    "Verification",
    "check_chunks",
    "check_record_file",
    "check_file",
    "integrity",
    "is_merged",
    "left_alone",
    "malformed",
    "note_record",
    "record_location",
    "recorded_chunks",
    "recorded_entries",
    "recorded_files",
    "recorded_parts",
    "record_file_entry",
    "remove_foreign",
    "row_strays",
    "verify_run",
]

ROW_FOLDERS = ("games", "matches")
STRAY = ("not a part of this run: its manifest records no such part, so 'leaves report', "
         "'compare' and 'replay' skip it, but pandas.read_parquet of {folder} would read it "
         "with the run's rows; remove it")  # fmt: skip
"""What ``leaves verify`` warns of a file ``row_strays`` finds (``{folder}``: its folder)."""
_NAMED = {
    "games": re.compile(r"^part-(\d+)\.parquet$"),
    "matches": re.compile(r"^part-(\d+)\.parquet$"),
    "chunks": re.compile(r"^chunk-(\d+)\.npz$"),
    "records": re.compile(r"^chunk-(\d+)\.jsonl$"),
}


def check_chunks(
    out: Path, manifest: dict[str, Any], n_chunks: int
) -> tuple[set[int], dict[int, list[Problem]], int]:
    """(done, bad, files checked): chunks whose recorded files all match, and those that don't.

    Chunks the manifest does not record are neither (a killed run finished them after its last
    manifest write, or never): they are simply still to play.
    """
    part = manifest.get(INTEGRITY)
    recorded = chunk_entries(manifest) or {}
    algorithm = part.get("algorithm", storage.CHECKSUM) if isinstance(part, dict) else None
    done: set[int] = set()
    bad: dict[int, list[Problem]] = {}
    checked = 0
    for key, files in recorded.items():
        cid = int(key)
        if not 0 <= cid < n_chunks:  # the manifest's entry is bad, not a file of the run
            has = f"its chunks are 0 to {n_chunks - 1}" if n_chunks else "it has none"
            said = shown(cid, typed=False)  # of thousands of digits: said by their number
            reason = f"records chunk {said}, which the run does not have ({has})"
            bad[cid] = [Problem(storage.MANIFEST, reason, cid, DROP)]  # nothing to play
            continue
        if not isinstance(files, dict):
            said = shown(files, typed=False)
            reason = f"the checksums of chunk {cid} are malformed: {said}, not a table"
            bad[cid] = [Problem(storage.MANIFEST, reason, cid)]
            continue
        if algorithm != storage.CHECKSUM:
            said = shown(algorithm, typed=False)
            bad[cid] = [Problem(p, f"unknown checksum {said}", cid) for p in files]
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


def left_alone(result: Verification) -> list[Problem]:
    """The bad files a resume leaves alone: files in the run's folders it did not write, and
    directories where its files belong (a resume replays bad chunks, rewrites the merged files
    and deletes files of chunks the run does not have, but never guesses about a file it did
    not write)."""
    return [p for p in result.problems if p.resume == LEAVE]


def is_merged(problem: Problem) -> bool:
    """Whether ``problem`` is a finished run's merged file (its aggregates, its forfeits),
    which a resume writes again from the chunks, replaying none."""
    return problem.chunk is None and problem.resume == REPLAY and problem.path != storage.MANIFEST


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

    Such a file can only come from another run (copied in by mistake); no reader of the run
    reads it (they read the files its manifest records), but one reading a folder whole would
    take it for the run's (``STRAY``). Files named otherwise are left alone (``row_strays``).
    """
    removed = 0
    for path, _, cid in _layout_files(out):
        if cid is not None and cid >= n_chunks:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def row_strays(out: str | Path, manifest: dict[str, Any]) -> list[str]:
    """Parquet files in the run's row folders that its manifest does not record and that no
    chunk of it writes (relative paths): not the run's, and no reader of it reads them (they
    read the parts its manifest records), so they are no problem of the run, which a resume
    leaves there; ``leaves verify`` warns of each (``STRAY``)."""
    out, recorded = Path(out), recorded_files(manifest) or set()
    return [path.relative_to(out).as_posix() for path, sub, cid in _layout_files(out)
            if cid is None and sub in ROW_FOLDERS and path.suffix == ".parquet"
            and path.relative_to(out).as_posix() not in recorded]  # fmt: skip


def _strays(out: Path, manifest: dict[str, Any], result: Verification) -> list[Problem]:
    """Files in the run's folders that its manifest does not account for.

    One named like a file of a chunk the run does not have is another run's (a resume removes
    it). In a complete run every file of the layout must be recorded: one named like a file of
    a chunk that is bad, in a folder the run writes, is that chunk's (named with it: a resume
    writes it again); one of a good chunk, or in a folder the run does not write, a resume
    leaves there. A Parquet file named otherwise is no chunk's and no reader of the run reads
    it: ``row_strays``, a warning, not a problem of the run.
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
        elif cid is not None and result.complete and (
                cid in result.done or (writes and sub not in writes)):  # fmt: skip
            problems.append(Problem(rel, "not recorded in the manifest", cid, LEAVE))
    return problems + _in_the_way(out, recorded) + _files_for_folders(out, manifest, writes)


def folders_blocked(out: Path, manifest: dict[str, Any]) -> list[str]:
    """The folders the run's chunks write (its chunks', rows', records') where a file is in
    their place, in which no resume can write (a look at each folder, none at its files)."""
    spec = manifest["spec"]
    rows = ROW_FOLDERS if spec.get("expert") else ROW_FOLDERS[:1]
    folders = {"chunks", *(rows if spec.get("rows", True) else ()),
               *(("records",) if spec.get("record_stride") else ())}  # fmt: skip
    return [sub for sub in sorted(folders) if (out / sub).exists() and not (out / sub).is_dir()]


def _files_for_folders(out: Path, manifest: dict[str, Any], writes: set[str]) -> list[Problem]:
    """``folders_blocked`` but those of recorded files (``writes``), whose files
    ``check_chunks`` names: a run whose entries were dropped, or a chunk still to play."""
    return [Problem(sub, storage.FILE_FOR_FOLDER, None, LEAVE)
            for sub in folders_blocked(out, manifest) if sub not in writes]  # fmt: skip


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


def _chunks_beyond_games(manifest: dict[str, Any]) -> str | None:
    """Why the spec's ``n_chunks`` cannot be the run's, or None: more chunks than its
    ``n_games`` (where that is a whole number), though each chunk plays a game at least, or
    than its schedule lays out (``chunks_laid_out``, where the manifest tells the layout):
    a count edited large would have each chunk it names checked, one by one."""
    spec = manifest["spec"]
    n_chunks, n_games = spec["n_chunks"], spec.get("n_games")
    if type(n_games) is int and n_chunks > n_games:
        return (f"spec.n_chunks is {shown(n_chunks, typed=False)}, expected at most "
                f"spec.n_games, {shown(n_games, typed=False)} (each chunk plays a game at "
                "least)")  # fmt: skip
    laid_out = chunks_laid_out(manifest)
    if laid_out is not None and n_chunks > laid_out:
        return (f"spec.n_chunks is {shown(n_chunks, typed=False)}, expected at most {laid_out:,}"
                " (the chunks its schedule lays out)")  # fmt: skip
    return None


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
    try:  # which chunks the run has: without it, each would be said to be none of its own
        check_fields(manifest, spec=CHECK_READS)
    except ValueError as exc:
        result.other.append(Problem(storage.MANIFEST, str(exc)))
        return result
    n_chunks = result.n_chunks = manifest["spec"]["n_chunks"]
    result.complete = manifest.get("status") == "complete"
    if INTEGRITY not in manifest:
        reason = "records no checksums (an older version wrote it): --resume replays every chunk"
        result.other.append(Problem(storage.MANIFEST, reason))
        return result
    result.has_checksums = True
    beyond = _chunks_beyond_games(manifest)
    if beyond:  # else each chunk it names is checked, one by one; a resume writes its own
        result.other.append(Problem(storage.MANIFEST, beyond, None, DROP))
        return result
    result.other.extend(malformed(manifest))
    if chunk_entries(manifest) is None:  # no chunk can be told good: a resume plays every one
        return result
    result.done, result.bad, result.files_checked = check_chunks(out, manifest, n_chunks)
    unrecorded_chunks(manifest, result.done, result.bad)  # a resume plays them again
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
