"""The output directory of a run: atomic writes, checksums, the manifest, the run's lock.

Where each file lies, and what a folder's files say of the run in it, is
``tournaments.run_layout``'s (its names are kept here too, as callers import them from here).
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
import socket
import stat
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .run_layout import (
    LOCK,
    MANIFEST,
    NO_MANIFEST,
    chunk_path,
    clean_temporaries,
    done_chunks,
    holds_files,
    lost_manifest,
    part_path,
    record_path,
    written_by_runner,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: runs are played unlocked (``run_lock``)
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "MANIFEST", "FORMAT", "CHECKSUM", "atomic_write_bytes", "atomic_file", "digest",
    "file_digest", "file_entry", "good_entry", "check_entry", "MALFORMED", "IN_THE_WAY",
    "NOT_A_FOLDER", "FILE_FOR_FOLDER", "InTheWay", "chunk_path", "part_path", "record_path",
    "read_manifest", "JSONPastLimits", "load_json", "write_manifest", "done_chunks",
    "clean_temporaries", "fsync_dir", "to_ranges", "LOCK", "RunLocked", "run_lock",
    "lock_holder", "holds_files", "refuse_if_played", "written_by_runner", "NO_MANIFEST",
    "lost_manifest", "special_file",
]  # fmt: skip

FORMAT = "leaves-tournament/1"

CHECKSUM = "blake2b-128"
"""The checksum of run files: stdlib BLAKE2b with a 16-byte digest (no extra dependency; it
hashes about a gigabyte a second, so it costs a 1M-game run a few milliseconds)."""


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


MALFORMED = "its checksum in the manifest is malformed"
IN_THE_WAY = "a directory where the run's file belongs (no resume writes over it)"
NOT_A_FOLDER = "its folder is a file (no resume writes in it)"
FILE_FOR_FOLDER = "a file where the run's folder belongs (no resume writes in it)"


def good_entry(entry: Any) -> bool:
    """Is ``entry`` a manifest entry as ``file_entry`` makes it: ``[size, checksum]``?"""
    return (isinstance(entry, list | tuple) and len(entry) == 2 and type(entry[0]) is int
            and entry[0] >= 0 and isinstance(entry[1], str))  # fmt: skip


def check_entry(path: Path, entry: Any) -> str | None:
    """None if the file at ``path`` matches its manifest entry, else what is wrong with it (or
    with the entry: a hand-edited manifest's, which vouches for nothing)."""
    if not good_entry(entry):
        return MALFORMED
    size, checksum = entry
    try:
        st = path.stat()
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return NOT_A_FOLDER
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if stat.S_ISDIR(st.st_mode):
        return IN_THE_WAY
    actual = st.st_size
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


class InTheWay(ValueError):
    """A file of the run cannot be written: something the run did not make is in its place."""

    usage_error = False  # the command was right; the folder holds something else (exit 1)

    @classmethod
    def directory(cls, path: Path) -> InTheWay:
        """The one line refusing to write ``path``, where a directory is in its place."""
        return cls(f"cannot write {path}: a directory is in its place (remove it, then try again)")

    @classmethod
    def file(cls, folder: Path) -> InTheWay:
        """The one line refusing to write in ``folder``, where a file is in its place."""
        return cls(f"cannot write in {folder}: it is a file, not a folder (remove it, then try "
                   "again)")  # fmt: skip


def _make_dirs(folder: Path) -> None:
    """Create ``folder`` (and parents), syncing each parent that gains an entry."""
    if folder.is_dir():
        return
    _make_dirs(folder.parent)
    try:
        folder.mkdir()
    except FileExistsError:
        if folder.is_dir():  # made meanwhile
            return
        raise InTheWay.file(folder) from None
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
    with atomic_file(path, sync_dir) as f:
        f.write(data)


def special_file(path: Path) -> str | None:
    """What ``path`` is, in words, where it exists and is neither a regular file nor a
    directory ('a device', 'a named pipe', 'a socket'), which a rename of a file onto it would
    replace; None otherwise (a directory, which no rename replaces, is ``InTheWay.directory``).
    Asked of ``os.stat``, which opens nothing: opening a named pipe waits for its other end."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # nothing there (or a broken link): a new file takes the name
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kinds = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
             (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))  # fmt: skip
    return next((word for test, word in kinds if test(mode)), "a special file")


@contextlib.contextmanager
def atomic_file(path: Path, sync_dir: bool = True) -> Iterator[BinaryIO]:
    """A file to write ``path``'s content into, as ``atomic_write_bytes`` writes it: renamed
    into place once the block ends, removed if it raises (``InTheWay``: a directory there, or
    anything else but a regular file, ``special_file``, which the rename would replace)."""
    _make_dirs(path.parent)
    if path.is_dir():  # a rename cannot replace it
        raise InTheWay.directory(path)
    kind = special_file(path)
    if kind is not None:  # a rename would replace it: as root, a device by a plain file
        raise InTheWay(f"cannot write {path}: {kind} is in its place, not a regular file "
                       "(name a file)")  # fmt: skip
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:  # a folder that takes no new file: said of the file to write
        raise _of_target(exc, path, None) from None
    try:
        with contextlib.suppress(OSError):  # a file system without modes keeps its own
            os.chmod(tmp, NEW_FILE_MODE)  # as any file the user writes: a shared run is readable
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _of_target(exc, path, tmp) from None
        raise
    if sync_dir:
        fsync_dir(path.parent)


def _of_target(exc: OSError, path: Path, tmp: str | None) -> OSError:
    """``exc`` said of ``path``, the file being written, where it names the hidden temporary
    file ``tmp`` it is written through, or no file (``tmp`` None: the error of making the
    temporary, whatever name it tried): a name the user never made, gone once it is removed.
    ``exc`` itself where it names another file or has no error number."""
    named = {exc.filename, getattr(exc, "filename2", None)} - {None}
    if exc.errno is None or (tmp is not None and named and tmp not in named):
        return exc
    return OSError(exc.errno, exc.strerror, str(path))  # its subclass: PermissionError...


class JSONPastLimits(ValueError):
    """Valid JSON that Python will not read, in words for a line that names its file: a
    whole number past the digits Python reads, lists or objects nested past its recursion
    (Python's own words name neither the file nor anything its reader can change)."""


def load_json(text: str | bytes) -> Any:
    """``text`` read as JSON (``json.loads``: ``json.JSONDecodeError`` where it is none), or
    ``JSONPastLimits`` saying why Python will not read it."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:  # Python reads no whole number this long
        most = sys.get_int_max_str_digits()
        raise JSONPastLimits(f"it holds a number of more than {most:,} digits") from None
    except RecursionError:
        raise JSONPastLimits("it holds lists or objects nested too deep to read") from None


def read_manifest(out: Path) -> dict[str, Any]:
    """The manifest of the run in ``out``; else one ValueError naming the file and why."""
    path = Path(out) / MANIFEST
    try:
        return load_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        lost = lost_manifest(out)  # a run's files without it: not a folder of no run
        raise lost or ValueError(f"{out} holds no tournament (no {MANIFEST})") from None
    except NotADirectoryError:
        raise ValueError(f"{out} holds no tournament (it is not a directory)") from None
    except IsADirectoryError:  # a damaged run, not a folder of none: the path named once
        raise ValueError(f"{path} is a directory where the run's manifest file belongs"
                         ) from None  # fmt: skip
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: not UTF-8 text (at byte {exc.start:,})"
                         ) from None  # fmt: skip
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from None
    except JSONPastLimits as exc:
        raise ValueError(f"{path} cannot be read: {exc}") from None
    except OSError as exc:  # no permission to read it, an I/O error
        raise ValueError(f"{path} cannot be read ({exc.strerror or exc})") from None


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    atomic_write_bytes(Path(out) / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())


def to_ranges(ids: Iterable[int]) -> list[list[int]]:
    """Sorted ids as inclusive ``[first, last]`` ranges (compact in the manifest)."""
    ranges: list[list[int]] = []
    for i in sorted(ids):
        if ranges and ranges[-1][1] == i - 1:
            ranges[-1][1] = i
        else:
            ranges.append([i, i])
    return ranges


LOCK_WAIT_S = 1.0
"""How long a writer retries a held lock before it is refused: a reader's probe
(``lock_holder``) holds it for a moment, a writer for the whole run."""

_held: dict[str, list[int]] = {}
"""The locks this process holds: the run folder's real path -> [file descriptor, depth]."""


class RunLocked(ValueError):
    """Another process holds the lock of the run: it is being played there."""

    usage_error = False  # the command was right; the folder is busy (exit 1, not 2)


def _try_lock(fd: int, kind: int) -> bool:
    """Take lock ``kind`` on ``fd`` without waiting: True, or False while another holds it.
    Raises OSError where the file system has no locks."""
    try:
        fcntl.flock(fd, kind | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder_words(path: Path) -> str:
    """The holder of lock file ``path`` as it wrote itself there: 'pid N', 'pid N on HOST'
    (another machine's), or 'a process' (not written yet)."""
    try:
        pid, _, host = path.read_text().strip().partition(" ")
    except OSError:
        pid = host = ""
    if not pid.isdigit():
        return "a process"
    return f"pid {pid}" + (f" on {host}" if host and host != socket.gethostname() else "")


def _acquire(out: Path) -> int | None:
    """The descriptor of the run's lock file, locked and holding this process's id; None
    where no lock can be taken. Raises RunLocked while another process holds it."""
    from .checks import make_out  # start-up: checks loads numpy, which storage needs not

    make_out(out)  # a folder that cannot be made: one ValueError saying why
    path = out / LOCK
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except IsADirectoryError:  # nothing a run makes: never removed here
            raise InTheWay.directory(path) from None
        except PermissionError as exc:  # another user's lock file, which a run of theirs left
            left = _remove_left(out, path)
            if time.monotonic() >= deadline:  # held all the while, or never to be written
                raise (ValueError(_not_removed(out, path, exc)) if left else
                       RunLocked(_played_there(out, _holder_words(path)))) from None  # fmt: skip
            time.sleep(0.02)
            continue
        try:
            got = _try_lock(fd, fcntl.LOCK_EX)
        except OSError:  # a file system without locks: played unlocked, no lock file left
            os.close(fd)
            path.unlink(missing_ok=True)
            return None
        try:  # the file may have been removed by the holder that just let go of it
            same = got and os.fstat(fd).st_ino == path.stat().st_ino
        except FileNotFoundError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
            return fd
        os.close(fd)
        if not got and time.monotonic() >= deadline:
            raise RunLocked(_played_there(out, _holder_words(path)))
        time.sleep(0.02)


def _remove_left(out: Path, path: Path) -> bool:
    """Remove lock file ``path``, which this process may not write (another user's run made
    it), where no process holds it (a killed run left it): True; False while one holds it.
    Locked while it is removed, so no process takes it meanwhile. One ValueError where it
    cannot be removed either."""
    try:
        fd = os.open(path, os.O_RDONLY)  # flock needs no write access
    except FileNotFoundError:
        return True  # removed meanwhile: made anew
    except OSError as exc:
        raise ValueError(_not_removed(out, path, exc)) from None
    try:
        if not _try_lock(fd, fcntl.LOCK_EX):
            return False
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise ValueError(_not_removed(out, path, exc)) from None
    finally:
        os.close(fd)
    return True


def _not_removed(out: Path, path: Path, exc: OSError) -> str:
    return (f"cannot take the lock of the run in {out}: {path} can be neither written nor "
            f"removed ({exc.strerror or exc}); if no process plays the run, remove that file "
            "and try again")  # fmt: skip


def _played_there(out: Path, holder: str) -> str:
    """The one line refusing a run that another process plays."""
    return (f"another process is playing this run in {out} ({holder}): wait for it to end, or "
            "stop it, then try again")  # fmt: skip


def refuse_if_played(out: str | Path) -> None:
    """Raise RunLocked where another process holds the lock of the run in ``out``: checked
    before any advice about the run (a '--resume' that the lock would then refuse)."""
    if os.path.realpath(out) in _held:
        return  # this process plays it
    holder = lock_holder(out)
    if holder:
        raise RunLocked(_played_there(Path(out), holder))


@contextlib.contextmanager
def run_lock(out: str | Path) -> Iterator[bool]:
    """Hold the lock of the run in folder ``out`` (made if need be) while the block writes
    the run; a process may take it again inside (a command, then the library). Raises
    RunLocked (one line) at once where another process holds it, before anything is written.
    Yields False where no lock can be taken (no ``fcntl``: Windows; a file system without
    locks): the run is played unlocked, and no reader can tell it live or killed."""
    out = Path(out)
    key = os.path.realpath(out)
    if key in _held:
        _held[key][1] += 1
        try:
            yield True
        finally:
            _held[key][1] -= 1
        return
    fd = _acquire(out) if fcntl is not None else None
    if fd is None:
        yield False
        return
    _held[key] = [fd, 1]
    try:
        yield True
    finally:
        del _held[key]
        with contextlib.suppress(OSError):  # removed while held: no one else can take it
            (out / LOCK).unlink(missing_ok=True)  # (a folder made read-only keeps it)
        os.close(fd)  # the lock goes with the descriptor


def lock_holder(out: str | Path) -> str | None:
    """Who holds the lock of the run in ``out``: 'pid N' (see ``_holder_words``); "" where
    the lock file is there and no process holds it (a killed run left it); None where that
    cannot be told (no lock file: a run that ended in order, or one played unlocked; no
    ``fcntl``). It tries the lock shared for a moment, never waiting: a writer that starts
    in that moment retries (``LOCK_WAIT_S``)."""
    if fcntl is None:
        return None
    path = Path(out) / LOCK
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        if not _try_lock(fd, fcntl.LOCK_SH):
            return _holder_words(path)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return ""
    except OSError:  # a file system without locks
        return None
    finally:
        os.close(fd)
