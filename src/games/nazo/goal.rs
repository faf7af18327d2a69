//! The goal vocabulary of the Nazo Puyo community (spec §2.3) and when a goal is met.
//!
//! Semantics (not defined by the paper; they follow the pon2 project): a goal is checked after
//! each step once its chain has resolved; it is met at the first step where the clear condition
//! and the main goal both hold. Color/Count/Place look at single links, Connection at single
//! groups, Chain at the step's chain length, Accum kinds at everything popped so far.

use serde::{Deserialize, Serialize};

use crate::games::puyo::rules::{Field, Link, Puyo};

/// What the main goal counts (the index is the pon2 number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GoalKind {
    /// n-chain.
    Chain,
    /// n colours pop in one link.
    Color,
    /// n puyos of the goal colour pop in one link.
    Count,
    /// The goal colour pops as n separate groups in one link.
    Place,
    /// The goal colour pops as a group of n.
    Connection,
    /// n colours popped in total.
    AccumColor,
    /// n puyos of the goal colour popped in total.
    AccumCount,
}

impl GoalKind {
    /// Every kind, in pon2 order.
    pub const ALL: [GoalKind; 7] = [
        GoalKind::Chain,
        GoalKind::Color,
        GoalKind::Count,
        GoalKind::Place,
        GoalKind::Connection,
        GoalKind::AccumColor,
        GoalKind::AccumCount,
    ];

    /// The pon2 number.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Kinds whose goal colour matters; the others store "all".
    pub fn has_color(self) -> bool {
        matches!(self, GoalKind::Count | GoalKind::Place | GoalKind::Connection | GoalKind::AccumCount)
    }
}

/// The colour a goal talks about (the index is the pon2 number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GoalColor {
    /// Every puyo, garbage included.
    All,
    /// Garbage puyos.
    Garbage,
    /// Any of the five colours.
    Colored,
    /// One of the five colours.
    Puyo(Puyo),
}

impl GoalColor {
    /// The pon2 number.
    pub fn index(self) -> usize {
        match self {
            GoalColor::All => 0,
            GoalColor::Garbage => 1,
            GoalColor::Colored => 2,
            GoalColor::Puyo(c) => 3 + c.index(),
        }
    }

    /// The colour of a pon2 number.
    pub fn from_index(i: usize) -> Option<GoalColor> {
        match i {
            0 => Some(GoalColor::All),
            1 => Some(GoalColor::Garbage),
            2 => Some(GoalColor::Colored),
            3..=7 => Some(GoalColor::Puyo(Puyo::color(i - 3))),
            _ => None,
        }
    }

    /// Does a puyo kind count as this colour (for counting and clearing)? "All" includes garbage.
    pub fn matches(self, p: Puyo) -> bool {
        match self {
            GoalColor::All => true,
            GoalColor::Garbage => !p.is_color(),
            GoalColor::Colored => p.is_color(),
            GoalColor::Puyo(c) => c == p,
        }
    }

    /// The cells of `field` holding this colour.
    pub fn cells(self, field: &Field) -> crate::games::puyo::rules::Bits {
        Puyo::ALL.iter().filter(|&&p| self.matches(p)).fold(Default::default(), |a, &p| a | field.plane(p))
    }

    fn words(self) -> String {
        match self {
            GoalColor::All => "all".into(),
            GoalColor::Garbage => "garbage".into(),
            GoalColor::Colored => "coloured".into(),
            GoalColor::Puyo(c) => format!("{c:?}").to_lowercase(),
        }
    }

    /// The puyos this colour counts, as a plural noun ("puyos" for all of them, garbage too).
    fn puyos(self) -> String {
        match self {
            GoalColor::All => "puyos".into(),
            other => format!("{} puyos", other.words()),
        }
    }
}

/// Exactly n, or at least n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Operator {
    /// Exactly n.
    Exact,
    /// At least n.
    AtLeast,
}

impl Operator {
    /// Whether a count `got` meets the goal's number `n`.
    pub fn holds(self, got: u32, n: u32) -> bool {
        match self {
            Operator::Exact => got == n,
            Operator::AtLeast => got >= n,
        }
    }
}

/// The main goal: kind, colour (all for colourless kinds), value and operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MainGoal {
    /// What is counted.
    pub kind: GoalKind,
    /// Whose puyos.
    pub color: GoalColor,
    /// The goal's n.
    pub value: u32,
    /// Exactly or at least n.
    pub operator: Operator,
}

impl MainGoal {
    /// Met only by a step that pops something (every kind but the Accum ones and a 0-chain).
    pub fn needs_pop(&self) -> bool {
        match self.kind {
            GoalKind::Chain => self.value > 0,
            GoalKind::Color | GoalKind::Count | GoalKind::Place | GoalKind::Connection => true,
            GoalKind::AccumColor | GoalKind::AccumCount => false,
        }
    }
}

/// A goal: an optional main goal plus an optional "clear every puyo of this colour".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Goal {
    /// The main goal, if any.
    pub main: Option<MainGoal>,
    /// The colour to clear from the field, if any.
    pub clear: Option<GoalColor>,
}

/// Goal-side views of one engine [`Link`].
trait LinkView {
    fn count(&self, color: GoalColor) -> u32;
    fn groups_of(&self, color: GoalColor) -> impl Iterator<Item = u8> + '_;
}

impl LinkView for Link {
    fn count(&self, color: GoalColor) -> u32 {
        let puyos: u32 = match color {
            GoalColor::All | GoalColor::Colored => self.puyos(),
            GoalColor::Garbage => 0,
            GoalColor::Puyo(c) => self.popped[c.index()] as u32,
        };
        let garbage = if matches!(color, GoalColor::All | GoalColor::Garbage) { self.garbage as u32 } else { 0 };
        puyos + garbage
    }

    /// Groups of the goal colour; "all" and "colored" mean any colour.
    fn groups_of(&self, color: GoalColor) -> impl Iterator<Item = u8> + '_ {
        self.groups()
            .iter()
            .filter(move |g| match color {
                GoalColor::Puyo(w) => w == g.0,
                GoalColor::Garbage => false,
                _ => true,
            })
            .map(|g| g.1)
    }
}

/// What has been popped since step 1 (for the Accum kinds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Popped {
    /// Puyos popped of each colour.
    pub per_color: [u32; 5],
    /// Garbage puyos popped.
    pub garbage: u32,
}

impl Popped {
    /// Counts the puyos one chain link popped.
    pub fn add(&mut self, link: &Link) {
        for (total, &n) in self.per_color.iter_mut().zip(&link.popped) {
            *total += n as u32;
        }
        self.garbage += link.garbage as u32;
    }

    /// Puyos of `color` popped so far ("all" includes garbage).
    pub fn count(&self, color: GoalColor) -> u32 {
        let colored: u32 = self.per_color.iter().sum();
        match color {
            GoalColor::All => colored + self.garbage,
            GoalColor::Colored => colored,
            GoalColor::Garbage => self.garbage,
            GoalColor::Puyo(c) => self.per_color[c.index()],
        }
    }
}

impl Goal {
    /// Checks the combination rules of the vocabulary; the formats call it on import.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(m) = self.main {
            if !m.kind.has_color() && m.color != GoalColor::All {
                return Err(format!("{:?} goals take no colour (got {})", m.kind, m.color.words()));
            }
            if matches!(m.kind, GoalKind::Place | GoalKind::Connection) && m.color == GoalColor::Garbage {
                return Err(format!("{:?} goals cannot be about garbage (garbage forms no groups)", m.kind));
            }
        }
        Ok(())
    }

    /// Is the goal met after a step that popped `links`, leaving `field`, with `total` popped so far?
    pub fn is_met(&self, links: &[Link], total: &Popped, field: &Field) -> bool {
        if self.clear.is_some_and(|c| !c.cells(field).is_empty()) {
            return false;
        }
        let Some(m) = self.main else { return self.clear.is_some() };
        let ok = |got: u32| m.operator.holds(got, m.value);
        match m.kind {
            GoalKind::Chain => ok(links.len() as u32),
            GoalKind::Color => links.iter().any(|l| ok(l.colors())),
            GoalKind::Count => links.iter().any(|l| ok(l.count(m.color))),
            GoalKind::Place => links.iter().any(|l| ok(l.groups_of(m.color).count() as u32)),
            GoalKind::Connection => links.iter().any(|l| l.groups_of(m.color).any(|n| ok(n as u32))),
            GoalKind::AccumColor => ok(total.per_color.iter().filter(|&&n| n > 0).count() as u32),
            GoalKind::AccumCount => ok(total.count(m.color)),
        }
    }

    /// The goal in words, e.g. "exactly 3-chain and clear all".
    pub fn describe(&self) -> String {
        let main = self.main.map(|m| {
            let op = match m.operator {
                Operator::Exact => "exactly",
                Operator::AtLeast => "at least",
            };
            let (n, puyos) = (m.value, m.color.puyos());
            match m.kind {
                GoalKind::Chain => format!("{op} {n}-chain"),
                GoalKind::Color => format!("{op} {n} colours popping at once"),
                GoalKind::Count => format!("{op} {n} {puyos} popping at once"),
                GoalKind::Place => format!("{puyos} popping in {op} {n} groups at once"),
                GoalKind::Connection => format!("{puyos} popping as a group of {op} {n}"),
                GoalKind::AccumColor => format!("{op} {n} colours popped in total"),
                GoalKind::AccumCount => format!("{op} {n} {puyos} popped in total"),
            }
        });
        let clear = self.clear.map(|c| format!("clear {}", c.words()));
        match (main, clear) {
            (Some(m), Some(c)) => format!("{m} and {c}"),
            (Some(m), None) => m,
            (None, Some(c)) => c,
            (None, None) => "no goal".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::games::nazo::io::pon2;
    use crate::games::nazo::sim::replay;
    use crate::games::puyo::rules::{Placement, Rotation};

    /// Replays `placements` on a query's puzzle with another goal text; `Some(step)` if met.
    fn met(query: &str, goal: &str, placements: &[Placement]) -> Option<usize> {
        let mut p = pon2::parse(query).unwrap();
        p.goal = pon2::parse_goal(goal).unwrap();
        replay(&p, placements).solved_at
    }

    #[test]
    fn each_kind_counts_what_the_spec_says() {
        // Two reds on the floor, a red pair on top: one group of 4 reds, touching a garbage.
        let q = "field=0_rro...&steps=rr&goal=";
        let up = [Placement { col: 0, rot: Rotation::Up }];
        assert_eq!(met(q, "0_0_1_0_", &up), Some(0), "1-chain");
        assert_eq!(met(q, "0_0_2_1_", &up), None, "at least 2-chain");
        assert_eq!(met(q, "1_0_1_0_", &up), Some(0), "one colour");
        assert_eq!(met(q, "2_3_4_0_", &up), Some(0), "4 reds");
        assert_eq!(met(q, "2_0_5_0_", &up), Some(0), "'all' counts the garbage too");
        assert_eq!(met(q, "2_2_4_0_", &up), Some(0), "'colored' does not");
        assert_eq!(met(q, "2_1_1_0_", &up), Some(0), "1 garbage");
        assert_eq!(met(q, "3_3_1_0_", &up), Some(0), "red in 1 group");
        assert_eq!(met(q, "4_3_4_0_", &up), Some(0), "a red group of 4");
        assert_eq!(met(q, "4_3_5_1_", &up), None, "a red group of 5 or more");
        assert_eq!(met(q, "5_0_1_0_", &up), Some(0), "1 colour in total");
        assert_eq!(met(q, "6_3_4_0_", &up), Some(0), "4 reds in total");
        assert_eq!(met(q, "_0", &up), Some(0), "everything cleared");
        assert_eq!(met(q, "0_0_1_0_0", &up), Some(0), "1-chain and clear");
        let beside = [Placement { col: 3, rot: Rotation::Up }];
        assert_eq!(met(q, "_1", &beside), None, "the garbage stays");
    }

    #[test]
    fn goals_in_words() {
        let g = pon2::parse_goal("0_0_3_0_0").unwrap();
        assert_eq!(g.describe(), "exactly 3-chain and clear all");
        assert_eq!(pon2::parse_goal("_6").unwrap().describe(), "clear yellow");
        assert_eq!(pon2::parse_goal("2_2_6_1_").unwrap().describe(), "at least 6 coloured puyos popping at once");
        assert_eq!(pon2::parse_goal("2_0_6_0_").unwrap().describe(), "exactly 6 puyos popping at once");
    }
}
