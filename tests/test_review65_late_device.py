"""A ``record`` that is the system's null device (``os.devnull``: /dev/null, or NUL where no
named pipe can be made) is refused as the tournament is made, on every system: the other
checks of a pipe or a device need ``os.mkfifo``. Only ``os.stat`` asks what it is; nothing
opens it, and no folder is left behind."""

from __future__ import annotations

import os

import pytest

from gamekit.errors import ParameterError
from tournaments import Tournament, storage


def test_a_record_onto_the_null_device_is_refused_as_the_tournament_is_made(tmp_path):
    null = os.devnull
    assert storage.special_file(null) == "a device"
    with pytest.raises(ParameterError) as caught:
        Tournament(["greedy", "low", "high"], 3, 6, seed=1, record=null).run(out=tmp_path / "run")
    assert str(caught.value) == f"record {null} is not a regular file but a device: name a file"
    assert list(tmp_path.iterdir()) == []
