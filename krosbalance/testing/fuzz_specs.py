"""The differential fuzz's match specs: random legal Arena matches drawn from one master seed over
everything the native core plays (:mod:`krosbalance.testing.differential` plays and compares them).

- **teams**: every legal team (R-A146/R-A147 for two players, R-A150 for four) of the Arena roster,
  drawn set by set: a set is picked first, then a team fielding at least one of its cards, so a
  small set is not drowned by a big one. Sets, cards and reward tokens are read from the registry
  (by set), never named here, so new cards join the fuzz by themselves;
- **modes**: two players, four-player free-for-all and two versus two;
- **boards**: every Arena board with a zone per seat, drawn first (weighted by the square root of
  the number of legal teams its zones hold, so a small test board that holds one team is drawn,
  but seldom); then teams its zones hold;
- **options**: the Demonic Rewards on or off (prices, refill, staged reveal, element boosts), the
  reward study's start/purchasable rewards and their prices and holders (two players), turn limits
  (short ones for part of the matches: a short match is an honest, cheap match, since the bound is
  an option like any other), GG and wild GG counts, first-turn tension, the zero-GG variants, lock,
  bombs, scenery destruction, line of sight;
- **restricted play**: one or two elements (spell, power, action) forbidden to a Krosmaster present;
- **mechanics no shipped card uses** (a designer's card may): in a tenth of the matches one
  Krosmaster present carries an ``element_bonus`` on an elemental attack (R-A80), Invisibility or
  Stimulus (R-A108) (``spec["mechanic"]``; both engines play a registry with that card changed,
  :func:`registry_of`), drawn from a stream of its own so the other draws of a spec are what they
  were before; in 5% of the others, one of Blast's effect keywords on an attack (``move_to_target``,
  ``different_target_next``, :data:`KEYWORDS`), from a stream of its own too;
- **AIs**: ``random`` and every AI of :data:`krosbalance.native_match.PORTED_AIS`, read when a spec
  is drawn (an AI ported later joins by itself), each seat drawn on its own, an AI that cannot play
  a seat count (the registry's ``ai_problem``: two-player-only AIs) left out of four-player matches;
  30% of the matches seat one AI everywhere. A search-tier AI (whose reference plays a hundred times
  slower) is drawn a tenth as often as another and always plays a match of 2 to 6 game turns (2 for a
  deep search: :data:`DEEP_SEARCH_TURNS`);
- **seeds**: spec ``k`` is drawn from ``default_rng([master_seed, k])``, so any slice of the fuzz is
  drawn alone, in any process, with the same result (parallel runs do not depend on the job count).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import numpy as np

from krosbalance import native_match
from krosbalance.ai.registry import ai_cost, ai_problem, ai_tier, list_ais
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import EffectSpec, PowerSpec
from krosbalance.engine.restriction import elements_of
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.fuzz_blast import blast_spec
from krosbalance.testing.fuzz_duel import duel_spec

#: the seat counts and Arena modes the fuzz draws, with their weights (two players most often)
MODES: tuple[tuple[str, float], ...] = (("two_player", 0.6), ("free_for_all", 0.2), ("two_vs_two", 0.2))


#: share of matches with a short turn limit (the rest play to the default bound)
SHORT_SHARE = 0.5


#: the short turn limits drawn (game turns)
SHORT_TURNS = (2, 12)


#: a search-tier AI's weight in the draw of a seat's AI (another AI's is 1), and its turn limits:
#: its reference plays a game turn in a tenth of a second or more, a hundred times the others'
SEARCH_WEIGHT = 0.1


SEARCH_TURNS = (2, 6)


#: the turn limits of a match seating a search AI whose core box match costs more than
#: :data:`DEEP_SEARCH_COST` seconds (the registry's measured costs, ``ai_cost``): its reference
#: spends seconds on a game turn, ten times mcts-race's, and the default fuzz cannot pay six of
#: them: at 2 to 3 game turns the 23 such specs of the default 1,000 took 115 of its 187 reference CPU s.
#: Two, not one: in a first game turn the teams seldom meet, and the search then keeps its base's plan
#: without searching (a few hundredths of a second), so the second turn is where it decides
DEEP_SEARCH_TURNS = (2, 2)
DEEP_SEARCH_COST = 1.0


#: share of matches in which one Krosmaster present carries a mechanic of :data:`MECHANICS`
MECHANIC_SHARE = 0.1


#: the mechanics a patch gives (R-A80, R-A108; traps need a trap token, which no Arena card summons)
MECHANICS = ("element_bonus", "invisibility", "stimulus")


#: the key of the mechanics' own stream (``default_rng([master_seed, k, MECHANIC_STREAM])``)
MECHANIC_STREAM = 37


#: Blast's effect keywords, which an Arena designer's card may print (R-B28 ``move_to_target``,
#: Roulette de chat's ``different_target_next``): added to an attack of a Krosmaster present that
#: targets any cell, in :data:`KEYWORD_SHARE` of the specs that drew no mechanic, from a stream of
#: their own (``default_rng([master_seed, k, KEYWORD_STREAM])``; the duels' is 41), so every spec
#: drawn before is unchanged
KEYWORDS = ("move_to_target", "different_target_next")
KEYWORD_SHARE = 0.05
KEYWORD_STREAM = 43


#: share of matches with restricted play
RESTRICTED_SHARE = 0.15


@cache
def arena_sets() -> tuple[str, ...]:
    """The sets with at least one Arena Krosmaster (the registry's, by set)."""
    registry = default_registry()
    return tuple(s for s in registry.list_sets() if registry.list_characters(game="arena", set=s))


@cache
def teams_by_set(mode: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Every legal team of ``mode`` (Arena's ``all_teams`` over the whole Arena roster), grouped by
    the sets whose cards it fields (a team fielding two sets is in both); sets without a legal team
    are left out."""
    registry = default_registry()
    legal = get_ruleset("arena", {"mode": mode}).all_teams(registry.list_characters(game="arena"), registry)
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for name in arena_sets():
        cards = set(registry.list_characters(game="arena", set=name))
        teams = tuple(tuple(team) for team in legal if cards.intersection(team))
        if teams:
            out[name] = teams
    return out


@cache
def board_zones() -> dict[str, tuple[int, ...]]:
    """Every Arena board's deployment zones, as cell counts."""
    registry = default_registry()
    return {
        board: tuple(zone.bit_count() for zone in registry.load_board(board).deploy)
        for board in registry.list_boards("arena")
    }


def boards_for(seats: int, mode: str) -> list[str]:
    """The Arena boards with a zone per seat where some legal team of ``mode`` deploys."""
    return [
        b for b, zones in board_zones().items() if len(zones) >= seats and teams_fitting(mode, min(zones))
    ]


@cache
def teams_fitting(mode: str, room: int) -> dict[str, tuple[tuple[str, ...], ...]]:
    """:func:`teams_by_set` less the teams of more than ``room`` Krosmasters (a zone's cells)."""
    out = {name: tuple(t for t in teams if len(t) <= room) for name, teams in teams_by_set(mode).items()}
    return {name: teams for name, teams in out.items() if teams}


@cache
def rewards_by_set() -> dict[str, tuple[str, ...]]:
    """The Demonic Reward tokens of each set (the registry's)."""
    registry = default_registry()
    sets = sorted({spec.set for spec in registry.all_rewards()})
    return {name: tuple(registry.list_rewards(set=name)) for name in sets}


#: the four-player search AIs, drawn last into a share of the four-player matches (not by
#: :func:`core_ais`: the specs drawn before they joined stay the same)
FOUR_SEATS_SEARCH: tuple[str, ...] = ("lookahead-4p",)
#: the share of the four-player matches in which a four-player search AI takes one seat
FOUR_SEARCH_SHARE = 0.1
#: the turn bound of those matches (game turns: one seat's turn each, so one to two rounds)
FOUR_SEARCH_TURNS = (4, 8)


def core_ais(seats: int) -> list[str]:
    """The AIs the core plays for ``seats`` seats: ``random`` and :data:`native_match.PORTED_AIS`
    (read now, so an AI ported later is fuzzed too), less those the registry says cannot play
    that many seats and the four-player searches (:data:`FOUR_SEATS_SEARCH`, drawn apart)."""
    known = set(list_ais("arena"))
    names = ["random", *(n for n in native_match.PORTED_AIS if n not in ("random", *FOUR_SEATS_SEARCH))]
    return [n for n in names if n in known and not ai_problem(n, "arena", seats)]


def _is_search(name: str) -> bool:
    return ai_tier(name) == "search"


@cache
def is_deep_search(name: str) -> bool:
    """A search AI whose measured box match costs more than :data:`DEEP_SEARCH_COST` in the core
    (one never timed on a box match, a four-player or Duel search, is not)."""
    cost, how = ai_cost(name)
    return _is_search(name) and how == "measured" and cost > DEEP_SEARCH_COST


def _pick(rng: np.random.Generator, items: Sequence[Any]) -> Any:
    return items[int(rng.integers(len(items)))]


def _team(rng: np.random.Generator, mode: str, room: int) -> list[str]:
    by_set = teams_fitting(mode, room)
    return list(_pick(rng, by_set[_pick(rng, sorted(by_set))]))


def _reward_lists(
    rng: np.random.Generator, tokens: Sequence[str], teams: Sequence[Sequence[str]]
) -> dict[str, Any]:
    """The reward study's per-side options: start rewards (with kama or GG prices and holders, or
    not), or purchasable ones, or both."""
    opts: dict[str, Any] = {}
    deck = [tokens[int(i)] for i in rng.permutation(len(tokens))]  # one copy of each token in the box
    kind = int(rng.integers(3))
    if kind in (0, 2):
        start = [[deck.pop() for _ in range(int(rng.integers(0, 3)))] for _ in range(2)]
        if not any(start):
            start[0].append(deck.pop())
        opts["start_rewards"] = start
        price = int(rng.integers(4))
        if price == 1:
            opts["start_reward_prices"] = [[int(rng.integers(0, 6)) for _ in side] for side in start]
        elif price == 2:
            opts["start_reward_gg_prices"] = [[int(rng.integers(0, 2)) for _ in side] for side in start]
        elif price == 3:
            opts["start_reward_holders"] = [
                [_pick(rng, ["", *teams[s]]) for _ in side] for s, side in enumerate(start)
            ]
    if kind in (1, 2):
        opts["purchasable_rewards"] = [[deck.pop() for _ in range(int(rng.integers(1, 3)))] for _ in range(2)]
        opts["kama_reserve"] = int(_pick(rng, (54, 200)))
    return opts


def _options(
    rng: np.random.Generator, mode: str, teams: Sequence[Sequence[str]], limits: tuple[int, int] | None
) -> dict[str, Any]:
    """Arena option overrides for one match (independent draws; most matches change a few); a
    ``turn_limit`` drawn within ``limits`` when given."""
    two = mode == "two_player"
    opts: dict[str, Any] = {} if two else {"mode": mode}

    def maybe(p: float) -> bool:
        return bool(rng.random() < p)

    if limits is not None:
        opts["turn_limit"] = int(rng.integers(limits[0], limits[1] + 1))
    if maybe(0.3):
        opts["turn_limit_result"] = "gg"
    if maybe(0.15):
        opts["first_turn_tension"] = True
    if maybe(0.1):
        opts["zero_gg_loses"] = True
    if maybe(0.1):
        opts["simultaneous_zero_gg"] = "play_on"
    if maybe(0.1):
        opts["lock_block_ends_turn"] = False
    if maybe(0.1):
        opts["bombs_unfazed"] = True
    if maybe(0.1):
        opts["bomb_armour_dice"] = int(rng.integers(0, 3))
    if maybe(0.1):
        opts["scenery_destruction"] = True
        opts["scenery_hit_under_piece"] = maybe(0.5)
    if maybe(0.05):
        opts["strict_corner_los"] = True
    if maybe(0.05):
        opts["caster_in_own_area"] = False
    if maybe(0.1):
        opts["gg_price"] = int(rng.integers(4, 13))
        opts["kama_reserve"] = int(_pick(rng, (30, 54, 200)))
    if maybe(0.1):
        if two:
            opts["starting_gg"] = int(rng.integers(2, 7))
            opts["wild_gg"] = int(rng.integers(0, 3))
        else:
            opts["four_player_gg"] = int(rng.integers(1, 4))
            opts["four_player_wild_gg"] = int(rng.integers(0, 4))
    rewards = int(rng.integers(5)) if two else 2 * int(rng.integers(2))  # four seats: the market only
    if rewards in (2, 4):
        opts["demonic_rewards"] = True
        if maybe(0.3):
            opts["reward_prices"] = {
                "granite": int(rng.integers(1, 4)),
                "jade": int(rng.integers(2, 7)),
                "gold": 12,
            }
            opts["kama_reserve"] = int(_pick(rng, (54, 200)))
        if maybe(0.2):
            opts["reward_refill"] = "none"
        if maybe(0.2):
            opts["reward_reveal"] = "staged"
        if maybe(0.2):
            opts["element_boost_waits"] = True
    if rewards in (3, 4):
        tokens = [t for name in sorted(rewards_by_set()) for t in rewards_by_set()[name]]
        opts.update(_reward_lists(rng, tokens, teams))
    return opts


def _forbid(
    rng: np.random.Generator, teams: Sequence[Sequence[str]], options: Mapping[str, Any]
) -> dict[str, list[str]]:
    """Restricted play: one or two elements of one Krosmaster present (``elements_of``)."""
    name = _pick(rng, _pick(rng, teams))
    elements = elements_of(default_registry().load_character(name), get_ruleset("arena", dict(options)))
    order = rng.permutation(len(elements))[: 1 + int(rng.integers(2))]
    return {name: [elements[int(i)] for i in order]}


def _mechanic(master_seed: int, k: int, teams: Sequence[Sequence[str]]) -> dict[str, Any] | None:
    """The mechanic of :data:`MECHANICS` one Krosmaster present carries, in :data:`MECHANIC_SHARE`
    of the specs (None otherwise), as plain data: ``card``, ``kind`` and, for ``element_bonus``, the
    elemental attack it goes on (``spell``), of that attack's ``element``, ``amount`` +1 or +2 (a
    card without one gets Invisibility); for ``stimulus`` its ``marker``."""
    rng = np.random.default_rng([master_seed, k, MECHANIC_STREAM])
    if rng.random() >= MECHANIC_SHARE:
        return _keyword(master_seed, k, teams)
    name = str(_pick(rng, _pick(rng, teams)))
    card = default_registry().load_character(name)
    kind = MECHANICS[int(rng.integers(len(MECHANICS)))]
    attacks = [s for s in card.spells if s.kind == "attack" and s.element != "neutral"]
    if kind == "element_bonus" and attacks:
        spell = _pick(rng, attacks)
        return {
            "card": name,
            "kind": kind,
            "spell": spell.id,
            "element": spell.element,
            "amount": 1 + int(rng.integers(2)),
        }
    if kind == "stimulus":
        return {"card": name, "kind": kind, "marker": "mp" if rng.random() < 0.5 else "ap"}
    return {"card": name, "kind": "invisibility"}


def _keyword(master_seed: int, k: int, teams: Sequence[Sequence[str]]) -> dict[str, Any] | None:
    """A keyword of :data:`KEYWORDS` on an attack (``spell``) that targets any cell of a Krosmaster
    present, in :data:`KEYWORD_SHARE` of the specs (None otherwise, or when the card has none)."""
    rng = np.random.default_rng([master_seed, k, KEYWORD_STREAM])
    if rng.random() >= KEYWORD_SHARE:
        return None
    name = str(_pick(rng, _pick(rng, teams)))
    kind = KEYWORDS[int(rng.integers(len(KEYWORDS)))]
    attacks = [
        s for s in default_registry().load_character(name).spells if s.kind == "attack" and s.target == "any"
    ]
    if not attacks:
        return None
    return {"card": name, "kind": kind, "spell": _pick(rng, attacks).id}


def registry_of(spec: Mapping[str, Any]) -> Any:
    """The registry a spec plays: the shared one (None) or, with a ``mechanic``, one in which that
    Krosmaster's card carries it (both engines play it)."""
    mechanic = spec.get("mechanic")
    return None if not mechanic else _mechanic_registry(json.dumps(mechanic, sort_keys=True))


@lru_cache(maxsize=64)
def _mechanic_registry(mechanic_json: str) -> Any:
    """The shared registry with one card given a mechanic (built once per process and mechanic)."""
    m = json.loads(mechanic_json)
    registry = default_registry()
    card = registry.load_character(m["card"])
    if m["kind"] == "element_bonus":
        bonus = EffectSpec("element_bonus", {"element": m["element"], "amount": m["amount"]})
        spells = tuple(
            dataclasses.replace(s, effects=(*s.effects, bonus)) if s.id == m["spell"] else s
            for s in card.spells
        )
        card = dataclasses.replace(card, spells=spells)
    elif m["kind"] in KEYWORDS:
        keyword = EffectSpec(m["kind"], {})
        spells = tuple(
            dataclasses.replace(s, effects=(*s.effects, keyword)) if s.id == m["spell"] else s
            for s in card.spells
        )
        card = dataclasses.replace(card, spells=spells)
    else:
        params = {"marker": m["marker"]} if m["kind"] == "stimulus" else {}
        card = dataclasses.replace(card, powers=(*card.powers, PowerSpec(m["kind"], params)))
    return registry.with_specs((dataclasses.replace(card, version=f"{card.version}+fuzz-{m['kind']}"),))


def match_spec(master_seed: int, k: int) -> dict[str, Any]:
    """Spec ``k`` of the fuzz of ``master_seed``: ``id`` (``k``), ``master_seed``, ``teams``, ``board``, ``ai`` (one name a
    seat), ``seed``, ``options``, under restricted play ``forbid``, and with a mechanic no shipped
    card uses ``mechanic`` (drawn alone: any slice of the fuzz gives the same specs). A share of the
    matches are duels instead (``ruleset = "duel"``, :mod:`krosbalance.testing.fuzz_duel`), and a share
    of the others Krosmaster Blast matches (``ruleset = "blast"``, :mod:`krosbalance.testing.fuzz_blast`)."""
    duel = duel_spec(master_seed, k)
    if duel is not None:
        return duel
    blast = blast_spec(master_seed, k)
    if blast is not None:
        return blast
    rng = np.random.default_rng([master_seed, k])
    mode = str(rng.choice([m for m, _ in MODES], p=[w for _, w in MODES]))
    seats = 2 if mode == "two_player" else 4
    boards = boards_for(seats, mode)
    weights = np.sqrt([sum(map(len, teams_fitting(mode, min(board_zones()[b])).values())) for b in boards])
    board = str(rng.choice(boards, p=weights / weights.sum()))
    teams = [_team(rng, mode, min(board_zones()[board])) for _ in range(seats)]
    ais = core_ais(seats)
    weights = np.array([SEARCH_WEIGHT if _is_search(n) else 1.0 for n in ais])
    drawn = rng.choice(len(ais), size=1 if rng.random() < 0.3 else seats, p=weights / weights.sum())
    names = [ais[int(i)] for i in np.resize(drawn, seats)]  # 30%: one AI in every seat
    if any(is_deep_search(n) for n in names):
        limits: tuple[int, int] | None = DEEP_SEARCH_TURNS
    elif any(_is_search(n) for n in names):
        limits = SEARCH_TURNS
    else:
        limits = SHORT_TURNS if rng.random() < SHORT_SHARE else None
    options = _options(rng, mode, teams, limits)
    spec: dict[str, Any] = {
        "id": k,
        "master_seed": master_seed,
        "teams": teams,
        "board": board,
        "ai": names,
        "seed": int(rng.integers(2**40)),
        "options": options,
    }
    if rng.random() < RESTRICTED_SHARE:
        spec["forbid"] = _forbid(rng, teams, options)
    mechanic = _mechanic(master_seed, k, teams)
    if mechanic is not None:
        spec["mechanic"] = mechanic
    # drawn last, so the four-player matches without it are the specs they were before it joined
    if seats == 4 and rng.random() < FOUR_SEARCH_SHARE:
        spec["ai"][int(rng.integers(seats))] = FOUR_SEATS_SEARCH[int(rng.integers(len(FOUR_SEATS_SEARCH)))]
        options["turn_limit"] = int(rng.integers(FOUR_SEARCH_TURNS[0], FOUR_SEARCH_TURNS[1] + 1))
    return spec


def match_specs(n: int, master_seed: int, start: int = 0) -> list[dict[str, Any]]:
    """Specs ``start`` to ``start + n`` of the fuzz of ``master_seed``."""
    return [match_spec(master_seed, k) for k in range(start, start + n)]


def describe(spec: Mapping[str, Any]) -> dict[str, str]:
    """The spec's labels for the counts: mode, AIs, rewards, turn limit, restriction, mechanic."""
    opts = spec["options"]
    rewards = "market" if opts.get("demonic_rewards") else "off"
    if any(opts.get(k) for k in ("start_rewards", "purchasable_rewards")):
        rewards = "study" if rewards == "off" else "market+study"
    return {
        "mode": spec["ruleset"]
        if spec.get("ruleset", "arena") != "arena"
        else opts.get("mode", "two_player"),
        "rewards": rewards,
        "turns": "short" if "turn_limit" in opts else "full",
        "restricted": "yes" if spec.get("forbid") else "no",
        "mechanic": spec["mechanic"]["kind"] if spec.get("mechanic") else "none",
    }
