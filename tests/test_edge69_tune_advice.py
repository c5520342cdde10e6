"""The tune headline where every candidate won what the start won. It said "no candidate
differed from the starting parameters" of a search that played k=4 beside the start's k=3
(their wins were equal, not their parameters), and called candidates within two steps of an
integer parameter "too small a step to change a decision": a whole unit changes the value the
strategy plays."""

from types import SimpleNamespace

from tuning.advice import headline


def _result(start: dict, tiny: bool) -> SimpleNamespace:
    settings = {"no_effect": True, "tiny_steps": tiny, "games_used": 384, "sigma0": 0.05}
    return SimpleNamespace(verification=None, settings=settings, spec="s", tuned_spec="s",
                           start=start)  # fmt: skip


def test_the_line_speaks_of_wins_not_of_the_parameters_tried():
    said = headline(_result({"knob": 0.5}, tiny=False))
    assert said == (
        "no candidate's wins differed from the start's over 384 games: the parameter(s) knob "
        "seem to change no decision"
    )


def test_whole_unit_steps_of_an_integer_are_never_called_too_small():
    said = headline(_result({"k": 3}, tiny=True))
    assert "too small" not in said
    assert said == (
        "no candidate's wins differed from the start's over 384 games: the parameter(s) k seem "
        "to change no decision so near the start; every candidate lay within 2 rounding steps "
        "of the start in each parameter (a first step, --sigma, of 0.05 of each range), and a "
        "larger --sigma tries values farther from it"
    )
    assert "too small" not in headline(_result({"k": 3, "w": 0.5}, tiny=True))


def test_steps_finer_than_a_decimal_parameter_are_still_too_small():
    said = headline(_result({"w": 0.5}, tiny=True))
    assert said.startswith("no candidate's wins differed from the start's over 384 games, but ")
    assert said.endswith("too small a step to change a decision, so nothing is known of what "
                         "the parameter(s) w change; raise --sigma")  # fmt: skip
