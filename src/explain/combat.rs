//! `explain` under a declared single combat: what a legal move says of the combat (it declares
//! one, keeps to one, or could have declared one) and why an ordinary move is refused under one.

use super::{generate, shorten};
use crate::engine::{Move, Position, Rules, Sq, TooManyRoutes};
use crate::notation::move_to_string;

/// How far (in the mover's own quiet moves, on an empty board) `from` is from the enemy piece
/// of a single combat, in words.
fn combat_distance(rules: &Rules, pos: &Position, kind: usize, from: Sq) -> String {
    let (Some(c), Some((_, _, e, _))) = (&rules.combat, rules.lone_pieces(pos)) else {
        return String::new();
    };
    match c.distance(pos.turn(), kind, from, e) {
        u8::MAX => "out of reach".to_string(),
        1 => "1 move away".to_string(),
        d => format!("{d} moves away"),
    }
}

/// What a legal move says of a single combat: that it declares one, keeps to one, or could have
/// declared one.
pub(super) fn combat_notes(rules: &Rules, pos: &Position, legal: &[Move], mv: &Move) -> String {
    let Some((_, _, e, _)) = rules.lone_pieces(pos).filter(|_| rules.combat.is_some()) else {
        return String::new();
    };
    let kind = mv.kind_before as usize;
    let nearer = || {
        format!(
            "it brings the piece nearer to the enemy piece on {} ({} from {}, {} from {})",
            rules.geo.name(e),
            combat_distance(rules, pos, kind, mv.from),
            rules.geo.name(mv.from),
            combat_distance(rules, pos, kind, mv.to),
            rules.geo.name(mv.to)
        )
    };
    if mv.declares() {
        return format!(
            "it declares single combat: {}; from now on every quiet move of either side must \
             come nearer to the enemy piece, until one takes the other\n",
            nearer()
        );
    }
    if pos.in_combat() {
        return if mv.is_capture() {
            "under the declared single combat, captures are as usual\n".to_string()
        } else if rules.approaches(pos, mv) {
            format!("under the declared single combat: {}\n", nearer())
        } else {
            "under the declared single combat: no capture and no quiet move comes nearer to the \
             enemy piece, so the ordinary moves stand\n"
                .to_string()
        };
    }
    if legal
        .iter()
        .any(|m| m.declares() && m.same_but_declaration(mv))
    {
        return format!(
            "it declares nothing: single combat may be declared with this move (`@{}`)\n",
            move_to_string(rules, mv)
        );
    }
    String::new()
}

/// Why a move that the rules would otherwise allow is not legal under a declared single combat:
/// it does not come nearer to the enemy piece. `None` when that is not the reason.
pub(super) fn combat_refusal(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    text: &str,
    from: Sq,
    to: Sq,
) -> Result<Option<String>, TooManyRoutes> {
    if !pos.in_combat() {
        return Ok(None);
    }
    let mut spec = rules.spec.clone();
    spec.game.combat = None;
    let Ok(plain) = Rules::compile(&spec) else {
        return Ok(None);
    };
    let ordinary = generate(&plain, pos)?;
    let Some(mv) = ordinary
        .iter()
        .find(|m| !m.is_capture() && m.from == from && m.to == to)
    else {
        return Ok(None);
    };
    let Some((_, _, e, _)) = rules.lone_pieces(pos) else {
        return Ok(None);
    };
    let kind = mv.kind_before as usize;
    let mut nearer: Vec<String> = legal.iter().map(|m| move_to_string(rules, m)).collect();
    nearer.sort();
    Ok(Some(format!(
        "`{text}` is not legal under the declared single combat: it does not bring the piece \
         nearer to the enemy piece on {} ({} from {}, {} from {}); the legal moves: {}\n",
        rules.geo.name(e),
        combat_distance(rules, pos, kind, from),
        rules.geo.name(from),
        combat_distance(rules, pos, kind, to),
        rules.geo.name(to),
        shorten(&nearer)
    )))
}
