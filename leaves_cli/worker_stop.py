"""The one line a run stopped by its workers ends in, for ``leaves tournament`` and ``leaves
gauntlet`` alike: a Dask worker's own error, or a local worker process that died (joblib's
``TerminatedWorkerError``, told by its name so neither package loads to tell it), each with
how the run goes on. Any other error is not the workers' and is left to ``main``."""

from __future__ import annotations

from .errors import CLIError

__all__ = ["worker_stopped"]


def worker_stopped(exc: Exception, again: str) -> CLIError | None:
    """The one-line error (exit 1) of a run its workers stopped with ``exc``, ending in
    ``again`` (every finished chunk is kept, and the command that continues the run); None
    where ``exc`` is not a worker's."""
    if type(exc).__name__ == "WorkerError":  # a Dask worker's own error, in one line
        return CLIError(f"{exc}; {again}")
    if type(exc).__name__ == "TerminatedWorkerError":  # joblib's: a local worker died
        return CLIError(f"a worker process died (killed, or out of memory); {again}")
    return None
