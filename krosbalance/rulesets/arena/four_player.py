"""Arena for four players (R-A150-R-A159): free-for-all and two versus two.

What differs from the two-player game, each in one function here, called by ``ArenaRuleset`` when
the option ``mode`` is ``free_for_all`` or ``two_vs_two``:

- seats and partnerships: four seats, each its own partnership in a free-for-all, seats 0 and 2
  against seats 1 and 3 in two versus two (``partnerships``);
- play order (R-A153, R-A159, ties R-A151) and the start zones taken clockwise from the zone player 1
  picks (R-A154, R-A156: ``play_order``, ``assign_zones``);
- GG (R-A155): a KO gives its level in GG to the player who made it, the wild GG first, then from the
  KO'd Krosmaster's player; whoever KOs a player's last Krosmaster also takes all his remaining GG;
  a player who KOs one of his own characters gives its level to an opponent of his choice;
- the tension double (R-A157): the active player picks one opponent who loses 1 GG, and that opponent
  picks another player (the active player or one of the other two) who loses 1 GG too;
- victory (R-A158): once no wild GG remains, the only partnership holding GG wins; a partnership
  also wins when it alone has Krosmasters in play.

Player choices are asked of the seat's controller (``ArenaController.choose_player``) when the match
has its players attached (``MatchState.players``); a copy of the match played by a search AI has
none, and the choice is then the default policy documented on each function (the same policy the
heuristic AIs follow, ``krosbalance.ai.base.AI.choose_player``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from krosbalance.engine.events import SUMMARY
from krosbalance.engine.outcome import end_match
from krosbalance.errors import IllegalActionError
from krosbalance.rulesets.arena.economy import gain_gg, lose_gg
from krosbalance.rulesets.arena.events import GGChanged
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.state import arena_state

if TYPE_CHECKING:
    from krosbalance.content.specs import CharacterSpec
    from krosbalance.engine.state import Fighter, MatchState
    from krosbalance.rulesets.arena.options import ArenaOptions

TWO_PLAYER, FREE_FOR_ALL, TWO_VS_TWO = "two_player", "free_for_all", "two_vs_two"
MODES: tuple[str, ...] = (TWO_PLAYER, FREE_FOR_ALL, TWO_VS_TWO)
#: the board's start zones in clockwise order: bottom, left, top, right (``Board.deploy`` indices)
CLOCKWISE_ZONES: tuple[int, ...] = (0, 2, 1, 3)

#: what a ``choose_player`` call is for (the controller reads it to pick by the right policy)
TENSION_LOSS = "tension_loss"  # R-A157: the opponent the active player makes lose 1 GG
TENSION_PASS = "tension_pass"  # R-A157: the player that opponent makes lose 1 GG in turn
SELF_KO_GG = "self_ko_gg"  # R-A155: the opponent who receives a self-KO'd character's GG


def seats_in(mode: str) -> int:
    """How many players a mode seats."""
    return 2 if mode == TWO_PLAYER else 4


def partnerships(mode: str) -> tuple[int, ...]:
    """Each seat's partnership: two players ``(0, 1)``, a free-for-all ``(0, 1, 2, 3)``, two versus
    two ``(0, 1, 0, 1)`` (seats 0 and 2 are allies, as are seats 1 and 3)."""
    if mode == TWO_VS_TWO:
        return (0, 1, 0, 1)
    return tuple(range(seats_in(mode)))


def _initiative(team: Sequence[CharacterSpec]) -> tuple[int, list[int]]:
    """A team's rank for the play order: its Initiative sum, then its Initiatives from the highest
    (R-A151)."""
    return sum(s.initiative for s in team), sorted((s.initiative for s in team), reverse=True)


def _ranked(
    seats: Sequence[int], teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator
) -> list[int]:
    """Seats by decreasing Initiative (R-A153), ties by the highest single Initiatives (R-A151);
    seats still tied are put in order by a coin toss (one shuffle of the tied group)."""
    keyed = sorted(seats, key=lambda seat: _initiative(teams[seat]), reverse=True)
    ranked: list[int] = []
    while keyed:
        key = _initiative(teams[keyed[0]])
        tied = [seat for seat in keyed if _initiative(teams[seat]) == key]
        keyed = keyed[len(tied) :]
        if len(tied) > 1:
            tied = [tied[int(i)] for i in rng.permutation(len(tied))]
        ranked.extend(tied)
    return ranked


def play_order(
    mode: str, teams: Sequence[Sequence[CharacterSpec]], rng: np.random.Generator
) -> tuple[int, ...]:
    """The seats in play order. Free-for-all (R-A153): by decreasing Initiative sum. Two versus two
    (R-A159): the highest sum is player 1 and his ally player 3; the higher of the other partnership
    is player 2 and his ally player 4, so the order alternates partnerships."""
    seats = list(range(len(teams)))
    if mode != TWO_VS_TWO:
        return tuple(_ranked(seats, teams, rng))
    team_of = partnerships(mode)
    first = _ranked(seats, teams, rng)[0]
    ally = next(seat for seat in seats if seat != first and team_of[seat] == team_of[first])
    second, second_ally = _ranked([seat for seat in seats if team_of[seat] != team_of[first]], teams, rng)
    return (first, second, ally, second_ally)


def assign_zones(state: MatchState, choice: int) -> None:
    """R-A154, R-A156: player 1 picks his start zone (the board's orientation, ``choice`` an index
    into ``CLOCKWISE_ZONES``); the others sit clockwise from him in play order (R-A153)."""
    if not 0 <= choice < len(CLOCKWISE_ZONES):
        raise IllegalActionError(
            f"player {state.play_order[0]} picked zone {choice} of {len(CLOCKWISE_ZONES)}"
        )
    for k, seat in enumerate(state.play_order):
        state.edges[seat] = CLOCKWISE_ZONES[(choice + k) % len(CLOCKWISE_ZONES)]


# ---------------------------------------------------------------------- choices of a player
def opponents_of(state: MatchState, seat: int) -> list[int]:
    """The seats of every other partnership, in play order from the one after ``seat``."""
    return [s for s in _after(state, seat) if state.team_of[s] != state.team_of[seat]]


def _after(state: MatchState, seat: int) -> list[int]:
    order = state.play_order
    at = order.index(seat)
    return [order[(at + k) % len(order)] for k in range(1, len(order))]


def choose_by_policy(
    gg: Sequence[int],
    team_of: Sequence[int],
    order: Sequence[int],
    seat: int,
    purpose: str,
    seats: Sequence[int],
) -> int:
    """The heuristic policy for a ``choose_player`` question (an index into ``seats``), from public
    facts only (every seat's GG, the partnerships, the play order):

    - ``tension_loss`` and ``tension_pass`` (R-A157): hurt the leader — the candidate holding the
      most GG, never one's own partner while an opponent is there, ties to the one who plays soonest
      after ``seat`` (the nearest threat);
    - ``self_ko_gg`` (R-A155): give the GG to the opponent holding the fewest, ties to the one who
      plays last after ``seat``, so the gift helps the nearest threat least.
    """
    at = order.index(seat)
    after = [order[(at + k) % len(order)] for k in range(1, len(order))]

    def soon(s: int) -> int:
        return after.index(s) if s in after else len(after)

    if purpose == SELF_KO_GG:
        return max(range(len(seats)), key=lambda i: (-gg[seats[i]], soon(seats[i])))
    team = team_of[seat]
    return max(range(len(seats)), key=lambda i: (team_of[seats[i]] != team, gg[seats[i]], -soon(seats[i])))


def default_choice(state: MatchState, seat: int, purpose: str, seats: Sequence[int]) -> int:
    """``choose_by_policy`` on the match itself: the choice when no player is attached."""
    return choose_by_policy(arena_state(state).gg, state.team_of, state.play_order, seat, purpose, seats)


def ask_player(state: MatchState, seat: int, purpose: str, seats: Sequence[int]) -> int:
    """The seat ``seat``'s player chooses among ``seats`` (its controller when the match has its
    players attached, else ``default_choice``); an answer outside ``seats`` is an AI bug."""
    if len(seats) == 1:
        return seats[0]
    players = state.players
    if players.controllers:
        choice = int(players.controllers[seat].choose_player(players.views[seat], purpose, list(seats)))
    else:
        choice = default_choice(state, seat, purpose, seats)
    if not 0 <= choice < len(seats):
        raise IllegalActionError(f"player {seat} chose player index {choice} of {len(seats)} for {purpose}")
    return seats[choice]


# ---------------------------------------------------------------------- GG
def gg_for_kos(state: MatchState, kos: list[Fighter]) -> None:
    """R-A155: each KO'd character with a level gives that many GG to the player who KO'd it (the
    wild GG first, then from the KO'd character's player); whoever KOs a player's last Krosmaster
    also takes all his remaining GG. A KO made by the character's own partnership (its own player,
    a bomb of his, an ally, or nobody: an injury cost) is a self-KO: the player who made it gives
    the level to an opponent of his choice (assumed: a KO by a partner counts as the partnership's
    own, R-A155 names only one's own characters). The gains are made in play order from the active
    player (R-A130)."""
    gains: list[tuple[int, Fighter, bool]] = []  # (receiving seat, victim, the victim's last Krosmaster)
    for victim in kos:
        if victim.level <= 0 or not victim.is_character:
            continue
        by = victim.ko_by
        last = victim.kind == "krosmaster" and not any(f.alive for f in state.timeline[victim.side])
        if by is not None and by.team != victim.team:
            gains.append((by.side, victim, last))
        else:
            chooser = victim.side if by is None else by.side
            candidates = opponents_of(state, victim.side)
            gains.append((ask_player(state, chooser, SELF_KO_GG, candidates), victim, last))
    order = [state.active_side, *_after(state, state.active_side)]
    gains.sort(key=lambda gain: order.index(gain[0]))
    arena = arena_state(state)
    for seat, victim, last in gains:
        credit = victim.ko_by if victim.ko_by is not None and victim.ko_by.side == seat else None
        gain_gg(state, seat, victim.level, credit, source=victim.side)
        rest = arena.gg[victim.side]
        if last and rest > 0:
            gain_gg_from(state, seat, victim.side, rest, credit)


def gain_gg_from(state: MatchState, seat: int, source: int, amount: int, credit: Fighter | None) -> None:
    """``seat`` takes ``amount`` of ``source``'s GG (never the wild GG): R-A155's "takes all". It
    moves while a KO's instant settles, so victory is checked right after (no ``unsettled`` flag)."""
    gg = arena_state(state).gg
    taken = min(amount, gg[source])
    if taken <= 0:
        return
    gg[source] -= taken
    gg[seat] += taken
    if credit is not None:
        arena_stats(credit).gg_won += taken
    if state.record >= SUMMARY:
        state.events.append(GGChanged(state.turn, seat, taken, "last_krosmaster", tuple(gg)))


def tension_double(state: MatchState, side: int) -> None:
    """R-A157: the active player picks an opponent who loses 1 GG; that opponent picks another player
    (the active player or one of the other two) who loses 1 GG. Both losses are one instant."""
    loser = ask_player(state, side, TENSION_LOSS, opponents_of(state, side))
    lose_gg(state, loser, "tension")
    others = [side, *[s for s in _after(state, loser) if s not in (loser, side)]]
    lose_gg(state, ask_player(state, loser, TENSION_PASS, others), "tension")


# ---------------------------------------------------------------------- victory
def team_gg(state: MatchState) -> dict[int, int]:
    """GG per partnership (the sum of its players' GG)."""
    gg = arena_state(state).gg
    totals: dict[int, int] = {}
    for seat in range(state.n_seats):
        team = state.team_of[seat]
        totals[team] = totals.get(team, 0) + gg[seat]
    return totals


def check_victory(state: MatchState, opts: ArenaOptions) -> bool:
    """R-A158 (R-A132 for four players): a partnership that alone has Krosmasters in play wins
    (``last_standing``); once no wild GG remains (or at once under ``zero_gg_loses``), the only
    partnership holding GG wins (``gg``); nobody holding GG is what ``simultaneous_zero_gg`` says;
    no Krosmaster left anywhere is decided by GG if it can be, else a draw (``mutual_ko``)."""
    if state.finished:
        return True
    standing = state.teams_standing()
    if len(standing) == 1:
        end_match(state, standing[0], "last_standing")
        return True
    if arena_state(state).wild_gg == 0 or opts.zero_gg_loses:
        holders = [team for team, gg in team_gg(state).items() if gg > 0]
        if len(holders) == 1:
            end_match(state, holders[0], "gg")
            return True
        if not holders and standing and opts.simultaneous_zero_gg == "draw":
            end_match(state, None, "gg_exhausted")
            return True
    if not standing:
        end_match(state, None, "mutual_ko")
        return True
    return False


def turn_limit_winner(state: MatchState, opts: ArenaOptions) -> int | None:
    """At the turn bound: a draw, or under ``turn_limit_result = "gg"`` the partnership holding the
    most GG (a draw when two share the most)."""
    if opts.turn_limit_result != "gg":
        return None
    totals = team_gg(state)
    best = max(totals.values())
    leaders = [team for team, gg in totals.items() if gg == best]
    return leaders[0] if len(leaders) == 1 else None
