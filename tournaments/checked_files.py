"""A run's files opened only once they match the manifest's entries of them: a damaged file
raises ``DamagedFile`` naming it and what mends it, never reads as other rows or totals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import storage
from .checksums import chunk_entries, recorded_entries

__all__ = ["DamagedFile", "check_file", "recorded_parts", "sizes_differ"]


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


def sizes_differ(out: Path, manifest: Any) -> list[str]:
    """The files ``manifest`` records of the run in ``out`` (each finished chunk's, a complete
    run's merged ones) that are missing or not of the size it records, by path relative to
    ``out``: a look at each (no checksum read), cheap enough to ask before a run is said to
    be finished."""
    differ = []
    for rel, entry in recorded_entries(manifest).items():
        try:
            same = storage.good_entry(entry) and (out / rel).stat().st_size == entry[0]
        except OSError:  # missing, its folder a file: not the file recorded
            same = False
        if not same:
            differ.append(rel)
    return differ


def recorded_parts(folder: Path, manifest: Any) -> list[Path]:
    """The Parquet parts of a run's ``games/`` or ``matches/`` that ``manifest`` records (a
    killed run leaves parts its manifest never vouched for), each checked against its entry
    (``check_file``: a damaged part raises ``DamagedFile``, never reads as other rows). Where
    it records no checksums (an older runner's, another tool's), every part (``_whole_part``)."""
    if chunk_entries(manifest) is None:
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
