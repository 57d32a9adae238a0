"""Engine spec strings: parsing, precise errors, and building engines from them."""

from __future__ import annotations

import pytest

from c4tui.engine.players.contract import Limits
from c4tui.engine.players.flat import FlatMonteCarloEngine
from c4tui.engine.players.greedy import GreedyEngine
from c4tui.engine.players.handicap import Handicapped
from c4tui.engine.players.negamax import NegamaxEngine
from c4tui.engine.players.random_player import RandomEngine
from c4tui.engine.players.specs import ENGINES, SpecError, make_engine, parse_spec


def test_a_bare_name_has_no_options():
    spec = parse_spec("greedy")
    assert (spec.name, spec.options, str(spec)) == ("greedy", {}, "greedy")


def test_options_are_typed_and_names_are_case_blind():
    spec = parse_spec(" NegaMax : depth=8 , time=2.5 ")
    assert spec.name == "negamax"
    assert spec.options == {"depth": 8, "time": 2.5}
    assert isinstance(spec.options["depth"], int)


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("chess", None, "unknown engine 'chess'"),
        ("", None, "unknown engine ''"),
        (
            "negamax:speed=3",
            "speed",
            "negamax: unknown setting 'speed' (allowed: depth, time, noise)",
        ),
        ("negamax:depth", "depth", "negamax: setting 'depth' should look like key=value"),
        ("negamax:depth=", "depth", "negamax: setting 'depth=' should look like key=value"),
        ("negamax:=3", None, "negamax: setting '=3' should look like key=value"),
        ("negamax:depth=8,", None, "negamax: setting '' should look like key=value"),
        ("negamax:depth=8,depth=9", "depth", "negamax: setting 'depth' is given twice"),
        ("negamax:depth=eight", "depth", "negamax: depth='eight' is not a whole number"),
        ("negamax:depth=2.5", "depth", "negamax: depth='2.5' is not a whole number"),
        ("negamax:depth=0", "depth", "negamax: depth=0 must be from 1 to 100"),
        ("negamax:depth=-3", "depth", "negamax: depth=-3 must be from 1 to 100"),
        ("negamax:time=-1", "time", "negamax: time=-1 must be more than 0 and at most 3,600"),
        ("negamax:time=0", "time", "negamax: time=0 must be more than 0"),
        ("negamax:time=nan", "time", "negamax: time='nan' is not a finite number"),
        ("negamax:time=inf", "time", "negamax: time='inf' is not a finite number"),
        ("flat:playouts=-5", "playouts", "flat: playouts=-5 must be from 1 to 1,000,000,000"),
        ("flat:playouts=0", "playouts", "flat: playouts=0 must be from 1 to 1,000,000,000"),
        ("flat:time=fast", "time", "flat: time='fast' is not a number"),
        ("flat:depth=3", "depth", "flat: unknown setting 'depth'"),
        ("greedy:noise=1.5", "noise", "greedy: noise=1.5 must be from 0 to 1"),
        ("greedy:noise=-0.1", "noise", "greedy: noise=-0.1 must be from 0 to 1"),
        ("greedy:time=1", "time", "greedy: unknown setting 'time' (allowed: noise)"),
    ],
)
def test_bad_specs_say_what_is_wrong_and_which_setting(text, key, message):
    with pytest.raises(SpecError) as caught:
        parse_spec(text)
    assert str(caught.value).startswith(message)
    assert caught.value.key == key


@pytest.mark.parametrize(
    "text",
    ["greedy", "mcts:time=2,c=1.4", "negamax:depth=8,time=0.5", "flat:playouts=300,noise=0.1"],
)
def test_a_spec_value_prints_as_the_text_it_came_from(text):
    spec = parse_spec(text)
    assert str(spec) == text
    assert parse_spec(str(spec)) == spec and hash(parse_spec(text)) == hash(spec)


def test_a_spec_value_is_written_plainly_whatever_the_spelling():
    spec = parse_spec(" MCTS : time=1.0 , c=0.1000 ")
    assert str(spec) == "mcts:time=1,c=0.1"
    assert parse_spec(str(parse_spec("mcts:c=0.123456789"))).options["c"] == 0.123456789


def test_replace_changes_adds_and_removes_settings_and_checks_them():
    spec = parse_spec("mcts:time=2,c=1.4")
    assert str(spec.replace(time=0.5)) == "mcts:time=0.5,c=1.4"
    assert str(spec.replace(time=None, iterations=300)) == "mcts:c=1.4,iterations=300"
    assert str(spec.replace(noise="0.25")) == "mcts:time=2,c=1.4,noise=0.25"
    assert spec.replace() == spec
    with pytest.raises(SpecError) as caught:
        spec.replace(c=-1)
    assert caught.value.key == "c"
    with pytest.raises(SpecError) as caught:
        spec.replace(depth=3)
    assert caught.value.key == "depth"


def test_make_engine_takes_a_spec_value_too():
    engine = make_engine(parse_spec("negamax:depth=3"), seed=1)
    assert isinstance(engine, NegamaxEngine) and engine.spec == "negamax:depth=3"


def test_unknown_engine_lists_the_known_ones():
    with pytest.raises(SpecError) as caught:
        make_engine("deepblue")
    for name in ENGINES:
        assert name in str(caught.value)


@pytest.mark.parametrize(
    ("text", "kind", "limits"),
    [
        ("random", RandomEngine, Limits()),
        ("greedy", GreedyEngine, Limits()),
        ("negamax:depth=6", NegamaxEngine, Limits(depth=6)),
        ("negamax:time=0.5", NegamaxEngine, Limits(time=0.5)),
        ("negamax:depth=4,time=2", NegamaxEngine, Limits(time=2.0, depth=4)),
        ("flat:playouts=300", FlatMonteCarloEngine, Limits(iterations=300)),
        ("flat:time=0.2", FlatMonteCarloEngine, Limits(time=0.2)),
    ],
)
def test_make_engine_builds_the_named_engine_with_its_budget(text, kind, limits):
    engine = make_engine(text, seed=1)
    assert isinstance(engine, kind)
    assert engine.name == parse_spec(text).name
    assert engine.spec == text
    assert engine.limits == limits


def test_engines_without_a_budget_get_a_default_one():
    assert not make_engine("negamax").limits.is_unbounded()
    assert not make_engine("flat").limits.is_unbounded()


def test_noise_wraps_the_engine_in_the_handicap():
    engine = make_engine("negamax:depth=2,noise=0.25", seed=3)
    assert isinstance(engine, Handicapped)
    assert engine.noise == 0.25
    assert engine.name == "negamax"
    assert engine.limits == Limits(depth=2)
    assert not isinstance(make_engine("greedy:noise=0"), Handicapped)


@pytest.mark.parametrize("bad", [{"time": -1}, {"iterations": 0}, {"depth": -2}])
def test_limits_refuse_non_positive_budgets(bad):
    with pytest.raises(ValueError, match="must be positive"):
        Limits(**bad)


def test_an_unknown_engine_lists_the_levels_there_are():
    from c4tui.engine.players.levels import LEVELS

    with pytest.raises(SpecError) as caught:
        parse_spec("foo")
    assert str(caught.value).endswith(f", level:1-{len(LEVELS)})")
    assert sorted(LEVELS) == list(range(1, len(LEVELS) + 1))


def test_a_spec_string_is_written_one_way():
    from c4tui.engine.players.specs import spec_text

    assert spec_text("greedy", ()) == "greedy"
    assert spec_text("mcts", [("time", 2.0), ("c", "1.40")]) == "mcts:time=2,c=1.40"
    assert str(parse_spec("mcts:c=1.4,time=2.0")) == "mcts:c=1.4,time=2"


def test_a_spec_strings_engine_name_is_read_one_way():
    from c4tui.engine.players.specs import split_name

    assert split_name(" NegaMax : depth=8") == ("negamax", " depth=8")
    assert split_name("perfect") == ("perfect", "")


def test_a_level_is_named_and_read_as_parse_spec_reads_it():
    from c4tui.engine.players.levels import LEVELS, level_name, level_title
    from c4tui.engine.players.specs import level_of

    assert (level_name(4), level_title(4)) == ("level:4", "Level 4")
    assert level_of(" Level: 4 ") == 4 and parse_spec(" Level: 4 ") == parse_spec(LEVELS[4])
    for other in ("mcts:time=1", "level:0", f"level:{max(LEVELS) + 1}", "level:x", "levels:2"):
        assert level_of(other) is None
