"""docs/rules.md and docs/rules-core.md state facts of the code: the deck, the hands dealt, the
action encoding, every rule key with its default and range, the limits the interpretations
name, the attributes of a `State` and what random play measures. Each is read here from the
code, so the page and the code cannot drift apart."""

from __future__ import annotations

import re

import pytest

from tests.helpers import doc_page, doc_text


def _cells(page: str, first: str) -> list[str]:
    """The cells of the table row of ``page`` whose first cell is ``first``."""
    rows = (x.strip() for x in page.splitlines())
    row = next(x for x in rows if re.match(rf"\| +{re.escape(first)} +\|", x))
    return [c.strip() for c in row.strip("|").split("|")]


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def test_the_deck_and_the_hands_are_the_rules_defaults():
    from leaves.ruleset import DEFAULT_RULES

    page = doc_page("rules.md")
    copies = _numbers("|".join(_cells(page, "copies")[1:]))
    assert tuple(copies) == DEFAULT_RULES.deck == tuple(8 - abs(v - 7) for v in range(1, 14))
    assert f"- {sum(copies)} cards, values 1..13." in page
    dealt = re.search(r"Deal face down: (.*?)\.", doc_text("rules.md"))[1]
    said = {int(n): int(h) for n, h in re.findall(r"(\d) players (\d+)", dealt)}
    assert said == dict(DEFAULT_RULES.hand_size)


def test_the_action_encoding_is_the_ids_the_code_gives():
    from leaves import N_ACTIONS, Action

    text = doc_text("rules.md").split("## Action encoding", 1)[1]
    plays = re.search(r"for `v` in 1\.\.(\d+), `k` in 1\.\.(\d+) \(ids 0\.\.(\d+)\)", text)
    values, counts, last_play = (int(x) for x in plays.groups())
    takes = re.search(r"\(ids (\d+)\.\.(\d+)\)\. (\d+) actions in all", text)
    first_take, last_take, total = (int(x) for x in takes.groups())
    assert Action.play(values, counts).id == last_play == (values - 1) * 8 + (counts - 1)
    assert Action.take(1).id == first_take and Action.take(values).id == last_take
    assert total == N_ACTIONS == last_take + 1
    assert Action.pass_().id == total  # "the one id beyond today's 117"


def test_the_rule_variants_table_is_the_keys_leaves_rules_lists():
    """Each row of docs/rules.md's table: the key, its default as `leaves rules` writes it,
    and the numbers of the values it takes, in order (`turn_limit` 1..1000000)."""
    from leaves.ruleset import KEYS

    page = doc_page("rules.md").split("## Rule variants", 1)[1]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|", page, flags=re.M)
    assert [r[0] for r in rows] == [k.name for k in KEYS]
    for (name, default, values), key in zip(rows, KEYS, strict=True):
        assert default.strip() == key.default, name
        assert _numbers(values) == _numbers(key.values), name
        for word in re.findall(r"\b(?:on|off|any|ends|nothing)\b", key.values):
            assert word in values, (name, word)
    listed = re.search(r"The keys \(([^)]*)\)", doc_text("rules-core.md"))[1]
    assert re.findall(r"`(\w+)`", listed) == [k.name for k in KEYS]


def test_the_limits_the_interpretations_name_are_the_codes():
    from leaves.rules import EXPERT_TARGET, TURN_LIMIT

    page = doc_page("rules.md")
    limit = _cells(page, "`TURN_LIMIT` (E1)")[1]
    assert re.match(rf"a game reaching {TURN_LIMIT} turns ", limit), limit
    assert _cells(page, "`EXPERT_TARGET`")[1].startswith(f"{EXPERT_TARGET} (")
    assert f"at least one player's total reaches {EXPERT_TARGET} or more" in doc_text("rules.md")


def test_every_state_attribute_rules_core_md_lists_is_there():
    import leaves

    item = doc_text("rules-core.md").split("- `State` is immutable", 1)[1].split("- `Action.", 1)[0]
    names = re.findall(r"`(\w+)(?:\(p\))?`", item.split("`to_dict()`", 1)[0])
    state = leaves.new_game(4, seed=1)
    assert len(names) >= 20
    missing = [n for n in names if n not in ("State", "AttributeError") and not hasattr(state, n)]
    assert not missing, missing


def _random_play() -> re.Match:
    return re.search(
        r"Measured with random play \(`leaves bench`, (\d) players\): about (\d+) turns and "
        r"([\d.]+) rounds per game on average \(([\d.]+) and ([\d.]+)\); at (\d) players the "
        r"longest of (\d) million games had (\d+) turns \(`leaves bench --players (\d) "
        r"--games (\d+) --repeats 1`\)",
        doc_text("rules.md"),
    )


@pytest.mark.slow
def test_the_random_play_averages_are_what_leaves_bench_measures():
    """Compiled, a few seconds (minutes with the quick suite's JIT off): `leaves bench` (its default games and seed): the mean turns and rounds the page gives,
    and the rounded figures before them."""
    from leaves.bench import run_bench

    said = _random_play()
    assert said, "the random-play sentence of docs/rules.md is not found"
    r = run_bench(players=int(said[1]), repeats=1, api_games=1)
    assert f"{r['mean_turns']:.1f}" == said[4] and f"{r['mean_rounds']:.2f}" == said[5]
    assert round(r["mean_turns"], -1) == int(said[2])
    assert round(r["mean_rounds"], 1) == float(said[3])


@pytest.mark.slow
def test_the_longest_random_game_is_what_leaves_bench_measures():
    """34 s: the 3 million games at 6 players of the command the page gives."""
    from leaves.bench import run_bench

    said = _random_play()
    assert said[6] == said[9] and int(said[7]) * 1_000_000 == int(said[10])
    r = run_bench(players=int(said[6]), games=int(said[10]), repeats=1, api_games=1)
    assert r["max_turns"] == int(said[8])
