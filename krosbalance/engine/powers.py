"""Powers (R-A100-R-A108) as registered rules.

A power is a keyword on a card (or given by inspiration). Each registered ``PowerRule`` says what
it changes: an extra die in one kind of roll, a hook after its holder is injured, a bonus to heals,
or a flag other rules read (Tiny, Unfazed). Resistance and Immune carry an element and are read from
the fighter's precomputed element sets. A new power is one registration here plus its scenario test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from krosbalance.content.specs import Frozen
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState

InjuredHook = Callable[["MatchState", "Fighter", "Fighter | None", int], None]


@dataclass(frozen=True, slots=True)
class PowerRule(Frozen):
    kind: str
    rule: str
    extra_die_in: int = -1  # the roll kind in which the holder rolls 2 dice instead of 1
    after_injured: InjuredHook | None = None
    heal_bonus: int = 0


POWERS: dict[str, PowerRule] = {}


def register(rule: PowerRule) -> PowerRule:
    POWERS[rule.kind] = rule
    return rule


def _counter(state: MatchState, holder: Fighter, source: Fighter | None, amount: int) -> None:
    """R-A104: an enemy character that injures the holder suffers 1 injury (bombs are not characters)."""
    from krosbalance.engine.combat import inflict

    if source is not None and source.alive and source.is_character and source.side != holder.side:
        inflict(state, holder, source, 1, 0, counterable=False)


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

_DIE_POWER: dict[int, str] = {
    rule.extra_die_in: kind for kind, rule in POWERS.items() if rule.extra_die_in >= 0
}


def dice_for(fighter: Fighter, roll_kind: int) -> int:
    """1 die, or 2 with the matching power; owning it twice gives nothing more (R-A100, R-A101)."""
    return 2 if fighter.has(_DIE_POWER[roll_kind]) else 1


def after_injured(state: MatchState, holder: Fighter, source: Fighter | None, amount: int) -> None:
    for kind in tuple(holder.powers) + tuple(holder.inspired):
        hook = POWERS[kind].after_injured if kind in POWERS else None
        if hook is not None:
            hook(state, holder, source, amount)


def heal_bonus(fighter: Fighter) -> int:
    return sum(POWERS[k].heal_bonus for k in fighter.powers if k in POWERS)
