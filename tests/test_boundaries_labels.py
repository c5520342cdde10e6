"""tournaments/labels.py at its boundaries, worked out by hand: entrants of one label told apart
by their files (as few trailing path parts as tell them apart), by their modules, or by their
order where nothing else does; the same entrant twice kept; a qualifier taken off again
(``benchmarks/bench_mutation.py tournaments/labels.py``)."""

from __future__ import annotations

import pytest

from tournaments.labels import Labeled, _qualifiers, entrant_labels, identity, unqualified


class Plain:
    """A game that resolves a spec to (its name, the spec) and describes nothing."""

    def resolve(self, spec):
        if isinstance(spec, str):
            return spec.rpartition(":")[2].partition("(")[0] or spec, spec
        return type(spec).__name__, spec


class Described(Plain):
    """A game that describes an entrant by its file and class."""

    def describe(self, payload):
        file, _, cls = payload.rpartition(":")
        return {"label": cls, "class": f"bots:{cls}", "file": file or None}


def test_where_an_entrant_comes_from():
    assert identity(Plain(), "ok.py:MyBot")[1] == "ok.py"
    assert identity(Plain(), "notes.py")[1] is None  # no class named: not a file spec
    assert identity(Plain(), "mod:Bot")[1] is None  # a module's class, no file
    assert identity(Described(), "v1/ok.py:MyBot") == (
        '{"class": "bots:MyBot", "file": "v1/ok.py"}', "v1/ok.py")  # fmt: skip
    assert identity(Described(), ":MyBot")[1] == "bots"  # no file: its class's module


def test_the_fewest_path_parts_that_tell_files_apart():
    assert _qualifiers(["a/ok.py", "b/ok.py"]) == ["a/ok.py", "b/ok.py"]  # only whole paths
    assert _qualifiers(["x/ok.py", "x/ok2.py"]) == ["ok.py", "ok2.py"]
    assert _qualifiers(["/r/a/x/ok.py", "/r/b/x/ok.py"]) == ["a/x/ok.py", "b/x/ok.py"]
    assert _qualifiers(["mine.bots", "x/ok.py"]) == ["mine.bots", "ok.py"]
    assert _qualifiers([None, "a.py"]) is None and _qualifiers(["a.py", "a.py"]) is None


def test_entrants_of_one_label_are_told_apart_and_one_entrant_twice_is_not():
    got = entrant_labels(Described(), ["x/ok.py:MyBot", "y/ok.py:MyBot", "low"])
    assert [(label, where) for label, _, where in got] == [
        ("x/ok.py:MyBot", "x/ok.py"), ("y/ok.py:MyBot", "y/ok.py"), ("low", "")]  # fmt: skip
    backwards = entrant_labels(Described(), ["low", "y/ok.py:MyBot", "x/ok.py:MyBot"])
    assert backwards[::-1] == got  # the labels depend on the entrants, not on their order
    twice = entrant_labels(Described(), ["x/ok.py:MyBot", "x/ok.py:MyBot"])
    assert [label for label, _, _ in twice] == ["MyBot", "MyBot"]  # the caller refuses it


def test_nothing_but_their_order_tells_two_classes_of_one_module_apart():
    first = type("Bot", (), {"__module__": "bots"})
    second = type("Bot", (), {"__module__": "bots"})
    got = entrant_labels(Plain(), [first(), second()])
    assert sorted(label for label, _, _ in got) == ["#1:Bot", "#2:Bot"]
    assert {where for _, _, where in got} == {"#1", "#2"}


def test_a_labelled_entrant_keeps_its_label_and_its_own_payload():
    got = entrant_labels(Plain(), [Labeled("ok.py:MyBot", "MyBot (baseline)"), "ok.py:MyBot"])
    assert got[0] == ("MyBot (baseline)", "ok.py:MyBot", "")
    assert got[1] == ("MyBot", "ok.py:MyBot", "")


@pytest.mark.parametrize(
    ("label", "qualifier", "bare"),
    [
        ("ok.py:MyBot", "ok.py", "MyBot"),
        ("ok (1).py:MyBot(k=2)", "ok (1).py", "MyBot(k=2)"),
        ("low", "", "low"),
        ("low", "ok.py", "low"),  # not its qualifier: left as it is
        ("ok.pyx:low", "ok.py", "ok.pyx:low"),
    ],
)
def test_a_qualifier_comes_off_again(label, qualifier, bare):
    assert unqualified(label, qualifier) == bare
