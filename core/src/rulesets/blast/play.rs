//! A Blast match from specs to its end (play.py's `prepare_match` and `play_match` under the
//! Blast ruleset): the same streams as every match, Blast's pregame, then the engine's turns.

use std::sync::Arc;

use crate::ai::RandomAI;
use crate::ai::blast::lookahead::{BlastLookahead, BlastSearchSpec};
use crate::ai::blast::players::BlastAI;
use crate::board::Board;
use crate::content::Content;
use crate::engine::dice::Dice;
use crate::engine::state::{EngineOptions, MatchState};
use crate::engine::turn::run_to_end;
use crate::play::{ai_stream, match_streams};
use crate::rng::Generator;
use crate::rulesets::blast::pregame;
use crate::rulesets::blast::ruleset::{Blast, BlastController};

/// One Blast match to play: loaded content, the board, the ruleset, AI names, seed.
#[derive(Clone, Debug)]
pub struct BlastMatch {
    pub board: Arc<Board>,
    pub content: Arc<Content>,
    pub ruleset: Arc<Blast>,
    pub opts: EngineOptions,
    pub teams: Vec<Vec<usize>>,
    pub ais: Vec<String>,
    pub seed: u128,
    pub record: u8,
}

/// The AIs the core plays in Blast.
pub const BLAST_AIS: [&str; 4] = ["random", "blast_glyph", "blast_brawler", "blast-lookahead"];

/// The Blast controller of a registered AI name, with its stream.
pub fn blast_controller(name: &str, rng: Generator) -> Result<Box<dyn BlastController>, String> {
    match name {
        "random" => Ok(Box::new(RandomAI::new(rng))),
        "blast_glyph" | "blast-glyph" => Ok(Box::new(BlastAI::glyph())),
        "blast_brawler" | "blast-brawler" => Ok(Box::new(BlastAI::brawler())),
        other => match BlastSearchSpec::by_name(other) {
            Some(spec) => Ok(Box::new(BlastLookahead::new(rng, spec))),
            None => Err(format!(
                "the core does not play the AI {other:?} in Blast yet (it plays: {})",
                BLAST_AIS.join(", ")
            )),
        },
    }
}

/// Play one Blast match to its end; the finished state.
pub fn play_blast(spec: &BlastMatch) -> Result<MatchState<Blast>, String> {
    if spec.teams.len() != 2 || spec.ais.len() != 2 {
        return Err(format!(
            "{} teams and {} AIs: Blast has two players",
            spec.teams.len(),
            spec.ais.len()
        ));
    }
    let streams = match_streams(spec.seed, 2);
    let mut players = Vec::with_capacity(2);
    for (seat, name) in spec.ais.iter().enumerate() {
        players.push(blast_controller(
            name,
            Generator::new(&streams[ai_stream(seat)]),
        )?);
    }
    let dice = Dice::new(Generator::new(&streams[1]));
    let mut setup_rng = Generator::new(&streams[0]);
    let mut state = pregame::setup(
        &spec.teams,
        spec.board.clone(),
        spec.content.clone(),
        spec.ruleset.clone(),
        spec.opts.clone(),
        dice,
        &mut setup_rng,
        spec.record,
    )?;
    pregame::deploy(&mut state, &mut players)?;
    run_to_end(&mut state, &mut players);
    Ok(state)
}
