"""The search's default opponent models ("all") read the installed strategies: one whose
entry point cannot load (the research extra not installed, for ``openspiel``) is no compiled
model, and a search never names it, so no warning about it reaches a game of `leaves play` or a
tournament of `ismcts` (it printed "cannot load strategy 'openspiel' ..." mid-board)."""

from __future__ import annotations

import warnings

from leaves.players.ismcts import strategy as ismcts_strategy
from strategies import registry


def test_an_entry_point_that_cannot_load_is_left_out_of_the_models_in_silence(monkeypatch):
    said = "cannot load strategy 'openspiel' from entry point 'x:Y': ImportError: not installed"
    real = registry.listing

    def listing(game=registry.DEFAULT_GAME):
        return {**real(game), "openspiel": said}

    monkeypatch.setattr(registry, "listing", listing)
    monkeypatch.setattr(ismcts_strategy, "_SCANNED", [False])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        names = ismcts_strategy._compiled_policies()
    assert "weighted" in names and "openspiel" not in names


def test_filtered_itself_still_warns_of_it(monkeypatch):
    """`leaves strategies --filter` says what it left out (documented): only the search's
    models are quiet."""
    said = "cannot load strategy 'openspiel' from entry point 'x:Y': ImportError: not installed"
    real = registry.listing
    monkeypatch.setattr(registry, "listing", lambda game=registry.DEFAULT_GAME: {**real(game),
                                                                                 "openspiel": said})  # fmt: skip
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        registry.filtered(compiled=True)
    assert [str(w.message) for w in seen] == [said]
