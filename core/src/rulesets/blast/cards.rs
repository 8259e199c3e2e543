//! Blast's cards and options as they cross the boundary (krosbalance/content/blast.py,
//! blast_keywords.py, rulesets/blast/options.py): loaded and validated by Python, plain data here.

/// Terrain types (state.py's `ICE`, `FIRE`, `FOG`).
pub const ICE: usize = 0;
pub const FIRE: usize = 1;
pub const FOG: usize = 2;
pub const TERRAIN_NAMES: [&str; 3] = ["ice", "fire", "fog"];

/// Blast's options the core reads (options.py's `BlastOptions`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlastOptions {
    /// `dice_faces = "advanced"` (else basic).
    pub advanced: bool,
    pub tackle_zone: bool,
    /// `tackle_dice_several = "per_enemy"` (else two).
    pub per_enemy: bool,
    pub superior_favors: bool,
    pub favor_deck_size: usize,
    /// Challenge ids in play, or `random` (resolved by the reference's options).
    pub challenges: Vec<String>,
    /// `challenge_tier_reading = "alternative"` (else printed).
    pub alternative_tiers: bool,
    /// `"<challenge id>.<bonus id>"` -> glyph cells.
    pub challenge_tiers: Vec<(String, i32)>,
    pub team_size: usize,
    pub glyph_capture_by_effect: bool,
    pub glyph_capture_by_slide: bool,
    pub ice_slide_chain: bool,
    pub terrain_on_forced_moves: bool,
    pub fire_damage: i32,
    pub fire_combat_roll: bool,
    pub bonus_damage_combat_roll: bool,
    pub terrain_max_per_type: usize,
    pub terrain_range: i32,
    /// `mutual_ko = "active_loses"` (else draw).
    pub mutual_ko_active_loses: bool,
}

/// What a favor or an active bonus may target (`BONUS_TARGETS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BonusTarget {
    None,
    FreeCell,
    Enemy,
    Glyph,
    TerrainCell,
}

/// One effect of a bonus action (`BONUS_EFFECT_KEYWORDS`); markers are AP when `ap`, else MP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BonusEffect {
    NextSpellDamage {
        amount: i32,
    },
    PlaceTerrain {
        kind: usize,
    },
    MarkerSelf {
        ap: bool,
        amount: i32,
    },
    HealSelf {
        amount: i32,
    },
    /// `spec` indexes the match's content; `id` compares pieces in play (R-B27).
    Summon {
        spec: usize,
        id: String,
        max: usize,
    },
    Leap,
    PushTarget {
        cells: i32,
    },
    DamageTarget {
        amount: i32,
    },
    DamageAround {
        amount: i32,
        reach: i32,
        allies: bool,
    },
    MinusMarkerTarget {
        ap: bool,
        amount: i32,
    },
    CaptureTarget,
}

/// What a Krosmaster does when it uses a favor or an active bonus (`BonusActionSpec`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BonusAction {
    pub target: BonusTarget,
    pub range_min: i32,
    pub range_max: i32,
    pub needs_los: bool,
    pub effects: Vec<BonusEffect>,
}

impl BonusAction {
    /// The terrain type the action places, if any (bonus.py's `terrain_kind`).
    pub fn terrain_kind(&self) -> Option<usize> {
        self.effects.iter().find_map(|e| match e {
            BonusEffect::PlaceTerrain { kind } => Some(*kind),
            _ => None,
        })
    }
}

/// A Krosmic Favor (`FavorSpec`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Favor {
    pub id: String,
    pub action: BonusAction,
}

/// When a passive acts (passives.py's moments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    Capture,
    ActivationStart,
    ActivationEnd,
    SpellDamage,
    SpellRange,
    Reroll,
}

/// A passive Divine Challenge bonus (`PASSIVE_KEYWORDS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passive {
    CaptureMarker { ap: bool, amount: i32 },
    CaptureHeal { amount: i32 },
    SpellDamageBonus { amount: i32 },
    NextToAlly { mp: i32, ap: i32 },
    SpellRangeBonus { amount: i32 },
    GlyphTrapDamage { amount: i32 },
    OnGlyphHeal { amount: i32 },
    ActivationMarker { ap: bool, amount: i32 },
    CombatReroll,
}

impl Passive {
    pub fn moment(&self) -> Moment {
        match self {
            Passive::CaptureMarker { .. } | Passive::CaptureHeal { .. } => Moment::Capture,
            Passive::SpellDamageBonus { .. } => Moment::SpellDamage,
            Passive::NextToAlly { .. }
            | Passive::GlyphTrapDamage { .. }
            | Passive::OnGlyphHeal { .. } => Moment::ActivationEnd,
            Passive::SpellRangeBonus { .. } => Moment::SpellRange,
            Passive::ActivationMarker { .. } => Moment::ActivationStart,
            Passive::CombatReroll => Moment::Reroll,
        }
    }
}

/// One tier of a Divine Challenge (`ChallengeBonusSpec`): a passive or an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeBonus {
    pub id: String,
    pub tier: i32,
    pub alt_tier: i32,
    pub passive: Option<Passive>,
    pub action: Option<BonusAction>,
}

/// A Divine Challenge (`ChallengeSpec`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub id: String,
    pub bonuses: Vec<ChallengeBonus>,
}

/// A power printed on a Blast Krosmaster card (`BLAST_POWER_KEYWORDS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlastPower {
    /// Territorial: +amount markers on each capture.
    CaptureMarker { ap: bool, amount: i32 },
    /// Relance: with `glyphs` glyph cells, once per turn a -1 combat die is rolled again.
    CombatReroll { glyphs: i32 },
}
