"""A user strategy's parameter given ``none``: refused where its default is not None (the
strategy forfeited every game on it), kept where the default or the annotation is None."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import strategies
from strategies import registry
from tests.helpers import cli, doc_page, one_error_line


@pytest.fixture
def hoarder(tmp_path: Path) -> Iterator[Path]:
    """docs/strategies.md's my_strats.py (the Hoarder), written out; its name unregistered
    afterwards, so no other test meets it."""
    mine = re.findall(r"```python\n(.*?)```", doc_page("strategies.md"), re.S)[1]
    assert "class Hoarder(Strategy)" in mine and "max_count: int = 3" in mine
    path = tmp_path / "my_strats.py"
    path.write_text(mine, encoding="utf-8")
    registry.unregister("hoarder")  # examples/my_strategy.py's, if a test before loaded it
    yield path
    registry.unregister("hoarder")


@pytest.mark.parametrize(
    ("key", "kind"), [("max_count", "int"), ("keep_pairs", "bool")], ids=["int", "bool"]
)
def test_none_for_a_parameter_whose_default_is_not_none_is_refused(hoarder, key, kind):
    """``max_count=None`` was taken, then every game forfeited on ``a.count <= None``."""
    with pytest.raises(ValueError) as exc:
        strategies.get(f"{hoarder}:Hoarder:{key}=none")
    assert str(exc.value) == f"parameter {key!r} of strategy hoarder expects {kind}, got None"
    with pytest.raises(ValueError, match=f"^parameter {key!r} of strategy hoarder expects"):
        strategies.get(f"{hoarder}:Hoarder", **{key: None})


def test_none_on_the_command_line_is_one_line(hoarder, capsys, monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    monkeypatch.setenv("COLUMNS", "200")
    code, _, err = cli(capsys, "play", "--against", f"{hoarder}:Hoarder:max_count=none")
    assert code == 2
    assert one_error_line(err).endswith("parameter 'max_count' of strategy hoarder expects int, "
                                        "got None")  # fmt: skip


def test_a_built_in_refuses_none_in_the_same_words():
    with pytest.raises(ValueError) as exc:
        strategies.get("counter:threat_weight=none")
    assert str(exc.value) == "parameter 'threat_weight' of strategy counter expects float, got None"


MAYBE = '''
from __future__ import annotations

from typing import Optional

from strategies import Strategy


class Maybe(Strategy):
    """None is a value of each parameter here: a default of None, or an annotation naming it."""

    def __init__(self, seed=None, cap: int | None = 3, floor: Optional[int] = 1, most: int = 8):
        self.cap, self.floor = cap, floor

    def choose(self, view, legal, rng):
        return legal[0]
'''


def test_none_stays_a_value_where_the_default_or_the_annotation_is_none(tmp_path):
    """A default of None, or an annotation that names None (as text under ``from __future__
    import annotations``, as a type without it), makes None a value the class meant."""
    for future in (True, False):
        path = tmp_path / f"maybe_{future}.py"
        text = MAYBE if future else MAYBE.replace("from __future__ import annotations\n", "")
        path.write_text(text, encoding="utf-8")
        made = strategies.get(f"{path}:Maybe:seed=none,cap=none,floor=none")
        assert made.params == {"seed": None, "cap": None, "floor": None, "most": 8}
        with pytest.raises(ValueError, match="^parameter 'most' of strategy .* expects int, got"):
            strategies.get(f"{path}:Maybe:most=none")
