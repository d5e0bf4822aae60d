//! `leaping a row of adjacent pieces` (issue 47, item 7): `explain` names the rows a capture
//! leapt, and the moves of `moo`'s king (the case file `tests/cases/moo.yaml` lists them whole).

use damelab::explain::explain;
use damelab::notation::parse_fen;
use damelab::Variant;

#[test]
fn explain_names_the_rows_leapt() {
    let v = Variant::load("moo").expect("moo is bundled");
    let pos = parse_fen(&v.rules, "B:BKa1:Rc3,d4,f6,g7").expect("valid FEN");
    let text = explain(&v.rules, &pos, "a1xe5xh8").expect("explains");
    assert!(
        text.contains("takes 4")
            && text.contains("the row c3, d4 and the row f6, g7 each in one jump"),
        "{text}"
    );
    let text = explain(&v.rules, &pos, "a1xe5").expect("explains");
    assert!(text.contains("the row c3, d4 in one jump"), "{text}");
    // A capture without a row says nothing of rows.
    let pos = parse_fen(&v.rules, "B:BKa1:Rc3,e5").expect("valid FEN");
    let text = explain(&v.rules, &pos, "a1xd4xf6").expect("explains");
    assert!(!text.contains("row"), "{text}");
}
