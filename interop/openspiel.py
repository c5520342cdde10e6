"""13 Leaves as an OpenSpiel game: ``register()`` adds ``python_13_leaves`` (parameters
``players``, the seats, 4 by default; ``rules``, the rule keys that differ from today's;
``turn_limit``), sequential, imperfect information.

``rules`` is text, ``""`` for today's rules, written ``key:value;key:value`` because an
OpenSpiel game string cannot hold ``=`` or ``,`` inside a parameter:
``python_13_leaves(players=2,rules=take:nothing;hand_size:7;players:2-6)``.
Given as a dict (``pyspiel.load_game(GAME_NAME, {"rules": "take=ends,hand_size=9"})``) the
``key=value,...`` form of ``leaves.Rules.parse`` is read too; the game writes its parameters
back in the first form, so its string and serialized states load again. ``players`` must be a
count the rules allow (3 to 6 today; 2 where the rules allow it). The ``turn_limit`` parameter
is sugar for that rule (``leaves.Rules.of_options``, as ``--turn-limit`` is): a ``turn_limit``
in the text counts when the parameter is left at today's, and the two disagreeing is refused.

The deal is chance, card by card as OpenSpiel's card games deal: one chance node per card
(the outcome is the card's value, weighted by the copies left in the rules' deck, so a value
with no copies is never dealt), seat after seat, the hand size the rules give the table, then
one for the first player (anything else applied there is refused: ``ValueError``). No seat
has a legal action at a chance node; ``max_chance_nodes_in_history`` counts them, the cards
dealt plus one. The undealt cards stay out of the game, as in ``leaves``. After that
the state is a ``leaves.State`` under the rules: actions are the pinned action ids, 117 of
them (``num_distinct_actions``), or 118 under ``take=nothing``, whose id 117 is the pass taking
nothing; returns are +1 for the winner and -1 for every other seat (0 for everyone in a game
stopped at the turn limit, which is also ``max_game_length``).

A seat's information state string is its hand now, the first player and every move since the
deal (all moves are public, so with them the hand now tells the hand dealt): perfect recall;
during the deal, its cards so far and how many cards have been dealt in all.
Its information state tensor holds the same in a fixed size (``Observer``): the seat one-hot,
its dealt hand per value, the count of cards dealt, the first player one-hot and the moves,
one row a move, one-hot its action id (``max_game_length`` x ``num_distinct_actions``; the
turn limit sets the rows).
Its observation string and tensor are its current view (``interop.observation``: the 145
entries of the PettingZoo observation; during the deal its cards so far and every seat's
count). Those are the observer types it gives: one seat's public and private information,
with or without perfect recall; a public-only or all-players observer is refused.
``resample_from_infostate`` draws hidden hands consistent with the seat's view
(``PlayerView.sample_state``; during the deal, the other seats' cards so far), which
OpenSpiel's ``ISMCTSBot`` needs.
"""

from __future__ import annotations

import base64
import pickle
from typing import Any

import numpy as np

import leaves
from gamekit.errors import shown
from gamekit.requirement import import_failure
from leaves import MAX_PLAYERS, N_VALUES, TURN_LIMIT, Action, PlayerView, Rules
from leaves.actions import ACTIONS_BY_ID
from leaves.deal import check_seed
from leaves.ruleset import FEWEST_PLAYERS, counts_text
from leaves.view import check_seat
from strategies import Strategy

from .agents import thirteen_leaves_strategy
from .hooks import GameSeats
from .search_params import check_search
from .spiel_observer import Observer
from .spiel_worlds import since_deal
from .variants import action_id, n_action_ids, openspiel_text, rules_text

try:
    import pyspiel
except ImportError as exc:  # one line for the user, whichever command needed it
    raise ImportError(import_failure(exc, "pyspiel", "OpenSpiel", "open_spiel")) from exc

__all__ = ["GAME_NAME", "OpenSpielAgent", "StrategyBot", "register"]

GAME_NAME = "python_13_leaves"
_DEFAULT_PLAYERS = 4

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="13 Leaves",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=leaves.MAX_PLAYERS,
    min_num_players=FEWEST_PLAYERS,  # where the rules allow 2
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": _DEFAULT_PLAYERS, "rules": "", "turn_limit": TURN_LIMIT},
)


class ThirteenLeavesGame(pyspiel.Game):
    """The game for ``players`` seats under ``rules``."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        limit = params["turn_limit"]  # always given: today's counts as not given
        text = params["rules"]  # not text (the class built directly): Rules.of's own error
        try:
            text = rules_text(text, form="key:value;key:value") if isinstance(text, str) else text
        except ValueError as exc:  # named as Rules.of_options names its errors
            raise ValueError(f"rules: {exc}") from None
        rules = Rules.of_options(text, None if limit == TURN_LIMIT else limit)
        n = action_id(params["players"])  # a whole number: int() would take 4.5 for 4
        if n is None or n not in rules.players:
            raise ValueError(
                f"players must be {counts_text(rules.players)}{rules.under()}, "
                f"got {shown(params['players'], typed=False)}"
            )
        info = pyspiel.GameInfo(num_distinct_actions=n_action_ids(rules),
                                max_chance_outcomes=N_VALUES, num_players=n, min_utility=-1.0,
                                max_utility=1.0, utility_sum=None,
                                max_game_length=rules.turn_limit)  # fmt: skip
        # the parameters as the game string writes them back (and serialization reads them)
        text = openspiel_text(rules.replace(turn_limit=TURN_LIMIT))
        super().__init__(_GAME_TYPE, info,
                         {"players": n, "rules": text, "turn_limit": rules.turn_limit})  # fmt: skip
        self.n_players, self.rules = n, rules
        self.deal_size = n * rules.hand_size_for(n)  # cards dealt: a chance node each

    def new_initial_state(self) -> ThirteenLeavesState:
        return ThirteenLeavesState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Every deal's: a node per card, then the first player (OpenSpiel's default, the turn
        limit, is no bound on them; ``max_history_length`` adds this to the turn limit)."""
        return self.deal_size + 1

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        if params:
            said = shown(params, typed=False)
            raise ValueError(f"observation parameters are not supported, got {said}")
        if iig_obs_type is not None and not (
            iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):  # a public-only observer would be handed the seat's hand, an all-players one less
            raise ValueError(
                f"{GAME_NAME} observes one seat's public and private information only, not "
                f"public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info.name}"
            )
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(perfect_recall=perfect, game=self)


class ThirteenLeavesState(pyspiel.State):
    """A deal in progress (chance), then a ``leaves.State``."""

    def __init__(self, game: ThirteenLeavesGame):
        super().__init__(game)
        self.n, self.rules = game.n_players, game.rules
        self.hands = [[0] * N_VALUES for _ in range(self.n)]
        self._deal_size = game.deal_size  # asked at every card
        self._ids = n_action_ids(self.rules)  # num_distinct_actions, asked at every move
        self.dealt = 0
        self.state: leaves.State | None = None
        self.first = -1
        self.moves: list[int] = []

    # the deal ------------------------------------------------------------------------------
    def _to_deal(self) -> int:
        return self._deal_size

    def _left(self) -> np.ndarray:
        return np.asarray(self.rules.deck) - np.sum(self.hands, axis=0)

    def current_player(self) -> int:
        state = self.state  # asked several times a move by OpenSpiel: kept short
        if state is None:
            return _CHANCE
        if state.is_terminal:
            return _TERMINAL
        return state.current_player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.state is not None:  # a seat's turn or the end, as OpenSpiel's own games refuse
            if self.state.is_terminal:
                raise ValueError("chance_outcomes: the game is over, not chance")
            raise ValueError(
                f"chance_outcomes: player {self.state.current_player} is to act, not chance"
            )
        if self.dealt < self._to_deal():
            left = self._left()
            return [(v, c / left.sum()) for v, c in enumerate(left) if c]
        return [(seat, 1.0 / self.n) for seat in range(self.n)]  # the first player

    def _legal_actions(self, player: int) -> list[int]:
        return sorted([action.id for action in self.state.legal_actions()])

    # OpenSpiel's bots ask these at every step; through its C++ each would call back into
    # this class several times. Answered here, as its C++ answers them (anything but the
    # legal actions of the player to act is left to it, its errors included), but for a seat
    # asked during the deal: none, as OpenSpiel's C++ games answer (its binding of a Python
    # game hands any player the chance outcomes).
    def legal_actions(self, *player: int) -> list[int]:
        state = self.state
        if (
            state is not None
            and not state.is_terminal
            and (not player or player[0].__class__ is int and player[0] == state.current_player)
        ):
            return self._legal_actions(state.current_player)
        if self._seat_during_deal(player):
            return []
        return pyspiel.State.legal_actions(self, *player)

    def legal_actions_mask(self, *player: int) -> list[int]:
        if self._seat_during_deal(player):
            return [0] * self.get_game().num_distinct_actions()
        return pyspiel.State.legal_actions_mask(self, *player)

    def _seat_during_deal(self, player: tuple) -> bool:
        """Whether ``player`` (the arguments of ``legal_actions``) asks for a seat at a chance
        node, where no seat acts."""
        seat = action_id(player[0]) if player else None  # a whole number, as a player id is
        return self.state is None and seat is not None and seat >= 0

    def is_chance_node(self) -> bool:
        return self.state is None

    def apply_action(self, action: Any) -> None:
        """OpenSpiel's, but what is no action id of this game (-1, which its C++ refuses as
        its invalid action in two lines, printed too; 4.5, text or a number past 64 bits,
        refused by its binding over several) is refused first, in one line, nothing changed."""
        if action.__class__ not in _WHOLE or not 0 <= action < self._ids:  # ids bound outcomes
            move = action_id(action)
            if move is None or not 0 <= move < self._ids:  # a whole number shown as one
                raise self._not_here(shown(action if move is None else move, typed=False))
            action = move
        _APPLY(self, action)

    def _not_here(self, action: Any) -> ValueError:
        """The error for ``action`` (shown), which is no move or chance outcome here."""
        if self.state is not None:
            return ValueError(_not_an_id(action, self._ids))
        outcomes = [outcome for outcome, _ in self.chance_outcomes()]
        return ValueError(f"{action} is not a chance outcome here; they are {outcomes}")

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self.state is not None:  # an Action is applied quicker than its id
            if not 0 <= action < self._ids:  # 117, today, would be the pass taking nothing
                raise self._not_here(action)
            self.state = self.state.apply(ACTIONS_BY_ID[action])
            self.moves.append(action)
            return
        if not self._is_outcome(action):  # nothing changes: a card not in the deck, no seat
            raise self._not_here(action)
        if self.dealt < self._to_deal():
            self.hands[self.dealt % self.n][action] += 1
            self.dealt += 1
        else:
            self.state = leaves.State.initial(self.hands, first_player=action, rules=self.rules)
            self.first = action

    def _is_outcome(self, action: int) -> bool:
        """Whether ``action`` is one of ``chance_outcomes()`` (without their probabilities,
        which each card of a deal played out again would pay for)."""
        if self.dealt < self._to_deal():  # a value with a copy left in the deck
            deck = self.rules.deck
            return 0 <= action < N_VALUES and sum(h[action] for h in self.hands) < deck[action]
        return 0 <= action < self.n  # the first player

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:  # a card's value, or a seat to play first
            dealing = self.dealt < self._to_deal()
            top = N_VALUES if dealing else self.n
            if not 0 <= action < top:
                raise ValueError(f"{action} is not a chance outcome of this game (0..{top - 1})")
            return f"deal {action + 1}" if dealing else f"first player {action}"
        # no name for an id the game lacks: -1 would name the last pass, 117 under today's
        # rules the pass taking nothing
        if not 0 <= action < self._ids:
            raise ValueError(_not_an_id(action, self._ids))
        return str(ACTIONS_BY_ID[action])

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.is_terminal

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.state.winner is None:
            return [0.0] * self.n
        return [1.0 if seat == self.state.winner else -1.0 for seat in range(self.n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the seat cannot tell from this one: the other hands drawn again,
        consistent with what the seat has seen (for ``ISMCTSBot``). Its history (and its
        serialization) is the drawn world's, dealt and played out afresh, not the true deal a
        copy of this state would carry; at a position set up by hand (no deal of the game
        gives it, or its moves are not known), it is empty, the world standing at the
        position. During the deal: the other seats' cards so far drawn again from the rest of
        the deck, the seat's own kept."""
        rng = np.random.default_rng(int(probability_sampler() * 2**53))
        if self.state is None:
            seat = check_seat(player_id, self.n)  # -1 would be the last seat's hand
            world = self.get_game().new_initial_state()
            world._deal_like(self.hands[seat], seat, self.dealt, rng)
            return world
        view = self.state.view(player_id)
        return self._played_out(view.sample_state(rng), view)

    def _deal_like(self, own: list[int], seat: int, cards: int, rng: np.random.Generator) -> None:
        """Deal ``cards`` cards on this fresh state: ``seat``'s turns give it its ``own`` cards
        (counts per value), the others' turns cards drawn from the rest of the deck."""
        mine = [v for v, c in enumerate(own) for _ in range(c)]
        rest = np.repeat(np.arange(N_VALUES), np.asarray(self.rules.deck) - own)
        theirs = list(rng.permutation(rest)[: cards - len(mine)])
        for i in range(cards):
            self.apply_action(int((mine if i % self.n == seat else theirs).pop()))

    def set_position(self, view: PlayerView, rng: np.random.Generator) -> None:
        """Stand where ``view`` stands, past the deal: its moves so far, the hidden hands
        drawn consistently with it (a bot searching from here never sees a hidden card).
        Only the position: the history stays empty (no deal to hide; quick for each search)."""
        self._stand_at(view.sample_state(rng), view)

    def _stand_at(self, world: leaves.State, view: PlayerView) -> None:
        """Stand at ``world`` (a state ``view`` cannot tell from its own), past the deal, with
        no history: its hands as dealt (the seat's own too), its first player and moves."""
        self.dealt = self._to_deal()
        self.state = world
        self.hands, self.first, moves = since_deal(world, view)
        self.moves = [action for _, action in moves]

    def _played_out(self, world: leaves.State, view: PlayerView) -> ThirteenLeavesState:
        """The state that deals ``world``'s hands as they were dealt (its hands now, with the
        public moves of ``view`` undone), card by card, seat after seat, draws its first
        player and plays the moves: the state ``apply_action`` would reach through that
        history, built at once from it (its serialization, with the fields set after). A
        position set up by hand (``State.initial`` of hands no deal of this game gives: an
        endgame; ``State.from_dict``, which keeps no moves) has no deal to play out: its world
        stands at the position, as ``set_position`` stands, with no history."""
        hands, first, moves = since_deal(world, view)
        if len(moves) < view.turn or any(  # its moves unknown, or not this game's deal
            sum(hand) * self.n != self._deal_size for hand in hands
        ):
            played = self.get_game().new_initial_state()
            played._stand_at(world, view)
            return played
        cards = [[v for v, c in enumerate(hand) for _ in range(c)] for hand in hands]
        n, size = self.n, self._deal_size
        history = [_DRAWN[cards[i % n][i // n]] for i in range(size)]  # seat after seat
        history.append(_DRAWN[first])
        history += [f"{seat}:{action}" for seat, action in moves]
        played = self.get_game().deserialize_state(
            f"history={','.join(history)}\nmove_number={len(history)}\n__dict__={_NO_FIELDS}"
        )
        played.hands, played.dealt, played.first = hands, size, first
        played.moves = [action for _, action in moves]
        played.state = world
        return played

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: {self.dealt} of {self._to_deal()} cards"
        return str(self.state)


def _not_an_id(action: int, ids: int) -> str:
    """Why ``action`` is refused as a move: not one of the game's ``ids`` action ids."""
    return f"{action} is not an action id of this game (0..{ids - 1})"


_CHANCE, _TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
_APPLY = pyspiel.State.apply_action
_WHOLE = frozenset({int, np.int64, np.int32})
"""The types of the ids OpenSpiel's bots apply (numpy's draw an ``int64``): checked at once."""
_DRAWN = tuple(f"{int(_CHANCE)}:{outcome}" for outcome in range(max(N_VALUES, MAX_PLAYERS)))
"""A chance outcome (a card's value, the first player) as a serialized history writes it."""
_NO_FIELDS = base64.b64encode(pickle.dumps({})).decode()
"""A serialized state's Python fields, none: a state built from its history sets them after."""


def register() -> None:
    """Register ``python_13_leaves`` with OpenSpiel (once a process; later calls do nothing)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, ThirteenLeavesGame)


class StrategyBot(pyspiel.Bot):
    """Any of our strategies (a spec, class or instance) as an OpenSpiel bot for
    ``python_13_leaves``: it sees the seat's view of the game's state and draws from a
    generator fixed by ``seed``; ``restart`` or ``restart_at`` (a new game: OpenSpiel's
    ``evaluate_bots`` starts each with it) gives it a fresh strategy a seat and its generator
    drawn from ``seed`` again, so a deal played again is the same game. The strategy's hooks
    run as ``interop.hooks`` says: ``end_game`` when a move it plays or is told of
    (``inform_action``) ends the game, else at the restart after, if the state it last saw
    has reached the end since."""

    def __init__(self, spec: Any, seed: int | None = None):
        super().__init__()

        self._base = thirteen_leaves_strategy(spec, "StrategyBot")
        self._seed = check_seed(seed, "seed", numpy_forms=False)  # drawn from again each game
        self._seen: ThirteenLeavesState | None = None  # the state it was last asked about
        self.restart()

    def restart(self) -> None:
        seen = self._seen
        if seen is not None and seen.is_terminal():  # played on in place to its end since
            self._seats.end(seen.state, seen.first)
        self._seats, self._seen = GameSeats(self._base, self._seed), None

    def restart_at(self, state: Any) -> None:
        """A new game (OpenSpiel's ``evaluate_bots`` calls it first): as ``restart``; the
        strategy reads the position from each state it is asked about."""
        self.restart()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Another seat's move: the game's end when it ends it."""
        if isinstance(state, ThirteenLeavesState) and state.state is not None:
            self._after(state, action)

    def step(self, state: ThirteenLeavesState) -> int:
        if not isinstance(state, ThirteenLeavesState):  # a state of another game, or none
            game = state.get_game() if isinstance(state, pyspiel.State) else None
            other = type(state).__name__ if game is None else game.get_type().short_name
            raise ValueError(f"StrategyBot plays {GAME_NAME}, not {other}")
        seat = state.current_player()
        if seat < 0:  # a chance node (no leaves.State yet) or the end: one line, not deep inside
            where = "the end of the game" if state.is_terminal() else "a chance node (the deal)"
            raise ValueError(f"StrategyBot.step needs a seat to play, not {where}")
        self._seen = state
        action = self._seats.choose(state.state, seat).id
        self._after(state, action)
        return int(action)

    def _after(self, state: ThirteenLeavesState, action: int) -> None:
        """End the game for the seats it plays when ``action``, a legal move at ``state``,
        ends it (anything else is left to ``apply_action`` to refuse)."""
        inner = state.state
        if not inner.is_terminal and action_id(action) in inner.legal_action_ids():
            after = inner.apply(ACTIONS_BY_ID[action])
            if after.is_terminal:
                self._seats.end(after, state.first)


class OpenSpielAgent(Strategy):
    """One of OpenSpiel's bots as a 13 Leaves strategy (spec
    ``openspiel:bot=ismcts,max_simulations=200``): ``ismcts`` (OpenSpiel's ISMCTSBot) or
    ``mcts`` (its MCTSBot, searching a deal drawn consistently with the seat's view, so it
    never sees a hidden card), both with random rollouts. Each decision searches from the
    seat's view, with a generator drawn from the seat's own: games replay from the seeds."""

    name = "openspiel"
    description = "an OpenSpiel bot (ismcts or mcts, random rollouts) searching from its view"
    classifier = {"stochastic": True, "search": True}

    def __init__(self, bot: str = "ismcts", max_simulations: int = 100, uct_c: float = 2.0):
        check_search(bot, max_simulations, uct_c)
        self._games: dict[tuple[int, Rules], Any] = {}

    def _game(self, view: PlayerView) -> Any:
        """The game of the view's table: its seats and its rules (the turn limit one of them)."""
        key = (view.n_players, view.rules)
        if key not in self._games:
            register()
            params = {"players": view.n_players, "rules": openspiel_text(view.rules)}
            self._games[key] = pyspiel.load_game(GAME_NAME, params)
        return self._games[key]

    def choose(self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
               ) -> Action:  # fmt: skip
        # start-up: only a bot of theirs needs it
        from open_spiel.python.algorithms import ismcts, mcts

        game = self._game(view)
        state = game.new_initial_state()
        state.set_position(view, rng)
        rs = np.random.RandomState(int(rng.integers(2**32)))
        p = self.params
        evaluator = mcts.RandomRolloutEvaluator(1, rs)
        if p["bot"] == "ismcts":
            bot = ismcts.ISMCTSBot(game, evaluator, p["uct_c"], p["max_simulations"],
                                   random_state=rs)  # fmt: skip
            # its worlds drawn from the same generator (its default sampler is not seeded)
            bot.set_resampler(lambda st, seat: st.resample_from_infostate(seat, rs.random_sample))
        else:
            bot = mcts.MCTSBot(game, p["uct_c"], p["max_simulations"], evaluator,
                               random_state=rs)  # fmt: skip
        return ACTIONS_BY_ID[int(bot.step(state))]
