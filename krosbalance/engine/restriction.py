"""Restricted play: a figure that may not use one of its elements, for one arm of an experiment.

The restricted-play measure of balance (Jaffe et al., AIIDE 2012) compares an agent that may not use
an element with one that may. An element of a figure is named ``"<kind>:<id>"``:

- ``spell:<spell id>`` (one of the spells the figure spawns with, the punch included): the figure
  never casts it. The spell is left out of that piece's spell list for the match (its card, the
  registry and every other piece are untouched), so every AI — heuristic planner, random player,
  search tier and the rollouts it plays on copies — and the engine's legality agree without a
  check of their own, and the cost is nil when nothing is forbidden;
- ``power:<power kind>`` (a power on its card): a passive power cannot be "not used" by a player, so
  the restriction is a rules-level switch: the power does not act for that piece (a tension die
  that inspires the same power still does, R-A27: it is another element, the tension roll's);
- ``action:<action name>`` (an option the ruleset offers, e.g. Arena's ``pick_kama``, ``buy_gg``,
  ``buy_reward``, ``reveal_reward``): the piece never takes an action of that kind
  (``Fighter.forbidden_kinds``, read by ``legal_actions`` and ``is_legal``; the heuristic planner
  reads it through ``FighterView.may`` so that it does not plan what it cannot do).

The restriction is part of the match's rules, so it is common knowledge: the opponent's AI reads
the restricted piece as it is (a Bill Tell without Distant Shot is not feared at range 11). It
applies to every piece of the named character in the match, Krosmasters only (summons keep theirs);
experiments play it in ``splits`` and pairings where one side fields the figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from krosbalance.content.specs import CharacterSpec
from krosbalance.engine.legal import EXTRA
from krosbalance.engine.rules import MatchRules
from krosbalance.engine.state import KROSMASTER, Fighter, MatchState

#: the element kinds, as written before the colon
KINDS: tuple[str, ...] = ("spell", "power", "action")
#: how many ruleset action kinds are looked for from ``EXTRA`` on (a ruleset names its own)
_MAX_EXTRA = 32


def option_kinds(rules: MatchRules) -> dict[str, int]:
    """The ruleset's own action kinds by name (Arena: pick_kama, buy_gg, buy_reward, reveal_reward):
    the kinds from ``EXTRA`` on that ``action_name`` names (an unnamed kind reads ``action <n>``)."""
    out: dict[str, int] = {}
    for kind in range(EXTRA, EXTRA + _MAX_EXTRA):
        name = rules.action_name(kind)
        if not name.startswith("action "):
            out[name] = kind
    return out


def elements_of(spec: CharacterSpec, rules: MatchRules) -> list[str]:
    """Every element of a figure that may be forbidden, in card order: its spells (as the ruleset
    spawns it, so Arena's punch too), the powers on its card, then the ruleset's options."""
    spells = [f"spell:{s.id}" for s in rules.spells_for(spec)]
    powers = [f"power:{p.kind}" for p in spec.powers]
    options = [f"action:{name}" for name in option_kinds(rules)]
    return list(dict.fromkeys(spells + powers + options))


def element_problem(element: str, spec: CharacterSpec, rules: MatchRules) -> str:
    """Why ``element`` names nothing of this figure ('' when it is one of ``elements_of``)."""
    kind, _, name = element.partition(":")
    if kind not in KINDS or not name:
        return f"{element!r} must be 'spell:<id>', 'power:<kind>' or 'action:<name>'"
    known = [e.partition(":")[2] for e in elements_of(spec, rules) if e.startswith(kind + ":")]
    if name not in known:
        return f"{spec.id} has no {kind} {name!r}; known: {', '.join(known) or 'none'}"
    return ""


def restrict(fighter: Fighter, elements: Sequence[str], rules: MatchRules) -> None:
    """Forbid ``elements`` to one piece before it is placed (see the module docstring). Unknown
    elements are a ``ValueError`` (experiments check them first with :func:`element_problem`)."""
    for element in elements:
        problem = element_problem(element, fighter.spec, rules)
        if problem:
            raise ValueError(problem)
    names: dict[str, set[str]] = {}
    for element in elements:
        kind, _, name = element.partition(":")
        names.setdefault(kind, set()).add(name)
    spells = names.get("spell", set())
    if spells:
        fighter.spells = tuple(s for s in fighter.spells if s.id not in spells)
    powers = names.get("power", set())
    if powers:
        fighter.forbidden_powers = frozenset(powers)
        fighter.powers = fighter.powers - powers
        if "resistance" in powers:
            fighter.resist = frozenset()
        if "immune" in powers:
            fighter.immune = frozenset()
    actions = names.get("action", set())
    if actions:
        kinds = option_kinds(rules)
        fighter.forbidden_kinds = frozenset(kinds[name] for name in actions)


def apply_restrictions(state: MatchState, forbid: Mapping[str, Sequence[str]]) -> None:
    """Forbid to every Krosmaster of the named characters its listed elements (``forbid`` maps a
    character id to elements); call after set-up, before deployment."""
    if not forbid:
        return
    for fighter in state.fighters:
        elements = forbid.get(fighter.spec.id)
        if elements and fighter.kind == KROSMASTER:
            restrict(fighter, elements, state.ruleset)
