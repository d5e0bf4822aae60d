//! The PDN files of runs: each game's text starts with the line of its `Event` tag (every run
//! writes its games so), which is how a shard's file is cut into its games again for a merge.

/// The games of a PDN file a run wrote, each from its `Event` tag's line to the next one, with
/// the line number it starts on (from 1). Text before the first `Event` line belongs to no game.
pub fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if line.starts_with("[Event ") {
            starts.push((n + 1, at));
        }
        at += line.len();
    }
    starts
        .iter()
        .enumerate()
        .map(|(j, &(line, s))| {
            let end = starts.get(j + 1).map_or(text.len(), |x| x.1);
            (line, &text[s..end])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_start_at_their_event_line() {
        let text = "% a note\n[Event \"a\"]\n1. a1-a2 *\n\n[Event \"b\"]\n[Round \"2\"]\n*\n";
        let games = split_games(text);
        assert_eq!(
            games,
            [
                (2, "[Event \"a\"]\n1. a1-a2 *\n\n"),
                (5, "[Event \"b\"]\n[Round \"2\"]\n*\n")
            ]
        );
        assert!(split_games("no games here\n").is_empty());
    }
}
