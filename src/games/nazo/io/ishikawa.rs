//! IshikawaPuyo URLs (spec §3.2): `https://ishikawapuyo.net/simu/pn.html?<field>_<steps>__<goal>`.
//!
//! Decisions (spec §9.12): garbage steps (`a0`, `amyKW…`) are not verified against real URLs, so
//! they are rejected on import and export; so are `~`-prefixed fields and hard garbage, which the
//! site's cell codes cannot express. Imported placements are checked and dropped.

use super::super::goal::{Goal, GoalColor, GoalKind, MainGoal, Operator};
use crate::games::puyo::rules::{Field, HEIGHT, Pair, Puyo, WIDTH};

use super::super::puzzle::{Puzzle, Step};
use super::{ExportError, ParseError, char_pos};

pub(super) const FORMAT: &str = "IshikawaPuyo URL";
/// How every IshikawaPuyo puzzle URL starts.
pub const PREFIX: &str = "https://ishikawapuyo.net/simu/pn.html?";
const A64: &[u8; 64] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-";
const PAIRS: &[u8; 25] = b"0coAM2eqCO4gsEQ6iuGS8kwIU";
const PLACEMENTS: &[u8; 23] = b"102468acegikoqsuwyCEGIK";
const KINDS: &[u8; 7] = b"uEGIQac";
/// Goal colour characters indexed by goal colour (all, garbage, colored, red … purple).
const COLORS: &[u8; 8] = b"06712345";
const FIELD_CHARS: usize = HEIGHT * WIDTH / 2;

fn a64(c: u8) -> Option<usize> {
    A64.iter().position(|&x| x == c)
}

fn cell_code(cell: Option<Puyo>) -> Result<usize, ExportError> {
    Ok(match cell {
        None => 0,
        Some(Puyo::Garbage) => 6,
        Some(Puyo::Hard) => return Err(export_err("hard garbage has no IshikawaPuyo cell code")),
        Some(c) => 1 + c.index(),
    })
}

fn export_err(message: &str) -> ExportError {
    ExportError { format: FORMAT, message: message.to_string() }
}

/// Writes `puzzle` as an IshikawaPuyo URL with every pair unplaced.
pub fn write(puzzle: &Puzzle) -> Result<String, ExportError> {
    let mut field = String::new();
    for r in (0..HEIGHT).rev() {
        for c in (0..WIDTH).step_by(2) {
            let code = 8 * cell_code(puzzle.field.get(c, r))? + cell_code(puzzle.field.get(c + 1, r))?;
            field.push(A64[code] as char);
        }
    }
    let field = field.trim_start_matches('0');
    let mut steps = String::new();
    for s in &puzzle.steps {
        match *s {
            Step::Pair(p) => {
                steps.push(PAIRS[5 * p.axis.index() + p.child.index()] as char);
                steps.push(PLACEMENTS[0] as char);
            }
            Step::Garbage(_) => return Err(export_err("garbage steps are not supported in IshikawaPuyo URLs")),
        }
    }
    Ok(format!("{PREFIX}{field}_{steps}__{}", write_goal(&puzzle.goal)?))
}

fn write_goal(goal: &Goal) -> Result<String, ExportError> {
    let color = |c: GoalColor| COLORS[c.index()] as char;
    Ok(match (goal.main, goal.clear) {
        (None, None) => String::new(),
        (None, Some(c)) => format!("2{}0", color(c)),
        (Some(m), clear) => {
            if m.value > 63 {
                return Err(export_err(&format!("goal value {} is above 63", m.value)));
            }
            let kind = match (m.kind, clear) {
                (_, None) => KINDS[m.kind.index()],
                (GoalKind::Chain, Some(_)) => b'w',
                (k, Some(_)) => {
                    return Err(export_err(&format!("only chain goals can carry a clear colour, not {k:?}")));
                }
            };
            let kind = (kind + m.operator as u8) as char;
            let shown = clear.unwrap_or(m.color);
            format!("{kind}{}{}", color(shown), A64[m.value as usize] as char)
        }
    })
}

/// Parses an IshikawaPuyo URL (anything up to `pn.html?` is skipped).
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let err = |byte: usize, message: String| ParseError { format: FORMAT, position: char_pos(text, byte), message };
    let start =
        text.find("pn.html?").map(|i| i + "pn.html?".len()).ok_or_else(|| err(0, "no 'pn.html?' in the URL".into()))?;
    let body = &text[start..];
    let split = body.rfind("__").ok_or_else(|| err(start, "missing '__' before the goal".into()))?;
    let (front, goal_text) = (&body[..split], &body[split + 2..]);
    let (field_text, steps_text) = front.split_once('_').unwrap_or((front, ""));
    let field = parse_field(field_text).map_err(|(i, m)| err(start + i, m))?;
    let steps_at = start + field_text.len() + 1;
    let steps = parse_steps(steps_text).map_err(|(i, m)| err(steps_at + i, m))?;
    let goal_at = start + split + 2;
    let goal = parse_goal(goal_text).map_err(|(i, m)| err(goal_at + i, m))?;
    Ok(Puzzle { field, steps, goal })
}

type Located<T> = Result<T, (usize, String)>;

fn parse_field(text: &str) -> Located<Field> {
    if text.starts_with('~') {
        return Err((0, "'~' fields are not supported".into()));
    }
    let b = text.as_bytes();
    if b.len() > FIELD_CHARS {
        return Err((FIELD_CHARS, format!("field has {} characters, at most {FIELD_CHARS}", b.len())));
    }
    let mut field = Field::default();
    let pad = FIELD_CHARS - b.len();
    for (i, &ch) in b.iter().enumerate() {
        let code = a64(ch).ok_or_else(|| (i, format!("unknown field character '{}'", char_at(text, i))))?;
        let k = pad + i;
        let row = HEIGHT - 1 - k / 3;
        for (half, code) in [(0, code / 8), (1, code % 8)] {
            let cell = match code {
                0 => None,
                6 => Some(Puyo::Garbage),
                7 => return Err((i, format!("field character '{}' decodes to cell code 7", ch as char))),
                c => Some(Puyo::color(c - 1)),
            };
            field.set(2 * (k % 3) + half, row, cell);
        }
    }
    Ok(field)
}

fn char_at(text: &str, byte: usize) -> char {
    text.get(byte..).and_then(|s| s.chars().next()).unwrap_or('?')
}

fn parse_steps(text: &str) -> Located<Vec<Step>> {
    let b = text.as_bytes();
    let mut steps = Vec::new();
    for i in (0..b.len()).step_by(2) {
        let Some(pair) = PAIRS.iter().position(|&x| x == b[i]) else {
            let what =
                if b"amyKW".contains(&b[i]) { "garbage steps are not supported" } else { "unknown pair character" };
            return Err((i, format!("{what} '{}'", char_at(text, i))));
        };
        let place = b.get(i + 1).ok_or((i, "a step needs a pair and a placement character".to_string()))?;
        if !PLACEMENTS.contains(place) {
            return Err((i + 1, format!("unknown placement character '{}'", char_at(text, i + 1))));
        }
        steps.push(Step::Pair(Pair::new(Puyo::color(pair / 5), Puyo::color(pair % 5))));
    }
    Ok(steps)
}

fn parse_goal(text: &str) -> Located<Goal> {
    let b = text.as_bytes();
    if b.is_empty() {
        return Ok(Goal::default());
    }
    if b.len() != 3 {
        return Err((0, format!("goal must be 3 characters (kind, colour, value), got '{text}'")));
    }
    let color = COLORS.iter().position(|&x| x == b[1]).and_then(GoalColor::from_index);
    let color = color.ok_or_else(|| (1, format!("unknown goal colour '{}'", char_at(text, 1))))?;
    let value = a64(b[2]).ok_or_else(|| (2, format!("unknown goal value '{}'", char_at(text, 2))))? as u32;
    let main = |kind: GoalKind, color, op| MainGoal { kind, color, value, operator: op };
    let operator = |base: u8| if b[0] == base { Operator::Exact } else { Operator::AtLeast };
    let goal = match b[0] {
        b'2' if value == 0 => Goal { main: None, clear: Some(color) },
        b'w' | b'x' => Goal { main: Some(main(GoalKind::Chain, GoalColor::All, operator(b'w'))), clear: Some(color) },
        k => {
            let idx = KINDS.iter().position(|&x| x == k || x + 1 == k);
            let idx = idx.ok_or_else(|| (0, format!("unknown goal kind '{}'", char_at(text, 0))))?;
            let kind = GoalKind::ALL[idx];
            let color = if kind.has_color() { color } else { GoalColor::All };
            Goal { main: Some(main(kind, color, operator(KINDS[idx]))), clear: None }
        }
    };
    goal.validate().map_err(|m| (0, m))?;
    Ok(goal)
}
