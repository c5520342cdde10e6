"""Ligretto's edges as a user meets them: a strategy of one's own that cannot decide, one that
plays by a policy vector on a clock of its own, decisions of numpy integers, forfeits that name
the strategy, a bad record's counts, and what the rules say a record holds for a card."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

import strategies
from ligretto import ReactionModel, RecordError, RoundRecord, replay
from ligretto.players import LigrettoStrategy, play_batch, play_round, resolve
from ligretto.players.builtin import StackFirst
from tests.helpers import cli, doc_text, one_error_line

SEEDS = np.arange(4, dtype=np.uint64)
NO_DECIDE = re.escape(
    "is no Ligretto player: it implements no decide(view, rng), nor a policy vector"
)


@pytest.fixture(autouse=True)
def _cli_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    monkeypatch.setenv("COLUMNS", "200")  # rich's tables on one line


def test_a_named_class_without_decide_is_refused_when_it_registers():
    """A strategy class that implements neither ``decide`` nor a policy used to register and
    then forfeit every round it played ('must implement decide()'); its definition is refused,
    saying why, and nothing is registered under its name."""
    with pytest.raises(TypeError, match=f"^undecided {NO_DECIDE}, so it would forfeit") as exc:

        class Undecided(LigrettoStrategy):
            name = "undecided"

    assert "\n" not in str(exc.value)
    assert "undecided" not in strategies.names(game="ligretto")


class _Unnamed(LigrettoStrategy, register=False):
    """A base of one's own strategies: no name, no decision, never registered."""


def test_an_unregistered_class_without_decide_is_refused_when_it_is_used():
    """An unnamed class without ``decide`` (a base of one's own) may be defined; using it as a
    player is refused in one line before any round is played (it forfeited every round)."""
    with pytest.raises(ValueError, match=f"^_Unnamed {NO_DECIDE}$"):
        resolve(_Unnamed)
    with pytest.raises(ValueError, match=f"^_Unnamed {NO_DECIDE}$"):
        play_batch([_Unnamed(), "stack"], SEEDS, SEEDS[::-1].copy())


class _Decides(_Unnamed, register=False):
    """A subclass of that base that decides: a player."""

    def decide(self, view: Any, rng: Any) -> Any:
        return StackFirst().decide(view, rng)


def test_a_subclass_that_decides_plays():
    """The refusal is of a class that cannot decide, not of a base that one can subclass."""
    out = play_batch([_Decides(), "stack"], SEEDS, SEEDS[::-1].copy())
    assert (out.forfeit_seat == -1).all(), out.errors


NO_DECIDE_FILE = """
from ligretto.players import LigrettoStrategy


class NoDecide(LigrettoStrategy):
    name = "nodecide"
"""

UNNAMED_FILE = """
from ligretto.players import LigrettoStrategy


class NoDecide(LigrettoStrategy, register=False):
    pass
"""


@pytest.mark.parametrize("text", [NO_DECIDE_FILE, UNNAMED_FILE])
def test_a_tournament_refuses_a_file_whose_class_cannot_decide(tmp_path, capsys, text):
    """``leaves tournament --game ligretto mine.py:NoDecide stack`` used to play the run and
    exit 1 with every round of NoDecide forfeited; it is bad input: one line, exit 2, and
    nothing written."""
    (tmp_path / "mine.py").write_text(text)
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"{tmp_path}/mine.py:NoDecide",
                       "stack", "--players", "2", "--games", "4", "--out", str(out))  # fmt: skip
    line = one_error_line(err)
    assert code == 2, err
    assert "is no Ligretto player: it implements no decide(view, rng)" in line, line
    assert not out.exists()


class _PolicyOnly(LigrettoStrategy, register=False):
    """A player of one's own by a policy vector only: ``stack``'s, at speed 2."""

    def policy(self) -> np.ndarray:
        return StackFirst(speed=2.0).policy()


class _PolicyOwnClock(_PolicyOnly, register=False):
    """That player with a reaction-time model of its own, as fast as the policy's."""

    @property
    def reaction(self) -> Any:
        return ReactionModel(speed=2.0)


class _PolicyOwnClockAgain(_PolicyOwnClock, register=False):
    """A subclass of that: it inherits the decisions and the clock."""


@pytest.mark.parametrize("cls", [_PolicyOwnClock, _PolicyOwnClockAgain])
def test_a_policy_player_with_its_own_clock_plays_its_policys_decisions(cls):
    """A class with a ``reaction`` of its own gives up the compiled policy (the loop would
    play the policy's clock), so the Python path plays it; its decisions stay the policy's.
    They used to be none: 'must implement decide()', a forfeit in every round."""
    assert cls().policy() is None
    own = play_batch([cls(), "row"], SEEDS, SEEDS[::-1].copy())
    assert (own.forfeit_seat == -1).all(), own.errors
    same = play_batch(["stack:speed=2", "row"], SEEDS, SEEDS[::-1].copy())
    np.testing.assert_array_equal(own.batch.scores, same.batch.scores)
    np.testing.assert_array_equal(own.batch.time_ms, same.batch.time_ms)


def test_the_rules_say_what_a_record_holds_for_a_card(tmp_path, capsys):
    """docs/ligretto-rules.md said a card in a record is ``[seat, card_id]`` where it matters
    whose it is; the pinned format holds no such pair. A real record (``--record``): every
    card is an id, whose it is told by where it stands, and each seat's cards in the centre
    are those its own events played (``centre_cards``)."""
    text = doc_text("ligretto-rules.md")
    assert "[seat, card_id]" not in text
    assert "a card is its id alone, never a pair with a seat" in text
    records = tmp_path / "rounds.jsonl"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "cautious",
                       "--players", "3", "--games", "3", "--seed", "1", "--out",
                       str(tmp_path / "run"), "--record", str(records))  # fmt: skip
    assert code == 0, err
    lines = records.read_text().splitlines()
    assert lines
    for line in lines:
        rec = json.loads(line)
        assert all(sorted(cards) == list(range(40)) for cards in rec["deal"])
        assert all(isinstance(c, int) for hands in rec["recycled"] for h in hands for c in h)
        played = [0] * rec["players"]
        for _, seat, kind, card, _ in rec["events"]:
            assert isinstance(card, int) and -1 <= card < 40
            played[seat] += kind in ("stack", "row", "hand")
        assert played == rec["centre_cards"]


class _NumpyInts(LigrettoStrategy, register=False):
    """``stack``'s decisions with numpy's integers in them, as a user's arithmetic gives."""

    def decide(self, view: Any, rng: Any) -> Any:
        d = StackFirst().decide(view, rng)
        return type(d)(d.kind, *(np.int64(v) for v in d[1:]))


def test_a_decision_of_numpy_integers_is_recorded():
    """A ``Decision`` of numpy integers is accepted (they are integers), but its numbers went
    into the record as they were: writing the record ('Object of type int64 is not JSON
    serializable') ended a ``--record`` run, and ``leaves replay`` of its rounds, in an error.
    The record holds plain ints, and its round is ``stack``'s."""
    mine = play_round([_NumpyInts(), "row"], 1, 2, record=True)
    rec = RoundRecord.from_json(mine.record.to_json())
    assert all(type(v) is int for ev in rec.events for v in (ev[0], *ev[3:]))
    assert replay(rec)
    same = play_round(["stack", "row"], 1, 2)
    assert mine.scores == same.scores and mine.events == same.events


class _Raises(LigrettoStrategy, register=False):
    """Raises at its first decision."""

    def decide(self, view: Any, rng: Any) -> Any:
        raise RuntimeError("boom")


def test_a_forfeit_names_the_seat_and_its_strategy():
    """A forfeited round's error (the tournament's line, forfeits.json, ``leaves replay``)
    said only the seat ('seat 1: RuntimeError: boom'), which under rotations is another
    strategy's in each round; it names the strategy too, as 13 Leaves' forfeits do."""
    out = play_batch(["stack", _Raises()], SEEDS, SEEDS[::-1].copy())
    assert out.errors == ["seat 1 (_Raises): RuntimeError: boom"] * len(SEEDS)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("strategies", ["stack"], "strategies has 1 entry, one per seat of the 2 players"),
        ("deal", None, "deal: seat 0 is dealt 1 card, not its own 40"),
        ("events", [[0]], "1 field, but an event is the 5 fields"),
    ],
)
def test_a_bad_record_counts_one_thing_in_the_singular(field, value, said):
    """A record's refusals counted one thing in the plural ('strategies has 1 entries',
    'is dealt 1 cards', '1 fields')."""
    rec = json.loads(play_round(["stack", "row"], 1, 2, record=True).record.to_json())
    rec[field] = value if value is not None else [[0], rec["deal"][1]]
    with pytest.raises(RecordError, match=re.escape(said)):
        replay(RoundRecord.from_json(json.dumps(rec)))


def test_the_guide_says_a_class_without_decide_is_refused():
    """docs/ligretto.md says what the tests above check."""
    assert ("a class that implements no `decide`, nor a policy vector, would forfeit every "
            "round: it is refused when it registers (a class with a `name`) or is used, in one "
            "line") in doc_text("ligretto.md")  # fmt: skip


RAISES_FILE = """
from ligretto.players import LigrettoStrategy


class Raises(LigrettoStrategy, register=False):
    def decide(self, view, rng):
        raise RuntimeError("boom")
"""


def test_a_tournament_and_a_replay_name_the_strategy_that_forfeited(tmp_path, capsys):
    """The tournament's line on forfeits and ``leaves replay`` of a forfeited round name the
    seat and its strategy (they said 'seat 1: RuntimeError: boom')."""
    (tmp_path / "mine.py").write_text(RAISES_FILE)
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "--game", "ligretto",
                          f"{tmp_path}/mine.py:Raises", "stack", "--players", "2", "--games",
                          "2", "--seed", "1", "--out", str(out))  # fmt: skip
    assert code == 1 and re.search(r"seat \d \(Raises\): RuntimeError: boom", said), said
    code, said, err = cli(capsys, "replay", str(out), "--game", "0")
    line = said.strip()
    assert code == 0 and not err and re.search(r"seat \d \(Raises\): RuntimeError: boom", line)
