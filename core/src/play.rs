//! One match from loaded specs to its final state (krosbalance/play.py's `prepare_match` and
//! `play_match`): the seed split into the reference's streams, set-up, deployment, the game turns.

use std::sync::Arc;

use crate::ai::RandomAI;
use crate::ai::base::{BasePregame, CardFacts, card_value, team_reach};
use crate::ai::planner::HeuristicAI;
use crate::ai::scoring::Geometry;
use crate::ai::search::PlanSearchAI;
use crate::ai::weights::Weights;
use crate::board::Board;
use crate::content::Content;
use crate::engine::dice::Dice;
use crate::engine::events::Event;
use crate::engine::pieces::{Restriction, restrict};
use crate::engine::state::{EngineOptions, MatchState};
use crate::engine::turn::run_to_end;
use crate::rng::{Generator, SeedSequence};
use crate::rulesets::arena::four_player;
use crate::rulesets::arena::pregame::{
    PregamePlayer, choose_edges, choose_zones, deploy, draft, play_order, random_deal, setup,
};
use crate::rulesets::arena::{Arena, ArenaController, ArenaEvent, Mode};

/// The names of `match_streams`' children, in order; then `ai2`, `ai3`... for more seats.
pub const STREAMS: [&str; 5] = ["setup", "dice", "ai0", "ai1", "pregame"];

/// The streams of one match: `SeedSequence(seed).spawn(5 + seats - 2)`.
pub fn match_streams(seed: u128, seats: usize) -> Vec<SeedSequence> {
    let mut root = SeedSequence::from_int(seed);
    root.spawn((STREAMS.len() + seats.saturating_sub(2)) as u64)
}

/// The index in [`match_streams`] of seat `seat`'s AI stream (`ai0`, `ai1`, then after `pregame`).
pub fn ai_stream(seat: usize) -> usize {
    if seat < 2 { 2 + seat } else { 3 + seat }
}

/// One Arena match's specs: teams as indices into `content.chars`.
#[derive(Clone, Debug)]
pub struct ArenaMatch {
    pub board: Arc<Board>,
    pub content: Arc<Content>,
    pub ruleset: Arc<Arena>,
    pub opts: EngineOptions,
    pub teams: Vec<Vec<usize>>,
    pub ais: Vec<String>,
    pub seed: u128,
    pub record: u8,
    /// Restricted play: what each listed character's Krosmasters may not use (by spec index).
    pub forbid: Vec<(usize, Restriction)>,
    /// The heuristic AIs the boundary registered, by name, with the weights the reference's loader
    /// gave them (one parser for `skills.toml` and `tuned.toml`).
    pub heuristics: Arc<Vec<(String, Weights)>>,
    /// The board's range tables for the heuristic AIs, shared by the matches on it (built per AI
    /// when `None`).
    pub geo: Option<Arc<Geometry>>,
}

/// The controller of a registered AI name, with its stream: `random`, a heuristic AI the
/// boundary registered with its weights, or a search AI (`ai::search::search_spec`) over the
/// registered weights of its base heuristic and of its model of the opponent.
pub fn controller(
    name: &str,
    rng: Generator,
    heuristics: &[(String, Weights)],
    geo: Option<&Arc<Geometry>>,
    seats: usize,
) -> Result<Box<dyn ArenaController>, String> {
    if name == "random" {
        return Ok(Box::new(RandomAI::new(rng)));
    }
    if let Some((_, w)) = heuristics.iter().find(|(n, _)| n == name) {
        let mut ai = HeuristicAI::new(name, w.clone(), rng);
        if let Some(geo) = geo {
            ai.set_geometry(geo.clone());
        }
        return Ok(Box::new(ai));
    }
    if let Some(spec) = crate::ai::search::search_spec(name) {
        if seats != 2 && spec.four.is_none() {
            // the leaf evaluation scores one side against the other (`two_players_only`)
            return Err(format!(
                "the core does not play the AI {name:?} with {seats} players: it plays two-player matches only"
            ));
        }
        let heuristic = |of: &str| -> Result<HeuristicAI, String> {
            let (_, w) = heuristics.iter().find(|(n, _)| n == of).ok_or_else(|| {
                format!(
                    "the search AI {name:?} needs the heuristic {of:?}'s weights (not registered)"
                )
            })?;
            let mut ai = HeuristicAI::new(of, w.clone(), rng.clone());
            if let Some(geo) = geo {
                ai.set_geometry(geo.clone());
            }
            Ok(ai)
        };
        let (base, model) = (heuristic(&spec.base)?, heuristic(&spec.model)?);
        let replies = spec
            .replies
            .iter()
            .map(|r| heuristic(r))
            .collect::<Result<Vec<_>, _>>()?;
        let alternatives = spec
            .alternatives
            .iter()
            .map(|a| heuristic(a))
            .collect::<Result<Vec<_>, _>>()?;
        let mut ai = PlanSearchAI::new(name, spec.candidates, spec.budget, rng, base, model)
            .with_replies(replies)
            .with_alternatives(alternatives, spec.alt_plans)
            .with_four(spec.four)
            .with_ffa(spec.ffa);
        if let Some(geo) = geo {
            ai.set_geometry(geo.clone());
        }
        return Ok(Box::new(ai));
    }
    let mut plays = vec!["random".to_string()];
    plays.extend(heuristics.iter().map(|(n, _)| n.clone()));
    Err(format!(
        "the core does not play the AI {name:?} yet (it plays: {})",
        plays.join(", ")
    ))
}

/// Play one match to its end; the finished state.
pub fn play_arena(spec: &ArenaMatch) -> Result<MatchState<Arena>, String> {
    play_arena_unplanted(spec)
}

/// [`play_arena`], with the test-only planted divergence: `Some(k)` alters the `k`-th event of
/// the core's log ([`plant_divergence`]) as a recording bug would; the differential harness's own
/// test (`krosbalance.testing.differential`), never a match option.
pub fn play_arena_planted(
    spec: &ArenaMatch,
    plant: Option<usize>,
) -> Result<MatchState<Arena>, String> {
    let mut state = play_arena_unplanted(spec)?;
    if let Some(event) = plant.and_then(|k| state.events.get_mut(k)) {
        plant_divergence(event);
    }
    Ok(state)
}

/// Test-only: one field of an event changed the way a bug would change it, so the state the log
/// tells differs too where it can (an injury, a square, AP and MP, GG, kamas); else its turn.
fn plant_divergence(event: &mut Event<ArenaEvent>) {
    match event {
        Event::Damaged { amount, .. } | Event::Healed { amount, .. } => *amount += 1,
        Event::Moved {
            origin,
            destination,
            ..
        } => *destination = *origin,
        Event::CharacterTurnStarted { mp, ap, .. } => {
            *mp += 1;
            *ap += 1;
        }
        Event::Ruleset(ArenaEvent::GGChanged { side, gg, .. }) => gg[*side] += 1,
        Event::Ruleset(ArenaEvent::KamaPicked { amount, .. }) => *amount += 1,
        Event::TurnStarted { turn, .. }
        | Event::LockRolled { turn, .. }
        | Event::SpellCast { turn, .. }
        | Event::DiceRolled { turn, .. }
        | Event::KnockedOut { turn, .. }
        | Event::Summoned { turn, .. }
        | Event::MatchEnded { turn, .. }
        | Event::Ruleset(ArenaEvent::TensionRolled { turn, .. })
        | Event::Ruleset(ArenaEvent::RewardBought { turn, .. })
        | Event::Ruleset(ArenaEvent::RewardRevealed { turn, .. })
        | Event::Ruleset(ArenaEvent::TurnEnded { turn, .. }) => *turn += 1,
    }
}

fn play_arena_unplanted(spec: &ArenaMatch) -> Result<MatchState<Arena>, String> {
    let seats = spec.teams.len();
    if seats != four_player::seats_in(spec.ruleset.opts.mode) || spec.ais.len() != seats {
        return Err(format!(
            "{} teams and {} AIs for Arena's mode {:?}",
            seats,
            spec.ais.len(),
            spec.ruleset.opts.mode
        ));
    }
    let streams = match_streams(spec.seed, seats);
    let dice = Dice::new(Generator::new(&streams[1]));
    let mut setup_rng = Generator::new(&streams[0]);
    let mut state = setup(
        &spec.teams,
        spec.board.clone(),
        spec.content.clone(),
        spec.ruleset.clone(),
        spec.opts.clone(),
        dice,
        &mut setup_rng,
        spec.record,
    );
    if spec.ruleset.opts.wants_market() {
        if spec.content.rewards.is_empty() {
            return Err("not in the core yet: Demonic Rewards without the reward tokens (use an ArenaCatalog with rewards)".into());
        }
        // after the first player: the market's own stream never shifts the others
        let seed = setup_rng.integers_closed(0, i64::MAX) as u128;
        let mut market_rng = Generator::from_int(seed);
        state.rules.market = Some(crate::rulesets::arena::rewards::setup_market(
            &state,
            &mut market_rng,
        )?);
    }
    for uid in 0..state.fighters.len() {
        let f = &state.fighters[uid];
        if f.kind != crate::content::PieceKind::Krosmaster {
            continue;
        }
        if let Some((_, r)) = spec.forbid.iter().find(|(s, _)| *s == f.spec) {
            restrict(&mut state, uid, r);
        }
    }
    let mut players = Vec::with_capacity(seats);
    for (seat, name) in spec.ais.iter().enumerate() {
        players.push(controller(
            name,
            Generator::new(&streams[ai_stream(seat)]),
            &spec.heuristics,
            spec.geo.as_ref(),
            seats,
        )?);
    }
    if seats == 2 {
        choose_edges(&mut state, &mut players);
    } else {
        choose_zones(&mut state, &mut players)?;
    }
    deploy(&mut state, &mut players)?;
    if spec
        .ruleset
        .opts
        .start_rewards
        .iter()
        .any(|l| !l.is_empty())
    {
        crate::rulesets::arena::rewards::give_start_rewards(&mut state, &mut players)?;
    }
    run_to_end(&mut state, &mut players);
    Ok(state)
}

/// What the base class's pregame reads (`ai::base`): the cards of the dealt pool (by position), the
/// candidate boards' tree counts, each seat's Krosmasters, and the AI names that play it.
#[derive(Clone, Debug, Default)]
pub struct PregameFacts {
    pub base_ais: Vec<String>,
    pub cards: Vec<CardFacts>,
    pub trees: Vec<u32>,
    pub teams: Vec<Vec<CardFacts>>,
}

/// The pregame player of a registered AI name, with its stream: `random`, or the base class's
/// choices for the AIs of `facts.base_ais` (the heuristic AIs), as `seat` (the board chooser).
pub fn pregame_player(
    name: &str,
    rng: Generator,
    facts: &PregameFacts,
    seat: usize,
    team_of: &[usize],
) -> Result<Box<dyn PregamePlayer>, String> {
    if name == "random" {
        return Ok(Box::new(RandomAI::new(rng)));
    }
    if facts.base_ais.iter().any(|n| n == name) {
        let own: Vec<&CardFacts> = facts
            .teams
            .get(seat)
            .map(|t| t.iter().collect())
            .unwrap_or_default();
        let opponents: Vec<&CardFacts> = facts
            .teams
            .iter()
            .enumerate()
            .filter(|&(s, _)| team_of.get(s) != team_of.get(seat))
            .flat_map(|(_, t)| t.iter())
            .collect();
        return Ok(Box::new(BasePregame {
            card_values: facts.cards.iter().map(card_value).collect(),
            trees: facts.trees.clone(),
            reach: team_reach(&own),
            theirs: team_reach(&opponents),
        }));
    }
    Err(format!(
        "the core does not play the AI {name:?}'s pregame choices yet (draft and board choice: random and the heuristic AIs)"
    ))
}

/// play.py's `deal_teams`: the hands of players A and B dealt from `pool` (names) by `mode`
/// (`random_deal` or `draft`), each in pool order.
pub fn deal_teams(
    mode: &str,
    pool: &[String],
    ais: [&str; 2],
    seed: u128,
    facts: &PregameFacts,
) -> Result<[Vec<String>; 2], String> {
    let mut pregame = match_streams(seed, 2).swap_remove(4);
    let seqs = pregame.spawn(3);
    let mut rng = Generator::new(&seqs[0]);
    let mut players = vec![
        pregame_player(ais[0], Generator::new(&seqs[1]), facts, 0, &[0, 1])?,
        pregame_player(ais[1], Generator::new(&seqs[2]), facts, 1, &[0, 1])?,
    ];
    let (a, b) = match mode {
        "random_deal" => random_deal(pool.len(), &mut rng),
        "draft" => draft(pool.len(), &mut players, &mut rng)?,
        other => return Err(format!("ruleset 'arena' has no team deal {other:?}")),
    };
    let first_index = |name: &String| pool.iter().position(|p| p == name).expect("a pool card");
    let ordered = |hand: Vec<usize>| {
        let mut names: Vec<String> = hand.into_iter().map(|i| pool[i].clone()).collect();
        names.sort_by_key(first_index);
        names
    };
    Ok([ordered(a), ordered(b)])
}

/// play.py's `pick_board` for two players: the index of the board the first player (decided as
/// the match decides it, from the set-up stream) picks among `n_boards`, with its pregame stream
/// (seat `s` draws from the pregame stream's child `s + 1`).
pub fn pick_board(
    n_boards: usize,
    mode: Mode,
    content: &Content,
    teams: &[Vec<usize>],
    ais: &[&str],
    seed: u128,
    facts: &PregameFacts,
) -> Result<usize, String> {
    if n_boards == 1 {
        return Ok(0);
    }
    let seats = teams.len();
    let mut streams = match_streams(seed, seats);
    let mut setup_rng = Generator::new(&streams[0]);
    let order = play_order(mode, content, teams, &mut setup_rng);
    let chooser = if seats == 4 { order[3] } else { order[0] };
    let seqs = streams[4].spawn(1 + seats as u64);
    let team_of = four_player::partnerships(mode);
    let mut players = Vec::with_capacity(seats);
    for (seat, name) in ais.iter().enumerate() {
        players.push(pregame_player(
            name,
            Generator::new(&seqs[1 + seat]),
            facts,
            seat,
            &team_of,
        )?);
    }
    let choice = players[chooser].choose_board(n_boards);
    if choice >= n_boards {
        return Err(format!(
            "player {chooser} picked board {choice} of {n_boards}"
        ));
    }
    Ok(choice)
}
