//! The pon2 query format (spec §3.1): `field=0_<cells>&steps=<steps>&goal=<goal>`.
//!
//! Decisions (spec §9.11): a pair may carry a recorded placement (`rg3N`); it is checked and
//! dropped, since the model stores only the question. Unknown keys are rejected, because a key
//! such as a mode could change what the puzzle means. A leading `...?` (a full URL) is skipped.

use super::super::goal::{Goal, GoalColor, GoalKind, MainGoal, Operator};
use crate::games::puyo::rules::{Field, HEIGHT, Pair, WIDTH};

use super::super::puzzle::{Puzzle, Step, from_letter, letter, parse_placement_pon2};
use super::{ParseError, char_pos};

pub(super) const FORMAT: &str = "pon2 query";

/// Writes `puzzle` as a pon2 query (every puzzle can be written).
pub fn write(puzzle: &Puzzle) -> String {
    let cells: String = (0..HEIGHT)
        .rev()
        .flat_map(|r| (0..WIDTH).map(move |c| (c, r)))
        .map(|(c, r)| puzzle.field.get(c, r).map_or('.', letter))
        .collect();
    let cells = cells.trim_start_matches('.');
    let steps: String = puzzle
        .steps
        .iter()
        .map(|s| match *s {
            Step::Pair(p) => format!("{}{}", letter(p.axis), letter(p.child)),
            Step::Garbage(counts) => {
                format!("o{}o", counts.iter().map(|n| n.to_string()).collect::<Vec<_>>().join("_"))
            }
        })
        .collect();
    let steps = if steps.is_empty() { "steps".to_string() } else { format!("steps={steps}") };
    format!("field=0_{cells}&{steps}&goal={}", write_goal(&puzzle.goal))
}

/// The goal part: `<kind>_<color>_<value>_<operator>_<clear>` or `_<clear>`.
pub fn write_goal(goal: &Goal) -> String {
    let clear = goal.clear.map(|c| c.index().to_string()).unwrap_or_default();
    match goal.main {
        Some(m) => format!("{}_{}_{}_{}_{clear}", m.kind.index(), m.color.index(), m.value, m.operator as u8),
        None if goal.clear.is_some() => format!("_{clear}"),
        None => String::new(),
    }
}

/// Parses a pon2 query (or a URL ending in one).
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let err = |byte: usize, message: String| ParseError { format: FORMAT, position: char_pos(text, byte), message };
    let start = text.find('?').map_or(0, |i| i + 1);
    if start == 0 && text.contains("://") {
        return Err(err(text.len(), "a URL without a query: expected '?field=...' after the address".into()));
    }
    let (mut field, mut steps, mut goal) = (None, None, None);
    let mut offset = start;
    for part in text[start..].split('&') {
        let (key, value, value_at) = match part.split_once('=') {
            Some((k, v)) => (k, v, offset + k.len() + 1),
            None => (part, "", offset + part.len()),
        };
        let slot = match key {
            "field" => &mut field,
            "steps" => &mut steps,
            "goal" => &mut goal,
            _ => return Err(err(offset, format!("unknown key '{key}' (expected field, steps, goal)"))),
        };
        if slot.replace((value, value_at)).is_some() {
            return Err(err(offset, format!("key '{key}' given twice")));
        }
        offset += part.len() + 1;
    }
    let (field_text, field_at) = field.ok_or_else(|| err(start, "missing 'field=' key".into()))?;
    let field = parse_field(field_text, field_at).map_err(|(at, m)| err(at, m))?;
    let steps = match steps {
        Some((s, at)) => parse_steps(s, at).map_err(|(at, m)| err(at, m))?,
        None => Vec::new(),
    };
    let goal = match goal {
        Some((g, at)) => parse_goal(g).map_err(|(i, m)| err(at + i, m))?,
        None => Goal::default(),
    };
    Ok(Puzzle { field, steps, goal })
}

type Located<T> = Result<T, (usize, String)>;

fn parse_field(text: &str, at: usize) -> Located<Field> {
    let (rule, cells) = text.split_once('_').ok_or((at, "field must be '<rule>_<cells>' (e.g. 0_rrbb)".to_string()))?;
    if rule != "0" {
        return Err((at, format!("unsupported rule '{rule}' (only 0, the standard rule)")));
    }
    let cells_at = at + rule.len() + 1;
    let n = cells.chars().count();
    if n > HEIGHT * WIDTH {
        return Err((cells_at + HEIGHT * WIDTH, format!("field has {n} cells, at most {} fit", HEIGHT * WIDTH)));
    }
    let mut field = Field::default();
    let pad = HEIGHT * WIDTH - n;
    for (i, (byte, ch)) in cells.char_indices().enumerate() {
        let cell = match ch {
            '.' => None,
            c => Some(from_letter(c).ok_or((cells_at + byte, format!("unknown cell '{c}' (use . r g b y p o h)")))?),
        };
        let k = pad + i;
        field.set(k % WIDTH, HEIGHT - 1 - k / WIDTH, cell);
    }
    Ok(field)
}

fn parse_steps(text: &str, at: usize) -> Located<Vec<Step>> {
    let b = text.as_bytes();
    let mut steps = Vec::new();
    let mut i = 0;
    let color = |i: usize| -> Located<_> {
        let ch = text[i..].chars().next().ok_or((at + i, "a pair needs two colours".to_string()))?;
        from_letter(ch)
            .filter(|p| p.is_color())
            .ok_or((at + i, format!("unknown step character '{ch}' (pairs use r g b y p, garbage drops o…o)")))
    };
    while i < b.len() {
        if b[i] == b'o' {
            let end = text[i + 1..]
                .find('o')
                .map(|j| i + 1 + j)
                .ok_or((at + i, "garbage drop has no closing 'o'".to_string()))?;
            let parts: Vec<&str> = text[i + 1..end].split('_').collect();
            if parts.len() != WIDTH {
                return Err((at + i, format!("garbage drop needs {WIDTH} counts joined by '_', got {}", parts.len())));
            }
            let mut counts = [0u8; WIDTH];
            for (c, p) in parts.iter().enumerate() {
                counts[c] = p
                    .parse()
                    .ok()
                    .filter(|&n: &u8| n as usize <= HEIGHT)
                    .ok_or((at + i + 1, format!("bad garbage count '{p}' (0-13)")))?;
            }
            steps.push(Step::Garbage(counts));
            i = end + 1;
            continue;
        }
        let axis = color(i)?;
        let child = color(i + 1)?;
        steps.push(Step::Pair(Pair::new(axis, child)));
        i += 2;
        if b.get(i).is_some_and(u8::is_ascii_digit) {
            // A recorded answer (`rg3N`): checked, then dropped.
            let p = text.get(i..i + 2).unwrap_or(&text[i..]);
            parse_placement_pon2(p).ok_or((at + i, format!("bad placement '{p}' (e.g. 3N, 3S, 34, 43)")))?;
            i += 2;
        }
    }
    Ok(steps)
}

/// Parses the goal; errors carry a byte offset within `text`.
pub(crate) fn parse_goal(text: &str) -> Located<Goal> {
    if text.is_empty() {
        return Ok(Goal::default());
    }
    let parts: Vec<&str> = text.split('_').collect();
    let offsets: Vec<usize> = parts
        .iter()
        .scan(0, |o, p| {
            let at = *o;
            *o += p.len() + 1;
            Some(at)
        })
        .collect();
    let number = |k: usize, max: usize, what: &str| -> Located<usize> {
        parts[k].parse().ok().filter(|&n| n <= max).ok_or((offsets[k], format!("bad {what} '{}' (0-{max})", parts[k])))
    };
    let clear = |k: usize| -> Located<Option<GoalColor>> {
        if parts[k].is_empty() { Ok(None) } else { Ok(GoalColor::from_index(number(k, 7, "clear colour")?)) }
    };
    let goal = match parts.len() {
        2 if parts[0].is_empty() => Goal { main: None, clear: clear(1)? },
        5 => {
            let kind = GoalKind::ALL[number(0, 6, "goal kind")?];
            let color = GoalColor::from_index(number(1, 7, "goal colour")?).expect("0-7 checked");
            let value = number(2, u32::MAX as usize, "goal value")? as u32;
            let operator = [Operator::Exact, Operator::AtLeast][number(3, 1, "operator")?];
            // Colourless kinds store "all" whatever the text says (spec §9.13, as pon2 does).
            let color = if kind.has_color() { color } else { GoalColor::All };
            Goal { main: Some(MainGoal { kind, color, value, operator }), clear: clear(4)? }
        }
        n => {
            return Err((
                0,
                format!("goal must be '<kind>_<color>_<value>_<operator>_<clear>' or '_<clear>', got {n} parts"),
            ));
        }
    };
    goal.validate().map_err(|m| (0, m))?;
    Ok(goal)
}
