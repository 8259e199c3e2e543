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
    /// R-A48: adjacent enemies may not walk away (a Demonic Reward upgrade).
    PerfectLock = 1 << 9,
    /// R-A108 (Etraggy): characters not adjacent to the holder neither see through it nor injure
    /// it; read from the card's powers (`Fighter::powers`), never from inspiration.
    Invisibility = 1 << 10,
    /// R-A108 (Aly Zé): at the end of the holder's turn each adjacent allied Krosmaster gains a
    /// marker ([`CharacterSpec::stimulus_ap`] says which).
    Stimulus = 1 << 11,
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
            "perfect_lock" => Power::PerfectLock,
            "invisibility" => Power::Invisibility,
            "stimulus" => Power::Stimulus,

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
    Retreat {
        cells: i32,
    },
    Approach {
        cells: i32,
    },
    Push {
        cells: i32,
    },
    Attract {
        cells: i32,
    },
    MinusMp {
        amount: i32,
    },
    PlusMp {
        amount: i32,
    },
    MinusAp {
        amount: i32,
    },
    PlusAp {
        amount: i32,
    },
    StealMp {
        amount: i32,
    },
    StealAp {
        amount: i32,
    },
    SwapPlaces,
    BonusPerAdjacentSummon {
        summon: String,
        damage: i32,
    },
    RangeBonusThisTurn {
        amount: i32,
    },
    LoseAllMp,
    /// R-A80: `+amount` damage to each target when the spell is of `element` (a bonus: Unfazed
    /// does not stop it, R-A106).
    ElementBonus {
        element: Element,
        amount: i32,
    },
    /// Pandawa Style: the ally the player picked is carried to the target cell (R-A143).
    CarryAlly,
    /// R-B28 (Bond imprudent): the caster moves into the targeted cell if it is free.
    MoveToTarget,
    /// Roulette de chat: the caster's next cast of this spell may not target this cast's piece.
    DifferentTargetNext,
    /// R-B29 (Peine capitole): with `glyphs` glyph cells, `amount` minus markers (AP when `ap`,
    /// else MP) to the target (a Blast keyword: it reads `MatchRules::glyphs`).
    MinusMarkerIfGlyphs {
        glyphs: i32,
        ap: bool,
        amount: i32,
    },
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
            Effect::PierceArmour | Effect::Lifesteal | Effect::DifferentTargetNext => Phase::Flag,
            Effect::Retreat { .. }
            | Effect::Approach { .. }
            | Effect::RangeBonusThisTurn { .. }
            | Effect::LoseAllMp
            | Effect::CarryAlly
            | Effect::MoveToTarget => Phase::Caster,
            Effect::BonusPerAdjacentSummon { .. } | Effect::ElementBonus { .. } => Phase::Bonus,
            _ => Phase::Target,
        }
    }
}

/// A spell as printed (content.specs.SpellSpec), the fields the engine reads.
#[derive(Clone, Debug)]
pub struct SpellSpec {
    pub id: String,
    /// The id interned in [`Content::keys`]: usage limits and summon control compare it (the
    /// reference keys them by the id string).
    pub key: u32,
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

impl SpellSpec {
    /// The damage its `element_bonus` effects add to each target (R-A80): the sum of those of the
    /// spell's own element (`engine/view.py`'s `expected_bonus`, `ai/scoring.py`'s `spell_bonus`).
    pub fn element_bonus(&self) -> i32 {
        self.effects
            .iter()
            .map(|e| match e {
                Effect::ElementBonus { element, amount } if *element == self.element => *amount,
                _ => 0,
            })
            .sum()
    }
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
    /// Stimulus's marker (R-A108): +1 AP when true, +1 MP when false (the card's `marker`).
    pub stimulus_ap: bool,
}

/// Everything a match reads of the content: every spec that can be in play (teams and summons)
/// and the ruleset's rule-defined spells (Arena's punch).
#[derive(Clone, Debug)]
pub struct Content {
    pub chars: Vec<CharacterSpec>,
    /// The spell every Krosmaster gets last (Arena's punch, R-A39); None in rulesets without one.
    pub punch: Option<SpellSpec>,
    /// Every Demonic Reward token (R-A136), for the market.
    pub rewards: Vec<RewardSpec>,
    /// The interned ids of spells and reward tokens ([`SpellSpec::key`], [`RewardSpec::key`]).
    pub keys: Vec<String>,
}

/// A spell a piece holds: a card's, the punch, or a Demonic Reward's (a weapon's or a Boost's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpellRef {
    Card(u32, u32),
    Punch,
    Reward(u32),
}

/// Boost / Upgrade / Equipment (R-A137).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardKind {
    Boost,
    Upgrade,
    Equipment,
}

impl RewardKind {
    pub fn name(self) -> &'static str {
        match self {
            RewardKind::Boost => "boost",
            RewardKind::Upgrade => "upgrade",
            RewardKind::Equipment => "equipment",
        }
    }
}

/// The ranks, cheapest first (R-A136).
pub const RANKS: [&str; 3] = ["granite", "jade", "gold"];

/// One reward-effect keyword (rulesets/arena/reward_effects.py and rewards.py's registrations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RewardEffect {
    MpNow(i32),
    ApNow(i32),
    RemoveInjuries(i32),
    SelfInjuries(i32),
    NextSpellDamage(Element, i32),
    NextElementalAttackDamage(i32),
    Summon(usize),
    Recall,
    OneShotSpell,
    MaxMp(i32),
    MaxAp(i32),
    MaxHp(i32),
    LowerMp(i32),
    Power(Power),
    Resistance(Element),
    Immune(Element),
    Range(i32),
    Damage(Element, i32),
    ElementalDamage(i32),
    MeleeDamage(i32),
    MeleeLifesteal,
    Weapon,
    Kamas(i32),
    Gg(i32),
    BuyGg(i32),
    DrawReward(usize),
}

/// A Demonic Reward token (content.specs.RewardSpec).
#[derive(Clone, Debug)]
pub struct RewardSpec {
    pub id: String,
    pub key: u32,
    pub kind: RewardKind,
    /// weapon / set / pet / dofus as 1-4; 0 when not an equipment.
    pub slot: u8,
    pub rank: usize,
    pub effects: Vec<RewardEffect>,
    pub choices: Vec<Vec<RewardEffect>>,
    pub spell: Option<SpellSpec>,
}

impl Content {
    /// The spells a piece of this spec spawns with (`MatchRules.spells_for`: the punch last for
    /// Krosmasters).
    pub fn spells_for(&self, spec: usize) -> Vec<SpellRef> {
        let c = &self.chars[spec];
        let mut out: Vec<SpellRef> = (0..c.spells.len())
            .map(|i| SpellRef::Card(spec as u32, i as u32))
            .collect();
        if c.kind == PieceKind::Krosmaster && self.punch.is_some() {
            out.push(SpellRef::Punch);
        }
        out
    }

    /// The spell a reference names.
    #[inline]
    pub fn resolve(&self, spell: SpellRef) -> &SpellSpec {
        match spell {
            SpellRef::Card(spec, i) => &self.chars[spec as usize].spells[i as usize],
            SpellRef::Punch => self.punch.as_ref().expect("a punch"),
            SpellRef::Reward(r) => self.rewards[r as usize]
                .spell
                .as_ref()
                .expect("a reward spell"),
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
