"""The designer's workbench: the tuner's advice, the variants' cells, the sweep's refusals and a
resumed comparison's checks, each against what is true."""

from __future__ import annotations

import json
import re

import pytest

from tests.variants_comparison import run as _run

# ------------------------------------------ 1. tune's advice is an opponent tune accepts


def test_tune_suggests_an_opponent_of_the_parameters_type_for_every_strategy():
    """Tuning any tunable strategy against itself is refused with an example opponent; that
    example, parsed through the registry, is accepted and told apart from the tuned one (it
    suggested 'ismcts:iterations=100.0', refused: 'expects int, got 100.0')."""
    import strategies
    from tuning.plan import checked

    tuned = [n for n in strategies.names() if getattr(strategies.get(n), "tunable", None)]
    assert "ismcts" in tuned
    for name in tuned:
        with pytest.raises(ValueError) as exc:
            checked(name, name, 4, 10, 0, 1, None)
        suggested = re.search(r"e\.g\. (\S+)\) so", str(exc.value)).group(1)
        assert strategies.get(suggested).label != strategies.get(name).label, name


# ------------------------------------------ 2. a variants cell writes its unit one way


def _cells_words(cell: str) -> list[str]:
    """A cell's words, its figures and the mark of a clear difference left out."""
    words = cell.replace("[", " ").replace("]", " ").split()
    return [w for w in words if not any(c.isdigit() for c in w) and w != "*"]


@pytest.mark.parametrize("metric", ["seat", "skill_spread", "turns", "runner_up", "restricted_x"])
def test_a_value_and_a_difference_write_the_unit_alike(metric):
    """A value cell and a difference cell of the same measure write the same unit in the same
    place (they read '+1.0 percentage point [+0.5, +1.5]' and '+1.0 [+0.5, +1.5] percentage
    points' side by side); a difference of rates in a cell is the short 'pp' that the page
    defines beside the table, while a sentence spells it out (singular for one)."""
    import pandas as pd

    from reports.numbers import PP
    from reports.variants_display import diff_figure, diff_text, shown, value_text

    both = {"metric": metric, "value": 0.01, "diff": 0.01, "ci_low": 0.005, "ci_high": 0.015,
            "significant": True}  # fmt: skip
    r = pd.Series(both)
    assert _cells_words(diff_text(r)) == _cells_words(value_text(r)), (diff_text(r), metric)
    unit = shown(metric).diff_unit
    assert diff_text(r).endswith(f"] {unit} *")
    if unit == PP:
        # every value in pp is a difference of rates (an edge, a spread, a cost): signed
        assert value_text(r) == "+1.0 [+0.5, +1.5] pp"
        assert diff_figure(r) == "+1.0 percentage point [+0.5, +1.5]"  # the word, singular
    none = pd.Series({**both, "ci_low": float("nan"), "ci_high": float("nan")})
    assert _cells_words(diff_text(none))[:1] == _cells_words(value_text(none))[:1]


def test_the_sweep_csv_writes_differences_of_rates_as_the_tables_do(tmp_path):
    """The CSV cells are the tables' cells: a seat's edge reads '... pp' in both."""
    import pandas as pd

    from reports.variants_tables import sweep_rows

    table = pd.DataFrame([{"value": v, "rules": f"hand_size={v}", "n_players": "all",
                           "metric": "seat", "position": 0, "measure": "edge", "estimate": 0.01,
                           "ci_low": 0.005, "ci_high": 0.015} for v in (9, 10)])  # fmt: skip
    table["n_players"] = "4"
    rows = sweep_rows(table)
    rows.to_csv(tmp_path / "s.csv", index=False)
    assert list(pd.read_csv(tmp_path / "s.csv")["edge"]) == ["+1.0 [+0.5, +1.5] pp"] * 2


# ------------------------------------------ 3. a sweep of match targets says why, always

WHY = "(expert_target ends a match, never a game: --expert plays matches)"


@pytest.mark.parametrize(("text", "fixed"), [
    ("expert_target=20,30", ()),  # today's first: it asked only of the first value
    ("expert_target=30,20", ()),
    ("expert_target=30,40", ("hand_size=9",)),  # alike to each other: 'plays as' gave no why
    ("expert_target=40,30", ("hand_size=9",)),
])  # fmt: skip
def test_a_sweep_refused_for_want_of_matches_says_why(text, fixed):
    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    with pytest.raises(CLIError) as exc:
        sweep_sets(text, fixed, [4], expert=False)
    assert WHY in str(exc.value) and "\n" not in str(exc.value), str(exc.value)
    sets, _ = sweep_sets(text, fixed, [4], expert=True)  # the reason true: matches tell them
    assert len(sets) == (3 if fixed else 2)


def test_a_sweep_alike_for_another_reason_gives_none():
    """A value given twice is refused without the match target's words."""
    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    with pytest.raises(CLIError) as exc:
        sweep_sets("hand_size=9,9", (), [4], expert=False)
    assert WHY not in str(exc.value)


# ------------------------------------------ 4. and 5. a resumed comparison's state


def _copy(comparison, tmp_path):
    import shutil

    out = tmp_path / "v"
    shutil.copytree(comparison, out)
    return out, json.loads((out / "variants.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize(("key", "value", "least"), [
    ("trace_games", -1, 0), ("restricted_games", -3, 0), ("games", 0, 1), ("seed", -1, 0),
])  # fmt: skip
def test_a_state_with_a_value_out_of_range_is_refused(comparison, tmp_path, key, value, least):
    """A hand-edited variants.json with a whole number out of its option's range was accepted
    (trace_games -1 played on); it is refused in one line with the range, as the command
    line refuses it."""
    out, state = _copy(comparison, tmp_path)
    state["options"][key] = value
    (out / "variants.json").write_text(json.dumps(state))
    code, text = _run(["variants", "--out", str(out), "--resume"])
    assert code == 1, text
    flag = "--" + key.replace("_", "-")
    assert f"variants.json holds {flag} {value}, out of its range (at least {least})" in text
    assert len(text.strip().splitlines()) == 1, text


@pytest.mark.slow
def test_designers_measures_of_an_earlier_version_are_recomputed_and_said(comparison,
                                                                          tmp_path):  # fmt: skip
    """A comparison of the earlier version recorded every run's checksum as that of a manifest
    key that does not exist (the checksum of JSON null, the same for every run): its
    designers' measures are replayed, which the resume now says, and they come out as the
    ones written before (the same seed, the same games)."""
    import hashlib

    out, state = _copy(comparison, tmp_path)
    earlier = hashlib.sha256(json.dumps(None).encode()).hexdigest()
    before = {k: v["files"] for k, v in state["designer"].items()}
    for kept in state["designer"].values():
        kept["run"] = earlier
    (out / "variants.json").write_text(json.dumps(state))
    code, text = _run(["variants", "--out", str(out), "--resume"])
    assert code == 0, text
    for name in ("default", "hand_size=9", "take=ends"):
        assert f"{name}: designers' measures of an earlier version recomputed: " in text, text
    after = json.loads((out / "variants.json").read_text())["designer"]
    assert {k: v["files"] for k, v in after.items()} == before  # the same measures again
    assert earlier not in {v["run"] for v in after.values()}
    code, text = _run(["variants", "--out", str(out), "--resume"])  # now kept, and said so
    assert code == 0 and "earlier version" not in text, text
    assert text.count("designers' measures kept") == 3, text


@pytest.mark.slow
def test_the_page_defines_pp_beside_every_table_that_writes_it(comparison, tmp_path):
    """Every table of the Markdown page whose cells write 'pp' has the note defining it in the
    line that names the table (the note's rule: defined beside every table that uses it)."""
    from reports.numbers import PP, PP_MEANS

    out, _ = _copy(comparison, tmp_path)
    code, text = _run(["variants", "--out", str(out), "--resume", "--format", "md"])
    assert code == 0, text
    lines = (out / "report.md").read_text().splitlines()
    named, missing = "", []
    for i, line in enumerate(lines):
        if line.startswith(("`variants", "[`variants")):
            named = line
        elif line.startswith("|") and not lines[i - 1].startswith("|"):  # a table's head
            rows = []
            for row in lines[i:]:
                if not row.startswith("|"):
                    break
                rows.append(row)
            uses = any(re.search(rf"\d {PP}\b", cell) for r in rows for cell in r.split("|"))
            if uses and PP_MEANS not in named:
                missing.append(named)
    assert not missing, missing
