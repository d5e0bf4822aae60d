//! The bodies of the coverage-guided fuzz targets (`fuzz/`, one small file each) and of the test
//! that replays their saved findings (`tests/hardening/fuzz_afl.rs`): each takes the fuzzer's bytes, runs
//! them through one input path, and panics only when an invariant breaks (a panic anywhere below
//! is a finding). See docs/fuzzing.md.

use crate::engine::GenOptions;
use crate::notation::{move_to_string, parse_fen, parse_move, to_fen};
use crate::{variants, Position, Rules, Variant};
use std::sync::OnceLock;

/// A fuzz target: the fuzzer's bytes in, a panic out when an invariant breaks.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, for the replay test and `scripts/fuzz.sh`.
pub const TARGETS: &[(&str, Target)] = &[
    ("rules", rules),
    ("fen", fen),
    ("move", move_text),
    ("case", case),
    ("pdn", pdn),
    ("repl", repl),
    ("merge", merge),
    ("table", table),
    ("web", web),
    ("pdnvar", pdnvar),
];

/// The bundled variants, compiled once.
fn bundled() -> &'static [Variant] {
    static ALL: OnceLock<Vec<Variant>> = OnceLock::new();
    ALL.get_or_init(|| {
        variants::BUNDLED
            .iter()
            .filter_map(|(name, _)| Variant::load(name).ok())
            .collect()
    })
}

/// The first line names a bundled variant (or its first byte picks one): the rest is the input.
fn split_variant(data: &[u8]) -> Option<(&'static Variant, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    let (name, rest) = text.split_once('\n')?;
    let all = bundled();
    let v = all
        .iter()
        .find(|v| v.name() == name)
        .or_else(|| all.get(name.bytes().next()? as usize % all.len()))?;
    Some((v, rest))
}

/// What must hold of any position: the FEN round trip, and every legal move's text reads back as
/// that move.
fn check_position(rules: &Rules, p: &Position) {
    let fen = to_fen(rules, p);
    let back = parse_fen(rules, &fen).unwrap_or_else(|e| panic!("own FEN `{fen}` rejected: {e}"));
    assert_eq!(
        to_fen(rules, &back),
        fen,
        "FEN round trip changes the position"
    );
    let mut list = Vec::new();
    if rules
        .try_generate(p, &mut list, GenOptions::default())
        .is_err()
    {
        return; // too many capture routes: an error, not a finding
    }
    for m in &list {
        let t = move_to_string(rules, m);
        match parse_move(rules, &list, &t) {
            Ok(back) => assert!(back.same_move(m), "`{t}` reads back as another move"),
            Err(e) => panic!("own move text `{t}` rejected in `{fen}`: {e}"),
        }
    }
}

/// Render a diagnostic as the command line would (rendering must not panic either).
fn render(e: &dyn miette::Diagnostic) {
    let mut s = String::new();
    let _ = miette::GraphicalReportHandler::new().render_report(&mut s, e);
}

/// Rules text → check → compile → describe → a short game, every position checked.
pub fn rules(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let v = match Variant::from_source("fuzz.rules", "fuzz", text, None) {
        Ok(v) => v,
        Err(e) => return render(&e),
    };
    let r = &v.rules;
    let _ = crate::describe::describe(r);
    let mut pos = r.start;
    let mut list = Vec::new();
    for ply in 0..12 {
        check_position(r, &pos);
        if r.try_generate(&pos, &mut list, GenOptions::default())
            .is_err()
            || list.is_empty()
        {
            break;
        }
        let m = list[(ply * 7 + data.len()) % list.len()];
        pos = r.play(&pos, &m);
    }
}

/// `VARIANT\nFEN`.
pub fn fen(data: &[u8]) {
    let Some((v, fen)) = split_variant(data) else {
        return;
    };
    match parse_fen(&v.rules, fen) {
        Ok(p) => check_position(&v.rules, &p),
        Err(e) => render(&*e),
    }
}

/// `VARIANT\nFEN\nMOVE`: a move read must be legal; `explain` must not panic.
pub fn move_text(data: &[u8]) {
    let Some((v, rest)) = split_variant(data) else {
        return;
    };
    let Some((fen, mv)) = rest.split_once('\n') else {
        return;
    };
    let r = &v.rules;
    let Ok(pos) = parse_fen(r, fen) else {
        return;
    };
    let mut list = Vec::new();
    if r.try_generate(&pos, &mut list, GenOptions::default())
        .is_err()
    {
        return;
    }
    match parse_move(r, &list, mv) {
        Ok(m) => assert!(
            list.iter().any(|l| l.same_move(&m)),
            "parsed an illegal move"
        ),
        Err(e) => render(&*e),
    }
    if let Err(e) = crate::explain::explain(r, &pos, mv) {
        render(&e);
    }
}

/// A case file: read, run with a small perft budget, rendered, blessed.
pub fn case(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = match crate::cases::load::load("fuzz.yaml", text) {
        Ok(f) => f,
        Err(e) => return render(&*e),
    };
    for (_, e) in &file.errors {
        render(e);
    }
    let Some(v) = bundled().iter().find(|v| v.name() == file.variant) else {
        return;
    };
    for lc in &file.cases {
        let run = crate::cases::run_case_within(v, &lc.case, 200_000);
        for p in &run.problems {
            render(&file.problem(lc, p));
        }
        let _ = crate::cases::bless::bless_case(&file.text, lc, &run, true);
    }
}

/// A PDN text: every game read and replayed; a replayed game written back must read as one game
/// and replay to the same moves.
pub fn pdn(data: &[u8]) {
    use crate::pdn;
    let mut cache = pdn::VariantCache::default();
    for game in pdn::read_games(data).iter().take(8) {
        let Ok(v) = pdn::variant_for(game, Some("international"), &mut cache) else {
            continue;
        };
        let done = match pdn::replay(v.rules.clone(), game) {
            Ok(r) => r,
            Err(f) => {
                let _ = pdn::describe_failure(0, game, &f);
                continue;
            }
        };
        let text = pdn::write_game(&done.game, &game.tags, &game.comments, None);
        let again = pdn::read_games(text.as_bytes());
        assert_eq!(
            again.len(),
            1,
            "the writer's game reads as one game:\n{text}"
        );
        let back = pdn::replay(v.rules.clone(), &again[0]).unwrap_or_else(|f| {
            panic!("the writer's game does not replay ({}):\n{text}", f.message)
        });
        assert_eq!(
            back.game.moves(),
            done.game.moves(),
            "replays to other moves:\n{text}"
        );
    }
}

/// REPL script lines on a bundled variant (the first line names it). Commands that touch files or
/// think for long (`save`, `open`, `diagram`, `load`, `go`, `hint`, `probe`, …) are skipped: the
/// fuzzer must not write files, and their parsing is that of the other commands.
pub fn repl(data: &[u8]) {
    let Some((v, script)) = split_variant(data) else {
        return;
    };
    let mut s = crate::repl::Session::new(v.clone());
    s.perft_nodes = 20_000;
    for line in script.lines().take(40) {
        let word = line.split_whitespace().next().unwrap_or("");
        // By the command's name, so that an alias (`pr` for `probe`) is skipped too.
        let word = crate::repl::commands::find(word).map_or(word, |c| c.name);
        let skip = [
            "save", "open", "diagram", "load", "reload", "go", "hint", "engine", "probe", "quit",
            "exit",
        ];
        if skip.contains(&word) {
            continue;
        }
        let _ = s.execute(line);
    }
}

/// A self-play run file: parsed and checked as `selfplay merge` does, then merged.
pub fn merge(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = std::path::Path::new("fuzz.json");
    let Ok(file) = crate::selfplay::file::parse_run(path, text) else {
        return;
    };
    let Some(v) = bundled().iter().find(|v| v.name() == file.settings.variant) else {
        return;
    };
    if let Ok(m) = crate::selfplay::merge::merge_files(std::slice::from_ref(&file), &v.rules) {
        assert_eq!(
            m.games.len(),
            file.games.len(),
            "a merge of one file changes its games"
        );
        let _ = m.report.text();
    }
}

/// A table file's bytes, as the cache would read them for `K v K` of English draughts.
pub fn table(data: &[u8]) {
    use crate::endgame::{index::Indexer, store, Material, Value};
    let Some(v) = bundled().iter().find(|v| v.name() == "english") else {
        return;
    };
    let Ok(m) = Material::parse(&v.rules, "K v K") else {
        return;
    };
    let Ok(ix) = Indexer::new(&v.rules, &m) else {
        return;
    };
    if let Ok(values) = store::decode(data, &v.rules, &m, ix.len()) {
        assert_eq!(
            values.len() as u64,
            ix.len(),
            "a table of the wrong length was accepted"
        );
        for &p in values.iter().take(64) {
            let _ = Value::unpack(p).describe();
        }
    }
}

/// The routes the `web` target leaves out: they search, build tables, stream or write files
/// (bounded in time by the server, but seconds each: the fuzzer wants thousands a second).
const WEB_SKIPPED: [&str; 8] = [
    "analyse", "engine", "probe", "study", "endgame", "stream", "save", "selftest",
];

/// The API's endpoints that answer a GET.
const WEB_GETS: [&str; 4] = ["state", "pdn/export", "variants", "rules"];

/// The runtime the `web` target drives the router with: one thread, its blocking pool for the
/// work the handlers move off it.
fn web_runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a tokio runtime")
    })
}

/// One request to the router, without a socket: the status and the body.
async fn web_request(
    router: &axum::Router,
    method: &str,
    route: &str,
    body: &str,
) -> Option<(axum::http::StatusCode, Vec<u8>)> {
    use tower::ServiceExt;
    let req = axum::http::Request::builder()
        .method(method)
        .uri(format!("/api/{route}"))
        .header("host", "127.0.0.1:8421")
        .header("content-type", "application/json")
        .header("x-damelab-client", "fuzz-client-0001")
        .body(axum::body::Body::from(body.to_string()))
        .ok()?;
    let res = router.clone().oneshot(req).await.ok()?;
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .ok()?;
    Some((status, bytes.to_vec()))
}

/// What every answer of the API must be: never a 500 (a handler that panicked or failed), JSON
/// whatever the status, and a refusal's JSON with a message and a help line.
fn check_answer(route: &str, status: axum::http::StatusCode, body: &[u8]) {
    assert!(
        status != axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "500 from `{route}`: {}",
        String::from_utf8_lossy(body)
    );
    let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "`{route}` answered {status} with no JSON ({e}): {}",
            String::from_utf8_lossy(body)
        )
    });
    if status.is_client_error() || status.is_server_error() {
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()) && v["help"].is_string(),
            "`{route}` refused ({status}) without a message and help: {v}"
        );
    }
}

/// `ROUTE\nBODY` requests (up to 8, separated by a line `%%`; ROUTE as after `/api/`, e.g.
/// `pdn/import`) to a fresh server's router, run on one thread without a socket: every answer
/// JSON, no 500, a refusal with its message and help; after them the client's state still
/// answers.
pub fn web(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(v) = bundled().iter().find(|v| v.name() == "international") else {
        return;
    };
    let opts = crate::web::Options {
        variant: v.clone(),
        text: variants::bundled("international")
            .unwrap_or_default()
            .to_string(),
        path: None,
        host: "127.0.0.1".into(),
        port: 8421,
        // `variant` reads `.rules` files of this folder; nothing is written (`save` is skipped).
        root: std::env::temp_dir(),
        cache: None,
        engine: None,
    };
    let Ok(router) = crate::web::router(&opts, 8421) else {
        return;
    };
    web_runtime().block_on(async {
        for request in text.split("\n%%\n").take(8) {
            let (route, body) = request.split_once('\n').unwrap_or((request, ""));
            let route = route.trim().trim_start_matches('/');
            if WEB_SKIPPED.iter().any(|s| route.contains(s)) {
                continue;
            }
            let method = if WEB_GETS.contains(&route) {
                "GET"
            } else {
                "POST"
            };
            if let Some((status, bytes)) = web_request(&router, method, route, body).await {
                check_answer(route, status, &bytes);
            }
        }
        let (status, bytes) = web_request(&router, "GET", "state", "")
            .await
            .expect("the state request is well formed");
        assert_eq!(
            status,
            axum::http::StatusCode::OK,
            "the state after the requests: {}",
            String::from_utf8_lossy(&bytes)
        );
        check_answer("state", status, &bytes);
    });
}

/// Two trees with the same moves in the same places (children in the same order, each the same
/// move by the same route).
fn same_tree(a: &crate::workbench::tree::Tree, b: &crate::workbench::tree::Tree) -> bool {
    let mut stack = vec![(0usize, 0usize)];
    while let Some((x, y)) = stack.pop() {
        let (nx, ny) = (&a.nodes[x], &b.nodes[y]);
        let same_move = match (nx.mv, ny.mv) {
            (Some(m), Some(n)) => m.same_move(&n) && m.route() == n.route(),
            (None, None) => true,
            _ => false,
        };
        if !same_move || nx.children.len() != ny.children.len() || nx.pos != ny.pos {
            return false;
        }
        stack.extend(nx.children.iter().copied().zip(ny.children.iter().copied()));
    }
    true
}

/// A PDN text with variations: each game (up to 4) read, replayed with its variations into the
/// web's move tree, navigated by the input's last bytes (go to a node, undo, redo, play a legal
/// move: a new variation), written back as PDN, read and replayed again: the same tree, and the
/// same text when written once more.
pub fn pdnvar(data: &[u8]) {
    use crate::pdn;
    use crate::workbench::tree::Tree;
    let mut cache = pdn::VariantCache::default();
    for game in pdn::read_games(data).iter().take(4) {
        let Ok(v) = pdn::variant_for(game, Some("international"), &mut cache) else {
            continue;
        };
        let Ok(r) = pdn::replay(v.rules.clone(), game) else {
            continue;
        };
        let mut tree = Tree::new(v.rules.clone(), *r.game.start());
        if tree.add_line(0, r.game.moves(), &r.variations).is_none() {
            continue;
        }
        for (i, &b) in data.iter().rev().take(24).enumerate() {
            match b % 4 {
                0 => {
                    tree.goto((usize::from(b) * 31 + i) % tree.nodes.len());
                }
                1 => {
                    tree.undo();
                }
                2 => {
                    tree.redo();
                }
                _ => {
                    let legal = tree.game().try_legal_moves().unwrap_or_default();
                    if !legal.is_empty() && tree.play(legal[usize::from(b) % legal.len()]).is_none()
                    {
                        break;
                    }
                }
            }
        }
        let text = tree.to_pdn();
        let again = pdn::read_games(text.as_bytes());
        assert_eq!(again.len(), 1, "the tree's PDN reads as one game:\n{text}");
        let back = pdn::replay(v.rules.clone(), &again[0])
            .unwrap_or_else(|f| panic!("the tree's PDN does not replay ({}):\n{text}", f.message));
        let mut read = Tree::new(v.rules.clone(), *back.game.start());
        read.add_line(0, back.game.moves(), &back.variations)
            .unwrap_or_else(|| panic!("the tree read back is over the node limit:\n{text}"));
        assert!(
            same_tree(&tree, &read),
            "the PDN reads back as another tree:\n{text}\n---\n{}",
            read.to_pdn()
        );
        assert_eq!(read.to_pdn(), text, "written twice, the PDN changes");
    }
}
