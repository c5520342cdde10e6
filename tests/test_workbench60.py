"""The designer's workbench and tuning (``leaves variants``, ``leaves tune``) say only what is
true: each test runs a small case whose truth is known and checks the command against it."""

from __future__ import annotations

import json

import pytest

from tests.variants_comparison import SMALL
from tests.variants_comparison import run as _run

# ------------------------------------------ 1. resumed designers' files checked against the run


@pytest.mark.slow
def test_designer_files_are_tied_to_their_own_run(comparison):
    """The state keeps, per rule set, the checksums of the run its designers' files were
    replayed from; it kept the checksum of a manifest key that does not exist (the same for
    every run), so a run whose files changed still passed as the one measured."""
    from leaves.commands.variants_resume import designer_kept

    state = json.loads((comparison / "variants.json").read_text())
    runs = {name: kept["run"] for name, kept in state["designer"].items()}
    assert len(set(runs.values())) == len(runs) == 3  # each run its own checksums
    where = comparison / "hand_size=9"
    assert designer_kept(state, where)
    original = (where / "manifest.json").read_text()
    manifest = json.loads(original)
    manifest["integrity"]["chunks"]["0"] = {"games/part-000000.parquet": [1, "0" * 32]}
    (where / "manifest.json").write_text(json.dumps(manifest))
    try:
        assert not designer_kept(state, where)  # another run: its measures are replayed
    finally:
        (where / "manifest.json").write_text(original)


# ------------------------------------ 2. a difference of win rates is in percentage points


def _bare_points(text: str) -> list[str]:
    """Each 'point(s)' not preceded by 'percentage' (with some context): a difference of two
    rates said in bare points, which could be read as a game's own score."""
    import re

    return [text[max(0, m.start() - 40) : m.end()] for m in re.finditer(r"\bpoints?\b", text)
            if not text[: m.start()].endswith("percentage ")]  # fmt: skip


def test_the_comparison_says_percentage_points(comparison):
    """The findings, the page and every CSV state a difference of win rates or of shares (a
    seat's edge, the skill spread, a share's change) in percentage points, never bare
    'points'."""
    texts = {p.name: p.read_text() for p in comparison.glob("variants_*.csv")}
    texts["findings.txt"] = (comparison / "findings.txt").read_text()
    texts["report.html"] = (comparison / "report.html").read_text()
    assert "percentage points" in texts["findings.txt"]  # the skill spread, at least
    assert "] pp" in texts["variants_seats.csv"]  # a cell: the short unit the page defines
    assert "pp: percentage points, a difference of two rates" in texts["report.html"]
    for name, text in texts.items():
        assert not _bare_points(text), (name, _bare_points(text)[:3])


def test_one_percentage_point_is_singular():
    """A difference of exactly one percentage point is said in the singular, in a sentence
    and in a table cell alike."""
    import pandas as pd

    from reports.variants_display import diff_text, value_text
    from reports.variants_words import change

    row = pd.Series({"metric": "skill_spread", "diff": 0.01, "ci_low": 0.005, "ci_high": 0.015,
                     "value": 0.01, "se": 0.0025, "df": 9.0, "significant": True})  # fmt: skip
    assert change(row, "less", "more") == "1.0 percentage point more [0.5, 1.5]"
    assert value_text(row) == "+1.0 [+0.5, +1.5] pp"  # a cell: the short unit, defined beside it
    nan = row.copy()
    nan[["ci_low", "ci_high"]] = float("nan")
    assert diff_text(nan) == "+1.0 pp (too few deals)"


# ------------------------------------------------ 3. tune's advice names the strategy tuned


def test_tuning_against_itself_suggests_its_own_parameters(tmp_path):
    """Tuning taker against taker is refused with an example made of taker's own parameters
    (it suggested 'weighted:w_pass=-12.0', a parameter taker does not have), and the example
    it gives is an opponent the tuning accepts."""
    import re

    code, text = _run(["tune", "taker", "--against", "taker", "--budget", "100",
                       "--out", str(tmp_path / "t")])  # fmt: skip
    assert code == 2 and "weighted" not in text, text
    example = re.search(r"e\.g\. (\S+)\)", text).group(1)
    assert example.startswith("taker:"), text
    code, text = _run(["tune", "taker", "--against", f"{example},greedy", "--budget", "1",
                       "--out", str(tmp_path / "u")])  # fmt: skip
    assert "both the strategy tuned and an opponent" not in text and "too small" in text, text


def test_tuning_states_win_rate_differences_in_percentage_points():
    """The verification's paired line and its warning of a wide interval give a difference of
    win rates, and an interval's half-width, in percentage points."""
    from tuning.tune import _paired, _warnings
    from tuning.verify import Arm, Verification

    arm = Arm("x", "x", 400, 200, 0.5, 0.45, 0.55)
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.031, diff_low=-0.049, diff_high=0.111,
                     p_value=0.4, units=100, games_differing=30)  # fmt: skip
    assert _paired(v) == "+3.10 percentage points [-4.90, +11.10], p = 0.40"
    assert _warnings(v, False, ["x"]) == [
        "the verification's interval is +/-8.0 percentage points wide (100 deals): only a larger "
        "difference would show; raise --verify-games or --budget"
    ]


# ------------------------------------------------ 4. resuming with the variants in another order


@pytest.mark.slow
def test_resume_takes_the_variants_in_any_order(comparison):
    """The variants given again in another order are the same comparison (no figure depends
    on their order): resumed, it keeps every run and writes the same findings."""
    before = (comparison / "findings.txt").read_text()
    code, text = _run(["variants", "--out", str(comparison), "--resume", "--no-progress",
                       "--rules", "take=ends", "--rules", "hand_size=9"])  # fmt: skip
    assert code == 0, text
    assert (comparison / "findings.txt").read_text() == before


def test_resume_names_each_variant_by_its_own_flag(comparison):
    """Refused, the line names each variant as its own --rules (two variants joined by a comma
    read as one rule set changing two keys)."""
    code, text = _run(["variants", "--out", str(comparison), "--resume", "--rules",
                       "hand_size=8"])  # fmt: skip
    assert code == 2
    assert text.strip().endswith(
        "--rules hand_size=8 differs from this run's --rules hand_size=9 --rules take=ends: "
        "resume with --rules hand_size=9 --rules take=ends, or drop --rules"
    ), text


@pytest.mark.slow
def test_a_sweeps_fixed_rules_keep_their_order(tmp_path):
    """Under --sweep the --rules are one rule set, the later winning a key given twice: given
    again in another order they are other rules, and the resume refuses them."""
    out = tmp_path / "s"
    fixed = ["--rules", "take=ends", "--rules", "take=nothing"]
    code, text = _run(["variants", *SMALL[:-4], "--trace-games", "0", "--restricted-games", "0",
                       "--sweep", "hand_size=9,10", *fixed, "--out", str(out)])  # fmt: skip
    assert code == 0, text
    code, text = _run(["variants", "--out", str(out), "--resume", *fixed[2:], *fixed[:2]])
    assert code == 2 and "cannot resume" in text, text
    code, text = _run(["variants", "--out", str(out), "--resume", "--no-progress", *fixed])
    assert code == 0, text


@pytest.mark.slow
def test_resume_takes_the_ladders_rungs_in_any_order(tmp_path):
    """The ladder's rungs are ordered by strength whatever the order given, so the same rungs
    in another order are the same comparison."""
    out = tmp_path / "l"
    args = [*SMALL[:-4], "--trace-games", "0", "--restricted-games", "0", "low"]
    code, text = _run(["variants", *args, "--rules", "take=ends", "--ladder", "weighted,low",
                       "--out", str(out)])  # fmt: skip
    assert code == 0, text
    code, text = _run(["variants", "--out", str(out), "--resume", "--no-progress", "--ladder",
                       "low, weighted"])  # fmt: skip
    assert code == 0, text


# ------------------------------------------------ 5. a damaged state is refused in words


@pytest.mark.parametrize(("key", "value"), [("specs", 5), ("games", "many"), ("players", ["4"]),
                                            ("rules", [9]), ("seed", None)])  # fmt: skip
def test_a_state_with_a_value_of_the_wrong_kind_is_refused(comparison, tmp_path, key, value):
    """A variants.json whose option has the wrong kind of value (edited by hand, or damaged)
    is refused naming the file, exit 1: it said "'int' object is not iterable", or played a
    fresh seed before refusing the runs."""
    import shutil

    out = tmp_path / "v"
    shutil.copytree(comparison, out)
    state = json.loads((out / "variants.json").read_text())
    state["options"][key] = value
    (out / "variants.json").write_text(json.dumps(state))
    code, text = _run(["variants", "--out", str(out), "--resume"])
    assert code == 1, text
    assert "variants.json is not a comparison this version can resume" in text, text


# ------------------------------------------------ 6. a difference with no spread is still stated


@pytest.mark.slow
def test_a_difference_with_no_spread_says_what_it_is(tmp_path):
    """Under turn_limit=5 every game stops unfinished, against none under today's rules: every
    duplicate set gives the same difference in unfinished games, +100 percentage points. The
    finding said only that it was the same in every set, never what it was; then that no spread
    tested it, beside Newcombe's interval, which does: the change is clear."""
    out = tmp_path / "t"
    code, text = _run(["variants", *SMALL[:-4], "--trace-games", "0", "--restricted-games", "0",
                       "--rules", "turn_limit=5", "--out", str(out)])  # fmt: skip
    assert code == 0, text
    import pandas as pd

    rows = pd.read_parquet(out / "turn_limit=5" / "games")
    assert rows["unfinished"].all()  # the truth: every game unfinished, none under today's
    assert not pd.read_parquet(out / "default" / "games")["unfinished"].any()
    said = (out / "findings.txt").read_text()
    assert "no spread to test it by" not in said, said
    assert ("more games end unfinished (at the turn limit): 100.0% [" in said
            and "100.0 percentage points more [" in said), said  # fmt: skip


# ------------------------------------------------ 7. a share of the game stays within 0..100%


def test_a_share_of_the_game_has_no_interval_past_its_range():
    """Drama and when games are decided are shares of a game's turns: their intervals stay in
    [0, 1] (a sample of six sets, five decided on the last turn, gave 'leads for good from
    90.1% [80.0, 100.1]'). Clipping to the range the truth lies in loses no coverage."""
    import numpy as np
    import pandas as pd

    from reports.designer_measures import trace_measures
    from reports.variants_metrics import estimate, interval

    decided = [1.0] * 20 + [0.4] * 4  # six sets of four games; one set decided earlier
    df = pd.DataFrame({"game": range(24), "table": 0, "deal": np.repeat(range(6), 4),
                       "n_players": 4, "finished": True, "lead_changes": [0.0] * 20 + [3.0] * 4,
                       "drama": [0.0] * 20 + [0.6] * 4, "comeback": 0.0,
                       "decided_at": decided})  # fmt: skip
    got = {m.metric: m for m in trace_measures(df)}
    for metric in ("drama", "decided_at", "lead_changes"):
        m = got[metric]
        t_lo, t_hi = (float(x[0]) for x in estimate(m).interval())
        assert t_lo < 0 or t_hi > 1  # the plain t interval leaves the range here
        lo, hi = interval(m)
        top = np.inf if metric == "lead_changes" else 1.0  # a count is never negative
        assert 0.0 <= lo <= m.value <= hi <= top, (metric, lo, hi)


# --------------------------------- 8. expert_target without --expert plays today's games


@pytest.mark.parametrize("asked", [["--rules", "expert_target=30"],
                                   ["--sweep", "expert_target=10,30"]])  # fmt: skip
def test_a_match_target_without_matches_is_refused_before_a_game(tmp_path, asked):
    """Without --expert no match is played, so expert_target changes no game: the variant
    played the same games twice and said they 'played out alike'; it is refused before a
    game, as any variant that plays as today's rules is, saying what would make it count."""
    out = tmp_path / "x"
    code, text = _run(["variants", *SMALL, *asked, "--out", str(out)])
    assert code == 2, text
    assert "plays as today's rules" in text and "--expert" in text, text
    assert not out.exists()


def test_a_match_target_with_matches_is_a_variant(tmp_path):
    from leaves.commands.variants_sweep import plays_as
    from leaves.ruleset import DEFAULT_RULES, Rules

    target = Rules.parse("expert_target=30")
    assert plays_as(target, DEFAULT_RULES, [4], expert=False)
    assert not plays_as(target, DEFAULT_RULES, [4], expert=True)


# -------------------------------- 9. --games on resuming: what it plays, not the number typed


@pytest.mark.slow
def test_resume_takes_any_games_that_play_the_same_games(tmp_path):
    """--games is rounded up to whole duplicate sets: a comparison asked 30 games plays 40
    (5 tables x 2 deals x 4 seatings), so resuming with --games 40 asks the same games (it
    was refused: '--games 40 but the run has games 30'); --games 41 plays more, refused."""
    out = tmp_path / "g"
    args = [*SMALL[:2], "--games", "30", *SMALL[4:-4], "--trace-games", "0",
            "--restricted-games", "0", "--rules", "take=ends", "--out", str(out)]  # fmt: skip
    code, text = _run(["variants", *args])
    assert code == 0 and "40 games = 5 tables x 2 deals x 4 seatings" in text, text
    for games in ("40", "31"):
        code, text = _run(["variants", "--out", str(out), "--resume", "--games", games])
        assert code == 0 and "all 40 games kept" in text, text
    code, text = _run(["variants", "--out", str(out), "--resume", "--games", "41"])
    assert (
        code == 2
        and "--games 41 differs from this run's --games 30: resume with --games 30" in text
    ), text


# ------------------------------------------- 10. an empty item in --rules, refused everywhere


EMPTY_ITEM = [["--rules", "hand_size=9,,take=ends"], ["--rules", "take=ends,"],
              ["--sweep", "hand_size=9,10", "--rules", "take=ends,"]]  # fmt: skip


@pytest.mark.parametrize("asked", EMPTY_ITEM)
def test_a_variant_with_an_empty_item_is_refused_as_tune_refuses_it(tmp_path, asked):
    """'take=ends,' (a comma at an end, or two in a row) is refused by leaves tune, play and
    rules --check; leaves variants played it as if the comma were not there."""
    out = tmp_path / "e"
    code, text = _run(["variants", *SMALL, *asked, "--out", str(out)])
    assert code == 2 and "has an empty item" in text, text
    assert not out.exists()
