//! What a chain reports: each link ([`Link`]: puyos popped per color, groups, garbage cleared)
//! and the whole chain ([`Chain`]: length, the paper's attack formula 6.1, Tsu score).

use super::bits::Bits;
use super::puyo::{MAX_COLORS, Puyo};

/// Most groups one link can pop (72 visible cells / 4).
pub const MAX_GROUPS: usize = 18;

/// One link of a chain: everything that popped at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// 1-based position in the chain.
    pub index: u32,
    /// Colored puyos popped, per color index.
    pub popped: [u8; MAX_COLORS],
    /// Garbage puyos removed (hard garbage hit once turns into garbage and is not counted).
    pub garbage: u8,
    /// The popped colored cells (before gravity).
    pub cells: Bits,
    /// The removed garbage cells (before gravity).
    pub cleared: Bits,
    group_count: u8,
    groups: [(Puyo, u8); MAX_GROUPS],
}

impl Link {
    pub(super) fn new(index: u32) -> Link {
        Link {
            index,
            popped: [0; MAX_COLORS],
            garbage: 0,
            cells: Bits::EMPTY,
            cleared: Bits::EMPTY,
            group_count: 0,
            groups: [(Puyo::Red, 0); MAX_GROUPS],
        }
    }

    pub(super) fn push_group(&mut self, color: Puyo, cells: Bits) {
        let size = cells.count() as u8;
        self.groups[self.group_count as usize] = (color, size);
        self.group_count += 1;
        self.popped[color.index()] += size;
        self.cells |= cells;
    }

    /// The groups popped at this link as (color, size).
    pub fn groups(&self) -> &[(Puyo, u8)] {
        &self.groups[..self.group_count as usize]
    }

    /// Colored puyos popped.
    pub fn puyos(&self) -> u32 {
        self.popped.iter().map(|&n| n as u32).sum()
    }

    /// Number of distinct colors popped.
    pub fn colors(&self) -> u32 {
        self.popped.iter().filter(|&&n| n > 0).count() as u32
    }

    /// Official "Tsu" score of this link: 10 · erased · max(1, chain power + color bonus +
    /// group bonus) (spec §2; erased counts colored puyos only).
    pub fn tsu_score(&self) -> u32 {
        let chain = CHAIN_POWER[(self.index as usize).clamp(1, CHAIN_POWER.len()) - 1];
        let color = COLOR_BONUS[(self.colors() as usize).clamp(1, COLOR_BONUS.len()) - 1];
        let group: u32 = self.groups().iter().map(|&(_, n)| group_bonus(n as u32)).sum();
        10 * self.puyos() * (chain + color + group).max(1)
    }
}

/// Tsu chain power for links 1..19 (later links use the last value).
pub const CHAIN_POWER: [u32; 19] =
    [0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512];
/// Tsu color bonus by number of colors popped at once (1..5).
pub const COLOR_BONUS: [u32; 5] = [0, 3, 6, 12, 24];

/// Tsu group bonus for one group of `size` puyos (4, 5, ..., 11+).
pub fn group_bonus(size: u32) -> u32 {
    const BONUS: [u32; 8] = [0, 2, 3, 4, 5, 6, 7, 10];
    BONUS[(size.clamp(4, 11) - 4) as usize]
}

/// A whole chain's totals, accumulated link by link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    /// Chain length N (0 = nothing popped).
    pub links: u32,
    /// Colored puyos popped in all links.
    pub popped: u32,
    /// Garbage removed in all links.
    pub garbage: u32,
    /// Official Tsu score.
    pub score: u32,
    /// Σ i·(c_i − 4), the second term of the paper's attack formula.
    excess: u32,
}

impl Chain {
    pub(super) fn add(&mut self, link: &Link) {
        self.links += 1;
        let c = link.puyos();
        self.popped += c;
        self.garbage += link.garbage as u32;
        self.score += link.tsu_score();
        self.excess += link.index * c.saturating_sub(4);
    }

    /// The paper's attack (formula 6.1): 3N(N−1) + Σ_i i·(c_i − 4), c_i counting colored
    /// puyos only (spec §9.9). An 8-chain of 4-groups gives 168.
    pub fn attack(&self) -> u32 {
        3 * self.links * self.links.saturating_sub(1) + self.excess
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsu_score_of_two_links() {
        // Spec §2: links of 4 + 4 score 40 + 320 = 360.
        let mut a = Link::new(1);
        a.push_group(Puyo::Red, Bits(0b1111));
        let mut b = Link::new(2);
        b.push_group(Puyo::Blue, Bits(0b1111));
        assert_eq!((a.tsu_score(), b.tsu_score()), (40, 320));
    }

    #[test]
    fn tsu_score_adds_color_and_group_bonuses() {
        // Link 2 popping 4 reds and 4 blues: 10 · 8 · (chain 8 + colors 3 + groups 0) = 880.
        let mut a = Link::new(2);
        a.push_group(Puyo::Red, Bits(0b1111));
        a.push_group(Puyo::Blue, Bits(0b1111 << 16));
        assert_eq!((a.colors(), a.puyos(), a.tsu_score()), (2, 8, 880));
        // Link 1 popping 5 greens: 10 · 5 · (0 + 0 + group bonus 2) = 100.
        let mut b = Link::new(1);
        b.push_group(Puyo::Green, Bits(0b11111));
        assert_eq!((b.colors(), b.tsu_score()), (1, 100));
        let bonuses: Vec<u32> = (4..=12).map(group_bonus).collect();
        assert_eq!(bonuses, [0, 2, 3, 4, 5, 6, 7, 10, 10]);
    }

    #[test]
    fn attack_of_eight_chain_of_fours() {
        let mut chain = Chain::default();
        for i in 1..=8 {
            let mut l = Link::new(i);
            l.push_group(Puyo::Red, Bits(0b1111));
            chain.add(&l);
        }
        assert_eq!(chain.attack(), 168);
    }
}
