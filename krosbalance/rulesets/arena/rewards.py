"""Demonic Rewards in Arena: the two extra actions, their timing, and the effects that touch Arena's
holdings (R-A51-R-A54, R-A136-R-A145, FAQ R-A163).

- ``BUY_REWARD`` (1 AP, on a Demon cell, R-A51): ``Action(BUY_REWARD, spell, target)`` with
  ``spell = 4 * (visible + 1) + rank`` (``visible`` the index of a face-up token, or -1 for a random
  face-down token of rank index ``rank``) and ``target`` the uid of the allied Krosmaster it goes to
  (R-A52). See :mod:`krosbalance.rulesets.arena.market`.
- ``REVEAL_REWARD`` (0 AP, during the holder's own activation, R-A54, R-A138):
  ``Action(REVEAL_REWARD, spell, target)`` with ``spell = 8 * token + choice`` (``token`` the token's
  position on the active Krosmaster's card; ``choice`` an alternative of a "choose one" token, 1 to
  pay for Rogue Style's GG, or for Pandawa Style the index of the neighbour cell holding the ally to
  carry) and ``target`` a cell (a summon's, the Recall Potion's, a single-use spell's) or -1. A
  second face-up equipment of a kind already face up cannot be revealed (R-A141); a single-use spell
  only with a target and the AP to cast it.
- Timing hooks: at the start of every game turn the staged schedule turns tokens up
  (``reward_reveal = "staged"``); in a Krosmaster's preliminary phase its face-up Upgrades leave the
  card (R-A32 b); at the end of its activation unused "this turn" boosts are lost; a KO'd
  Krosmaster's tokens leave the game. Every token that leaves a card goes to the market's box.
- Arena's holdings: ``kamas`` (from the reserve), ``gg`` (the wild GG first, R-A129), ``buy_gg``
  (Rogue Style) and ``draw_reward`` (Ecaflip Style: a coin toss, a face-down gold token) are
  registered here into the engine's reward-effect registry.
- ``start_rewards`` (the reward study): after deployment, each listed token is given face down to the
  Krosmaster its player chooses (``ArenaController.give_reward``), or to the one
  ``start_reward_holders`` names (the per-holder arms: the study, not the AI, picks the holder);
  ``start_reward_prices`` (the fair-price study) charges its price to the side's kamas, into the
  reserve — below zero when the side has fewer, a debt its next kamas pay first (a negative stock
  buys nothing) — and ``start_reward_gg_prices`` its price in GG, given back to the box.
- ``purchasable_rewards`` (the reward study's purchase arms): the listed tokens lie face up in the
  market from the set-up and only their side may buy them, by the rules of R-A51-R-A53 at the price
  of R-A136; with ``demonic_rewards`` off nothing else is for sale and nothing refills.

The market exists when ``demonic_rewards`` is on, a side starts with tokens or may buy listed ones;
buying needs ``demonic_rewards`` or a ``purchasable_rewards`` list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from krosbalance.content.registry import _unknown
from krosbalance.content.specs import RANKS, RewardSpec
from krosbalance.engine.events import FULL
from krosbalance.engine.legal import Action, can_pay, spell_targets
from krosbalance.engine.state import KROSMASTER
from krosbalance.errors import ContentError, IllegalActionError
from krosbalance.rulesets.arena.economy import gain_gg, lose_gg, take_from_reserve
from krosbalance.rulesets.arena.events import RewardRevealed
from krosbalance.rulesets.arena.kinds import BUY_REWARD, REVEAL_REWARD
from krosbalance.rulesets.arena.market import (
    RANK_INDEX,
    Purchase,
    RewardMarket,
    can_buy,
    hand_over,
    purchases,
    setup_market,
    staged_turn_start,
    take,
)
from krosbalance.rulesets.arena.reward_effects import (
    REWARD_EFFECTS,
    RewardRule,
    RewardUse,
    discard_tokens,
    expire_upgrades,
    register,
    reveal,
)
from krosbalance.rulesets.arena.state import arena_state
from krosbalance.rulesets.arena.tokens import capacity, card_of, end_of_turn, give, slot_taken, tokens_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np

    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.arena.options import ArenaOptions
    from krosbalance.rulesets.arena.state import ArenaState
    from krosbalance.rulesets.arena.tension import ArenaController

NAMES: dict[int, str] = {BUY_REWARD: "buy_reward", REVEAL_REWARD: "reveal_reward"}
#: raw die faces that count as heads when Ecaflip Style tosses its coin: half of the six faces
COIN_HEADS = frozenset({0, 1, 2})
CHOICES_PER_TOKEN = 8


class Reveal(NamedTuple):
    """One reveal: the holder's ``token`` (its position on the card), the player's ``choice`` and the
    ``target`` cell (-1 where unused); see the module docstring."""

    token: int
    choice: int = 0
    target: int = -1


# ------------------------------------------------------------------------------------ encoding


def buy_action(purchase: Purchase) -> Action:
    return Action(BUY_REWARD, 4 * (purchase.visible + 1) + purchase.rank, purchase.holder)


def purchase_of(action: Action) -> Purchase:
    return Purchase(action.spell // 4 - 1, action.spell % 4, action.target)


def reveal_action(move: Reveal) -> Action:
    return Action(REVEAL_REWARD, CHOICES_PER_TOKEN * move.token + move.choice, move.target)


def reveal_of(action: Action) -> Reveal:
    return Reveal(action.spell // CHOICES_PER_TOKEN, action.spell % CHOICES_PER_TOKEN, action.target)


# ------------------------------------------------------------------------- Arena reward effects


def _kamas(use: RewardUse, amount: int) -> None:
    take_from_reserve(use.state, use.holder.side, amount)


def _gg(use: RewardUse, amount: int) -> None:
    gain_gg(use.state, use.holder.side, amount, use.holder)
    use.state.unsettled = True  # victory is checked when the reveal's instant settles


def _buy_gg(use: RewardUse, kamas: int) -> None:
    """Rogue Style: choice 1 pays ``kamas`` to the reserve for 1 GG; choice 0 declines."""
    arena = arena_state(use.state)
    side = use.holder.side
    if use.choice != 1 or arena.kamas[side] < kamas:
        return
    arena.kamas[side] -= kamas
    arena.kama_reserve += kamas
    gain_gg(use.state, side, 1, use.holder)
    use.state.unsettled = True


def _draw_reward(use: RewardUse, rank: str) -> None:
    """Ecaflip Style: a coin toss (one die of the match's chance stream: half its faces are heads);
    heads, the top face-down token of ``rank`` goes face down to the holder."""
    state = use.state
    heads = state.dice.roll() in COIN_HEADS
    if state.record >= FULL:
        state.events.append(
            RewardRevealed(state.turn, use.holder.uid, use.token.id, "heads" if heads else "tails")
        )
    market = arena_state(state).market
    if not heads or market is None:
        return
    drawn = market.draw(RANK_INDEX[rank])
    if drawn is not None:
        give(state, use.holder, drawn, "d")


register(RewardRule("kamas", "R-A163", instant=_kamas))
register(RewardRule("gg", "R-A131", instant=_gg))
register(RewardRule("buy_gg", "R-A131", instant=_buy_gg))
register(RewardRule("draw_reward", "R-A54", instant=_draw_reward))


# ------------------------------------------------------------------------------------ set-up


def reward_creatures(specs: Sequence[RewardSpec]) -> list[str]:
    """Ids of the creatures the tokens summon (R-A144), so a match can put them in play."""
    return sorted(
        {
            str(e.params["summon"])
            for s in specs
            for e in (*s.effects, *(x for a in s.choices for x in a))
            if e.kind == "summon"
        }
    )


def wants_market(opts: ArenaOptions) -> bool:
    return opts.demonic_rewards or any(opts.start_rewards) or any(opts.purchasable_rewards)


def _check_ids(field_name: str, lists: Any, known: set[str], what: str) -> None:
    """Each of two per-side lists holds only known ids (one ContentError naming the entry)."""
    if not isinstance(lists, list) or len(lists) != 2:
        raise ContentError("options", field_name, f"give two lists of {what}, one per side")
    for side, names in enumerate(lists):
        for name in names if isinstance(names, list) else [names]:
            if not isinstance(name, str) or name not in known:
                listed = sorted(known)
                raise ContentError(
                    "options",
                    f"{field_name}[{side}]",
                    _unknown(
                        what[:-1] if what.endswith("s") else what, str(name), {k: k for k in listed}, listed
                    ),
                )


def shop_only(opts: ArenaOptions) -> bool:
    """Whether only the ``purchasable_rewards`` are for sale (the purchase arms, market off)."""
    return not opts.demonic_rewards and any(opts.purchasable_rewards)


def may_buy(opts: ArenaOptions, side: int) -> bool:
    """Whether this side may buy Demonic Rewards at all (R-A51; the purchase arms' sides)."""
    return opts.demonic_rewards or bool(opts.purchasable_rewards[side])


def open_market(
    state: MatchState, opts: ArenaOptions, specs: Sequence[RewardSpec], rng: np.random.Generator
) -> None:
    """Set the market up (R-A23) in Arena's state, checking the ``start_rewards`` names."""
    arena_state(state).market = build_market(opts, specs, rng)


def build_market(opts: ArenaOptions, specs: Sequence[RewardSpec], rng: np.random.Generator) -> RewardMarket:
    """The market of a match (R-A23) with the reward study's options checked (ids, one list per side,
    holders, prices; a ``ContentError`` naming the option): the one check every engine runs."""
    known = {s.id for s in specs}
    if len(opts.start_rewards) != 2:
        raise ContentError("options", "start_rewards", "give two lists of reward ids, one per side")
    held: Any = opts.start_rewards  # Any: the compiled build would cast each item to str before the check
    _check_ids("start_rewards", held, known, "rewards")
    shop: Any = opts.purchasable_rewards
    _check_ids("purchasable_rewards", shop, known, "rewards")
    holders: Any = opts.start_reward_holders
    if not isinstance(holders, list) or len(holders) != 2:
        raise ContentError("options", "start_reward_holders", "give two lists of character ids, one per side")
    for side, names in enumerate(holders):
        if not isinstance(names, list) or len(names) > len(opts.start_rewards[side]):
            raise ContentError(
                "options",
                f"start_reward_holders[{side}]",
                f"one holder per token of start_rewards[{side}] at most, not {names!r}",
            )
    _check_prices(opts.start_reward_prices, "start_reward_prices", "kamas")
    _check_prices(opts.start_reward_gg_prices, "start_reward_gg_prices", "GG")
    reveal = "staged" if shop_only(opts) else opts.reward_reveal  # staged: nothing face up at set-up
    market = setup_market(specs, opts.reward_prices, reveal, rng)
    for side in range(2):
        for name in opts.purchasable_rewards[side]:
            spec = _remove_from_market(market, name, "purchasable_rewards")
            market.face_up.append((2 * RANK_INDEX[spec.rank], spec))
    return market


def _check_prices(prices: Any, name: str, unit: str) -> None:
    """Two lists (one per side) of whole prices >= 0; ``prices`` is Any: checked item by item."""
    if len(prices) != 2 or not all(
        isinstance(side, list)
        and all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in side)
        for side in prices
    ):
        raise ContentError("options", name, f"give two lists of {unit} >= 0, one per side, not {prices!r}")


def give_start_rewards(
    state: MatchState,
    opts: ArenaOptions,
    controllers: Sequence[ArenaController],
    views: Sequence[MatchView],
) -> None:
    """``start_rewards``: each token leaves the market and goes face down to the Krosmaster its player
    chooses among those with room (R-A52, R-A53)."""
    market = arena_state(state).market
    if market is None:
        return
    arena = arena_state(state)
    for side, names in enumerate(opts.start_rewards):
        prices = opts.start_reward_prices[side] if side < len(opts.start_reward_prices) else []
        gg_prices = opts.start_reward_gg_prices[side] if side < len(opts.start_reward_gg_prices) else []
        named = opts.start_reward_holders[side]
        for i, name in enumerate(names):
            spec = _remove_from_market(market, name)
            candidates = [f for f in state.timeline[side] if f.alive and capacity(f) > 0]
            wanted = named[i] if i < len(named) else ""
            if wanted:
                holder = named_holder(state, side, wanted, f"start_reward_holders[{side}][{i}]")
            else:
                if not candidates:
                    market.box.append(spec)
                    continue
                view = views[side]
                uid = controllers[side].give_reward(view, spec, [view.fighter(f.uid) for f in candidates])
                chosen = next((f for f in candidates if f.uid == uid), None)
                if chosen is None:
                    raise IllegalActionError(
                        f"player {side} gave {spec.id} to #{uid}, not one of {[f.uid for f in candidates]}"
                    )
                holder = chosen
            give(state, holder, spec, "s")
            if i < len(prices) and prices[i] > 0:  # the fair-price study's cost
                arena.kamas[side] -= prices[i]  # below zero: a debt the next kamas pay first
                arena.kama_reserve += prices[i]
            for _ in range(gg_prices[i] if i < len(gg_prices) else 0):
                lose_gg(state, side, "reward price")  # to the box, like a tension double (R-A26)


def named_holder(state: MatchState, side: int, character: str, where: str) -> Fighter:
    """The Krosmaster of this side's team with this character id and room for a token (R-A53), the
    first such if the team holds two; a ContentError naming ``where`` when there is none."""
    team = [f for f in state.timeline[side] if f.kind == KROSMASTER]
    for fighter in team:
        if fighter.spec.id == character and fighter.alive and capacity(fighter) > 0:
            return fighter
    ids = ", ".join(sorted({f.spec.id for f in team}))
    raise ContentError(
        "options", where, f"no Krosmaster {character!r} with room on side {side}'s team ({ids})"
    )


def take_from_market(arena: ArenaState, reward_id: str) -> RewardSpec:
    """Take one named token out of the market (face up or face down), e.g. to hold it from the start."""
    assert arena.market is not None
    return _remove_from_market(arena.market, reward_id)


def _remove_from_market(
    market: RewardMarket, reward_id: str, field_name: str = "start_rewards"
) -> RewardSpec:
    for i, (_, spec) in enumerate(market.face_up):
        if spec.id == reward_id:
            del market.face_up[i]
            return spec
    for pile in market.piles:
        for i, spec in enumerate(pile):
            if spec.id == reward_id:
                return pile.pop(i)
    raise ContentError("options", field_name, f"{reward_id!r} is not in the market (listed twice?)")


# ------------------------------------------------------------------------------------ actions


def add_actions(state: MatchState, fighter: Fighter, actions: list[Action], opts: ArenaOptions) -> None:
    """Append the legal reward actions of the active Krosmaster: reveals, then purchases."""
    if fighter.kind != KROSMASTER:
        return
    if tokens_of(fighter):
        actions.extend(reveal_action(r) for r in reveals(state, fighter))
    arena = arena_state(state)
    if arena.market is not None and fighter.ap >= 1 and may_buy(opts, fighter.side):
        offered = purchases(state, arena.market, fighter, arena.kamas[fighter.side])
        if shop_only(opts):
            offered = [
                p for p in offered if for_sale(arena.market, p, opts.purchasable_rewards[fighter.side])
            ]
        actions.extend(buy_action(p) for p in offered)


def for_sale(market: RewardMarket, purchase: Purchase, allowed: list[str]) -> bool:
    """The purchase arms: only a face-up token of the side's ``purchasable_rewards`` is for sale."""
    return 0 <= purchase.visible < len(market.face_up) and market.face_up[purchase.visible][1].id in allowed


def is_legal(state: MatchState, fighter: Fighter, action: Action, opts: ArenaOptions) -> bool:
    if fighter.kind != KROSMASTER:
        return False
    if action.kind == REVEAL_REWARD:
        return action.spell >= 0 and can_reveal(state, fighter, reveal_of(action))
    arena = arena_state(state)
    if not may_buy(opts, fighter.side) or arena.market is None or action.spell < 0:
        return False
    purchase = purchase_of(action)
    if shop_only(opts) and not for_sale(arena.market, purchase, opts.purchasable_rewards[fighter.side]):
        return False
    return can_buy(state, arena.market, fighter, purchase, arena.kamas[fighter.side])


def perform(state: MatchState, fighter: Fighter, action: Action, opts: ArenaOptions) -> None:
    """Carry out a legal reward action (one instant, settled by the engine)."""
    arena = arena_state(state)
    market = arena.market
    assert market is not None
    if action.kind == REVEAL_REWARD:
        move = reveal_of(action)
        used = reveal(state, fighter, move.token, move.choice, move.target, opts.element_boost_waits)
        if used is not None:
            market.box.append(used)
        return
    purchase = purchase_of(action)
    price = market.prices[purchase.rank]
    fighter.ap -= 1
    arena.kamas[fighter.side] -= price  # the full price first (FAQ R-A163)
    arena.kama_reserve += price
    refill = opts.reward_refill == "same_pile" and opts.reward_reveal == "setup" and not shop_only(opts)
    spec = take(market, purchase, refill)
    hand_over(state, fighter, state.fighters[purchase.holder], spec, purchase.visible >= 0)


# ---------------------------------------------------------------------------------- revealing


def may_reveal(state: MatchState, holder: Fighter) -> bool:
    """Only during the holder's own activation (R-A54, R-A138)."""
    return state.active is holder and holder.acting and holder.alive and holder.kind == KROSMASTER


def _free_cells(state: MatchState, mask: int) -> list[int]:
    return [c for c in range(state.board.n_cells) if (mask >> c) & 1 and not (state.obstacles >> c) & 1]


def reveals(state: MatchState, holder: Fighter) -> list[Reveal]:
    """Every legal reveal of the holder's face-down tokens, with every choice and target."""
    tokens = tokens_of(holder)
    if not tokens or not may_reveal(state, holder):
        return []
    out: list[Reveal] = []
    for index, token in enumerate(tokens):
        if token.face_up:
            continue
        spec = token.spec
        if spec.kind == "equipment":
            if not slot_taken(holder, spec.slot):
                out.append(Reveal(index))
        elif spec.kind == "upgrade":
            out.append(Reveal(index))
        else:
            out.extend(_boost_reveals(state, holder, index, spec))
    return out


def _boost_reveals(state: MatchState, holder: Fighter, index: int, spec: RewardSpec) -> list[Reveal]:
    kinds = {e.kind for e in spec.effects}
    choices = list(range(len(spec.choices) or 1))
    if "buy_gg" in kinds:
        price = next(int(e.params["kamas"]) for e in spec.effects if e.kind == "buy_gg")
        choices = [0, 1] if arena_state(state).kamas[holder.side] >= price else [0]
    targets: list[int] = [-1]
    if "summon" in kinds:
        targets = _free_cells(state, state.board.neighbour_mask[holder.cell]) or [-1]
    elif "recall" in kinds:
        targets = _free_cells(state, state.board.deploy[state.edges[holder.side]]) or [-1]
    elif "one_shot_spell" in kinds:
        spell = spec.spell
        assert spell is not None
        if not can_pay(state, holder, spell):
            return []
        targets = spell_targets(state, holder, spell)
        if any(e.kind == "carry_ally" for e in spell.effects):
            choices = [
                i
                for i, cell in enumerate(state.board.neighbours[holder.cell])
                if _ally_at(state, holder, cell)
            ]
    return [Reveal(index, c, t) for c in choices for t in targets]


def _ally_at(state: MatchState, holder: Fighter, cell: int) -> bool:
    piece = state.by_cell[cell]
    return piece is not None and piece.alive and piece.team == holder.team and piece.is_character


def can_reveal(state: MatchState, holder: Fighter, move: Reveal) -> bool:
    """Whether this reveal is legal now (the single-reveal form of ``reveals``)."""
    tokens = tokens_of(holder)
    if not may_reveal(state, holder) or not 0 <= move.token < len(tokens):
        return False
    token = tokens[move.token]
    if token.face_up:
        return False
    if token.spec.kind != "boost":
        if move.choice != 0 or move.target != -1:
            return False
        return token.spec.kind == "upgrade" or not slot_taken(holder, token.spec.slot)
    return move in _boost_reveals(state, holder, move.token, token.spec)


# ------------------------------------------------------------------------------------ timing


def turn_started(state: MatchState, opts: ArenaOptions) -> None:
    """The staged schedule turns one token of each rank face up (``reward_reveal = "staged"``)."""
    market = arena_state(state).market
    if market is not None and opts.reward_reveal == "staged":
        staged_turn_start(market, state.turn)


def preliminary_phase(state: MatchState, fighter: Fighter) -> None:
    """Preliminary phase (R-A32 b): the face-up Upgrades leave the card, for the box."""
    if tokens_of(fighter):
        expired = expire_upgrades(state, fighter)
        market = arena_state(state).market
        if expired and market is not None:
            market.box.extend(expired)


def activation_ended(fighter: Fighter) -> None:
    """End phase: the boosts for "this turn" that no spell used are lost."""
    held = card_of(fighter)
    if held is not None and held.mods is not None:
        end_of_turn(fighter)


def on_kos(state: MatchState, kos: list[Fighter]) -> None:
    """A KO'd Krosmaster's tokens leave the game with it, for the box."""
    market = arena_state(state).market
    for victim in kos:
        if tokens_of(victim):
            left = discard_tokens(state, victim)
            if market is not None:
                market.box.extend(t.spec for t in left if not t.secret)
                market.hidden_box.extend(t.spec for t in left if t.secret)


def reward_problems(state: MatchState) -> list[str]:
    """The reward invariants: every token somewhere (market, box or a card), no card over its level,
    at most one face-up equipment of a kind, only Krosmasters holding tokens."""
    market = arena_state(state).market
    problems: list[str] = []
    held = 0
    for f in state.fighters:
        tokens = tokens_of(f)
        if not tokens:
            continue
        held += len(tokens)
        if f.kind != KROSMASTER:
            problems.append(f"{f!r} is not a Krosmaster but holds {tokens}")
        if len(tokens) > f.level:
            problems.append(f"{f!r} holds {len(tokens)} tokens, more than its level (R-A53)")
        slots = [t.spec.slot for t in tokens if t.face_up and t.spec.slot]
        if len(slots) != len(set(slots)):
            problems.append(f"{f!r} has two face-up equipment of a kind (R-A141): {slots}")
    if market is not None and market.count() + held != market.total:
        problems.append(
            f"reward tokens not conserved: market {market.count()} + cards {held} != {market.total}"
        )
    if market is None and held:
        problems.append(f"{held} reward tokens on cards without a market")
    return problems


def reward_snapshot(state: MatchState) -> tuple[object, ...]:
    market = arena_state(state).market
    cards = tuple(
        (f.uid, tuple((t.spec.id, t.face_up) for t in tokens_of(f))) for f in state.fighters if tokens_of(f)
    )
    if market is None:
        return (cards,)
    return (
        cards,
        tuple(tuple(s.id for s in p) for p in market.piles),
        tuple((p, s.id) for p, s in market.face_up),
        tuple(s.id for s in market.box),
        tuple(s.id for s in market.hidden_box),
    )


__all__ = [
    "BUY_REWARD",
    "NAMES",
    "REVEAL_REWARD",
    "REWARD_EFFECTS",
    "RANKS",
    "Reveal",
    "buy_action",
    "can_reveal",
    "purchase_of",
    "reveal_action",
    "reveal_of",
    "reveals",
]
