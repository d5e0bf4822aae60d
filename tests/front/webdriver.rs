//! The one WebDriver client of the browser tests (`web_browser.rs`, `web_browser_review.rs`):
//! chromedriver started on a free port, a headless Chromium session, and plain HTTP/JSON to it —
//! navigate, run a script, wait for an expression, click (again when the page redrew the element),
//! take screenshots. Every wait and every read is bounded in time.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium and chromedriver, when both are installed; else `None`, the reason printed (the
/// browser tests then skip).
pub(crate) fn chromium() -> Option<(PathBuf, PathBuf)> {
    match (
        find(&["chromium", "chromium-browser"]),
        find(&["chromedriver"]),
    ) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            println!(
                "skipped: chromium and chromedriver are not installed \
                 (apt-get install -y chromium chromium-driver)"
            );
            None
        }
    }
}

pub(crate) fn find(names: &[&str]) -> Option<PathBuf> {
    for n in names {
        for dir in ["/usr/bin", "/usr/lib/chromium", "/usr/local/bin"] {
            let p = Path::new(dir).join(n);
            if p.exists() {
                return Some(p);
            }
        }
    }
    None
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 exchange (at most 60 s). chromedriver keeps connections open whatever the
/// request says, so the body is read by its length, not to the end of the connection.
pub(crate) fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let b = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
        b.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    let deadline = Instant::now() + Duration::from_secs(60);
    let body = loop {
        let n = s.read(&mut chunk).unwrap_or(0);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..i]).to_ascii_lowercase();
            let body = &buf[i + 4..];
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            match len {
                Some(len) if body.len() >= len => {
                    break String::from_utf8_lossy(&body[..len]).into_owned()
                }
                None if head.contains("transfer-encoding: chunked")
                    && body.ends_with(b"0\r\n\r\n") =>
                {
                    break dechunk(&String::from_utf8_lossy(body))
                }
                _ => {}
            }
        }
        if n == 0 || Instant::now() > deadline {
            let i = buf
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map_or(0, |i| i + 4);
            break String::from_utf8_lossy(&buf[i..]).into_owned();
        }
    };
    serde_json::from_str(&body).unwrap_or(Value::Null)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

fn base64(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(val) {
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

pub(crate) struct Driver {
    child: Child,
    addr: SocketAddr,
    session: String,
    shots: PathBuf,
    n: usize,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = http(self.addr, "DELETE", &path, None);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// chromedriver on a free port and a headless Chromium session in a window of `size`
    /// (width, height), its profile in `profile`, screenshots to `shots`.
    pub(crate) fn start(
        chromium: &Path,
        chromedriver: &Path,
        profile: &Path,
        shots: PathBuf,
        size: (u32, u32),
    ) -> Driver {
        let port = free_port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let t = Instant::now();
        while TcpStream::connect(addr).is_err() {
            assert!(t.elapsed() < Duration::from_secs(20), "chromedriver up");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut d = Driver {
            child,
            addr,
            session: String::new(),
            shots,
            n: 0,
        };
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.display().to_string(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", format!("--window-size={},{}", size.0, size.1),
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let r = http(addr, "POST", "/session", Some(&caps));
        d.session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("a WebDriver session: {r}"))
            .to_string();
        d
    }

    pub(crate) fn cmd(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}/{what}", self.session);
        let r = http(self.addr, method, &path, body.as_ref());
        if r["value"].get("error").is_some() {
            panic!("webdriver {what}: {}", r["value"]);
        }
        r["value"].clone()
    }

    pub(crate) fn go(&self, url: &str) {
        self.cmd("POST", "url", Some(json!({ "url": url })));
    }

    pub(crate) fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Wait (at most `secs`) until the expression is true in the page.
    pub(crate) fn wait(&self, expr: &str, secs: u64) {
        let t = Instant::now();
        loop {
            if self.js(&format!("return !!({expr});")) == json!(true) {
                return;
            }
            if t.elapsed() > Duration::from_secs(secs) {
                let msg = self.js("return ['message', 'pdn-msg', 'coll-msg', 'review-msg']\
                     .map(id => document.getElementById(id).textContent).join(' / ')");
                self.shot("timeout");
                panic!("waited {secs} s for `{expr}`; the page says {msg}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Click the element `css` selects. The page redraws the board after every move, so an
    /// element found just before a redraw may be gone when the click arrives ("stale element
    /// reference"): then find it again, a bounded number of times.
    pub(crate) fn click(&self, css: &str) {
        let mut last = Value::Null;
        for _ in 0..40 {
            let path = format!("/session/{}/element", self.session);
            let find = json!({ "using": "css selector", "value": css });
            let e = http(self.addr, "POST", &path, Some(&find));
            let id = e["value"]
                .as_object()
                .filter(|o| o.get("error").is_none())
                .and_then(|o| o.values().next())
                .and_then(Value::as_str)
                .map(str::to_string);
            if let Some(id) = id {
                let path = format!("/session/{}/element/{id}/click", self.session);
                let r = http(self.addr, "POST", &path, Some(&json!({})));
                match r["value"].get("error").and_then(Value::as_str) {
                    None => return,
                    Some("stale element reference") | Some("element click intercepted") => {
                        last = r["value"].clone()
                    }
                    Some(_) => panic!("webdriver click `{css}`: {}", r["value"]),
                }
            } else {
                last = e["value"].clone();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("element `{css}` could not be clicked in 4 s: {last}");
    }

    /// Click the square of this name on the board.
    pub(crate) fn square(&self, name: &str) {
        self.click(&format!("#board rect.sq[data-name=\"{name}\"]"));
    }

    /// Click the square of this algebraic name (on numbered boards too).
    pub(crate) fn square_alg(&self, alg: &str) {
        self.click(&format!("#board rect.sq[data-alg=\"{alg}\"]"));
    }

    pub(crate) fn shot(&self, name: &str) {
        let v = self.cmd("GET", "screenshot", None);
        let png = base64(v.as_str().unwrap_or(""));
        let _ = std::fs::create_dir_all(&self.shots);
        let _ = std::fs::write(self.shots.join(format!("{name}.png")), png);
    }

    /// A screenshot of one element only (the pictures in docs/web.md: smaller than the window's).
    pub(crate) fn shot_of(&self, css: &str, name: &str) {
        let find = json!({ "using": "css selector", "value": css });
        let e = self.cmd("POST", "element", Some(find));
        let Some(id) = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
        else {
            panic!("no element `{css}` to take a picture of: {e}");
        };
        let v = self.cmd("GET", &format!("element/{id}/screenshot"), None);
        let png = base64(v.as_str().unwrap_or(""));
        let _ = std::fs::create_dir_all(&self.shots);
        let _ = std::fs::write(self.shots.join(format!("{name}.png")), png);
    }

    pub(crate) fn step(&mut self, name: &str) {
        self.n += 1;
        let n = self.n;
        self.shot(&format!("{n:02}-{name}"));
    }

    pub(crate) fn moves(&self) -> usize {
        self.js("return document.querySelectorAll('#moves .mv').length")
            .as_u64()
            .unwrap_or(0) as usize
    }

    /// A right-button press on square `a` and its release on `b` (a circle when they are one).
    pub(crate) fn right_drag(&self, a: &str, b: &str) {
        self.js(&format!(
            "const c = (n) => {{ const q = state.board.squares.find(x => x.name === n); \
             const r = document.querySelector('#board rect[data-sq=\"' + q.sq + '\"]').getBoundingClientRect(); \
             return {{ clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, button: 2, bubbles: true }}; }}; \
             const svg = document.getElementById('board-svg'); \
             svg.dispatchEvent(new PointerEvent('pointerdown', c('{a}'))); \
             svg.dispatchEvent(new PointerEvent('pointerup', c('{b}')));"
        ));
    }

    /// The server time of the last request to this API path (the `Server-Timing` header).
    pub(crate) fn server_ms(&self, path: &str) -> f64 {
        self.js(&format!(
            "const e = performance.getEntriesByType('resource').filter(e => e.name.endsWith('{path}')).pop();\
             return e && e.serverTiming.length ? e.serverTiming[0].duration : -1;"
        ))
        .as_f64()
        .unwrap_or(-1.0)
    }
}
