"""How a round ended, said in one set of words: a record's replay refused an event after a
blockade with "the round was over after event N: a blockade", while a move refused in the
same blockade says "the round is over: a blockade (no seat can play any card)"."""

from __future__ import annotations

import dataclasses
import re

import pytest

import ligretto
import strategies
from ligretto.record import RecordError

from .test_ligretto63 import _blocked_after_one_play


def test_a_replay_says_a_blockade_as_a_refused_move_does():
    players = [strategies.get("stack", game="ligretto") for _ in range(2)]
    out = ligretto.play_round(players, 0, 1, record=True, deal=_blocked_after_one_play())
    record = out.record
    last = len(record.events) - 1
    states = ligretto.replay(record)
    with pytest.raises(ligretto.IllegalMove) as move:
        states[-1].flip(0)
    assert str(move.value) == "the round is over: a blockade (no seat can play any card)"
    extra = dataclasses.replace(record, events=[*record.events, [record.events[-1][0], 0,
                                                                 "flip", -1, -1]])  # fmt: skip
    said = str(move.value).removeprefix("the round is over: ")
    with pytest.raises(RecordError, match=re.escape(f"over after event {last}: {said}") + "$"):
        ligretto.replay(extra)
