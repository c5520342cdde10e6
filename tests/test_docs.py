"""The README is a front door and the docs stay true to the tree: no link to a file that is not
in the repository, an architecture table that names every package, a performance page whose
measured table only the benchmark writes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move detail to docs/"
    text = "\n".join(lines)
    for page in ("docs/rules-core.md", "docs/strategies.md", "docs/tournaments.md",
                 "docs/reports.md", "docs/tuning.md", "docs/ligretto.md", "docs/cli.md",
                 "docs/performance.md", "docs/architecture.md", "docs/variants.md",
                 "docs/research.md"):  # fmt: skip
        assert f"]({page})" in text, f"the README does not link {page}"


def test_every_link_points_into_the_repository():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor on the same page
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.exists() or ROOT not in path.parents and path != ROOT:
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to files that are not in the repository:\n" + "\n".join(broken)


def test_no_page_names_a_file_outside_the_repository():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "shared/" not in text and "seeds/" not in text, page.relative_to(ROOT)


def _package_table() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `([\w/]+)/` \|", text, flags=re.M)


def test_the_architecture_table_matches_the_tree():
    listed = set(_package_table())
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert packages <= listed, f"packages missing from docs/architecture.md: {packages - listed}"
    for entry in listed:
        assert (ROOT / entry).is_dir(), f"docs/architecture.md lists {entry}/, which is not there"
    for folder in ("benchmarks", "examples", "docs", "tests"):
        assert folder in listed


def test_the_performance_table_is_written_by_the_benchmark(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_all", ROOT / "benchmarks" / "bench_all.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    page = ROOT / "docs" / "performance.md"
    text = page.read_text(encoding="utf-8")
    assert bench.BEGIN in text and bench.END in text
    copy = tmp_path / "performance.md"
    copy.write_text(text, encoding="utf-8")
    bench.write_page("| what | figure |\n|---|---|\n| new | 1 s |\n", copy)
    after = copy.read_text(encoding="utf-8")
    assert "| new | 1 s |" in after
    assert after.split(bench.BEGIN)[0] == text.split(bench.BEGIN)[0]  # the text around stays
    assert after.split(bench.END)[1] == text.split(bench.END)[1]
