//! Where to end an activation (krosbalance/ai/positions.py): the worth of standing on a cell, of
//! its kamas and Demon cell, and of denying the opponent its purchase.

use crate::ai::context::{Ctx, reachable_cells};
use crate::ai::scoring::{self, GG_UNIT, WIN_VALUE};
use crate::ai::weights::Weights;
use crate::board::{Cell, CellSet};

/// `position_value`: worth of ending the activation on `cell` (kamas aside).
pub fn position_value(w: &Weights, ctx: &mut Ctx<'_>, cell: Cell) -> f64 {
    let mut value = 0.0f64;
    let danger = ctx.threat.at(cell);
    if danger > 0.0 {
        let left = ctx.hp_left;
        let hurt = if danger < f64::from(left) {
            danger
        } else {
            f64::from(left)
        };
        value -= ctx.safety * (0.5 * hurt + scoring::ko_risk(danger, left) * ctx.my_worry);
    }
    if ctx.bomb_cells.contains(cell) {
        value -= ctx.blast_danger(cell);
    }
    if !ctx.enemy_kros.is_empty() {
        let near = ctx.nearest_kros[usize::from(cell)];
        let short = near - ctx.strike;
        value -= w.approach * f64::from(if short > 0 { short } else { 0 });
        if w.kite && !ctx.melee {
            value -= 0.02 * f64::from((near - ctx.hold).abs());
        } else {
            value -= 0.02 * f64::from(near);
        }
    }
    if !ctx.pins.is_empty() {
        value += w.engage * ctx.engagement(cell);
    }
    if w.screen != 0.0 {
        value += w.screen * ctx.screen(cell);
    }
    if ctx.support_bonus != 0
        && ctx
            .state
            .board
            .neighbour_mask(cell)
            .intersects(ctx.enemy_kros_mask)
    {
        value += w.support * f64::from(ctx.support_bonus);
    }
    if w.deny != 0.0 && ctx.state.board.demon_cells().contains(cell) {
        if ctx.denial.is_none() {
            purchase_denial(ctx); // fills ctx.denial, read in place (no copy per cell)
        }
        let d = ctx
            .denial
            .as_ref()
            .expect("just filled")
            .iter()
            .find(|e| e.0 == cell)
            .map_or(0.0, |e| e.1);
        value += w.deny * d;
    }
    if w.objective != 0.0 && ctx.is_krosmaster {
        value -= w.objective * objective_distance(ctx, cell);
    }
    if ctx.buy_pull != 0.0 {
        let n = ctx.nearest_demon[usize::from(cell)];
        let m = ctx.me.base_mp.max(1);
        let turns = -((-n).div_euclid(m));
        let f = 1.0 - 0.25 * f64::from(turns);
        value += w.economy * ctx.buy_pull * if f > 0.0 { f } else { 0.0 };
    }
    value
}

/// `objective_distance`: how far `cell` is from what the economy wants next.
pub fn objective_distance(ctx: &mut Ctx<'_>, cell: Cell) -> f64 {
    let arena = &ctx.state.rules;
    if ctx.objective.is_none() {
        let mut kama_mask = CellSet::EMPTY;
        if ctx.may_pick {
            for (c, &n) in arena.board_kamas.iter().enumerate() {
                if n > 0 {
                    kama_mask.insert(c as Cell);
                }
            }
        }
        let demon_mask = if ctx.may_buy {
            ctx.state.board.demon_cells()
        } else {
            CellSet::EMPTY
        };
        let demons = if demon_mask.is_empty() {
            Vec::new()
        } else {
            ctx.geo.nearest(demon_mask)
        };
        let kamas = if kama_mask.is_empty() {
            Vec::new()
        } else {
            ctx.geo.nearest(kama_mask)
        };
        ctx.objective = Some((demons, kamas));
    }
    let (demons, kamas) = ctx.objective.as_ref().expect("just built");
    let c = usize::from(cell);
    if !demons.is_empty() && arena.kamas[ctx.side] >= arena.gg_price - 2 {
        return 1.5 * f64::from(demons[c]);
    }
    if !kamas.is_empty() {
        return f64::from(kamas[c].min(8));
    }
    if !demons.is_empty() {
        return 0.5 * f64::from(demons[c]);
    }
    0.0
}

/// `economy_plan`: (worth, kamas to pick on the way) of the best use of `ap_left` AP for kamas and
/// GG when the activation ends on `cell`.
pub fn economy_plan(
    w: &Weights,
    ctx: &Ctx<'_>,
    cell: Cell,
    ap_left: i32,
    on_way: i32,
) -> (f64, i32) {
    let arena = &ctx.state.rules;
    if ap_left <= 0 || !ctx.is_krosmaster {
        return (0.0, 0);
    }
    let here = if ctx.may_pick { ctx.kamas_at(cell) } else { 0 };
    let picks_max = if ctx.may_pick { here + on_way } else { 0 };
    let on_demon = ctx.may_buy && ctx.state.board.demon_cells().contains(cell);
    if !on_demon {
        let picks = picks_max.min(ap_left);
        return (w.kama * f64::from(picks), (picks - here).max(0));
    }
    let side = ctx.side;
    let stock = arena.kamas[side];
    let price = arena.gg_price;
    let first = picks_max.min(ap_left);
    let mut best = (w.kama * f64::from(first), (first - here).max(0));
    let mut buys = 0;
    let mut gg = arena.gg.clone();
    let mut wild = arena.wild_gg;
    let team_of = &ctx.state.team_of;
    let mut bought = 0.0f64;
    loop {
        buys += 1;
        let need = (buys * price - stock).max(0);
        if need > picks_max || need + buys > ap_left {
            break;
        }
        let gain = scoring::score_swing(&gg, wild, side, 1, None, team_of);
        let (g2, w2) = scoring::score_after(&gg, wild, side, 1, None, team_of);
        gg = g2;
        wild = w2;
        bought += GG_UNIT * gain + 0.5;
        let mut value = bought;
        if gain >= WIN_VALUE {
            value = GG_UNIT * WIN_VALUE;
        } else {
            let danger = ctx.threat.at(cell);
            if danger > 0.0 && ctx.my_worry > 0.0 {
                let rival = scoring::rival(&gg, team_of, side);
                let worry = GG_UNIT
                    * scoring::score_swing(&gg, wild, rival, ctx.me.level, Some(side), team_of);
                value +=
                    ctx.safety * scoring::ko_risk(danger, ctx.hp_left) * (ctx.my_worry - worry);
            }
        }
        let extra = (picks_max - need).min(ap_left - need - buys);
        let picks = need + extra;
        value += w.kama * f64::from(extra);
        if value > best.0 {
            best = (value, (picks - here).max(0));
        }
        if gain >= WIN_VALUE {
            break;
        }
    }
    best
}

/// `economy_value`.
pub fn economy_value(w: &Weights, ctx: &Ctx<'_>, cell: Cell, ap_left: i32, on_way: i32) -> f64 {
    economy_plan(w, ctx, cell, ap_left, on_way).0
}

/// `purchase_denial`: per Demon cell, what ending there takes from the opponent next turn (the
/// reference's dict, in insertion order).
pub fn purchase_denial(ctx: &mut Ctx<'_>) -> Vec<(Cell, f64)> {
    if let Some(d) = &ctx.denial {
        return d.clone();
    }
    let state = ctx.state;
    let arena = &state.rules;
    let side = ctx.side;
    let mut denial: Vec<(Cell, f64)> = Vec::new();
    let demons = state.board.demon_cells() & !ctx.occupied;
    if demons.is_empty() {
        ctx.denial = Some(denial.clone());
        return denial;
    }
    let team_of = &state.team_of;
    // view.opponents(): the seats of every other partnership, in seat order
    for rival in (0..state.n_seats).filter(|&s| team_of[s] != team_of[side]) {
        let buys = arena.kamas[rival].div_euclid(arena.gg_price.max(1));
        if buys <= 0 {
            continue;
        }
        let mut reachable = CellSet::EMPTY;
        let mut most_ap = 0;
        for &k in &state.timeline[rival] {
            let enemy = &state.fighters[k];
            if !enemy.alive || enemy.cell < 0 {
                continue;
            }
            let cells = reachable_cells(state, enemy.at(), enemy.base_mp);
            let hits: Vec<Cell> = cells
                .iter()
                .map(|e| e.0)
                .filter(|&c| demons.contains(c))
                .collect();
            if !hits.is_empty() {
                most_ap = most_ap.max(enemy.base_ap);
                for c in hits {
                    reachable.insert(c);
                }
            }
        }
        if reachable.len() != 1 {
            continue;
        }
        let cell = reachable.iter().next().expect("one cell");
        let mut gg = arena.gg.clone();
        let mut wild = arena.wild_gg;
        let mut worth = 0.0f64;
        for _ in 0..buys.min(most_ap) {
            let gain = scoring::score_swing(&gg, wild, rival, 1, Some(side), team_of);
            if gain >= WIN_VALUE {
                worth = GG_UNIT * WIN_VALUE;
                break;
            }
            worth += GG_UNIT * gain;
            let (g2, w2) = scoring::score_after(&gg, wild, rival, 1, Some(side), team_of);
            gg = g2;
            wild = w2;
        }
        match denial.iter_mut().find(|e| e.0 == cell) {
            Some(e) => e.1 += worth,
            None => denial.push((cell, 0.0 + worth)),
        }
    }
    ctx.denial = Some(denial.clone());
    denial
}
