//! Krosmaster Arena for two players (krosbalance/rulesets/arena): options, GG and kamas, the
//! tension roll, the Timeline, the pregame, victory. Demonic Rewards and four-player Arena are not
//! in the core yet (refused at the boundary).

pub mod economy;
pub mod four_player;
pub mod pregame;
pub mod rewards;
pub mod ruleset;
pub mod tension;

pub use ruleset::{Arena, ArenaController, ArenaEvent, ArenaOptions, ArenaState, Mode};
