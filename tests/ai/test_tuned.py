"""The tuned AIs (issue 18, item 2): their weights come from krosbalance/ai/data/tuned.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from krosbalance.ai.registry import ai_tier, get_ai, list_ais
from krosbalance.ai.skilled import skilled_weights
from krosbalance.ai.tuned import TUNED, TUNED_FILE, Kiter3AI, KiterRaceAI, tuned_weights
from krosbalance.errors import ContentError
from krosbalance.play import play_match


def _file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "tuned.toml"
    path.write_text('[kiter-3]\nbase = "kiter-2"\nsource = "test"\n' + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ("sefety = 1.0\n", "kiter-3.sefety", "not a Weights field"),
        ("safety = true\n", "kiter-3.safety", "expected float"),
        ('safety = "high"\n', "kiter-3.safety", "expected float"),
        ("kite = 1.0\n", "kiter-3.kite", "expected bool"),
    ],
)
def test_a_bad_tuned_field_is_one_line_naming_file_and_field(
    tmp_path: Path, body: str, field: str, reason: str
) -> None:
    path = _file(tmp_path, body)
    with pytest.raises(ContentError) as caught:
        tuned_weights("kiter-3", path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {field}: {reason}")


def test_a_tuned_entry_with_an_unknown_base_or_none_is_a_content_error(tmp_path: Path) -> None:
    path = tmp_path / "tuned.toml"
    path.write_text('[kiter-3]\nbase = "nobody-2"\n', encoding="utf-8")
    with pytest.raises(ContentError, match="kiter-3.base: unknown base"):
        tuned_weights("kiter-3", path)
    with pytest.raises(ContentError, match="no such AI"):
        tuned_weights("kiter-9", path)
    path.write_text("[kiter-3]\nsafety = 1.0\n", encoding="utf-8")
    with pytest.raises(ContentError, match="kiter-3.base: missing"):
        tuned_weights("kiter-3", path)


def test_the_tuned_weights_follow_the_file(tmp_path: Path) -> None:
    path = _file(tmp_path, "safety = 0.55\nkill = 1.7\n")
    weights = tuned_weights("kiter-3", path)
    base = skilled_weights("kiter-2")
    assert (weights.safety, weights.kill) == (0.55, 1.7)
    assert weights.focus == base.focus and weights.deny == base.deny and weights.kite == base.kite


def test_kiter3_plays_the_weights_of_the_shipped_file() -> None:
    """Read independently of the loader: a change of tuned.toml that the AI does not follow fails."""
    with TUNED_FILE.open("rb") as handle:
        entry = tomllib.load(handle)["kiter-3"]
    weights = Kiter3AI(np.random.default_rng(0)).weights
    base = skilled_weights(entry["base"])
    tuned = {k: v for k, v in entry.items() if k not in ("base", "source")}
    assert tuned, "tuned.toml sets no weight of kiter-3"
    for field, value in tuned.items():
        assert getattr(weights, field) == pytest.approx(value), field
    for field in base.__dataclass_fields__:
        if field not in tuned:
            assert getattr(weights, field) == getattr(base, field), field
    assert weights != base  # tuning changed something: kiter-3 is not kiter-2 under another name
    assert entry["source"].startswith("tuned:")


def test_kiter3_is_a_registered_heuristic_that_plays_a_match() -> None:
    assert "kiter-3" in list_ais("arena") and ai_tier("kiter-3") == "heuristic"
    assert [cls(np.random.default_rng(0)).name for cls in TUNED][0] == "kiter-3"
    assert isinstance(get_ai("kiter-3", "arena")(np.random.default_rng(1)), Kiter3AI)
    from krosbalance.tools.diagnostics import box_deals

    ((team0, team1, seed),) = box_deals(1, 3)
    result = play_match(team0, team1, board="arena-elemental", ai=("kiter-3", "kiter-2"), seed=seed)
    assert result.winner in (0, 1, None) and result.turns > 0


def test_kiter_race_prices_the_gg_race_with_the_shipped_weights() -> None:
    """kiter-race is kiter-2 with the race weights of tuned.toml (read independently of the loader),
    each of them higher than kiter-2's: the tension dice refunded, kamas picked up and walks to a
    Demon cell weigh more (issue 18, item 3)."""
    with TUNED_FILE.open("rb") as handle:
        entry = tomllib.load(handle)["kiter-race"]
    weights = KiterRaceAI(np.random.default_rng(0)).weights
    base = skilled_weights(entry["base"])
    changed = {k: v for k, v in entry.items() if k not in ("base", "source")}
    assert set(changed) == {"refund", "kama", "economy"}
    for field, value in changed.items():
        assert getattr(weights, field) == pytest.approx(value) and value > getattr(base, field), field
    for field in base.__dataclass_fields__:
        if field not in changed:
            assert getattr(weights, field) == getattr(base, field), field
    assert entry["source"].startswith("measured:")
    assert ai_tier("kiter-race") == "heuristic" and isinstance(
        get_ai("kiter-race")(np.random.default_rng(0)), KiterRaceAI
    )


def test_r_a28_kiter_race_refunds_the_tension_dice_kiter_2_spends_on_inspiration() -> None:
    """Anna Tommy in melee with Oscar Kass: kiter-2 gives her Critical and Armour (R-A27); kiter-race,
    pricing a refunded kama as the GG race does, takes the 3 kamas of two unassigned dice (R-A28)."""
    from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
    from krosbalance.engine.view import MatchView
    from krosbalance.testing.scenario import Scenario

    sc = Scenario("\n".join([" ".join(["."] * 7)] * 7))
    anna = sc.add("anna_tommy", 0, (2, 2))
    sc.add("bill_tell", 0, (1, 0))
    sc.add("oscar_kass", 1, (3, 2))
    sc.add("lil_healey", 1, (5, 5))
    view = MatchView(sc.state, 0)
    options = [(CRITICAL, ARMOUR), (CRITICAL, DODGE), (ARMOUR, LOCK), (CRITICAL, LOCK)]
    spent = get_ai("kiter-2")(np.random.default_rng(0)).choose_tension(view, (4, 5), options)
    kept = get_ai("kiter-race")(np.random.default_rng(0)).choose_tension(view, (4, 5), options)
    assert spent.assigned == (anna.uid, anna.uid)
    assert kept.assigned == (-1, -1)
