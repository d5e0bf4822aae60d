//! Small helpers shared by every layer: edit distance for did-you-mean, [`bad`] (a diagnostic and
//! its help line), and the one hash ([`Fnv`]) behind every identity damelab records (the rules'
//! fingerprint, weights and table checksums).

/// A diagnostic with its help line, for a refusal that has no error type of its own yet (the one
/// copy of what the run commands and their files used to define each for themselves).
pub fn bad(message: impl Into<String>, help: &str) -> miette::Report {
    miette::miette!(help = help.to_string(), "{}", message.into())
}

/// FNV-1a, 64 bits: the one hash of file identities and checksums. Not for hash tables of
/// untrusted keys (it is not keyed), and never changed: files record its values.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// The hash after `bytes`, continued from this one.
    pub fn write(mut self, bytes: &[u8]) -> Self {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    /// The hash of `bytes` alone.
    pub fn of(bytes: &[u8]) -> u64 {
        Fnv::default().write(bytes).0
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

/// Edit distance between two strings (Levenshtein, by characters).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, c)| d <= 2.max(c.len() / 3))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// A piece's name for `n` pieces: `man`, `men`; `king`, `kings`; `witch`, `witches`.
pub fn plural(name: &str, n: usize) -> String {
    if n == 1 {
        name.to_string()
    } else if let Some(stem) = name.strip_suffix("man") {
        format!("{stem}men")
    } else if name.ends_with('s') || name.ends_with("sh") || name.ends_with("ch") {
        format!("{name}es")
    } else {
        format!("{name}s")
    }
}

/// A count of plies: `1 ply`, `14 plies`.
pub fn plies(n: impl Into<u64>) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

/// `45 s`, `3 min 20 s`, `2 h 5 min`.
pub fn human_seconds(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// `1.2 GiB`, `340 MiB`.
pub fn human_bytes(b: u64) -> String {
    let mib = b as f64 / (1024.0 * 1024.0);
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kng", "king"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(
            closest("turksh", ["dameo", "turkish"].into_iter()),
            Some("turkish")
        );
        assert_eq!(closest("xyzzy", ["dameo", "turkish"].into_iter()), None);
    }

    #[test]
    fn a_count_of_plies_reads_in_the_singular_for_one() {
        assert_eq!(plies(1u16), "1 ply");
        assert_eq!(plies(14u16), "14 plies");
        assert_eq!(plies(0u64), "0 plies");
    }

    #[test]
    fn fnv_is_fnv1a() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(Fnv::of(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Fnv::of(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv::of(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(
            Fnv::default().write(b"foo").write(b"bar").finish(),
            Fnv::of(b"foobar")
        );
    }
}
