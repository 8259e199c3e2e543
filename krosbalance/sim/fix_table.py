"""The ``[fix]`` table of an experiment file, and the card values (knobs) a fix may change.

The fix finder (:mod:`krosbalance.studies.patches.fixer`) reads an experiment file with a ``[fix]``
table; the experiment file's parser checks that table with :func:`parse_fix`, so ``validate``
refuses what the fix finder would. A knob's patch is a patch's application to content (an arm's
part), so it lives here beside :mod:`krosbalance.sim.patches`::


        [fix]
        band = 0.15                  # every figure's strength within ±band log-odds (default 0.15)
        fields = ["hp", "spells.ap_cost"]
                                     # which card values may change: hp, ap, mp, initiative, and
                                     # spells.<field> (ap_cost, amount, range_max: every spell of the
                                     # figure that has the value, one knob per spell)
        figures = "all"              # or a list: only these figures' values may change
        step = { hp = 2 }            # probe: each (figure, field) arm plays the value + step
        max_change = { hp = 2 }      # the proposal changes a value by at most this (default: the step,
                                     # so the fit is never extrapolated past what the probe played)
        max_share = 0.25             # ... and by at most this share of the printed value (at least 1):
                                     # a 6-HP figure moves by 1, a 12-HP one by 3 (default 0.25)
        verify_deals = 4             # deals per pairing of the verification run (default: the file's)
        verify_ais = [{ ai = "mcts-race", deals = 10 }, "lookahead-fast"]
                                     # stronger AIs added to the verification only (a name: one deal per
                                     # pairing and board; a table: its deals): is the fix still a fix
                                     # under better play?
        verify_half_width = 0.15     # the strongest of them plays rounds of its deals until every
        verify_max_deals = 60        # figure's strength in both arms is this precise (log-odds), or
                                     # the cap (default 20 rounds)
        slopes = "shared"            # one slope per field for every figure (default; 8x the data of
                                     # each), or "per_figure"; a spell's slope is always its figure's
        forbid = ["bill_tell.hp"]    # values the designer will not change ("figure.field",
                                     # "figure.spells.<spell>.<field>", or a whole "figure")
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from krosbalance.ai.registry import ai_problem
from krosbalance.content.registry import default_registry
from krosbalance.errors import ContentError, ExperimentError
from krosbalance.sim.design import Experiment
from krosbalance.sim.patches import CHARACTER_FIELDS, MINIMUM, UPPER, Patch, parse_patch

FIX_KEYS: tuple[str, ...] = (
    "band",
    "fields",
    "figures",
    "step",
    "max_change",
    "max_share",
    "verify_deals",
    "verify_ais",
    "verify_half_width",
    "verify_max_deals",
    "slopes",
    "forbid",
    "rounds",
)
SLOPES: tuple[str, ...] = ("shared", "per_figure")
DEFAULT_BAND = 0.15
DEFAULT_STEP: dict[str, int] = {"hp": 2, "ap": 1, "mp": 1, "initiative": 2}
#: spell values a fix may change (``spells.<field>`` in ``fields``): one knob per spell that has it
SPELL_KNOBS: tuple[str, ...] = ("ap_cost", "amount", "range_max")
#: the lowest value a changed spell value may take (a damage spell keeps some damage; a ranged
#: spell some range; a spell may become free, as in the issue's "Transposition AP 1 -> 0")
SPELL_MINIMUM: dict[str, int] = {"ap_cost": 0, "amount": 1, "range_max": 1}
DEFAULT_SHARE = 0.25
DEFAULT_ROUNDS = 2
MAX_ROUNDS = 4
SEED_STRIDE = 10
"""Round r's probe plays on ``master_seed + SEED_STRIDE * (r - 1)``, its verification one above."""


@dataclass(frozen=True)
class FixSpec:
    """The ``[fix]`` table, validated."""

    band: float = DEFAULT_BAND
    fields: tuple[str, ...] = ("hp",)
    figures: tuple[str, ...] = ()  # () = every figure of the experiment
    step: Mapping[str, int] = field(default_factory=dict)
    max_change: Mapping[str, int] = field(default_factory=dict)
    verify_deals: int = 0
    slopes: str = "shared"
    max_share: float = DEFAULT_SHARE
    verify_ais: tuple[str, ...] = ()
    forbid: tuple[tuple[str, str], ...] = ()  # (figure, knob) the designer will not change
    rounds: int = DEFAULT_ROUNDS
    verify_ai_deals: tuple[int, ...] = ()  # deals of each of ``verify_ais`` (default 1 each)
    verify_half_width: float = (
        0.0  # > 0: the strongest verify AI plays rounds until every figure is this precise
    )
    verify_max_deals: int = 0  # that AI's cap in deals per pairing and board (0: 20 rounds)

    def step_of(self, name: str) -> int:
        """The probe's step of a field (``hp``) or a spell knob (``spells.<spell>.ap_cost``)."""
        key = field_key(name)
        return int(self.step.get(key, DEFAULT_STEP.get(key, 1)))

    def bound_of(self, name: str, printed: int | None = None) -> int:
        """The largest change the proposal may make to the value: ``max_change`` (default the step)
        and, given the printed value, ``max_share`` of it (at least 1)."""
        key = field_key(name)
        bound = int(self.max_change.get(key, self.step_of(name)))
        if printed is not None:
            bound = min(bound, max(1, int(self.max_share * abs(printed))))
        return bound


def field_key(name: str) -> str:
    """The ``fields`` entry a knob comes from: ``spells.plaguing_arrow.ap_cost`` -> ``spells.ap_cost``."""
    parts = name.split(".")
    return f"spells.{parts[-1]}" if parts[0] == "spells" and len(parts) == 3 else name


def is_spell_knob(name: str) -> bool:
    return name.startswith("spells.")


def parse_fix(table: Any, file: str) -> FixSpec:
    """Validate a ``[fix]`` table; ``ExperimentError(file, "fix.<key>", reason)`` for the first problem."""
    if not isinstance(table, dict):
        raise ExperimentError(
            file, "fix", "must be a table (band, fields, figures, step, max_change, verify_deals)"
        )
    for key in table:
        if key not in FIX_KEYS:
            raise ExperimentError(file, f"fix.{key}", f"unknown key; expected one of: {', '.join(FIX_KEYS)}")
    band = table.get("band", DEFAULT_BAND)
    if isinstance(band, bool) or not isinstance(band, int | float) or not 0 < band < 5:
        raise ExperimentError(file, "fix.band", f"must be a log-odds between 0 and 5, not {band!r}")
    fields = table.get("fields", ["hp"])
    known = CHARACTER_FIELDS + tuple(f"spells.{k}" for k in SPELL_KNOBS)
    if not isinstance(fields, list) or not fields or any(f not in known for f in fields):
        raise ExperimentError(
            file, "fix.fields", f"must list values among {', '.join(known)}, not {fields!r}"
        )
    figures: tuple[str, ...] = ()
    raw = table.get("figures", "all")
    if raw != "all":
        if not isinstance(raw, list) or not raw:
            raise ExperimentError(file, "fix.figures", f'must be "all" or a list of figures, not {raw!r}')
        try:
            figures = tuple(default_registry().load_character(str(name)).id for name in raw)
        except ContentError as exc:
            raise ExperimentError(file, "fix.figures", exc.reason) from None
    maps: dict[str, dict[str, int]] = {}
    for key in ("step", "max_change"):
        value = table.get(key, {})
        if not isinstance(value, dict) or any(
            k not in fields or isinstance(v, bool) or not isinstance(v, int) or v < 1
            for k, v in value.items()
        ):
            raise ExperimentError(
                file, f"fix.{key}", f"must map fields of fix.fields to integers >= 1, not {value!r}"
            )
        maps[key] = dict(value)
    share = table.get("max_share", DEFAULT_SHARE)
    if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share <= 1:
        raise ExperimentError(
            file, "fix.max_share", f"must be a share of the printed value in (0, 1], not {share!r}"
        )
    verify_ais, verify_ai_deals = _verify_ais(table.get("verify_ais", []), file)
    deals = table.get("verify_deals", 0)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0:
        raise ExperimentError(file, "fix.verify_deals", f"must be an integer >= 1, not {deals!r}")
    slopes = table.get("slopes", "shared")
    if slopes not in SLOPES:
        raise ExperimentError(file, "fix.slopes", f"must be one of {', '.join(SLOPES)}, not {slopes!r}")
    for key in ("step", "max_change"):
        for name, value in maps[key].items():
            if value > UPPER:
                raise ExperimentError(
                    file, f"fix.{key}.{name}", f"out of range: {value} is above any printed value ({UPPER})"
                )
    width, cap = _verify_target(table, verify_ais, verify_ai_deals, file)
    rounds = table.get("rounds", DEFAULT_ROUNDS)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise ExperimentError(
            file,
            "fix.rounds",
            f"must be an integer from 1 to {MAX_ROUNDS} (probe-verify rounds), not {rounds!r}",
        )
    return FixSpec(
        float(band),
        tuple(fields),
        figures,
        maps["step"],
        maps["max_change"],
        deals,
        slopes,
        float(share),
        verify_ais,
        _forbid(table.get("forbid", []), tuple(fields), file),
        rounds,
        verify_ai_deals,
        width,
        cap,
    )


def _verify_target(
    table: Mapping[str, Any], verify_ais: tuple[str, ...], deals: tuple[int, ...], file: str
) -> tuple[float, int]:
    """``verify_half_width`` and ``verify_max_deals``: the verification's strongest added AI plays
    rounds of its deals until every figure's strength in both arms is that precise (log-odds), or
    the cap (:mod:`krosbalance.sim.target`). (0.0, 0) without a half-width."""
    width, cap = table.get("verify_half_width"), table.get("verify_max_deals")
    if width is None:
        if cap is not None:
            raise ExperimentError(file, "fix.verify_max_deals", "caps verify_half_width; set that too")
        return 0.0, 0
    if (
        isinstance(width, bool)
        or not isinstance(width, int | float)
        or not (math.isfinite(width) and width > 0)
    ):
        raise ExperimentError(
            file, "fix.verify_half_width", f"must be a number > 0 (a 95% CI half-width), not {width!r}"
        )
    if not verify_ais:
        raise ExperimentError(
            file, "fix.verify_half_width", "sizes the verify_ais' play; name one in verify_ais"
        )
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < max(deals or (1,))):
        raise ExperimentError(
            file, "fix.verify_max_deals", f"must be an integer >= the verify AI's deals, not {cap!r}"
        )
    return float(width), int(cap or 0)


def _forbid(raw: Any, fields: tuple[str, ...], file: str) -> tuple[tuple[str, str], ...]:
    """The ``forbid`` list: values the designer will not change, ``"bill_tell.hp"``,
    ``"bill_tell.spells.plaguing_arrow.ap_cost"`` or a whole figure ``"bill_tell"`` (every value);
    an unknown figure, spell or field is one clear line."""
    if not isinstance(raw, list) or any(not isinstance(item, str) for item in raw):
        raise ExperimentError(file, "fix.forbid", f'must be a list of "figure.field" strings, not {raw!r}')
    out: list[tuple[str, str]] = []
    for item in raw:
        head, _, rest = item.partition(".")
        try:
            card = default_registry().load_character(head)
        except ContentError as exc:
            raise ExperimentError(file, "fix.forbid", f"{item!r}: {exc.reason}") from None
        knobs = knobs_of(card.id, fields)
        if not rest:
            out += [(card.id, knob) for knob in knobs]
            continue
        if rest.startswith("spells."):
            parts = rest.split(".")
            spells = {s.id for s in card.spells}
            if len(parts) != 3 or parts[1] not in spells:
                raise ExperimentError(
                    file,
                    "fix.forbid",
                    f"{item!r}: {card.name} has no spell {parts[1] if len(parts) > 1 else ''!r}; "
                    f"her/his spells: {', '.join(sorted(spells))}",
                )
        if rest not in knobs:
            raise ExperimentError(
                file,
                "fix.forbid",
                f"{item!r}: not a value fix.fields may change for {card.name}; those: {', '.join(knobs)}",
            )
        out.append((card.id, rest))
    return tuple(dict.fromkeys(out))


def _verify_ais(raw: Any, file: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The ``verify_ais`` list and each one's deals: registered AIs that play Arena, each a name (one
    deal per pairing) or ``{ ai = "mcts-race", deals = 10 }`` as in ``ais`` (one clear line
    otherwise)."""
    if not isinstance(raw, list):
        raise ExperimentError(file, "fix.verify_ais", f"must be a list of AI names, not {raw!r}")
    deals_of: dict[str, int] = {}
    for entry in raw:
        if isinstance(entry, dict) and set(entry) <= {"ai", "deals"} and isinstance(entry.get("ai"), str):
            name, deals = entry["ai"], entry.get("deals", 1)
        elif isinstance(entry, str):
            name, deals = entry, 1
        else:
            raise ExperimentError(
                file,
                "fix.verify_ais",
                f'each entry is an AI name or {{ ai = "...", deals = n }}, not {entry!r}',
            )
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise ExperimentError(
                file, "fix.verify_ais", f"{name}: deals must be an integer >= 1, not {deals!r}"
            )
        problem = ai_problem(name, "arena")
        if problem:
            raise ExperimentError(file, "fix.verify_ais", problem)
        deals_of.setdefault(name, deals)
    return tuple(deals_of), tuple(deals_of.values())


FIX_ARMS = "a fix file plays the shipped cards: no [[variants]], [sweep] or [restricted]"
"""Why a file with ``[fix]`` may not have arms of its own (its stages make the arms)."""


def knob_arm(figure: str, name: str, step: int) -> str:
    """The probe arm of one (figure, field): ``anna_tommy.hp.up2``."""
    return f"{figure}.{name}.up{step}"


def _figures(experiment: Experiment) -> list[str]:
    return sorted({c for pairing in experiment.pairings for team in pairing for c in team})


def knobs_of(figure: str, fields: Sequence[str]) -> list[str]:
    """The values of ``figure`` a fix may change: each character field as it is, and for each
    ``spells.<field>`` one knob ``spells.<spell>.<field>`` per spell of the figure that has it (a
    positive amount, a range, any AP cost)."""
    card = default_registry().load_character(figure)
    knobs: list[str] = []
    for name in fields:
        if not is_spell_knob(name):
            knobs.append(name)
            continue
        key = name.split(".", 1)[1]
        for spell in card.spells:
            value = getattr(spell, key)
            number = isinstance(value, int) and not isinstance(value, bool)
            if number and value >= SPELL_MINIMUM.get(key, 0) and (key == "ap_cost" or value > 0):
                knobs.append(f"spells.{spell.id}.{key}")
    return knobs


def knob_patch(figure: str, name: str, value: int) -> dict[str, Any]:
    """The patch table that sets one knob: ``{"characters": {figure: {"hp": 8}}}`` or, for a spell,
    ``{"characters": {figure: {"spells": {spell: {"ap_cost": 4}}}}}``."""
    if is_spell_knob(name):
        _, spell, key = name.split(".")
        return {"characters": {figure: {"spells": {spell: {key: value}}}}}
    return {"characters": {figure: {name: value}}}


def parse_knob_arm(arm: str) -> tuple[str, str, int]:
    """``bill_tell.spells.plaguing_arrow.ap_cost.up1`` -> (figure, knob, step)."""
    parts = arm.split(".")
    return parts[0], ".".join(parts[1:-1]), int(parts[-1].removeprefix("up"))


Changes = Mapping[tuple[str, str], int]
"""A patch as the fix finder sees it: (figure, knob) -> change from the printed value."""


def changes_patch(changes: Changes, file: str, name: str) -> Patch:
    """The patch setting every (figure, knob) to its printed value plus its change."""
    table: dict[str, dict[str, Any]] = {}
    for (figure, knob), d in sorted(changes.items()):
        if not d:
            continue
        change = knob_patch(figure, knob, _printed(figure, knob) + d)["characters"][figure]
        mine = table.setdefault(figure, {})
        for key, value in change.items():
            if isinstance(value, dict):
                for spell, values in value.items():
                    mine.setdefault(key, {}).setdefault(spell, {}).update(values)
            else:
                mine[key] = value
    return parse_patch({"characters": table}, file, name=name) if table else Patch("no-change")


def _printed(figure: str, name: str) -> int:
    """The printed value of a knob (a character field, or ``spells.<spell>.<field>``)."""
    card = default_registry().load_character(figure)
    if is_spell_knob(name):
        _, spell_id, key = name.split(".")
        spell = next(s for s in card.spells if s.id == spell_id)
        return int(getattr(spell, key))
    return int(getattr(card, name))


def _minimum(name: str) -> int:
    if is_spell_knob(name):
        return SPELL_MINIMUM.get(name.split(".")[-1], 0)
    return MINIMUM.get(name, 0)
