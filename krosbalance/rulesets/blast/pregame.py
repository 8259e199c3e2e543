"""Before a Blast game's first turn (R-B4-R-B8, R-B20, R-B40): teams, the first player's toss, the
favor deck, the Divine Challenges in play, and the deployment.

Teams: ``team_size`` Blast Krosmasters (two in the box game), each card at most once (the box has one
figure of each). The first player is a toss of a glyph tile, a fair coin from the match's set-up
stream; the second player holds the Dofus token. The deck is ``favor_deck_size`` favors dealt at
random from the basic ones (and the superior ones under ``superior_favors``); ``random`` challenges
are drawn among those not named. The set-up stream is used in this order: toss, deck, challenges.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from krosbalance.content.blast import blast_cards
from krosbalance.engine.pieces import place, spawn
from krosbalance.engine.state import KROSMASTER, MatchState
from krosbalance.errors import IllegalActionError, KrosbalanceError, TeamError
from krosbalance.rulesets.base import summonable
from krosbalance.rulesets.blast.options import RANDOM_CHALLENGE
from krosbalance.rulesets.blast.state import blast_state

if TYPE_CHECKING:
    import numpy as np

    from krosbalance.board.board import Board
    from krosbalance.content.blast import BonusActionSpec, ChallengeSpec, FavorSpec
    from krosbalance.content.registry import CharacterSource, Registry
    from krosbalance.content.specs import CharacterSpec
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.base import Team
    from krosbalance.rulesets.blast.options import BlastOptions
    from krosbalance.rulesets.blast.ruleset import BlastRuleset
    from krosbalance.rulesets.blast.turn import BlastController


def validate_team(names: Sequence[str], registry: Registry, opts: BlastOptions) -> tuple[CharacterSpec, ...]:
    """The team's specs, or TeamError: ``team_size`` Krosmaster Blast cards, none twice (R-B5)."""
    if isinstance(names, str):
        raise TeamError(f"a team is a list of character names, got the string {names!r}")
    specs = []
    for name in names:
        try:
            spec = registry.load_character(name)
        except KrosbalanceError as exc:
            raise TeamError(str(exc)) from None
        if spec.kind != KROSMASTER:
            raise TeamError(f"{spec.name!r} is a {spec.kind}, not a Krosmaster: it cannot be in a team")
        if spec.game != "blast":
            raise TeamError(f"{spec.name!r} has no Krosmaster Blast card (it is an {spec.game} card)")
        specs.append(spec)
    label = ", ".join(s.name for s in specs) or "(empty)"
    if len(specs) != opts.team_size:
        raise TeamError(
            f"team [{label}] has {len(specs)} Krosmasters; a Blast team has {opts.team_size} (R-B5)"
        )
    if len({s.id for s in specs}) != len(specs):
        raise TeamError(f"team [{label}] holds a Krosmaster twice; the box has one of each (R-B1)")
    return tuple(specs)


def legal_teams(pool: Sequence[str], size: int) -> list[Team]:
    """Every team of ``size`` different Krosmasters from ``pool``, sorted, each once."""
    return sorted({tuple(sorted(team)) for team in itertools.combinations(dict.fromkeys(pool), size)})


def team_splits(pool: Sequence[str], size: int) -> list[tuple[Team, Team]]:
    """Every split of ``pool`` (2 x ``size`` different Krosmasters) into two teams, the first holding
    ``pool[0]``."""
    if len(pool) != 2 * size or len(set(pool)) != len(pool):
        return []
    first, rest = pool[0], list(pool[1:])
    splits = []
    for others in itertools.combinations(rest, size - 1):
        team_a = (first, *others)
        team_b = tuple(name for name in rest if name not in others)
        splits.append((team_a, team_b))
    return splits


def random_deal(
    pool: Sequence[CharacterSpec], size: int, rng: np.random.Generator
) -> tuple[list[CharacterSpec], list[CharacterSpec]]:
    """R-B5: each player takes ``size`` Krosmasters at random from the pool."""
    order = [pool[int(i)] for i in rng.permutation(len(pool))]
    return order[:size], order[size : 2 * size]


def deal_favors(opts: BlastOptions, rng: np.random.Generator) -> list[FavorSpec]:
    """The favor deck, top card last (R-B6, R-B20): ``favor_deck_size`` favors shuffled from the
    basic ones, and the superior ones too under ``superior_favors``."""
    cards = blast_cards()
    pool = cards.favors("basic") + (cards.favors("superior") if opts.superior_favors else [])
    order = rng.permutation(len(pool))
    return [pool[int(i)] for i in order[: opts.favor_deck_size]]


def draw_challenges(opts: BlastOptions, rng: np.random.Generator) -> tuple[ChallengeSpec, ...]:
    """The Divine Challenges in play (R-B40): named ones, and ``random`` ones drawn among the rest."""
    cards = blast_cards()
    named = [name for name in opts.challenges if name != RANDOM_CHALLENGE]
    rest = [c for c in cards.challenges() if c.id not in named]
    chosen: list[ChallengeSpec] = []
    for name in opts.challenges:
        if name == RANDOM_CHALLENGE:
            chosen.append(rest.pop(int(rng.integers(len(rest)))))
        else:
            chosen.append(cards.challenge(name))
    return tuple(chosen)


def summoned_by(actions: Iterable[BonusActionSpec]) -> list[str]:
    """The ids of the Invocations these bonus actions may bring, in order, each once (R-B21)."""
    ids: dict[str, None] = {}
    for action in actions:
        for effect in action.effects:
            if effect.kind == "summon":
                ids.setdefault(str(effect.params["summon"]))
    return list(ids)


def bonus_summons(state: MatchState, source: CharacterSource) -> None:
    """Load the Invocations the deck and the challenges in play can bring (R-B21)."""
    bs = blast_state(state)
    actions = [f.action for f in bs.deck] + [b.action for b in bs.bonuses if b.action is not None]
    for spec_id in summoned_by(actions):
        if spec_id not in state.summon_specs:
            state.summon_specs[spec_id] = source.load_character(spec_id)


def setup(
    teams: Sequence[Sequence[CharacterSpec]],
    board: Board,
    rules: BlastRuleset,
    dice: Dice,
    setup_rng: np.random.Generator,
    source: CharacterSource,
    record: int = 0,
) -> MatchState:
    """A state with both teams spawned (not deployed), the first player tossed (R-B7), the Dofus token
    with the second player (R-B8), the favor deck dealt and the challenges drawn."""
    state = MatchState(board, rules, dice, record)
    for side in (0, 1):
        state.timeline[side].extend(spawn(state, spec, side) for spec in teams[side])
    state.summon_specs = summonable([*teams[0], *teams[1]], source)
    state.first_player = rules.first_player(teams, setup_rng)
    state.active_side = state.first_player
    state.play_order = (state.first_player, 1 - state.first_player)
    bs = blast_state(state)
    bs.dofus = 1 - state.first_player
    bs.deck = deal_favors(rules.opts, setup_rng)
    rules.put_challenges(bs, draw_challenges(rules.opts, setup_rng))
    bonus_summons(state, source)
    return state


def deploy(
    state: MatchState,
    controllers: Sequence[BlastController],
    views: Sequence[MatchView],
) -> None:
    """The first player places his Krosmasters on the deployment cells of his side, then the other
    (R-B8)."""
    for side in (state.first_player, 1 - state.first_player):
        zone = state.board.deploy[side]
        cells = [c for c in range(state.board.n_cells) if (zone >> c) & 1 and state.is_free(c)]
        fighters = state.timeline[side]
        if len(cells) < len(fighters):
            raise TeamError(
                f"board {state.board.id!r} has {len(cells)} free deployment cells for player {side}, "
                f"but the team has {len(fighters)} Krosmasters"
            )
        chosen = list(controllers[side].choose_deployment(views[side], views[side].krosmasters(side), cells))
        if len(chosen) != len(fighters) or len(set(chosen)) != len(chosen) or not set(chosen) <= set(cells):
            raise IllegalActionError(
                f"player {side} deployed to {chosen}, not distinct free deployment cells"
            )
        for fighter, cell in zip(fighters, chosen, strict=True):
            place(state, fighter, cell)
