"""A user's own strategy, as a demanding user brings it: specs of files and modules, answers
that are no legal action, failures of every kind, ``leaves strategies --load`` of a file.
Each test failed before the fix it names."""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import strategies
from leaves.players.builtin.simple import GreedyStrategy
from leaves.players.play import play_game
from strategies import Strategy
from strategies.deadline import check_timeout
from tests.helpers import cli

BOT = """
from strategies import Strategy


class MyBot(Strategy, register=False):
    description = "the first legal action (audit test)"

    def __init__(self, k: int = 1):
        self.k = k

    def choose(self, view, legal, rng):
        return legal[0]


class NotAStrategy:
    pass
"""


def _write(path: Path, text: str = BOT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


# ---------------------------------------------------------------------- spec strings
def test_the_label_form_reads_a_file_whose_path_has_parentheses(tmp_path):
    """Was: "cannot read parameter '1).py:MyBot(k=3'": the first '(' was taken for the label's."""
    path = _write(tmp_path / "bots (1) [x]" / "b (2).py")
    s = strategies.get(f"{path}:MyBot(k=3)")
    assert s.label == "MyBot(k=3)" and s.params == {"k": 3}
    assert strategies.get(f"{path}:MyBot").params == {"k": 1}
    assert strategies.get("greedy(keep_pairs=True)").label == "greedy(keep_pairs=True)"


def test_a_file_without_its_class_is_told_which_classes_it_defines(tmp_path):
    """Was: "unknown strategy 'bot.py'; known strategies: blocker, counter, ..."."""
    path = _write(tmp_path / "bot.py")
    for spec in (str(path), f"{path}:"):
        with pytest.raises(ValueError, match=r"is a file: name the strategy class in it, as .*"
                                             r"bot\.py:MyBot \(it defines MyBot\)"):  # fmt: skip
            strategies.get(spec)
    with pytest.raises(ValueError, match="no such strategy file"):
        strategies.get(str(tmp_path / "absent.py"))


def test_a_spec_with_no_name_says_so():
    """Was: "cannot read parameter 'MyBot' in strategy spec ':MyBot'"."""
    for spec in (":MyBot", " : "):
        with pytest.raises(ValueError, match="names no strategy"):
            strategies.get(spec)


def test_a_module_that_fails_at_import_is_one_named_line(tmp_path, monkeypatch, capsys):
    """Was: the module's own RuntimeError (the command line: exit 1, not naming the module)."""
    _write(tmp_path / "audpkg" / "__init__.py", "")
    _write(tmp_path / "audpkg" / "boom.py", "raise RuntimeError('boom at import')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=r"^cannot import module 'audpkg\.boom': RuntimeError: "
                                         "boom at import$"):  # fmt: skip
        strategies.get("audpkg.boom:MyBot")
    code, _, err = cli(capsys, "gauntlet", "audpkg.boom:MyBot", "--against", "taker",
                        "--games", "8", "--jobs", "1", "--no-progress")  # fmt: skip
    assert code == 2 and err.strip().splitlines() == [
        "leaves: error: cannot import module 'audpkg.boom': RuntimeError: boom at import"
    ]


def test_a_module_spec_of_a_file_here_suggests_the_file_form(tmp_path, monkeypatch):
    """Was: only "No module named ..." (the command line does not import from the directory)."""
    _write(tmp_path / "audit_here_bot.py")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    with pytest.raises(
        ValueError,
        match=r"No module named 'audit_here_bot' \(for the file "
        r"audit_here_bot\.py, write audit_here_bot\.py:MyBot\)",
    ):
        strategies.get("audit_here_bot:MyBot")


# ---------------------------------------------------------------------- answers and failures
class _Answers(Strategy, register=False):
    """Answers ``what`` (a key of ``ANSWERS``) at its first decision."""

    def __init__(self, what: str = "id"):
        self.what = what

    def choose(self, view, legal, rng):
        return ANSWERS[self.what](legal)


class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr fails")


class _BadStr(Exception):
    def __str__(self) -> str:
        raise RuntimeError("str fails")


def _raise(exc: BaseException):
    raise exc


ANSWERS = {
    "id": lambda legal: legal[0].id,
    "text": lambda legal: "x" * 5000,
    "bad_repr": lambda legal: _BadRepr(),
    "bad_str": lambda legal: _raise(_BadStr()),
    "exit": lambda legal: _raise(SystemExit(3)),
    "long": lambda legal: _raise(ValueError("y" * 5000)),
    "empty": lambda legal: _raise(ValueError("")),
}


def _forfeit(what: str) -> str:
    r = play_game([_Answers(what), "greedy", "low"], seed=3)
    assert r.forfeit_seat == 0 and r.winner is None and r.error is not None
    return str(r.error)


def test_an_answer_that_is_no_action_forfeits_saying_what_it_was():
    """Was: "returned 24, not a legal action" (24 is a legal action's id; a 5000-character
    string went into the line whole) and, for an object whose repr raises, the run's crash."""
    error = _forfeit("id")
    assert "(int), not a legal action (choose must return an Action" in error
    assert "(str), not a legal action" in _forfeit("text") and len(_forfeit("text")) < 300
    assert "returned a _BadRepr that Python cannot write out, not a legal" in _forfeit("bad_repr")


def test_any_failure_of_a_strategy_forfeits_in_one_short_line():
    """Was: SystemExit ended the whole run (silently, with its code), an exception whose str()
    raises crashed it, and a long message went into every row whole."""
    assert _forfeit("exit") == "seat 0 (_Answers(what=exit)): SystemExit: 3"
    assert "_BadStr: (its message cannot be shown" in _forfeit("bad_str")
    long = play_game([_Answers("long"), "greedy", "low"], seed=3)
    assert len(long.error) < 300 and long.error.endswith("yyy...")
    assert "y" * 5000 in long.error.traceback
    assert _forfeit("empty") == "seat 0 (_Answers(what=empty)): ValueError"


def test_a_gauntlet_whose_bot_exits_forfeits_every_game_and_says_so(tmp_path, capsys):
    """Was: exit code 3 and not a word (the bot's sys.exit(3) ended the command)."""
    path = _write(tmp_path / "quitter.py", """
        import sys
        from strategies import Strategy

        class Quitter(Strategy, register=False):
            def choose(self, view, legal, rng):
                sys.exit(3)
    """)  # fmt: skip
    code, out, err = cli(capsys, "gauntlet", f"{path}:Quitter", "--against", "taker",
                          "--games", "8", "--jobs", "1", "--no-progress",
                          "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 1, err
    assert "Quitter forfeited all 8 of its games" in out + err
    assert "SystemExit: 3" in out + err


def test_a_decision_timeout_the_timer_cannot_take_is_refused(capsys):
    """Was: accepted, then every game forfeited with "OverflowError: timestamp out of range",
    blamed on the strategies (built-ins included); inf was said not to be positive."""
    assert check_timeout(1e6) == 1e6
    for bad in (1e10, float("inf")):
        with pytest.raises(ValueError, match=r"must be at most 1000000 s \(0: none\)"):
            check_timeout(bad)
    with pytest.raises(ValueError, match="at most"):
        play_game(["greedy", "low", "high"], seed=1, decision_timeout=1e10)


# ---------------------------------------------------------------------- leaves strategies
def test_strategies_load_lists_a_files_unregistered_classes_by_spec(tmp_path, capsys,
                                                                    monkeypatch):  # fmt: skip
    """Was: exit 0 and not a line of the file (its classes register no name)."""
    monkeypatch.setenv("COLUMNS", "400")  # the long path, and the description unfolded
    path = _write(tmp_path / "bot.py")
    code, out, err = cli(capsys, "strategies", "--load", str(path), "--names")
    assert code == 0, err
    assert f"{path}:MyBot" in out.splitlines()
    assert f"{path}:NotAStrategy" not in out
    code, out, _ = cli(capsys, "strategies", "--load", str(path), "--load", str(path), "--names")
    assert code == 0 and out.splitlines().count(f"{path}:MyBot") == 1
    code, out, _ = cli(capsys, "strategies", "--load", str(path), "--names",
                        "--filter", "compiled=true")  # fmt: skip
    assert code == 0 and f"{path}:MyBot" not in out
    code, out, _ = cli(capsys, "strategies", "--load", str(path))
    flat = " ".join(out.split())
    assert code == 0 and "the first legal action (audit test)" in flat and "k=1" in flat


def test_strategies_load_of_another_games_file_is_refused(tmp_path, capsys):
    """Was: exit 0, listing the default game's strategies only."""
    path = _write(tmp_path / "other.py", """
        from ligretto.players.base import LigrettoStrategy

        class Other(LigrettoStrategy, register=False):
            def decide(self, view, rng):
                return None
    """)  # fmt: skip
    code, _, err = cli(capsys, "strategies", "--load", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "defines no 13 Leaves strategy (Other is a Ligretto strategy)" in err
    code, out, _ = cli(capsys, "strategies", "--game", "ligretto", "--load", str(path), "--names")
    assert code == 0 and f"{path}:Other" in out.splitlines()


# ---------------------------------------------------------------------- names and labels
def test_a_subclass_of_a_built_in_is_labelled_as_itself(tmp_path, capsys):
    """Was: labelled 'greedy' (the name it inherits): a tournament said "greedy wins 0.0%" of
    the user's class, a gauntlet against the baseline greedy was refused as "the same", and
    resuming its run failed ("an entrant changed")."""
    path = _write(tmp_path / "sub.py", """
        from leaves.players.builtin.simple import GreedyStrategy

        class MyGreedy(GreedyStrategy, register=False):
            def compiled(self):
                return None
    """)  # fmt: skip
    assert strategies.get(f"{path}:MyGreedy").label == "MyGreedy"
    assert strategies.get(f"{path}:MyGreedy:keep_pairs=true").label == "MyGreedy(keep_pairs=True)"
    assert strategies.get("greedy:keep_pairs=true").label == "greedy(keep_pairs=True)"
    out = str(tmp_path / "run")
    args = ["--players", "3", "--jobs", "1", "--no-progress", "--out", out]
    code, text, err = cli(capsys, "tournament", f"{path}:MyGreedy", "greedy", "low",
                           "--games", "12", *args)  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "tournament", "--resume", "--add", "12", *args[2:])
    assert code == 0, err


class Mine(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[0]


def test_a_name_refused_by_register_does_not_stick_to_the_class():
    """Was: register(A, name="greedy") failed ("already taken") but left A.name = "greedy",
    so A registered later under another name was labelled 'greedy'."""
    with pytest.raises(ValueError, match="already taken"):
        strategies.register(Mine, name="greedy")
    assert "name" not in Mine.__dict__ and Mine().label == "Mine"
    strategies.register(Mine, name="audit-mine")
    try:
        assert strategies.get("audit-mine").label == "audit-mine"
    finally:
        strategies.registry.unregister("audit-mine")


def test_a_name_taken_by_another_file_names_both_files(tmp_path):
    """Was: "already taken by leaves_user_strategy_a_93c1...Hoarder; choose another name for
    leaves_user_strategy_b_37e3...Hoarder" (module names the loader made up)."""
    body = """
        from strategies import Strategy

        class Hoarder(Strategy):
            name = "audit-hoarder"

            def choose(self, view, legal, rng):
                return legal[0]
    """
    first, second = _write(tmp_path / "a.py", body), _write(tmp_path / "b.py", body)
    try:
        strategies.get(f"{first}:Hoarder")
        taken = f"already taken by {first}:Hoarder; choose another name for {second}:Hoarder"
        with pytest.raises(ValueError, match=re.escape(taken)):
            strategies.get(f"{second}:Hoarder")
    finally:
        strategies.registry.unregister("audit-hoarder")


# ---------------------------------------------------------------------- which code plays
class PassFirst(GreedyStrategy, register=False):
    """A built-in's subclass with its own ``choose`` (and the parent's compiled policy)."""

    def choose(self, view, legal, rng):
        passes = [a for a in legal if a.is_pass]
        return passes[0] if passes else legal[0]


class CountsGames(GreedyStrategy, register=False):
    """A built-in's subclass that only adds a hook."""

    started = 0

    def start_game(self, view, rng):
        type(self).started += 1


def test_a_subclass_of_a_built_in_with_its_own_choose_plays_its_own_choose():
    """Was: batches and tournaments played such a subclass by its parent's compiled policy
    (greedy's results, game for game), never calling its choose or hooks; play_game used its
    choose, so the two paths disagreed."""
    seeds = np.arange(1, 9, dtype=np.uint64)
    mine = strategies.play_batch([PassFirst(), "low", "high"], seeds, seeds)
    for i, seed in enumerate(seeds):
        one = play_game([PassFirst(), "low", "high"], deal_seed=int(seed), play_seed=int(seed))
        assert tuple(mine.cards_left[i]) == one.cards_left
    parent = strategies.play_batch(["greedy", "low", "high"], seeds, seeds)
    assert not np.array_equal(mine.cards_left, parent.cards_left)
    assert PassFirst().compiled() is None and PassFirst.classifier["compiled"] is False
    assert strategies.get("greedy").compiled() is not None
    strategies.play_batch([CountsGames(), "low", "high"], seeds, seeds)
    assert CountsGames.started == len(seeds)


def test_a_positional_only_parameter_is_refused_when_the_class_is_defined(tmp_path, capsys):
    """Was: the class built, the gauntlet started, then every game's fresh instance
    (``cls(**params)``) failed: "bad parameters for strategy Y: 'depth' parameter is positional
    only", exit 1 after the run had begun."""
    path = _write(tmp_path / "posonly.py", """
        from strategies import Strategy

        class Y(Strategy, register=False):
            def __init__(self, depth: int = 2, /):
                self.depth = depth

            def choose(self, view, legal, rng):
                return legal[0]
    """)  # fmt: skip
    with pytest.raises(ValueError, match=r"Y\.__init__ must take 'depth' by keyword \(no '/'\)"):
        strategies.get(f"{path}:Y")
    code, _, err = cli(capsys, "gauntlet", f"{path}:Y", "--against", "taker", "--games", "8",
                        "--jobs", "1", "--no-progress")  # fmt: skip
    assert code == 2 and len(err.strip().splitlines()) == 1


class Flaky(Strategy, register=False):
    """Builds twice, then its constructor fails (a licence, a file, a server gone)."""

    made = 0

    def __init__(self):
        type(self).made += 1
        if type(self).made > 2:
            raise RuntimeError("out of licences")

    def choose(self, view, legal, rng):
        return legal[0]


def test_a_constructor_failing_for_a_later_game_is_named():
    """Was: the bare "RuntimeError: out of licences", naming no strategy, and the run's end:
    now that seat forfeits the games it cannot be built for, the error naming it."""
    Flaky.made = 0
    seeds = np.arange(1, 5, dtype=np.uint64)
    batch = strategies.play_batch([Flaky(), "greedy", "low"], seeds, seeds)
    errors = [e for e in batch.errors if e]
    assert set(batch.forfeit_seat[batch.forfeit_seat >= 0]) == {0}
    assert errors and all(e.startswith("seat 0 (Flaky): cannot build a new Flaky for the next "
                                       "game: RuntimeError: out of licences") for e in errors)  # fmt: skip


def test_a_bare_player_subclass_is_told_to_subclass_a_games_strategy(tmp_path, capsys):
    """Was: "AttributeError: type object 'P' has no attribute 'game'" (exit 1)."""
    path = _write(tmp_path / "bare.py", """
        from strategies.base import Player

        class P(Player):
            def choose(self, view, legal, rng):
                return legal[0]
    """)  # fmt: skip
    with pytest.raises(ValueError, match=r"^P says no game: subclass a game's Strategy class"):
        strategies.get(f"{path}:P")
    code, _, err = cli(capsys, "gauntlet", f"{path}:P", "--against", "taker", "--games", "8")
    assert code == 2 and "P says no game" in err and len(err.strip().splitlines()) == 1
    code, _, err = cli(capsys, "strategies", "--load", str(path))
    assert code == 2 and "(P says no game): subclass a game's Strategy class" in err
