"""Arena matches played by the native core (``krosbalance_core.play_arena_match``), from the same
names ``krosbalance.play.play_match`` takes: the Python loader reads and validates the content and
the options, the core receives the loaded specs and plays the whole match, and the result comes back
as plain data (no per-action crossing).

So far the core plays Arena for two and four players (free-for-all, two versus two), with the
Demonic Reward market, with the ``random`` AI, the heuristic AIs of :data:`IDENTICAL_AIS`
(``focus_fire``, ``kiter``, ``objective``, their ``-2`` variants, ``kiter-3``, ``kiter-race``) and the
search AIs (``lookahead-fast``, ``lookahead``, ``mcts``, ``mcts-2``, ``mcts-race``, ``mcts-deep``, ``mcts-fair``, ``mcts-sure``: two players, the
whole search in the core); anything else is refused with ``ValueError`` ("not in the core yet: ..." /
"does not play the AI").

The returned dict holds ``winner``, ``end_reason``, ``turns``, ``first_player``, ``gg``, ``kamas``,
``wild_gg_left``, ``teams``, ``fighters`` (the reference's ``FighterRecord.as_row()`` plus Arena's
``kamas_collected`` and ``gg_won``, Krosmasters first) and ``events`` (``(kind, fields)`` pairs with
the reference's event field names), plus ``board``, ``ruleset`` (the ruleset's ``describe()``) and
``seed`` added here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from krosbalance import native
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.registry import ai_tier, canonical_ai, core_ai_id, get_ai
from krosbalance.content.custom import on_content_change
from krosbalance.content.registry import default_registry
from krosbalance.engine.restriction import element_problem
from krosbalance.errors import ContentError
from krosbalance.rulesets.arena.options import ArenaOptions, punch
from krosbalance.rulesets.arena.pregame import check_four_zones
from krosbalance.rulesets.arena.rewards import build_market, reward_creatures
from krosbalance.rulesets.base import summonable
from krosbalance.rulesets.registry import get_ruleset

#: the AIs ported to the core: the heuristic AIs (core/src/ai/planner.rs and its modules), whose
#: weights cross once, with the catalog (the reference's loader reads skills.toml and tuned.toml: one
#: parser), and the search AIs (core/src/ai/search), built in the core over their heuristics' weights
PORTED_AIS: tuple[str, ...] = (  # the registry's ids; the core knows them by core_ai_id (focus_fire)
    "focus-fire",
    "kiter",
    "objective",
    "focus-fire-2",
    "kiter-2",
    "objective-2",
    "kiter-3",
    "kiter-race",
    "lookahead-fast",
    "lookahead",
    "mcts",
    "mcts-2",
    "mcts-race",
    "mcts-deep",
    "mcts-fair",
    "lookahead-4p",
    "mcts-sure",
)
#: the ported heuristic AIs proven identical to the reference, event for event (the golden rows
#: and the differential runs of tests/core/test_heuristic_identity.py); only these are played
IDENTICAL_AIS: frozenset[str] = frozenset(PORTED_AIS)


def _core_ids(names: Sequence[str]) -> list[str]:
    """The AI names as the core knows them (:func:`krosbalance.ai.registry.core_ai_id`: the ids it was
    built with, e.g. ``focus_fire`` for ``focus-fire``), normalised before they cross."""
    return [core_ai_id(name) for name in names]


def _check_ais(names: Sequence[str], opts: Any) -> None:
    """Refuse, before anything is played, an AI the core does not play identically: not ``random``
    and not in :data:`IDENTICAL_AIS`."""
    for name in names:
        if name != "random" and canonical_ai(name) not in IDENTICAL_AIS:
            raise ValueError(
                f"the core does not play the AI {name!r} yet (it plays: random"
                + "".join(f", {n}" for n in sorted(IDENTICAL_AIS))
                + ")"
            )


def play_match_core(
    *teams: Sequence[str],
    board: str = "arena-elemental",
    ai: str | Sequence[str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    forbid: Mapping[str, Sequence[str]] | None = None,
    compact: bool = False,
    rules: Any = None,
    registry: Any = None,
) -> dict[str, Any]:
    """Play one match in the core; the arguments are ``play_match``'s (Arena; ``registry`` the cards,
    the shared registry by default, or a balance patch's, :mod:`krosbalance.sim.patched_cards`;
    ``forbid`` is restricted play, :mod:`krosbalance.engine.restriction`, checked by its
    ``element_problem`` as the reference checks it). ``compact``: each fighter a tuple of
    ``krosbalance_core.COMPACT_FIGHTER_COLUMNS`` instead of a row dict (what
    :func:`krosbalance.engine_choice.core_result` reads fastest). ``rules``: the Arena ruleset
    object of these ``options`` when the caller holds it already (``engine_choice`` does), so it
    is not built a second time per match."""
    prepared = prepare_core(
        *teams, board=board, ai=ai, options=options, forbid=forbid, rules=rules, registry=registry
    )
    return prepared.play(seed, record, compact)


class PreparedMatch:
    """A match shape the core plays, checked: everything :func:`play_match_core` works out of its
    names before the core plays (the reference's checks of the teams, the restrictions, the reward
    options and the AIs; the core's catalog, board and ids), so that the matches of one shape
    (``engine_choice`` keeps them per shape) pay for it once, not once per seed."""

    __slots__ = ("ais", "board", "catalog", "forbid", "ids", "label", "options")

    def __init__(
        self,
        catalog: Any,
        ids: list[list[str]],
        board: Any,
        options: Any,
        ais: list[str],
        forbid: Any,
        label: str,
    ) -> None:
        self.catalog, self.ids, self.board, self.options = catalog, ids, board, options
        self.ais, self.forbid, self.label = ais, forbid, label

    def play(
        self, seed: int, record: str = "none", compact: bool = False, records: tuple[type, type] | None = None
    ) -> dict[str, Any]:
        """The match of this shape with this seed, played in the core (``play_match_core``'s dict;
        ``records``: the reference's ``(FighterRecord, FighterStats)``, each fighter built as a
        ``FighterRecord`` in the core, in ``compact``'s order)."""
        out: dict[str, Any] = self.catalog.play(
            self.ids,
            self.board,
            self.options,
            self.ais,
            seed,
            record,
            self.forbid,
            compact=compact,
            records=records,
        )
        out["board"] = self.board.id
        out["ruleset"] = self.label
        out["seed"] = seed
        return out


def prepare_core(
    *teams: Sequence[str],
    board: str = "arena-elemental",
    ai: str | Sequence[str] = "random",
    options: Mapping[str, Any] | None = None,
    forbid: Mapping[str, Sequence[str]] | None = None,
    rules: Any = None,
    registry: Any = None,
) -> PreparedMatch:
    """The checked shape of the matches :func:`play_match_core` plays with these arguments (every
    one but the seed and what is recorded).

    Raises:
        KrosbalanceError: the reference's own checks (teams, names, restrictions, reward options).
        ValueError: the core does not play this match ("not in the core yet" / "does not play").
    """
    from krosbalance.play import _ai_names  # cycle: play imports this module through engine_choice

    if rules is None:
        rules = get_ruleset("arena", dict(options or {}))
    rules.check_seats(len(teams))
    level = getattr(rules, "team_level", 0)
    cards = registry if registry is not None else default_registry()
    ids = [_validated(tuple(team), seat, level, len(teams), cards) for seat, team in enumerate(teams)]
    core_board = _core_board(board, len(teams))
    if forbid:
        _check_forbid(rules, ids, forbid, cards)
    _check_reward_options(rules.options, cards)
    ais = _core_ids(_ai_names(ai, len(teams)))
    _check_ais(ais, rules.options)
    core_catalog = catalog(cards)
    _check_in_catalog(ids, cards)
    return PreparedMatch(
        core_catalog,
        ids,
        core_board,
        rules.options,
        ais,
        {name: list(elements) for name, elements in (forbid or {}).items()},
        _label(rules, options),
    )


#: the ruleset's label (``describe()``) when no option is given, by ruleset name: the same for every
#: such match, so worked out once per process (a match played in the core is a few hundred
#: microseconds; the label's dataclass walk was a tenth of its Python time)
_DEFAULT_LABELS: dict[str, str] = {}


def _label(rules: Any, options: Mapping[str, Any] | None) -> str:
    """``rules.describe()``, kept per ruleset name for the matches given no options."""
    if options:
        return str(rules.describe())
    if rules.name not in _DEFAULT_LABELS:
        _DEFAULT_LABELS[rules.name] = str(rules.describe())
    return _DEFAULT_LABELS[rules.name]


def play_many_core(
    specs: Sequence[Mapping[str, Any]], record: str = "none", threads: int = 1
) -> list[dict[str, Any]]:
    """A batch of matches in the core, one boundary crossing for the whole batch: each spec a dict
    with ``teams``, ``board``, ``seed`` and optionally ``ai`` (default ``random``), ``options`` and
    ``forbid``, as :func:`play_match_core` takes them. Played without the GIL on ``threads``
    threads. A match the core cannot play, or that faults inside it, comes back as
    ``{"error": message, "seed": ...}`` in its place; the reference's own checks (team rules, names,
    options) raise before anything is played, as for one match."""
    from krosbalance.play import _ai_names  # cycle: play imports this module through engine_choice

    batch = []
    heads = []
    refused: dict[int, str] = {}  # position in the batch -> why the core does not play it
    cards = default_registry()
    core_catalog = catalog(cards)
    for spec in specs:
        teams = spec["teams"]
        rules = get_ruleset("arena", dict(spec.get("options") or {}))
        rules.check_seats(len(teams))
        level = getattr(rules, "team_level", 0)
        ids = [_validated(tuple(team), seat, level, len(teams), cards) for seat, team in enumerate(teams)]
        forbid = spec.get("forbid") or {}
        if forbid:
            _check_forbid(rules, ids, forbid, cards)
        _check_reward_options(rules.options, cards)
        board = _core_board(spec["board"], len(teams))
        names = _core_ids(_ai_names(spec.get("ai", "random"), len(teams)))
        heads.append({"board": board.id, "ruleset": rules.describe(), "seed": spec["seed"]})
        try:
            _check_ais(names, rules.options)
            _check_in_catalog(ids, cards)
        except ValueError as error:  # not played identically: that match's error row
            refused[len(heads) - 1] = str(error)
            continue
        batch.append(
            (ids, board, rules.options, names, spec["seed"], {k: list(v) for k, v in forbid.items()})
        )
    played = iter(core_catalog.play_many(batch, record, threads))
    out: list[dict[str, Any]] = []
    for index, head in enumerate(heads):
        row = {"error": refused[index]} if index in refused else next(played)
        row.update(head)
        out.append(row)
    return out


_BOARDS: dict[str, Any] = {}


def _forget_content() -> None:
    """Drop what was built from the previous cards when a designer's folder comes or goes
    (:func:`krosbalance.content.custom.on_content_change`). The match shapes the core refused are
    forgotten by :mod:`krosbalance.engine_choice`, which remembers them."""
    _BOARDS.clear()
    _validated.cache_clear()
    _catalog_of.cache_clear()
    _LEFT_OUT.clear()


def _check_reward_options(opts: Any, cards: Any) -> None:
    """The reference's checks of the reward study's options (``rewards.open_market``: ids, lists,
    prices; a ``ContentError`` naming the option), run on a throwaway market (``rewards.build_market``)
    of the match's cards."""
    if not (any(opts.start_rewards) or any(opts.purchasable_rewards)):
        return
    import numpy as np

    build_market(opts, cards.all_rewards(), np.random.default_rng(0))


def _check_forbid(
    rules: Any, teams: Sequence[Sequence[str]], forbid: Mapping[str, Sequence[str]], registry: Any
) -> None:
    """The reference's check of restricted play (``play._restrict``): every element named for a
    Krosmaster in the match is one of the figure's (in the match's cards), else ``ContentError``."""
    for team in teams:
        for name in team:
            for element in forbid.get(name, ()):
                problem = element_problem(element, registry.load_character(name), rules)
                if problem:
                    raise ContentError("play_match", "forbid", problem)


@functools.lru_cache(maxsize=4096)
def _validated(team: tuple[str, ...], seat: int, level: int, seats: int, registry: Any) -> list[str]:
    """The ids of a team the Arena ruleset accepts for this seat (its ``validate_team``: R-A146,
    R-A147, R-A150) in these cards (a patch may change a level), checked once per team, level, seat
    count and registry."""
    from krosbalance.play import _team  # cycle: play imports this module through engine_choice

    mode = "two_player" if seats == 2 else "free_for_all"
    rules = get_ruleset(
        "arena", {"mode": mode, "team_level" if seats == 2 else "four_player_team_level": level}
    )
    return [spec.id for spec in _team(rules, team, seat, registry)]


def catalog(registry: Any = None) -> Any:
    """The core's ``ArenaCatalog`` of a registry's cards (the shared registry's by default, or a
    balance patch's): every Arena Krosmaster, every piece they and the Demonic Rewards summon, and
    every reward token, converted once per process and registry (a match then crosses the boundary by
    ids; a patch's registry is itself built once per process, so each arm's cards convert once). A
    Krosmaster whose card the core cannot convert yet (a designer's own card with a mechanic the core
    lacks) is left out with its reason (:func:`left_out`), so that only the matches fielding it go to
    the reference (:func:`play_match_core` refuses them)."""
    return _catalog_of(registry if registry is not None else default_registry())


@functools.lru_cache(maxsize=64)
def _catalog_of(registry: Any) -> Any:
    """:func:`catalog` of one registry object (kept while it lives in the cache: at most 64 arms'
    cards at once, the oldest converted again when a run has more)."""
    specs = [registry.load_character(name) for name in registry.list_characters(game="arena")]
    rewards = registry.all_rewards()

    heuristics = [(core_ai_id(name), _weights(name)) for name in PORTED_AIS if ai_tier(name) == "heuristic"]

    def build(characters: list[Any]) -> Any:
        pieces = summonable(characters, registry)
        for name in reward_creatures(rewards):
            pieces.setdefault(name, registry.load_character(name))
        return native.core().ArenaCatalog([*characters, *pieces.values()], punch(), list(rewards), heuristics)

    _LEFT_OUT.pop(registry, None)
    try:
        return build(specs)
    except ValueError:
        pass  # some card the core cannot convert: find which, one Krosmaster at a time
    kept, left = [], {}
    for spec in specs:
        try:
            native.core().ArenaCatalog([spec, *summonable([spec], registry).values()], punch(), [], [])
        except ValueError as exc:
            left[spec.id] = str(exc)
        else:
            kept.append(spec)
    _LEFT_OUT[registry] = left
    return build(kept)


#: per registry whose catalog left some Krosmaster out, those Krosmasters with the core's reason
#: (filled by :func:`catalog`; a registry whose every card converts is not kept here, so a run of
#: many patched arms holds no reference to their cards)
_LEFT_OUT: dict[Any, dict[str, str]] = {}


def left_out(registry: Any = None) -> dict[str, str]:
    """The Krosmasters the core's catalog of the cards in use (or of ``registry``) left out, with why
    (after :func:`catalog`)."""
    return dict(_LEFT_OUT.get(registry if registry is not None else default_registry(), {}))


def _check_in_catalog(ids: Sequence[Sequence[str]], registry: Any) -> None:
    """Refuse, in the core's words for a refusal, a match fielding a card the registry's catalog
    left out."""
    left = _LEFT_OUT.get(registry, {})
    for team in ids:
        for name in team:
            if name in left:
                why = left[name]
                prefix = "" if why.startswith("not in the core yet") else "not in the core yet: "
                raise ValueError(f"{prefix}{why}")


def _weights(name: str) -> Any:
    """A heuristic AI's ``Weights`` as the reference builds it (its class, skills.toml, tuned.toml)."""
    import numpy as np

    player = get_ai(name)(np.random.default_rng(0))
    if not isinstance(player, HeuristicAI):
        raise TypeError(f"{name} is not a heuristic AI: it has no weights to hand to the core")
    return player.weights


def _core_board(board_id: str, seats: int = 2) -> Any:
    """The core's Board of a registry board, built once per process; a four-player match on a board
    without four start zones is the reference's ``TeamError`` (R-A156), before anything is played."""
    if seats == 4:
        check_four_zones(default_registry().load_board(board_id))
    if board_id not in _BOARDS:
        _BOARDS[board_id] = native.core_board(default_registry().load_board(board_id))
    return _BOARDS[board_id]


def deal_teams_core(
    mode: str, pool: Sequence[str], ai: tuple[str, str], seed: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``krosbalance.play.deal_teams`` (R-A17, Arena's default options) drawn by the core: the same
    hands from the same streams."""
    rules = get_ruleset("arena", {})
    if mode not in rules.team_modes:
        raise ValueError(f"mode must be one of {rules.team_modes}, got {mode!r}")
    registry = default_registry()
    cards = [registry.load_character(name) for name in pool]  # the loader's check of the names
    a, b = native.core().arena_deal_teams(
        mode,
        list(pool),
        (core_ai_id(ai[0]), core_ai_id(ai[1])),
        seed,
        cards,
        sorted(core_ai_id(n) for n in IDENTICAL_AIS),
    )
    return tuple(a), tuple(b)


def pick_board_core(
    boards: Sequence[str],
    *teams: Sequence[str],
    ai: str | Sequence[str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> str:
    """``krosbalance.play.pick_board`` (R-A19; four players: player 4, R-A154) chosen by the core."""
    from krosbalance.play import _ai_names, _team  # cycle: play imports this module through engine_choice

    if len(boards) == 1:
        return boards[0]
    rules = get_ruleset("arena", dict(options or {}))
    rules.check_seats(len(teams))
    registry = default_registry()
    specs = [list(_team(rules, team, seat, registry)) for seat, team in enumerate(teams)]
    names = _core_ids(_ai_names(ai, len(teams)))

    assert isinstance(rules.options, ArenaOptions)
    mode = rules.options.mode
    trees = [registry.load_board(board).trees.bit_count() for board in boards]
    index = native.core().arena_pick_board(
        len(boards), specs, names, seed, mode, trees, sorted(core_ai_id(n) for n in IDENTICAL_AIS)
    )
    return boards[int(index)]


on_content_change(_forget_content)
