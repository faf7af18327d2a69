//! The Puyo Puyo rules engine (spec §2), shared by the Puyo AIs and the Nazo Puyo solver.
//!
//! Public API (kept stable; additions only):
//! - [`Bits`]: a set of cells as a `u128` bitboard, bit `16·col + row` (0-based from the
//!   bottom left), with [`WIDTH`] = 6, [`HEIGHT`] = 13 (row 13 hidden), [`VISIBLE_HEIGHT`] = 12.
//! - [`Puyo`]: `Red Green Blue Yellow Purple` (indices 0..5), `Garbage`, `Hard` (kata-puyo,
//!   two hits). [`Pair`] `{ axis, child }`, [`Pair::random`], [`pair_sequence`].
//! - [`Placement`] `{ col, rot: Rotation::{Up, Right, Down, Left} }`: [`Placement::ALL`] (22),
//!   [`Placement::DOUBLE`] (the 11 distinct ones for a same-color pair),
//!   [`Placement::for_pair`], [`Placement::canonical_for_double`].
//! - [`Field`]: `get/set`, `plane(kind)`, `occupied`, `height(col)`, `count`, `is_dead`
//!   (column 3 row 12 occupied), `is_settled`, `landing/can_place/legal_placements`,
//!   `place` (no resolution), `play` / `play_with(pair, placement, on_link)` (place + resolve),
//!   `resolve` / `resolve_links` (any field), `resolve_from(changed, on_link)` (fast path),
//!   `settle`, `drop_puyo`, `drop_garbage(pending, rng)` (≤ 30, spec rule),
//!   `drop_garbage_columns([u8; 6])`, `from_ascii` / `to_ascii` (rows top to bottom,
//!   `. R G B Y P O H`).
//! - [`Link`]: one chain link: `index` (1-based), `popped[color]`, `garbage`, `cells`,
//!   `cleared`, `groups()` as (color, size), `puyos()`, `colors()`, `tsu_score()`.
//! - [`Chain`]: totals: `links`, `popped`, `garbage`, `score` (Tsu), `attack()` (paper 6.1).
//! - [`Versus`]: two [`Side`]s on one pair sequence with the tick model, garbage offsetting,
//!   garbage sent by a [`GarbageRule`] (`Paper` attack formula, default; `Tsu` score / 70).
//!
//! Decisions (spec §9): garbage and hard garbage are cleared only in rows 1-12; garbage that
//! does not fit in 13 rows is discarded; c_i of the attack formula counts colored puyos only.

mod bits;
mod chain;
mod field;
mod placement;
mod puyo;
mod versus;

pub use bits::{Bits, HEIGHT, VISIBLE_HEIGHT, WIDTH};
pub use chain::{CHAIN_POWER, COLOR_BONUS, Chain, Link, MAX_GROUPS, group_bonus};
pub use field::{Field, FieldError, MAX_GARBAGE_DROP};
pub use placement::{Placement, Rotation};
pub use puyo::{KINDS, MAX_COLORS, Pair, Puyo, pair_sequence};
pub use versus::{GarbageRule, InFlight, Outcome, Side, Versus};

#[cfg(test)]
mod tests;
