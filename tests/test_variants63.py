"""Rule variants at their edges, as a designer meets them: numbers TOML writes (``inf``), a
hand size or player counts written wrong, the ranges ``leaves rules`` lists against those the
code accepts, a sweep two of whose values are today's run, and a resumed sweep spelled
another way."""

from __future__ import annotations

import re

import pytest

from leaves.ruleset import KEYS, Rules
from tests.helpers import cli, one_error_line, usage_error

INF = float("inf")

# ------------------------------------------ numbers no rule takes, in one line


@pytest.mark.parametrize("rules", [
    {"turn_limit": INF}, {"expert_target": -INF}, {"hand_size": INF}, {"players": INF},
    {"deck": [INF] * 13}, {"hand_size": {"4": INF}},
])  # fmt: skip
def test_an_infinite_number_is_refused_as_any_other_non_whole_number(rules):
    """TOML writes ``inf``: it was an OverflowError, which no caller of ``Rules.of`` (its
    contract: ValueError in one line) catches."""
    with pytest.raises(ValueError, match="must be a whole number") as exc:
        Rules.of(rules)
    assert "\n" not in str(exc.value)


def test_a_config_rules_table_with_an_infinite_number_is_one_line_naming_it(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text('[tournament]\nstrategies = ["random", "greedy", "low"]\nplayers = 3\n'
                      'games = 6\nseed = 1\n\n[rules]\nturn_limit = inf\n')  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--out",
                       str(tmp_path / "o"))  # fmt: skip
    line = one_error_line(err)
    assert code == 2, err
    assert "turn_limit must be a whole number 1..1000000, got inf" in line
    assert "OverflowError" not in line and not (tmp_path / "o").exists()


# ------------------------------------------ a hand size or counts written wrong


@pytest.mark.parametrize("text", ["4:11/", "4:11/x", "4:11/3", "3:12//4:11"])
def test_a_hand_size_with_a_bad_part_is_refused_naming_the_text_given(text):
    """It named Python's list of the parts (``[['4', '11'], ['']]``), not what was written."""
    with pytest.raises(ValueError) as exc:
        Rules.parse(f"hand_size={text}")
    said = str(exc.value)
    assert said == f"hand_size must be a number or players:cards/..., got {text!r}", said


@pytest.mark.parametrize(("text", "said"), [
    ("6-3", "players 6-3 is an empty range: write LO-HI with LO <= HI (3-6)"),
    ("5-4", "players 5-4 is an empty range: write LO-HI with LO <= HI (4-5)"),
    ("-3", "players must be counts 2..6 (4, 3-6 or 3/5), got '-3'"),
    ("3-", "players must be counts 2..6 (4, 3-6 or 3/5), got '3-'"),
    ("3/", "players must be counts 2..6 (4, 3-6 or 3/5), got '3/'"),
])  # fmt: skip
def test_player_counts_written_wrong_are_named_as_written(text, said):
    """A range written backwards said 'players must allow at least one player count', a
    missing count said "got ''"."""
    with pytest.raises(ValueError) as exc:
        Rules.parse(f"players={text}")
    assert str(exc.value) == said


def test_counts_written_right_still_read():
    assert Rules.parse("players=3-3").players == (3,)
    assert Rules.parse("players= 3 - 5 ").players == (3, 4, 5)
    assert Rules.parse("players=5/3").players == (3, 5)
    with pytest.raises(ValueError, match="^players must be 2..6, got 7$"):
        Rules.parse("players=3-7")


# ------------------------------------------ what `leaves rules` lists is what the code takes


def _listed(name: str) -> tuple[int, int]:
    """The range ``leaves rules`` lists for a key: its first LO..HI."""
    key = next(k for k in KEYS if k.name == name)
    low, high = re.search(r"(\d+)\.\.(\d+)", key.values).groups()
    return int(low), int(high)


@pytest.mark.parametrize("name", ["expert_target", "turn_limit"])
def test_a_whole_number_keys_listed_range_is_the_one_it_takes(name):
    low, high = _listed(name)
    assert getattr(Rules(**{name: low}), name) == low
    assert getattr(Rules(**{name: high}), name) == high
    for bad in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"^{name} must be {low}..{high}, got {bad}$"):
            Rules(**{name: bad})


def test_the_hand_size_deck_and_player_ranges_listed_are_the_ones_taken():
    low, high = _listed("hand_size")
    fewest, most = _listed("players")
    none, copies = _listed("deck")
    full = (copies,) * 13
    assert Rules(hand_size=low, players=fewest).hand_size_for(fewest) == low
    assert Rules(hand_size=high, players=fewest, deck=full).hand_size_for(fewest) == high
    for bad in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"^hand_size must be {low}..{high}, got {bad}$"):
            Rules(hand_size=bad)
    assert Rules(players=f"{fewest}-{most}", hand_size=1).players == tuple(
        range(fewest, most + 1))  # fmt: skip
    for bad in (fewest - 1, most + 1):
        with pytest.raises(ValueError, match=f"^players must be {fewest}..{most}, got {bad}$"):
            Rules(players=bad, hand_size=1)
    assert Rules(deck=(none,) * 6 + (copies,) * 7).deck_size == 7 * copies
    with pytest.raises(ValueError, match=f"^deck: copies of one value must be {none}..{copies}"):
        Rules(deck=(copies + 1,) + full[1:])
    counts = int(re.match(r"(\d+) counts", next(k for k in KEYS if k.name == "deck").values)[1])
    for n in (counts - 1, counts + 1):
        with pytest.raises(ValueError, match=f"deck must list {counts} counts"):
            Rules(deck=(2,) * n)


def test_the_words_and_defaults_listed_are_the_ones_taken():
    from leaves.ruleset import DEFAULT_RULES, TAKE_MODES, value_text

    today = DEFAULT_RULES.to_dict()
    for key in KEYS:
        assert Rules.parse(f"{key.name}={key.default}") == DEFAULT_RULES, key
        assert key.default == value_text(key.name, today[key.name]), key
    words = {k.name: k.values.split(", ") for k in KEYS if k.name in ("take", "min_count")}
    assert tuple(words["take"]) == TAKE_MODES
    assert [Rules.parse(f"min_count={w}").min_count for w in words["min_count"]] == [True, False]


# ------------------------------------------ a sweep two of whose values are today's run


def test_two_sweep_values_that_both_play_as_today_are_the_same_games_twice():
    """hand_size=11 and 4:11 are both today's rules at 4 players: the sweep drew today's run
    twice (two rows of the same games), where two variants alike are refused."""
    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    with pytest.raises(CLIError) as exc:
        sweep_sets("hand_size=11,4:11,9", (), [4])
    assert str(exc.value) == ("--sweep hand_size: the value 4:11 plays as 11 at 4 players: "
                              "the same games twice")  # fmt: skip
    with pytest.raises(CLIError, match="the value 11 plays as 4:11 at 4 players"):
        sweep_sets("hand_size=9,4:11,11", (), [4])
    # one value today's is kept, and a value today's at 3 players only is another run at 4
    sets, points = sweep_sets("hand_size=11,9", (), [4])
    assert points == [("11", 0), ("9", 1)] and len(sets) == 2
    sets, points = sweep_sets("hand_size=12,3:12/4:10", (), [3, 4])
    assert points == [("12", 1), ("3:12/4:10", 2)]
    # every value today's: still the refusal that says so
    with pytest.raises(CLIError, match="every value of --sweep hand_size=11,4:11 plays as"):
        sweep_sets("hand_size=11,4:11", (), [4])


def test_the_command_refuses_it_before_a_game(tmp_path, capsys):
    out = tmp_path / "o"
    line = usage_error(capsys, ["variants", "low", "greedy", "--sweep", "hand_size=11,4:11,9",
                                "--games", "4", "--out", str(out)])  # fmt: skip
    assert "the value 4:11 plays as 11 at 4 players: the same games twice" in line
    assert not out.exists()


# ------------------------------------------ a resumed sweep, spelled another way


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A finished sweep of two values (12 games a rule set, no designers' measures)."""
    from tests.helpers import exit_code

    out = tmp_path_factory.mktemp("sweep63") / "o"
    args = ["variants", "random", "greedy", "--sweep", "hand_size=9,10", "--players", "3",
            "--games", "12", "--seed", "3", "--trace-games", "0", "--restricted-games", "0",
            "--out", str(out)]  # fmt: skip
    assert exit_code(args) == 0
    return out


@pytest.mark.slow
@pytest.mark.parametrize("spelled", ["hand_size=9..10", " hand_size = 9, 10 "])
def test_resume_takes_the_same_sweep_however_it_is_spelled(swept, capsys, spelled):
    """The same values, as a range or with spaces, were refused as another sweep."""
    before = (swept / "findings.txt").read_text(encoding="utf-8")
    code, out, err = cli(capsys, "variants", "--out", str(swept), "--resume", "--sweep", spelled)
    assert code == 0, err
    assert "all 12 games kept" in err
    assert (swept / "findings.txt").read_text(encoding="utf-8") == before


@pytest.mark.parametrize("other", ["hand_size=9,11", "hand_size=10,9", "take=ends,nothing"])
def test_resume_still_refuses_another_sweep(swept, capsys, other):
    line = usage_error(capsys, ["variants", "--out", str(swept), "--resume", "--sweep", other])
    said = "this run's --sweep hand_size=9,10: resume with --sweep hand_size=9,10, or drop --sweep"
    assert f"--sweep {other} differs from {said}" in line


# ------------------------------------------ a table where a list of counts belongs


@pytest.mark.parametrize(("rules", "said"), [
    ({"players": {"3": True, "4": False}}, "players must be counts 2..6"),
    ({"players": {"3": 12, "4": 11}}, "players must be counts 2..6"),
    ({"deck": {str(v): 2 for v in range(1, 14)}}, "deck must list 13 counts"),
    ({"deck": {2, 3, 4}}, "deck must list 13 counts"),
])  # fmt: skip
def test_a_table_where_counts_belong_is_refused_not_read_by_its_keys(rules, said):
    """``players = {3 = true, 4 = false}`` in a [rules] table read as players 3-4 (its keys,
    4 included); a deck table said 'copies of one value must be 0..8, got 9' (its keys)."""
    with pytest.raises(ValueError, match=f"^{said}") as exc:
        Rules.of(rules)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("data", [False, 0, "", [], ()])
def test_plain_data_of_another_kind_is_not_read_as_todays_rules(data):
    """``Rules.from_dict`` (a manifest's, a record's, a state's rules) read any empty value
    (``"rules": false`` in a damaged record) as today's rules; None and an empty table are."""
    with pytest.raises(ValueError, match="^rules must be a table of key = value, got "):
        Rules.from_dict(data)
    from leaves.ruleset import DEFAULT_RULES

    assert Rules.from_dict(None) == Rules.from_dict({}) == DEFAULT_RULES


# ------------------------------------------ a sweep's range counted, not written out


@pytest.mark.parametrize("text", ["turn_limit=1..100000000000", "hand_size=1..10000000000000"])
def test_a_huge_sweep_range_is_refused_by_its_count_at_once(text):
    """Every value of the range was written out before they were counted: a range of 10**11
    values filled the memory rather than saying 'give 2 to 16 values'."""
    import time

    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    start = time.perf_counter()
    with pytest.raises(CLIError) as exc:
        sweep_sets(text, (), [4])
    n = int(text.partition("..")[2]) - int(text.partition("=")[2].partition("..")[0]) + 1
    assert str(exc.value) == f"--sweep {text!r}: give 2 to 16 values, got {n:,}"
    assert time.perf_counter() - start < 10  # writing 10**11 values out takes hours


def test_a_sweep_of_one_value_or_a_bad_value_is_still_said_as_before():
    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    with pytest.raises(CLIError, match=r"^--sweep 'hand_size=9\.\.9': give 2 to 16 values, got 1$"):
        sweep_sets("hand_size=9..9", (), [4])
    with pytest.raises(CLIError, match="^--sweep hand_size=99: hand_size must be 1..52, got 99$"):
        sweep_sets("hand_size=99", (), [4])  # a bad value before the count
    with pytest.raises(CLIError, match="give 2 to 16 values, got 17"):
        sweep_sets("turn_limit=" + ",".join(str(v) for v in range(1, 18)), (), [4])


# ------------------------------------------ a table size only the variants deal


def test_a_table_size_todays_rules_do_not_deal_says_they_are_the_baseline(tmp_path, capsys):
    """--rules players=2,hand_size=10 --players 2 said only '13 Leaves is played by 3 to 6
    players, got 2', as if the variant's own players=2 had not been read."""
    out = tmp_path / "o"
    line = usage_error(capsys, ["variants", "low", "greedy", "--rules", "players=2,hand_size=10",
                                "--players", "2", "--games", "4", "--out", str(out)])  # fmt: skip
    assert line == ("leaves: error: --players 2: 13 Leaves is played by 3 to 6 players, got 2 "
                    "(today's rules, the baseline every variant is compared with)")  # fmt: skip
    assert not out.exists()
    line = usage_error(capsys, ["variants", "low", "greedy", "--rules", "hand_size=16",
                                "--players", "4", "--games", "4", "--out", str(out)])  # fmt: skip
    assert line.endswith("13 Leaves under hand_size=16 is played by 3 players, got 4")
    line = usage_error(capsys, ["variants", "low", "greedy", "--rules", "players=2,hand_size=10",
                                "--players", "7", "--games", "4", "--out", str(out)])  # fmt: skip
    assert line.endswith("--players 7: 13 Leaves is played by 3 to 6 players, got 7")  # no rules do


# ------------------------------------------ digits of another script


@pytest.mark.parametrize(("text", "said"), [
    ("hand_size=９", "hand_size must be a whole number 1..52, got '９', written with digits other than 0-9"),
    ("expert_target=٣٠", "expert_target must be a whole number 1..1000, got '٣٠', "
                         "written with digits other than 0-9"),
    ("deck=２/3/4/5/6/7/8/7/6/5/4/3/2", "deck: copies of one value must be a whole number 0..8, "
                                       "got '２', written with digits other than 0-9"),
    ("players=٣-٥", "players must be a whole number 2..6, got '٣', written with digits other than 0-9"),
])  # fmt: skip
def test_a_number_in_digits_of_another_script_is_refused_saying_which_digits(text, said):
    """'hand_size=９' (a full-width 9, as an input method types it) said 'hand_size must be a
    whole number 1..52, got '９'', which it is, to the eye."""
    with pytest.raises(ValueError) as exc:
        Rules.parse(text)
    assert str(exc.value) == said


@pytest.mark.parametrize("text", ["hand_size=９..10", "hand_size=+9..10", "hand_size=9..1_0"])
def test_a_sweep_range_takes_its_ends_as_a_value_takes_them(text):
    """A range's ends were read by Python's int (full-width digits, a sign, underscores), where
    the same numbers as values are refused: the range now says so too."""
    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    with pytest.raises(CLIError) as exc:
        sweep_sets(text, (), [4])
    assert str(exc.value) == f"--sweep {text}: write LO..HI with whole numbers (digits 0-9)"
    assert sweep_sets("hand_size= 9 .. 10 ", (), [4])[1] == [("9", 1), ("10", 2)]
