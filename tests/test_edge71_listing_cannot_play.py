"""``leaves strategies --load FILE`` listed a file's class that no use would play as a plain
row (``noch.py:NoChoose  -``), while ``leaves tournament noch.py:NoChoose ...`` refused it: a
class with no way to decide, a built-in's subclass whose ``__init__`` skips
``super().__init__()``, a Ligretto class with no ``decide`` or with a reaction that is no
reaction-time model. Each is now tagged ``(cannot play: WHY)`` in the words of the use's
refusal, as an entry point that cannot load is tagged ``(cannot load: ...)``, and with
``--filter`` warned about and left out, as such an entry point is."""

from __future__ import annotations

import warnings

import pytest

from leaves_cli.strategies_cmd import file_rows, load_files, matching
from tests.helpers import cli, one_error_line

LEAVES_FILE = """
import strategies
from strategies import Strategy

G = type(strategies.get("greedy"))


class NoChoose(Strategy, register=False):
    classifier = {"stochastic": False}


class NoSuper(G):
    def __init__(self, x: int = 1):
        self.x = x


class Plays(G):
    def choose(self, view, legal, rng):
        return legal[-1]


class Needs(Strategy, register=False):
    def __init__(self, k: int):
        pass

    def choose(self, view, legal, rng):
        return legal[0]


class Exits(Strategy, register=False):
    def __init__(self):
        raise SystemExit(3)

    def choose(self, view, legal, rng):
        return legal[0]
"""

LIGRETTO_FILE = """
from ligretto import Decision
from ligretto.players import LigrettoStrategy


class Waits(LigrettoStrategy, register=False):
    def decide(self, view, rng):
        return Decision("wait", looked=1)


class NoDecide(LigrettoStrategy, register=False):
    def __init__(self, speed: float = 1.0):
        pass


class BadReaction(LigrettoStrategy, register=False):
    reaction = object()

    def decide(self, view, rng):
        return Decision("wait", looked=1)
"""

TAG = "(cannot play: "


@pytest.fixture(scope="module")
def leaves_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("edge71_leaves") / "edge71_noch.py"
    path.write_text(LEAVES_FILE)
    return str(path)


@pytest.fixture(scope="module")
def ligretto_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("edge71_ligretto") / "edge71_mine.py"
    path.write_text(LIGRETTO_FILE)
    return str(path)


def _rows(path: str, game: str) -> dict[str, tuple[str, dict, dict]]:
    return {n: (d, c, p) for n, d, c, p in file_rows(load_files([path]), {}, game)}


def _refusal(capsys, game: str, spec: str, other: str) -> str:
    """The line ``leaves tournament`` refuses ``spec`` with (before a game is played)."""
    code, _, err = cli(capsys, "tournament", "--game", game, spec, other, other, "--out",
                        "edge71-never-written")  # fmt: skip
    assert code == 2
    return one_error_line(err).removeprefix("leaves: error: ")


@pytest.mark.parametrize("cls", ["NoChoose", "NoSuper"])
def test_a_leaves_class_a_use_refuses_is_tagged_in_the_uses_words(capsys, leaves_file, cls):
    spec = f"{leaves_file}:{cls}"
    description, classifier, params = _rows(leaves_file, "leaves")[spec]
    assert description == f"{TAG}{_refusal(capsys, 'leaves', spec, 'greedy,low')})"
    assert (classifier, params) == ({}, {})  # as an entry point that cannot load is listed


def test_the_leaves_refusals_say_why(leaves_file):
    rows = _rows(leaves_file, "leaves")
    assert rows[f"{leaves_file}:NoChoose"][0] == (
        f"{TAG}NoChoose is no 13 Leaves player: it implements no choose(view, legal, rng), nor "
        "a compiled policy)"
    )
    assert "NoSuper.__init__ does not call super().__init__()" in rows[f"{leaves_file}:NoSuper"][0]


@pytest.mark.parametrize("cls", ["NoDecide", "BadReaction"])
def test_a_ligretto_class_a_use_refuses_is_tagged_in_the_uses_words(capsys, ligretto_file, cls):
    spec = f"{ligretto_file}:{cls}"
    description, classifier, params = _rows(ligretto_file, "ligretto")[spec]
    assert description == f"{TAG}{_refusal(capsys, 'ligretto', spec, 'stack,row')})"
    assert (classifier, params) == ({}, {})


def test_classes_that_play_keep_their_rows(leaves_file, ligretto_file):
    leaves = _rows(leaves_file, "leaves")
    assert leaves[f"{leaves_file}:Plays"][2] == {"keep_pairs": False}
    assert not leaves[f"{leaves_file}:Plays"][0].startswith(TAG)
    # a parameter with no default: a spec that gives it plays, so it is not built bare
    assert leaves[f"{leaves_file}:Needs"][0] == ""
    assert not _rows(ligretto_file, "ligretto")[f"{ligretto_file}:Waits"][0].startswith(TAG)


def test_a_constructor_that_exits_is_tagged_and_the_listing_goes_on(capsys, leaves_file):
    description = _rows(leaves_file, "leaves")[f"{leaves_file}:Exits"][0]
    assert description == (
        f"{TAG}cannot build strategy Exits ({leaves_file}:Exits): it exited as it was built "
        "(SystemExit(3)): a strategy must not exit)"
    )
    # a run refuses it in the same words, exit 2 (it exited 3 and printed nothing)
    assert (
        description == f"{TAG}{_refusal(capsys, 'leaves', f'{leaves_file}:Exits', 'greedy,low')})"
    )


def test_the_table_tags_the_row(capsys, monkeypatch, ligretto_file):
    monkeypatch.setenv("COLUMNS", "400")
    code, out, err = cli(capsys, "strategies", "--game", "ligretto", "--load", ligretto_file)
    assert code == 0 and err == ""
    (line,) = [x for x in out.splitlines() if f"{ligretto_file}:NoDecide" in x]
    assert f"{TAG}NoDecide is no Ligretto player: it implements no decide(view, rng)" in line


def test_with_a_filter_each_is_warned_about_and_left_out(capsys, monkeypatch, leaves_file):
    monkeypatch.setenv("COLUMNS", "400")
    code, out, err = cli(capsys, "strategies", "--load", leaves_file, "--filter", "compiled=false")
    assert code == 0
    assert f"{leaves_file}:NoChoose" not in out and f"{leaves_file}:NoSuper" not in out
    assert f"{leaves_file}:Plays" in out  # a class that plays and matches (its own choose): listed
    warned = [x for x in err.splitlines() if x.startswith("leaves: warning: ")]
    assert f"leaves: warning: {leaves_file}:NoChoose: NoChoose is no 13 Leaves player" in err
    assert len(warned) == 3  # NoChoose, NoSuper, Exits: once each


def test_matching_warns_only_under_a_filter():
    rows = [("f.py:A", f"{TAG}A is no 13 Leaves player: why)", {}, {}),
            ("f.py:B", "plays", {"compiled": True}, {})]  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert matching(rows, {}) == rows
    with pytest.warns(UserWarning, match=r"^f\.py:A: A is no 13 Leaves player: why$"):
        assert matching(rows, {"compiled": True}) == [rows[1]]
