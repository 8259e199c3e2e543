//! How an Arena match begins (krosbalance/rulesets/arena/pregame.py): first player (R-A18, R-A151),
//! set-up with the Timelines (R-A20), the edge choice (R-A19) and deployment (R-A25).

use std::sync::Arc;

use crate::board::{Board, Cell};
use crate::content::Content;
use crate::engine::dice::Dice;
use crate::engine::pieces::{place, spawn};
use crate::engine::state::{EngineOptions, MatchState};
use crate::rng::Generator;
use crate::rulesets::arena::four_player;
use crate::rulesets::arena::{Arena, ArenaController, ArenaState, Mode};

/// Higher Initiative sum plays first; ties compare the highest single Initiatives, then the next;
/// a perfect tie is a coin toss from the set-up stream.
pub fn first_player(
    content: &Content,
    team0: &[usize],
    team1: &[usize],
    rng: &mut Generator,
) -> usize {
    let init = |team: &[usize]| -> Vec<i32> {
        team.iter().map(|&s| content.chars[s].initiative).collect()
    };
    let (a, b) = (init(team0), init(team1));
    let (sa, sb): (i32, i32) = (a.iter().sum(), b.iter().sum());
    if sa != sb {
        return if sa > sb { 0 } else { 1 };
    }
    let (mut ra, mut rb) = (a, b);
    ra.sort_unstable_by(|x, y| y.cmp(x));
    rb.sort_unstable_by(|x, y| y.cmp(x));
    if ra != rb {
        return if ra > rb { 0 } else { 1 };
    }
    rng.integers(0, 2) as usize
}

/// A state with both teams spawned (not deployed), Timelines built and the play order decided.
#[allow(clippy::too_many_arguments)]
pub fn setup(
    teams: &[Vec<usize>],
    board: Arc<Board>,
    content: Arc<Content>,
    ruleset: Arc<Arena>,
    opts: EngineOptions,
    dice: Dice,
    setup_rng: &mut Generator,
    record: u8,
) -> MatchState<Arena> {
    let order = play_order(ruleset.opts.mode, &content, teams, setup_rng);
    let team_of = four_player::partnerships(ruleset.opts.mode);
    assert_eq!(team_of.len(), teams.len(), "the mode's seats");
    let rules = ArenaState::start(&board, &ruleset.opts, teams.len());
    let mut state = MatchState::new(board, content, ruleset, opts, rules, dice, record, team_of);
    for (side, team) in teams.iter().enumerate() {
        let mut fighters: Vec<usize> = team
            .iter()
            .map(|&spec| spawn(&mut state, spec, side, None, None))
            .collect();
        let content = state.content.clone();
        // decreasing Initiative; equal Initiative keeps the team's order (a stable sort)
        fighters.sort_by_key(|&f| -content.chars[state.fighters[f].spec].initiative);
        state.timeline[side] = fighters;
    }
    state.first_player = order[0];
    state.active_side = order[0];
    state.play_order = order;
    state
}

/// The seats in play order: two players, the first player then the other (R-A18, R-A151); four,
/// R-A153 and R-A159.
pub fn play_order(
    mode: Mode,
    content: &Content,
    teams: &[Vec<usize>],
    rng: &mut Generator,
) -> Vec<usize> {
    if teams.len() == 2 {
        let first = first_player(content, &teams[0], &teams[1], rng);
        return vec![first, 1 - first];
    }
    four_player::play_order(mode, content, teams, rng)
}

/// R-A154, R-A156: player 1 orients the board by picking his start zone among the four; the others
/// sit clockwise from him in play order.
pub fn choose_zones(
    state: &mut MatchState<Arena>,
    players: &mut [Box<dyn ArenaController>],
) -> Result<(), String> {
    if state.board.n_zones() < four_player::CLOCKWISE_ZONES.len() {
        return Err(format!(
            "board {:?} has {} start zones; a four-player match needs 4 (R-A156)",
            state.board.id(),
            state.board.n_zones()
        ));
    }
    let chooser = state.play_order[0];
    let choice = players[chooser].choose_edge(state, chooser, four_player::CLOCKWISE_ZONES.len());
    four_player::assign_zones(state, choice);
    Ok(())
}

/// R-A19: the player who is not first picks his edge; the first player sits opposite.
pub fn choose_edges(state: &mut MatchState<Arena>, players: &mut [Box<dyn ArenaController>]) {
    let chooser = 1 - state.first_player;
    let choice = players[chooser].choose_edge(state, chooser, 2);
    assert!(choice < 2, "player {chooser} picked edge {choice}");
    state.edges[chooser] = choice;
    state.edges[1 - chooser] = 1 - choice;
}

/// Each player in play order places all his figures on his edge's free deployment cells (R-A25).
pub fn deploy(
    state: &mut MatchState<Arena>,
    players: &mut [Box<dyn ArenaController>],
) -> Result<(), String> {
    for i in 0..state.play_order.len() {
        let side = state.play_order[i];
        let zone = state.board.deploy(state.edges[side]);
        let cells: Vec<Cell> = zone.iter().filter(|&c| state.is_free(c)).collect();
        let n = state.timeline[side].len();
        if cells.len() < n {
            return Err(format!(
                "board {:?} has {} free deployment cells for player {side}, but the team has {n} Krosmasters",
                state.board.id(),
                cells.len()
            ));
        }
        let chosen = players[side].choose_deployment(state, side, n, &cells);
        assert_eq!(
            chosen.len(),
            n,
            "player {side} deployed {} pieces",
            chosen.len()
        );
        for (k, cell) in chosen.into_iter().enumerate() {
            let f = state.timeline[side][k];
            place(state, f, cell);
        }
    }
    Ok(())
}

/// The pregame choices a player makes before a match (rulesets/base.py's `PregamePlayer`): which
/// visible card to draft (R-A17) and, as first player, which board to play on (R-A19). Cards are
/// positions in the dealt pool.
pub trait PregamePlayer {
    /// An index into `visible`.
    fn choose_draft(&mut self, visible: &[usize], own: &[usize], opponent: &[usize]) -> usize;
    /// An index among `n_boards` candidate boards.
    fn choose_board(&mut self, n_boards: usize) -> usize;
}

/// R-A17 (b): the cards shuffled and dealt alternately, half to each player (positions in the pool).
pub fn random_deal(n: usize, rng: &mut Generator) -> (Vec<usize>, Vec<usize>) {
    let order = rng.permutation(n);
    let a = order.iter().step_by(2).copied().collect();
    let b = order.iter().skip(1).step_by(2).copied().collect();
    (a, b)
}

/// R-A17 (c): the draft (pregame.py's `draft`), each pick the player's; positions in the pool.
pub fn draft(
    n: usize,
    players: &mut [Box<dyn PregamePlayer>],
    rng: &mut Generator,
) -> Result<(Vec<usize>, Vec<usize>), String> {
    if !(n >= 4 && n % 4 == 0) {
        return Err(format!(
            "the draft splits a deck of {n} cards unevenly; it needs a multiple of 4"
        ));
    }
    let mut deck: std::collections::VecDeque<usize> = rng.permutation(n).into();
    let mut visible = vec![
        deck.pop_front().expect("n >= 4"),
        deck.pop_front().expect("n >= 4"),
    ];
    let mut hands: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let first = rng.integers(0, 2) as usize;
    let mut pick = |player: usize,
                    hands: &mut [Vec<usize>; 2],
                    visible: &mut Vec<usize>,
                    deck: &mut std::collections::VecDeque<usize>| {
        let choice = players[player].choose_draft(visible, &hands[player], &hands[1 - player]);
        assert!(
            choice < visible.len(),
            "player {player} picked card {choice} of {}",
            visible.len()
        );
        hands[player].push(visible.remove(choice));
        if let Some(card) = deck.pop_front() {
            visible.push(card);
        }
    };
    pick(first, &mut hands, &mut visible, &mut deck);
    let mut player = 1 - first;
    while !deck.is_empty() {
        pick(player, &mut hands, &mut visible, &mut deck);
        pick(player, &mut hands, &mut visible, &mut deck);
        player = 1 - player;
    }
    hands[first].extend(visible);
    let [a, b] = hands;
    Ok((a, b))
}
