//! Loaded content: the specs the engine reads, built at the boundary from the Python loader's spec
//! objects (krosbalance/content/specs.py). The core never reads a TOML file (one parser).
//!
//! Effect and power kinds are enums: the registry by kind of the reference
//! (krosbalance/engine/effects.py, powers.py) becomes one `match` per phase. A kind the core does
//! not implement yet is refused at the boundary ([`ContentError`]), never played wrongly.

use crate::board::AreaShape;

/// The five elements, in `content.specs.ELEMENTS` order (their index is the counters' index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    Neutral,
    Water,
    Air,
    Earth,
    Fire,
}

pub const ELEMENTS: [&str; 5] = ["neutral", "water", "air", "earth", "fire"];

impl Element {
    pub fn from_name(name: &str) -> Option<Element> {
        Some(match name {
            "neutral" => Element::Neutral,
            "water" => Element::Water,
            "air" => Element::Air,
            "earth" => Element::Earth,
            "fire" => Element::Fire,
            _ => return None,
        })
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        ELEMENTS[self.index()]
    }
}

/// attack / heal / summon / special (R-A58-R-A65).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpellKind {
    Attack,
    Heal,
    Summon,
    Special,
}

/// classic / line / melee / personal (R-A72-R-A77).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeType {
    Classic,
    Line,
    Melee,
    Personal,
}

/// unlimited / turn / game (black / blue / red, R-A66).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Unlimited,
    Turn,
    Game,
}

/// Which cells a spell may target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetRule {
    Any,
    FreeCell,
    Ally,
    Enemy,
    Character,
}

/// krosmaster / creature / bomb / trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceKind {
    Krosmaster,
    Creature,
    Bomb,
    Trap,
}

/// The powers the core knows, as bits of a [`Powers`] mask (R-A100-R-A108).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub enum Power {
    Critical = 1 << 0,
    Armour = 1 << 1,
    Lock = 1 << 2,
    Dodge = 1 << 3,
    Tiny = 1 << 4,
    Counter = 1 << 5,
    Healing = 1 << 6,
    Unfazed = 1 << 7,
    /// Krobust (Merkator): at most 3 injuries from one enemy spell.
    Krobust = 1 << 8,
}

impl Power {
    pub fn from_name(name: &str) -> Option<Power> {
        Some(match name {
            "critical" => Power::Critical,
            "armour" => Power::Armour,
            "lock" => Power::Lock,
            "dodge" => Power::Dodge,
            "tiny" => Power::Tiny,
            "counter" => Power::Counter,
            "healing" => Power::Healing,
            "unfazed" => Power::Unfazed,
            "krobust" => Power::Krobust,
            _ => return None,
        })
    }

    pub fn bit(self) -> u16 {
        self as u16
    }
}

/// A set of powers as a bitmask.
pub type Powers = u16;

/// One additional-effect keyword with its parameters (R-A81-R-A96).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    PierceArmour,
    Lifesteal,
    Retreat { cells: i32 },
    Approach { cells: i32 },
    Push { cells: i32 },
    Attract { cells: i32 },
    MinusMp { amount: i32 },
    PlusMp { amount: i32 },
    MinusAp { amount: i32 },
    PlusAp { amount: i32 },
    StealMp { amount: i32 },
    StealAp { amount: i32 },
    SwapPlaces,
    BonusPerAdjacentSummon { summon: String, damage: i32 },
    RangeBonusThisTurn { amount: i32 },
    LoseAllMp,
}

/// When an effect applies during step 2 of a spell (`engine/effects.py`'s phases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Flag,
    Caster,
    Target,
    Bonus,
}

impl Effect {
    pub fn phase(&self) -> Phase {
        match self {
            Effect::PierceArmour | Effect::Lifesteal => Phase::Flag,
            Effect::Retreat { .. }
            | Effect::Approach { .. }
            | Effect::RangeBonusThisTurn { .. }
            | Effect::LoseAllMp => Phase::Caster,
            Effect::BonusPerAdjacentSummon { .. } => Phase::Bonus,
            _ => Phase::Target,
        }
    }
}

/// A spell as printed (content.specs.SpellSpec), the fields the engine reads.
#[derive(Clone, Debug)]
pub struct SpellSpec {
    pub id: String,
    pub kind: SpellKind,
    pub element: Element,
    pub ap_cost: i32,
    pub mp_cost: i32,
    pub injury_cost: i32,
    pub range_min: i32,
    pub range_max: i32,
    pub range_type: RangeType,
    pub needs_los: bool,
    pub fixed_range: bool,
    pub limit: Limit,
    pub amount: i32,
    pub area: AreaShape,
    pub target: TargetRule,
    pub effects: Vec<Effect>,
    /// Index of the summoned spec in [`Content::chars`].
    pub summons: Option<usize>,
    pub summon_control: i32,
}

/// A Krosmaster card or a summon token (content.specs.CharacterSpec).
#[derive(Clone, Debug)]
pub struct CharacterSpec {
    pub id: String,
    pub name: String,
    pub kind: PieceKind,
    pub level: i32,
    pub initiative: i32,
    pub mp: i32,
    pub hp: i32,
    pub ap: i32,
    pub powers: Powers,
    /// Elements it resists (R-A102) and is immune to (R-A107), as bits of [`Element::index`].
    pub resist: u8,
    pub immune: u8,
    pub spells: Vec<SpellSpec>,
    /// Index into `spells` of the spell cast when the piece is KO'd (a bomb's Explosion).
    pub on_death: Option<usize>,
}

/// Everything a match reads of the content: every spec that can be in play (teams and summons)
/// and the ruleset's rule-defined spells (Arena's punch).
#[derive(Clone, Debug)]
pub struct Content {
    pub chars: Vec<CharacterSpec>,
    /// The spell every Krosmaster gets last (Arena's punch, R-A39); None in rulesets without one.
    pub punch: Option<SpellSpec>,
}

impl Content {
    /// How many spells a piece of this spec has (its spec's, plus the punch for Krosmasters).
    #[inline]
    pub fn n_spells(&self, spec: usize) -> usize {
        let c = &self.chars[spec];
        c.spells.len() + usize::from(c.kind == PieceKind::Krosmaster && self.punch.is_some())
    }

    /// A piece's spell by its index (the punch is the last of a Krosmaster's).
    #[inline]
    pub fn spell(&self, spec: usize, index: usize) -> &SpellSpec {
        let c = &self.chars[spec];
        match c.spells.get(index) {
            Some(s) => s,
            None => self
                .punch
                .as_ref()
                .expect("spell index beyond the piece's spells"),
        }
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.chars.iter().position(|c| c.id == id)
    }
}

/// Content the core cannot play (yet): the field and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError(pub String);

impl std::fmt::Display for ContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ContentError {}
