//! `damelab serve`: the web workbench on a local address — the variant loaded, a warning when the
//! address is not the loopback one, the URL printed (and opened in a browser with `--open`),
//! Ctrl-C for a clean stop.

use super::console::{errln, outln};
use crate::matchplay::engine::EngineSpec;
use crate::web::Options;
use crate::Variant;
use std::path::PathBuf;

/// `damelab serve VARIANT`: load the variant (a bundled name or a rules file), warn when the
/// address is not the loopback one, and serve.
pub fn serve(
    variant: &str,
    host: &str,
    port: u16,
    open: bool,
    engine: Option<&str>,
) -> Result<(), miette::Report> {
    let v = Variant::load(variant).map_err(miette::Report::new)?;
    let engine = engine.map(external_engine).transpose()?;
    let (text, path) = match crate::variants::bundled(variant) {
        Some(t) => (t.to_string(), None),
        None => {
            let p = PathBuf::from(variant);
            let t = crate::fsio::read_text(&p, crate::fsio::Kind::Rules)
                .map_err(|e| miette::miette!("cannot read `{variant}`: {e}"))?;
            (t, Some(p))
        }
    };
    if host.parse::<std::net::IpAddr>().is_err() {
        return Err(miette::miette!(
            help = "give an IP address, e.g. `--host 127.0.0.1`",
            "`{host}` is not an IP address to listen on"
        ));
    }
    if host != "127.0.0.1" && host != "::1" {
        errln!(
            "warning: listening on {host}: other machines can reach this server and run searches \
             on it; the default 127.0.0.1 keeps it to this machine"
        );
    }
    let root = std::env::current_dir()
        .map_err(|e| miette::miette!("cannot read the current folder: {e}"))?;
    let opts = Options {
        variant: v,
        text,
        path,
        host: host.to_string(),
        port,
        root,
        cache: crate::endgame::store::default_dir(),
        engine,
    };
    run(opts, open).map_err(|e| {
        miette::miette!(
            help = "is another server on that port? try `--port 0` for a free one",
            "cannot serve on {host}:{port}: {e}"
        )
    })
}

/// `--engine SETTINGS`: an external Hub engine, its settings read as `damelab match` reads an
/// engine's (a time per move is there by default: the page gives its own).
fn external_engine(text: &str) -> Result<EngineSpec, miette::Report> {
    let spec =
        EngineSpec::parse(&["movetime=10".to_string()], text).map_err(miette::Report::new)?;
    if spec.cmd.is_none() {
        return Err(miette::miette!(
            help = "e.g. --engine 'name=scan cmd=\"scan hub\"'",
            "`--engine {text}` names no command: the page's own engine needs no `--engine`; give \
             an external Hub engine's `cmd=`"
        ));
    }
    Ok(spec)
}

/// `damelab serve` from the command line: a runtime of two worker threads (searches run on their
/// own threads), Ctrl-C for a clean stop, the URL printed when ready.
fn run(opts: Options, open: bool) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        crate::web::serve(
            opts,
            |addr| {
                let url = format!("http://{addr}/");
                outln!("damelab serve: {url}  (Ctrl-C stops it)");
                if open {
                    open_browser(&url);
                }
            },
            stop,
        )
        .await
    })?;
    // Searches and studies still running are stopped by their dropped streams; the process ends
    // here without waiting for them.
    outln!("stopped");
    Ok(())
}

/// Open the URL in the desktop's browser (`xdg-open`, `open`); failing that, the URL printed
/// above is enough.
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(cmd)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_err()
    {
        errln!("could not start `{cmd}`: open {url} in a browser");
    }
}
