"""The report pages in a real browser, and what a reader sees on them: a run's report and a comparison of rule variants (a sweep
with the designers' measures) are opened in headless Chromium at a desktop and a phone width;
every image must have loaded (a PNG the browser decoded, not a broken icon) and no element may
reach past the page's width (a wide table scrolls inside its own box, which is allowed).
The browser tests are skipped, with the reason, where no Chromium is installed (Debian:
``apt-get install chromium``; ``.ci/run`` installs it where apt is available). The run
report's charts and tables say what the text says: seat positions as the seats table numbers
them, whole percentages, histogram bars centred on their values, every rating's interval in
figures, an orange fair-share tick called orange, every row of a short summary, each
strategy's closest opponent, a gauntlet's page called a gauntlet's, the meta-game in percent
and in the key findings."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

import reports
from reports.designer_measures import GAMES_FILE, RESTRICTED_FILE
from reports.synthetic import synthetic_games, write_run
from reports.variants import build_variants_report
from reports.variants_sweep import Sweep

pytestmark = pytest.mark.slow  # a browser renders every page

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--virtual-time-budget=10000")  # fmt: skip
CHECK = """<script>
window.addEventListener("load", () => {
  const width = document.documentElement.clientWidth;
  const images = [...document.images];
  const broken = images.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.alt);
  const scrolls = [...document.querySelectorAll(".tw")];
  const wide = [...document.body.querySelectorAll("*")].filter(e =>
      !scrolls.some(box => box.contains(e) && box !== e) &&
      e.getBoundingClientRect().right > width + 1)
    .map(e => e.tagName + (e.id ? "#" + e.id : "") + ": " + (e.textContent || "").slice(0, 60));
  const out = document.createElement("pre");
  out.id = "browser-check";
  out.textContent = JSON.stringify({width, images: images.length, broken, wide,
                                    page: document.documentElement.scrollWidth});
  document.body.appendChild(out);
});
</script>"""


def _browser() -> str | None:
    return next((path for b in BROWSERS if (path := shutil.which(b))), None)


needs_browser = pytest.mark.skipif(_browser() is None, reason="no Chromium installed (Debian: "
                                   "apt-get install chromium)")  # fmt: skip


def _check(page, tmp_path, width: int) -> dict:
    """Open ``page`` (with the check script added) in headless Chromium at ``width`` pixels
    and return what the script found."""
    probe = page.with_name(f"probe-{width}.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", CHECK + "</body>"),
                     encoding="utf-8")  # fmt: skip
    profile = tmp_path / f"profile-{width}"
    done = subprocess.run([_browser(), *FLAGS, f"--user-data-dir={profile}",
                           f"--window-size={width},900", "--dump-dom", probe.as_uri()],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    found = re.search(r'<pre id="browser-check">(.*?)</pre>', done.stdout, re.S)
    assert found, (done.returncode, done.stderr[-2000:])
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def _designer_files(run, games: pd.DataFrame, shift: float) -> None:
    """Designer files as the command writes them, from the synthetic games' own sets."""
    rng = np.random.default_rng(int(10 * shift) + 1)
    n = len(games)
    pd.DataFrame({"game": games["game"], "table": games["table"], "deal": games["deal"],
                  "n_players": games["n_players"], "finished": True,
                  "lead_changes": rng.poisson(3 + shift, n), "drama": rng.uniform(0, 0.6, n),
                  "comeback": rng.random(n) < 0.4, "decided_at": rng.uniform(0.5, 1, n)}
                 ).to_csv(run / GAMES_FILE, index=False)  # fmt: skip
    rows = games.head(240)
    for name, cost in (("no_pass", 0.0), ("single", 0.5)):
        pd.DataFrame({"game": rows["game"], "table": rows["table"], "deal": rows["deal"],
                      "n_players": rows["n_players"], "restriction": name,
                      "meaning": f"never does {name}", "strategy": "s0",
                      "base_win": (rng.random(len(rows)) < 0.6).astype(float),
                      "restricted_win": (rng.random(len(rows)) < 0.6 - cost).astype(float)}
                     ).to_csv(run / RESTRICTED_FILE, index=False, mode="a",
                              header=name == "no_pass")  # fmt: skip


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    base = tmp_path_factory.mktemp("browser")
    strengths = {f"s{i}": 0.3 - 0.1 * i for i in range(6)}
    spec = {"spec": {"seed": 3}}  # a run's manifest keeps its settings under spec
    run_page = reports.build_report(write_run(base / "run", synthetic_games(
        strengths, players=(3, 4), deals=12, seed=3, seating="balanced"), manifest=spec),
        out=base / "report")  # fmt: skip
    runs = []
    for i, label in enumerate(("default", "hand_size=9", "hand_size=10")):
        games = synthetic_games({k: v * (1 + 0.3 * i) for k, v in strengths.items()},
                                players=(4,), deals=12, seed=3, seating="balanced")  # fmt: skip
        run = write_run(base / label, games, manifest=spec)
        _designer_files(run, games, 0.5 * i)
        runs.append((label, run))
    sweep = Sweep("hand_size", [("9", "hand_size=9"), ("10", "hand_size=10"), ("11", "default")])
    variants_page = build_variants_report(runs, base / "variants", sweep=sweep)
    return {"run": run_page, "variants": variants_page}


@needs_browser
@pytest.mark.parametrize("which", ["run", "variants"])
@pytest.mark.parametrize("width", [1280, 420])
def test_every_image_loads_and_nothing_overflows(pages, tmp_path, which, width):
    got = _check(pages[which], tmp_path, width)
    drawn = pages[which].read_text(encoding="utf-8").count("<img ")
    assert got["images"] == drawn >= (6 if which == "run" else 12), got
    assert got["broken"] == [], got
    assert got["wide"] == [], got


@needs_browser
def test_the_check_sees_a_broken_image_and_an_overflow(tmp_path):
    """The check itself can fail: a page with an image that does not decode and a block wider
    than the window, next to a wide table in its scrolling box (allowed), is reported."""
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html><body style="margin:0"><img alt="bad" src="data:image/png;base64,'
        'AAAA"><div id="wide" style="width:3000px">x</div><div class="tw" style="overflow-x:'
        'auto;max-width:100%"><table><tr><td style="width:4000px">ok</td></tr></table></div>'
        "</body></html>", encoding="utf-8")  # fmt: skip
    got = _check(page, tmp_path, 800)
    assert got["broken"] == ["bad"]
    assert [w.split(":")[0] for w in got["wide"]] == ["DIV#wide"], got


# ------------------------------------------------------------ the run report, legible


@pytest.fixture(scope="module")
def ten():
    games = synthetic_games({f"s{i}": 0.1 * i - 0.5 for i in range(10)}, players=(4,),
                            deals=6, seed=2, seating="balanced")  # fmt: skip
    run = reports.as_run(games)
    tables, _ = reports.compute_tables(run)
    return run, tables


def test_the_seat_chart_numbers_positions_as_its_table_in_whole_percent(ten):
    from reports import charts

    _, tables = ten
    ax = charts.seat_advantage(tables["seats"]).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0 (first)", "1", "2", "3"]
    assert sorted(tables["seats"]["position"].unique().tolist()) == [0, 1, 2, 3]
    assert ax.yaxis.get_major_formatter()(0.27, 0) == "27%"


def test_length_bars_are_centred_on_their_values(ten):
    from matplotlib.patches import StepPatch

    from reports import charts

    _, tables = ten
    ax = charts.length_distribution(tables["lengths_hist"], "turns").axes[0]
    edges = next(p for p in ax.patches if isinstance(p, StepPatch)).get_data().edges
    assert np.allclose(edges % 1, 0.5)  # a game of 40 turns is drawn over 39.5-40.5


def test_every_rating_shows_its_interval_in_figures(ten):
    from reports import charts
    from reports.rating import rating_digits

    _, tables = ten
    texts = [t.get_text() for t in charts.rating(tables["rating"]).axes[0].texts]
    r, k = tables["rating"].iloc[0], rating_digits(tables["rating"])  # the table's decimals
    assert len(texts) == 10 and texts[-1] == (
        f"{r['rating']:+.{k}f} [{r['ci_low']:+.{k}f}, {r['ci_high']:+.{k}f}]")  # fmt: skip


def test_the_fair_share_tick_is_the_orange_the_text_names(ten):
    from matplotlib.colors import to_hex

    from reports import charts
    from reports.sections import LEADS

    _, tables = ten
    from matplotlib.collections import PathCollection

    ax = charts.win_rates(tables["summary"]).axes[0]
    tick = next(c for c in ax.collections if isinstance(c, PathCollection))  # the scatter
    assert to_hex(tick.get_edgecolor()[0]) == charts.OKABE_ITO[1].lower() == "#e69f00"
    assert "orange tick is the fair share" in LEADS["summary"] and "red" not in LEADS["summary"]


def test_short_tables_show_every_row_and_head_to_head_each_closest_pair(ten):
    from reports.page import key_rows

    _, tables = ten
    top, caption = key_rows("summary", tables["summary"])
    assert len(top) == 10 and caption == ""
    h2h = tables["head_to_head"]
    top, caption = key_rows("head_to_head", h2h)
    assert caption == "each strategy against its closest opponent: 10"
    assert sorted(top["strategy"]) == sorted(h2h["strategy"].unique())
    for name, grp in h2h.groupby("strategy"):
        closest = grp.loc[(grp["score"] - 0.5).abs().idxmin(), "opponent"]  # ties count half
        assert top[top["strategy"] == name]["opponent"].iloc[0] == closest


def test_a_gauntlets_page_is_titled_as_one(ten):
    from reports.data import Run
    from reports.report import _title

    run, _ = ten
    spec = {"gauntlet": {"strategy": "s9", "baseline": "s8", "field": ["s0"]}}
    assert _title(Run(games=run.games, manifest={"name": "g", "spec": spec})) == (
        "Gauntlet report: g")  # fmt: skip
    assert _title(Run(games=run.games, manifest={"name": "t"})) == "Tournament report: t"


def test_the_meta_game_reads_in_percent_and_reaches_the_findings():
    from reports.findings import metagame_finding
    from reports.metagame_text import readable

    mix = pd.DataFrame({"strategy": ["a", "b", "c"], "weight": [0.6, 0.4, 0.0],
                        "ci_low": [0.5, 0.3, 0.0], "ci_high": [0.7, 0.5, 0.02],
                        "in_support": [1.0, 1.0, 0.1], "gain": [0.0, 0.0, -0.012],
                        "regret": 0.0, "replicates": 200, "same_support": 0.95,
                        "at_rest": True})  # fmt: skip
    shown = readable("metagame_mix", mix)
    assert shown["weight"].tolist() == ["60.0%", "40.0%", "0.0%"]
    assert shown["gain"].iloc[2] == "-1.2 pp" and shown["replicates"].iloc[0] == 200
    payoffs = pd.DataFrame({"deal_sets": [20]})
    (found,) = metagame_finding({"metagame_mix": mix, "metagame_payoffs": payoffs})
    assert found.text.startswith(
        "Meta-game: the stable mix of strategies is a 60.0% [50.0, 70.0] and b 40.0% [30.0, "
        "50.0] (")  # fmt: skip
    assert metagame_finding({}) == []
