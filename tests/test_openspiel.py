"""13 Leaves as an OpenSpiel game (``interop.openspiel``) passes OpenSpiel's random simulation
test, with serialization, and plays through its MCTS and ISMCTS bots."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

from interop.observation import encode  # noqa: E402
from interop.openspiel import GAME_NAME, register  # noqa: E402

register()
register()  # a second call does nothing


def _deal(state, rng) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1) < 1e-12
        state.apply_action(int(rng.choice(outcomes, p=probs)))


@pytest.mark.parametrize("players", [3, 5])
def test_openspiels_random_simulation_test_with_serialization(players):
    game = pyspiel.load_game(f"{GAME_NAME}(players={players})")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_deal_is_chance_and_views_are_what_a_seat_sees():
    game = pyspiel.load_game(GAME_NAME)  # 4 players by default
    state = game.new_initial_state()
    _deal(state, np.random.default_rng(2))
    inner = state.state
    assert inner.hand_sizes == (11, 11, 11, 11) and state.current_player() == inner.current_player
    seat = state.current_player()
    assert np.array_equal(state.observation_tensor(seat), encode(inner.view(seat)))
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.legal_actions() == state.legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_a_game_plays_through_openspiels_mcts_and_ismcts_bots(players):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(f"{GAME_NAME}(players={players})")
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bots = [mcts.MCTSBot(game, 2.0, 16, evaluator, random_state=rs),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 16, random_state=rs)]  # fmt: skip
    bots += [pyspiel.make_uniform_random_bot(p, 3) for p in range(2, players)]
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0] * (players - 1) + [1.0], [0.0] * players)


def test_bad_settings_are_refused():
    with pytest.raises(Exception, match="players must be 3 to 6"):
        pyspiel.load_game(f"{GAME_NAME}(players=2)")


def test_our_strategies_play_as_openspiel_bots():
    from interop.openspiel import StrategyBot

    game = pyspiel.load_game(f"{GAME_NAME}(players=3)")

    def play(seed: int) -> list[int]:
        bots = [StrategyBot("weighted", seed), StrategyBot("random", seed),
                StrategyBot("greedy", seed)]  # fmt: skip
        state, rng = game.new_initial_state(), np.random.default_rng(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                _deal(state, rng)
            else:
                state.apply_action(bots[state.current_player()].step(state))
        return state.history()

    assert play(3) == play(3) and play(3) != play(4)


@pytest.mark.slow
def test_an_openspiel_bot_plays_in_a_gauntlet_from_the_runners_seeds(tmp_path):
    import pandas as pd

    import tournaments

    def run(name: str, jobs: int):
        res = tournaments.gauntlet("openspiel:bot=ismcts,max_simulations=6", ["random"], "low",
                                   players=3, games=24, seed=5, n_jobs=jobs, out=tmp_path / name)  # fmt: skip
        return res.games()

    pd.testing.assert_frame_equal(run("a", 1), run("b", 2))  # the same games, whatever --jobs


@pytest.mark.slow
def test_an_openspiel_bot_is_checked_like_any_strategy():
    from leaves.players.testing import check_strategy

    for bot in ("ismcts", "mcts"):
        check_strategy(f"openspiel:bot={bot},max_simulations=4", max_examples=5, games=1)
    with pytest.raises(ValueError, match="bot must be ismcts or mcts"):
        import strategies

        strategies.get("openspiel:bot=alphazero")


# ---------------------------------------------------------------------- rule variants
TWO_PLAYERS = "take:nothing;hand_size:7;deck:1/2/3/4/5/6/6/6/5/4/3/2/1;players:2-6"


@pytest.mark.parametrize(
    ("players", "rules"),
    [(4, "take:nothing"), (2, TWO_PLAYERS), (5, "min_count:off;take:ends")],
)
def test_openspiels_random_simulation_test_under_variants(players, rules):
    game = pyspiel.load_game(f"{GAME_NAME}(players={players},rules={rules})")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_follows_its_rules():
    import leaves

    today = pyspiel.load_game(GAME_NAME)
    assert today.num_distinct_actions() == leaves.N_ACTIONS and today.max_game_length() == 1000
    assert str(today) == f"{GAME_NAME}(players=4,rules=,turn_limit=1000)"
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "rules": TWO_PLAYERS.replace(";", ",")})
    assert game.num_distinct_actions() == leaves.rules.N_ACTION_IDS == 118
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    rules = game.rules
    assert rules.take == "nothing" and rules.hand_size_for(2) == 7
    rng = np.random.default_rng(3)
    for _ in range(5):  # the deal: 7 cards a seat from the rules' deck (its 1s at most once)
        state = game.new_initial_state()
        _deal(state, rng)
        inner = state.state
        assert inner.hand_sizes == (7, 7) and inner.rules == rules
        held = np.sum([inner.hands[s] for s in range(2)], axis=0)
        assert (held <= rules.deck).all()
    limited = pyspiel.load_game(f"{GAME_NAME}(rules=take:ends,turn_limit=40)")
    assert limited.max_game_length() == 40 and limited.rules.turn_limit == 40
    assert pyspiel.load_game(f"{GAME_NAME}(rules=turn_limit:50)").max_game_length() == 50


def test_a_value_with_no_copies_is_never_dealt():
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "rules": "deck=0/4/4/4/4/4/4/4/4/4/4/4/0"})
    state = game.new_initial_state()
    while state.is_chance_node():
        values = [v for v, _ in state.chance_outcomes()]
        if state.dealt < 3 * 12:  # a card of the deal, not the first player
            assert 0 not in values and 12 not in values
        state.apply_action(values[-1])


@pytest.mark.parametrize(
    ("game", "message"),
    [(f"{GAME_NAME}(players=2)", "players must be 3 to 6"),
     (f"{GAME_NAME}(players=6,rules=hand_size:12)", "players must be 3 to 5 under hand_size=12"),
     (f"{GAME_NAME}(rules=colour:red)", "unknown rule 'colour'"),
     (f"{GAME_NAME}(rules=turn_limit:50,turn_limit=60)",
      "turn_limit 60 and rules turn_limit=50 disagree: give one")],
)  # fmt: skip
def test_impossible_rules_are_refused(game, message):
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(game)


def test_our_strategies_and_openspiels_bots_play_under_variants():
    import strategies
    from interop.openspiel import StrategyBot

    for players, rules in ((3, "take:nothing"), (2, TWO_PLAYERS)):
        game = pyspiel.load_game(f"{GAME_NAME}(players={players},rules={rules})")
        bots = [StrategyBot("weighted", 1), StrategyBot("random", 2)][:players]
        bots += [StrategyBot("greedy", 3)] * (players - len(bots))
        state, rng = game.new_initial_state(), np.random.default_rng(1)
        while not state.is_terminal():
            if state.is_chance_node():
                _deal(state, rng)
            else:
                state.apply_action(bots[state.current_player()].step(state))
        for bot in ("ismcts", "mcts"):
            result = strategies.play_game(
                [f"openspiel:bot={bot},max_simulations=4"] + ["random"] * (players - 1),
                seed=4,
                rules=game.rules,
            )
            assert result.forfeit_seat is None, result.error
