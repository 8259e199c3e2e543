//! A duel from specs to its end (play.py's `prepare_match` and `play_match` under the duel
//! ruleset): the same streams as every match (`play::match_streams`), the Duel Pack's pregame,
//! then the engine's turns.

use std::sync::Arc;

use crate::ai::RandomAI;
use crate::board::{Board, CellSet};
use crate::content::Content;
use crate::engine::dice::Dice;
use crate::engine::state::{EngineOptions, MatchState};
use crate::engine::turn::run_to_end;
use crate::play::{ai_stream, match_streams};
use crate::rng::Generator;
use crate::rulesets::duel::pregame;
use crate::rulesets::duel::ruleset::{Duel, DuelController};

/// One duel to play: loaded content, the board and its duel cells, options, AI names, seed.
#[derive(Clone, Debug)]
pub struct DuelMatch {
    pub board: Arc<Board>,
    pub duel_cells: CellSet,
    pub content: Arc<Content>,
    pub ruleset: Arc<Duel>,
    pub opts: EngineOptions,
    pub teams: Vec<Vec<usize>>,
    pub ais: Vec<String>,
    pub seed: u128,
    pub record: u8,
}

/// The duel controller of a registered AI name, with its stream.
pub fn duel_controller(name: &str, rng: Generator) -> Result<Box<dyn DuelController>, String> {
    match name {
        "random" => Ok(Box::new(RandomAI::new(rng))),
        "duel_brawler" | "duel-brawler" => {
            Ok(Box::new(crate::ai::duel::brawler::DuelBrawler::new(rng)))
        }
        other => match crate::ai::duel::lookahead::DuelSearchSpec::by_name(other) {
            Some(spec) => Ok(Box::new(crate::ai::duel::lookahead::DuelLookahead::new(
                rng, spec,
            ))),
            None => Err(format!(
                "the core does not play the AI {other:?} in a duel yet (it plays: random, duel_brawler, duel-lookahead)"
            )),
        },
    }
}

/// Play one duel to its end; the finished state.
pub fn play_duel(spec: &DuelMatch) -> Result<MatchState<Duel>, String> {
    if spec.teams.len() != 2 || spec.ais.len() != 2 {
        return Err(format!(
            "{} teams and {} AIs: a duel has two players",
            spec.teams.len(),
            spec.ais.len()
        ));
    }
    let streams = match_streams(spec.seed, 2);
    let dice = Dice::new(Generator::new(&streams[1]));
    let mut setup_rng = Generator::new(&streams[0]);
    let mut state = pregame::setup(
        &spec.teams,
        spec.board.clone(),
        spec.content.clone(),
        spec.ruleset.clone(),
        spec.opts.clone(),
        spec.duel_cells,
        dice,
        &mut setup_rng,
        spec.record,
    )?;
    let mut players = Vec::with_capacity(2);
    for (seat, name) in spec.ais.iter().enumerate() {
        players.push(duel_controller(
            name,
            Generator::new(&streams[ai_stream(seat)]),
        )?);
    }
    if !spec.ruleset.opts.start_token_levels.is_empty() {
        pregame::give_start_tokens(&mut state, &mut players)?;
    }
    pregame::draft(&mut state, &mut players)?;
    pregame::deploy(&mut state, &mut players)?;
    pregame::place_tokens(&mut state, &mut players)?;
    run_to_end(&mut state, &mut players);
    Ok(state)
}
