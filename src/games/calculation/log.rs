//! The readable game log, in the layout of the paper's appendix (spec §7): one block per draw
//! with the drawn card, the four foundations (played cards blanked so columns stay put) and
//! the stacks labelled by the player's current best plan, under a header and over a result.

use std::fmt::Write as _;

use super::rules::{Card, FOUNDATIONS, FULL, Game, rank_char, target_rank};

/// The line between blocks: 54 `=`.
const RULE: &str = "======================================================";

/// A growing log of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameLog {
    /// The log so far.
    pub text: String,
}

impl GameLog {
    /// Starts a log with what identifies the game.
    pub fn new(header: &str) -> GameLog {
        GameLog { text: format!("{header}\n") }
    }

    /// One block: `index : card`, the foundations, the stacks as `rank-foundation` (`rank-?`
    /// when the player names no foundation), then the player's reason as a `#` line if any.
    pub fn block(&mut self, index: usize, drawn: Card, game: &Game, label: impl Fn(Card) -> Option<u8>, why: &str) {
        let t = &mut self.text;
        let _ = writeln!(t, "{RULE}\n{index} : {}", rank_char(drawn.rank));
        for f in 0..FOUNDATIONS {
            let cells: Vec<String> = (1..=FULL)
                .map(|k| if k <= game.foundations[f] { " ".into() } else { rank_char(target_rank(f, k)).to_string() })
                .collect();
            let _ = writeln!(t, "{}", format!("{f}: {}", cells.join(" ")).trim_end());
        }
        for (s, stack) in game.stacks.iter().enumerate() {
            let cards: Vec<String> = stack
                .iter()
                .map(|&c| format!("{}-{}", rank_char(c.rank), label(c).map_or('?', |f| (b'0' + f) as char)))
                .collect();
            let _ = writeln!(t, "{}", format!("{s}: {}", cards.join(" ")).trim_end());
        }
        if !why.is_empty() {
            let _ = writeln!(t, "# {why}");
        }
    }

    /// The closing line: WIN or LOSS.
    pub fn finish(&mut self, won: bool) {
        let _ = writeln!(self.text, "{RULE}\n{}", if won { "WIN" } else { "LOSS" });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::calculation::rules::{Deal, Target};

    #[test]
    fn block_layout_matches_the_appendix() {
        let mut ranks = vec![1, 2, 7];
        ranks.extend((3..=13).flat_map(|r| vec![r; if r == 7 { 3 } else { 4 }]));
        ranks.extend([1, 1, 1, 2, 2, 2]);
        let mut g = Game::new(Deal::from_ranks(ranks).unwrap(), 3).unwrap();
        g.place(Target::Foundation(0)).unwrap();
        g.place(Target::Foundation(1)).unwrap();
        g.place(Target::Stack(0)).unwrap();
        let mut log = GameLog::default();
        log.block(2, Card { rank: 7, id: 2 }, &g, |_| Some(2), "");
        let want = format!(
            "{RULE}\n2 : 7\n0:   2 3 4 5 6 7 8 9 T J Q K\n1:   4 6 8 T Q A 3 5 7 9 J K\n\
             2: 3 6 9 Q 2 5 8 J A 4 7 T K\n3: 4 8 Q 3 7 J 2 6 T A 5 9 K\n0: 7-2\n1:\n2:\n"
        );
        assert_eq!(log.text, want);
    }
}
