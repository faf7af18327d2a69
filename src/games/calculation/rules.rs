//! The rules of Calculation (paper §1, spec §2): one 52-card deck in a face-down stock, four
//! foundations built by +1..+4 modulo 13 from empty (their bases A, 2, 3, 4 are drawn like any
//! other card), S waste stacks. Each turn draws one card, puts it on a foundation that needs it
//! or on any stack, then moves any number of stack tops to foundations. Suits play no part.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::lab::rng::sub_rng;

/// Cards in the deck.
pub const DECK: usize = 52;
/// Foundations, numbered 0..=3; foundation f builds in steps of f + 1.
pub const FOUNDATIONS: usize = 4;
/// Cards a complete foundation holds.
pub const FULL: u8 = 13;
/// The stack counts the engine accepts (the player's stack game is limited further, see
/// [`super::stack_game::MAX_STACKS`]).
pub const MAX_STACKS: usize = 16;

/// Rank of the k-th card (k = 1..=13) of foundation f: `((f+1)·k − 1) mod 13 + 1`.
pub fn target_rank(f: usize, k: u8) -> u8 {
    (((f as u32 + 1) * k as u32 - 1) % 13 + 1) as u8
}

/// Position (1..=13) of `rank` in foundation f's target sequence: the inverse of [`target_rank`].
/// rank ≡ (f+1)·k (mod 13), so k ≡ rank·(f+1)⁻¹; the inverses of 1, 2, 3, 4 mod 13 are
/// 1, 7, 9, 10. (The player converts every stack card with it, so no search.)
pub fn slot_of(f: usize, rank: u8) -> u8 {
    const INVERSE: [u32; FOUNDATIONS] = [1, 7, 9, 10];
    ((rank as u32 * INVERSE[f] - 1) % 13 + 1) as u8
}

/// The rank a foundation of `height` played cards needs next; `None` when complete.
pub fn next_rank(f: usize, height: u8) -> Option<u8> {
    (height < FULL).then(|| target_rank(f, height + 1))
}

/// One of the 52 cards: its rank (1 = A … 13 = K) and its place in the draw order, which
/// identifies it (the four copies of a rank are otherwise interchangeable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    /// Rank, 1 = A … 13 = K.
    pub rank: u8,
    /// Place in the draw order, 0..52, which tells the four cards of a rank apart.
    pub id: u8,
}

/// `A 2 … 9 T J Q K`, as the paper writes ranks.
pub fn rank_char(rank: u8) -> char {
    b"?A23456789TJQK"[rank.min(13) as usize] as char
}

/// The order in which the stock deals its 52 cards (ranks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    /// Ranks in draw order, 52 of them: four of each of 1..=13.
    pub ranks: Vec<u8>,
}

/// The stream of [`sub_rng`] that shuffles deals; fixed so that deals never change.
const DEAL_STREAM: u64 = 0xCA1C;

impl Deal {
    /// Deal `index` of a run with `seed`: a Fisher–Yates shuffle (rand's `shuffle`) of
    /// 4 × A..K seeded from (seed, index). `play` and `oracle` with the same seed see the
    /// same deals.
    pub fn from_seed(seed: u64, index: u64) -> Deal {
        let mut ranks: Vec<u8> = (0..DECK).map(|i| (i / 4) as u8 + 1).collect();
        ranks.shuffle(&mut sub_rng(seed, index, DEAL_STREAM));
        Deal { ranks }
    }

    /// A deal in a given order; it must hold each rank exactly four times.
    pub fn from_ranks(ranks: Vec<u8>) -> Result<Deal, RuleError> {
        let mut count = [0u8; 14];
        for &r in &ranks {
            if !(1..=13).contains(&r) {
                return Err(RuleError::BadDeal(format!("rank {r} is not 1..=13")));
            }
            count[r as usize] += 1;
        }
        if ranks.len() != DECK || count[1..].iter().any(|&c| c != 4) {
            return Err(RuleError::BadDeal(format!("{} cards, need 52 with each rank 4 times", ranks.len())));
        }
        Ok(Deal { ranks })
    }
}

/// Where the drawn card goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// Onto foundation `i` (0..4).
    Foundation(u8),
    /// Onto waste stack `i`.
    Stack(u8),
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Foundation(i) => write!(f, "foundation {i}"),
            Target::Stack(i) => write!(f, "stack {i}"),
        }
    }
}

/// A rule violation; the engine never panics on a bad move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A draw was asked with no card left in the stock.
    #[error("the stock is empty")]
    StockEmpty,
    /// No foundation of this index.
    #[error("foundation {0} does not exist")]
    NoFoundation(u8),
    /// No waste stack of this index.
    #[error("stack {0} does not exist")]
    NoStack(u8),
    /// The card is not the rank the foundation needs next.
    #[error("foundation {foundation} needs {needs}, not {card}")]
    WrongCard {
        /// The foundation.
        foundation: u8,
        /// The rank it needs next.
        needs: char,
        /// The rank offered.
        card: char,
    },
    /// A card was asked of an empty stack.
    #[error("stack {0} is empty")]
    EmptyStack(u8),
    /// A deal that is not 52 cards, four of each rank 1..=13.
    #[error("bad deal: {0}")]
    BadDeal(String),
    /// A stack count outside 1..=16.
    #[error("{0} stacks: the engine supports 1..=16")]
    BadStackCount(usize),
}

/// What a player may see: everything but the order of the stock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// Height of each foundation: how many cards it holds (0..=13).
    pub foundations: [u8; FOUNDATIONS],
    /// Each waste stack, bottom card first.
    pub stacks: Vec<Vec<Card>>,
    /// The card to place now; `None` once the stock is empty.
    pub drawn: Option<Card>,
    /// How many cards of each rank (index 1..=13) are still in the stock after `drawn`.
    pub unseen: [u8; 14],
}

impl Observation {
    /// Cards left in the stock after the drawn one.
    pub fn stock_left(&self) -> u32 {
        self.unseen.iter().map(|&c| c as u32).sum()
    }
}

/// A game in progress: the deal, how far it has been drawn, the foundations and stacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    deal: Deal,
    /// Cards drawn and placed so far; card `next` is the one to place now.
    next: usize,
    /// Cards played on each foundation (0..=13).
    pub foundations: [u8; FOUNDATIONS],
    /// Stack cards, bottom first.
    pub stacks: Vec<Vec<Card>>,
}

impl Game {
    /// A new game of `deal` with `stacks` empty waste stacks (1..=16).
    pub fn new(deal: Deal, stacks: usize) -> Result<Game, RuleError> {
        if !(1..=MAX_STACKS).contains(&stacks) {
            return Err(RuleError::BadStackCount(stacks));
        }
        Ok(Game { deal, next: 0, foundations: [0; FOUNDATIONS], stacks: vec![Vec::new(); stacks] })
    }

    /// The deal being played (the stock's order: not for players).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// Cards drawn so far (the index of the card to place now).
    pub fn drawn_count(&self) -> usize {
        self.next
    }

    /// The card to place now.
    pub fn current(&self) -> Option<Card> {
        self.deal.ranks.get(self.next).map(|&rank| Card { rank, id: self.next as u8 })
    }

    /// What a player may see: the table, the card to place and the counts of unseen ranks.
    pub fn observe(&self) -> Observation {
        let mut unseen = [0u8; 14];
        for &r in self.deal.ranks.iter().skip(self.next + 1) {
            unseen[r as usize] += 1;
        }
        Observation { foundations: self.foundations, stacks: self.stacks.clone(), drawn: self.current(), unseen }
    }

    fn check_fits(&self, f: u8, rank: u8) -> Result<(), RuleError> {
        let fi = f as usize;
        if fi >= FOUNDATIONS {
            return Err(RuleError::NoFoundation(f));
        }
        match next_rank(fi, self.foundations[fi]) {
            Some(needed) if needed == rank => Ok(()),
            needed => {
                Err(RuleError::WrongCard { foundation: f, needs: needed.map_or('-', rank_char), card: rank_char(rank) })
            }
        }
    }

    /// Puts the drawn card on `target`.
    pub fn place(&mut self, target: Target) -> Result<(), RuleError> {
        let card = self.current().ok_or(RuleError::StockEmpty)?;
        match target {
            Target::Foundation(f) => {
                self.check_fits(f, card.rank)?;
                self.foundations[f as usize] += 1;
            }
            Target::Stack(s) => {
                self.stacks.get_mut(s as usize).ok_or(RuleError::NoStack(s))?.push(card);
            }
        }
        self.next += 1;
        Ok(())
    }

    /// Whether the top of `stack` may go to `foundation` now.
    pub fn can_move(&self, stack: u8, foundation: u8) -> bool {
        self.stacks
            .get(stack as usize)
            .and_then(|s| s.last())
            .is_some_and(|c| self.check_fits(foundation, c.rank).is_ok())
    }

    /// Moves the top card of `stack` to `foundation`.
    pub fn move_top(&mut self, stack: u8, foundation: u8) -> Result<(), RuleError> {
        let top = self
            .stacks
            .get(stack as usize)
            .ok_or(RuleError::NoStack(stack))?
            .last()
            .ok_or(RuleError::EmptyStack(stack))?;
        self.check_fits(foundation, top.rank)?;
        self.stacks[stack as usize].pop();
        self.foundations[foundation as usize] += 1;
        Ok(())
    }

    /// Every move from a stack top to a foundation allowed now.
    pub fn legal_moves(&self) -> Vec<(u8, u8)> {
        let mut out = Vec::new();
        for s in 0..self.stacks.len() as u8 {
            for f in 0..FOUNDATIONS as u8 {
                if self.can_move(s, f) {
                    out.push((s, f));
                }
            }
        }
        out
    }

    /// Every target the drawn card may go to: fitting foundations, then every stack.
    pub fn legal_targets(&self) -> Vec<Target> {
        let Some(card) = self.current() else { return Vec::new() };
        let fits = (0..FOUNDATIONS as u8).filter(|&f| self.check_fits(f, card.rank).is_ok()).map(Target::Foundation);
        fits.chain((0..self.stacks.len() as u8).map(Target::Stack)).collect()
    }

    /// All four foundations show a king.
    pub fn is_won(&self) -> bool {
        self.foundations.iter().all(|&h| h == FULL)
    }

    /// The stock is empty and no stack top can move: nothing can change any more.
    pub fn is_over(&self) -> bool {
        self.current().is_none() && self.legal_moves().is_empty()
    }

    /// Cards on foundations + stacks + stock: always 52.
    pub fn card_count(&self) -> usize {
        self.foundations.iter().map(|&h| h as usize).sum::<usize>()
            + self.stacks.iter().map(Vec::len).sum::<usize>()
            + (DECK - self.next)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every target the engine could be asked for, valid or not (one foundation and one stack
    /// past the end as well).
    fn every_target(g: &Game) -> impl Iterator<Item = Target> {
        let (fs, ss) = (FOUNDATIONS as u8 + 1, g.stacks.len() as u8 + 1);
        (0..fs).map(Target::Foundation).chain((0..ss).map(Target::Stack))
    }

    /// Every stack-to-foundation move the engine could be asked for, in the same bounds.
    fn every_move(g: &Game) -> impl Iterator<Item = (u8, u8)> {
        let (fs, ss) = (FOUNDATIONS as u8 + 1, g.stacks.len() as u8 + 1);
        (0..ss).flat_map(move |s| (0..fs).map(move |f| (s, f)))
    }

    /// The invariants of any reachable position: 52 cards, each card drawn at most once and
    /// stacked with its own rank, foundations within 0..=13, the observation's stock count.
    fn check_position(g: &Game) -> Result<(), TestCaseError> {
        prop_assert_eq!(g.card_count(), DECK);
        prop_assert!(g.foundations.iter().all(|&h| h <= FULL));
        let mut seen = [false; DECK];
        for c in g.stacks.iter().flatten() {
            let id = c.id as usize;
            prop_assert!(id < g.drawn_count() && !seen[id], "card {} stacked twice or before its draw", id);
            seen[id] = true;
            prop_assert_eq!(c.rank, g.deal().ranks[id]);
        }
        let o = g.observe();
        prop_assert_eq!(o.stock_left() as usize, DECK - g.drawn_count() - usize::from(o.drawn.is_some()));
        prop_assert_eq!(g.is_won(), g.foundations.iter().map(|&h| h as usize).sum::<usize>() == DECK);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(64)))]

        /// Along random plays of random deals, the legal-target and legal-move lists are exactly
        /// the requests the engine accepts, a refused request changes nothing, and cards are
        /// conserved.
        #[test]
        fn legal_lists_match_the_rule_checks(seed in 0u64..10_000, stacks in 1usize..=6, picks in prop::collection::vec(any::<u16>(), 52)) {
            let mut g = Game::new(Deal::from_seed(seed, 0), stacks).unwrap();
            for pick in picks {
                let targets = g.legal_targets();
                for t in every_target(&g) {
                    let mut probe = g.clone();
                    let accepted = probe.place(t).is_ok();
                    prop_assert_eq!(accepted, targets.contains(&t), "{:?}", t);
                    if !accepted {
                        prop_assert_eq!(&probe, &g);
                    }
                }
                if targets.is_empty() {
                    prop_assert!(g.current().is_none());
                    break;
                }
                g.place(targets[pick as usize % targets.len()]).unwrap();
                // Then some of the stack-to-foundation moves, chosen by the same draw.
                for _ in 0..(pick % 4) {
                    let moves = g.legal_moves();
                    for (s, f) in every_move(&g) {
                        let mut probe = g.clone();
                        let accepted = probe.move_top(s, f).is_ok();
                        prop_assert_eq!(accepted, moves.contains(&(s, f)), "{} -> {}", s, f);
                        prop_assert_eq!(accepted, g.can_move(s, f));
                        if !accepted {
                            prop_assert_eq!(&probe, &g);
                        }
                    }
                    let Some(&(s, f)) = moves.get((pick >> 2) as usize % moves.len().max(1)) else { break };
                    g.move_top(s, f).unwrap();
                }
                check_position(&g)?;
                prop_assert!(!g.is_over() || g.current().is_none(), "a card left to place");
            }
            prop_assert!(g.current().is_none(), "52 placements empty the stock");
            // Then the game is over exactly when no stack top can move any more.
            while let Some(&(s, f)) = g.legal_moves().first() {
                prop_assert!(!g.is_over(), "stack {} can still move to foundation {}", s, f);
                g.move_top(s, f).unwrap();
            }
            prop_assert!(g.is_over());
        }
    }

    #[test]
    fn target_sequences_match_the_paper() {
        let seq = |f: usize| (1..=13).map(|k| rank_char(target_rank(f, k))).collect::<String>();
        assert_eq!(seq(0), "A23456789TJQK");
        assert_eq!(seq(1), "2468TQA3579JK");
        assert_eq!(seq(2), "369Q258JA47TK");
        assert_eq!(seq(3), "48Q37J26TA59K");
        for f in 0..4 {
            for r in 1..=13 {
                assert_eq!(target_rank(f, slot_of(f, r)), r);
            }
        }
    }

    #[test]
    fn deals_are_reproducible_and_complete() {
        let a = Deal::from_seed(3, 7);
        assert_eq!(a, Deal::from_seed(3, 7));
        assert_ne!(a, Deal::from_seed(3, 8));
        assert!(Deal::from_ranks(a.ranks.clone()).is_ok());
        assert!(Deal::from_ranks(vec![1; 52]).is_err());
    }

    #[test]
    fn foundations_only_accept_their_next_card() {
        let mut ranks = vec![2, 1];
        ranks.extend((3..=13).flat_map(|r| [r; 4]));
        ranks.extend([1, 1, 1, 2, 2, 2]);
        let mut g = Game::new(Deal::from_ranks(ranks).unwrap(), 3).unwrap();
        assert!(g.place(Target::Foundation(0)).is_err(), "a 2 does not start foundation 0");
        g.place(Target::Foundation(1)).unwrap();
        assert!(g.place(Target::Foundation(1)).is_err(), "foundation 1 needs a 4 now");
        g.place(Target::Stack(2)).unwrap();
        assert_eq!(g.legal_moves(), vec![(2, 0)]);
        g.move_top(2, 0).unwrap();
        assert!(g.move_top(2, 0).is_err());
        assert_eq!(g.card_count(), 52);
    }

    #[test]
    fn targets_read_as_the_player_explains_them() {
        assert_eq!(Target::Foundation(2).to_string(), "foundation 2");
        assert_eq!(Target::Stack(0).to_string(), "stack 0");
    }
}
