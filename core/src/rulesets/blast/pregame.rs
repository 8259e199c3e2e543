//! Before a Blast game's first turn (pregame.py, R-B4-R-B8, R-B20, R-B40): the teams, the first
//! player's toss, the favor deck, the Divine Challenges in play, and the deployment. The set-up
//! stream is drawn in the reference's order: toss, deck, challenges.

use std::sync::Arc;

use crate::board::{Board, Cell};
use crate::content::Content;
use crate::engine::dice::Dice;
use crate::engine::pieces::{place, spawn};
use crate::engine::state::{EngineOptions, MatchState};
use crate::rng::Generator;
use crate::rulesets::blast::ruleset::{Blast, BlastController, BlastState};

/// The challenges in play (R-B40): named ones, and `random` ones drawn among the rest; their
/// bonuses flattened with the tier each needs (R-B41).
fn put_challenges(state: &mut MatchState<Blast>, rng: &mut Generator) {
    let ruleset = state.ruleset.clone();
    let all = &ruleset.challenges;
    let names = &ruleset.opts.challenges;
    let mut rest: Vec<usize> = (0..all.len())
        .filter(|&c| !names.contains(&all[c].id))
        .collect();
    let mut chosen = Vec::new();
    for name in names {
        if name == "random" {
            let i = rng.integers(0, rest.len() as i64) as usize;
            chosen.push(rest.remove(i));
        } else {
            chosen.push(
                all.iter()
                    .position(|c| c.id == *name)
                    .expect("a known challenge"),
            );
        }
    }
    let bs = &mut state.rules;
    bs.bonuses.clear();
    bs.tiers.clear();
    for &c in &chosen {
        for bonus in &all[c].bonuses {
            let key = format!("{}.{}", all[c].id, bonus.id);
            let printed = if ruleset.opts.alternative_tiers && bonus.alt_tier != 0 {
                bonus.alt_tier
            } else {
                bonus.tier
            };
            let tier = ruleset
                .opts
                .challenge_tiers
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(printed, |&(_, t)| t);
            bs.bonuses.push(bonus.clone());
            bs.tiers.push(tier);
        }
    }
    bs.challenges = chosen;
    let n = bs.bonuses.len();
    bs.bonus_uses = [vec![0; n], vec![0; n]];
}

/// A state with both teams spawned (not deployed), the first player tossed (R-B7), the Dofus
/// token with the second player (R-B8), the deck dealt and the challenges drawn.
#[allow(clippy::too_many_arguments)]
pub fn setup(
    teams: &[Vec<usize>],
    board: Arc<Board>,
    content: Arc<Content>,
    ruleset: Arc<Blast>,
    opts: EngineOptions,
    dice: Dice,
    setup_rng: &mut Generator,
    record: u8,
) -> Result<MatchState<Blast>, String> {
    if ruleset.glyph_cells.is_empty() {
        return Err("the board has no glyph cells: it is not a Krosmaster Blast board".into());
    }
    let rules = BlastState::new(ruleset.glyph_cells);
    let mut state = MatchState::new(
        board,
        content,
        ruleset,
        opts,
        rules,
        dice,
        record,
        vec![0, 1],
    );
    for (side, team) in teams.iter().enumerate() {
        for &spec in team {
            let uid = spawn(&mut state, spec, side, None, None);
            state.timeline[side].push(uid);
        }
    }
    let first = setup_rng.integers(0, 2) as usize;
    state.first_player = first;
    state.active_side = first;
    state.play_order = vec![first, 1 - first];
    state.rules.dofus = 1 - first;
    let pool = state.ruleset.favors.len();
    let order = setup_rng.permutation(pool);
    let size = state.ruleset.opts.favor_deck_size;
    state.rules.deck = order[..size].to_vec();
    put_challenges(&mut state, setup_rng);
    Ok(state)
}

/// R-B8: the first player places his Krosmasters on his free deployment cells, then the other.
pub fn deploy(
    state: &mut MatchState<Blast>,
    players: &mut [Box<dyn BlastController>],
) -> Result<(), String> {
    let first = state.first_player;
    for side in [first, 1 - first] {
        let zone = state.board.deploy(side);
        let cells: Vec<Cell> = zone.iter().filter(|&c| state.is_free(c)).collect();
        let fighters = state.timeline[side].clone();
        if cells.len() < fighters.len() {
            return Err(format!(
                "board {:?} has {} free deployment cells for player {side}, but the team has {} Krosmasters",
                state.board.id(),
                cells.len(),
                fighters.len()
            ));
        }
        let chosen = players[side].choose_deployment(state, side, fighters.len(), &cells);
        let mut check = chosen.clone();
        check.sort_unstable();
        check.dedup();
        if chosen.len() != fighters.len()
            || check.len() != chosen.len()
            || !chosen.iter().all(|c| cells.contains(c))
        {
            return Err(format!(
                "player {side} deployed to {chosen:?}, not distinct free deployment cells"
            ));
        }
        for (f, c) in fighters.into_iter().zip(chosen) {
            place(state, f, c);
        }
    }
    Ok(())
}
