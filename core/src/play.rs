//! One match from loaded specs to its final state (krosbalance/play.py's `prepare_match` and
//! `play_match`): the seed split into the reference's streams, set-up, deployment, the game turns.

use std::sync::Arc;

use crate::ai::RandomAI;
use crate::board::Board;
use crate::content::Content;
use crate::engine::dice::Dice;
use crate::engine::state::{EngineOptions, MatchState};
use crate::engine::turn::run_to_end;
use crate::rng::{Generator, SeedSequence};
use crate::rulesets::arena::pregame::{choose_edges, deploy, setup};
use crate::rulesets::arena::{Arena, ArenaController};

/// The names of `match_streams`' children, in order; then `ai2`, `ai3`... for more seats.
pub const STREAMS: [&str; 5] = ["setup", "dice", "ai0", "ai1", "pregame"];

/// The streams of one match: `SeedSequence(seed).spawn(5 + seats - 2)`.
pub fn match_streams(seed: u128, seats: usize) -> Vec<SeedSequence> {
    let mut root = SeedSequence::from_int(seed);
    root.spawn((STREAMS.len() + seats.saturating_sub(2)) as u64)
}

/// One two-player Arena match's specs: teams as indices into `content.chars`.
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
}

/// The controller of a registered AI name, with its stream.
pub fn controller(name: &str, rng: Generator) -> Result<Box<dyn ArenaController>, String> {
    match name {
        "random" => Ok(Box::new(RandomAI::new(rng))),
        other => Err(format!(
            "the core does not play the AI {other:?} yet (it plays: random)"
        )),
    }
}

/// Play one match to its end; the finished state.
pub fn play_arena(spec: &ArenaMatch) -> Result<MatchState<Arena>, String> {
    if spec.teams.len() != 2 || spec.ais.len() != 2 {
        return Err("the core plays two-player Arena only".into());
    }
    let streams = match_streams(spec.seed, 2);
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
    let mut players = vec![
        controller(&spec.ais[0], Generator::new(&streams[2]))?,
        controller(&spec.ais[1], Generator::new(&streams[3]))?,
    ];
    choose_edges(&mut state, &mut players);
    deploy(&mut state, &mut players)?;
    run_to_end(&mut state, &mut players);
    Ok(state)
}
