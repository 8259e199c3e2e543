"""The same instant: when KOs, their consequences and victory take effect (R-A10, R-A104, R-A112,
R-A129-R-A133).

Arena's rulebook settles simultaneous events in one sentence — "if several players gain GG at the same
instant, the player whose turn it is takes his first" (R-A130, seed L2084-L2086) — and lets a player
win only if he *alone* still has Krosmasters (R-A132, L2056-L2062). The engine therefore needs one
definition of "the same instant", and this module is it.

**An instant** is one resolution that the rules treat as a whole:

- one action of the active character: a walk, with the trap it springs (R-A116); a spell, with
  everything it sets off — its injury cost (R-A69), Counter (R-A104), the explosions of the bombs it
  KOs and their chains (R-A111), the traps where its special movements end (R-A171); a ruleset's
  extra action (e.g. Arena's picking up a kama or buying a GG, R-A50);
- one triggered effect that a phase resolves: a bomb's self-detonation in the preliminary phase
  (R-A112) or an end-of-turn power (R-A36). When several trigger together the active player orders
  them (R-A32, R-A36) and each is an instant of its own — which is what makes the order matter;
- a ruleset's start-of-turn roll (e.g. Arena's tension roll: a double costs both players 1 GG at
  once, R-A26).

**Inside an instant** a piece whose injuries reach its HP is KO at once: it can no longer act, be
targeted, injure (Counter), heal or be healed, and a KO'd bomb explodes (R-A111) as part of the same
instant. Nothing else of the KO happens yet: the piece keeps its cell, nobody gains anything from it
(e.g. Arena's GG) and nobody wins.

**At the end of the instant** :func:`settle` applies, together and in this order:

1. every piece KO'd in the instant leaves the board; a KO'd Krosmaster's tokens leave with it and
   its bombs do not explode (R-A10, R-A113) — a bomb KO'd *in* the instant has already exploded;
2. the ruleset's consequences of the KOs (``MatchRules.on_kos``). E.g. in Arena each KO'd character with
   a level gives that many GG to the opponent of its side (R-A10, R-A131; box creatures have none,
   R-A110); the active player takes his gains first (R-A130), so he takes the wild GG when both
   players gain (R-A129) — ``krosbalance.rulesets.arena.economy``;
3. victory is checked once, by the ruleset (``MatchRules.check_victory``). E.g. in Arena (R-A132): a
   player who alone still has Krosmasters wins; when neither has any, the GG condition decides if it
   can, else the match is a draw (``mutual_ko``); with Krosmasters on both sides, once the wild GG is
   gone, the only player holding GG wins, and nobody holding GG is settled by the
   ``simultaneous_zero_gg`` option.

So in Arena a 1-HP Krosmaster punching a 1-HP Counter holder KOs both at one instant: the attacker's player
takes the wild GG, and if they were both sides' last Krosmasters neither player alone has
Krosmasters (``mutual_ko`` unless the GG decide).

Cost: an instant in which nothing was KO'd and the ruleset's holdings did not move (e.g. Arena: no GG)
settles with one flag test (``state.unsettled``, which a ruleset sets when its holdings change); the
lists used are allocated once per match.
"""

from __future__ import annotations

from krosbalance.engine.combat import explode_pending_bombs
from krosbalance.engine.pieces import lift
from krosbalance.engine.state import KROSMASTER, MatchState


def settle(state: MatchState) -> bool:
    """End the current instant: bombs still waiting explode (chains belong to the instant), then the
    KOs of the instant take effect together, then victory is checked once. Returns whether the
    match is over."""
    if state.pending_bombs:
        explode_pending_bombs(state)
    if not state.unsettled:
        return state.finished
    state.unsettled = False
    kos = state.pending_kos
    if kos:
        for victim in kos:
            lift(state, victim)
            if victim.kind == KROSMASTER:
                for token in victim.summons:
                    if token.alive:  # R-A10, R-A113: removed, bombs do not explode
                        token.alive = False
                        lift(state, token)
        state.ruleset.on_kos(state, kos)
        kos.clear()
    state.ruleset.check_victory(state)
    return state.finished
