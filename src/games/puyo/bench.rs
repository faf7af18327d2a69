//! `asobi bench` entries of Puyo: placements with chain resolution on random fields, a
//! depth-3 template decision and a decision of asobi's chain builder.

use std::sync::OnceLock;

use rand::Rng;

use super::ai::Observation;
use super::ai::builder::{self, BuilderParams};
use super::ai::template_search::{TemplateParams, search};
use super::ai::{labeling::CompileOptions, template::Template, template::load_group};
use super::rules::{Field, Pair, Placement, pair_sequence};
use crate::lab::bench::Bench;
use crate::lab::rng::game_rng;

/// The Puyo Puyo benches of `asobi bench`.
pub fn benches() -> Vec<Bench> {
    vec![
        Bench { name: "puyo/placements", unit: "placements with chain resolution", batch: placements },
        Bench { name: "puyo/template_depth3", unit: "depth-3 template decisions (stairs8)", batch: template_depth3 },
        Bench { name: "puyo/builder", unit: "decisions of asobi's chain builder", batch: builder_decision },
    ]
}

/// Random games of 40 moves; at every position all 22 placements of the next pair are played
/// on copies too. Every counted operation places a pair and resolves its chain.
fn placements(seed: u64) -> u64 {
    let mut rng = game_rng(seed, 0);
    let mut ops = 0;
    for _ in 0..8 {
        let mut f = Field::new();
        for _ in 0..40 {
            let pair = Pair::random(&mut rng, 4);
            for &p in &Placement::ALL {
                let mut g = f;
                ops += g.play(pair, p).is_some() as u64;
            }
            let p = Placement::ALL[rng.random_range(0..22)];
            if f.play(pair, p).is_some() {
                ops += 1;
            }
            if f.is_dead() {
                f = Field::new();
            }
        }
    }
    ops
}

fn stairs() -> &'static [Template] {
    static T: OnceLock<Vec<Template>> = OnceLock::new();
    T.get_or_init(|| load_group("stairs8", &CompileOptions::default()).expect("shipped templates compile"))
}

/// One depth-3 decision on a field of 10 random plays.
fn template_depth3(seed: u64) -> u64 {
    let mut rng = game_rng(seed, 1);
    let mut f = Field::new();
    for _ in 0..10 {
        let pair = Pair::random(&mut rng, 4);
        let p = Placement::ALL[rng.random_range(0..22)];
        f.play(pair, p);
    }
    let pairs = pair_sequence(&mut rng, 4, 3);
    let _ = search(stairs(), &TemplateParams::default(), &f, &pairs, 4);
    1
}

/// Positions from the builder's own endless play (every 8th of 40 moves), with the pairs
/// it knew there: a builder decision on random junk would not be typical.
fn builder_positions() -> &'static [(Field, Vec<Pair>)] {
    static P: OnceLock<Vec<(Field, Vec<Pair>)>> = OnceLock::new();
    P.get_or_init(|| {
        let pairs = pair_sequence(&mut game_rng(7, 2), 4, 43);
        let mut field = Field::new();
        let mut positions = Vec::new();
        for m in 0..40 {
            let known = pairs[m..m + 3].to_vec();
            if m % 8 == 7 {
                positions.push((field, known.clone()));
            }
            let obs = Observation::alone(&field, &known);
            match builder::decide(&BuilderParams::default(), &obs, 4) {
                Some(c) if !c.fires => {
                    field.play(pairs[m], c.placement);
                }
                _ => field = Field::new(),
            }
        }
        positions
    })
}

fn builder_decision(seed: u64) -> u64 {
    let positions = builder_positions();
    let (field, pairs) = &positions[seed as usize % positions.len()];
    let _ = builder::decide(&BuilderParams::default(), &Observation::alone(field, pairs), 4);
    1
}
