"""Powers (R-A100-R-A108) as registered rules.

A power is a keyword on a card (or given by inspiration). Each registered ``PowerRule`` says what
it changes: an extra die in one kind of roll, a hook after its holder is injured, a guard that stops
injuries, a hook at the end of its holder's turn, a bonus to heals, or a flag other rules read (Tiny,
Unfazed). Resistance and Immune carry an element and are read from the fighter's precomputed element
sets; Invisibility also keeps the cells of its holders in ``state.invisible`` so that line of sight
and injuries only look further when such a piece is involved. A new power is one registration here
plus its scenario test, named after its rule id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from krosbalance.content.specs import Frozen
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
from krosbalance.engine.rules import PLUS_AP, PLUS_MP

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState


class Injure(Protocol):
    """How injuries are placed (:func:`krosbalance.engine.combat.inflict`), handed to the hooks that
    injure in turn (Counter): combat reads the powers, so the powers do not import combat."""

    def __call__(
        self,
        state: MatchState,
        source: Fighter | None,
        target: Fighter,
        amount: int,
        element: int,
        counterable: bool = True,
    ) -> int: ...


InjuredHook = Callable[["MatchState", "Fighter", "Fighter | None", int, Injure], None]
GuardHook = Callable[["MatchState", "Fighter", "Fighter | None"], bool]
TurnEndHook = Callable[["MatchState", "Fighter"], None]


@dataclass(frozen=True, slots=True)
class PowerRule(Frozen):
    kind: str
    rule: str
    extra_die_in: int = -1  # the roll kind in which the holder rolls 2 dice instead of 1
    after_injured: InjuredHook | None = None
    prevents_injury: GuardHook | None = None  # True: this source cannot injure the holder
    end_of_turn: TurnEndHook | None = None  # resolves in the holder's end-of-activation phase (R-A36)
    heal_bonus: int = 0
    spell_injury_cap: int = 0  # >0: the most injuries one enemy spell inflicts on the holder


POWERS: dict[str, PowerRule] = {}


def register(rule: PowerRule) -> PowerRule:
    POWERS[rule.kind] = rule
    return rule


def _counter(state: MatchState, holder: Fighter, source: Fighter | None, amount: int, injure: Injure) -> None:
    """R-A104: an enemy character that injures the holder suffers 1 injury (bombs are not characters)."""
    if source is not None and source.alive and source.is_character and source.team != holder.team:
        injure(state, holder, source, 1, 0, counterable=False)


def _invisibility(state: MatchState, holder: Fighter, source: Fighter | None) -> bool:
    """R-A108, Etraggy's Invisibility (seed L2893-L2906): characters not adjacent to the holder cannot
    injure it (the icon after "non possono infliggergli" is lost; read as injuries, i.e. damage).
    Bombs and traps are not characters, so their explosions and spells still injure it; its
    additional effects still apply ("invisible, but not Unfazed"). The line-of-sight half of the power
    is ``sight_blockers_from`` in ``engine.legal``."""
    if source is None or not source.is_character or source.cell < 0:
        return False
    return not (state.board.neighbour_mask[holder.cell] >> source.cell) & 1


def _stimulus(state: MatchState, holder: Fighter) -> None:
    """R-A108, Aly Zé's Stimulus (seed L2895-L2899): at the end of the holder's turn every allied
    Krosmaster adjacent to it gains +1 MP or +1 AP. The icon saying which is lost in the seed, so the
    card names it (``marker = "mp"`` or ``"ap"``); the bonus is a marker, acting when the ruleset says
    (Arena: at the start of that Krosmaster's next activation, R-A35, R-A172)."""
    marker = next(p.params["marker"] for p in holder.spec.powers if p.kind == "stimulus")
    kind = PLUS_MP if marker == "mp" else PLUS_AP
    adjacent = state.board.neighbour_mask[holder.cell]
    for ally in state.allied_krosmasters(holder):
        if ally is not holder and ally.alive and ally.cell >= 0 and (adjacent >> ally.cell) & 1:
            state.ruleset.add_marker(state, ally, kind, 1)


register(PowerRule("critical", "R-A101", extra_die_in=CRITICAL))
register(PowerRule("armour", "R-A101", extra_die_in=ARMOUR))
register(PowerRule("lock", "R-A101", extra_die_in=LOCK))
register(PowerRule("dodge", "R-A101", extra_die_in=DODGE))
register(PowerRule("resistance", "R-A102"))
register(PowerRule("tiny", "R-A103"))
register(PowerRule("counter", "R-A104", after_injured=_counter))
register(PowerRule("healing", "R-A105", heal_bonus=1))
register(PowerRule("unfazed", "R-A106"))
register(PowerRule("immune", "R-A107"))
register(PowerRule("invisibility", "R-A108", prevents_injury=_invisibility))
register(PowerRule("stimulus", "R-A108", end_of_turn=_stimulus))
# Krobust (Merkator, Duel Pack 1; a later card power, not in the Arena or Duel Pack rulebooks): "prevents
# him from taking more than 3 injuries from a single enemy spell" (double-critical.blogspot.com, 2016,
# "I have an army. We have a Merkator."). The cap applies to each target's injuries after Armour,
# Resistance and Immune (``combat.resolve_spell``); an ally's spell, an injury cost and Counter are
# not enemy spells.
KROBUST_MAX_INJURIES = 3
register(PowerRule("krobust", "card: Merkator (Krobust)", spell_injury_cap=KROBUST_MAX_INJURIES))
# R-A48: a flag read by ``engine.movement.held_fast`` (Perfect Lock, e.g. from an Arena Demonic
# Reward upgrade)
register(PowerRule("perfect_lock", "R-A48"))

#: powers that keep their holder's cell in ``state.invisible`` (line of sight and injury guards)
INVISIBLE_POWERS = frozenset(kind for kind, rule in POWERS.items() if rule.prevents_injury is not None)
#: powers with an end-of-turn trigger
END_OF_TURN_POWERS = frozenset(kind for kind, rule in POWERS.items() if rule.end_of_turn is not None)

#: powers that cap the injuries of one enemy spell (Krobust)
CAP_POWERS = frozenset(kind for kind, rule in POWERS.items() if rule.spell_injury_cap > 0)
#: "no cap" for :func:`spell_injury_cap`
NO_CAP = 1 << 30

_DIE_POWER: dict[int, str] = {
    rule.extra_die_in: kind for kind, rule in POWERS.items() if rule.extra_die_in >= 0
}


def dice_for(fighter: Fighter, roll_kind: int) -> int:
    """1 die, or 2 with the matching power; owning it twice gives nothing more (R-A100, R-A101)."""
    return 2 if fighter.has(_DIE_POWER[roll_kind]) else 1


def after_injured(
    state: MatchState, holder: Fighter, source: Fighter | None, amount: int, injure: Injure
) -> None:
    """The holder's after-injury hooks (Counter, R-A104); ``injure`` places the injuries they deal
    (combat's ``inflict``, which calls this)."""
    for kind in tuple(holder.powers) + tuple(holder.inspired):
        hook = POWERS[kind].after_injured if kind in POWERS else None
        if hook is not None:
            hook(state, holder, source, amount, injure)


def injury_prevented(state: MatchState, holder: Fighter, source: Fighter | None) -> bool:
    """Whether a power of the holder stops this source from injuring it (Invisibility, R-A108)."""
    for kind in holder.powers:
        guard = POWERS[kind].prevents_injury if kind in POWERS else None
        if guard is not None and guard(state, holder, source):
            return True
    return False


def end_of_turn_powers(fighter: Fighter) -> list[str]:
    """The holder's powers that trigger in its end-of-activation phase (R-A36), sorted by name."""
    return sorted(kind for kind in fighter.powers if kind in END_OF_TURN_POWERS)


def run_end_of_turn(state: MatchState, holder: Fighter, kind: str) -> None:
    hook = POWERS[kind].end_of_turn
    if hook is not None:
        hook(state, holder)


def heal_bonus(fighter: Fighter) -> int:
    return sum(POWERS[k].heal_bonus for k in fighter.powers if k in POWERS)


def spell_injury_cap(holder: Fighter, caster: Fighter) -> int:
    """The most injuries one spell of ``caster`` may inflict on ``holder``: the smallest cap of the
    holder's powers (Krobust: 3) when the caster is an enemy (another partnership), else ``NO_CAP``."""
    if caster.team == holder.team or holder.powers.isdisjoint(CAP_POWERS):
        return NO_CAP
    return min(POWERS[k].spell_injury_cap for k in holder.powers if k in CAP_POWERS)
