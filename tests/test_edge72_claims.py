"""Every sentence a small real run prints, held against its own numbers and its rows.

Property-style: tiny tournaments (4 to 40 games, random beside strong strategies, one that
forfeits, a turn limit that leaves games unfinished, a --precision run), gauntlets (a baseline
that plays as the strategy does, random against strong fields, sequential tests at lax and
strict error rates), ``leaves compare`` of identical, re-ruled and re-seeded runs and a tiny
``leaves variants``. Each sentence is parsed and checked against the figures beside it (signs,
bounds inside the interval, p against the interval, plural words, counts that add up) and
against the run's own rows (the truth, counted here), never against the code that wrote it.
The slow exploration behind these cases stays out of the suite.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.helpers import cli, exit_code

BOOM = str(Path(__file__).with_name("boom_strategy.py")) + ":Boom"
FIGURE = r"[-+]?\d+(?:\.\d+)?"
SPAN = rf"\[({FIGURE}), ({FIGURE})\]"
ROW = re.compile(r"^│ (\S.*?) +│ +([\d,]+) │ +([\d,]+) │ +([\d.]+%|n/a) │(.*)│ +([\d,]+) │$", re.M)


def rows(out: Path) -> pd.DataFrame:
    """The run's per-game rows, labels as plain strings."""
    df = pd.concat([pd.read_parquet(f) for f in sorted((out / "games").glob("*.parquet"))])
    for col in [c for c in df if re.fullmatch(r"seat_\d+|winner", c)]:
        df[col] = df[col].astype(object)
    return df.reset_index(drop=True)


def seated(df: pd.DataFrame, label: str) -> pd.DataFrame:
    """Per game and seat, whether ``label`` sat there."""
    return df[[c for c in df if re.fullmatch(r"seat_\d+", c)]].eq(label)


def num(text: str) -> float:
    return float(text.replace(",", "").replace("+", ""))


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


# ----------------------------------------------------------------------------- tournaments
TOURNAMENTS = {
    "tiny, random beside strong": ["random", "greedy", "weighted", "--players", "3", "--games",
                                   "4", "--seed", "5"],
    "four seats, four strategies": ["low", "taker", "random", "counter", "--players",
                                              "4", "--games", "24", "--seed", "7"],
    "one strategy forfeits": ["greedy", "low", "random", BOOM, "--players", "3", "--games", "12",
                              "--seed", "3"],
    "games stopped at a turn limit": ["greedy", "weighted", "random", "--players", "3",
                                      "--games", "24", "--seed", "2", "--turn-limit", "30"],
    "precision": ["taker", "minimal", "random", "--players", "3", "--games", "24", "--seed",
                  "47", "--precision", "30", "--max-games", "120"],
}  # fmt: skip


def _summary_claims(said: str, df: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """Each summary row against the rows: seats, wins, win rate, forfeits; the interval holds
    the rate. Returns each strategy's printed interval (where it has one)."""
    spans = {}
    table = ROW.findall(said)
    assert {r[0] for r in table} == {x for c in df if c.startswith("seat_") for x in
                                     df[c].dropna().unique()}  # fmt: skip
    for name, seats, wins, rate, middle, forfeits in table:
        here = seated(df, name)
        won = int((df["winner"] == name).sum())
        assert num(seats) == here.values.sum() and num(wins) == won, name
        assert rate == f"{pct(won / here.values.sum())}%", name
        lost = df["forfeit"] & np.array([r[f"seat_{s}"] == name if s >= 0 else False
                                         for s, (_, r) in zip(df["forfeit_seat"], df.iterrows(),
                                                              strict=True)])  # fmt: skip
        assert num(forfeits) == lost.sum(), name
        span = re.search(SPAN, middle)
        if span:
            lo, hi = float(span.group(1)), float(span.group(2))
            assert lo <= float(rate.rstrip("%")) <= hi, (name, rate, span.group(0))
            spans[name] = (lo, float(rate.rstrip("%")), hi)
    return spans


@pytest.mark.parametrize("case", list(TOURNAMENTS))
def test_a_tournament_says_what_its_rows_hold(case, tmp_path, capsys):
    out = tmp_path / "t"
    code, said, err = cli(capsys, "tournament", *TOURNAMENTS[case], "--jobs", "1", "--out",
                          str(out))  # fmt: skip
    assert code in (0, 1), err
    df = rows(out)
    spans = _summary_claims(said, df)
    games = re.search(r"^([\d,]+) games in ", said, re.M)
    assert games and num(games.group(1)) == len(df)
    lost, stopped = int(df["forfeit"].sum()), int(df["unfinished"].sum())
    part = re.search(r"Partly forfeited: ([\d,]+) of ([\d,]+) games \((\S+)%\)", said)
    assert bool(part) == (0 < lost < len(df))
    if part:
        assert (num(part.group(1)), num(part.group(2))) == (lost, len(df))
        assert part.group(3) == pct(lost / len(df))
    for name, k in re.findall(r"Nothing valid from (\S+): it forfeited all ([\d,]+) of its", said):
        games_in = seated(df, name).any(axis=1)
        assert num(k) == games_in.sum() == (games_in & df["forfeit"]).sum(), name
    left = re.search(r"([\d,]+) (games?) \((\S+)%\) stopped unfinished", said)
    assert bool(left) == (stopped > 0)
    if left:
        assert num(left.group(1)) == stopped and left.group(3) == pct(stopped / len(df))
        assert (left.group(2) == "game") == (stopped == 1)
    _precision_claims(said, err, len(df), spans, "--precision" in TOURNAMENTS[case])


def _precision_claims(said: str, err: str, games: int, spans: dict, asked: bool) -> None:
    """--precision's last line: its games, its half-width the table's widest (an interval's
    farther side from its rate: +-POINTS holds on either side), 'reached' exactly where that is
    within the target; its last stage line the same."""
    m = re.search(r"precision \+-(\S+) percentage points (NOT )?reached(?: \([^)]*\))?: ([\d,]+) "
                  r"games, widest 95% half-width ([\d.]+)", said)  # fmt: skip
    assert bool(m) == asked, said
    if not m:
        return
    target, reached, half = float(m.group(1)), not m.group(2), float(m.group(4))
    assert num(m.group(3)) == games
    assert reached == (half <= target)
    far = max(max(hi - rate, rate - lo) for lo, rate, hi in spans.values())
    assert half == pytest.approx(far, abs=0.06)
    last = re.findall(r"^stage \d+: ([\d,]+) games, widest half-width (\S+)", err, re.M)[-1]
    assert num(last[0]) == games and float(last[1]) == half


# ------------------------------------------------------------------------------- gauntlets
GAUNTLETS = {
    "greedy against random, weighted's baseline": ["greedy", "--against", "random",
                                                   "--baseline", "weighted", "--players", "3",
                                                   "--games", "24", "--seed", "2"],
    "a baseline that plays alike": ["weighted", "--against", "taker", "--baseline",
                                    "weighted:w_pass=-18.7", "--players", "3", "--games", "24"],
    "random against a strong field": ["random", "--against", "taker,greedy", "--baseline",
                                      "counter", "--players", "3", "--games", "36"],
    "tiny": ["high", "--against", "weighted", "--baseline", "low", "--players", "4", "--games",
             "4"],
    "sequential, lax alpha: better": ["counter", "--against", "greedy", "--baseline", "random",
                                      "--players", "4", "--games", "4", "--seed", "4",
                                      "--sequential", "--margin", "50", "--max-games", "40",
                                      "--alpha", "0.45", "--beta", "0.01"],
    "sequential: not better, and worse": ["random", "--against", "greedy", "--baseline",
                                          "minimal", "--players", "3", "--games", "4", "--seed",
                                          "41", "--sequential", "--margin", "90",
                                          "--max-games", "40", "--alpha", "0.3", "--beta",
                                          "0.45"],
}  # fmt: skip


def _rates(said: str, df: pd.DataFrame, a: str, b: str) -> float:
    """The sentence of both win rates against the rows; returns the rows' difference."""
    m = re.search(rf"^{re.escape(a)} wins (\S+)% (?:{SPAN} )?of ([\d,]+) games(?: \([^)]*\))? "
                  rf"against .*?; {re.escape(b)}, in the same seats on the same deals, wins "
                  rf"(\S+)%(?: {SPAN})?", said, re.M)  # fmt: skip
    assert m, said
    mine, base = seated(df, a).any(axis=1), seated(df, b).any(axis=1)
    ra = (df["winner"][mine] == a).mean()
    rb = (df["winner"][base] == b).mean()
    assert num(m.group(4)) == mine.sum() == base.sum()
    assert m.group(1) == pct(ra) and m.group(5) == pct(rb)
    for value, lo, hi in ((m.group(1), m.group(2), m.group(3)), (m.group(5), *m.group(6, 7))):
        assert lo is None or float(lo) <= float(value) <= float(hi)
    return 100 * (ra - rb)


def _fixed_verdict(said: str, diff: float, deals: int) -> None:
    """'beats' only with an interval above 0 (or, with no spread, a sign test below 0.05),
    'loses to' below, else 'No significant difference'; the figure the rows' difference, the
    deals paired the rows' duplicate sets."""
    m = re.search(
        rf"^(?:\S+ (?P<verb>beats|loses to) |No significant difference between )"
        rf".*?(?P<fig>{FIGURE}) percentage points? (?:{SPAN} )?\((?:.*?)paired over "
        r"(?P<deals>[\d,]+) (?P<word>deals?), p (?:=|<) (?P<p>\S+)\)\.$",
        said,
        re.M,
    )
    if m is None:
        assert re.search(r"^Too few deals to compare", said, re.M), said
        return
    verb, figure, lo, hi = m["verb"] or "none", float(m["fig"]), m.group(3), m.group(4)
    p = float(m["p"])
    assert abs(abs(figure) - abs(diff)) < 0.06 and num(m["deals"]) == deals
    assert (m["word"] == "deal") == (deals == 1)
    if lo is not None:
        assert float(lo) <= figure <= float(hi) or float(lo) <= -figure <= float(hi)
        clear = not float(lo) <= 0 <= float(hi)
        assert clear == (p < 0.05) or abs(p - 0.05) < 0.006
    else:
        clear = p < 0.05
    claims = {"beats": clear and diff > 0, "loses to": clear and diff < 0}
    assert claims.get(verb, not clear or diff == 0), (verb, said)


def _sequential(said: str, err: str, diff: float) -> None:
    """The test's decision against its LLR and bounds, its notes against the interval, its
    batches against the progress lines, its estimate against the last of them."""
    m = re.search(r"\(0 against \+(\S+) percentage points?, (\d+) batch(es)?, (?:LLR (\S+)|[^,]*)"
                  r".*?, bounds (\S+) and (\S+)\)", said)  # fmt: skip
    assert m, said
    margin, batches, llr = float(m.group(1)), int(m.group(2)), m.group(4)
    low, high = float(m.group(5)), float(m.group(6))
    assert (batches != 1) == bool(m.group(3))
    lines = re.findall(rf"^batch \d+: ([\d,]+) games per side, difference ({FIGURE}) "
                       rf"percentage points?(?: {SPAN})?", err, re.M)  # fmt: skip
    assert len(lines) == batches
    est = re.search(rf": ({FIGURE}) percentage points? (?:{SPAN}|\([^)]*\)) over ([\d,]+) games",
                    said)  # fmt: skip
    assert abs(float(est.group(1)) - diff) < 0.06
    assert num(lines[-1][0]) == num(est.group(4))
    assert abs(float(lines[-1][1]) - float(est.group(1))) < 0.06
    lo, hi = (float(x) for x in est.group(2, 3)) if est.group(2) else (np.nan, np.nan)
    if " is better than " in said.split(":")[0]:
        assert float(llr) >= high and ("still includes 0" in said) == (lo <= 0)
    elif re.search(r"^\S+ is not .* better than", said, re.M):
        assert float(llr) <= low
        assert ("still reaches" in said) == (hi >= margin)
        assert ("is worse than" in said) == (hi < 0)
    elif llr:
        assert low < float(llr) < high


@pytest.mark.parametrize("case", list(GAUNTLETS))
def test_a_gauntlet_says_what_its_rows_hold(case, tmp_path, capsys):
    out = tmp_path / "g"
    code, said, err = cli(capsys, "gauntlet", *GAUNTLETS[case], "--jobs", "1", "--out",
                          str(out))  # fmt: skip
    assert code == 0, err
    df = rows(out)
    design = json.loads((out / "manifest.json").read_text())["spec"]["gauntlet"]
    a, b = design["strategy"], design["baseline"]
    diff = _rates(said, df, a, b)
    deals = int(df[seated(df, a).any(axis=1)].groupby(["table", "deal"]).ngroups)
    if "--sequential" in GAUNTLETS[case]:
        _sequential(said, err, diff)
    else:
        _fixed_verdict(said, diff, deals)


# -------------------------------------------------------------------------------- compare
FIELD = ["minimal", "high", "counter", "--players", "3", "--games", "96", "--jobs", "1"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """One run (A), the same again, under other rules, and with another seed."""
    base = tmp_path_factory.mktemp("edge72_compare")
    made = {"a": [], "same": [], "rules": ["--rules", "hand_size=9"], "seed": ["--seed", "55"]}
    for name, extra in made.items():
        seed = [] if "--seed" in extra else ["--seed", "54"]
        code = exit_code(["tournament", *FIELD, *seed, *extra, "--out", str(base / name)])
        assert code == 0
    return {name: base / name for name in made}


def _deals(df: pd.DataFrame) -> set[tuple[int, int]]:
    """The run's duplicate sets, each its deal seed at its table."""
    return set(zip(df["table"], df["deal_seed"], strict=True))


@pytest.mark.parametrize("alpha", ["0.05", "0.2"])
@pytest.mark.parametrize("other", ["same", "rules", "seed"])
def test_leaves_compare_says_what_its_rows_and_csv_hold(runs, other, alpha, tmp_path, capsys):
    code, said, err = cli(capsys, "compare", str(runs["a"]), str(runs[other]), "--alpha", alpha,
                          "--out", str(tmp_path))  # fmt: skip
    assert code == 0, err
    da, db = rows(runs["a"]), rows(runs[other])
    t = pd.read_csv(tmp_path / "compare.csv")
    shared = _deals(da) == _deals(db)
    paired = re.search(r"^(paired|unpaired)\b.*$", said, re.M)
    assert (paired.group(1) == "paired") == shared, paired.group(0)
    if shared:
        sets = re.search(r"paired over the ([\d,]+) duplicate sets?", paired.group(0))
        assert num(sets.group(1)) == len(_deals(da))
    else:
        dealt = re.search(r"A dealt ([\d,]+) deals?, B ([\d,]+)", paired.group(0))
        assert num(dealt.group(1)) == da["deal_seed"].nunique()
        assert num(dealt.group(2)) == db["deal_seed"].nunique()
    for r in t.itertuples():
        for df, rate in ((da, r.win_rate_a), (db, r.win_rate_b)):
            assert rate == pytest.approx((df["winner"] == r.strategy).sum()
                                         / seated(df, r.strategy).values.sum())  # fmt: skip
        assert r.diff == pytest.approx(r.win_rate_b - r.win_rate_a)
        assert not np.isfinite(r.ci_low) or r.ci_low <= r.diff <= r.ci_high
    _holm(t, float(alpha))
    _findings(said, t)


def _holm(t: pd.DataFrame, alpha: float) -> None:
    """The csv's Holm p-values recomputed, and 'significant' exactly below alpha."""
    p = t["p_value"].to_numpy()
    order, held, run = np.argsort(p), np.empty(len(p)), 0.0
    for k, i in enumerate(order):
        run = max(run, min(1.0, (len(p) - k) * p[i]))
        held[i] = run
    assert np.allclose(held, t["p_holm"], equal_nan=True)
    assert (t["significant"] == (t["p_holm"] < alpha)).all()


def _findings(said: str, t: pd.DataFrame) -> None:
    """The first line: 'no strategy changed' only where every difference is 0; 'no strategy
    changed significantly' only where none is significant, naming the largest; each 'wins N
    more/less in B' significant, of its sign and size."""
    head = said.splitlines()[2]
    if head.startswith("no strategy changed:"):
        assert (t["diff"] == 0).all()
        return
    if head.startswith("no strategy changed significantly"):
        assert not t["significant"].any()
        name = re.search(r"\(largest: (\S+) ", head).group(1)
        assert abs(t.set_index("strategy").loc[name, "diff"]) == t["diff"].abs().max()
        return
    named = re.findall(rf"(\S+) wins ({FIGURE}) percentage points? (more|less) in B", head)
    assert {n for n, _, _ in named} == set(t.loc[t["significant"], "strategy"]), head
    for name, size, way in named:
        d = 100 * t.set_index("strategy").loc[name, "diff"]
        assert (way == "more") == (d > 0) and abs(abs(d) - float(size)) < 0.06


# ------------------------------------------------------------------------------- variants
def test_leaves_variants_says_what_its_rows_hold(tmp_path, capsys):
    out = tmp_path / "v"
    code, said, err = cli(capsys, "variants", "greedy", "weighted", "--rules", "take=ends",
                          "--players", "3", "--games", "24", "--seed", "1", "--jobs", "1",
                          "--trace-games", "0", "--restricted-games", "0", "--out", str(out))  # fmt: skip
    assert code == 0, err
    df = rows(out / "default")
    m = re.search(r"Under the default rules.*?: games last (\S+) turns \((\S+) rounds\); the first "
                  r"player wins (\S+)% at 3 players \(fair share (\S+)%\); .*? (\S+) finishes ahead"
                  r" of random in (\S+)% of the games they share; the runner-up is left with (\S+) "
                  r"cards; (\S+)% of games end unfinished", said)  # fmt: skip
    assert m, said
    assert m.group(1) == f"{df['turns'].mean():.1f}" and m.group(2) == f"{df['rounds'].mean():.2f}"
    assert m.group(3) == pct((df["winner_seat"] == df["first_player"]).mean())
    assert m.group(4) == pct(1 / 3)
    assert m.group(6) == pct(np.mean(_ahead(df, m.group(5), "random")))
    cards = df[[c for c in df if c.startswith("cards_left_")]].to_numpy(float)
    second = [np.sort(r[~np.isnan(r)])[1] for r in cards]
    assert m.group(7) == f"{np.mean(second):.2f}" and m.group(8) == pct(df["unfinished"].mean())
    small = re.search(r"With take=ends, the runs are too small to tell any difference \(fewer "
                      r"than (\d+) degrees of freedom", said)  # fmt: skip
    dif = pd.read_csv(out / "variants_differences.csv")
    assert bool(small) == bool((dif["df"].dropna() < int(small.group(1) if small else 5)).all())


def _ahead(df: pd.DataFrame, a: str, b: str) -> list[bool]:
    """For each pair of seats of ``a`` and ``b`` at one game, whether ``a`` ended with fewer
    cards (a tie is no lead)."""
    out = []
    for _, r in df.iterrows():
        seats = {x: [i for i in range(6) if r.get(f"seat_{i}") == x] for x in (a, b)}
        out += [r[f"cards_left_{i}"] < r[f"cards_left_{j}"] for i in seats[a] for j in seats[b]]
    return out
