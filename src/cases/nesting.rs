//! How deeply a YAML text nests, found by a linear scan before the text goes to the YAML parser:
//! deep nesting (`[[[[…`) costs that parser time far beyond the text's size (seconds for 100 KB),
//! and no case file needs more than a few levels.

/// The deepest nesting a case file may have, flow brackets and block indentation levels together.
pub const MAX_YAML_DEPTH: usize = 64;

/// The byte offset where the nesting of `text` first passes `max` levels, if it does.
///
/// Flow collections (`[`, `{`) count one level each, outside quoted strings and comments; block
/// collections count one level per indentation step still open. The scan is a bound, not a YAML
/// parser: a text it lets through may still be refused by the parser, and only absurd text (tens
/// of brackets left open, tens of indentation steps) is refused by it.
pub fn too_deep(text: &str, max: usize) -> Option<usize> {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    let mut at = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        let blank = body.trim().is_empty() || body.starts_with('#');
        if flow == 0 && !blank {
            while indents.last().is_some_and(|&i| i >= indent) {
                indents.pop();
            }
            indents.push(indent);
            // `- - - x`: each sequence dash on one line opens a level too.
            let dashes = body.split(' ').take_while(|w| *w == "-").count();
            if indents.len() + dashes > max {
                return Some(at + indent);
            }
        }
        let depth_before = indents.len();
        let mut quote: Option<u8> = None;
        let mut prev = b' ';
        for (i, &b) in line.as_bytes().iter().enumerate() {
            match quote {
                Some(q) => {
                    if b == q {
                        quote = None;
                    }
                }
                None => match b {
                    b'#' if prev == b' ' || prev == b'\t' => break,
                    b'"' | b'\'' if matches!(prev, b' ' | b'\t' | b'[' | b'{' | b',' | b':') => {
                        quote = Some(b)
                    }
                    b'[' | b'{' => {
                        flow += 1;
                        if depth_before + flow > max {
                            return Some(at + i);
                        }
                    }
                    b']' | b'}' => flow = flow.saturating_sub(1),
                    _ => {}
                },
            }
            prev = b;
        }
        at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_flow_and_block_levels() {
        assert_eq!(too_deep("a: [[1], {b: [2]}]\n", 4), None);
        assert_eq!(too_deep("a: [[[[1]]]]\n", 3), Some(5));
        assert_eq!(too_deep("a: '[[[['\n# [[[[[\n", 2), None);
        let block = "a:\n  b:\n    c:\n      d: 1\n";
        assert_eq!(too_deep(block, 4), None);
        assert!(too_deep(block, 3).is_some());
        assert_eq!(too_deep(&"[".repeat(100_000), MAX_YAML_DEPTH), Some(63));
    }
}
