//! The workbench's PDN commands: `save FILE.pdn`, `open FILE.pdn [N]`, and moving through the game
//! (`first`, `prev`, `next`, `last`, `goto N`), and playing a move that leaves a line, which keeps
//! it as a variation.

use super::Session;
use crate::engine::Move;
use crate::pdn::{self, read_acf, read_games, write_game_with};
use crate::pdn::{describe_failure, looks_like_acf};
use crate::workbench::Tree;
use crate::Game;
use miette::Report;

/// What `open` read, kept so that `save` writes the game back with its tags, comments and result.
#[derive(Default, Debug, Clone)]
pub struct Opened {
    moves: Vec<Move>,
    tags: Vec<(String, String)>,
    comments: Vec<(usize, String)>,
    result: Option<String>,
}

fn fail(message: String, help: &str) -> Report {
    miette::miette!(help = help.to_string(), "{message}")
}

/// The whole game, moves taken back included.
fn full(game: &Game) -> Game {
    let mut g = game.clone();
    while g.redo().is_some() {}
    g
}

pub fn save(s: &mut Session, arg: &str) -> Result<String, Report> {
    if arg.is_empty() {
        return Err(fail(
            "`save` needs a file name".into(),
            "e.g. `save game.pdn`",
        ));
    }
    let g = full(&s.game);
    // The tags of the game `open` read stay with it (its line is still in the game, as the main
    // line or a variation); its comments as far as the main line is still its, its result only
    // when the main line is all its own.
    let (tags, comments, result) = match &s.pdn {
        Some(o) => {
            let common = o
                .moves
                .iter()
                .zip(g.moves())
                .take_while(|(a, b)| a.same_move(b))
                .count();
            let same = common == o.moves.len() && common == g.moves().len();
            let comments: Vec<(usize, String)> = o
                .comments
                .iter()
                .filter(|(p, _)| *p <= common)
                .cloned()
                .collect();
            (o.tags.clone(), comments, o.result.clone().filter(|_| same))
        }
        None => (Vec::new(), Vec::new(), None),
    };
    let source = match &s.variant.path {
        Some(p) => p.display().to_string(),
        None => s.variant.name().to_string(),
    };
    let text = write_game_with(
        &g,
        &tags,
        &comments,
        result.as_deref(),
        &s.lines.variations(),
        Some(&source),
    );
    crate::fsio::write_file(std::path::Path::new(arg), text.as_bytes()).map_err(Report::new)?;
    let (branches, lines) = s.lines.off_main();
    Ok(format!(
        "saved {} moves{} to {arg} (result {})\n",
        g.moves().len(),
        if lines > 0 {
            format!(
                " and {branches} variation{} ({lines} moves)",
                if branches == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        },
        text.lines()
            .find_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]"))
            .unwrap_or("*")
    ))
}

pub fn open(s: &mut Session, arg: &str) -> Result<String, Report> {
    let usage = "e.g. `open games.pdn` (the first game) or `open games.pdn 3`";
    if arg.is_empty() {
        return Err(fail("`open` needs a PDN file".into(), usage));
    }
    // `open FILE N`: a last word that is a number picks the game (file names may hold blanks).
    let (path, index) = match arg.rsplit_once(char::is_whitespace) {
        Some((p, n)) if n.bytes().all(|b| b.is_ascii_digit()) && !p.trim().is_empty() => {
            let n: usize = n
                .parse()
                .map_err(|_| fail(format!("`{n}` is not a game number"), usage))?;
            (p.trim(), n)
        }
        _ => (arg, 1),
    };
    let bytes = crate::fsio::read_file(std::path::Path::new(path), crate::fsio::Kind::Pdn)
        .map_err(|e| {
            fail(
                format!("cannot read `{path}`: {e}"),
                "give the path of a .pdn file",
            )
        })?;
    // The one-game-a-line archive format reads as `damelab replay` reads it.
    let acf = looks_like_acf(&bytes);
    let games = if acf {
        read_acf(&bytes)
    } else {
        read_games(&bytes)
    };
    if games.is_empty() {
        return Err(fail(
            format!("`{path}` holds no game"),
            "a PDN file holds tags and moves",
        ));
    }
    if index == 0 || index > games.len() {
        return Err(fail(
            format!(
                "`{path}` has {} games: there is no game {index}",
                games.len()
            ),
            &format!("give a number from 1 to {}", games.len()),
        ));
    }
    let pg = &games[index - 1];
    let (variant, notes) = variant_of(s, pg, acf, usage)?;
    let (replayed, stopped) = replay_head(&variant, pg, index, path)?;
    let lines = Tree::of_game(&replayed.game, &replayed.variations).ok_or_else(|| {
        fail(
            format!(
                "game {index} of `{path}` holds more than {} positions with its variations",
                crate::workbench::tree::MAX_NODES
            ),
            "open a game with fewer variations, or split the file",
        )
    })?;
    s.save("open");
    let switched = variant.name() != s.variant.name();
    s.variant = variant;
    s.game = replayed.game;
    s.lines = lines;
    s.changed = true;
    s.pdn = Some(Opened {
        moves: s.game.moves().to_vec(),
        tags: pg.tags.clone(),
        comments: pg.comments.clone(),
        result: pg
            .result
            .clone()
            .or_else(|| pg.tag("Result").map(str::to_string))
            .filter(|_| stopped.is_none()),
    });
    let mut out = String::new();
    if switched {
        out.push_str(&format!("loaded {}\n", s.game.rules.spec.title));
    }
    let title = pg.title();
    out.push_str(&format!(
        "opened game {index} of {} in {path}{}: {} moves, result {}\n",
        games.len(),
        if title.is_empty() {
            String::new()
        } else {
            format!(" ({title})")
        },
        s.game.moves().len(),
        s.pdn
            .as_ref()
            .and_then(|o| o.result.clone())
            .unwrap_or_else(|| "*".into()),
    ));
    let (branches, moves) = s.lines.off_main();
    if branches > 0 {
        out.push_str(&format!(
            "with {branches} variation{} ({moves} moves): playing a variation's first move enters it\n",
            if branches == 1 { "" } else { "s" }
        ));
    }
    for n in notes.iter().chain(&replayed.notes) {
        out.push_str(&format!("note: {n}\n"));
    }
    if let Some(f) = stopped {
        let ply = f.ply.unwrap_or(0);
        out.push_str(&format!(
            "the record stops here: its move {} (`{}`, {}) does not replay: {}\n",
            ply + 1,
            f.recorded.as_deref().unwrap_or_default(),
            f.at.map(|a| a.to_string()).unwrap_or_default(),
            f.message
        ));
        let left = pg.moves.len() - ply;
        out.push_str(&format!(
            "opened the {ply} moves before it; {left} move{} left out\n",
            if left == 1 { "" } else { "s" }
        ));
    } else {
        out.push_str("at the end; `first`, `prev`, `next`, `last` and `goto N` move through it\n");
    }
    Ok(out)
}

/// The variant a game of `open` is read in, and the notes that say how it was found: its
/// `GameType` or `Rules` tag, the archive's English draughts, or the loaded variant (a guess when
/// the game does not replay in it).
fn variant_of(
    s: &Session,
    pg: &pdn::PdnGame,
    acf: bool,
    usage: &str,
) -> Result<(crate::Variant, Vec<String>), Report> {
    let named = pg.tag("GameType").is_some() || pg.tag(pdn::RULES_TAG).is_some();
    crate::workbench::variant_of_game(&s.variant, pg, acf, true).map_err(|m| {
        let help = if named {
            "load the variant first; a game without GameType is read in the loaded one"
        } else {
            usage
        };
        fail(m.to_string(), help)
    })
}

/// Game `index` of `path` replayed in `variant`: whole, or up to its first move that does not
/// replay (with that failure).
fn replay_head(
    variant: &crate::Variant,
    pg: &pdn::PdnGame,
    index: usize,
    path: &str,
) -> Result<(pdn::Replayed, Option<Box<pdn::Failure>>), Report> {
    match pdn::replay(variant.rules.clone(), pg) {
        Ok(r) => Ok((r, None)),
        // A bad move: the game up to it, and what is wrong with it.
        Err(f) if f.ply.is_some() => {
            let ply = f.ply.unwrap_or(0);
            let mut head = pg.clone();
            head.moves.truncate(ply);
            head.result = None;
            head.tags.retain(|(n, _)| !n.eq_ignore_ascii_case("Result"));
            head.variations.retain(|v| v.ply < ply);
            match pdn::replay(variant.rules.clone(), &head) {
                Ok(r) => Ok((r, Some(f))),
                Err(_) => Err(does_not_replay(index, path, pg, &f)),
            }
        }
        Err(f) => Err(does_not_replay(index, path, pg, &f)),
    }
}

fn does_not_replay(index: usize, path: &str, pg: &pdn::PdnGame, f: &pdn::Failure) -> Report {
    fail(
        format!("game {index} of `{path}` does not replay"),
        describe_failure(index, pg, f).trim_end(),
    )
}

/// Go to ply `target` of the whole game (0 = the start).
fn go(s: &mut Session, target: usize) -> String {
    while s.game.moves().len() > target && s.step_back().is_some() {}
    while s.game.moves().len() < target && s.step_forward().is_some() {}
    s.changed = true;
    let total = full(&s.game).moves().len();
    let ply = s.game.moves().len();
    match s.game.last_move() {
        Some(m) => format!(
            "ply {ply} of {total}: {} ({})\n",
            crate::notation::move_to_string(&s.game.rules, m),
            s.game.describe_result()
        ),
        None => format!(
            "ply 0 of {total}: the start ({})\n",
            s.game.describe_result()
        ),
    }
}

pub fn navigate(s: &mut Session, name: &str, arg: &str) -> Result<String, Report> {
    let now = s.game.moves().len();
    let total = full(&s.game).moves().len();
    if name != "goto" && !arg.is_empty() {
        return Err(fail(
            format!("`{name}` takes no argument, got `{arg}`"),
            &format!("type `{name}` alone, or `goto N` for ply N"),
        ));
    }
    let target = match name {
        "first" => 0,
        "last" => total,
        "prev" => {
            if now == 0 {
                return Err(fail(
                    "already at the start".into(),
                    "`next` or `last` move forward",
                ));
            }
            now - 1
        }
        "next" => {
            if now == total {
                return Err(fail(
                    "already at the end of the game".into(),
                    "`prev` or `first` move back; type a move to play on",
                ));
            }
            now + 1
        }
        _ => match arg.parse::<usize>() {
            Ok(n) if n <= total => n,
            _ => {
                return Err(fail(
                    format!("`{arg}` is not a ply of this game"),
                    &format!("give a number from 0 (the start) to {total} (the last move)"),
                ))
            }
        },
    };
    Ok(go(s, target))
}

impl Session {
    /// Play a legal move. Where the game had moves ahead (after `undo` or `goto`), the same move
    /// as the next one just goes forward; another move keeps the moves ahead as a variation, and
    /// a move that starts a variation makes it the line ahead (the old one a variation in turn).
    /// Returns a note for the user when a line was kept; an error when the game's lines hold as
    /// many positions as a tree may ([`crate::workbench::tree::MAX_NODES`]).
    pub(crate) fn play_keeping_line(&mut self, mv: Move) -> Result<Option<String>, Report> {
        let ahead = self.game.ahead();
        if ahead.first().is_some_and(|next| next.same_move(&mv)) {
            self.step_forward();
            return Ok(None);
        }
        let here = self.lines.current;
        // The main line's next move is not `mv`: any child that is starts a variation.
        let entered = self.lines.child(here, &mv, false);
        let mut note = None;
        if !ahead.is_empty() {
            note = Some(format!(
                "the game's other {} from here {} kept as a variation (`save` writes it)\n",
                if ahead.len() == 1 {
                    "move".to_string()
                } else {
                    format!("{} moves", ahead.len())
                },
                if ahead.len() == 1 { "is" } else { "are" },
            ));
        }
        let id = match entered {
            Some(id) => {
                self.lines.current = id;
                id
            }
            None => self.lines.play(mv).ok_or_else(|| {
                fail(
                    format!(
                        "the game and its variations hold {} positions, the most a game may",
                        crate::workbench::tree::MAX_NODES
                    ),
                    "`save` the game, then start a `new` one",
                )
            })?,
        };
        self.lines.promote(id);
        self.game.play(mv);
        let ahead = self.lines.ahead();
        if entered.is_some() && note.is_none() {
            note = Some(format!(
                "in a variation of {} moves: `next` follows it\n",
                ahead.len() + 1
            ));
        }
        self.game.set_ahead(&ahead);
        Ok(note)
    }
}
