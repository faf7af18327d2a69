//! Reproducible seeding. Every game of a batch gets its own generator derived from the base
//! seed and the game's index, so results never depend on thread count, scheduling or sharding.

use rand::SeedableRng;

/// The generator used everywhere in asobi: small, fast and stable across crate versions.
pub type GameRng = rand_pcg::Pcg64Mcg;

/// SplitMix64 finalizer: spreads nearby seeds/indices over the whole 64-bit space.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator for game `index` of a batch run with `base_seed`.
pub fn game_rng(base_seed: u64, index: u64) -> GameRng {
    GameRng::seed_from_u64(mix64(mix64(base_seed) ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)))
}

/// A generator for a named purpose within one game (e.g. "deal" vs "ai"), so adding random
/// draws to one purpose does not shift the stream of another.
pub fn sub_rng(base_seed: u64, index: u64, stream: u64) -> GameRng {
    game_rng(mix64(base_seed ^ stream.wrapping_mul(0xA24B_AED4_963E_E407)), index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn same_seed_and_index_give_same_stream() {
        let a: Vec<u32> = (0..8).map(|_| 0).scan(game_rng(7, 3), |r, _: u32| Some(r.random())).collect();
        let b: Vec<u32> = (0..8).map(|_| 0).scan(game_rng(7, 3), |r, _: u32| Some(r.random())).collect();
        assert_eq!(a, b);
    }

    #[test]
    fn neighbouring_indices_differ() {
        let x: u64 = game_rng(7, 3).random();
        let y: u64 = game_rng(7, 4).random();
        let z: u64 = sub_rng(7, 3, 1).random();
        assert_ne!(x, y);
        assert_ne!(x, z);
    }
}
