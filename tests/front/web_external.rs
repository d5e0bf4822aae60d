//! Analysis by an external Hub engine named on the server's command line (`damelab serve --engine
//! 'cmd=… name=…'`): `damelab hub` itself as the engine, in both protocols; an engine that
//! crashes or hangs ends its analysis with the reason and the server goes on; an unknown engine
//! is refused in words.

use super::web_api::{assert_error, get, ok, post, scratch, Server};
use super::web_streams::events;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_damelab");

/// The server on International draughts with the external engine of `settings`.
fn serve_with(settings: &str) -> Server {
    let root = scratch("external");
    let spec =
        damelab::matchplay::engine::EngineSpec::parse(&["movetime=10".to_string()], settings)
            .unwrap();
    let opts = damelab::web::Options {
        variant: damelab::Variant::load("international").unwrap(),
        text: damelab::variants::bundled("international")
            .unwrap()
            .to_string(),
        path: None,
        host: "127.0.0.1".into(),
        port: 0,
        root: root.clone(),
        cache: Some(root.join("tables")),
        engine: Some(spec),
    };
    let (addr, tx, thread) = crate::common::serve_in_thread(opts);
    Server {
        addr,
        stop: Some(tx),
        thread: Some(thread),
    }
}

/// `damelab hub` as the engine, with a home and a cache of its own (as every spawned binary), and
/// a margin of 10 s past the analysis's time: on a loaded machine (a whole `cargo test` beside a
/// match) the analysis once ended without a move, most likely a 0.5 s search answering past the
/// default 1 s margin (a time forfeit, the documented behaviour and not what this test is about).
fn hub(protocol: u8) -> String {
    let home = crate::common::temp_home();
    format!(
        "name=hub{protocol} margin=10 cmd=\"env HOME={h} DAMELAB_CACHE={h}/cache {BIN} hub international --protocol {protocol}\"",
        h = home.display()
    )
}

fn analyse(srv: &Server, engine: &str, seconds: f64) -> Value {
    let r = ok(post(
        srv,
        "/api/analyse",
        json!({ "seconds": seconds, "engine": engine }),
    ));
    let evs = events(srv, r["stream"].as_str().unwrap(), "done", 60);
    let (_, done) = evs.iter().find(|(n, _)| n == "done").expect("done");
    done.clone()
}

#[test]
fn damelab_hub_analyses_from_the_page_in_both_protocols() {
    for protocol in [2, 1] {
        let srv = serve_with(&hub(protocol));
        let name = format!("hub{protocol}");
        let engines = ok(get(&srv, "/api/engines"));
        assert_eq!(
            engines["engines"],
            json!([{ "name": "damelab", "external": false }, { "name": name, "external": true }])
        );
        ok(post(&srv, "/api/play", json!({ "moves": ["32-28"] })));
        let r = ok(post(
            &srv,
            "/api/analyse",
            json!({ "seconds": 0.5, "engine": name }),
        ));
        let evs = events(&srv, r["stream"].as_str().unwrap(), "done", 60);
        let (_, info) = evs
            .iter()
            .find(|(n, _)| n == "info")
            .unwrap_or_else(|| panic!("an info: {evs:?}"));
        assert_eq!(info["engine"], name.as_str());
        assert!(info["depth"].as_u64().unwrap() >= 1, "{info}");
        assert!(info["score"].as_str().is_some(), "{info}");
        let (_, done) = evs.iter().find(|(n, _)| n == "done").expect("done");
        let best = done["best"]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{done}"));
        let state = ok(get(&srv, "/api/state"));
        assert!(
            super::web_api::legal_texts(&state)
                .iter()
                .any(|t| t == best),
            "{best} is one of Black's moves"
        );
        // damelab's own search is still there, by name or by default.
        let own = analyse(&srv, "damelab", 0.2);
        assert!(own["best"]["text"].is_string(), "{own}");
        assert!(own.get("engine").is_none(), "{own}");
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_crashes_or_hangs_ends_its_analysis_not_the_server() {
    let srv = serve_with("name=broken cmd=\"sh -c 'exit 3'\"");
    let done = analyse(&srv, "broken", 0.2);
    assert_eq!(done["best"], Value::Null);
    let error = done["error"].as_str().unwrap();
    assert!(error.starts_with("engine `broken`: crashed"), "{error}");
    ok(get(&srv, "/api/state"));
    // An engine that starts and then never answers `go`: its time and margin (0.2 + 0.5 s).
    let dir = scratch("hang");
    let script = dir.join("hang.sh");
    std::fs::write(
        &script,
        "while read l; do case \"$l\" in hub) echo wait;; init) echo ready;; quit) exit 0;; esac; done\n",
    )
    .unwrap();
    let srv = serve_with(&format!(
        "name=silent margin=0.5 cmd=\"sh {}\"",
        script.display()
    ));
    let done = analyse(&srv, "silent", 0.2);
    let error = done["error"].as_str().unwrap();
    assert!(error.contains("time forfeit"), "{error}");
    // The server still answers, and damelab's own search still works.
    let own = analyse(&srv, "damelab", 0.2);
    assert!(own["best"]["text"].is_string(), "{own}");
}

#[test]
fn an_engine_the_server_does_not_have_is_refused_in_words() {
    let srv = super::web_api::start("international");
    assert_eq!(
        ok(get(&srv, "/api/engines"))["engines"],
        json!([{ "name": "damelab", "external": false }])
    );
    let r = post(
        &srv,
        "/api/analyse",
        json!({ "seconds": 0.2, "engine": "scan" }),
    );
    assert_error(&r, 422);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("there is no engine `scan`"));
}
