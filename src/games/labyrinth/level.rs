//! The RON formats of Labyrinth: the parameter presets of every bot (`levels/labyrinth/*.ron`).
//! Compiled twice: in the crate, and by `build.rs`, which validates every file under
//! `levels/labyrinth/` with it, so it may use only `serde`, `ron` and `std`.
//!
//! Every constant of every heuristic lives here; `Default` is the thesis (Miyamoto 2024,
//! §3.2-3.3) or, for the web project's bots, what their code does (spec §3).

use serde::{Deserialize, Serialize};

/// All tunable constants of all bots. Fields left out of a preset keep their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    /// Big Brain's node budget and visited rule.
    pub big_brain: BigBrainParams,
    /// Saboteur's bonus and penalty.
    pub saboteur: SaboteurParams,
    /// The thesis's common search framework (§3.1), shared by the five criteria.
    pub search: SearchParams,
    /// The treasure-count criterion's weights.
    pub treasure_count: Criterion,
    /// The distance criterion's weights.
    pub distance: Criterion,
    /// The static-tile criterion's weights.
    pub static_tile: Criterion,
    /// The hybrid criterion's weights.
    pub hybrid: Criterion,
    /// The slide-direction criterion's weights.
    pub slide_direction: Criterion,
    /// asobi's bot.
    pub asobi: AsobiParams,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            big_brain: BigBrainParams::default(),
            saboteur: SaboteurParams::default(),
            search: SearchParams::default(),
            treasure_count: Criterion::TREASURE_COUNT,
            distance: Criterion::DISTANCE,
            static_tile: Criterion::STATIC_TILE,
            hybrid: Criterion::HYBRID,
            slide_direction: Criterion::SLIDE_DIRECTION,
            asobi: AsobiParams::default(),
        }
    }
}

/// Big Brain: breadth-first search over the bot's own turns (spec §3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BigBrainParams {
    /// Generated children (turn candidates) before giving up; replaces the 5000 ms clock.
    pub budget: u64,
    /// The web project's rule: a node is visited when any visited node has the bot on the same
    /// cell (at most 49 nodes queued). `false`: visited means the same full state.
    pub position_only_visited: bool,
}

impl Default for BigBrainParams {
    fn default() -> Self {
        BigBrainParams { budget: 20_000, position_only_visited: true }
    }
}

/// Saboteur: one-ply, hinders the other players (spec §3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SaboteurParams {
    /// Bonus for ending on a tile that holds another player's piece.
    pub share_bonus: f64,
    /// Penalty per tile another player can reach (the web code uses 2, the thesis says 1).
    pub reach_penalty: f64,
}

impl Default for SaboteurParams {
    fn default() -> Self {
        SaboteurParams { share_bonus: 10.0, reach_penalty: 2.0 }
    }
}

/// The common framework (thesis §3.1): threshold, then expand children in descending score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchParams {
    /// Generated children before giving up and playing the best depth-1 child.
    pub budget: u64,
    /// Deepest own turn searched (1 = only the current turn).
    pub max_depth: u32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams { budget: 20_000, max_depth: 8 }
    }
}

/// One criterion: the five of the thesis are five settings of this one linear score
/// (§3.2-3.3; spec §4.3):
///
/// `score = target·[dest = T] + base − distance·d − wall·wall + fixed·fixed + two_dir·twoDir
///          + mine·mine − opp·opp − opp_home·[an opponent going home can reach it]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Criterion {
    /// When the destination is the target itself.
    pub target: f64,
    /// Added to every child's score.
    pub base: f64,
    /// Per unit of Manhattan distance from the destination to the target.
    pub distance: f64,
    /// When every side of the target facing the destination is closed.
    pub wall: f64,
    /// Destination is a fixed tile (start corners included).
    pub fixed: f64,
    /// Destination is a loose cell on exactly one movable line.
    pub two_dir: f64,
    /// Per unrevealed treasure the bot can reach after the insertion.
    pub mine: f64,
    /// Per unrevealed treasure the opponents can reach after the insertion (summed).
    pub opp: f64,
    /// When an opponent with every card revealed can reach their start corner.
    pub opp_home: f64,
    /// `None`: a node passes when its destination is the target (the thesis's implied rule).
    /// `Some(x)`: it passes when its score is at least x.
    pub threshold: Option<f64>,
    /// d used when the target is the spare tile (off the board).
    pub offboard_distance: f64,
}

impl Criterion {
    const ZERO: Criterion = Criterion {
        target: 0.0,
        base: 0.0,
        distance: 0.0,
        wall: 0.0,
        fixed: 0.0,
        two_dir: 0.0,
        mine: 0.0,
        opp: 0.0,
        opp_home: 0.0,
        threshold: None,
        offboard_distance: 12.0,
    };
    /// 宝物残数推測型: 25·\[T\] + mine − opp − 25·\[opponent home\].
    pub const TREASURE_COUNT: Criterion =
        Criterion { target: 25.0, mine: 1.0, opp: 1.0, opp_home: 25.0, ..Criterion::ZERO };
    /// 移動距離型: 15 − d − 2·wall.
    pub const DISTANCE: Criterion = Criterion { base: 15.0, distance: 1.0, wall: 2.0, ..Criterion::ZERO };
    /// 静的タイル優先型: 150 − 10·d − 20·wall + 5·fixed.
    pub const STATIC_TILE: Criterion =
        Criterion { base: 150.0, distance: 10.0, wall: 20.0, fixed: 5.0, ..Criterion::ZERO };
    /// ハイブリッド型: 10·mine − 10·opp + 150 − 10·d − 20·wall + 5·fixed.
    pub const HYBRID: Criterion = Criterion { mine: 10.0, opp: 10.0, ..Criterion::STATIC_TILE };
    /// スライド方向考慮型: 300 − 20·d − 40·wall + 10·fixed + 5·twoDir.
    pub const SLIDE_DIRECTION: Criterion =
        Criterion { base: 300.0, distance: 20.0, wall: 40.0, fixed: 10.0, two_dir: 5.0, ..Criterion::ZERO };
}

/// asobi's own bot: the chance of reaching the target by the next own turn, averaged over the
/// next opponent's replies, minus the chance that the opponent reaches a likely target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AsobiParams {
    /// Value of reaching the target this turn (the chance-based values lie in 0..=1).
    pub reach_now: f64,
    /// Weight of the opponent's chance to reach one of the possible targets next turn.
    pub threat: f64,
    /// Bonus for ending on a fixed tile (it cannot be slid away).
    pub fixed: f64,
    /// Per wall to break through (0-1 BFS maze distance to the target), the tie-breaker.
    pub maze_distance: f64,
    /// How many of the opponent's spare rotations to average over (1-4).
    pub reply_rotations: u8,
}

impl Default for AsobiParams {
    fn default() -> Self {
        AsobiParams { reach_now: 2.0, threat: 0.5, fixed: 0.02, maze_distance: 0.002, reply_rotations: 4 }
    }
}

/// Checks one preset file (`name` is its path under `levels/labyrinth/`): `Err((line, column,
/// message))` on the first problem.
pub fn validate(_name: &str, text: &str) -> Result<(), (usize, usize, String)> {
    ron::from_str::<Params>(text).map(|_| ()).map_err(|e| (e.span.start.line, e.span.start.col, e.code.to_string()))
}
