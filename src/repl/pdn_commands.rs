//! The workbench's PDN commands: `save FILE.pdn`, `open FILE.pdn [N]`, and moving through the game
//! (`first`, `prev`, `next`, `last`, `goto N`).

use super::Session;
use crate::engine::Move;
use crate::pdn::{self, cli::describe_failure, parse_game_type, read_games, write_game};
use crate::{Game, Variant};
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
    let same = s.pdn.as_ref().filter(|o| {
        o.moves.len() == g.moves().len()
            && o.moves.iter().zip(g.moves()).all(|(a, b)| a.same_move(b))
    });
    let text = match same {
        Some(o) => write_game(&g, &o.tags, &o.comments, o.result.as_deref()),
        None => {
            let tags = s.pdn.as_ref().map(|o| o.tags.clone()).unwrap_or_default();
            write_game(&g, &tags, &[], None)
        }
    };
    crate::fsio::write_file(std::path::Path::new(arg), text.as_bytes()).map_err(Report::new)?;
    Ok(format!(
        "saved {} moves to {arg} (result {})\n",
        g.moves().len(),
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
    let games = read_games(&bytes);
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
    let variant = match pg.tag("GameType") {
        None => s.variant.clone(),
        Some(t) => {
            let (name, _) = parse_game_type(t).map_err(|m| {
                fail(
                    m,
                    "load the variant first; a game without GameType is read in the loaded one",
                )
            })?;
            if name == s.variant.name() {
                s.variant.clone()
            } else {
                Variant::load(name).map_err(Report::new)?
            }
        }
    };
    let replayed = pdn::replay(variant.rules.clone(), pg).map_err(|f| {
        fail(
            format!("game {index} of `{path}` does not replay"),
            describe_failure(index, pg, &f).trim_end(),
        )
    })?;
    let switched = variant.name() != s.variant.name();
    s.variant = variant;
    s.game = replayed.game;
    s.changed = true;
    s.pdn = Some(Opened {
        moves: s.game.moves().to_vec(),
        tags: pg.tags.clone(),
        comments: pg.comments.clone(),
        result: pg
            .result
            .clone()
            .or_else(|| pg.tag("Result").map(str::to_string)),
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
    for n in &replayed.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str("at the end; `first`, `prev`, `next`, `last` and `goto N` move through it\n");
    Ok(out)
}

/// Go to ply `target` of the whole game (0 = the start).
fn go(s: &mut Session, target: usize) -> String {
    while s.game.moves().len() > target && s.game.undo().is_some() {}
    while s.game.moves().len() < target && s.game.redo().is_some() {}
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
