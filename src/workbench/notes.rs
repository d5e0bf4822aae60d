//! The commands players' tools write inside PDN comments, `[%name args]`: the clock
//! (`[%clock …]`, `[%clk …]`), the engine's evaluation (`[%eval 0.35]`), and shapes drawn on the
//! board (`[%draw arrow,32,28,green]`, `[%draw circle,28,red]`). A comment is kept as written;
//! these read it and write it back with its shapes changed.

/// A comment's text without its commands, and the commands (name, arguments) in order.
pub fn split_commands(comment: &str) -> (String, Vec<(String, String)>) {
    let mut text = String::new();
    let mut commands = Vec::new();
    let mut rest = comment;
    while let Some(at) = rest.find("[%") {
        let Some(end) = rest[at..].find(']') else {
            break;
        };
        text.push_str(&rest[..at]);
        let body = rest[at + 2..at + end].trim();
        let (name, args) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        commands.push((name.to_string(), args.trim().to_string()));
        rest = &rest[at + end + 1..];
    }
    text.push_str(rest);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (text, commands)
}

/// The colours a shape may have.
pub const COLOURS: &[&str] = &["green", "red", "blue", "yellow"];

/// A shape drawn on the board: an arrow between two squares, or a circle round one (`to` is
/// `None`); squares by the names the board gives them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub from: String,
    #[serde(default)]
    pub to: Option<String>,
    pub colour: String,
}

impl Shape {
    /// A `[%draw …]` command's arguments as a shape (`None` when they are not one).
    pub fn parse(args: &str) -> Option<Shape> {
        let parts: Vec<&str> = args.split(',').map(str::trim).collect();
        let colour = |c: Option<&&str>| c.map_or("green", |c| c).to_string();
        match parts.as_slice() {
            ["arrow", from, to, rest @ ..] => Some(Shape {
                from: from.to_string(),
                to: Some(to.to_string()),
                colour: colour(rest.first()),
            }),
            ["circle", sq, rest @ ..] => Some(Shape {
                from: sq.to_string(),
                to: None,
                colour: colour(rest.first()),
            }),
            _ => None,
        }
    }

    /// The `[%draw …]` command that writes this shape.
    pub fn command(&self) -> String {
        match &self.to {
            Some(to) => format!("[%draw arrow,{},{to},{}]", self.from, self.colour),
            None => format!("[%draw circle,{},{}]", self.from, self.colour),
        }
    }
}

/// What a comment says, read for the page: its text, clock, evaluation and shapes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Read {
    pub text: String,
    pub clock: Option<String>,
    pub eval: Option<String>,
    pub shapes: Vec<Shape>,
}

pub fn read(comment: &str) -> Read {
    let (text, commands) = split_commands(comment);
    let mut r = Read {
        text,
        ..Read::default()
    };
    for (name, args) in commands {
        match name.as_str() {
            "clock" | "clk" => r.clock = Some(args),
            "eval" => r.eval = Some(args),
            "draw" => r.shapes.extend(Shape::parse(&args)),
            _ => {}
        }
    }
    r
}

/// A comment with its text and shapes replaced (`None`: kept), its other commands (clock,
/// evaluation…) kept as they were.
pub fn rewrite(comment: &str, text: Option<&str>, shapes: Option<&[Shape]>) -> String {
    let (old_text, commands) = split_commands(comment);
    let mut parts: Vec<String> = Vec::new();
    for (name, args) in &commands {
        if name == "draw" && shapes.is_some() {
            continue;
        }
        parts.push(format!("[%{name} {args}]"));
    }
    if let Some(shapes) = shapes {
        parts.extend(shapes.iter().map(Shape::command));
    }
    let text = text.map(str::trim).unwrap_or(&old_text);
    if !text.is_empty() {
        parts.push(text.to_string());
    }
    parts.join(" ")
}

/// Replace a comment's command `name` (the review's `[%eval …]`), keeping the rest.
pub fn set_command(comment: &str, name: &str, args: &str) -> String {
    let (text, commands) = split_commands(comment);
    let mut parts: Vec<String> = commands
        .iter()
        .filter(|(n, _)| n != name)
        .map(|(n, a)| format!("[%{n} {a}]"))
        .collect();
    parts.insert(0, format!("[%{name} {args}]"));
    if !text.is_empty() {
        parts.push(text);
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_and_written_back() {
        let c = "[%clock W0:04:58 B0:05:00] good move [%draw arrow,32,28,red] [%eval -0.5]";
        let r = read(c);
        assert_eq!(r.text, "good move");
        assert_eq!(r.clock.as_deref(), Some("W0:04:58 B0:05:00"));
        assert_eq!(r.eval.as_deref(), Some("-0.5"));
        assert_eq!(r.shapes.len(), 1);
        assert_eq!(r.shapes[0].to.as_deref(), Some("28"));
        let circle = Shape {
            from: "19".into(),
            to: None,
            colour: "blue".into(),
        };
        let w = rewrite(c, None, Some(std::slice::from_ref(&circle)));
        assert_eq!(
            w,
            "[%clock W0:04:58 B0:05:00] [%eval -0.5] [%draw circle,19,blue] good move"
        );
        assert_eq!(read(&w).shapes, vec![circle]);
        let e = set_command(&w, "eval", "1.25");
        assert!(e.starts_with("[%eval 1.25] [%clock"), "{e}");
        assert_eq!(read(&e).eval.as_deref(), Some("1.25"));
        // A `[%` that never closes is text.
        assert_eq!(read("oops [%draw").text, "oops [%draw");
    }
}
