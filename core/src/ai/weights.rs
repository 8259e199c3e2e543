//! What a heuristic personality cares about (krosbalance/ai/weights.py): the weights the shared
//! planner scores plans with. The core never reads the data files: the reference's loader builds
//! each AI's `Weights` (skills.toml, tuned.toml) and the boundary hands the values over.

/// A personality's weights, in injury units (the reference's `Weights`, field for field).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub damage: f64,
    pub kill: f64,
    pub focus: f64,
    pub safety: f64,
    pub kama: f64,
    pub objective: f64,
    pub approach: f64,
    pub kite: bool,
    pub heal: f64,
    pub summon: f64,
    pub support: f64,
    pub refund: f64,
    pub inspire: f64,
    pub melee_safety: f64,
    pub engage: f64,
    pub team: f64,
    pub screen: f64,
    pub economy: f64,
    pub keep_limited: f64,
    pub buy_first: bool,
    pub free_escape: bool,
    pub deny: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            damage: 1.0,
            kill: 1.0,
            focus: 0.3,
            safety: 0.35,
            kama: 0.25,
            objective: 0.0,
            approach: 0.15,
            kite: false,
            heal: 1.0,
            summon: 1.0,
            support: 0.6,
            refund: 0.2,
            inspire: 1.0,
            melee_safety: 0.35,
            engage: 1.0,
            team: 1.0,
            screen: 0.3,
            economy: 0.8,
            keep_limited: 0.6,
            buy_first: false,
            free_escape: false,
            deny: 0.0,
        }
    }
}

/// The names of the float fields, in the reference's field order (the boundary reads them by name).
pub const FLOAT_FIELDS: [&str; 19] = [
    "damage",
    "kill",
    "focus",
    "safety",
    "kama",
    "objective",
    "approach",
    "heal",
    "summon",
    "support",
    "refund",
    "inspire",
    "melee_safety",
    "engage",
    "team",
    "screen",
    "economy",
    "keep_limited",
    "deny",
];

impl Weights {
    /// Set a float field by name (the boundary); false for an unknown name.
    pub fn set_float(&mut self, name: &str, value: f64) -> bool {
        let slot = match name {
            "damage" => &mut self.damage,
            "kill" => &mut self.kill,
            "focus" => &mut self.focus,
            "safety" => &mut self.safety,
            "kama" => &mut self.kama,
            "objective" => &mut self.objective,
            "approach" => &mut self.approach,
            "heal" => &mut self.heal,
            "summon" => &mut self.summon,
            "support" => &mut self.support,
            "refund" => &mut self.refund,
            "inspire" => &mut self.inspire,
            "melee_safety" => &mut self.melee_safety,
            "engage" => &mut self.engage,
            "team" => &mut self.team,
            "screen" => &mut self.screen,
            "economy" => &mut self.economy,
            "keep_limited" => &mut self.keep_limited,
            "deny" => &mut self.deny,
            _ => return false,
        };
        *slot = value;
        true
    }

    /// Set a switch by name (the boundary); false for an unknown name.
    pub fn set_switch(&mut self, name: &str, value: bool) -> bool {
        match name {
            "kite" => self.kite = value,
            "buy_first" => self.buy_first = value,
            "free_escape" => self.free_escape = value,
            _ => return false,
        }
        true
    }
}
