"""Is ``--out`` writable? Asked before a command announces where its results go.

A read-only filesystem, a folder without write permission or a path under a file would
otherwise fail after "results in ..." with a bare ``[Errno 30]``. The test is the real one:
a temporary file is created (and removed) in the folder, or in its nearest existing parent
when the folder does not exist yet, which nothing is left behind in.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from tournaments.storage import special_file

from .errors import CLIError

__all__ = ["check_file_writable", "check_writable", "unwritten"]


def _nearest_existing(path: Path) -> Path:
    """``path`` or its nearest parent that exists (the current folder at worst)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path(".")


def check_writable(out: str | Path, flag: str = "--out") -> None:
    """Raise a one-line CLIError (exit 1) unless files can be written in folder ``out``."""
    path = Path(out)
    here = _nearest_existing(path.absolute())
    if not here.is_dir():
        what = "it" if here == path.absolute() else str(here)
        raise CLIError(f"cannot write to {out}: {what} is not a directory ({flag})")
    reason = _refused(here)
    if reason is not None:
        where = "" if here == path.absolute() else f" (in {here})"
        raise CLIError(f"cannot write to {out}: {reason}{where}")


def _refused(folder: Path) -> str | None:
    """Why ``folder`` takes no new file (the OS's words), or None: a temporary file is
    created there and removed."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".leaves-write-test-", dir=folder)
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(fd)
    os.unlink(tmp)
    return None


def check_file_writable(path: str | Path, flag: str) -> None:
    """A file a command appends to (``--save``, ``--record``), asked before anything is
    played: its folder must exist (exit 2; it is not created where a mistyped path points)
    and take files; the file, if it is there already, must be a regular file (exit 2: a
    device such as /dev/null keeps nothing to read back, and a run's records, written whole,
    would replace it; opening a pipe to append waits for a reader, so neither is opened) and
    open for appending (exit 1)."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        what = "is a file" if folder.exists() else "does not exist"
        raise CLIError(f"{flag} {path}: the folder {folder} {what}", usage=True)
    try:
        mode = os.stat(target).st_mode
    except OSError:  # nothing there yet (or a broken link): the folder must take a new file
        reason = _refused(folder)
        if reason is not None:
            raise CLIError(f"cannot write to {path}: {reason} ({flag})") from None
        return
    kind = None  # a regular file; else what it is, a device's or a pipe's in the library's words
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else special_file(target)
    if kind is not None:  # None too where it became a regular file between the two looks
        from tournaments.arguments import not_a_file  # start-up: it loads numpy, for a refusal

        raise CLIError(str(not_a_file(flag, path, kind)), usage=True)  # exit 2, a directory too
    try:
        with open(target, "a", encoding="utf-8"):
            pass  # opened for appending and closed: the file is unchanged
    except OSError as exc:
        raise CLIError(f"cannot write to {path}: {exc.strerror or exc} ({flag})") from None


def unwritten(exc: OSError) -> str:
    """Why a file could not be written, in words that say what to do where something is in
    its way (a directory where a file belongs, a file where a folder belongs); else the
    system's words, without its ``[Errno N]``."""
    where = exc.filename
    if isinstance(exc, IsADirectoryError) and where:
        return f"{where} is a directory where a file belongs (remove it, then try again)"
    if isinstance(exc, FileExistsError) and where:
        return f"{where} is a file where a folder belongs (remove it, then try again)"
    if isinstance(exc, NotADirectoryError) and where:
        return f"a file stands where a folder of {where} belongs (remove it, then try again)"
    return f"{where}: {exc.strerror}" if where and exc.strerror else str(exc)
