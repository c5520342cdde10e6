"""A damaged or hand-made value said in one line wherever it is read: a manifest Python will
not read by the report's loader, a comparison's state by its resume (in the storage's own
words), a bad argument or declared value shown as every error shows one (``shown``: a whole
number past 4,300 digits by its digits, a long one cut), and the chunks a manifest's
schedule lays out, counted from the manifest alone as the schedule counts them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from reports import ReportError
from reports.loading import load_run, part_files
from reports.synthetic import synthetic_games
from tests.helpers import cli, one_error_line
from tournaments import Gauntlet, Tournament, games, storage
from tournaments.arguments import default_game, focus_label, match_rules, moment, seating_design
from tournaments.checks import flag, integer, optional_path, spec_list
from tournaments.declaration_check import check_declaration
from tournaments.manifest_fields import chunks_laid_out
from tournaments.session import new_manifest

MOST = sys.get_int_max_str_digits()
HUGE = 10**5000
HUGE_SAID = "a whole number of about 5,001 digits"
LONG = "x" * 200
LONG_SAID = "'" + "x" * 56 + "..."  # the line's 60 characters

PAST = {
    "nesting": ("[" * 100_000 + "]" * 100_000, "it holds lists or objects nested too deep to read"),
    "number": ('{"seed": ' + "1" * (MOST + 1) + "}", f"it holds a number of more than {MOST:,} digits"),
}  # fmt: skip


@pytest.fixture
def rows(tmp_path) -> Path:
    """A folder of another tool's rows (``reports.synthetic``) to give a manifest."""
    run = tmp_path / "rows"
    (run / "games").mkdir(parents=True)
    df = synthetic_games({"a": 0.0, "b": 0.0, "c": 0.0}, deals=2, players=(3,))
    df.to_parquet(run / "games" / "part-0.parquet")
    return run


@pytest.mark.parametrize("past", PAST)
def test_the_report_loader_names_a_manifest_python_will_not_read(rows, past):
    """Was: a RecursionError from ``json.loads``, or Python's words about its digits
    ("Exceeds the limit (4300 digits) ... use sys.set_int_max_str_digits()")."""
    text, why = PAST[past]
    (rows / storage.MANIFEST).write_text(text)
    with pytest.raises(ReportError) as info:
        load_run(rows)
    assert str(info.value) == f"corrupt manifest: {rows / storage.MANIFEST} cannot be read: {why}"
    assert part_files(rows / "games") == [rows / "games" / "part-0.parquet"]  # load_run says it


def test_the_report_loader_names_a_manifest_that_is_no_json(rows):
    (rows / storage.MANIFEST).write_text("{")
    with pytest.raises(ReportError, match=r"^corrupt manifest: .*manifest\.json is not valid JSON"):
        load_run(rows)


# ------------------------------------------------------------------ a comparison's state

_STATE = '{"format": 1, "options": {}, "designer": {}}'


def _comparison(tmp_path: Path) -> Path:
    out = tmp_path / "v"
    out.mkdir()
    (out / "variants.json").write_text(_STATE)
    return out


def test_a_comparison_state_the_system_will_not_read_is_said_in_its_words(
    tmp_path, capsys, monkeypatch
):
    """Was: "... cannot be read: [Errno 13] Permission denied: '.../variants.json'", the
    path twice and the raw error number."""
    out = _comparison(tmp_path)
    path = out / "variants.json"
    real = Path.read_text

    def refused(self, *args, **kwargs):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", refused)
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume")
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: {path} cannot be read (Permission denied)"
    )


def test_a_comparison_state_is_read_in_the_storages_words(tmp_path, capsys, monkeypatch):
    """One source of the words saying why Python will not read a JSON file: the
    comparison's resume had its own copy of them."""
    out = _comparison(tmp_path)

    def past(text):
        raise storage.JSONPastLimits("it holds what the storage says")

    monkeypatch.setattr(storage, "load_json", past)
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume")
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: {out / 'variants.json'} cannot be read: it holds "
        "what the storage says"
        f"; it holds no run of the comparison to make it again from: remove "
        f"{out / 'variants.json'}, "
        "then leave out --resume to start one there"
    )


# ------------------------------------------------------------------ values shown


@pytest.mark.parametrize(("call", "said"), [
    (lambda: integer((HUGE,), "games", "a count"),
     "games takes a count, got a tuple that Python cannot write out"),
    (lambda: flag(HUGE, "rows"), f"rows takes True or False, got {HUGE_SAID}"),
    (lambda: integer(LONG, "games", "a count"), f"games takes a count, got {LONG_SAID}"),
    (lambda: integer(1.5, "games", "a count"), "games takes a count, got 1.5"),
    (lambda: flag([HUGE], "rows"), "rows takes True or False, got a list that Python cannot "
                                   "write out"),
    (lambda: flag("no", "rows"), "rows takes True or False, got 'no'"),
    (lambda: optional_path(HUGE, "out"),
     f"out takes a path (str or Path) or None, got {HUGE_SAID}"),
    (lambda: spec_list(LONG, "strategies"),
     f"strategies must be a list of strategies or specs, got the string {LONG_SAID}"),
    (lambda: spec_list(HUGE, "strategies"),
     f"strategies must be a list of strategies or specs, got {HUGE_SAID}"),
    (lambda: moment(LONG), f"since takes a time.perf_counter() value or None, got {LONG_SAID}"),
    (lambda: default_game(HUGE),
     f"game takes a game plug-in or an installed game's id, got {HUGE_SAID}"),
])  # fmt: skip
def test_a_bad_argument_is_shown_as_every_bad_value(call, said):
    """Was: a whole number past 4,300 digits raised Python's words about its digits in place
    of the argument's error; a long one ran over the line."""
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == said


def test_a_bad_setting_is_shown_as_every_bad_value():
    game = games.get_game("ligretto")
    with pytest.raises(
        ValueError, match=f"^rounds must be at least 1, got a negative {HUGE_SAID[2:]}$"
    ):
        match_rules(game, False, None, -HUGE)
    with pytest.raises(ValueError, match=f"^rounds can be at most .*, got {HUGE_SAID}$"):
        match_rules(game, False, None, HUGE)
    with pytest.raises(ValueError, match=f"^target a negative {HUGE_SAID[2:]}: a "):
        match_rules(game, True, -HUGE, None)
    with pytest.raises(ValueError, match=f"^unknown seating {LONG_SAID}: choose one of "):
        seating_design(game, LONG)
    with pytest.raises(ValueError, match=f"^focus {HUGE_SAID} is not one of the tournament's"):
        focus_label(game, HUGE, ["stack"], [None])


class _Endless:
    """A game whose rounds have no practical bound: a valid ``max_length`` whose line (written
    whether or not its check fails) Python would not write."""

    max_length = HUGE


class _Unseatable:
    max_players = HUGE


class _NoStem:
    match_name = LONG + "/"


def _declared(defect: type) -> object:
    """Ligretto with ``defect``, importable by name (the check pickles it)."""
    name = f"Ligretto{defect.__name__}"
    cls = type(name, (defect, games.game_class("ligretto")),
               {"__module__": __name__, "__qualname__": name})  # fmt: skip
    globals()[name] = cls
    return cls()


def test_a_valid_declared_value_past_the_digits_passes_the_declaration_check():
    """Was: "Exceeds the limit (4300 digits) for integer string conversion" from the line of
    a check that passes (every line is written before the checks are made)."""
    declaration, entrants = check_declaration(_declared(_Endless), None)
    assert declaration.name == "ligretto" and entrants


@pytest.mark.parametrize(("defect", "said"), [
    (_Unseatable, f"min_players 2 and max_players {HUGE_SAID} are not in 1..12"),
    (_NoStem, f"match_name {LONG_SAID} is not a file stem"),
])  # fmt: skip
def test_a_bad_declared_value_is_shown_as_every_bad_value(defect, said):
    with pytest.raises(AssertionError) as info:
        check_declaration(_declared(defect), None)
    assert str(info.value) == said


# ------------------------------------------------------------------ chunks laid out

LAYOUTS = {
    "one size": lambda: Tournament(["random", "greedy", "low"], players=3, games=12, chunk_size=6),
    "three sizes": lambda: Tournament(["random", "greedy", "low", "high"], players="3,4,5",
                                      games=1000, chunk_size=7),
    "repeats forced": lambda: Tournament(["random", "greedy"], players=4, games=50, chunk_size=4),
    "repeats": lambda: Tournament(["random", "greedy", "low"], players=3, games=50, repeats=True,
                                  chunk_size=5),
    "balanced": lambda: Tournament(["random", "greedy", "low", "high"], players=4, games=500,
                                   seating="balanced", chunk_size=11),
    "all": lambda: Tournament(["random", "greedy", "low", "high"], players=[3, 5], games=500,
                              seating="all", chunk_size=13),
    "focus": lambda: Tournament(["random", "greedy", "low", "high"], players=3, games=100,
                                focus="random", chunk_size=3),
    "chunk of one": lambda: Tournament(["random", "greedy", "low"], players=3, games=30,
                                       chunk_size=1),
    "default chunks": lambda: Tournament(["random", "greedy", "low", "high"], players=[3, 4],
                                         games=10**6),
    "stages": lambda: Tournament(["random", "greedy", "low"], players=3, games=12,
                                 chunk_size=6).with_stages([2, 9, 30]),
    "gauntlet": lambda: Gauntlet("greedy", ["low", "random"], baseline="high", players=3,
                                 games=12, chunk_size=2),
}  # fmt: skip


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_chunks_laid_out_are_the_schedules(layout):
    played = LAYOUTS[layout]()
    manifest = new_manifest(played, played.spec())
    assert chunks_laid_out(manifest) == played.schedule.n_chunks == manifest["spec"]["n_chunks"]


def test_the_chunks_laid_out_follow_the_manifests_chunk_size_and_stages():
    """Three tables' worth of counting: 6 seatings a deal, 2 deals, a chunk of 6 games holds
    one deal (2 chunks), of 12 both (1 chunk); stages of 2 and 9 deals, 2 + 7 chunks."""
    played = LAYOUTS["one size"]()
    manifest = new_manifest(played, played.spec())
    assert chunks_laid_out(manifest) == 2
    manifest["spec"]["chunk_games"] = 12
    assert chunks_laid_out(manifest) == 1
    manifest["spec"].update(chunk_games=6, deal_stages=[2, 9])
    assert chunks_laid_out(manifest) == 9


def test_a_manifest_that_does_not_tell_the_layout_lays_out_no_count():
    played = LAYOUTS["one size"]()
    manifest = new_manifest(played, played.spec())
    older = {**manifest, "spec": {k: v for k, v in manifest["spec"].items() if k != "deal_stages"}}
    assert chunks_laid_out(older) is None
    del manifest["seating_design"]
    assert chunks_laid_out(manifest) is None
