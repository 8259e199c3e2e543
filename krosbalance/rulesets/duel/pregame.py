"""Before a duel's first turn (R-D14-R-D19, R-D36-R-D39): teams, first player, duel level, the Duel
Token draft, deployment and the tokens put on duel cells.

- Teams (R-D14, R-D36): ``figures`` Krosmasters of Krosmaster Arena cards (the box's and the Duel
  Pack's), none twice in a team (one figure each); both players may field the same Krosmaster.
- First player (R-D14, R-D37): the higher Initiative (team total with two figures), then the higher
  single Initiative, then a coin from the set-up stream.
- Duel level (R-D15, R-D38): ``duel_level_bonus`` + the higher of the two teams' total levels.
- Draft (R-D16, R-D17): starting with the first player, players alternate taking one token, each
  until he has ``draft_max_tokens`` tokens or his team level + token levels reaches the duel level
  (see ``draft_overshoot``); a player who has stopped is skipped. A token's level is on its back
  (R-D17 sorts face-down tokens by level, R-D25 prices by it), so a plain pick chooses a level and
  gets the top face-down token of that level (the spread is shuffled); the tactical option also
  offers the face-up token beside each pile, which is replaced from its pile when taken. With two
  figures the player puts each token on the card of the Krosmaster he chooses.
- Tokens held from the start (not a rule: the study option ``start_token_levels``): before the
  draft, seat 0 takes the top token of each listed level's face-down pile (shuffled by the set-up
  stream, so no further draw) face down onto the card of the Krosmaster it chooses, as if already
  picked up; these tokens do not count against its draft budget (``DuelState.team_levels``).
- Deployment (R-D18): the second player places his Krosmasters on starting cells of his side of the
  board, then the first player. The board's two starting zones are the sides' own (which side sits
  where is not a choice the rulebook gives; the shipped boards are point symmetric).
- Tokens on duel cells (R-D19, R-D39): the first player, then the second, each takes a remaining
  face-down token without looking (a draw from the set-up stream's placement seed) and puts it on a
  duel cell without a token, ``figures`` rounds (one token each, two with two figures).

The set-up stream is used in this order: the first player's coin (only on a tie), the shuffle of the
piles, the placement seed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from krosbalance.content.duel import with_duel_pack
from krosbalance.content.registry import Registry, default_registry
from krosbalance.engine.events import FULL
from krosbalance.engine.pieces import place, spawn
from krosbalance.engine.state import KROSMASTER, MatchState
from krosbalance.errors import ContentError, IllegalActionError, KrosbalanceError, TeamError
from krosbalance.rulesets.base import summonable
from krosbalance.rulesets.duel.events import TokenDrafted, TokenHeldFromStart, TokenPlaced
from krosbalance.rulesets.duel.state import duel_state
from krosbalance.rulesets.duel.turn import DraftChoice

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.content.duel import DuelTokenSet, DuelTokenSpec
    from krosbalance.content.registry import CharacterSource
    from krosbalance.content.specs import CharacterSpec
    from krosbalance.engine.dice import Dice
    from krosbalance.engine.view import MatchView
    from krosbalance.rulesets.base import Team
    from krosbalance.rulesets.duel.options import DuelOptions
    from krosbalance.rulesets.duel.ruleset import DuelRuleset
    from krosbalance.rulesets.duel.state import DuelState
    from krosbalance.rulesets.duel.turn import DuelController

#: the board feature that marks duel cells (``[glyphs] X = "duel"`` in a board file)
DUEL_FEATURE = "duel"
#: the card games whose Krosmasters can duel: the Duel Pack's cards are Arena cards
DUEL_GAMES: tuple[str, ...] = ("arena",)
#: the seat that holds the tokens of the study option ``start_token_levels``
START_TOKEN_SEAT = 0


# ---------------------------------------------------------------------------------------- teams
def validate_team(names: Sequence[str], registry: Registry, figures: int) -> tuple[CharacterSpec, ...]:
    """The team's specs, or TeamError: ``figures`` Krosmaster Arena cards, none twice (R-D14, R-D36)."""
    if isinstance(names, str):
        raise TeamError(f"a team is a list of character names, got the string {names!r}")
    specs = []
    given: Sequence[object] = names
    for name in given:
        if not isinstance(name, str):
            raise TeamError(f"expected a character name, got {name!r}")
        try:
            spec = registry.load_character(name)
        except KrosbalanceError as exc:
            raise TeamError(str(exc)) from None
        if spec.kind != KROSMASTER:
            raise TeamError(f"{spec.name!r} is a {spec.kind}, not a Krosmaster: it cannot duel")
        if spec.game not in DUEL_GAMES:
            raise TeamError(
                f"{spec.name!r} is a Krosmaster {spec.game} card; the Duel Pack plays Arena cards"
            )
        specs.append(spec)
    label = ", ".join(s.name for s in specs) or "(empty)"
    if len(specs) != figures:
        rule = "R-D14" if figures == 1 else "R-D36"
        raise TeamError(f"team [{label}] has {len(specs)} Krosmasters; a duel team has {figures} ({rule})")
    if len({s.id for s in specs}) != len(specs):
        raise TeamError(f"team [{label}] holds a Krosmaster twice; each player fields different figures")
    return tuple(specs)


def legal_teams(pool: Sequence[str], figures: int) -> list[Team]:
    """Every team of ``figures`` different Krosmasters from ``pool``, sorted, each once."""
    return sorted({tuple(sorted(team)) for team in itertools.combinations(dict.fromkeys(pool), figures)})


def team_splits(pool: Sequence[str], figures: int) -> list[tuple[Team, Team]]:
    """Every split of ``pool`` (2 x ``figures`` different Krosmasters) into two teams, the first
    holding ``pool[0]``."""
    if len(pool) != 2 * figures or len(set(pool)) != len(pool):
        return []
    first, rest = pool[0], list(pool[1:])
    splits = []
    for others in itertools.combinations(rest, figures - 1):
        team_a = (first, *others)
        team_b = tuple(name for name in rest if name not in others)
        splits.append((team_a, team_b))
    return splits


def first_player(teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator) -> int:
    """R-D14, R-D37: higher Initiative (team total), then the higher single Initiative, then a coin."""
    totals = (sum(s.initiative for s in teams[0]), sum(s.initiative for s in teams[1]))
    if totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    best = (
        max((s.initiative for s in teams[0]), default=0),
        max((s.initiative for s in teams[1]), default=0),
    )
    if best[0] != best[1]:
        return 0 if best[0] > best[1] else 1
    return int(rng.integers(2))


def duel_level(teams: Sequence[Sequence[CharacterSpec]], bonus: int) -> int:
    """R-D15, R-D38: ``bonus`` (2) + the higher of the two teams' total levels."""
    return bonus + max(sum(s.level for s in teams[0]), sum(s.level for s in teams[1]))


# ---------------------------------------------------------------------------------------- set-up
def setup(
    teams: Sequence[Sequence[CharacterSpec]],
    board: Board,
    rules: DuelRuleset,
    dice: Dice,
    setup_rng: np.random.Generator,
    source: CharacterSource,
    record: int = 0,
) -> MatchState:
    """A state with both teams spawned (not deployed; Timelines by decreasing Initiative, ties in team
    order, R-D36), the first player, the duel level and the shuffled token supply."""
    opts = rules.opts
    duel_cells = board.features.get(DUEL_FEATURE, 0)
    if duel_cells.bit_count() < 2 * opts.figures:
        raise ContentError(
            "board",
            board.id,
            f"the board has {duel_cells.bit_count()} duel cells, {2 * opts.figures} needed "
            f"(R-D19, R-D39): it is not a Duel Pack board",
        )
    if len(rules.tokens.tokens) < 2 * opts.figures * 2:
        raise ContentError(
            "duel tokens",
            rules.tokens.id,
            f"{len(rules.tokens.tokens)} tokens; a duel with {opts.figures} figure(s) needs at least "
            f"{4 * opts.figures} (R-D16, R-D19)",
        )
    state = MatchState(board, rules, dice, record)
    for side in (0, 1):
        fighters = [spawn(state, spec, side) for spec in teams[side]]
        state.timeline[side].extend(sorted(fighters, key=lambda f: -f.spec.initiative))
    state.summon_specs = summonable([*teams[0], *teams[1]], source)
    state.first_player = first_player(teams, setup_rng)
    state.active_side = state.first_player
    state.play_order = (state.first_player, 1 - state.first_player)
    ds = duel_state(state)
    ds.duel_level = duel_level(teams, opts.duel_level_bonus)
    for fighter in state.fighters:
        ds.hidden[fighter.uid] = []
        ds.shown[fighter.uid] = []
    ds.piles = [[pile[int(i)] for i in setup_rng.permutation(len(pile))] for pile in ds.piles]
    if opts.draft == "tactical":  # R-D17: one token of each pile face up
        ds.face_up = [pile.pop() if pile else None for pile in ds.piles]
    ds.placement_seed = int(setup_rng.integers(2**63))
    return state


# ---------------------------------------------------------------------------------------- study option
def start_token_problem(tokens: DuelTokenSet, opts: DuelOptions) -> str:
    """Why the token set cannot give seat 0 the tokens of ``start_token_levels`` and still hold what
    the set-up needs (a face-up token per level in the tactical draft, R-D17; 4 per figure for the
    draft and the duel cells, R-D16, R-D19), or ''."""
    face_up = 1 if opts.draft == "tactical" else 0
    for level in sorted(set(opts.start_token_levels)):
        wanted = opts.start_token_levels.count(level)
        available = len(tokens.of_level(level)) - face_up
        if wanted > available:
            return (
                f"{wanted} token(s) of level {level} held from the start, but set {tokens.id!r} has "
                f"{available} of that level to give (after the tactical face-up one)"
                if face_up
                else f"{wanted} token(s) of level {level} held from the start, but set {tokens.id!r} has {available}"
            )
    left = len(tokens.tokens) - len(opts.start_token_levels)
    if opts.start_token_levels and left < 4 * opts.figures:
        return (
            f"set {tokens.id!r} would keep {left} tokens for the draft and the duel cells; a duel with "
            f"{opts.figures} figure(s) needs at least {4 * opts.figures} (R-D16, R-D19)"
        )
    return ""


def give_start_tokens(
    state: MatchState,
    ds: DuelState,
    opts: DuelOptions,
    controllers: Sequence[DuelController],
    views: Sequence[MatchView],
) -> None:
    """Not a rule (``start_token_levels``): for each listed level, seat 0 takes the top token of that
    level's shuffled face-down pile face down onto the card of the Krosmaster it chooses (R-D36's
    choice, ``choose_token_holder``; with one figure, its only one), as if picked up (R-D25). Its
    level is public, its bonuses are not; it is revealed as any token (R-D21)."""
    side = START_TOKEN_SEAT
    for level in opts.start_token_levels:
        pile = ds.piles[level - 1]
        if not pile:  # the ruleset checks the set first (start_token_problem)
            raise ContentError("options", "start_token_levels", f"no face-down token of level {level} left")
        token = pile.pop()
        holder = token_holder(state, side, token, controllers[side], views[side])
        ds.hidden[holder].append(token)
        ds.start_tokens[side].append(token)
        if state.record >= FULL:
            state.events.append(TokenHeldFromStart(state.turn, side, holder, token.id, token.level))


# ---------------------------------------------------------------------------------------- draft
def draft_choices(ds: DuelState, opts: DuelOptions, budget: int) -> list[DraftChoice]:
    """What a player may take now (R-D16, R-D17): per level, the top face-down token and (tactical)
    the face-up one; without ``draft_overshoot`` only levels within ``budget``."""
    choices: list[DraftChoice] = []
    for index, pile in enumerate(ds.piles):
        level = index + 1
        if not opts.draft_overshoot and level > budget:
            continue
        shown = ds.face_up[index]
        if shown is not None:
            choices.append(DraftChoice(level, shown))
        if pile:
            choices.append(DraftChoice(level, None))
    return choices


def take(ds: DuelState, choice: DraftChoice) -> DuelTokenSpec:
    """Remove the chosen token from the supply; a face-up one is replaced from its pile (R-D17)."""
    index = choice.level - 1
    if choice.token is None:
        return ds.piles[index].pop()
    token = choice.token
    pile = ds.piles[index]
    ds.face_up[index] = pile.pop() if pile else None
    return token


def draft(
    state: MatchState,
    ds: DuelState,
    opts: DuelOptions,
    controllers: Sequence[DuelController],
    views: Sequence[MatchView],
) -> None:
    """R-D16, R-D17: alternate picks, first player first, until both players have stopped."""
    counts = [0, 0]
    stopped = [False, False]
    side = state.first_player
    while not (stopped[0] and stopped[1]):
        if not stopped[side]:
            budget = ds.duel_level - ds.team_levels(state, side)
            choices = draft_choices(ds, opts, budget)
            if counts[side] >= opts.draft_max_tokens or budget <= 0 or not choices:
                stopped[side] = True
            else:
                pick = controllers[side].choose_duel_draft(views[side], list(choices), budget)
                if not 0 <= pick < len(choices):
                    raise IllegalActionError(f"player {side} drafted choice {pick} of {len(choices)}")
                choice = choices[pick]
                token = take(ds, choice)
                holder = token_holder(state, side, token, controllers[side], views[side])
                ds.hidden[holder].append(token)
                ds.drafted[side] += 1
                counts[side] += 1
                if state.record >= FULL:
                    state.events.append(
                        TokenDrafted(
                            state.turn, side, holder, token.id, token.level, choice.token is not None
                        )
                    )
        side = 1 - side


def token_holder(
    state: MatchState, side: int, token: DuelTokenSpec, controller: DuelController, view: MatchView
) -> int:
    """The uid of the Krosmaster whose card gets a drafted token: the only one, or the player's pick."""
    team = state.timeline[side]
    if len(team) == 1:
        return team[0].uid
    uid = controller.choose_token_holder(view, token, [view.fighter(f.uid) for f in team])
    if uid not in {f.uid for f in team}:
        raise IllegalActionError(f"player {side} gave a token to {uid}, not one of his Krosmasters")
    return uid


# ---------------------------------------------------------------------------------------- deployment
def deploy(
    state: MatchState,
    controllers: Sequence[DuelController],
    views: Sequence[MatchView],
) -> None:
    """R-D18: the second player places his Krosmasters on his starting cells, then the first."""
    for side in (1 - state.first_player, state.first_player):
        zone = state.board.deploy[side]
        cells = [c for c in range(state.board.n_cells) if (zone >> c) & 1 and state.is_free(c)]
        fighters = state.timeline[side]
        if len(cells) < len(fighters):
            raise TeamError(
                f"board {state.board.id!r} has {len(cells)} free starting cells for player {side}, "
                f"but the team has {len(fighters)} Krosmasters"
            )
        chosen = list(controllers[side].choose_deployment(views[side], views[side].krosmasters(side), cells))
        if len(chosen) != len(fighters) or len(set(chosen)) != len(chosen) or not set(chosen) <= set(cells):
            raise IllegalActionError(f"player {side} deployed to {chosen}, not distinct free starting cells")
        for fighter, cell in zip(fighters, chosen, strict=True):
            place(state, fighter, cell)


def place_tokens(
    state: MatchState,
    ds: DuelState,
    opts: DuelOptions,
    controllers: Sequence[Any],
    views: Sequence[MatchView],
) -> None:
    """R-D19, R-D39: ``figures`` rounds of first player then second: a remaining token drawn without
    looking (from every face-down token of the supply) goes face down on a duel cell of his choice."""
    rng = np.random.default_rng(ds.placement_seed)
    for _ in range(opts.figures):
        for side in (state.first_player, 1 - state.first_player):
            supply = [(i, j) for i, pile in enumerate(ds.piles) for j in range(len(pile))]
            cells = [
                c for c in range(state.board.n_cells) if (ds.duel_cells >> c) & 1 and c not in ds.on_cells
            ]
            if not supply or not cells:
                return
            i, j = supply[int(rng.integers(len(supply)))]
            token = ds.piles[i].pop(j)
            cell = controllers[side].choose_duel_cell(views[side], token.level, list(cells))
            if cell not in cells:
                raise IllegalActionError(
                    f"player {side} put a token on {cell}, not a duel cell without a token"
                )
            ds.on_cells[cell] = token
            if state.record >= FULL:
                state.events.append(TokenPlaced(state.turn, side, cell, token.id, token.level))


def duel_team_registry(registry: Registry | None) -> Registry:
    """The registry a duel team is read from: ``registry`` (default: the package's) plus the Duel
    Pack's cards (``content.duel.with_duel_pack``)."""

    return with_duel_pack(registry if registry is not None else default_registry())
