//! The memory a setting implies, checked against what the machine has before the work starts:
//! a limit is only a limit if the program survives it.

use miette::Diagnostic;

/// A setting that needs more memory than the machine (or the process's limit) has available.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{setting} needs about {need} of memory, but this machine has {available} available")]
#[diagnostic(code(damelab::memory), help("{help}"))]
pub struct MemoryError {
    pub setting: String,
    pub need: String,
    pub available: String,
    help: String,
}

/// The memory available for new work, in bytes: the least of `MemAvailable` of `/proc/meminfo`
/// (Linux), the process's limits (`RLIMIT_AS`, `RLIMIT_DATA`, less what it uses already) and its
/// cgroup's `memory.max` (less `memory.current`); `None` where none of them says.
pub fn available_memory() -> Option<u64> {
    if let Ok(v) = std::env::var("DAMELAB_MEM_AVAILABLE") {
        // For the tests: pretend the machine has this many bytes available.
        return v.trim().parse().ok();
    }
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| parse_meminfo(&t));
    [machine, rlimit_room(), cgroup_room()]
        .into_iter()
        .flatten()
        .min()
}

/// Room left under the process's address-space and data limits (`ulimit -v`, `ulimit -d`).
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // rlim_t is u64 on Linux, not everywhere
fn rlimit_room() -> Option<u64> {
    let used = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<u64>().ok())
        // SAFETY: sysconf only reads a system constant.
        .map_or(0, |pages| {
            pages.saturating_mul(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64)
        });
    [libc::RLIMIT_AS, libc::RLIMIT_DATA]
        .into_iter()
        .filter_map(|r| {
            let mut lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit writes the struct it is given, nothing else.
            let ok = unsafe { libc::getrlimit(r, &mut lim) } == 0;
            (ok && lim.rlim_cur != libc::RLIM_INFINITY)
                .then(|| (lim.rlim_cur as u64).saturating_sub(used))
        })
        .min()
}

#[cfg(not(unix))]
fn rlimit_room() -> Option<u64> {
    None
}

/// Room left under the cgroup (v2) memory limit of the process, when it has one.
fn cgroup_room() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = text.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let max = std::fs::read_to_string(dir.join("memory.max")).ok()?;
    let max: u64 = max.trim().parse().ok()?; // `max`: no limit
    let current = std::fs::read_to_string(dir.join("memory.current"))
        .ok()
        .and_then(|c| c.trim().parse::<u64>().ok())
        .unwrap_or(0);
    Some(max.saturating_sub(current))
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
