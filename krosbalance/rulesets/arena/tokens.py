"""Demonic Rewards on a Krosmaster's card: the tokens it holds and what they add to its spells
(R-A52, R-A53, R-A141, R-A145).

A Krosmaster's tokens and bonuses are Arena's per-piece data: a :class:`RewardCard` in the
engine's neutral slot ``Fighter.extra`` (``engine.rules.PieceState``), None until a token first
comes onto the card. The engine copies it with :meth:`RewardCard.copy` when a state is copied and
asks it through two hooks of ``ArenaRuleset``: ``spell_bonus`` (:func:`spell_bonus`: damage
bonuses, never on neutral spells; melee bonuses only on melee spells) and ``Fighter.max_range_bonus``
(max range, set by ``reward_effects.refresh``).

What revealing a token does is :mod:`krosbalance.rulesets.arena.reward_effects`; who may buy and
reveal, and when, is :mod:`krosbalance.rulesets.arena.rewards`.
"""

from __future__ import annotations

from typing import cast

from krosbalance.content.specs import ELEMENTS, RewardSpec, SpellSpec
from krosbalance.engine.rules import PieceState
from krosbalance.engine.state import ELEMENT_INDEX, KROSMASTER, Fighter, MatchState
from krosbalance.rulesets.arena.results import arena_stats

NEUTRAL = 0


class HeldToken:
    """A token on a Krosmaster's card. Face down it gives nothing (R-A52, R-A138). ``seen``: both
    players know what it is even face down — it was bought face up from the market (R-A51, seed
    L2396-L2398: only a random draw is secret)."""

    __slots__ = ("spec", "face_up", "bought_turn", "seen")

    def __init__(
        self, spec: RewardSpec, face_up: bool = False, bought_turn: int = -1, seen: bool = False
    ) -> None:
        self.spec = spec
        self.face_up = face_up
        self.bought_turn = bought_turn
        self.seen = seen

    @property
    def secret(self) -> bool:
        """Whether the opponent does not know what it is: face down and not bought face up."""
        return not self.face_up and not self.seen

    def __repr__(self) -> str:
        return f"<{self.spec.id} {'up' if self.face_up else 'down'}>"


class RewardMods:
    """What a Krosmaster's face-up tokens and pending boosts add to its attacks."""

    __slots__ = ("damage", "melee", "melee_lifesteal", "next_spell", "next_elemental")

    def __init__(self) -> None:
        self.damage = [0] * len(ELEMENTS)  # +damage to attack spells, by element index (never neutral)
        self.melee = 0  # +damage to melee elemental attack spells
        self.melee_lifesteal = False  # melee elemental attack spells gain Lifesteal
        # (element index, +damage, waits for a spell of its element) for the next spell this turn
        self.next_spell: list[tuple[int, int, bool]] = []
        self.next_elemental = 0  # +damage for the next elemental attack this turn

    @property
    def empty(self) -> bool:
        return (
            not any(self.damage)
            and not self.melee
            and not self.melee_lifesteal
            and not self.next_spell
            and not self.next_elemental
        )

    def copy(self) -> RewardMods:
        other = RewardMods()
        other.damage = list(self.damage)
        other.melee = self.melee
        other.melee_lifesteal = self.melee_lifesteal
        other.next_spell = list(self.next_spell)
        other.next_elemental = self.next_elemental
        return other


class RewardCard(PieceState):
    """A Krosmaster's card, as far as Demonic Rewards go: its tokens face down or up (R-A52-R-A54)
    and what the face-up ones and the boosts waiting for its next spell add (None while nothing)."""

    __slots__ = ("tokens", "mods")

    def __init__(self) -> None:
        self.tokens: list[HeldToken] = []
        self.mods: RewardMods | None = None

    def copy(self) -> RewardCard:
        """New tokens and bonuses: reveals turn tokens up and spells use the bonuses up."""
        other = RewardCard()
        other.tokens = [HeldToken(t.spec, t.face_up, t.bought_turn, t.seen) for t in self.tokens]
        if self.mods is not None:
            other.mods = self.mods.copy()
        return other

    def __repr__(self) -> str:
        return f"RewardCard({self.tokens!r})"


#: what :func:`tokens_of` returns for a piece without a card (never appended to)
_NO_TOKENS: list[HeldToken] = []


def card_of(fighter: Fighter) -> RewardCard | None:
    """The fighter's card (None until a token first came onto it)."""
    extra = fighter.extra
    return None if extra is None else cast(RewardCard, extra)


def card(fighter: Fighter) -> RewardCard:
    """The fighter's card, made on first use."""
    extra = fighter.extra
    if extra is None:
        made = RewardCard()
        fighter.extra = made
        return made
    return cast(RewardCard, extra)


def tokens_of(fighter: Fighter) -> list[HeldToken]:
    """The tokens on the fighter's card, in order (read only: a shared empty list when none)."""
    extra = fighter.extra
    return _NO_TOKENS if extra is None else cast(RewardCard, extra).tokens


def mods_of(fighter: Fighter) -> RewardMods | None:
    """What the fighter's tokens add to its attacks now (None: nothing)."""
    extra = fighter.extra
    return None if extra is None else cast(RewardCard, extra).mods


def capacity(fighter: Fighter) -> int:
    """How many more tokens this Krosmaster may hold: its level, all tokens counted (R-A53)."""
    return fighter.level - len(tokens_of(fighter)) if fighter.kind == KROSMASTER else 0


def give(state: MatchState, fighter: Fighter, spec: RewardSpec, how: str) -> HeldToken:
    """Put a token face down on a Krosmaster's card (R-A52); the caller checked ``capacity``.
    ``how`` it came (v: a face-up purchase, r: a random one, s: held from the start, d: drawn) is
    kept in the holder's counters for the statistics. A token bought face up is ``seen`` by both
    players (R-A51)."""
    token = HeldToken(spec, False, state.turn, how == "v")
    card(fighter).tokens.append(token)
    counts = arena_stats(fighter)
    counts.rewards_held.append(f"{spec.id}:{how}")
    counts.rewards_held_turns.append(state.turn)
    return token


def slot_taken(fighter: Fighter, slot: str) -> bool:
    """Whether a face-up equipment of this kind is already on the card (R-A141)."""
    return any(t.face_up and t.spec.slot == slot for t in tokens_of(fighter))


def face_up_tokens(fighter: Fighter) -> list[RewardSpec]:
    return [t.spec for t in tokens_of(fighter) if t.face_up]


def end_of_turn(holder: Fighter) -> None:
    """End phase (R-A36): boosts for "this turn" that no spell used are lost."""
    held = card_of(holder)
    mods = None if held is None else held.mods
    if held is not None and mods is not None and (mods.next_spell or mods.next_elemental):
        mods.next_spell = []
        mods.next_elemental = 0
        if mods.empty:
            held.mods = None


def spell_bonus(holder: Fighter, spell: SpellSpec, consume: bool = True) -> tuple[int, bool]:
    """The +damage the holder's rewards add to this spell, and whether it gains Lifesteal (Sram
    Style). Bonuses add to attack spells only and never to neutral ones; melee bonuses only to melee
    spells. Casting any spell uses up the boosts "for the next spell" (one revealed under the option
    ``element_boost_waits`` only by a spell of its element); the Sacrier boost waits for the next
    elemental attack. ``consume``
    False only peeks (for an AI's estimate)."""
    held = card_of(holder)
    if held is None:
        return 0, False
    mods = held.mods
    if mods is None:
        return 0, False
    element = ELEMENT_INDEX[spell.element]
    attack = spell.kind == "attack"
    bonus = 0
    lifesteal = False
    if attack and element != NEUTRAL:
        bonus += mods.damage[element]
        if spell.range_type == "melee":
            bonus += mods.melee
            lifesteal = mods.melee_lifesteal
        bonus += mods.next_elemental
        if consume:
            mods.next_elemental = 0
    if mods.next_spell:
        kept: list[tuple[int, int, bool]] = []
        for boost_element, amount, waits in mods.next_spell:
            if attack and boost_element == element:
                bonus += amount
            elif waits:
                kept.append((boost_element, amount, waits))
        if consume:
            mods.next_spell = kept
    if consume and mods.empty:
        held.mods = None
    return bonus, lifesteal
