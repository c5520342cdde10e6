"""Figures the guides state that no other test reads, each compared with what the code gives
now: what a Python snippet's comment says it prints, the `leaves play` levels' figures quoted
from docs/strength.md, the chunks a quoted `leaves verify` counts, the limits and constants
docs/reports.md, docs/research.md and docs/architecture.md name, a Ligretto finding
docs/reports.md quotes, the coverage docs/variants.md quotes from docs/reports.md; and, long
(marked slow), the commands behind the figures: docs/reports.md's rule-variant findings at
the size of its command, docs/variants.md's worked example and restricted-play counts,
docs/tuning.md's acceptance run and re-measured built-ins, and docs/tournaments.md's
sequential benchmark.

Imports inside functions: start-up (collecting the quick suite loads no command, report or
environment that a test it runs does not read).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import cli, doc_page, doc_text

ROOT = Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> set[float]:
    """Every figure of ``text`` as a number, its sign dropped ('+3.9' and '3.9' alike)."""
    return {float(n.replace(",", "")) for n in NUMBER.findall(text)}


def test_the_search_space_architecture_md_prints_is_the_builtins():
    """The comment under `{cls.name: cls.PARAMS.tunable() for cls in BUILTINS}` is what the
    expression gives, each '...' standing for what it leaves out: it opened on `counter`,
    while the dict opens on `random`, whose search space is empty."""
    block = re.search(r"```python\n(from leaves\.players\.builtin import BUILTINS\n.*?)```",
                      doc_page("architecture.md"), flags=re.S)[1]  # fmt: skip
    imports, expression, comment = block.strip().splitlines()
    scope: dict = {}
    exec(imports, scope)  # noqa: S102 - our own docs
    got = repr(eval(expression, scope))  # noqa: S307 - our own docs
    shown = re.escape(comment.removeprefix("# ")).replace(re.escape("..."), ".*?")
    assert re.fullmatch(shown, got), (comment, got[:200])


def _level_rows() -> dict[str, list[str]]:
    """The cells of docs/cli.md's `--level` table, by level."""
    rows = re.findall(r"^\| `(easy|medium|hard)`[^|]*\|(.*)\|$", doc_page("cli.md"), re.M)
    return {level: [c.strip() for c in cells.split("|")] for level, cells in rows}


def test_the_play_levels_figures_are_strength_mds():
    """Each figure of the levels' "why" is one docs/strength.md measured (the command in
    backticks aside)."""
    rows = _level_rows()
    assert set(rows) == {"easy", "medium", "hard"}
    source = _numbers(doc_page("strength.md"))
    for level, (_, why) in rows.items():
        said = re.sub(r"`[^`]*`|\]\([^)]*\)", "", why)  # commands, names and links
        assert _numbers(said) - source == set(), level


def test_the_range_the_hard_level_quotes_is_strength_mds_lowest_and_highest():
    """The hard level's defaults "win 67-98% against three of any other built-in but
    `taker` (50.7%)": docs/strength.md measured 67.5% (`counter`) to 97.5% (`random`), each
    figure of which is elsewhere on that page, so only the range itself tells them apart."""
    strength = doc_text("strength.md")
    measured = strength.split("**Against three of each other built-in**", 1)[1].split("```")[0]
    rates = dict(re.findall(r"`(\w+)` (?:\([^)]*\) )?([\d.]+)% \[", measured))
    assert len(rates) >= 8 and "taker" in rates, rates
    others = [float(rate) for name, rate in rates.items() if name != "taker"]
    hard = " ".join(_level_rows()["hard"][1].split())
    said = re.search(r"win ([\d.]+)-([\d.]+)% against three of any other built-in but "
                     r"`taker` \(([\d.]+)%\)", hard)  # fmt: skip
    assert said, hard
    assert [float(x) for x in said.groups()] == [min(others), max(others), float(rates["taker"])]


def test_the_hard_levels_opponent_is_the_strong_preset():
    """ "`ismcts:preset=strong` (... 12,800 iterations, eight times the defaults', ...
    `infer_lambda=4, infer_steps=16`)": the preset's settings and the level's opponents."""
    from leaves.commands.play_loop import LEVELS
    from leaves.players.ismcts.settings import PRESETS, SETTINGS

    opponents = _level_rows()["hard"][0]
    assert LEVELS["hard"] == ("ismcts:preset=strong",)
    assert opponents.startswith("`ismcts:preset=strong`")
    strong = PRESETS["strong"]
    said = re.search(r"([\d,]+) iterations, (\w+) times the defaults'", opponents)
    iterations, times = said.groups()
    assert int(iterations.replace(",", "")) == strong["iterations"]
    ratio = strong["iterations"] / SETTINGS.defaults()["iterations"]
    assert {"eight": 8, "four": 4, "sixteen": 16}[times] == ratio
    chain = dict(kv.split("=") for kv in re.search(r"`(infer_lambda=[^`]+)`", opponents)[1]
                 .split(", "))  # fmt: skip
    assert {k: float(v) for k, v in chain.items()} == {
        k: float(strong[k]) for k in ("infer_lambda", "infer_steps")
    }


def _variants_command() -> list[str]:
    """The arguments of docs/reports.md's first `leaves variants` command."""
    text = " ".join(doc_page("reports.md").replace("\\\n", " ").split())
    line = re.search(r"leaves variants (random [^#`]*?--out \S+)", text)[1]
    return [a.strip('"') for a in line.split()]


@pytest.mark.slow
def test_the_variant_findings_reports_md_quotes_are_what_its_command_prints(tmp_path, capsys):
    """5-10 s: docs/reports.md quotes three findings "from the example" with their figures
    (a test of docs/ masks the figures, at a smaller size): here the command as the page gives it,
    its designers' measures left out (`--trace-games 0 --restricted-games 0`, which move no
    figure quoted), and the standard errors it gives of `take=ends`' turns difference, paired
    and not ("0.10 against 0.19 turns in the example")."""
    import math

    import pandas as pd

    args = _variants_command()
    assert args[args.index("--games") + 1] == "20000" and "--seed" in args
    out = tmp_path / "v"
    args[args.index("--out") + 1] = str(out)
    code, printed, err = cli(capsys, "variants", *args, "--jobs", "1",
                             "--trace-games", "0", "--restricted-games", "0")  # fmt: skip
    assert code == 0, err
    printed = " ".join(printed.split())
    quotes = re.findall(r'"(With [^"]*)"', doc_text("reports.md"))
    assert len(quotes) == 3, quotes
    for quote in quotes:
        assert quote.removesuffix(", ...") in printed, quote
    paired, unpaired = (float(x) for x in re.search(
        r"about half the standard error an unpaired one would have, ([\d.]+) against ([\d.]+) "
        r"turns in the example", doc_text("reports.md")).groups())  # fmt: skip
    diff = pd.read_csv(out / "variants_differences.csv")
    metric = pd.read_csv(out / "variants_metrics.csv")
    turns = diff[(diff.rules == "take=ends") & (diff.metric == "turns") & (diff.n_players == "all")]
    assert (turns.method.item(), round(turns.se.item(), 2)) == ("paired", paired)
    each = metric[(metric.metric == "turns") & (metric.n_players == "all")].set_index("rules").se
    assert round(math.hypot(each["default"], each["take=ends"]), 2) == unpaired


def _worked_example() -> tuple[str, list[str]]:
    """docs/variants.md's worked example: its sentence on the run and its bullets."""
    page = doc_page("variants.md")
    section = page.split("## A worked example", 1)[1].split("\nRead as a designer", 1)[0]
    head, *bullets = section.split("\n- ")
    plain = [" ".join(x.replace("`", "").replace("**", "").split()) for x in (head, *bullets)]
    return plain[0], plain[1:]


@pytest.mark.slow
def test_the_worked_example_of_variants_md_is_what_its_sweep_prints(tmp_path, capsys):
    """About a minute: the sweep docs/variants.md gives, in full (its designers' measures
    are quoted too). Each bullet's figures are those of the findings it sums up: a bullet
    on `hand_size=N` those printed for it, the bullet on today's rules those of the default
    rules and of the skill ladder; the bullet with no figures names measures that no hand
    changes clearly, each in the 'no clear difference' finding of every hand."""
    command = re.search(r"leaves variants (--sweep [^\n`]*)", doc_page("variants.md"))[1]
    args = command.split()
    args[args.index("--out") + 1] = str(tmp_path / "hand")
    code, printed, err = cli(capsys, "variants", *args, "--jobs", "1")
    assert code == 0, err
    _check_worked_example(command, printed, err)


def _check_worked_example(command: str, printed: str, err: str) -> None:
    """The worked example's figures against the sweep's output (see the test above)."""
    head, bullets = _worked_example()
    per_set = re.search(r"([\d,]+) games per rule set", head)[1]
    assert f"{per_set} games = " in " ".join((printed + err).split()), err[:300]
    findings = [" ".join(f.split()) for f in printed.split("\n- ")[1:]]
    unclear = [f for f in findings if re.match(r"With hand_size=\d+, there is no clear", f)]
    low, high = (int(x) for x in re.search(r"hand_size=(\d+)\.\.(\d+)", command).groups())
    today = int(re.search(r"hand_size=(\d+) being today's", head)[1])
    assert low <= today <= high and len(unclear) == high - low and bullets
    for bullet in bullets:
        if m := re.match(r"With hand_size=(\d+),", bullet):
            source = [f for f in findings if f.startswith(f"With hand_size={m[1]},")]
        elif bullet.startswith("Under today's rules"):
            source = [f for f in findings if f.startswith(("Under the default rules", "The skill"))]
        else:
            source = unclear
            named = bullet.split("No hand changes clearly ", 1)[1].rstrip(".")
            for item in re.split(r", | or ", re.sub(r" \([^)]*\)", "", named)):
                times = 2 if item == "the cost of either restriction" else 1
                word = "the cost of restricting" if times == 2 else item
                assert all(f.count(word) == times for f in source), (item, source)
        assert source, bullet
        assert _numbers(bullet) - _numbers(" ".join(source)) == set(), bullet
    _check_each_card(findings)


WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _check_each_card(findings: list[str]) -> None:
    """ "each card less shortens a four-player game by three to four and a half turns": the
    least and the most that one card less takes off, hand by hand from today's."""
    said = re.search(r"each card less shortens a four-player game by (\w+) to (\w+)( and a "
                     r"half)? turns", doc_text("variants.md"))  # fmt: skip
    assert said, "docs/variants.md no longer says what each card less does"
    low, high = WORDS[said[1]], WORDS[said[2]] + 0.5 * bool(said[3])
    length = {}
    for f in findings:
        if m := re.match(r"With hand_size=(\d+), games are [\d.]+ turns shorter .*?\(([\d.]+) "
                         r"turns against ([\d.]+) turns\)", f):  # fmt: skip
            length[int(m[1])], today = float(m[2]), float(m[3])
    length[max(length) + 1] = today
    steps = [length[h + 1] - length[h] for h in sorted(length)[:-1]]
    assert len(steps) >= 2 and low <= round(min(steps), 1) and round(max(steps), 1) <= high
    assert round(min(steps)) == low and round(max(steps) * 2) / 2 == high, steps


TUNED = {
    # the first spec of each re-measuring gauntlet: the page's sentence of its figures
    "weighted": r"Re-measured on fresh deals \((.*?p < 1e-16)",
    "counter": r"Re-measured the same way \((.*?p < 1e-16)",
    "taker": r"\*\*`taker`\*\*'s tuned (.*?), no significant difference",
    "patient": r"\*\*`patient`\*\* \(`--budget \d+`\) (gains .*? by moving `min_hand` to \d+)",
}


@pytest.mark.slow
def test_the_tuned_builtins_re_measurements_are_what_their_gauntlets_print(tmp_path, capsys):
    """About a minute: docs/tuning.md's four gauntlets of 301,056 games a side, as the page
    gives them; every figure of the sentence each one backs (games, tables, deals, seatings,
    both win rates, the difference, their intervals, the duplicate sets, the p-value) is
    one the gauntlet prints."""
    import shlex

    section = doc_page("tuning.md").split("## Tuned built-ins", 1)[1]
    text = " ".join(section.split())
    commands = re.findall(r"leaves gauntlet (.*?--jobs \d+)", section.replace("\\\n", " "))
    assert len(commands) == len(TUNED), commands
    for command in commands:
        args = shlex.split(command)
        name = args[0].split(":")[0]
        sentence = re.search(TUNED[name], text)[1]
        code, out, err = cli(capsys, "gauntlet", *args, "--out", str(tmp_path / name))
        assert code == 0, err
        printed = " ".join((out + err).split())
        assert _numbers(sentence) - _numbers(printed) == set(), (name, sentence, printed)
        verdict = "No significant difference" if name == "taker" else f" beats {name}"
        assert verdict in printed, (name, printed)


def test_the_chunks_verify_counts_are_those_of_the_run_its_block_repairs():
    """docs/tournaments.md's `leaves verify runs/a` said "ok: 20 of 20 chunks verified" of
    the run the same block repairs, `greedy low high minimal --games 1000000`, which is laid
    out in 65 chunks (the count depends on the design and the games, never on `--jobs`)."""
    from tournaments import Tournament

    block = re.search(r"```bash\n(leaves verify runs/a .*?)```", doc_page("tournaments.md"),
                      flags=re.S)[1]  # fmt: skip
    done, total = re.search(r'"ok: (\d+) of (\d+) chunks verified', block).groups()
    repair = re.search(r"^leaves tournament (.*?) --resume", block, flags=re.M)[1].split()
    names = repair[: next(i for i, a in enumerate(repair) if a.startswith("--"))]
    games = int(repair[repair.index("--games") + 1])
    schedule = Tournament(names, players=4, games=games, seed=1).schedule
    assert int(done) == int(total) == schedule.n_chunks


def test_the_reports_page_limits_are_the_pages_code():
    """docs/reports.md: "a significance table longer than 12 rows: each strategy against the
    next below it" and "a name longer than 30 characters (a strategy with its parameters) is
    written on a chart on lines broken after its commas"."""
    from reports.chart_layout import LEGEND_CHARS, wrapped
    from reports.page import ALL_ROWS

    text = doc_text("reports.md")
    rows = re.search(r"a significance table longer than (\d+) rows", text)[1]
    chars = re.search(r"a name longer than (\d+) characters \(a strategy with its parameters\)",
                      text)[1]  # fmt: skip
    assert (int(rows), int(chars)) == (ALL_ROWS, LEGEND_CHARS)
    spec = "counter(threat_weight=1.5,keep_weight=6.0)"
    assert wrapped(spec[: int(chars)]) == spec[: int(chars)]
    assert wrapped(spec).split("\n") == ["counter(threat_weight=1.5,", "keep_weight=6.0)"]


def test_the_observations_type_changes_at_the_turn_limit_research_md_gives():
    """docs/research.md: the observation is "145 int16 (int32 under a turn limit above
    32,766, which int16 cannot count to)"."""
    pytest.importorskip("pettingzoo")
    from interop.pettingzoo import env

    said = re.search(r"(\d+) int16 \(int32 under a turn limit above ([\d,]+),",
                     doc_text("research.md"))  # fmt: skip
    size, limit = int(said[1]), int(said[2].replace(",", ""))
    for turn_limit, dtype in ((limit, "int16"), (limit + 1, "int32")):
        e = env(n_players=4, rules=f"turn_limit={turn_limit}")
        space = e.observation_space("player_0")["observation"]
        assert (space.shape, str(space.dtype)) == ((size,), dtype), turn_limit


ACCEPTANCE = (
    r"On fresh seeds \(([\d,]+) games each, ([\d,]+) duplicate sets\) the tuned weights won "
    r"\*\*([\d.]+)%\*\* \[([\d.]+), ([\d.]+)\] against ([\d.]+)% \[([\d.]+), ([\d.]+)\] for the "
    r"start: a paired difference of \*\*([+-][\d.]+) percentage points\*\* \[([+-][\d.]+), "
    r'([+-][\d.]+)\] \(p = ([\d.e-]+)\), "(\w+)"'
)


@pytest.mark.slow
def test_the_tuning_acceptance_run_verifies_as_tuning_md_says(tmp_path, capsys):
    """About a minute: docs/tuning.md's acceptance run, as the page gives it; its
    verification's games, duplicate sets, both win rates, the paired difference, their
    intervals, the p-value and the verdict, from the `tune.json` it writes."""
    import json
    import shlex

    page = doc_page("tuning.md")
    block = page.split("The acceptance run", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    args = shlex.split(block.replace("\\\n", " ").removeprefix("leaves tune "))
    code, _, err = cli(capsys, "tune", *args, "--out", str(tmp_path / "t"))
    assert code == 0, err
    said = re.search(ACCEPTANCE, doc_text("tuning.md"))
    assert said, "docs/tuning.md no longer gives the acceptance run's verification"
    v = json.loads((tmp_path / "t" / "tune.json").read_text(encoding="utf-8"))["verification"]
    tuned, start = v["tuned"], v["start"]
    got = [f"{tuned['games']:,}", f"{v['units']:,}"]
    got += [f"{100 * x:.1f}" for x in (tuned["win_rate"], tuned["ci_low"], tuned["ci_high"])]
    got += [f"{100 * x:.1f}" for x in (start["win_rate"], start["ci_low"], start["ci_high"])]
    got += [f"{100 * x:+.1f}" for x in (v["diff"], v["diff_low"], v["diff_high"])]
    got += [f"{v['p_value']:.1e}", v["verdict"]]
    assert start["games"] == tuned["games"]
    assert list(said.groups()) == got


def test_the_meta_game_figures_reports_md_gives_are_the_codes():
    """docs/reports.md's meta-game section: the dynamics' horizon and random starts, the
    equilibria the starts reach, the regret allowed, α-Rank's population and its limit on
    profiles, the bootstrap's replicates, the share that counts as played, the share of
    replicates below which the lead cautions, α-Rank's work and replicates, the fewest deals."""
    from reports import metagame, metagame_bootstrap, metagame_rank, metagame_text

    text = doc_text("reports.md")
    said = {
        r"in log-shares to time ([\d,]+), from the uniform mix": metagame.HORIZON,
        r"half the population and (\d+) seeded random starts": metagame.STARTS_RANDOM,
        r"one per strategy and \d+ random: (\d+) for four strategies":
            1 + 4 + metagame.STARTS_RANDOM,
        r"is at most ([\d.]+) percentage point\. `payoff`": 100 * metagame.EPS,
        r"a population of m = (\d+),": metagame_rank.POPULATION,
        r"Left out past (\d+) profiles": metagame_rank.MAX_PROFILES,
        r"as many times as it has them, (\d+) times from a fixed seed":
            metagame_bootstrap.REPLICATES,
        r"a strategy has (\d+)% or more of the equilibrium": 100 * metagame.SUPPORT,
        r"the estimate \(below (\d+)% the lead says": 100 * metagame_text.SURE,
        r"over ([\d,]+) transitions' worth of replicates": metagame_bootstrap.RANK_WORK,
        r"transitions' worth of replicates \((\d+) at 4 strategies and 3 seats":
            metagame_bootstrap.rank_replicates(4, 3),
        r"one with fewer than (\d+) deals at a table shows its payoff table": metagame.MIN_SETS,
    }  # fmt: skip
    for pattern, value in said.items():
        found = re.search(pattern, text)
        assert found, f"docs/reports.md no longer says: {pattern}"
        assert float(found[1].replace(",", "")) == pytest.approx(value), pattern


@pytest.mark.slow
def test_the_sequential_benchmark_block_is_its_output_figure_for_figure():
    """About 10 s: docs/tournaments.md quotes `python benchmarks/bench_sequential.py`'s
    output (another test reads its words at a few tests a line, its figures masked); here the
    script as the page runs it, every line and figure of the block."""
    import os
    import subprocess
    import sys

    page = doc_page("tournaments.md")
    assert "`python benchmarks/bench_sequential.py` checks the test by simulation" in page
    block = re.search(r"```text\n(GSPRT .*?)```", page, flags=re.S)[1].splitlines()
    script = str(ROOT / "benchmarks" / "bench_sequential.py")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # its real games
    done = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env,
                          timeout=600, check=True)  # fmt: skip
    assert done.stdout.splitlines()[: len(block)] == block


def test_the_mean_score_finding_reports_md_quotes_is_what_its_run_says(tmp_path, capsys):
    """docs/reports.md quotes "No strategy has a clearly best mean score per round: 5.950
    [5.290, 6.610] (...), which the 95% intervals cannot tell from row's 5.948 [5.344, 6.552]"
    from a Ligretto run it names; another test words the sentence from made-up figures, this
    one plays the command the page gives and reads its findings as `leaves report` words them."""
    import shlex

    import reports

    text = doc_text("reports.md")
    quote = re.search(r'\("(No strategy has a clearly best mean score per round: [^"]*)", '
                      r"from `leaves tournament (--game ligretto [^`]*)`\)", text)  # fmt: skip
    assert quote, "docs/reports.md no longer quotes the mean-score finding with its command"
    out = tmp_path / "lig"
    code, _, err = cli(capsys, "tournament", *shlex.split(quote[2]), "--jobs", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    said = [" ".join(f.text.split()) for f in reports.Report(reports.load_run(out)).findings]
    assert any(quote[1] in f for f in said), said


@pytest.mark.slow
def test_the_restricted_play_counts_variants_md_gives_are_its_commands(tmp_path, capsys):
    """About 30 s: docs/variants.md said "of 408 games ... the 216 where `random` does not sit
    ended exactly as without the first restriction; at the other 192, ... 81 ended otherwise"
    with no command that drew those games; the command it names now, and from its
    `designer_restricted.csv` and rows: the games, those with and without `random` at the
    table, and how many of each gave `weighted` another result when it never passes."""
    import pandas as pd

    said = re.search(
        r"of the (\d+) games a restriction of `leaves variants ([^`]+)` under today's rules, "
        r"with `leaves run`'s field, the (\d+) where `random` does not sit gave `weighted` the "
        r"result it had without the first restriction; at the other (\d+), where `random` rolls "
        r"other dice, (\d+) gave the other result\)",
        doc_text("variants.md"),
    )
    assert said, "docs/variants.md no longer gives the restricted-play counts"
    out = tmp_path / "r"
    code, _, err = cli(capsys, "variants", *said[2].split(), "--jobs", "1", "--out", str(out))
    assert code == 0, err
    played = pd.read_csv(out / "default" / "designer_restricted.csv")
    played = played[(played.restriction == "no_pass") & (played.strategy == "weighted")]
    rows = pd.read_parquet(out / "default" / "games").set_index("game")
    seats = rows.loc[played.game, [c for c in rows.columns if c.startswith("seat_")]]
    with_random = (seats == "random").any(axis=1).to_numpy()
    other = (played.base_win != played.restricted_win).to_numpy()
    got = [len(played), (~with_random).sum(), with_random.sum(), other[with_random].sum()]
    assert other[~with_random].sum() == 0
    assert [int(x) for x in (said[1], said[3], said[4], said[5])] == [int(x) for x in got]


def test_the_variant_coverage_variants_md_quotes_is_the_reports_pages_table():
    """docs/variants.md quotes the calibration of its designers' measures from the benchmark
    lines docs/reports.md keeps: the runs of each design, the measures' and the differences'
    coverage (the "of which the designers measures" lines, design by design) and the ladder's
    pairs."""
    reports_page = doc_page("reports.md")
    lines = reports_page.split("    design ", 1)[1].split("\n\n", 1)[0].splitlines()
    runs = [re.search(r"\((\d+) runs\)$", x)[1] for x in lines if x.endswith(" runs)")]
    ours = [re.findall(r"(\d+\.\d)% \[", x) for x in lines if "of which the designers" in x]
    pairs = re.search(
        r"the two such pairs covered ([\d.]+)% \(\d+ of \d+ intervals\) and their differences "
        r"([\d.]+)%",
        " ".join(reports_page.split()),
    ).groups()
    said = re.search(
        r"last measured on (\d+), (\d+) and (\d+) runs of its three designs\): the designers' "
        r"measures covered ([\d.]+)%, ([\d.]+)% and ([\d.]+)% of the time, their differences "
        r"([\d.]+)%, ([\d.]+)% and ([\d.]+)%, .*?; the ladder's steps, .*? ([\d.]+)% and their "
        r"differences ([\d.]+)%\.",
        doc_text("variants.md"),
    )
    assert said and len(runs) == len(ours) == 3, (runs, ours)
    assert list(said.groups()) == [*runs, *(m for m, _ in ours), *(d for _, d in ours), *pairs]


def test_the_declarations_limits_architecture_md_gives_are_the_codes():
    """docs/architecture.md: `max_players` "at most 12, `tournaments.declaration.MAX_SEATS`",
    and "Ligretto's clock shows as `time_ms` at 600,000" among its "two safety limits"."""
    from ligretto.plugin import LigrettoGame
    from tournaments.declaration import MAX_SEATS

    text = doc_text("architecture.md")
    seats = re.search(r"`max_players` \(at most (\d+), `tournaments\.declaration\.MAX_SEATS`", text)
    clock = re.search(r"Ligretto's clock shows as `(\w+)` at ([\d,]+),", text)
    assert seats and clock and "Ligretto's two safety limits" in text
    assert int(seats[1]) == MAX_SEATS
    limits = LigrettoGame().limit_columns
    assert len(limits) == 2
    assert (clock[1], int(clock[2].replace(",", ""))) in limits.values(), limits
