"""tournaments/manifest_fields.py at its boundaries, worked out by hand: every counted field at
its least value and one below, each kind of value refused, the fields naming the entrants
agreeing at their bounds, a value shown whole up to 60 characters, and the checks a resume
adds (``benchmarks/bench_mutation.py tournaments/manifest_fields.py``)."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from tournaments.games import game_class
from tournaments.manifest_fields import (
    NotThisVersion,
    check_game,
    check_manifest,
    check_seats,
    filling_game,
)

SEQUENTIAL = {"decision": "go on", "games_per_side": 0, "llr": 0.5, "lower": -1.0, "upper": 1.0,
              "margin": 0.1, "alpha": 0.05, "beta": 0.05, "batches": 0}  # fmt: skip
TEST = {"margin": 0.1, "alpha": 0.05, "beta": 0.05, "max_games": 100}


def manifest(**spec: Any) -> dict[str, Any]:
    """A good manifest of two strategies, ``a`` and ``b``, with ``spec``'s fields replaced."""
    base = {"game": "leaves", "game_config": {}, "strategies": ["a", "b"], "players": [3],
            "games_asked": 6, "n_games": 6, "deals_per_table": 2, "deal_stages": [0, 2],
            "deal_streams": [5], "seed": 7, "expert": False, "target": None, "rounds": None,
            "repeats": False, "seating": "balanced", "focus": None, "rows": True,
            "record_stride": 0, "record_rule": 2, "chunk_games": 6, "n_chunks": 1,
            "seed_keys": {"a": 3}, "entrants": [{"label": "a"}, {"label": "b"}]}  # fmt: skip
    return {"spec": base | spec, "seed": 7, "labels": ["a", "b"], "tables": [[0, 1]],
            "wall_time_s": 1.5, "sessions": [], "record_file": None}  # fmt: skip


def refused(m: Any, said: str, exc: type[Exception] = ValueError, **kw: Any) -> None:
    with pytest.raises(exc) as info:
        check_manifest(m, **kw)
    assert str(info.value) == said
    assert type(info.value) is exc


def test_a_good_manifest_passes_every_check():
    check_manifest(manifest(), resume=True)
    check_manifest(manifest(), required=("game", "deal_stages", "n_chunks"), resume=True)


LEAST = {"players": [1], "games_asked": 1, "n_games": 1, "deals_per_table": 0,
         "deal_stages": [0], "deal_streams": [0], "target": 1, "rounds": 1, "record_stride": 0,
         "record_rule": 1, "chunk_games": 1, "n_chunks": 0, "seed_keys": {"a": 0}}  # fmt: skip


def one_below(value: Any) -> Any:
    if isinstance(value, list):
        return [value[0] - 1]
    if isinstance(value, dict):
        return {k: v - 1 for k, v in value.items()}
    return value - 1


@pytest.mark.parametrize("key", LEAST)
def test_each_counted_spec_field_at_its_least_and_one_below(key):
    check_manifest(manifest(**{key: LEAST[key]}))
    low = one_below(LEAST[key])
    kind = "spec." + key
    with pytest.raises(ValueError, match=f"^{re.escape(kind)} is {re.escape(repr(low))}, "):
        check_manifest(manifest(**{key: low}))


def test_the_seed_at_its_least_and_one_below_in_the_spec_and_at_the_top():
    m = manifest(seed=0)
    m["seed"] = 0
    check_manifest(m)
    del m["seed"]
    m["spec"]["seed"] = -1
    refused(m, "spec.seed is -1, expected a whole number of at least 0")
    for key in ("seed", "n_chunks_done", "units_done"):
        m = manifest()
        m["seed"] = m["spec"]["seed"] = 0
        check_manifest(m | {key: 0})
        refused(m | {key: -1}, f"{key} is -1, expected a whole number of at least 0")


@pytest.mark.parametrize(
    ("key", "bad", "said"),
    [
        ("game", "", "a game id"),
        ("game", 5, "a game id"),
        ("strategies", "ab", "a list of strategy labels"),
        ("players", "four", "a list of player counts (whole numbers)"),
        ("players", [], "a list of player counts (whole numbers)"),
        ("deal_stages", 3, "a list of deal counts (whole numbers)"),
        ("n_games", "6", "a whole number of at least 1"),
        ("n_games", True, "a whole number of at least 1"),
        ("seed_keys", "x", "a table of whole numbers"),
        ("entrants", [{}, {"label": "b"}], "a list of tables (one per strategy, each with its label)"),
    ],
)  # fmt: skip
def test_a_spec_field_of_another_kind_is_named(key, bad, said):
    refused(manifest(**{key: bad}), f"spec.{key} is {bad!r}, expected {said}")


def test_lists_that_may_be_empty():
    check_manifest(manifest(deal_stages=[], deal_streams=[]) | {"labels": ["a", "b"]})


def test_the_top_fields_of_their_kinds():
    check_manifest(manifest() | {"wall_time_s": 0})
    check_manifest(manifest() | {"wall_time_s": 0.5})
    refused(manifest() | {"wall_time_s": -0.5}, "wall_time_s is -0.5, expected a number of "
            "seconds of at least 0")  # fmt: skip
    refused(manifest() | {"wall_time_s": "x"}, "wall_time_s is 'x', expected a number of "
            "seconds of at least 0")  # fmt: skip
    refused(manifest() | {"tables": [[-1, 0]]}, "tables is [[-1, 0]], expected a list of tables "
            "(lists of entrant numbers)")  # fmt: skip
    refused(manifest() | {"tables": [[0], 1]}, "tables is [[0], 1], expected a list of tables "
            "(lists of entrant numbers)")  # fmt: skip
    check_manifest(manifest() | {"tables": [[1, 0], [0, 1]]})


def test_the_sequential_record_of_its_kinds():
    check_manifest(manifest() | {"sequential": SEQUENTIAL})
    for llr in (None, "inf", "-inf", 0):
        check_manifest(manifest() | {"sequential": SEQUENTIAL | {"llr": llr}})
    refused(manifest() | {"sequential": SEQUENTIAL | {"llr": "nan"}},
            "sequential.llr is 'nan', expected a number, \"inf\", \"-inf\" or null")  # fmt: skip
    refused(manifest() | {"sequential": SEQUENTIAL | {"lower": True}},
            "sequential.lower is True, expected a number")  # fmt: skip
    for key in ("games_per_side", "batches"):
        refused(manifest() | {"sequential": SEQUENTIAL | {key: -1}},
                f"sequential.{key} is -1, expected a whole number of at least 0")  # fmt: skip
    older = {k: v for k, v in SEQUENTIAL.items() if k != "batches"}
    refused(manifest() | {"sequential": older},
            "sequential.batches is missing, expected a whole number of at least 0")  # fmt: skip


def test_a_value_is_shown_whole_up_to_60_characters():
    sixty, sixty_one = ["x" * 56], ["x" * 57]  # repr adds the brackets and quotes
    refused(manifest(game=sixty), f"spec.game is {sixty!r}, expected a game id")
    refused(manifest(game=sixty_one), f"spec.game is ['{'x' * 55}..., expected a game id")


def test_a_missing_field_is_asked_for_only_where_needed():
    m = manifest()
    del m["spec"]["deal_stages"], m["spec"]["game"]
    check_manifest(m, resume=True)
    refused(m, "spec.game is missing, expected a game id", required=("game",))
    refused(m, "the run was played by an older version (its manifest has no spec.deal_stages, "
            "which this version resumes by)", NotThisVersion, required=("deal_stages",))  # fmt: skip


def test_the_spec_is_needed_but_where_no_format_says_the_runner_wrote_it():
    check_manifest({"labels": ["a"]}, spec=False)
    refused({"labels": ["a"], "format": "leaves-tournament/1"},
            "spec is missing, expected a table of the run's settings", spec=False)  # fmt: skip
    refused({"spec": 5}, "spec is 5, expected a table of the run's settings")
    refused({"spec": {"seed": "x"}}, "spec.seed is 'x', expected a whole number of at least 0")


def test_the_fields_naming_the_entrants_agree():
    m = manifest()
    del m["labels"], m["spec"]["entrants"]
    check_manifest(m)
    refused(manifest() | {"labels": ["b", "a"]},
            "labels is ['b', 'a'], expected the spec's strategies ['a', 'b']")  # fmt: skip
    refused(manifest() | {"tables": [[0, 2]]}, "tables holds [0, 2], expected entrant numbers "
            "below 2 (the run's strategies)")  # fmt: skip
    refused(manifest(entrants=[{"label": "a"}]),
            "spec.entrants describes 1 strategy, expected 2 (one per strategy)")  # fmt: skip


def test_the_seed_stated_twice_is_one():
    refused(manifest(seed=8), "spec.seed is 8, expected 7 (the run's seed, which the spec's "
            "must be)")  # fmt: skip
    m = manifest()
    del m["seed"]
    check_manifest(m)
    m = manifest()
    del m["spec"]["seed"]
    check_manifest(m)


def test_a_resume_checks_the_records_and_the_seating_design():
    check_manifest(manifest(record_stride=1) | {"record_file": "r.jsonl"}, resume=True)
    refused(manifest() | {"record_file": "r.jsonl"}, "record_file is 'r.jsonl', but "
            "spec.record_stride is 0: the run kept no records to gather into it",
            resume=True)  # fmt: skip
    m = manifest()
    del m["spec"]["seating"]
    check_manifest(m, resume=True)
    check_manifest(manifest(seating="all"), resume=True)
    with pytest.raises(NotThisVersion, match="^the run was played under seating 'newer', "):
        check_manifest(manifest(seating="newer"), resume=True)


def gauntlet(**part: Any) -> dict[str, Any]:
    """A gauntlet's manifest; a sequential one past its first batch with its test's record."""
    good = {"strategy": "a", "baseline": "b", "field": ["b"], "sequential": TEST}
    made = manifest(gauntlet={k: v for k, v in (good | part).items() if v != "-"})
    if isinstance(made["spec"]["gauntlet"].get("sequential"), dict):
        made["sequential"] = dict(SEQUENTIAL)
    return made


def test_a_gauntlets_part_names_the_runs_strategies():
    check_manifest(gauntlet(), resume=True)
    check_manifest(gauntlet(sequential=None), resume=True)
    ours = "the run's strategies"
    for part, said in [
        ({"strategy": "c"}, f"strategy is 'c', expected one of {ours}"),
        ({"baseline": "-"}, f"baseline is missing, expected one of {ours}"),
        ({"field": "b"}, f"field is 'b', expected a list of {ours}"),
        ({"field": []}, f"field is [], expected a list of {ours}"),
        ({"field": ["b", "c"]}, f"field is ['b', 'c'], expected a list of {ours}"),
    ]:
        refused(gauntlet(**part), f"spec.gauntlet.{said}")
    refused(gauntlet(sequential={"margin": 0.1}), "spec.gauntlet.sequential is {'margin': 0.1}, "
            "expected a table of margin, alpha, beta and max_games", resume=True)  # fmt: skip
    check_manifest(gauntlet(sequential={"margin": 0.1}))  # read, not resumed: not needed


LEAVES = game_class("leaves")


def test_a_games_settings_are_checked_by_their_declared_kinds():
    spec = manifest(players=[3, 6], game_config={"turn_limit": 50})["spec"]
    game = check_game(LEAVES, spec)
    assert (game.min_players, game.max_players) == (3, 6)  # the bounds seated below
    for config, said in [
        ({"turn_limit": 1.5}, "game_config.turn_limit is 1.5, expected a whole number"),
        ({"turn_limit": "abc"}, "game_config.turn_limit is 'abc', expected a whole number"),
        ({"decision_timeout": "x"}, "game_config.decision_timeout is 'x', expected a number"),
    ]:
        with pytest.raises(ValueError) as info:
            check_game(LEAVES, spec | {"game_config": config})
        assert str(info.value) == said


def test_a_player_count_the_game_does_not_seat_is_another_version():
    game = check_game(LEAVES, manifest()["spec"])
    check_seats(game, {"players": [3, 4, 5, 6]})
    for k in (2, 7):
        with pytest.raises(NotThisVersion) as info:
            check_seats(game, {"players": [3, k]})
        assert str(info.value) == (f"the run was played with {k} players, which this "
                                   "version's 13 Leaves does not seat (3 to 6)")  # fmt: skip


def declaration() -> dict[str, Any]:
    from tournaments.declaration import Declaration

    return Declaration.of(LEAVES()).to_dict()


def test_an_older_declaration_is_filled_in_by_the_game_of_its_name():
    full = declaration()
    assert filling_game(full) is None
    older = {k: v for k, v in full.items() if k != "match_label"}
    assert filling_game(older) is LEAVES
    unknown = {k: v for k, v in full.items() if k != "limits"} | {"name": "no-such-game"}
    assert filling_game(unknown) is None  # only a field with a default lacking
    with pytest.raises(ValueError) as info:
        filling_game(older | {"name": "no-such-game"})
    assert str(info.value) == ("the game declaration lacks match_label, which no installed game "
                               "fills in (none is named 'no-such-game')")  # fmt: skip
    check_manifest(copy.deepcopy(manifest()) | {"game_declaration": older})
