"""The arm: one way every deal of an experiment is played, compared with the others on the same seed.

An arm is assembled in one place (:meth:`krosbalance.sim.design.Experiment.arms_of`) from what the
experiment file declares: its name and options (``[[variants]]``, a ``[sweep]`` grid point, a
``[restricted]`` arm), its balance patch (the file's ``patch`` with the arm's own over it), what it
forbids to figures (restricted play, :mod:`krosbalance.sim.restricted`) and the Demonic Reward it
holds or buys (``held_rewards``, ``reward_holders``, ``purchase_rewards``,
:mod:`krosbalance.sim.reward_arms`; the fair-price sweep's ``<token>@<price>``). The expansion plays
every deal once per arm and seating (:mod:`krosbalance.sim.expansion`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from krosbalance.sim.reward_arms import variant_options as reward_variant_options
from krosbalance.sim.sweep import held_price


@dataclass(frozen=True, slots=True)
class Arm:
    """One arm: ``name`` (the option arm's, '' for the one unnamed arm), ``options`` (its merged
    options, canonical JSON), ``patch`` (canonical patch JSON, '' = the shipped cards), ``forbid``
    (restricted play as JSON, '' = none) and ``reward`` (the reward variant it holds or buys, '' =
    none). ``label`` is what the matches table records as ``variant``."""

    name: str
    options: str
    patch: str = ""
    forbid: str = ""
    reward: str = ""

    @property
    def label(self) -> str:
        """``name/reward`` (either alone when the other is '')."""
        return "/".join(part for part in (self.name, self.reward) if part)

    def options_json(self, swapped: bool) -> str:
        """The options JSON of one match of the arm, team A on side 1 when ``swapped`` (a reward
        arm's options depend on which side holds the token)."""
        return (
            variant_options(json.loads(self.options), self.reward, swapped) if self.reward else self.options
        )


def variant_options(options: Mapping[str, Any], variant: str, swapped: bool) -> str:
    """The options JSON of one match of a reward variant, team A being side 1 when ``swapped``: a
    token held at a price (``<id>@<kamas>`` / ``<id>@<n>gg``: the fair-price sweep, team A pays,
    :mod:`krosbalance.sim.sweep`), or the reward study's arms (held, held by a named Krosmaster,
    bought: :func:`krosbalance.sim.reward_arms.variant_options`); the baseline '' adds nothing."""
    token, price, unit = held_price(variant) if variant else ("", None, "")
    if price is None:
        return reward_variant_options(options, variant, swapped)
    merged = dict(options)
    merged["start_rewards"] = [[], [token]] if swapped else [[token], []]
    option = "start_reward_gg_prices" if unit == "gg" else "start_reward_prices"
    merged[option] = [[], [price]] if swapped else [[price], []]
    return json.dumps(merged, sort_keys=True, separators=(",", ":"))
