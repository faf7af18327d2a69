//! The stack game (paper §3, spec §3): Calculation with every card's foundation fixed and the
//! foundations' next cards drawn last, so every drawn card goes onto a stack. Its exact success
//! probability for one and two foundations is what the player combines (spec §4).
//!
//! A position restricted to one or two foundations has a special shape: the stock cards of one
//! foundation are totally ordered (the foundation order), so each foundation is a *chain* of
//! cards with nested forbidden-stack sets, and the precedence between the two chains is a
//! staircase: `cross[c][i]` = the first card of the other chain that card i of chain c must
//! precede. This makes positions small `Copy` values and the successor rule a few loops.
//!
//! Values are exact (f64) and memoized per thread under a canonical 91-bit key: stacks
//! relabelled by sorting their signatures (permutations of stacks) and the two chains in
//! either order. The key keeps chain identity, which is sound for caching (spec §10.2) but
//! coarser than the full DAG isomorphism of Tables 1–2 (see the tests for which table entries
//! it reproduces).

use rustc_hash::FxBuildHasher;
use std::cell::RefCell;
use std::collections::HashMap;

/// Most stacks the stack game handles (4-bit forbidden sets in the key).
pub const MAX_STACKS: usize = 4;
/// Longest chain: a foundation's 13 slots less its next card (the head rule).
pub const MAX_CHAIN: usize = 12;
/// Cached positions per thread before the cache is cleared (about 30 bytes each).
const CACHE_LIMIT: usize = 1 << 24;
/// Slots of the entry cache per thread (40 bytes each): small enough to stay in the
/// processor's caches.
const ENTRY_BITS: u32 = 15;

/// A stack-game position over one or two foundations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    stacks: u8,
    len: [u8; 2],
    /// Forbidden stacks of each card, by chain; nested along a chain.
    mask: [[u8; MAX_CHAIN]; 2],
    /// `cross[c][i]`: first index j of chain 1−c with (c, i) before (1−c, j); the other
    /// chain's length when none. Non-decreasing in i.
    cross: [[u8; MAX_CHAIN]; 2],
}

impl Position {
    /// One foundation: `masks` are the forbidden stacks of its stock cards in foundation order.
    pub fn single(stacks: usize, masks: &[u8]) -> Position {
        Position::pair(stacks, masks, &[], &[0; MAX_CHAIN], &[])
    }

    /// Two foundations: their chains' masks and the cross staircases (see the field docs).
    pub fn pair(stacks: usize, a: &[u8], b: &[u8], cross_a: &[u8], cross_b: &[u8]) -> Position {
        assert!((1..=MAX_STACKS).contains(&stacks), "the stack game handles 1..={MAX_STACKS} stacks");
        assert!(a.len() <= MAX_CHAIN && b.len() <= MAX_CHAIN, "chains hold at most {MAX_CHAIN} cards");
        let mut p = Position {
            stacks: stacks as u8,
            len: [a.len() as u8, b.len() as u8],
            mask: [[0; MAX_CHAIN]; 2],
            cross: [[0; MAX_CHAIN]; 2],
        };
        p.mask[0][..a.len()].copy_from_slice(a);
        p.mask[1][..b.len()].copy_from_slice(b);
        p.cross[0][..a.len()].copy_from_slice(&cross_a[..a.len()]);
        p.cross[1][..b.len()].copy_from_slice(&cross_b[..b.len()]);
        p
    }

    /// Stock cards in the position.
    pub fn cards(&self) -> usize {
        (self.len[0] + self.len[1]) as usize
    }

    fn full(&self) -> u8 {
        (1u8 << self.stacks) - 1
    }

    /// Some card may go on no stack (masks are nested, so the last of each chain tells).
    fn dead(&self) -> bool {
        (0..2).any(|c| self.len[c] > 0 && self.mask[c][self.len[c] as usize - 1] == self.full())
    }

    /// The successor rule (spec §3.2): card i of chain c goes on stack s.
    pub fn place(&self, c: usize, i: usize, s: u8) -> Position {
        let o = 1 - c;
        let (lc, lo) = (self.len[c] as usize, self.len[o] as usize);
        let add = self.mask[c][i] | (1 << s);
        let mut p = *self;
        // Z in the own chain is every later card: those blocked behind s come after i anyway.
        for m in &mut p.mask[c][i + 1..lc] {
            *m |= add;
        }
        // Z in the other chain: i's successors and the cards already blocked behind stack s.
        let blocked = (0..lo).find(|&j| self.mask[o][j] & (1 << s) != 0).unwrap_or(lo);
        let from = (self.cross[c][i] as usize).min(blocked);
        for m in &mut p.mask[o][from..lo] {
            *m |= add;
        }
        // i's predecessors in its own chain now precede all of Z (the other chain's
        // predecessors of i precede the own part of Z already, and the rest is their own chain).
        for x in &mut p.cross[c][..i] {
            *x = (*x).min(from as u8);
        }
        // Remove card i.
        p.mask[c].copy_within(i + 1..lc, i);
        p.cross[c].copy_within(i + 1..lc, i);
        p.mask[c][lc - 1] = 0;
        p.cross[c][lc - 1] = 0;
        p.len[c] -= 1;
        for x in &mut p.cross[o][..lo] {
            if *x as usize > i {
                *x -= 1;
            }
        }
        p
    }

    /// Each stack's signature: where it first becomes forbidden in chain 0 (low nibble) and
    /// chain 1 (high nibble), the chain's length when nowhere. Masks are nested along a chain,
    /// so two stacks with the same signature are interchangeable, and the first forbidden card
    /// is the chain's length less the cards forbidden there (a popcount over the mask bytes).
    fn signatures(&self) -> [u8; MAX_STACKS] {
        const ONES: u64 = 0x0101_0101_0101_0101;
        let mut sig = [0u8; MAX_STACKS];
        for c in 0..2 {
            let (lo, hi) = split_bytes(&self.mask[c]);
            for (s, entry) in sig.iter_mut().enumerate().take(self.stacks as usize) {
                let forbidden = (lo >> s & ONES).count_ones() + (hi >> s & ONES).count_ones();
                *entry |= (self.len[c] - forbidden as u8) << (4 * c);
            }
        }
        sig
    }

    /// The position itself, packed (every entry is below 16): the key of the entry cache.
    fn raw_key(&self) -> [u64; 4] {
        let pack = |bytes: &[u8; MAX_CHAIN]| {
            let (lo, hi) = split_bytes(bytes);
            nibbles(lo) | nibbles(hi) << 32
        };
        let meta = self.len[0] as u64 | (self.len[1] as u64) << 4 | (self.stacks as u64) << 8;
        [pack(&self.mask[0]) | meta << 48, pack(&self.mask[1]), pack(&self.cross[0]), pack(&self.cross[1])]
    }

    /// The cache key with chains in order `(c0, 1 − c0)`, packed into 91 bits: the lengths,
    /// the sorted stack signatures (a canonical relabelling of the stacks) and each cross
    /// staircase in unary (a 1 per step of the other chain, a 0 per card: at most
    /// `len[0] + len[1]` bits).
    fn key_from(&self, c0: usize, sig: &[u8; MAX_STACKS]) -> Key {
        let stacks = self.stacks as usize;
        let mut sorted = [0u8; MAX_STACKS];
        for (to, &x) in sorted.iter_mut().zip(&sig[..stacks]) {
            *to = if c0 == 0 { x } else { x.rotate_left(4) };
        }
        sorted[..stacks].sort_unstable();
        let mut key = self.stacks as u128 | (self.len[c0] as u128) << 3 | (self.len[1 - c0] as u128) << 7;
        for (s, &x) in sorted.iter().enumerate() {
            key |= (x as u128) << (11 + 8 * s);
        }
        for (k, c) in [c0, 1 - c0].into_iter().enumerate() {
            let mut bits = 0u32;
            let (mut pos, mut prev) = (0u32, 0u8);
            for &x in &self.cross[c][..self.len[c] as usize] {
                bits |= ((1u32 << (x - prev)) - 1) << pos;
                pos += (x - prev) as u32 + 1;
                prev = x;
            }
            key |= (bits as u128) << (43 + 24 * k);
        }
        Key(key as u64, (key >> 64) as u32)
    }

    fn key(&self, sig: &[u8; MAX_STACKS]) -> Key {
        if self.len[1] == 0 { self.key_from(0, sig) } else { self.key_from(0, sig).min(self.key_from(1, sig)) }
    }

    /// The exact success probability under best play. The player asks for the same few
    /// positions over and over (every plan of a decision shares most chains), so a small cache
    /// keyed by the position itself answers before the canonical form is computed.
    pub fn value(&self) -> f64 {
        if self.cards() == 0 {
            return 1.0;
        }
        let key = self.raw_key();
        let slot = entry_slot(&key);
        if let Some(v) = ENTRY_CACHE.with(|c| c.borrow().get(slot).and_then(|e| (e.0 == key).then_some(e.1))) {
            return v;
        }
        let v = self.solve();
        ENTRY_CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.is_empty() {
                c.resize(1 << ENTRY_BITS, ([u64::MAX; 4], 0.0)); // no position packs to all ones
            }
            c[slot] = (key, v);
        });
        v
    }

    /// Memoized exhaustive search under the canonical key. The card values are summed in
    /// sorted order, so a value does not depend on which member of its class was solved first
    /// (the cache's history, and with it the thread count, never changes a result).
    fn solve(&self) -> f64 {
        if self.cards() == 0 {
            return 1.0;
        }
        if self.dead() {
            return 0.0;
        }
        let sig = self.signatures();
        let key = self.key(&sig);
        if let Some(v) = CACHE.with(|c| c.borrow().get(&key).copied()) {
            return v;
        }
        // Only the first of each class of interchangeable stacks needs trying.
        let stacks = (0..self.stacks).filter(|&s| !sig[..s as usize].contains(&sig[s as usize]));
        let mut bests = [0.0f64; 2 * MAX_CHAIN];
        let mut k = 0;
        for c in 0..2 {
            for i in 0..self.len[c] as usize {
                for s in stacks.clone() {
                    if self.mask[c][i] >> s & 1 == 0 {
                        bests[k] = bests[k].max(self.place(c, i, s).solve());
                        if bests[k] == 1.0 {
                            break;
                        }
                    }
                }
                k += 1;
            }
        }
        bests[..k].sort_unstable_by(f64::total_cmp);
        let v = bests[..k].iter().sum::<f64>() / k as f64;
        CACHE.with(|c| insert_bounded(&mut c.borrow_mut(), key, v));
        v
    }

    /// Canonical positions reachable from this one that are neither empty nor dead,
    /// this one included: the counts of the paper's Tables 1–2 under this module's key.
    pub fn count_reachable(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![*self];
        while let Some(p) = todo.pop() {
            if p.cards() == 0 || p.dead() || !seen.insert(p.key(&p.signatures())) {
                continue;
            }
            for c in 0..2 {
                for i in 0..p.len[c] as usize {
                    for s in 0..p.stacks {
                        if p.mask[c][i] >> s & 1 == 0 {
                            todo.push(p.place(c, i, s));
                        }
                    }
                }
            }
        }
        seen.len()
    }
}

/// The first 8 and the last 4 of 12 bytes, little-endian.
fn split_bytes(bytes: &[u8; MAX_CHAIN]) -> (u64, u64) {
    let lo = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    let hi = u32::from_le_bytes(bytes[8..].try_into().expect("4 bytes"));
    (lo, hi as u64)
}

/// The low nibbles of the 8 bytes of `x`, packed into 32 bits.
fn nibbles(x: u64) -> u64 {
    let x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    let x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) & 0xFFFF_FFFF
}

type Cache = HashMap<Key, f64, FxBuildHasher>;

/// The entry-cache slot of a packed position.
fn entry_slot(key: &[u64; 4]) -> usize {
    let h = key[0] ^ key[1].rotate_left(16) ^ key[2].rotate_left(32) ^ key[3].rotate_left(48);
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - ENTRY_BITS)) as usize
}

/// Inserts, first clearing a cache that reached [`CACHE_LIMIT`] (memory stays bounded).
fn insert_bounded(cache: &mut Cache, key: Key, v: f64) {
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    cache.insert(key, v);
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Key(u64, u32);

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(HashMap::default());
    /// Direct-mapped: a position evicts whatever shared its slot.
    static ENTRY_CACHE: RefCell<Vec<([u64; 4], f64)>> = const { RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: usize) -> Vec<u8> {
        vec![0; n]
    }

    /// Brute force straight from the definition (spec §3.2) on a general DAG of single cards:
    /// `succ[x]` = cards that must come after x (transitively closed), `forbid[x]` = stacks.
    fn brute(stacks: u8, succ: Vec<u32>, forbid: Vec<u8>) -> f64 {
        let n = succ.len();
        if n == 0 {
            return 1.0;
        }
        if forbid.iter().any(|&f| f == (1 << stacks) - 1) {
            return 0.0;
        }
        let mut sum = 0.0;
        for x in 0..n {
            let mut best = 0.0f64;
            for s in 0..stacks {
                if forbid[x] >> s & 1 == 1 {
                    continue;
                }
                let z: Vec<usize> =
                    (0..n).filter(|&z| z != x && (succ[x] >> z & 1 == 1 || forbid[z] >> s & 1 == 1)).collect();
                let (mut succ2, mut forbid2) = (succ.clone(), forbid.clone());
                for &zz in &z {
                    forbid2[zz] |= forbid[x] | 1 << s;
                }
                for r in 0..n {
                    if succ[r] >> x & 1 == 1 {
                        for &zz in &z {
                            succ2[r] |= 1 << zz;
                        }
                    }
                }
                let keep: Vec<usize> = (0..n).filter(|&k| k != x).collect();
                let squeeze =
                    |bits: u32| keep.iter().enumerate().fold(0u32, |acc, (new, &old)| acc | ((bits >> old & 1) << new));
                let v = brute(
                    stacks,
                    keep.iter().map(|&k| squeeze(succ2[k])).collect(),
                    keep.iter().map(|&k| forbid2[k]).collect(),
                );
                best = best.max(v);
            }
            sum += best;
        }
        sum / n as f64
    }

    /// The general-DAG form of a chain-pair position, for [`brute`].
    fn as_dag(p: &Position) -> (Vec<u32>, Vec<u8>) {
        let (la, lb) = (p.len[0] as usize, p.len[1] as usize);
        let id = |c: usize, i: usize| if c == 0 { i } else { la + i };
        let mut succ = vec![0u32; la + lb];
        let mut forbid = vec![0u8; la + lb];
        for c in 0..2 {
            let (l, lo) = (p.len[c] as usize, p.len[1 - c] as usize);
            for i in 0..l {
                forbid[id(c, i)] = p.mask[c][i];
                for k in i + 1..l {
                    succ[id(c, i)] |= 1 << id(c, k);
                }
                for j in p.cross[c][i] as usize..lo {
                    succ[id(c, i)] |= 1 << id(1 - c, j);
                }
            }
        }
        (succ, forbid)
    }

    #[test]
    fn the_papers_example_graph() {
        // Spec §4: a=[7{}] → b=[1{1}] ← c=[3{}] → d=[1{1}], 3 stacks; its value is p0 of the
        // worked example... as chains: a,b is foundation 0 (7 cards then K-0); c,d foundation 3.
        let a = [0, 0, 0, 0, 0, 0, 0, 2];
        let b = [0, 0, 0, 2];
        // every card of c precedes b (index 7 of chain a); a never precedes chain b.
        let p = Position::pair(3, &a, &b, &[4; 8], &[7, 7, 7, 8]);
        assert!((Position::single(3, &a).value() - 0.3910466).abs() < 5e-8);
        assert!((Position::single(3, &b).value() - 23.0 / 24.0).abs() < 1e-12);
        assert!((p.value() - 0.3513412).abs() < 5e-8, "{}", p.value());
    }

    #[test]
    fn matches_brute_force_on_tiny_instances() {
        let cases = [
            Position::pair(2, &[0, 0, 1], &[0, 1], &[1, 2, 2], &[2, 3]),
            Position::pair(3, &[0, 0, 2], &[0, 2, 2], &[3, 3, 3], &[2, 3, 3]),
            Position::pair(2, &[0, 0, 0], &[0, 0, 0], &[3, 3, 3], &[3, 3, 3]),
            Position::pair(3, &[0, 1, 1, 3], &[1, 3], &[2, 2, 2, 2], &[4, 4]),
            Position::single(2, &[0, 0, 0, 1, 1]),
        ];
        for p in cases {
            let (succ, forbid) = as_dag(&p);
            let want = brute(p.stacks, succ, forbid);
            assert!((p.value() - want).abs() < 1e-12, "{p:?}: {} vs brute {want}", p.value());
        }
    }

    /// Random valid positions of up to 7 cards (nested masks, acyclic closed staircases whose
    /// forbidden sets grow along every edge) against the definition.
    #[test]
    fn matches_brute_force_on_random_instances() {
        use rand::Rng;
        let mut rng = crate::lab::rng::game_rng(5, 0);
        let mut checked = 0;
        while checked < 300 {
            let stacks = rng.random_range(2..=3u8);
            let (la, lb) = (rng.random_range(0..=4usize), rng.random_range(0..=3usize));
            let firsts = |rng: &mut crate::lab::rng::GameRng, l: usize| -> Vec<u8> {
                let f: Vec<usize> = (0..stacks).map(|_| rng.random_range(0..=l + 2).min(l)).collect();
                (0..l).map(|i| (0..stacks).filter(|&s| f[s as usize] <= i).fold(0u8, |m, s| m | 1 << s)).collect()
            };
            let (ma, mb) = (firsts(&mut rng, la), firsts(&mut rng, lb));
            let stairs = |rng: &mut crate::lab::rng::GameRng, l: usize, o: usize| -> Vec<u8> {
                let mut v: Vec<u8> = (0..l).map(|_| rng.random_range(0..=o + 2).min(o) as u8).collect();
                v.sort_unstable();
                v
            };
            let (ca, cb) = (stairs(&mut rng, la, lb), stairs(&mut rng, lb, la));
            let p = Position::pair(stacks as usize, &ma, &mb, &ca, &cb);
            let (succ, forbid) = as_dag(&p);
            let n = succ.len();
            // Keep acyclic positions whose forbidden sets grow along every edge.
            if (0..n).any(|x| succ[x] >> x & 1 == 1) {
                continue;
            }
            let closed = (0..n).all(|x| (0..n).all(|y| succ[x] >> y & 1 == 0 || (succ[y] & !succ[x]) == 0));
            let nested = (0..n).all(|x| (0..n).all(|y| succ[x] >> y & 1 == 0 || forbid[x] & !forbid[y] == 0));
            if !closed || !nested {
                continue;
            }
            let want = brute(stacks, succ, forbid);
            assert!((p.value() - want).abs() < 1e-12, "{p:?}: {} vs brute {want}", p.value());
            checked += 1;
        }
    }

    /// A value must not depend on which member of its class a fresh cache solved first
    /// (the thread-count independence of every experiment rests on it). Each thread starts
    /// with empty caches; the twin has its chains swapped and its stacks relabelled s → 2 − s.
    #[test]
    fn values_are_the_same_bits_whichever_twin_is_solved() {
        let relabel = |m: &[u8]| -> Vec<u8> {
            m.iter().map(|&x| (0..3).filter(|s| x >> s & 1 == 1).fold(0, |a, s| a | 4 >> s)).collect()
        };
        let solve = |x: Position| std::thread::spawn(move || x.value().to_bits()).join().unwrap();
        for n in 5..=8 {
            let (a, b) = (vec![0; n], [vec![0; n - 2], vec![1, 3]].concat());
            let (ca, cb) = (vec![n as u8 - 1; n], vec![n as u8; n]);
            let p = Position::pair(3, &a, &b, &ca, &cb);
            let twin = Position::pair(3, &relabel(&b), &relabel(&a), &cb, &ca);
            assert_eq!(solve(p), solve(twin), "n = {n}");
        }
    }

    #[test]
    fn signatures_mark_where_each_stack_is_first_forbidden() {
        // Stack 0 is forbidden from card 2 of chain 0, stack 1 from card 3, stack 2 from
        // card 1 of chain 1; a chain where a stack is never forbidden gives its length.
        let p = Position::pair(3, &[0, 0, 1, 3], &[0, 4], &[2; 4], &[4; 2]);
        assert_eq!(p.signatures(), [2 | 2 << 4, 3 | 2 << 4, 4 | 1 << 4, 0]);
    }

    /// The entry cache packs every card: positions that differ only in their last two cards
    /// (of 8, the end of one packed word, or of 12, the end of all) get their own values.
    #[test]
    fn the_entry_cache_tells_apart_positions_that_differ_only_in_the_last_cards() {
        let alone = |x: Position| std::thread::spawn(move || x.value()).join().unwrap();
        for n in [8, 12] {
            let free = Position::single(3, &chain(n));
            let last_forbidden = Position::single(3, &[chain(n - 2), vec![3, 3]].concat());
            let in_turn = std::thread::spawn(move || (free.value(), last_forbidden.value())).join().unwrap();
            assert_ne!(alone(free), alone(last_forbidden), "n = {n}");
            assert_eq!(in_turn, (alone(free), alone(last_forbidden)), "n = {n}");
        }
    }

    #[test]
    fn successor_example_of_the_paper() {
        // Spec §3.2: (a)=[7{}]→(b)=[1{1}], (c)=[3{}]→(b), (c)→(d)=[1{1}]; draw c's 2nd card.
        // Chain 0 = a then b, chain 1 = c then d.
        let p = Position::pair(3, &[0, 0, 0, 0, 0, 0, 0, 2], &[0, 0, 0, 2], &[4; 8], &[7, 7, 7, 8]);
        let q = p.place(1, 1, 0);
        // c1 = [1{}], c3 = [1{0}], b = [1{0,1}], d = [1{0,1}]; c1 → c3, c3 → b, c3 → d, a → b.
        assert_eq!(&q.mask[1][..3], &[0, 1, 3]);
        assert_eq!(q.mask[0][7], 3);
        assert_eq!(&q.cross[1][..3], &[7, 7, 8]);
        let q = p.place(1, 1, 2);
        assert_eq!(&q.mask[1][..3], &[0, 4, 6]);
        assert_eq!(q.mask[0][7], 6);
    }

    #[test]
    fn table_counts_single_foundation() {
        // Row m = 1 of Tables 1 (3 stacks) and 2 (4 stacks).
        let t1 = [1, 3, 7, 14, 25, 41, 63, 92, 129, 175, 231, 298];
        let t2 = [1, 3, 7, 15, 30, 56, 98, 162, 255, 385, 561, 793];
        for n in 1..=12 {
            assert_eq!(Position::single(3, &chain(n)).count_reachable(), t1[n - 1], "3 stacks n={n}");
            assert_eq!(Position::single(4, &chain(n)).count_reachable(), t2[n - 1], "4 stacks n={n}");
        }
        // Row m = 2: equal to the paper up to n = 2; from n = 3 the chain-keeping key merges
        // fewer positions than full DAG isomorphism (spec §3.4: 68 instead of 65).
        let pair = |s: usize, n: usize| Position::pair(s, &chain(n), &chain(n), &vec![n as u8; n], &vec![n as u8; n]);
        assert_eq!([1, 2, 3].map(|n| pair(3, n).count_reachable()), [2, 12, 68]);
        assert_eq!([1, 2].map(|n| pair(4, n).count_reachable()), [2, 12]);
    }
}
