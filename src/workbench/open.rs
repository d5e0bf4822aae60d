//! Opening a game of a PDN text in the workbench, the same for the REPL's `open` and the page's
//! import: the variant it is played in (its `GameType`, `Rules` or `Variant` tag, else the loaded
//! variant or a guess), and the game as a tree with its tags, NAGs and comments on its moves.

use super::tree::Tree;
use crate::engine::{GenOptions, Move};
use crate::pdn::{self, PdnGame, Token, VariantCache, VariantError, Variation};
use crate::Variant;

/// Why a game cannot be opened in a variant.
#[derive(Debug, Clone, thiserror::Error, miette::Diagnostic)]
pub enum OpenError {
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// Only bundled variants are loaded by name here (a page reads no file a tag names).
    #[error("the game names the rules `{0}`, which are not a bundled variant")]
    NotBundled(String),
}

/// The rules source a game names when it has no `GameType`: its [`pdn::RULES_TAG`] tag's name or
/// path (without the hash), else its `Variant` tag.
pub fn named_rules(pg: &PdnGame) -> Option<String> {
    if pg.tag("GameType").is_some() {
        return None;
    }
    if let Some(r) = pg.tag(pdn::RULES_TAG) {
        let r = r.trim();
        let source = match r.rsplit_once(' ') {
            Some((s, h)) if h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()) => s,
            _ => r,
        };
        return Some(source.trim().to_string());
    }
    pg.tag("Variant")
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// The variant game `pg` is read in, and notes that say how it was found: its `GameType` or
/// `Rules`/`Variant` tag, the archive's English draughts (`acf`), or the `loaded` variant unless
/// the game replays only in the variant its squares suggest. With `files` false, a tag naming rules
/// that are neither bundled nor the loaded ones is refused rather than read from disk.
pub fn variant_of_game(
    loaded: &Variant,
    pg: &PdnGame,
    acf: bool,
    files: bool,
) -> Result<(Variant, Vec<String>), OpenError> {
    let mut notes = Vec::new();
    let mut cache = VariantCache::default();
    let named = pg.tag("GameType").is_some() || named_rules(pg).is_some();
    if named {
        if let Some(source) = named_rules(pg) {
            if source == loaded.name() {
                return Ok((loaded.clone(), notes));
            }
            if !files && crate::variants::bundled(&source).is_none() {
                return Err(OpenError::NotBundled(source));
            }
        }
        let (v, note) = pdn::variant_and_note(pg, None, &mut cache)?;
        notes.extend(note);
        return Ok((v, notes));
    }
    if acf {
        notes.push("the archive's games are English draughts".to_string());
        return Ok((cache.get("english")?, notes));
    }
    // The guess when the game does not replay in the loaded variant but does in it; else the
    // loaded variant (where a game that replays in neither is best explained).
    let guess = pdn::guess_variant(pg);
    let guessed = (guess.0 != loaded.name() && pdn::replay(loaded.rules.clone(), pg).is_err())
        .then(|| cache.get(guess.0).ok())
        .flatten()
        .filter(|v| pdn::replay(v.rules.clone(), pg).is_ok());
    if let Some(v) = guessed {
        notes.push(format!("{}: read as {}", guess.1, v.rules.spec.title));
        Ok((v, notes))
    } else {
        notes.push(format!(
            "no GameType tag: read in the loaded variant, {}",
            loaded.rules.spec.title
        ));
        Ok((loaded.clone(), notes))
    }
}

/// A line still to annotate: the node it starts from, its moves, its variations.
type Pending<'a> = (usize, &'a [Token], &'a [Variation<Token>]);

/// Put the tags, NAGs and comments of `pg` on `tree`, a tree built from its replay: the main
/// line's on the tree's main line, each variation's on the moves it names (a variation whose
/// move no longer reads stops there). With a stack of its own, not recursion.
pub fn annotate(tree: &mut Tree, pg: &PdnGame) {
    tree.tags = pg.tags.clone();
    for (_, c) in pg.comments.iter().filter(|(p, _)| *p == 0) {
        tree.nodes[0].notes.add_comment(c);
    }
    let main = tree.main_line();
    for (tok, &id) in pg.moves.iter().zip(&main[1..]) {
        tree.nodes[id].notes = tok.notes.clone();
    }
    let mut todo: Vec<Pending> = pg
        .variations
        .iter()
        .rev()
        .filter_map(|v| Some((*main.get(v.ply)?, &v.moves[..], &v.variations[..])))
        .collect();
    let mut legal: Vec<Move> = Vec::new();
    let every = GenOptions {
        keep_duplicates: true,
        all_routes: true,
    };
    while let Some((from, moves, variations)) = todo.pop() {
        let mut line = vec![from];
        for tok in moves {
            let at = line[line.len() - 1];
            let rules = tree.rules.clone();
            if rules
                .try_generate(&tree.nodes[at].pos, &mut legal, every)
                .is_err()
            {
                break;
            }
            let Ok(mv) = crate::notation::parse_move(&rules, &legal, &tok.text) else {
                break;
            };
            let Some(next) = tree.child(at, &mv, false) else {
                break;
            };
            tree.nodes[next].notes = tok.notes.clone();
            line.push(next);
        }
        for v in variations.iter().rev() {
            if let Some(&at) = line.get(v.ply) {
                todo.push((at, &v.moves, &v.variations));
            }
        }
    }
}

/// A replayed game as a tree: its moves the main line, its variations the other lines, with the
/// tags, NAGs and comments of `pg`, the current node at its end. `None` when the tree would hold
/// more than [`super::tree::MAX_NODES`] positions.
pub fn tree_of_game(replayed: &pdn::Replayed, pg: &PdnGame) -> Option<Tree> {
    let game = &replayed.game;
    let mut tree = Tree::new(game.rules.clone(), *game.start());
    tree.add_line(0, game.moves(), &replayed.variations)?;
    let end = tree.current;
    annotate(&mut tree, pg);
    tree.current = end;
    Some(tree)
}
