//! The memory a setting implies, checked against what the machine has before the work starts:
//! a limit is only a limit if the program survives it.

use miette::Diagnostic;

/// A setting that needs more memory than the machine has available.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{setting} needs about {need} of memory, but this machine has {available} available")]
#[diagnostic(code(damelab::memory), help("{help}"))]
pub struct MemoryError {
    pub setting: String,
    pub need: String,
    pub available: String,
    help: String,
}

/// The memory available for new work, in bytes: `MemAvailable` of `/proc/meminfo` (Linux);
/// `None` where the system does not say.
pub fn available_memory() -> Option<u64> {
    if let Ok(v) = std::env::var("DAMELAB_MEM_AVAILABLE") {
        // For the tests: pretend the machine has this many bytes available.
        return v.trim().parse().ok();
    }
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text)
}

fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line
        .trim_start_matches("MemAvailable:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// Refuse a setting (`--hash 65536`) that needs `need` bytes when the machine has less available.
/// Where the available memory is unknown the setting is let through.
pub fn check_memory(setting: &str, need: u64, help: &str) -> Result<(), MemoryError> {
    match available_memory() {
        Some(avail) if need > avail => Err(MemoryError {
            setting: setting.into(),
            need: human(need),
            available: human(avail),
            help: help.into(),
        }),
        _ => Ok(()),
    }
}

/// `1.5 GiB`, `64.0 MiB`, `512 bytes`.
fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_meminfo() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(parse_meminfo(text), Some(2048 * 1024));
        assert_eq!(parse_meminfo("MemTotal: 1 kB\n"), None);
        assert_eq!(human(64 << 30), "64.0 GiB");
        assert_eq!(human(100), "100 bytes");
    }
}
