//! The bundled variants, embedded in the binary so damelab works from any directory.

/// (name, rules file text) of every bundled variant, in the order `damelab list` prints them.
pub const BUNDLED: &[(&str, &str)] = &[
    ("dameo", include_str!("../variants/dameo.rules")),
    ("big-dameo-4", include_str!("../variants/big-dameo-4.rules")),
    ("big-dameo-3", include_str!("../variants/big-dameo-3.rules")),
    ("turkish", include_str!("../variants/turkish.rules")),
    ("armenian", include_str!("../variants/armenian.rules")),
    ("keny", include_str!("../variants/keny.rules")),
    ("croda", include_str!("../variants/croda.rules")),
    ("damone", include_str!("../variants/damone.rules")),
    (
        "damone-three-damas",
        include_str!("../variants/damone-three-damas.rules"),
    ),
    ("damone-hunt", include_str!("../variants/damone-hunt.rules")),
    (
        "international",
        include_str!("../variants/international.rules"),
    ),
    ("brazilian", include_str!("../variants/brazilian.rules")),
    ("russian", include_str!("../variants/russian.rules")),
    ("english", include_str!("../variants/english.rules")),
    ("italian", include_str!("../variants/italian.rules")),
    ("pool", include_str!("../variants/pool.rules")),
    ("spanish", include_str!("../variants/spanish.rules")),
    ("czech", include_str!("../variants/czech.rules")),
    ("frisian", include_str!("../variants/frisian.rules")),
    ("frysk", include_str!("../variants/frysk.rules")),
    (
        "antidraughts",
        include_str!("../variants/antidraughts.rules"),
    ),
    (
        "breakthrough",
        include_str!("../variants/breakthrough.rules"),
    ),
    ("poddavki", include_str!("../variants/poddavki.rules")),
    ("giveaway", include_str!("../variants/giveaway.rules")),
    ("doov", include_str!("../variants/doov.rules")),
    ("maleys", include_str!("../variants/maleys.rules")),
    ("makvoer", include_str!("../variants/makvoer.rules")),
    ("thai", include_str!("../variants/thai.rules")),
    ("killer", include_str!("../variants/killer.rules")),
    ("canadian", include_str!("../variants/canadian.rules")),
    ("sri-lankan", include_str!("../variants/sri-lankan.rules")),
    ("malaysian", include_str!("../variants/malaysian.rules")),
    ("moo", include_str!("../variants/moo.rules")),
    (
        "philippine-dama",
        include_str!("../variants/philippine-dama.rules"),
    ),
    ("ghanaian", include_str!("../variants/ghanaian.rules")),
    ("dum-blas", include_str!("../variants/dum-blas.rules")),
    ("zamma", include_str!("../variants/zamma.rules")),
    (
        "dablot-prejjesne",
        include_str!("../variants/dablot-prejjesne.rules"),
    ),
    ("hexdame", include_str!("../variants/hexdame.rules")),
    ("fanorona", include_str!("../variants/fanorona.rules")),
    ("comoros", include_str!("../variants/comoros.rules")),
    (
        "mraha-wa-bwe",
        include_str!("../variants/mraha-wa-bwe.rules"),
    ),
    ("lasca", include_str!("../variants/lasca.rules")),
    ("bashni", include_str!("../variants/bashni.rules")),
    ("damspel", include_str!("../variants/damspel.rules")),
];

/// The variant `damelab` opens when none is named.
pub const DEFAULT: &str = "dameo";

/// The text of a bundled variant's rules file.
pub fn bundled(name: &str) -> Option<&'static str> {
    BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
