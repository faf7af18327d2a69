//! Versus play with the spec's tick model (§2 "Versus time model"): placing costs 1 tick,
//! each chain link 1 more (`link_ticks` more, to try other timings); a chain sends garbage
//! by the game's [`GarbageRule`] (the paper's attack, or the Tsu score / 70 with the
//! remainder carried), which first
//! offsets the sender's own pending and in-flight garbage; the rest becomes droppable on the
//! target when the sender's chain has finished and falls (≤ 30 at once) right before the
//! target's next placement. Both players decide on the state at the start of a tick, then
//! both moves apply (decision §9.15). Both players get the same pair sequence.

use rand::Rng;

use super::chain::Chain;
use super::field::Field;
use super::placement::Placement;
use super::puyo::Pair;

/// How many garbage puyos a chain sends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
pub enum GarbageRule {
    /// The paper's attack (formula 6.1, spec §2 default): the paper measures attack as the
    /// garbage puyos that fall.
    #[default]
    Paper,
    /// Official Tsu scoring: ⌊(score + carry) / 70⌋, the remainder carried to the next chain.
    Tsu,
}

impl GarbageRule {
    /// Garbage sent by `chain` given the score `carry` left from earlier chains, and the new carry.
    pub fn send(self, chain: &Chain, carry: u32) -> (u32, u32) {
        match self {
            GarbageRule::Paper => (chain.attack(), carry),
            GarbageRule::Tsu => ((chain.score + carry) / 70, (chain.score + carry) % 70),
        }
    }

    /// Garbage `chain` sends with no carry (what a player's search estimates).
    pub fn garbage(self, chain: &Chain) -> u32 {
        self.send(chain, 0).0
    }
}

/// Garbage on its way: amount and the tick from which it may fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InFlight {
    /// Garbage puyos.
    pub amount: u32,
    /// Tick at which the sender's chain has finished.
    pub from_tick: u32,
}

/// One side of a versus game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Side {
    /// This side's field.
    pub field: Field,
    /// Index of the current pair in the shared sequence.
    pub next: usize,
    /// First tick at which this side may place again.
    pub ready_at: u32,
    /// Garbage that falls before the next placement.
    pub pending: u32,
    /// Garbage sent by the other side whose chain is still resolving.
    pub in_flight: Vec<InFlight>,
    /// Tsu score remainder below 70 carried to the next scoring.
    pub carry: u32,
    /// Whether this side topped out.
    pub dead: bool,
    /// Pairs placed.
    pub moves: u32,
    /// Longest chain fired.
    pub best_chain: u32,
}

impl Side {
    /// All garbage waiting for this side (pending and in flight).
    pub fn incoming(&self) -> u32 {
        self.pending + self.in_flight.iter().map(|g| g.amount).sum::<u32>()
    }

    /// How many placements this side makes, from its placement at `tick` on, before its
    /// incoming garbage falls, if it fires no chain meanwhile (0 with none incoming): a chain
    /// fired within them cancels garbage that has not fallen yet.
    pub fn placements_before_garbage(&self, tick: u32) -> u32 {
        if self.pending > 0 {
            // What a capped drop left falls right before the next placement.
            return 1;
        }
        self.in_flight.iter().map(|g| g.from_tick.saturating_sub(tick).max(1)).min().unwrap_or(0)
    }

    /// Cancels up to `g` of this side's incoming garbage; returns what is left to send.
    fn offset(&mut self, mut g: u32) -> u32 {
        let k = g.min(self.pending);
        self.pending -= k;
        g -= k;
        for f in &mut self.in_flight {
            let k = g.min(f.amount);
            f.amount -= k;
            g -= k;
        }
        self.in_flight.retain(|f| f.amount > 0);
        g
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Side 0 or 1 won.
    Win(usize),
    /// Both topped out at the same tick, or the move limit came.
    Draw,
}

/// A two-player game.
#[derive(Clone, Debug, PartialEq)]
pub struct Versus {
    /// The two players.
    pub sides: [Side; 2],
    /// The pair sequence both sides draw from.
    pub pairs: Vec<Pair>,
    /// Current time, in ticks (a placement takes one).
    pub tick: u32,
    /// How a chain's score becomes garbage.
    pub rule: GarbageRule,
    /// Ticks each chain link takes, during which the other side keeps placing (spec: 1).
    pub link_ticks: u32,
}

impl Versus {
    /// A game from `pairs`, with one tick per chain link (the spec's time model).
    pub fn new(pairs: Vec<Pair>, rule: GarbageRule) -> Versus {
        Versus { sides: [Side::default(), Side::default()], pairs, tick: 0, rule, link_ticks: 1 }
    }

    /// The sides that act this tick.
    pub fn to_move(&self) -> impl Iterator<Item = usize> + '_ {
        (0..2).filter(|&i| !self.sides[i].dead && self.sides[i].ready_at <= self.tick)
    }

    /// Garbage that has become droppable falls on side `i` (call before it decides).
    pub fn drop_garbage(&mut self, i: usize, rng: &mut impl Rng) {
        let tick = self.tick;
        let side = &mut self.sides[i];
        let (ready, later): (Vec<InFlight>, Vec<InFlight>) = side.in_flight.iter().partition(|g| g.from_tick <= tick);
        side.pending += ready.iter().map(|g| g.amount).sum::<u32>();
        side.in_flight = later;
        let dropped = side.field.drop_garbage(side.pending, rng);
        side.pending -= dropped;
    }

    /// Applies side `i`'s placement of its current pair (illegal or missing = it loses);
    /// returns the chain it set off.
    pub fn apply(&mut self, i: usize, placement: Option<Placement>) -> Option<Chain> {
        let pair = self.pair(i, 0);
        let (tick, link_ticks) = (self.tick, self.link_ticks);
        let side = &mut self.sides[i];
        let Some(chain) = placement.and_then(|p| side.field.play(pair, p)) else {
            side.dead = true;
            return None;
        };
        side.next += 1;
        side.moves += 1;
        let chain_ends = tick + 1 + link_ticks * chain.links;
        side.ready_at = chain_ends;
        side.best_chain = side.best_chain.max(chain.links);
        if side.field.is_dead() {
            side.dead = true;
        }
        let (garbage, carry) = self.rule.send(&chain, side.carry);
        side.carry = carry;
        let sent = side.offset(garbage);
        if sent > 0 {
            self.sides[1 - i].in_flight.push(InFlight { amount: sent, from_tick: chain_ends });
        }
        Some(chain)
    }

    /// The pair `ahead` places after side `i`'s current one (the sequence repeats if short).
    pub fn pair(&self, i: usize, ahead: usize) -> Pair {
        self.pairs[(self.sides[i].next + ahead) % self.pairs.len()]
    }

    /// Ends the tick; the outcome once a side is dead.
    pub fn end_tick(&mut self) -> Option<Outcome> {
        self.tick += 1;
        match (self.sides[0].dead, self.sides[1].dead) {
            (true, true) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win(1)),
            (false, true) => Some(Outcome::Win(0)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::games::puyo::rules::{HEIGHT, MAX_GARBAGE_DROP, Puyo, Rotation, WIDTH, pair_sequence};
    use crate::lab::rng::GameRng;

    #[test]
    fn garbage_offsets_then_travels_after_the_chain() {
        let mut g = Versus::new(vec![Pair::new(Puyo::Red, Puyo::Red)], GarbageRule::Tsu);
        g.sides[0].field = Field::from_ascii("RR....").unwrap();
        g.sides[0].pending = 1;
        g.apply(0, Some(Placement { col: 2, rot: Rotation::Right }));
        // 4 reds: score 40, nothing sent yet (40 < 70), carried.
        assert_eq!((g.sides[0].carry, g.sides[0].pending), (40, 1));
        assert_eq!(g.sides[0].ready_at, 2);
        g.sides[0].field = Field::from_ascii("RR....").unwrap();
        g.apply(0, Some(Placement { col: 2, rot: Rotation::Right }));
        // 40 + 40 = 80: one garbage, which cancels the pending one.
        assert_eq!((g.sides[0].carry, g.sides[0].pending), (10, 0));
        assert!(g.sides[1].in_flight.is_empty());
    }

    #[test]
    fn garbage_falls_after_the_senders_chain() {
        let mut g = Versus::new(vec![Pair::new(Puyo::Red, Puyo::Red)], GarbageRule::Paper);
        // A 2-link chain at tick 0: its garbage may fall from tick 3 on.
        g.sides[1].in_flight.push(InFlight { amount: 12, from_tick: 3 });
        assert_eq!(g.sides[1].placements_before_garbage(1), 2);
        assert_eq!(g.sides[0].placements_before_garbage(1), 0);
        g.tick = 3;
        g.sides[1].in_flight[0].amount = 40;
        g.drop_garbage(1, &mut crate::lab::rng::game_rng(1, 0));
        // 30 fell; the 10 left fall before the next placement.
        assert_eq!((g.sides[1].pending, g.sides[1].placements_before_garbage(3)), (10, 1));
    }

    #[test]
    fn the_papers_rule_sends_the_attack() {
        let mut g = Versus::new(vec![Pair::new(Puyo::Red, Puyo::Red)], GarbageRule::Paper);
        // Two reds beside two placed: one link of 4, attack 3·1·0 + 1·0 = 0; a link of 5 sends 1.
        g.sides[0].field = Field::from_ascii("RRR...").unwrap();
        g.apply(0, Some(Placement { col: 3, rot: Rotation::Right }));
        assert_eq!(g.sides[1].in_flight, vec![InFlight { amount: 1, from_tick: 2 }]);
        assert_eq!(g.sides[0].carry, 0);
    }

    #[test]
    fn chain_links_take_link_ticks() {
        let pair = Pair::new(Puyo::Red, Puyo::Red);
        // Placing at tick 5 fires one link of 5: busy (and the garbage held) until 5 + 1 + k.
        for link_ticks in [0, 1, 3] {
            let mut g = Versus::new(vec![pair], GarbageRule::Paper);
            (g.tick, g.link_ticks) = (5, link_ticks);
            g.sides[0].field = Field::from_ascii("RRR...").unwrap();
            g.apply(0, Some(Placement { col: 3, rot: Rotation::Right }));
            let ends = 6 + link_ticks;
            assert_eq!(g.sides[0].ready_at, ends);
            assert_eq!(g.sides[1].in_flight, vec![InFlight { amount: 1, from_tick: ends }]);
        }
    }

    #[test]
    fn a_game_ends_when_a_side_is_dead() {
        let mut g = Versus::new(vec![Pair::new(Puyo::Red, Puyo::Red)], GarbageRule::Paper);
        assert_eq!(g.end_tick(), None);
        for (dead, outcome) in
            [([false, true], Outcome::Win(0)), ([true, false], Outcome::Win(1)), ([true, true], Outcome::Draw)]
        {
            (g.sides[0].dead, g.sides[1].dead) = (dead[0], dead[1]);
            assert_eq!(g.end_tick(), Some(outcome), "{dead:?}");
        }
        assert_eq!(g.tick, 4);
    }

    /// A chain-seeking random player, so that chains and garbage are frequent: mostly the legal
    /// placement whose chain is longest (ties by `rng`), else any legal one (so that fields
    /// fill), now and then any placement at all (which may be illegal, and then loses); `None`
    /// when nothing is legal.
    fn chain_seeking_move(field: &Field, pair: Pair, rng: &mut GameRng) -> Option<Placement> {
        if rng.random_ratio(1, 20) {
            return Some(Placement::ALL[rng.random_range(0..Placement::ALL.len())]);
        }
        let legal: Vec<Placement> = field.legal_placements(pair).collect();
        if rng.random_ratio(1, 3) && !legal.is_empty() {
            return Some(legal[rng.random_range(0..legal.len())]);
        }
        let links = |p: Placement| {
            let mut f = *field;
            f.play(pair, p).map_or(0, |c| c.links)
        };
        let best = legal.iter().map(|&p| links(p)).max()?;
        let best: Vec<Placement> = legal.into_iter().filter(|&p| links(p) == best).collect();
        Some(best[rng.random_range(0..best.len())])
    }

    /// Lets side `i`'s droppable garbage fall and checks where it went: garbage in flight falls
    /// once its sender's chain has ended, at most 30 at a time, and every puyo taken from the
    /// account lands but those that do not fit in 13 rows.
    fn check_drop(g: &mut Versus, i: usize, rng: &mut GameRng) -> Result<(), TestCaseError> {
        let (before, tick) = (g.sides[i].clone(), g.tick);
        let (due, later): (Vec<InFlight>, Vec<InFlight>) = before.in_flight.iter().partition(|f| f.from_tick <= tick);
        let falls = before.pending + due.iter().map(|f| f.amount).sum::<u32>();
        g.drop_garbage(i, rng);
        let after = &g.sides[i];
        let taken = falls.min(MAX_GARBAGE_DROP);
        prop_assert_eq!(&after.in_flight, &later);
        prop_assert_eq!(after.pending, falls - taken);
        let landed = after.field.plane(Puyo::Garbage).count() - before.field.plane(Puyo::Garbage).count();
        prop_assert_eq!(after.field.count() - before.field.count(), landed);
        let room_for_all = (0..WIDTH).all(|c| before.field.height(c) + taken.div_ceil(WIDTH as u32) as usize <= HEIGHT);
        prop_assert!(landed <= taken && (landed == taken || !room_for_all), "{} of {} landed", landed, taken);
        Ok(())
    }

    /// Applies side `i`'s `placement` and checks the side's account: its own next pair played,
    /// busy until its chain ends, the chain's garbage by the rule cancelling its incoming garbage
    /// first and the rest travelling to the other side until the chain ends.
    fn check_apply(g: &mut Versus, i: usize, placement: Option<Placement>) -> Result<(), TestCaseError> {
        let (before, other_before, tick) = (g.sides[i].clone(), g.sides[1 - i].incoming(), g.tick);
        let pair = g.pairs[before.moves as usize % g.pairs.len()];
        for ahead in 0..3 {
            prop_assert_eq!(g.pair(i, ahead), g.pairs[(before.moves as usize + ahead) % g.pairs.len()]);
        }
        let mut field = before.field;
        let expected = placement.and_then(|p| field.play(pair, p));
        let chain = g.apply(i, placement);
        prop_assert_eq!(chain, expected);
        let (side, other) = (&g.sides[i], &g.sides[1 - i]);
        let Some(chain) = chain else {
            prop_assert!(side.dead, "a missing or illegal placement loses");
            return Ok(());
        };
        prop_assert_eq!(side.field, field);
        prop_assert_eq!(side.dead, field.is_dead());
        prop_assert_eq!((side.moves, side.next), (before.moves + 1, before.next + 1));
        prop_assert_eq!(side.best_chain, before.best_chain.max(chain.links));
        let chain_ends = tick + 1 + g.link_ticks * chain.links;
        prop_assert_eq!(side.ready_at, chain_ends);
        let garbage = match g.rule {
            GarbageRule::Paper => {
                prop_assert_eq!(side.carry, before.carry);
                chain.attack()
            }
            GarbageRule::Tsu => {
                let score = chain.score + before.carry - side.carry;
                prop_assert!(side.carry < 70 && score % 70 == 0, "carry {} of {}", side.carry, score);
                score / 70
            }
        };
        if before.carry == 0 {
            prop_assert_eq!(g.rule.garbage(&chain), garbage, "what a search estimates");
        }
        let cancelled = garbage.min(before.incoming());
        prop_assert_eq!(side.pending, before.pending - garbage.min(before.pending), "pending garbage cancels first");
        prop_assert_eq!(side.incoming(), before.incoming() - cancelled);
        prop_assert!(side.in_flight.iter().all(|f| f.amount > 0), "{:?}", side.in_flight);
        let sent = garbage - cancelled;
        prop_assert_eq!(other.incoming(), other_before + sent);
        if sent > 0 {
            prop_assert_eq!(other.in_flight.last(), Some(&InFlight { amount: sent, from_tick: chain_ends }));
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(48)))]

        /// Along games of chain-seeking random players on a short, repeating pair sequence, the
        /// sides that act are those alive and not busy, every drop and placement keeps the
        /// garbage accounts (`check_drop`, `check_apply`), and the game ends exactly when a side
        /// is dead.
        #[test]
        fn versus_play_keeps_its_garbage_accounts(seed in any::<u64>(), tsu in any::<bool>(), link_ticks in 0u32..3, len in 1usize..40) {
            let mut rng = GameRng::seed_from_u64(seed);
            let rule = if tsu { GarbageRule::Tsu } else { GarbageRule::Paper };
            let mut g = Versus::new(pair_sequence(&mut rng, 3, len), rule);
            g.link_ticks = link_ticks;
            for _ in 0..500 {
                let acting: Vec<usize> = g.to_move().collect();
                for (i, side) in g.sides.iter().enumerate() {
                    prop_assert_eq!(acting.contains(&i), !side.dead && side.ready_at <= g.tick);
                }
                for &i in &acting {
                    check_drop(&mut g, i, &mut rng)?;
                }
                let chosen: Vec<(usize, Option<Placement>)> =
                    acting.iter().map(|&i| (i, chain_seeking_move(&g.sides[i].field, g.pair(i, 0), &mut rng))).collect();
                for (i, placement) in chosen {
                    check_apply(&mut g, i, placement)?;
                }
                let (dead, tick) = (g.sides.each_ref().map(|s| s.dead), g.tick);
                let outcome = g.end_tick();
                prop_assert_eq!(g.tick, tick + 1);
                let expected = match dead {
                    [true, true] => Some(Outcome::Draw),
                    [true, false] => Some(Outcome::Win(1)),
                    [false, true] => Some(Outcome::Win(0)),
                    [false, false] => None,
                };
                prop_assert_eq!(outcome, expected);
                if outcome.is_some() {
                    break;
                }
            }
        }
    }
}
