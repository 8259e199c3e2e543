"""The differential fuzz: random legal Arena matches played by the native core and by the Python
reference, their event logs compared, and the first divergence shown as a readable replay step.

The core (``krosbalance_core``) is held to the reference event for event (core/README.md). Golden
rows pin a few thousand fixed matches; this module draws as many new ones as asked, from one master
seed, over everything the core plays:

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
- **AIs**: ``random`` and every AI of :data:`krosbalance.native_match.PORTED_AIS`, read when a spec
  is drawn (an AI ported later joins by itself), each seat drawn on its own, an AI that cannot play
  a seat count (the registry's ``ai_problem``: two-player-only AIs) left out of four-player matches;
  30% of the matches seat one AI everywhere. A search-tier AI (whose reference plays a hundred times
  slower) is drawn a tenth as often as another and always plays a match of 2 to 6 game turns;
- **seeds**: spec ``k`` is drawn from ``default_rng([master_seed, k])``, so any slice of the fuzz is
  drawn alone, in any process, with the same result (parallel runs do not depend on the job count).

Both engines play with ``record="full"``; :func:`compare` reads the core's ``(kind, fields)`` events
and the reference's typed events as the same plain lists, then the result (winner, end reason,
turns, holdings, every fighter's counters). On a mismatch :class:`Divergence` says which step
differs, the events just before it, both engines' event there, and the state each engine's log
gives at that step: pieces (square, HP, KO), GG and kamas, and the acting figure's AP and MP. The
state starts from the reference's last checkpoint before the step (exact: the reference's live
pieces and holdings at a turn end, kept by ``record="full"``; the logs of both engines agree up to
the step) and folds each engine's own events from there.

A divergence planted in the core (``ArenaCatalog.play(..., plant_divergence_at=k)``: the k-th event
of the core's log is altered inside the core, test-only) is how the tests prove this harness works.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np

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
#: share of matches with restricted play
RESTRICTED_SHARE = 0.15
#: events shown before the first differing one
CONTEXT = 6


# ---------------------------------------------------------------------------- content


@cache
def arena_sets() -> tuple[str, ...]:
    """The sets with at least one Arena Krosmaster (the registry's, by set)."""
    from krosbalance.content.registry import default_registry

    registry = default_registry()
    return tuple(s for s in registry.list_sets() if registry.list_characters(game="arena", set=s))


@cache
def teams_by_set(mode: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Every legal team of ``mode`` (Arena's ``all_teams`` over the whole Arena roster), grouped by
    the sets whose cards it fields (a team fielding two sets is in both); sets without a legal team
    are left out."""
    from krosbalance.content.registry import default_registry
    from krosbalance.rulesets.registry import get_ruleset

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
    from krosbalance.content.registry import default_registry

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
    from krosbalance.content.registry import default_registry

    registry = default_registry()
    sets = sorted({spec.set for spec in registry.all_rewards()})
    return {name: tuple(registry.list_rewards(set=name)) for name in sets}


def core_ais(seats: int) -> list[str]:
    """The AIs the core plays for ``seats`` seats: ``random`` and :data:`native_match.PORTED_AIS`
    (read now, so an AI ported later is fuzzed too), less those the registry says cannot play
    that many seats."""
    from krosbalance import native_match
    from krosbalance.ai.registry import ai_problem, list_ais

    known = set(list_ais("arena"))
    names = ["random", *(n for n in native_match.PORTED_AIS if n != "random")]
    return [n for n in names if n in known and not ai_problem(n, "arena", seats)]


def _is_search(name: str) -> bool:
    from krosbalance.ai.registry import ai_tier

    return ai_tier(name) == "search"


# ---------------------------------------------------------------------------- specs


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
    from krosbalance.content.registry import default_registry
    from krosbalance.engine.restriction import elements_of
    from krosbalance.rulesets.registry import get_ruleset

    name = _pick(rng, _pick(rng, teams))
    elements = elements_of(default_registry().load_character(name), get_ruleset("arena", dict(options)))
    order = rng.permutation(len(elements))[: 1 + int(rng.integers(2))]
    return {name: [elements[int(i)] for i in order]}


def match_spec(master_seed: int, k: int) -> dict[str, Any]:
    """Spec ``k`` of the fuzz of ``master_seed``: ``id`` (``k``), ``master_seed``, ``teams``, ``board``, ``ai`` (one name a
    seat), ``seed``, ``options`` and, under restricted play, ``forbid`` (drawn alone: any slice of
    the fuzz gives the same specs)."""
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
    if any(_is_search(n) for n in names):
        limits: tuple[int, int] | None = SEARCH_TURNS
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
    return spec


def match_specs(n: int, master_seed: int, start: int = 0) -> list[dict[str, Any]]:
    """Specs ``start`` to ``start + n`` of the fuzz of ``master_seed``."""
    return [match_spec(master_seed, k) for k in range(start, start + n)]


def describe(spec: Mapping[str, Any]) -> dict[str, str]:
    """The spec's labels for the counts: mode, AIs, rewards, turn limit, restriction."""
    opts = spec["options"]
    rewards = "market" if opts.get("demonic_rewards") else "off"
    if any(opts.get(k) for k in ("start_rewards", "purchasable_rewards")):
        rewards = "study" if rewards == "off" else "market+study"
    return {
        "mode": opts.get("mode", "two_player"),
        "rewards": rewards,
        "turns": "short" if "turn_limit" in opts else "full",
        "restricted": "yes" if spec.get("forbid") else "no",
    }


# ---------------------------------------------------------------------------- playing


def play_core(
    specs: Sequence[Mapping[str, Any]], plant_divergence_at: int | None = None
) -> list[dict[str, Any]]:
    """The core's results (``record="full"``) of a batch of specs, one boundary crossing; a match
    the core refuses or faults on is ``{"error": message}``. Unlike ``native_match.play_many_core``
    this plays every AI of ``PORTED_AIS`` (ported, maybe not yet proven identical: proving it is
    this harness's job). ``plant_divergence_at`` (test-only) plays one match with the divergence
    planted in the core."""
    from krosbalance import native_match
    from krosbalance.play import _ai_names
    from krosbalance.rulesets.registry import get_ruleset

    batch = []
    for spec in specs:
        teams = spec["teams"]
        rules = get_ruleset("arena", dict(spec["options"]))
        level = getattr(rules, "team_level", 0)
        ids = [native_match._validated(tuple(t), seat, level, len(teams)) for seat, t in enumerate(teams)]
        forbid = {k: list(v) for k, v in (spec.get("forbid") or {}).items()}
        names = native_match._core_ids(_ai_names(tuple(spec["ai"]), len(teams)))  # as the core knows them
        batch.append(
            (ids, native_match._core_board(spec["board"]), rules.options, names, spec["seed"], forbid)
        )
    catalog = native_match.catalog()
    if plant_divergence_at is not None:
        (one,) = batch
        return [catalog.play(*one[:5], "full", one[5], plant_divergence_at=plant_divergence_at)]
    return list(catalog.play_many(batch, "full", 1))


def play_reference(spec: Mapping[str, Any]) -> Any:
    """The reference's ``MatchResult`` of a spec (``engine="reference"``, ``record="full"``)."""
    from krosbalance.play import play_match

    return play_match(
        *spec["teams"],
        board=spec["board"],
        ai=tuple(spec["ai"]),
        seed=spec["seed"],
        options=spec["options"],
        record="full",
        forbid=spec.get("forbid"),
        engine="reference",
    )


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _event(event: Any) -> list[Any]:
    """A reference event as ``[kind, {field: value}]`` (every field, the core's names)."""
    names = (
        [f.name for f in dataclasses.fields(event)]
        if dataclasses.is_dataclass(event)
        else [n for cls in type(event).__mro__ for n in getattr(cls, "__slots__", ())]
    )
    return [event.kind, {name: _plain(getattr(event, name)) for name in names}]


def _reference_head(result: Any) -> dict[str, Any]:
    values = result.values
    fighters = []
    for record in result.fighters:
        row = dict(record.as_row())
        row.update(record.values)
        fighters.append(_plain(row))
    return {
        "winner": result.winner,
        "end_reason": result.end_reason,
        "turns": result.turns,
        "first_player": result.first_player,
        "play_order": _plain(result.play_order),
        "partnerships": _plain(result.partnerships),
        "gg": _plain(values["gg"]),
        "kamas": _plain(values["kamas"]),
        "wild_gg_left": values["wild_gg_left"],
        "teams": _plain(result.teams),
        "fighters": fighters,
    }


def _core_head(out: Mapping[str, Any], like: Mapping[str, Any]) -> dict[str, Any]:
    """The core's result head, with the keys of the reference's (a key the core does not return
    is ``None`` there, so it differs)."""
    return {key: _plain(out.get(key)) for key in like}


# ---------------------------------------------------------------------------- comparing


@dataclasses.dataclass
class Divergence:
    """The first difference between the engines' records of one match.

    Attributes:
        spec: the match.
        index: the first differing event (``len(events)`` when the events agree and the result
            differs).
        core, reference: both engines' plain events (``[kind, fields]``).
        core_head, reference_head: both results (winner, end reason, holdings, fighters' counters).
        checkpoints: the reference's checkpoints (``record="full"``), where the states start.
        width: the board's width, for square names.
    """

    spec: dict[str, Any]
    index: int
    core: list[list[Any]]
    reference: list[list[Any]]
    core_head: dict[str, Any]
    reference_head: dict[str, Any]
    checkpoints: list[Any]
    width: int

    @property
    def in_result(self) -> bool:
        return self.index >= min(len(self.core), len(self.reference)) and len(self.core) == len(
            self.reference
        )

    def states(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The state after step :attr:`index` as the core's and the reference's logs give it."""
        return fold(self.checkpoints, self.core, self.index), fold(
            self.checkpoints, self.reference, self.index
        )

    def report(self) -> str:
        """The readable report: the spec, the step, the events before it, both engines' event and
        both states there (or both results, when only the result differs)."""
        spec = self.spec
        lines = [
            f"DIVERGENCE between the core and the reference in fuzz match {spec.get('id')}",
            "spec: " + json.dumps(spec, sort_keys=True),
            f"AIs {' / '.join(spec['ai'])} on {spec['board']}, seed {spec['seed']}",
        ]
        if "master_seed" in spec:
            lines.append(
                "replay it: python -m krosbalance.tools.differential "
                f"--seed {spec['master_seed']} --only {spec['id']}"
            )
        if self.in_result:
            lines.append(f"every one of the {len(self.core)} events agrees; the result differs:")
            for key in self.reference_head:
                ours, theirs = self.core_head.get(key), self.reference_head[key]
                if ours != theirs:
                    lines += [f"  {key}:", f"    core      {_short(ours)}", f"    reference {_short(theirs)}"]
            return "\n".join(lines)
        i = self.index
        lines.append(
            f"first differing event: step {i} (the core logged {len(self.core)} events, "
            f"the reference {len(self.reference)})"
        )
        lines.append("events just before (both engines agree):")
        lines += [f"    {j:5d} {_line(self.reference[j])}" for j in range(max(0, i - CONTEXT), i)]
        lines.append(f"at step {i}:")
        lines.append(
            f"  core      {_line(self.core[i]) if i < len(self.core) else '(no event: the log ends)'}"
        )
        lines.append(
            f"  reference {_line(self.reference[i]) if i < len(self.reference) else '(no event: the log ends)'}"
        )
        ours, theirs = self.states()
        lines.append(
            f"state after step {i}, as each engine's log gives it (from the reference's exact checkpoint "
            f"of turn {theirs['turn']}, after its first {theirs['from']} events, then each engine's own "
            "events up to the step):"
        )
        lines.append(f"  {'':34s} {'core':26s} reference")
        keys = sorted(set(ours["pieces"]) | set(theirs["pieces"]))
        for uid in keys:
            a, b = ours["pieces"].get(uid), theirs["pieces"].get(uid)
            label = (b or a)["label"]
            text_a, text_b = _piece(a, self.width), _piece(b, self.width)
            mark = "*" if text_a != text_b else " "
            lines.append(f"{mark} {label:34s} {text_a:26s} {text_b}")
        for key in ("gg", "kamas", "active"):
            a, b = (v if isinstance(v, str) else _short(v) for v in (ours[key], theirs[key]))
            lines.append(f"{'*' if a != b else ' '} {key:34s} {a:26s} {b}")
        return "\n".join(lines)


def _short(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _line(event: Sequence[Any]) -> str:
    kind, fields = event
    return f"{kind} {_short(fields)}"


def _piece(piece: Mapping[str, Any] | None, width: int) -> str:
    from krosbalance.render.notation import cell_name

    if piece is None:
        return "(not in play)"
    if not piece["alive"]:
        return "KO"
    hp = (
        f"{piece['hp'] - piece['injuries']}/{piece['hp']} HP"
        if piece["hp"]
        else f"{piece['injuries']} injuries"
    )
    return f"{cell_name(piece['cell'], width)} {hp}"


def fold(checkpoints: Sequence[Any], events: Sequence[Sequence[Any]], index: int) -> dict[str, Any]:
    """The pieces (square, HP, injuries, KO), GG, kamas and the acting figure (with the AP and MP
    its activation started with) after event ``index`` of ``events``: the last checkpoint before
    it (the reference's exact state at a turn end or after deployment), then ``events`` from there.
    Kamas: the checkpoint's plus those picked since (a kama change with no event of its own, a GG
    or a reward bought, shows from the next checkpoint on)."""
    base = max((c for c in checkpoints if c.event_index <= index), key=lambda c: c.event_index, default=None)
    if base is None:
        return {"from": -1, "turn": 0, "pieces": {}, "gg": None, "kamas": None, "active": None}
    last = checkpoints[-1]
    known = {p[0]: p for p in last.pieces}
    pieces: dict[int, dict[str, Any]] = {}

    def add(p: Sequence[Any]) -> None:
        uid, cid, name, seat, _kind, _level, cell, hp, injuries, alive = p
        pieces[uid] = {
            "label": f"#{uid} {name} (seat {seat})",
            "seat": seat,
            "cell": cell,
            "hp": hp,
            "injuries": injuries,
            "alive": alive,
        }

    for p in base.pieces:
        add(p)
    gg = list(base.values.get("gg", ()))
    kamas = list(base.values.get("kamas", ()))
    active = None
    for kind, f in events[base.event_index : index + 1]:
        piece = pieces.get(f.get("uid", f.get("target", -1)))
        if kind == "moved" and piece:
            piece["cell"] = f["destination"]
        elif kind == "damaged" and piece:
            piece["injuries"] += f["amount"]
        elif kind == "healed" and piece:
            piece["injuries"] -= f["amount"]
        elif kind == "knocked_out" and piece:
            piece["alive"], piece["cell"] = False, -1
        elif kind == "summoned":
            p = known.get(f["uid"])
            if p is not None:
                add((*p[:6], f["cell"], p[7], 0, True))
        elif kind == "character_turn_started":
            active = f"#{f['uid']}: {f['ap']} AP, {f['mp']} MP at its activation's start"
        elif kind in ("gg_changed", "turn_ended"):
            gg = list(f["gg"])
            for uid, _cid, _seat, cell, injuries in f.get("positions", ()):
                if uid in pieces:
                    pieces[uid]["cell"], pieces[uid]["injuries"] = cell, injuries
        elif kind == "kama_picked" and piece and piece["seat"] < len(kamas):
            kamas[piece["seat"]] += f["amount"]
    return {
        "from": base.event_index,
        "turn": base.turn,
        "pieces": pieces,
        "gg": gg,
        "kamas": kamas,
        "active": active,
    }


def compare(spec: Mapping[str, Any], core_out: Mapping[str, Any], reference: Any) -> Divergence | None:
    """The first divergence between the core's result dict and the reference's ``MatchResult`` of
    one spec, or None when every event and the result agree."""
    ours = [[kind, _plain(fields)] for kind, fields in core_out["events"]]
    theirs = [_event(e) for e in reference.events]
    head = _reference_head(reference)
    core_head = _core_head(core_out, head)
    if ours == theirs and core_head == head:
        return None
    index = next(
        (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs))
    )
    from krosbalance.content.registry import default_registry

    width = default_registry().load_board(spec["board"]).width
    return Divergence(dict(spec), index, ours, theirs, core_head, head, list(reference.checkpoints), width)


# ---------------------------------------------------------------------------- a chunk


@dataclasses.dataclass
class ChunkResult:
    """What a slice of the fuzz found: counts by label, the first divergence (its report) and the
    core's errors (refusals or faults)."""

    matches: int = 0
    counts: Counter[str] = dataclasses.field(default_factory=Counter)
    divergences: int = 0
    first_divergence: str = ""
    first_divergence_id: int = -1
    diverging_ids: list[int] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    cpu_seconds: float = 0.0

    def merge(self, other: ChunkResult) -> None:
        """Add another chunk's findings (the first divergence kept is the lowest match id)."""
        self.matches += other.matches
        self.counts.update(other.counts)
        self.divergences += other.divergences
        self.diverging_ids += other.diverging_ids
        self.errors += other.errors
        self.cpu_seconds += other.cpu_seconds
        if other.first_divergence and (
            self.first_divergence_id < 0 or other.first_divergence_id < self.first_divergence_id
        ):
            self.first_divergence, self.first_divergence_id = (
                other.first_divergence,
                other.first_divergence_id,
            )


def run_specs(specs: Sequence[dict[str, Any]]) -> ChunkResult:
    """Play specs on both engines and compare them (the core in one batch)."""
    started = time.process_time()
    found = ChunkResult()
    for spec, out in zip(specs, play_core(specs), strict=True):
        found.matches += 1
        labels = describe(spec)
        found.counts.update(f"{key}={value}" for key, value in labels.items())
        found.counts.update(f"ai={name}" for name in sorted(set(spec["ai"])))
        found.counts[f"board={spec['board']}"] += 1
        found.counts.update(f"option={key}" for key in spec["options"] if key != "mode")
        if "error" in out:
            found.errors.append(
                f"match {spec['id']}: {out['error']} | spec {json.dumps(spec, sort_keys=True)}"
            )
            continue
        divergence = compare(spec, out, play_reference(spec))
        found.counts[f"end={out['end_reason']}"] += 1
        if divergence is not None:
            found.divergences += 1
            found.diverging_ids.append(spec["id"])
            if not found.first_divergence:
                found.first_divergence, found.first_divergence_id = divergence.report(), spec["id"]
    found.cpu_seconds = time.process_time() - started
    return found


def run_chunk(master_seed: int, start: int, stop: int) -> ChunkResult:
    """Fuzz matches ``start`` to ``stop`` of ``master_seed`` (what one worker runs)."""
    return run_specs(match_specs(stop - start, master_seed, start))
