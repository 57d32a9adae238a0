"""Engine spec strings: parsing, precise errors, and building engines from them."""

from __future__ import annotations

import pytest

from c4tui.engine.flat import FlatMonteCarloEngine
from c4tui.engine.greedy import GreedyEngine
from c4tui.engine.handicap import Handicapped
from c4tui.engine.negamax import NegamaxEngine
from c4tui.engine.random_player import RandomEngine
from c4tui.engine.search import Limits
from c4tui.engine.specs import ENGINES, SpecError, make_engine, parse_spec


def test_a_bare_name_has_no_options():
    spec = parse_spec("greedy")
    assert (spec.name, spec.options, spec.text) == ("greedy", {}, "greedy")


def test_options_are_typed_and_names_are_case_blind():
    spec = parse_spec(" NegaMax : depth=8 , time=2.5 ")
    assert spec.name == "negamax"
    assert spec.options == {"depth": 8, "time": 2.5}
    assert isinstance(spec.options["depth"], int)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chess", "unknown engine 'chess'"),
        ("", "unknown engine ''"),
        ("negamax:speed=3", "negamax: unknown setting 'speed' (allowed: depth, time, noise)"),
        ("negamax:depth", "negamax: setting 'depth' should look like key=value"),
        ("negamax:depth=", "negamax: setting 'depth=' should look like key=value"),
        ("negamax:=3", "negamax: setting '=3' should look like key=value"),
        ("negamax:depth=8,", "negamax: setting '' should look like key=value"),
        ("negamax:depth=8,depth=9", "negamax: setting 'depth' is given twice"),
        ("negamax:depth=eight", "negamax: depth='eight' is not a whole number"),
        ("negamax:depth=2.5", "negamax: depth='2.5' is not a whole number"),
        ("negamax:depth=0", "negamax: depth=0 must be from 1 to 100"),
        ("negamax:depth=-3", "negamax: depth=-3 must be from 1 to 100"),
        ("negamax:time=-1", "negamax: time=-1 must be more than 0 and at most 3,600"),
        ("negamax:time=0", "negamax: time=0 must be more than 0"),
        ("negamax:time=nan", "negamax: time='nan' is not a finite number"),
        ("negamax:time=inf", "negamax: time='inf' is not a finite number"),
        ("flat:playouts=-5", "flat: playouts=-5 must be from 1 to 1,000,000,000"),
        ("flat:playouts=0", "flat: playouts=0 must be from 1 to 1,000,000,000"),
        ("flat:time=fast", "flat: time='fast' is not a number"),
        ("flat:depth=3", "flat: unknown setting 'depth'"),
        ("greedy:noise=1.5", "greedy: noise=1.5 must be from 0 to 1"),
        ("greedy:noise=-0.1", "greedy: noise=-0.1 must be from 0 to 1"),
        ("greedy:time=1", "greedy: unknown setting 'time' (allowed: noise)"),
    ],
)
def test_bad_specs_say_what_is_wrong(text, message):
    with pytest.raises(SpecError) as caught:
        parse_spec(text)
    assert str(caught.value).startswith(message)


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
