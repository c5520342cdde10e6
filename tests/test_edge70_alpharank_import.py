"""The meta-game section says why α-Rank is left out in the words every research package's
failed import is said in (``gamekit.requirement.import_failure``): OpenSpiel installed but
broken (a shared library it loads missing) was said "not installed", sending the user to an
install that changes nothing."""

from __future__ import annotations

import importlib.abc
import importlib.metadata
import sys

import numpy as np
import pandas as pd
import pytest

from reports import metagame_rank, metagame_text

LIBRARY = "libspiel.so: cannot open shared object file"


class _Broken(importlib.abc.MetaPathFinder):
    """OpenSpiel's ``egt.alpharank`` failing to load as a broken install fails, or, ``absent``,
    OpenSpiel not found at all, as where it is not installed."""

    def __init__(self, absent: bool = False):
        self.absent = absent

    def find_spec(self, name, path=None, target=None):
        if self.absent and name == "open_spiel":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        if name == "open_spiel.python.egt.alpharank":
            raise ImportError(LIBRARY)
        return None


@pytest.fixture
def broken(monkeypatch) -> str:
    """OpenSpiel installed, its ``egt.alpharank`` failing to import; the release found."""
    egt = pytest.importorskip("open_spiel.python.egt")
    monkeypatch.delattr(egt, "alpharank", raising=False)
    monkeypatch.delitem(sys.modules, "open_spiel.python.egt.alpharank", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_Broken(), *sys.meta_path])
    return importlib.metadata.version("open_spiel")


@pytest.fixture
def missing(monkeypatch) -> None:
    """No OpenSpiel at all."""
    for name in [m for m in sys.modules if m == "open_spiel" or m.startswith("open_spiel.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_Broken(absent=True), *sys.meta_path])


def _sentence() -> str:
    """The section's α-Rank sentence for two strategies at two seats, with no ranking."""
    pay = pd.DataFrame({"n_a": [2, 1, 0], "n_b": [0, 1, 2], "players": [2, 2, 2]})
    return metagame_text._rank_sentence({}, pay)


def test_a_broken_openspiel_is_said_broken_with_the_imports_words(broken):
    assert metagame_rank.egt() is None
    assert _sentence() == (
        f"α-Rank is left out (OpenSpiel {broken} cannot be imported: {LIBRARY})."
    )  # was: "α-Rank needs OpenSpiel, which is not installed: pip install ..."
    counts, pays = np.array([[2, 0], [1, 1], [0, 2]]), np.zeros((3, 2))
    with pytest.raises(ImportError, match=f"^OpenSpiel {broken} cannot be imported: {LIBRARY}$"):
        metagame_rank.masses(counts, pays, 2, 1.0)


def test_a_missing_openspiel_is_said_not_installed(missing):
    assert metagame_rank.egt() is None
    assert (
        _sentence() == "α-Rank is left out (OpenSpiel is not installed: pip install '.[research]')."
    )


def test_an_importable_openspiel_has_no_failure():
    pytest.importorskip("open_spiel.python.egt")
    assert metagame_rank.egt_failure() is None
