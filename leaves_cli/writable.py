"""Is ``--out`` writable? Asked before a command announces where its results go.

A read-only filesystem, a folder without write permission or a path under a file would
otherwise fail after "results in ..." with a bare ``[Errno 30]``. The test is the real one:
a temporary file is created (and removed) in the folder, or in its nearest existing parent
when the folder does not exist yet, which nothing is left behind in.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import CLIError

__all__ = ["check_writable"]


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
    try:
        fd, tmp = tempfile.mkstemp(prefix=".leaves-write-test-", dir=here)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        where = "" if here == path.absolute() else f" (in {here})"
        raise CLIError(f"cannot write to {out}: {reason}{where}") from None
    os.close(fd)
    os.unlink(tmp)
