//! Arena for four players (krosbalance/rulesets/arena/four_player.py, R-A150-R-A159): free-for-all
//! and two versus two: partnerships, play order, start zones, GG by KO and by tension, victory.

use crate::content::{Content, PieceKind};
use crate::engine::events::Event;
use crate::engine::instant::end_match;
use crate::engine::rules::Players;
use crate::engine::state::MatchState;
use crate::rng::Generator;
use crate::rulesets::arena::economy::{gain_gg, lose_gg};
use crate::rulesets::arena::{Arena, ArenaEvent, Mode};

/// The board's start zones in clockwise order: bottom, left, top, right (`Board::deploy` indices).
pub const CLOCKWISE_ZONES: [usize; 4] = [0, 2, 1, 3];

/// What a `choose_player` question is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// R-A157: the opponent the active player makes lose 1 GG.
    TensionLoss,
    /// R-A157: the player that opponent makes lose 1 GG in turn.
    TensionPass,
    /// R-A155: the opponent who receives a self-KO'd character's GG.
    SelfKoGg,
}

pub fn seats_in(mode: Mode) -> usize {
    if mode == Mode::TwoPlayer { 2 } else { 4 }
}

/// Each seat's partnership.
pub fn partnerships(mode: Mode) -> Vec<usize> {
    match mode {
        Mode::TwoVsTwo => vec![0, 1, 0, 1],
        _ => (0..seats_in(mode)).collect(),
    }
}

/// A team's rank for the play order: its Initiative sum, then its Initiatives from the highest.
fn initiative(content: &Content, team: &[usize]) -> (i32, Vec<i32>) {
    let mut each: Vec<i32> = team.iter().map(|&s| content.chars[s].initiative).collect();
    let sum = each.iter().sum();
    each.sort_unstable_by(|a, b| b.cmp(a));
    (sum, each)
}

/// Seats by decreasing Initiative (R-A153, R-A151); still-tied seats shuffled by one permutation.
fn ranked(
    seats: &[usize],
    content: &Content,
    teams: &[Vec<usize>],
    rng: &mut Generator,
) -> Vec<usize> {
    let mut keyed: Vec<usize> = seats.to_vec();
    keyed.sort_by(|&a, &b| initiative(content, &teams[b]).cmp(&initiative(content, &teams[a])));
    let mut out = Vec::with_capacity(seats.len());
    let mut rest = &keyed[..];
    while let Some(&head) = rest.first() {
        let key = initiative(content, &teams[head]);
        let tied: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&s| initiative(content, &teams[s]) == key)
            .collect();
        rest = &rest[tied.len()..];
        if tied.len() > 1 {
            out.extend(rng.permutation(tied.len()).into_iter().map(|i| tied[i]));
        } else {
            out.extend(tied);
        }
    }
    out
}

/// The seats in play order (R-A153; two versus two alternates partnerships, R-A159).
pub fn play_order(
    mode: Mode,
    content: &Content,
    teams: &[Vec<usize>],
    rng: &mut Generator,
) -> Vec<usize> {
    let seats: Vec<usize> = (0..teams.len()).collect();
    if mode != Mode::TwoVsTwo {
        return ranked(&seats, content, teams, rng);
    }
    let team_of = partnerships(mode);
    let first = ranked(&seats, content, teams, rng)[0];
    let ally = seats
        .iter()
        .copied()
        .find(|&s| s != first && team_of[s] == team_of[first])
        .expect("a partner");
    let others: Vec<usize> = seats
        .iter()
        .copied()
        .filter(|&s| team_of[s] != team_of[first])
        .collect();
    let second = ranked(&others, content, teams, rng);
    vec![first, second[0], ally, second[1]]
}

/// R-A154, R-A156: player 1's zone (an index into [`CLOCKWISE_ZONES`]); the others clockwise.
pub fn assign_zones(state: &mut MatchState<Arena>, choice: usize) {
    assert!(choice < CLOCKWISE_ZONES.len(), "zone {choice} of 4");
    for k in 0..state.play_order.len() {
        let seat = state.play_order[k];
        state.edges[seat] = CLOCKWISE_ZONES[(choice + k) % CLOCKWISE_ZONES.len()];
    }
}

/// The seats after `seat` in play order.
fn after(state: &MatchState<Arena>, seat: usize) -> Vec<usize> {
    let order = &state.play_order;
    let at = order.iter().position(|&s| s == seat).expect("a seat");
    (1..order.len())
        .map(|k| order[(at + k) % order.len()])
        .collect()
}

/// The seats of every other partnership, in play order from the one after `seat`.
pub fn opponents_of(state: &MatchState<Arena>, seat: usize) -> Vec<usize> {
    after(state, seat)
        .into_iter()
        .filter(|&s| state.team_of[s] != state.team_of[seat])
        .collect()
}

/// The opponent holding the most GG, ties to the one who plays soonest after `side`.
pub fn leading_opponent(state: &MatchState<Arena>, side: usize) -> usize {
    let after = after(state, side);
    let gg = &state.rules.gg;
    let mut best: Option<(usize, (i32, i64))> = None;
    for (k, &seat) in after.iter().enumerate() {
        if state.team_of[seat] == state.team_of[side] {
            continue;
        }
        let key = (gg[seat], -(k as i64));
        if best.is_none_or(|(_, b)| key > b) {
            best = Some((seat, key));
        }
    }
    best.expect("an opponent").0
}

/// The heuristic policy (`choose_by_policy`): the choice when no player is attached.
pub fn default_choice(
    state: &MatchState<Arena>,
    seat: usize,
    purpose: Purpose,
    seats: &[usize],
) -> usize {
    let after = after(state, seat);
    let soon = |s: usize| after.iter().position(|&a| a == s).unwrap_or(after.len()) as i64;
    let gg = &state.rules.gg;
    let mut best = 0;
    let mut best_key = None;
    for (i, &s) in seats.iter().enumerate() {
        let key = if purpose == Purpose::SelfKoGg {
            (0, -i64::from(gg[s]), soon(s))
        } else {
            (
                i64::from(state.team_of[s] != state.team_of[seat]),
                i64::from(gg[s]),
                -soon(s),
            )
        };
        if best_key.is_none_or(|b| key > b) {
            best_key = Some(key);
            best = i;
        }
    }
    best
}

/// The seat's player chooses among `seats` (or the default policy when none is attached).
pub fn ask_player(
    state: &MatchState<Arena>,
    players: &mut Players<Arena>,
    seat: usize,
    purpose: Purpose,
    seats: &[usize],
) -> usize {
    if seats.len() == 1 {
        return seats[0];
    }
    let choice = if players.is_empty() {
        default_choice(state, seat, purpose, seats)
    } else {
        players[seat].choose_player(state, seat, purpose, seats)
    };
    assert!(
        choice < seats.len(),
        "player {seat} chose index {choice} of {}",
        seats.len()
    );
    seats[choice]
}

/// R-A155: each KO'd character's level to whoever KO'd it (self-KOs to an opponent of the
/// player's choice), in play order from the active player; a player's last Krosmaster also gives
/// all his GG.
pub fn gg_for_kos(state: &mut MatchState<Arena>, kos: &[usize], players: &mut Players<Arena>) {
    let mut gains: Vec<(usize, usize, bool)> = Vec::new();
    for &victim in kos {
        let v = &state.fighters[victim];
        if v.level <= 0 || !v.is_character() {
            continue;
        }
        let last = v.kind == PieceKind::Krosmaster && !state.seat_standing(v.side);
        match v.ko_by {
            Some(by) if state.fighters[by].team != v.team => {
                gains.push((state.fighters[by].side, victim, last))
            }
            by => {
                let chooser = by.map_or(v.side, |b| state.fighters[b].side);
                let candidates = opponents_of(state, v.side);
                let seat = ask_player(state, players, chooser, Purpose::SelfKoGg, &candidates);
                gains.push((seat, victim, last));
            }
        }
    }
    let mut order = vec![state.active_side];
    order.extend(after(state, state.active_side));
    gains.sort_by_key(|g| order.iter().position(|&s| s == g.0).expect("a seat"));
    for (seat, victim, last) in gains {
        let v = &state.fighters[victim];
        let credit = v.ko_by.filter(|&b| state.fighters[b].side == seat);
        let (level, source) = (v.level, v.side);
        gain_gg(state, seat, level, credit, Some(source));
        let rest = state.rules.gg[source];
        if last && rest > 0 {
            gain_gg_from(state, seat, source, rest, credit);
        }
    }
}

/// `seat` takes `amount` of `source`'s GG (never the wild GG): R-A155's "takes all".
fn gain_gg_from(
    state: &mut MatchState<Arena>,
    seat: usize,
    source: usize,
    amount: i32,
    credit: Option<usize>,
) {
    let taken = amount.min(state.rules.gg[source]);
    if taken <= 0 {
        return;
    }
    state.rules.gg[source] -= taken;
    state.rules.gg[seat] += taken;
    if let Some(c) = credit {
        state.fighters[c].stats.gg_won += i64::from(taken);
    }
    if state.summary() {
        let gg = state.rules.gg.clone();
        state.events.push(Event::Ruleset(ArenaEvent::GGChanged {
            turn: state.turn,
            side: seat,
            amount: taken,
            origin: "last_krosmaster",
            gg,
        }));
    }
}

/// R-A157: the active player picks an opponent who loses 1 GG; that opponent picks another player
/// who loses 1 GG.
pub fn tension_double(state: &mut MatchState<Arena>, side: usize, players: &mut Players<Arena>) {
    let candidates = opponents_of(state, side);
    let loser = ask_player(state, players, side, Purpose::TensionLoss, &candidates);
    lose_gg(state, loser, "tension");
    let mut others = vec![side];
    others.extend(
        after(state, loser)
            .into_iter()
            .filter(|&s| s != loser && s != side),
    );
    let second = ask_player(state, players, loser, Purpose::TensionPass, &others);
    lose_gg(state, second, "tension");
}

/// GG per partnership, partnerships in order of their first seat.
fn team_gg(state: &MatchState<Arena>) -> Vec<(usize, i32)> {
    let mut totals: Vec<(usize, i32)> = Vec::new();
    for seat in 0..state.n_seats {
        let team = state.team_of[seat];
        match totals.iter_mut().find(|(t, _)| *t == team) {
            Some(entry) => entry.1 += state.rules.gg[seat],
            None => totals.push((team, state.rules.gg[seat])),
        }
    }
    totals
}

/// The partnerships that still have a Krosmaster in play, each once, in seat order.
fn teams_standing(state: &MatchState<Arena>) -> Vec<usize> {
    let mut standing = Vec::new();
    for seat in 0..state.n_seats {
        let team = state.team_of[seat];
        if !standing.contains(&team) && state.seat_standing(seat) {
            standing.push(team);
        }
    }
    standing
}

/// R-A158 (R-A132 for four players).
pub fn check_victory(state: &mut MatchState<Arena>) -> bool {
    let standing = teams_standing(state);
    if standing.len() == 1 {
        end_match(state, Some(standing[0]), "last_standing");
        return true;
    }
    let opts = &state.ruleset.opts;
    let (zero_loses, zero_draw) = (opts.zero_gg_loses, opts.zero_gg_draw);
    if state.rules.wild_gg == 0 || zero_loses {
        let holders: Vec<usize> = team_gg(state)
            .into_iter()
            .filter(|&(_, gg)| gg > 0)
            .map(|(t, _)| t)
            .collect();
        if holders.len() == 1 {
            end_match(state, Some(holders[0]), "gg");
            return true;
        }
        if holders.is_empty() && !standing.is_empty() && zero_draw {
            end_match(state, None, "gg_exhausted");
            return true;
        }
    }
    if standing.is_empty() {
        end_match(state, None, "mutual_ko");
        return true;
    }
    false
}

/// At the turn bound: a draw, or under `turn_limit_result = "gg"` the partnership with the most GG.
pub fn turn_limit_winner(state: &MatchState<Arena>) -> Option<usize> {
    if !state.ruleset.opts.turn_limit_gg {
        return None;
    }
    let totals = team_gg(state);
    let best = totals.iter().map(|&(_, gg)| gg).max()?;
    let leaders: Vec<usize> = totals
        .iter()
        .filter(|&&(_, gg)| gg == best)
        .map(|&(t, _)| t)
        .collect();
    (leaders.len() == 1).then(|| leaders[0])
}
