"""A class's classifier is checked when the class is made: a misspelt standard key
(``stocastic``) would otherwise become a key of its own, and ``leaves strategies --filter
stochastic=true`` would quietly leave the class out; a standard key holds a bool, or a filter
for ``True`` never matches it."""

from __future__ import annotations

import pytest

from strategies import Strategy
from tests.helpers import cli, usage_error


def test_a_near_spelling_of_a_standard_key_is_refused() -> None:
    with pytest.raises(ValueError, match=r"'stocastic'.*'stochastic'"):

        class Typo(Strategy, register=False):
            classifier = {"stocastic": True}


def test_a_standard_key_holds_a_bool() -> None:
    with pytest.raises(TypeError, match=r"'search'.*bool.*'yes'"):

        class Worded(Strategy, register=False):
            classifier = {"search": "yes"}


def test_a_classifier_is_a_dict_of_named_keys() -> None:
    with pytest.raises(TypeError, match="classifier must be a dict"):

        class Listed(Strategy, register=False):
            classifier = ["stochastic"]

    with pytest.raises(TypeError, match="classifier keys must be text"):

        class Numbered(Strategy, register=False):
            classifier = {1: True}


def test_a_class_may_add_keys_of_its_own() -> None:
    class Own(Strategy, register=False):
        classifier = {"stochastic": True, "search_depth": 3, "opening_book": False}

    assert Own.classifier["search_depth"] == 3
    assert Own.classifier["stochastic"] is True
    assert Own.classifier["search"] is False


def test_a_user_file_with_a_misspelt_key_is_one_line(capsys, tmp_path) -> None:
    path = tmp_path / "typo.py"
    path.write_text(
        "from strategies import Strategy\n\n"
        "class Typo(Strategy, register=False):\n"
        "    classifier = {'stocastic': True}\n\n"
        "    def choose(self, view, legal, rng):\n"
        "        return legal[0]\n"
    )
    line = usage_error(
        capsys,
        ["tournament", f"{path}:Typo", "random", "--games", "4", "--out", str(tmp_path / "out")],
    )
    assert "did you mean 'stochastic'" in line


@pytest.mark.parametrize("game", ["leaves", "ligretto"])
def test_every_strategy_of_every_game_has_the_standard_keys(game, capsys) -> None:
    """Ligretto's classifiers lacked 'search' and 'uses_card_counting', so '--filter
    search=false' matched none of its strategies, none of which searches."""
    from strategies import registry
    from strategies.base import CLASSIFIER_KEYS

    for name in registry.names(game):
        assert set(CLASSIFIER_KEYS) <= set(registry.get_class(name, game).classifier)
    code, out, err = cli(capsys, "strategies", "--game", game, "--filter", "search=false")
    assert code == 0 and "none of its" not in out + err, out + err
