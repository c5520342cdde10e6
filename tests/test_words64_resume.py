"""A resumed run whose stored entrant's params are no table is a damaged manifest, said as the
other damaged fields are ("corrupt manifest FILE: ..."), not an entrant that changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments import Tournament, storage

RUN = dict(games=8, seed=3, chunk_size=4)


def _run(tmp_path: Path, params: object) -> Path:
    """A small complete run whose first entrant's stored params are set to ``params``."""
    out = tmp_path / "run"
    Tournament(["greedy", "random"], **RUN).run(out=out)
    path = out / storage.MANIFEST
    manifest = json.loads(path.read_text())
    manifest["spec"]["entrants"][0]["params"] = params
    path.write_text(json.dumps(manifest))
    return out


@pytest.mark.parametrize(("params", "shown"), [("x", "'x'"), (5, "5")])
def test_stored_params_that_are_no_table_are_a_corrupt_manifest(tmp_path, params, shown):
    out = _run(tmp_path, params)
    with pytest.raises(ValueError) as info:
        Tournament(["greedy", "random"], **RUN).run(out=out, resume=True)
    assert str(info.value) == (
        f"cannot resume {out}: corrupt manifest {out / storage.MANIFEST}: greedy: its params "
        f"in the manifest (spec.entrants) are {shown}, expected a table of parameter names to "
        f"values; {storage.NO_MANIFEST.format(out='out')}"  # the advice a new run gets
    )
    assert "changed" not in str(info.value)
