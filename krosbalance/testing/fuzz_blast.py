"""Krosmaster Blast's share of the differential fuzz (:mod:`krosbalance.testing.differential`): which
fuzz matches are Blast matches, and their specs.

Match ``k`` of a master seed that is not a duel is a Blast match with chance :data:`BLAST_SHARE`,
decided by a stream of its own (``[master_seed, k, BLAST_STREAM]``), so the duels are the same specs
with or without Blast beside them, the Arena matches that stay Arena are the same specs, and any
slice of the fuzz gives the same Blast matches. A Blast spec draws two disjoint teams from every
legal team of the Blast Krosmasters (by kind and game), a Blast board, the AIs the core plays in
Blast (:data:`krosbalance.native_blast.BLAST_AIS`, each seat on its own) and a few Blast options,
each drawn on its own: the Divine Challenges (none, named from the box's cards, ``random`` ones,
several), the tier reading and overridden tiers, the favor deck (its size, the superior favors),
the dice faces, tackle (off, two dice or one per enemy), terrain (Fire's damage and roll, the
tiles' limit and range, Ice chains, forced moves), glyph capture by effect and by slide, bonus
damage rolls, ``mutual_ko``, short turn bounds and line of sight. The search AI
(``blast-lookahead``) takes one seat in a share of them (:data:`SEARCH_SHARE`) under a short turn
bound, drawn after everything else, so the matches without it are the specs they were before it
joined.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from krosbalance.ai.registry import ai_tier, canonical_ai, list_ais
from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import default_registry, list_boards
from krosbalance.native_blast import BLAST_AIS
from krosbalance.rulesets.blast.pregame import legal_teams
from krosbalance.testing.fuzz_duel import duel_spec

#: the share of the fuzz's non-duel matches that are Blast matches
BLAST_SHARE = 0.10
#: the third word of the stream that decides whether a match is a Blast match and draws it (the
#: duels' is 41, the mechanics' 37, the keywords' 43)
BLAST_STREAM = 47
#: the share of the Blast matches in which a search AI takes one seat, and its turn bounds, the
#: second excluded (its reference plays a player turn in a second or two, so the share is small and
#: the match 2 game turns: at 2 to 3 the 15 such specs of the default 2,000 took about four fifths of the
#: Blast fuzz's reference time; its third turn is played in the Blast search differential)
SEARCH_SHARE = 0.01
SEARCH_TURNS = (2, 3)


@cache
def blast_teams() -> tuple[tuple[str, ...], ...]:
    """Every legal Blast team of two (the Blast Krosmasters, by kind and game)."""
    pool = default_registry().list_characters("krosmaster", game="blast")
    return tuple(tuple(team) for team in legal_teams(pool, 2))


@cache
def challenges() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The box's Divine Challenges by id, each with its bonuses' ids, in the cards' order."""
    return tuple((c.id, tuple(b.id for b in c.bonuses)) for c in blast_cards().challenges())


def _options(rng: np.random.Generator) -> dict[str, Any]:
    options: dict[str, Any] = {}

    def maybe(p: float) -> bool:
        return bool(rng.random() < p)

    cards = challenges()
    kind = int(rng.integers(4))  # none, one named, one named and random ones, random ones
    if kind:
        order = [cards[int(i)] for i in rng.permutation(len(cards))]
        named = [order[0][0]] if kind in (1, 2) else []
        randoms = ["random"] * (int(rng.integers(1, 3)) if kind in (2, 3) else 0)
        options["challenges"] = named + randoms
        if named and maybe(0.3):
            bonuses = order[0][1]
            bonus = bonuses[int(rng.integers(len(bonuses)))]
            options["challenge_tiers"] = {f"{named[0]}.{bonus}": int(rng.integers(1, 6))}
    if maybe(0.3):
        options["challenge_tier_reading"] = "alternative"
    if maybe(0.2):
        options["superior_favors"] = False
    if maybe(0.3):
        options["favor_deck_size"] = int(rng.integers(2, 11))
    if maybe(0.3):
        options["dice_faces"] = "basic"
    if maybe(0.2):
        options["tackle_zone"] = False
    elif maybe(0.25):
        options["tackle_dice_several"] = "per_enemy"
    if maybe(0.2):
        options["fire_damage"] = int(rng.integers(1, 4))
    if maybe(0.2):
        options["fire_combat_roll"] = True
    if maybe(0.2):
        options["terrain_max_per_type"] = int(rng.integers(1, 4))
    if maybe(0.2):
        options["terrain_range"] = int(rng.integers(1, 5))
    if maybe(0.15):
        options["ice_slide_chain"] = False
    if maybe(0.15):
        options["terrain_on_forced_moves"] = False
    if maybe(0.15):
        options["glyph_capture_by_effect"] = False
    if maybe(0.15):
        options["glyph_capture_by_slide"] = False
    if maybe(0.2):
        options["bonus_damage_combat_roll"] = True
    if maybe(0.2):
        options["mutual_ko"] = "active_loses"
    if maybe(0.2):
        options["turn_limit"] = int(rng.integers(2, 12))
    if maybe(0.1):
        options["strict_corner_los"] = True
    return options


def blast_spec(master_seed: int, k: int) -> dict[str, Any] | None:
    """Spec ``k`` of the fuzz of ``master_seed`` when it is a Blast match (``ruleset = "blast"``),
    else None (the caller has already ruled out a duel)."""
    rng = np.random.default_rng([master_seed, k, BLAST_STREAM])
    if rng.random() >= BLAST_SHARE:
        return None
    teams = blast_teams()
    team0 = teams[int(rng.integers(len(teams)))]
    others = [t for t in teams if set(t).isdisjoint(team0)]
    team1 = others[int(rng.integers(len(others)))]
    boards = list_boards("blast")
    ais = [
        name for name in list_ais("blast") if canonical_ai(name) in BLAST_AIS and ai_tier(name) != "search"
    ]
    spec: dict[str, Any] = {
        "id": k,
        "master_seed": master_seed,
        "ruleset": "blast",
        "teams": [list(team0), list(team1)],
        "board": boards[int(rng.integers(len(boards)))],
        "ai": [ais[int(rng.integers(len(ais)))] for _ in range(2)],
        "seed": int(rng.integers(2**40)),
        "options": _options(rng),
    }
    # drawn last, so the matches without a search AI are the specs they were before it joined
    searches = [name for name in list_ais("blast") if name in BLAST_AIS and ai_tier(name) == "search"]
    if searches and rng.random() < SEARCH_SHARE:
        spec["ai"][int(rng.integers(2))] = searches[int(rng.integers(len(searches)))]
        spec["options"]["turn_limit"] = int(rng.integers(*SEARCH_TURNS))
    return spec


def blast_specs(n: int, master_seed: int) -> list[dict[str, Any]]:
    """The first ``n`` Blast matches of the fuzz of ``master_seed`` (the specs ``match_spec`` gives
    for them), in match id order: the fuzz's Blast stream alone."""
    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < n:
        if duel_spec(master_seed, k) is None:
            spec = blast_spec(master_seed, k)
            if spec is not None:
                out.append(spec)
        k += 1
    return out
