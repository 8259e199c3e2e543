//! Before a duel's first turn (krosbalance/rulesets/duel/pregame.py, R-D14-R-D19, R-D36-R-D39):
//! set-up (teams, first player, duel level, the shuffled supply), the tokens held from the start
//! (study option), the draft (plain and tactical), deployment and the tokens on duel cells. The
//! set-up stream is drawn in the reference's order: the first player's coin (on a tie only), the
//! shuffle of the piles, the placement seed.

use std::sync::Arc;

use crate::board::{Board, Cell, CellSet};
use crate::content::Content;
use crate::engine::dice::Dice;
use crate::engine::events::Event;
use crate::engine::pieces::{place, spawn};
use crate::engine::state::{EngineOptions, MatchState};
use crate::rng::Generator;
use crate::rulesets::duel::ruleset::{DraftChoice, Duel, DuelController, DuelEvent, DuelState};

/// R-D14, R-D37: the higher Initiative (team total), then the higher single Initiative, then a
/// coin from the set-up stream.
pub fn first_player(content: &Content, teams: &[Vec<usize>], rng: &mut Generator) -> usize {
    let total = |t: &[usize]| -> i32 { t.iter().map(|&s| content.chars[s].initiative).sum() };
    let best = |t: &[usize]| -> i32 {
        t.iter()
            .map(|&s| content.chars[s].initiative)
            .max()
            .unwrap_or(0)
    };
    let (a, b) = (total(&teams[0]), total(&teams[1]));
    if a != b {
        return if a > b { 0 } else { 1 };
    }
    let (a, b) = (best(&teams[0]), best(&teams[1]));
    if a != b {
        return if a > b { 0 } else { 1 };
    }
    rng.integers(0, 2) as usize
}

/// A state with both teams spawned (not deployed), the first player, the duel level and the
/// shuffled token supply (`pregame.setup`).
#[allow(clippy::too_many_arguments)]
pub fn setup(
    teams: &[Vec<usize>],
    board: Arc<Board>,
    content: Arc<Content>,
    ruleset: Arc<Duel>,
    opts: EngineOptions,
    duel_cells: CellSet,
    dice: Dice,
    setup_rng: &mut Generator,
    record: u8,
) -> Result<MatchState<Duel>, String> {
    let figures = ruleset.opts.figures;
    if (duel_cells.len() as usize) < 2 * figures {
        return Err(format!(
            "the board has {} duel cells, {} needed (R-D19, R-D39): it is not a Duel Pack board",
            duel_cells.len(),
            2 * figures
        ));
    }
    if ruleset.tokens.len() < 4 * figures {
        return Err(format!(
            "{} Duel Tokens; a duel with {figures} figure(s) needs at least {} (R-D16, R-D19)",
            ruleset.tokens.len(),
            4 * figures
        ));
    }
    let rules = DuelState::new(&ruleset, duel_cells, board.n_cells());
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
        let mut fighters: Vec<usize> = team
            .iter()
            .map(|&spec| spawn(&mut state, spec, side, None, None))
            .collect();
        let content = state.content.clone();
        fighters.sort_by_key(|&f| -content.chars[state.fighters[f].spec].initiative);
        state.timeline[side] = fighters;
    }
    let first = first_player(&state.content, teams, setup_rng);
    state.first_player = first;
    state.active_side = first;
    state.play_order = vec![first, 1 - first];
    let level = |t: &Vec<usize>| -> i32 { t.iter().map(|&s| state.content.chars[s].level).sum() };
    state.rules.duel_level =
        state.ruleset.opts.duel_level_bonus + level(&teams[0]).max(level(&teams[1]));
    let n = state.fighters.len();
    state.rules.hidden = vec![Vec::new(); n];
    state.rules.shown = vec![Vec::new(); n];
    for pile in state.rules.piles.iter_mut() {
        let order = setup_rng.permutation(pile.len());
        *pile = order.into_iter().map(|i| pile[i]).collect();
    }
    if state.ruleset.opts.tactical {
        let DuelState { piles, face_up, .. } = &mut state.rules;
        for (pile, up) in piles.iter_mut().zip(face_up.iter_mut()) {
            *up = pile.pop();
        }
    }
    state.rules.placement_seed = setup_rng.integers_closed(0, i64::MAX) as u64;
    Ok(state)
}

/// The study option `start_token_levels`: seat 0 takes the top token of each listed level's pile
/// face down onto the card of the Krosmaster it chooses (`give_start_tokens`).
pub fn give_start_tokens(
    state: &mut MatchState<Duel>,
    players: &mut [Box<dyn DuelController>],
) -> Result<(), String> {
    let side = 0;
    let levels = state.ruleset.opts.start_token_levels.clone();
    for level in levels {
        let token = state.rules.piles[(level - 1) as usize]
            .pop()
            .ok_or_else(|| format!("no face-down token of level {level} left"))?;
        let holder = token_holder(state, side, token, players)?;
        state.rules.hidden_mut(holder).push(token);
        state.rules.start_tokens[side].push(token);
        if state.full() {
            state
                .events
                .push(Event::Ruleset(DuelEvent::TokenHeldFromStart {
                    turn: state.turn,
                    side,
                    uid: holder,
                    token,
                }));
        }
    }
    Ok(())
}

/// What a player may take now (R-D16, R-D17): per level, the face-up token (tactical) and the top
/// face-down one; without `draft_overshoot` only levels within `budget`.
pub fn draft_choices(state: &MatchState<Duel>, budget: i32) -> Vec<DraftChoice> {
    let mut out = Vec::new();
    for (index, pile) in state.rules.piles.iter().enumerate() {
        let level = index as i32 + 1;
        if !state.ruleset.opts.draft_overshoot && level > budget {
            continue;
        }
        if let Some(shown) = state.rules.face_up[index] {
            out.push(DraftChoice {
                level,
                token: Some(shown),
            });
        }
        if !pile.is_empty() {
            out.push(DraftChoice { level, token: None });
        }
    }
    out
}

fn take(ds: &mut DuelState, choice: DraftChoice) -> usize {
    let index = (choice.level - 1) as usize;
    match choice.token {
        None => ds.piles[index].pop().expect("a face-down token"),
        Some(token) => {
            ds.face_up[index] = ds.piles[index].pop();
            token
        }
    }
}

/// R-D16, R-D17: alternate picks, first player first, until both players have stopped.
pub fn draft(
    state: &mut MatchState<Duel>,
    players: &mut [Box<dyn DuelController>],
) -> Result<(), String> {
    let mut counts = [0i32; 2];
    let mut stopped = [false; 2];
    let mut side = state.first_player;
    let max_tokens = state.ruleset.opts.draft_max_tokens;
    while !(stopped[0] && stopped[1]) {
        if !stopped[side] {
            let budget = state.rules.duel_level - state.rules.team_levels(state, side);
            let choices = draft_choices(state, budget);
            if counts[side] >= max_tokens || budget <= 0 || choices.is_empty() {
                stopped[side] = true;
            } else {
                let pick = players[side].choose_duel_draft(state, side, &choices, budget);
                if pick >= choices.len() {
                    return Err(format!(
                        "player {side} drafted choice {pick} of {}",
                        choices.len()
                    ));
                }
                let choice = choices[pick];
                let token = take(&mut state.rules, choice);
                let holder = token_holder(state, side, token, players)?;
                state.rules.hidden_mut(holder).push(token);
                state.rules.drafted[side] += 1;
                counts[side] += 1;
                if state.full() {
                    state.events.push(Event::Ruleset(DuelEvent::TokenDrafted {
                        turn: state.turn,
                        side,
                        uid: holder,
                        token,
                        face_up: choice.token.is_some(),
                    }));
                }
            }
        }
        side = 1 - side;
    }
    Ok(())
}

/// The uid of the Krosmaster whose card gets a token: the only one, or the player's pick.
fn token_holder(
    state: &MatchState<Duel>,
    side: usize,
    token: usize,
    players: &mut [Box<dyn DuelController>],
) -> Result<usize, String> {
    let team = &state.timeline[side];
    if team.len() == 1 {
        return Ok(team[0]);
    }
    let uid = players[side].choose_token_holder(state, side, token, team);
    if !team.contains(&uid) {
        return Err(format!(
            "player {side} gave a token to {uid}, not one of his Krosmasters"
        ));
    }
    Ok(uid)
}

/// R-D18: the second player places his Krosmasters on his starting cells, then the first.
pub fn deploy(
    state: &mut MatchState<Duel>,
    players: &mut [Box<dyn DuelController>],
) -> Result<(), String> {
    let first = state.first_player;
    for side in [1 - first, first] {
        let cells: Vec<Cell> = state
            .board
            .deploy(side)
            .iter()
            .filter(|&c| state.is_free(c))
            .collect();
        let n = state.timeline[side].len();
        if cells.len() < n {
            return Err(format!(
                "board {:?} has {} free starting cells for player {side}, but the team has {n} Krosmasters",
                state.board.id(),
                cells.len()
            ));
        }
        let chosen = players[side].choose_deployment(state, side, n, &cells);
        let mut distinct = chosen.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if chosen.len() != n || distinct.len() != n || !chosen.iter().all(|c| cells.contains(c)) {
            return Err(format!(
                "player {side} deployed to {chosen:?}, not distinct free starting cells"
            ));
        }
        for (k, cell) in chosen.into_iter().enumerate() {
            let f = state.timeline[side][k];
            place(state, f, cell);
        }
    }
    Ok(())
}

/// R-D19, R-D39: `figures` rounds of first player then second: a token drawn without looking
/// (from the placement seed) goes face down on a free duel cell of his choice.
pub fn place_tokens(
    state: &mut MatchState<Duel>,
    players: &mut [Box<dyn DuelController>],
) -> Result<(), String> {
    let mut rng = Generator::from_int(u128::from(state.rules.placement_seed));
    let first = state.first_player;
    for _ in 0..state.ruleset.opts.figures {
        for side in [first, 1 - first] {
            let supply: Vec<(usize, usize)> = state
                .rules
                .piles
                .iter()
                .enumerate()
                .flat_map(|(i, pile)| (0..pile.len()).map(move |j| (i, j)))
                .collect();
            let cells: Vec<Cell> = state
                .rules
                .duel_cells
                .iter()
                .filter(|&c| state.rules.token_on(c).is_none())
                .collect();
            if supply.is_empty() || cells.is_empty() {
                return Ok(());
            }
            let (i, j) = supply[rng.integers(0, supply.len() as i64) as usize];
            let token = state.rules.piles[i].remove(j);
            let level = state.ruleset.tokens[token].level;
            let cell = players[side].choose_duel_cell(state, side, level, &cells);
            if !cells.contains(&cell) {
                return Err(format!(
                    "player {side} put a token on {cell}, not a duel cell without a token"
                ));
            }
            state.rules.on_cells[usize::from(cell)] = Some(token);
            state.rules.n_on_cells += 1;
            if state.full() {
                state.events.push(Event::Ruleset(DuelEvent::TokenPlaced {
                    turn: state.turn,
                    side,
                    cell: i32::from(cell),
                    token,
                }));
            }
        }
    }
    Ok(())
}
