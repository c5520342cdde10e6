"""Rules text takes exactly the values ``leaves rules`` lists, refuses a count named twice, and
still reads every form the documentation shows; the documentation says what ``min_count=off``
does as the rules page and the engine do."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from leaves.ruleset import DEFAULT_RULES, KEYS, Rules

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "examples").glob("*.py")), *sorted((ROOT / "examples").glob("*.toml"))]  # fmt: skip
REFUSED_IN_THE_DOCS = {
    "hand_size=14,players=5": "cannot deal 5 hands of 14 cards: 70 cards, the deck holds 62",
}


def _listed(key: str) -> list[str]:
    """The words ``leaves rules`` lists as a key's values (``on, off``)."""
    return [v.strip() for v in next(k for k in KEYS if k.name == key).values.split(",")]


@pytest.mark.parametrize("key", ["min_count", "take"])
def test_a_word_key_takes_exactly_the_words_leaves_rules_lists(key):
    words = _listed(key)
    assert words == (["on", "off"] if key == "min_count" else ["any", "ends", "nothing"])
    for word in words:
        Rules.parse(f"{key}={word}")  # each listed word is taken
    others = [w.upper() for w in words] + [w.capitalize() for w in words]
    if key == "min_count":
        others += ["yes", "no", "true", "false", "1", "0", "enabled"]
    for other in others:
        with pytest.raises(ValueError) as exc:
            Rules.parse(f"{key}={other}")
        assert str(exc.value).endswith(f"got {other!r}")
        assert ", ".join(words) in str(exc.value) or " or ".join(words) in str(exc.value)


def test_a_switch_is_still_a_bool_from_python_toml_and_numpy():
    assert Rules(min_count=False) == Rules.parse("min_count=off") == Rules(min_count=np.False_)
    assert Rules.from_dict({"min_count": False}).min_count is False
    assert Rules(min_count=np.bool_(True)) == DEFAULT_RULES


@pytest.mark.parametrize(
    "rules, message",
    [
        ("hand_size=3:12/3:9", "hand_size names 3 players twice (3:12/3:9): give each count once"),
        ("hand_size=3:12/4:11/4:11", "hand_size names 4 players twice (3:12/4:11/4:11)"),
        ("players=3/3/5", "players names 3 twice (3/3/5): give each count once"),
        ({"players": [4, 4]}, "players names 4 twice ([4, 4]): give each count once"),
        ({"hand_size": {"3": 12, 3: 9}}, "hand_size names 3 players twice"),
        ({"hand_size": [[5, 9], [5, 10]]}, "hand_size names 5 players twice"),
    ],
)
def test_a_count_named_twice_is_refused_not_dropped(rules, message):
    with pytest.raises(ValueError) as exc:
        Rules.of(rules)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_a_key_given_twice_still_takes_the_later_value():
    # as documented: the flag may be repeated, and a key given twice takes the later value
    assert Rules.parse(["take=ends", "take=nothing"]).take == "nothing"
    assert Rules.parse("hand_size=9,hand_size=10") == Rules(hand_size=10)


def test_numbers_are_written_as_leaves_rules_lists_them():
    for text in ("hand_size=09", "expert_target=+7", "turn_limit=1e3", "players=03/5"):
        with pytest.raises(ValueError, match="must be a whole number"):
            Rules.parse(text)


def _documented_texts() -> set[str]:
    found = set()
    pattern = re.compile(r"--(?:rules|check)[ =](\"[^\"]+\"|'[^']+'|[^\s`|)\]]+)")
    for path in DOCUMENTS:
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            text = m.group(1).strip("\"'")
            if re.fullmatch(r"([a-z_]+=[a-z0-9:/\-]+)(,[a-z_]+=[a-z0-9:/\-]+)*", text):
                found.add(text)
        for m in re.finditer(r"Rules\.parse\(\"([^\"]+)\"\)", path.read_text(encoding="utf-8")):
            found.add(m.group(1))
    return found


def test_every_rules_text_the_documentation_shows_still_reads():
    texts = _documented_texts()
    assert {"take=ends", "hand_size=9", "take=ends,min_count=off", "min_count=off"} <= texts
    for text in sorted(texts):
        if text in REFUSED_IN_THE_DOCS:
            with pytest.raises(ValueError, match=re.escape(REFUSED_IN_THE_DOCS[text])):
                Rules.parse(text)
        else:
            Rules.parse(text)


def test_the_documented_rules_tables_read():
    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = cli.split("```toml\n", 1)[1].split("```", 1)[0]
    rules = Rules.from_dict(tomllib.loads(block)["rules"])
    assert rules.changes() == {"hand_size": {"3": 12, "4": 11}, "take": "ends", "min_count": False}
    example = tomllib.loads((ROOT / "examples" / "tournament.toml").read_text(encoding="utf-8"))
    Rules.from_dict(example.get("rules") or example.get("tournament", {}).get("rules"))


def _row(path: Path, key: str) -> str:
    return next(
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith(f"| `{key}` |")
    )


def test_min_count_off_is_worded_as_the_rules_page_and_the_engine_have_it():
    cli = _row(ROOT / "docs" / "cli.md", "min_count")
    rules = _row(ROOT / "docs" / "rules.md", "min_count")
    meaning = rules.split("| off: ", 1)[1].rstrip(" |")
    assert meaning.startswith("one card") and "is enough" in meaning
    assert cli.endswith(f"| `off`: {meaning} |")  # not a cap ("no more cards than the stack")
    # the engine: with min_count off, one card answers an end whose stack holds three
    from leaves import Action, State

    table = [0] * 13
    table[5], table[11] = 3, 2  # a stack of three 6s and one of two 12s
    deck = np.array(DEFAULT_RULES.deck) - np.array(table)
    hand = [0] * 13
    hand[1] = 1  # one 2
    rest = deck - np.array(hand)
    other = [int(min(r, 1)) for r in rest]
    third = [int(min(r - o, 1)) for r, o in zip(rest, other, strict=True)]
    for min_count, legal in ((True, False), (False, True)):
        rules = Rules(min_count=min_count)
        state = State.from_dict({"hands": [hand, other, third], "table": table,
                                 "current_player": 0, "rules": rules.changes()})  # fmt: skip
        assert (Action.play(2, 1) in state.legal_actions()) is legal


@pytest.mark.parametrize(
    ("n_players", "said"),
    [("4", "'4'"), (np.int64(7), "7"), (True, "True"),
     (10**5000, "a whole number of about 5,001 digits")],
    ids=["text", "numpy", "bool", "huge"],  # pytest would write the huge number in its id
)  # fmt: skip
def test_a_table_size_the_rules_refuse_is_named_as_given(n_players, said):
    """Text "4" is no count of players (4 is one): it is named as text, quoted; numpy's 7 as
    the number it is; a number past the 4,300 digits Python writes, in words."""
    with pytest.raises(ValueError) as info:
        DEFAULT_RULES.hand_size_for(n_players)
    assert str(info.value) == f"13 Leaves is played by 3 to 6 players, got {said}"
