"""A sequential gauntlet of a strategy against its own copy (the same entrant, by canonical
name) is refused at once where the copy plays alike: every duplicate set's difference is 0,
from which the test decides nothing, and it played on to --max-games (200,000 games a side by
default) before saying "undecided". Where the copy plays otherwise, the A/A test is kept: the
copy plays each game on the same deal in the same seats but on a play seed of its own (a
game's number is its seed's), so a strategy or game that draws from that seed plays it
otherwise, and the test decides. A plain (fixed-size) gauntlet of the same entrant was and
is refused; a batch of sets that all gave 0 is not said to be "too few deals"."""

from __future__ import annotations

import dataclasses

import pytest

import strategies
import tournaments
from leaves_cli.sequential import PROBE_GAMES, _alike, played_alike
from reports.loading import as_run
from tests.helpers import cli, doc_text, one_error_line
from tournaments import Gauntlet
from tournaments.games import get_game

SETTINGS = {"margin": 1.0, "alpha": 0.05, "beta": 0.05, "max_games": 400}
ALIKE = (
    "leaves: error: the baseline is weighted itself, and its copy ended each of the first {} "
    "games per side as weighted did: a copy that plays alike makes every duplicate set's "
    "difference 0, from which the sequential test decides nothing: it would play on to "
    "--max-games, undecided; name another --baseline"
)


@pytest.fixture(autouse=True)
def _environment(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # main sets it
    monkeypatch.setenv("COLUMNS", "300")


def _default(name: str, key: str) -> str:
    """``name`` with ``key`` at its default, written out: the same entrant as ``name``."""
    return f"{name}:{key}={strategies.get(name).params[key]}"


def _copy(spec: str, field: list[str], game: str | None = None) -> Gauntlet:
    """A sequential gauntlet of ``spec`` against its own copy (24 games a side)."""
    played = get_game(game) if game else None
    return Gauntlet(spec, field, spec, players=4, games=24, seed=0, allow_same=True,
                    game=played, sequential=SETTINGS)  # fmt: skip


@pytest.mark.parametrize(("options", "probed"), [
    (["--baseline", _default("weighted", "w_pass"), "--games", "24", "--max-games", "48"], 24),
    (["--games", "24", "--max-games", "48"], 24),  # the game's baseline, taken by default
    ([], PROBE_GAMES),  # a first batch of 4,000 a side: the probe plays its first 200
])  # fmt: skip
def test_a_copy_that_plays_alike_is_refused_before_anything_is_played(tmp_path, capsys,
                                                                     options, probed):  # fmt: skip
    """weighted and taker draw nothing from their seeds: the copy ends every game as weighted
    does."""
    out = tmp_path / "g"
    code, said, err = cli(capsys, "gauntlet", "weighted", "--against", "taker", *options,
                          "--sequential", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 2 and said == "", said
    assert one_error_line(err) == ALIKE.format(probed)
    assert not out.exists()


def test_the_docs_say_how_many_games_the_probe_plays_and_the_refusal():
    said = doc_text("cli.md")
    assert f"(at most {PROBE_GAMES} a side, played before anything is written)" in said
    line = ALIKE.format(PROBE_GAMES).removeprefix("leaves: error: ")
    shown = f"{line.split(': a copy')[0]}: ...; {line.rsplit('; ', 1)[1]}"  # its middle elided
    assert f"`{shown}`" in said


def test_a_plain_gauntlet_of_one_entrant_is_refused_by_the_command_and_the_api(tmp_path, capsys):
    same = _default("weighted", "w_pass")
    code, _, err = cli(capsys, "gauntlet", "weighted", "--against", "taker", "--baseline", same,
                       "--games", "24", "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 2
    line = "the strategy and its baseline are the same (weighted)"
    assert one_error_line(err) == f"leaves: error: {line}"
    with pytest.raises(ValueError) as exc:
        tournaments.gauntlet("weighted", ["taker"], baseline=same, games=24, seed=0)
    assert str(exc.value) == line


def test_a_copy_the_game_plays_otherwise_is_kept():
    """The design reason to keep the A/A test: Ligretto's players declare no draws of their
    own, but the game times them from the play seed, which the copy's games do not share."""
    assert played_alike(_copy("row", ["stack"], "ligretto")) is None


def test_a_copy_that_declares_draws_is_not_probed(monkeypatch):
    """random draws from its seed (``stochastic``): its copy plays otherwise, nothing is
    played to see it."""

    def never(*args, **kwargs):
        raise AssertionError("the probe played")

    monkeypatch.setattr(Gauntlet, "run", never)
    assert played_alike(_copy("random", ["taker"])) is None
    assert played_alike(_copy("weighted", ["random"])) is None  # a field that draws


def test_a_copy_whose_games_all_went_unwon_is_left_to_the_test(capsys, tmp_path):
    """No game won: the test stops at its first batch and says why (nothing to weigh)."""
    code, said, err = cli(capsys, "gauntlet", "weighted", "--against", "taker", "--sequential",
                          "--turn-limit", "1", "--games", "24", "--max-games", "48",
                          "--jobs", "1", "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 0, err
    assert "none of the 24 games per side was won" in said, said


def test_the_probe_tells_one_differing_game_apart(tmp_path):
    g = _copy("weighted", ["taker"])
    assert played_alike(g) == 24
    games = as_run(g.run(out=tmp_path / "p").out).games
    a, b = games.labels.index("weighted"), games.labels.index("weighted (baseline)")
    assert _alike(games, a, b)
    copy = (games.seats == b).any(axis=1).nonzero()[0]
    for name in ("values", "winner", "first"):
        changed = getattr(games, name).copy()
        changed[copy[-1]] += 1  # the copy's last game ended otherwise
        assert not _alike(dataclasses.replace(games, **{name: changed}), a, b), name
    turns = dict(games.lengths)
    turns["turns"] = turns["turns"].copy()
    turns["turns"][copy[0]] += 1
    assert not _alike(dataclasses.replace(games, lengths=turns), a, b)


def test_sets_that_all_gave_0_are_not_called_too_few_deals(tmp_path, capsys):
    """Two entrants that play alike (w_pass a hair from its default changes no decision): 20
    sets, each +0, so no interval; the note that a test needed more deals was false."""
    code, said, err = cli(capsys, "gauntlet", "weighted:w_pass=-18.7", "--against", "taker",
                          "--baseline", "weighted", "--sequential", "--games", "40",
                          "--max-games", "80", "--jobs", "1",
                          "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 0, err
    assert "every one of the 20 duplicate sets gave the same difference" in said, said
    assert "No test was made" not in said and "too few deals" not in said, said
