"""The runs a folder holds in its folders, named where a command is given the folder rather
than one of its runs (``leaves verify``, ``report``, ``compare`` and ``replay`` refuse it in
these words)."""

from __future__ import annotations

from pathlib import Path

from tournaments import storage

__all__ = ["MANIFEST", "NAMED", "named_runs", "no_run_message", "runs_in"]

MANIFEST = "manifest.json"

NAMED = 5
"""How many of a folder's runs its refusal names: the line stays one line to read (a folder
such as /tmp may hold hundreds), and the rest are counted."""


def runs_in(folder: Path) -> list[Path]:
    """The runs in ``folder``'s folders: variants, run --rules and tune write them 1-2 down."""
    found = (*folder.glob(f"*/{MANIFEST}"), *folder.glob(f"*/*/{MANIFEST}"))
    return sorted({m.parent for m in found if m.is_file()})


def named_runs(runs: list[Path]) -> str:
    """``runs`` as a list to read: every one up to ``NAMED`` + 1, else the first ``NAMED``
    and how many more (one more is named, as it takes no more room than counting it)."""
    if len(runs) <= NAMED + 1:
        return ", ".join(map(str, runs))
    return ", ".join(map(str, runs[:NAMED])) + f", ... and {len(runs) - NAMED} more"


def no_run_message(run_dir: Path, then: str = "verify each") -> str:
    """Why ``run_dir`` (a folder without a manifest) cannot be verified: a run's folder that
    lost its manifest (``storage.lost_manifest``: a chunk's aggregates or the merged ones,
    more than a run killed as it began leaves) is named so, not a folder of no run; else the
    runs its folders hold (``runs_in``, the first few where there are many), and ``then``
    what to do with them (``report`` and ``compare`` say it in these words, their own advice
    last)."""
    from .flags import message  # start-up: only when no run is found

    lost = storage.lost_manifest(run_dir)  # one rule and its words: every entry point's
    if lost is not None:
        return message(lost)
    runs = runs_in(run_dir)
    if not runs:
        return f"{run_dir} holds no run (no {MANIFEST})"
    named = named_runs(runs)
    return f"{run_dir} holds no run itself (no {MANIFEST}); the runs in it: {named}: {then}"
