//! The base class's pregame choices (krosbalance/ai/base.py), played by every AI that does not
//! override them (the heuristic AIs): the draft takes the visible card with the higher
//! `card_value` (R-A17), the first player picks the board by line of sight against the opponents'
//! reach (R-A19). The boundary reads the few numbers they need from the loaded specs.

use crate::rulesets::arena::pregame::PregamePlayer;

/// What `card_value` and `team_reach` read of a card.
#[derive(Clone, Debug, Default)]
pub struct CardFacts {
    pub hp: i32,
    pub ap: i32,
    pub mp: i32,
    pub n_powers: i32,
    /// (amount, max range) of each attack, in card order.
    pub attacks: Vec<(i32, i32)>,
    /// Spells that are not attacks.
    pub others: i32,
}

/// `card_value`: HP + AP + 2 x MP + 2 per power + the best attack (damage + half its max range) +
/// 1 per other spell, in the reference's order of additions.
pub fn card_value(c: &CardFacts) -> f64 {
    let mut best: Option<f64> = None;
    for &(amount, range_max) in &c.attacks {
        let v = f64::from(amount) + f64::from(range_max) / 2.0;
        if best.is_none_or(|b| v > b) {
            best = Some(v);
        }
    }
    let base = c.hp + c.ap + 2 * c.mp + 2 * c.n_powers;
    (f64::from(base) + best.unwrap_or(0.0)) + f64::from(c.others)
}

/// `team_reach`: the mean over a team of each Krosmaster's longest attack range (0 without one).
pub fn team_reach(team: &[&CardFacts]) -> f64 {
    if team.is_empty() {
        return 0.0;
    }
    let total: i32 = team
        .iter()
        .map(|k| k.attacks.iter().map(|a| a.1).max().unwrap_or(0))
        .sum();
    f64::from(total) / team.len() as f64
}

/// The base class's pregame player: card values of the dealt pool (by position) for the draft; the
/// candidate boards' tree counts and the reaches for the board choice.
#[derive(Clone, Debug, Default)]
pub struct BasePregame {
    pub card_values: Vec<f64>,
    pub trees: Vec<u32>,
    pub reach: f64,
    pub theirs: f64,
}

impl PregamePlayer for BasePregame {
    /// R-A17: the visible card with the higher `card_value` (the first on a tie).
    fn choose_draft(&mut self, visible: &[usize], _own: &[usize], _opponent: &[usize]) -> usize {
        let mut best = 0;
        for (i, &card) in visible.iter().enumerate() {
            if self.card_values[card] > self.card_values[visible[best]] {
                best = i;
            }
        }
        best
    }

    /// R-A19: the fewest trees when outranging the opponents, the most when outranged; equal
    /// reach keeps the first board.
    fn choose_board(&mut self, n_boards: usize) -> usize {
        debug_assert_eq!(n_boards, self.trees.len());
        if self.reach == self.theirs {
            return 0;
        }
        let wanted = if self.reach > self.theirs {
            self.trees.iter().min()
        } else {
            self.trees.iter().max()
        };
        let wanted = *wanted.expect("boards");
        self.trees
            .iter()
            .position(|&t| t == wanted)
            .expect("wanted")
    }
}
