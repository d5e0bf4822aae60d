//! The layer rule of docs/architecture.md, checked on the sources: a top-level module of `src/`
//! imports only modules on a layer below its own. The order is read from the fenced block after
//! `<!-- layers -->` in docs/architecture.md (front ends first, foundations last), so the document
//! and the rule cannot drift apart.
//!
//! Beside it, rules of the same kind: the library knows no command line (clap, indicatif and
//! `eprintln!` only in the front end), no file content is read or written outside `fsio`, and
//! the library returns error types, not `Result<_, String>`.
//! Each rule starts from an allowlist of today's exceptions that may only shrink: an entry that
//! no longer occurs fails the test until it is removed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Imports against the layer order still to be removed: (from, to).
const LAYER_EXCEPTIONS: &[(&str, &str)] = &[];

/// Library files (outside the front end) that still use clap, indicatif or `eprintln!`.
const COMMAND_LINE_EXCEPTIONS: &[&str] = &[];

/// Files outside `fsio` that still read or write a file's content directly.
const FILE_IO_EXCEPTIONS: &[&str] = &[];

/// The layers, top first, as docs/architecture.md lists them: each line a layer, its words the
/// modules on it (the text after ` — ` is a comment).
fn layers() -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md"))
        .expect("docs/architecture.md reads");
    let after = doc
        .split("<!-- layers -->")
        .nth(1)
        .expect("docs/architecture.md marks its layer list with <!-- layers -->");
    let block = after
        .split("```")
        .nth(1)
        .expect("a fenced block after <!-- layers -->");
    block
        .lines()
        .skip(1) // the fence's info string
        .map(|l| l.split(" — ").next().unwrap_or(""))
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Rust source with comments removed and string and character literals emptied, so that only
/// code is searched.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            out.push_str("\"\"");
            i = j + close.len();
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\''
            && (b.get(i + 2) == Some(&b'\'')
                || (b.get(i + 1) == Some(&b'\\')
                    && b[i + 2..].iter().take(10).any(|&x| x == b'\'')))
        {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime.
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src/ lists") {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first segments of the paths a `use` group lists: `{a::b, c, d::{e}}` → a, c, d.
fn group_heads(s: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let (mut depth, mut start) = (0, 1);
    for (i, c) in s.char_indices() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    start = i + 1;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    heads.push(ident_at(s[start..].trim_start()));
                    break;
                }
            }
            ',' if depth == 1 => {
                heads.push(ident_at(s[start..].trim_start()));
                start = i + 1;
            }
            _ => {}
        }
    }
    heads.into_iter().filter(|h| !h.is_empty()).collect()
}

/// The top-level items a file names from the crate root: `crate::x`, `crate::{x, y}`, and
/// `super::…` chains that climb to the root.
fn root_names(code: &str, depth: usize) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        let after = &rest[at + "crate::".len()..];
        rest = after;
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if after.starts_with('{') {
            names.extend(group_heads(after).into_iter().map(str::to_string));
        } else {
            names.push(ident_at(after).to_string());
        }
    }
    // `super::super::x` that climbs to the root: from a file `depth` modules below it, plus the
    // inline modules (`mod tests { … }`) around the path.
    let inline = inline_depths(code);
    let mut at = 0;
    while let Some(found) = code[at..].find("super::") {
        let start = at + found;
        let before = code[..start].chars().last();
        let mut end = start;
        let mut climbs = 0;
        while code[end..].starts_with("super::") {
            climbs += 1;
            end += "super::".len();
        }
        at = end;
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        if climbs != depth + inline[start] {
            continue;
        }
        let after = &code[end..];
        if after.starts_with('{') {
            names.extend(group_heads(after).into_iter().map(str::to_string));
        } else {
            names.push(ident_at(after).to_string());
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// For each byte of `code`, how many inline modules (`mod name { … }`) enclose it.
fn inline_depths(code: &str) -> Vec<usize> {
    let b = code.as_bytes();
    let mut depths = vec![0; b.len() + 1];
    let mut stack: Vec<bool> = Vec::new();
    let mut inside = 0;
    for i in 0..b.len() {
        match b[i] {
            b'{' => {
                let head = code[..i].trim_end();
                let name_start = head
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |k| k + 1);
                let word = head[..name_start].trim_end();
                let is_mod = name_start < head.len()
                    && word.ends_with("mod")
                    && !word[..word.len() - 3]
                        .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
                stack.push(is_mod);
                if is_mod {
                    inside += 1;
                }
            }
            b'}' if stack.pop() == Some(true) => inside -= 1,
            _ => {}
        }
        depths[i] = inside;
    }
    depths[b.len()] = inside;
    depths
}

/// Where a file sits: its top-level module and how many modules deep it is (`src/a.rs` and
/// `src/a/mod.rs` are 1, `src/a/b.rs` is 2).
fn place(rel: &Path) -> (String, usize) {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let depth = if parts.last().is_some_and(|p| p == "mod") {
        parts.len() - 1
    } else {
        parts.len()
    };
    (parts[0].clone(), depth)
}

/// The crate root's re-exports (`pub use engine::{Move, Position};`): name → module.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let module = ident_at(rest).to_string();
        let tail = &rest[module.len()..];
        let tail = tail.strip_prefix("::").unwrap_or(tail);
        if tail.starts_with('{') {
            for h in group_heads(tail) {
                map.insert(h.to_string(), module.clone());
            }
        } else {
            let name = tail.trim_end_matches(';').rsplit("::").next().unwrap_or("");
            map.insert(name.to_string(), module.clone());
        }
    }
    map
}

struct Sources {
    /// (path relative to src/, code without comments and strings)
    files: Vec<(PathBuf, String)>,
}

fn sources() -> Sources {
    let src = root().join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    let files = paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a source file reads");
            (
                p.strip_prefix(&src).unwrap().to_path_buf(),
                code_only(&text),
            )
        })
        .collect();
    Sources { files }
}

/// Every import between top-level modules: (from, to) → the files that make it.
fn module_edges(s: &Sources) -> BTreeMap<(String, String), BTreeSet<String>> {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs reads");
    let alias = reexports(&lib);
    let modules = top_modules(s);
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for (rel, code) in &s.files {
        let (from, depth) = place(rel);
        if from == "lib" || from == "main" {
            continue;
        }
        for name in root_names(code, depth) {
            let to = if modules.contains(&name) {
                name.clone()
            } else if let Some(m) = alias.get(&name) {
                m.clone()
            } else {
                panic!(
                    "src/{}: `crate::{name}` is neither a top-level module nor a re-export of \
                     src/lib.rs",
                    rel.display()
                );
            };
            if to != from {
                edges
                    .entry((from.clone(), to))
                    .or_default()
                    .insert(format!("src/{}", rel.display()));
            }
        }
    }
    edges
}

/// The top-level modules: the files and folders directly under src/ (lib.rs and main.rs aside).
fn top_modules(s: &Sources) -> BTreeSet<String> {
    s.files
        .iter()
        .map(|(rel, _)| place(rel).0)
        .filter(|m| m != "lib" && m != "main")
        .collect()
}

#[test]
fn every_module_is_on_a_layer() {
    let s = sources();
    let listed: Vec<String> = layers().into_iter().flatten().collect();
    let mut seen = BTreeSet::new();
    for m in &listed {
        assert!(seen.insert(m), "docs/architecture.md lists `{m}` twice");
    }
    let have = top_modules(&s);
    let missing: Vec<_> = have.iter().filter(|m| !seen.contains(m)).collect();
    assert!(
        missing.is_empty(),
        "top-level modules on no layer of docs/architecture.md: {missing:?}"
    );
    let gone: Vec<_> = listed
        .iter()
        .filter(|m| *m != "main" && !have.contains(*m))
        .collect();
    assert!(
        gone.is_empty(),
        "docs/architecture.md lists modules that src/ does not have: {gone:?}"
    );
}

#[test]
fn modules_import_only_layers_below_their_own() {
    let s = sources();
    let rank: BTreeMap<String, usize> = layers()
        .into_iter()
        .enumerate()
        .flat_map(|(i, l)| l.into_iter().map(move |m| (m, i)))
        .collect();
    let allowed: BTreeSet<(String, String)> = LAYER_EXCEPTIONS
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let mut wrong = Vec::new();
    let mut used = BTreeSet::new();
    for ((from, to), files) in module_edges(&s) {
        // Top first: a lower layer has a larger index.
        let (Some(&rf), Some(&rt)) = (rank.get(&from), rank.get(&to)) else {
            continue; // reported by every_module_is_on_a_layer
        };
        if rt <= rf {
            if allowed.contains(&(from.clone(), to.clone())) {
                used.insert((from, to));
            } else {
                wrong.push(format!("{from} → {to} ({})", join(&files)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layer order of docs/architecture.md:\n{}",
        wrong.join("\n")
    );
    let stale: Vec<_> = allowed.difference(&used).collect();
    assert!(
        stale.is_empty(),
        "LAYER_EXCEPTIONS entries that no longer occur (remove them): {stale:?}"
    );
}

fn join(files: &BTreeSet<String>) -> String {
    files.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// The files of the front end: the binary and `src/cli/`.
fn front_end(rel: &Path) -> bool {
    rel == Path::new("main.rs") || rel.starts_with("cli")
}

/// Files outside `allowed_in` whose code matches one of `needles`, against an allowlist that
/// may only shrink.
fn only_in(needles: &[&str], allowed_in: &dyn Fn(&Path) -> bool, exceptions: &[&str], what: &str) {
    let s = sources();
    let exceptions: BTreeSet<&str> = exceptions.iter().copied().collect();
    let mut wrong = Vec::new();
    let mut used = BTreeSet::new();
    for (rel, code) in &s.files {
        if allowed_in(rel) {
            continue;
        }
        let name = format!("src/{}", rel.display());
        let hits: Vec<&str> = needles
            .iter()
            .copied()
            .filter(|n| code.contains(n))
            .collect();
        if hits.is_empty() {
            continue;
        }
        if exceptions.contains(name.as_str()) {
            used.insert(name);
        } else {
            wrong.push(format!("{name}: {}", hits.join(", ")));
        }
    }
    assert!(wrong.is_empty(), "{what}:\n{}", wrong.join("\n"));
    let stale: Vec<_> = exceptions.iter().filter(|e| !used.contains(**e)).collect();
    assert!(
        stale.is_empty(),
        "allowlist entries that no longer occur (remove them): {stale:?}"
    );
}

#[test]
fn the_library_knows_no_command_line() {
    only_in(
        &["clap::", "indicatif::", "eprintln!", "eprint!"],
        &front_end,
        COMMAND_LINE_EXCEPTIONS,
        "clap, indicatif or eprintln! outside the front end (src/main.rs, src/cli/)",
    );
}

#[test]
fn file_content_is_read_and_written_through_fsio() {
    only_in(
        &[
            "fs::read(",
            "fs::read_to_string(",
            "fs::write(",
            "File::create(",
            "File::open(",
            "OpenOptions::new(",
        ],
        &|rel: &Path| rel.starts_with("fsio"),
        FILE_IO_EXCEPTIONS,
        "file content read or written outside src/fsio",
    );
}

#[test]
fn the_checker_sees_code_only() {
    let code = code_only(
        "use crate::a; // crate::b\nlet s = \"crate::c\"; /* crate::d */ let r = r#\"crate::e\"#;\n\
         let c = '\"'; fn f<'a>(x: &'a str) { crate::f::g(); }",
    );
    assert_eq!(root_names(&code, 0), ["a", "f"]);
    assert_eq!(
        root_names("use super::super::{x::y, z};", 2),
        ["x", "z"],
        "a file two modules deep climbs to the root with super::super"
    );
    assert!(root_names("use super::x;", 2).is_empty());
    assert!(
        root_names("mod tests { use super::*; use super::super::y; }", 1) == ["y"],
        "an inline module is one more level to climb"
    );
    assert_eq!(place(Path::new("a/mod.rs")), ("a".to_string(), 1));
    assert_eq!(place(Path::new("a/b.rs")), ("a".to_string(), 2));
}

/// Every bound (`MAX_…`) has a name of its own in the crate: bounds live in `src/limits.rs`, or in
/// the one module they belong to, never two of one name with different meanings.
#[test]
fn bounds_have_one_name_each() {
    let s = sources();
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (rel, code) in &s.files {
        let mut rest = code.as_str();
        while let Some(at) = rest.find("const MAX_") {
            let name = ident_at(&rest[at + "const ".len()..]).to_string();
            rest = &rest[at + "const ".len()..];
            seen.entry(name)
                .or_default()
                .push(format!("src/{}", rel.display()));
        }
    }
    let twice: Vec<String> = seen
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("{name}: {}", files.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "bounds declared under one name more than once:\n{}",
        twice.join("\n")
    );
    assert!(
        seen.contains_key("MAX_FILE_BYTES"),
        "the scan finds the bounds"
    );
}

/// Library files (outside the front end) allowed a `Result<_, String>`, with how many: none. The
/// list stays, empty, so that a new `Result<_, String>` fails; a file with fewer than its count
/// would fail too.
const STRING_ERROR_EXCEPTIONS: &[(&str, usize)] = &[];

/// How many `Result<…, String>` types `code` (comments and strings gone) names.
fn string_errors(code: &str) -> usize {
    let b = code.as_bytes();
    let mut n = 0;
    let mut from = 0;
    while let Some(at) = code[from..].find("Result<") {
        let start = from + at + "Result<".len();
        let before = (from + at).checked_sub(1).map(|k| b[k]);
        from = start;
        // `Result` itself, not a name that ends in it (`ApiResult<String>`).
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue;
        }
        let (mut depth, mut i, mut last) = (1, start, start);
        while i < b.len() && depth > 0 {
            match b[i] {
                b'<' => depth += 1,
                b'>' if b[i - 1] != b'-' => depth -= 1,
                b',' if depth == 1 => last = i + 1,
                b';' | b'{' => break,
                _ => {}
            }
            i += 1;
        }
        if depth == 0 && code[last..i - 1].trim() == "String" {
            n += 1;
        }
    }
    n
}

#[test]
fn the_back_returns_typed_errors() {
    let s = sources();
    let allowed: BTreeMap<&str, usize> = STRING_ERROR_EXCEPTIONS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (rel, code) in &s.files {
        if front_end(rel) {
            continue;
        }
        let name = format!("src/{}", rel.display());
        let n = string_errors(code);
        let may = allowed.get(name.as_str()).copied().unwrap_or(0);
        if n != may {
            wrong.push(format!("{name}: {n} (allowed {may})"));
        }
    }
    assert!(
        wrong.is_empty(),
        "`Result<_, String>` outside the front end (return an error type, thiserror + miette \
         `Diagnostic`; lower an allowance that is no longer used):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn string_errors_are_counted() {
    assert_eq!(string_errors("fn f() -> Result<(), String> {"), 1);
    assert_eq!(
        string_errors("fn f() -> Result<Vec<(String, u8)>, String> {"),
        1
    );
    assert_eq!(string_errors("x: HashMap<String, Result<V, String>>,"), 1);
    assert_eq!(string_errors("fn f() -> Result<String, E> {"), 0);
    assert_eq!(string_errors("fn f() -> ApiResult<String> {"), 0);
    assert_eq!(
        string_errors("fn f() -> Result<Box<dyn Fn() -> u8>, E> {"),
        0
    );
}

/// Functions longer than this many lines are split (tables aside, which say so in a comment).
const MAX_FUNCTION_LINES: usize = 150;

/// Functions still longer than [`MAX_FUNCTION_LINES`] ("file: name"), to be split; the list may
/// only shrink.
const LONG_FUNCTION_EXCEPTIONS: &[&str] = &[];

/// Every function of `code` with a body: (name, lines from its `fn` to its closing brace).
fn function_lengths(code: &str) -> Vec<(String, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = code[at..].find("fn ") {
        let start = at + found;
        at = start + 3;
        if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
            continue;
        }
        let name = ident_at(&code[start + 3..]).to_string();
        if name.is_empty() {
            continue;
        }
        // The body's opening brace, unless a `;` ends a declaration first. Braces in the
        // signature's generics (`impl Fn() -> T`) do not occur before the body.
        let Some(open) = code[start..].find(['{', ';']).map(|k| start + k) else {
            break;
        };
        if b[open] == b';' {
            continue;
        }
        let mut depth = 0usize;
        let mut close = open;
        for (k, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let lines = code[start..=close].lines().count();
        out.push((name, lines));
    }
    out
}

#[test]
fn functions_are_short() {
    let s = sources();
    let allowed: BTreeSet<&str> = LONG_FUNCTION_EXCEPTIONS.iter().copied().collect();
    let mut long = Vec::new();
    let mut used = BTreeSet::new();
    for (rel, code) in &s.files {
        let original = std::fs::read_to_string(root().join("src").join(rel)).unwrap_or_default();
        for (name, lines) in function_lengths(code) {
            if lines <= MAX_FUNCTION_LINES {
                continue;
            }
            let key = format!("src/{}: {name}", rel.display());
            // A table says so in the comment just above its signature (`fn NAME(` exactly, not
            // a function whose name starts the same).
            let table = ["(", "<"].iter().any(|open| {
                original
                    .find(&format!("fn {name}{open}"))
                    .is_some_and(|at| {
                        original[..at]
                            .lines()
                            .rev()
                            .take(4)
                            .any(|l| l.contains("(a table"))
                    })
            });
            if table {
                continue;
            }
            if allowed.contains(key.as_str()) {
                used.insert(key);
            } else {
                long.push(format!("{key} ({lines} lines)"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split them):\n{}",
        long.join("\n")
    );
    let stale: Vec<_> = allowed.iter().filter(|k| !used.contains(**k)).collect();
    assert!(
        stale.is_empty(),
        "LONG_FUNCTION_EXCEPTIONS entries that no longer occur (remove them): {stale:?}"
    );
}

#[test]
fn function_lengths_are_measured() {
    let code =
        "fn a() {\n    if x { y }\n}\ntrait T { fn b(&self); }\nfn c<F: Fn()>(f: F) -> u8 { 1 }\n";
    assert_eq!(
        function_lengths(code),
        [("a".to_string(), 3), ("c".to_string(), 1)]
    );
}
