"""The seating design as a run's manifest records it, and whether a run was played under it.

A resumed run must never mix two designs, so the manifest keeps the seatings of one deal for
each pattern of repeats at a table. Most designs are a few hundred seat numbers; every
assignment of three strategies to twelve seats (``--seating all``) is 531,441 seatings, six
million numbers: listed, the manifest grew to tens of megabytes and was rewritten after every
chunk. A design that large is kept as its SHA-256 instead, which tells two designs apart as
surely.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

__all__ = ["LISTED_MAX", "design_record", "patterns", "played_under"]

LISTED_MAX = 100_000
"""The most seat numbers a manifest lists; a larger design is recorded by its digest."""


def patterns(tables: Sequence[Sequence[int]], seatings: Sequence[Any]) -> dict[str, list]:
    """For each pattern of repeats at a table (its entrants numbered 0.. in canonical order,
    '0,1,2,3' or '0,0,1'), the seatings of one deal, from the first table of that pattern."""
    out: dict[str, list[list[int]]] = {}
    for table, table_seatings in zip(tables, seatings, strict=True):
        distinct = sorted(set(table))
        key = ",".join(str(distinct.index(e)) for e in table)
        if key not in out:
            out[key] = [[distinct.index(e) for e in st] for st in table_seatings]
    return out


def _digest(design: dict[str, list]) -> str:
    text = json.dumps(design, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def design_record(kind: str, design: dict[str, list]) -> dict[str, Any]:
    """What the manifest keeps of the design ``kind`` with these ``patterns``: the seatings
    per deal of each pattern, and the seatings themselves, or their digest (``LISTED_MAX``)."""
    record: dict[str, Any] = {
        "kind": kind,
        "seatings_per_deal": {k: len(v) for k, v in design.items()},
    }
    if sum(len(s) for v in design.values() for s in v) <= LISTED_MAX:
        record["seatings"] = design
    else:
        record["seatings_sha256"] = _digest(design)
    return record


def played_under(recorded: dict[str, Any] | None, design: dict[str, list]) -> bool:
    """Whether a run whose manifest recorded ``recorded`` was played under ``design`` (True
    where it recorded neither the seatings nor their digest: an earlier version's run)."""
    recorded = recorded or {}
    if recorded.get("seatings") is not None:
        return recorded["seatings"] == design
    if recorded.get("seatings_sha256") is not None:
        return recorded["seatings_sha256"] == _digest(design)
    return True
