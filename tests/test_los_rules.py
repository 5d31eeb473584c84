"""A ruleset's [los] table: the seeds' hooks as data, and clear messages for bad tables."""
from __future__ import annotations

import math

import pytest
import tomli

from engine.errors import BadFile
from engine.los.rules import DEFAULT_LOS_RULES, KindRule, load_los_rules, los_rules_from_dict

BLACK_WEDNESDAY = """
[los]
edge_rule = "both"
visibility_limit = 12

[los.kinds]
"peat bog" = { protective = true, rule = "Black Wednesday 1.1g" }

[[los.fixed_elevation]]
feature = "rr embankment"
elevation = 80.0
rule = "Black Wednesday 1.2a"

[[los.no_direct_fire]]
feature = "mill"
rule = "Black Wednesday 1.1f"
"""

LEROS = """
[los]
[los.height_override]
woods = { height = 5.0, rule = "Leros 1.1a" }

[los.sea_centre]
feature = "coast"
sea_kind = "sea"
elevation = 0.0
rule = "Leros 1.1e"

[[los.unit_elevation]]
feature = "pier"
elevation = 5.0
rule = "Leros 1.1e"

[los.unit_heights]
tank = 3.0
"""


def test_the_default_table():
    r = DEFAULT_LOS_RULES
    assert r.kind("woods").height == 20.0 and r.kind("town").height == 20.0 and r.kind("city").height == 20.0
    assert r.kind("bog").protective and not r.kind("bog").blocks
    assert r.kind("smoke").always and math.isinf(r.kind("smoke").top_above_ground)
    assert not r.kind("clear").blocks and r.edge_rule == "both"


def test_black_wednesday_hooks_as_data():
    r = los_rules_from_dict(tomli.loads(BLACK_WEDNESDAY)["los"], "bw.toml")
    assert r.visibility_limit == 12
    assert r.kind("peat bog") == KindRule(protective=True, rule="Black Wednesday 1.1g")
    assert r.fixed_elevation[0].feature == "rr embankment" and r.fixed_elevation[0].elevation == 80.0
    assert r.no_direct_fire == {"mill": "Black Wednesday 1.1f"}
    assert r.kind("woods").height == 20.0            # the defaults it did not restate are kept


def test_leros_hooks_as_data():
    r = los_rules_from_dict(tomli.loads(LEROS)["los"], "leros.toml")
    assert r.kind("woods").height == 5.0
    assert r.traced_kind("woods", 20.0).height == 5.0          # overrides what the map prints
    assert DEFAULT_LOS_RULES.traced_kind("woods", 15.0).height == 15.0
    assert (r.sea_centre.feature, r.sea_centre.elevation, r.sea_centre.rule) == ("coast", 0.0, "Leros 1.1e")
    assert r.unit_elevation[0].elevation == 5.0
    assert r.unit_height("tank", 0.0) == 3.0 and r.unit_height("infantry", 0.5) == 0.5


def test_a_bad_table_names_every_problem_with_key_path_and_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[los]\nedge_rule = "sometimes"\nobserver_height = -2\n'
                    '[los.kinds]\nwoods = { height = "tall" }\nbog = { protective = true, height = 3.0 }\n'
                    '[[los.fixed_elevation]]\nfeature = "rr embankment"\n', encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_los_rules(path)
    by_key = {p.key: p for p in e.value.problems}
    assert set(by_key) == {"los.edge_rule", "los.observer_height", "los.kinds.woods.height", "los.kinds.bog",
                           "los.fixed_elevation[0]"}
    assert "'sometimes' is not one of 'both', 'either'" in by_key["los.edge_rule"].message
    assert by_key["los.edge_rule"].line == 2
    assert by_key["los.kinds.woods.height"].line == 5
    assert "missing key 'elevation'" in by_key["los.fixed_elevation[0]"].message
    assert all(p.file == str(path) for p in e.value.problems)


def test_a_file_without_a_los_table_and_an_unknown_key(tmp_path):
    path = tmp_path / "none.toml"
    path.write_text("[rules]\nname = 'x'\n", encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_los_rules(path)
    assert "missing table [los]" in str(e.value)
    with pytest.raises(BadFile) as e:
        los_rules_from_dict({"edge_rules": "both"}, "x.toml")
    assert "los.edge_rules: unknown key" in str(e.value)
