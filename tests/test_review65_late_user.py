"""A user's strategy file or module that raises a ``BaseException`` of its own (no
``Exception``, no exit, no Ctrl-C) as it is loaded is one line and exit 2, as any other error
of its is; Ctrl-C alone still stops the command, from a file or a module."""

from __future__ import annotations

import sys

import pytest

from tests.helpers import cli, one_error_line

ODD = "class Odd(BaseException):\n    pass\n\n\nraise Odd('not an Exception')\n"


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def test_a_file_raising_a_base_exception_of_its_own_is_one_line(tmp_path, capsys):
    path = tmp_path / "odd.py"
    path.write_text(ODD)
    code, out, err = cli(capsys, "strategies", "--load", str(path))
    assert code == 2 and out == ""
    said = f"leaves: error: --load: error while loading {path}: Odd: not an Exception"
    assert one_error_line(err) == said
    code, _, err = cli(capsys, "tournament", f"{path}:Mine", "greedy", "low", "--players", "3",
                       "--games", "6", "--jobs", "1", "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 2 and one_error_line(err) == said.replace("--load: ", "")


def test_a_module_raising_a_base_exception_of_its_own_is_one_line(tmp_path, monkeypatch):
    from strategies.user_code import load_class

    package = tmp_path / "late65pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "odd.py").write_text(ODD)
    (package / "stops.py").write_text("raise KeyboardInterrupt\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError) as caught:
        load_class("late65pkg.odd", "Mine")
    assert str(caught.value) == "cannot import module 'late65pkg.odd': Odd: not an Exception"
    with pytest.raises(KeyboardInterrupt):
        load_class("late65pkg.stops", "Mine")
    assert "late65pkg.odd" not in sys.modules and "late65pkg.stops" not in sys.modules
