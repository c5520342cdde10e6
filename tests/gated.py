"""A tests-only strategy that plays like ``low`` and can stall a run at a known point.

With ``LEAVES_TEST_STALL_AFTER=N`` in its environment, each process that plays it stops for
good (until a signal ends it) when it is about to start its game N + 1, so a test can stop a
tournament with a known number of chunks finished and never all of them, whatever the
machine's load. Without the variable it never waits, and its decisions are ``low``'s either way,
so the rows never depend on the stall.
"""

from __future__ import annotations

import os
import time

import strategies
from strategies import Strategy

STALL_AFTER = "LEAVES_TEST_STALL_AFTER"
_LOW = strategies.get("low")  # immutable set-up, shared by the fresh instances


class Gated(Strategy, register=False):
    description = "plays like low; stalls after LEAVES_TEST_STALL_AFTER games in a process"
    started = 0  # games this process has started (a class-level count: instances are fresh)

    def start_game(self, view, rng):
        Gated.started += 1
        limit = os.environ.get(STALL_AFTER)
        if limit is not None and Gated.started > int(limit):
            while True:  # wait for the signal that ends the process, however long it takes
                time.sleep(3600)

    def choose(self, view, legal, rng):
        return _LOW.choose(view, legal, rng)
