//! What the Puyo and Nazo Puyo screens share about a board in motion: the frames of one move
//! (the pair falling in, each chain link flashing, the puyos above a pop falling into the gap)
//! and the cell sprites that play a frame.

use bevy::prelude::*;

use super::puyo::PuyoAssets;
use crate::games::puyo::rules::{Bits, Chain, Field, HEIGHT, Pair, Placement, Rotation, WIDTH};

/// One picture of a board.
#[derive(Clone, Debug, Default)]
pub(super) struct Frame {
    pub(super) field: Field,
    /// Cells that fall into place during the frame, with the row they start from.
    pub(super) falling: Vec<((usize, usize), f32)>,
    /// Cells that flash and pop during the frame.
    pub(super) popping: Bits,
    /// Chain link shown (0 when none).
    pub(super) link: u32,
}

/// The frames of playing `pair` at `placement` on `before`: the pair falling in, one frame per
/// chain link (the link flashing, on the board the previous pop left), and the settled board
/// with the counter still up; and the chain. `None` if the placement does not fit.
pub(super) fn move_frames(before: &Field, pair: Pair, placement: Placement) -> Option<(Vec<Frame>, Chain)> {
    let ((ac, ar), (cc, cr)) = before.landing(placement)?;
    let mut field = *before;
    field.place(pair, placement);
    let start_row = HEIGHT as f32 + 1.0;
    let mut falling = vec![
        ((ac, ar), start_row + (ar as f32 - cr as f32).max(0.0)),
        ((cc, cr), start_row + (cr as f32 - ar as f32).max(0.0)),
    ];
    let mut frames = vec![Frame { field, falling: std::mem::take(&mut falling), popping: Bits::EMPTY, link: 0 }];
    let (chain, links) = { field }.resolve_links();
    for link in &links {
        frames.push(Frame {
            field,
            falling: std::mem::take(&mut falling),
            popping: link.cells | link.cleared,
            link: link.index,
        });
        for (c, r) in (link.cells | link.cleared).cells() {
            field.set(c, r, None);
        }
        falling = settle_falls(&field);
        field.settle();
    }
    if chain.links > 0 {
        frames.push(Frame { field, falling, popping: Bits::EMPTY, link: chain.links });
    }
    Some((frames, chain))
}

/// Where each puyo of an unsettled `field` lands, as ((col, landing row), start row).
pub(super) fn settle_falls(field: &Field) -> Vec<((usize, usize), f32)> {
    let mut falls = Vec::new();
    for col in 0..WIDTH {
        let mut landed = 0;
        for row in 0..HEIGHT {
            if field.get(col, row).is_some() {
                if row != landed {
                    falls.push(((col, landed), row as f32));
                }
                landed += 1;
            }
        }
    }
    falls
}

/// A cell falling from `from` to its place during the frame.
#[derive(Component)]
pub(super) struct Falling {
    from: Vec3,
    to: Vec3,
    elapsed: f32,
    duration: f32,
}

/// A cell that flashes before it pops.
#[derive(Component)]
pub(super) struct Flashing(Handle<ColorMaterial>);

/// Spawns the well behind the 12 visible rows and the shaded hidden 13th row, tagged with `tag`;
/// `at(col, row, z)` places a cell.
pub(super) fn spawn_well(
    commands: &mut Commands,
    assets: &PuyoAssets,
    tag: impl Component + Clone,
    at: &impl Fn(f32, f32, f32) -> Vec3,
    scale: f32,
) {
    let middle = WIDTH as f32 / 2.0 - 0.5;
    commands.spawn((
        tag.clone(),
        Mesh2d(assets.cell.clone()),
        MeshMaterial2d(assets.well.clone()),
        Transform::from_translation(at(middle, HEIGHT as f32 / 2.0 - 1.0, 0.0)).with_scale(Vec3::new(
            scale,
            scale * (HEIGHT as f32 - 1.0),
            1.0,
        )),
    ));
    commands.spawn((
        tag,
        Mesh2d(assets.cell.clone()),
        MeshMaterial2d(assets.hidden_row.clone()),
        Transform::from_translation(at(middle, HEIGHT as f32 - 1.0, 0.0)).with_scale(Vec3::splat(scale)),
    ));
}

/// The sprites of the pair a player is placing: the pair above `field` at `cursor` (lifted so
/// that a downward child stays above the top row) and ghosts where it would land.
pub(super) fn pair_cursor_sprites(
    assets: &PuyoAssets,
    field: &Field,
    pair: Pair,
    cursor: Placement,
    at: &impl Fn(f32, f32, f32) -> Vec3,
    scale: f32,
) -> Vec<(Mesh2d, MeshMaterial2d<ColorMaterial>, Transform)> {
    let (dc, dr): (f32, f32) = match cursor.rot {
        Rotation::Up => (0.0, 1.0),
        Rotation::Down => (0.0, -1.0),
        Rotation::Right => (1.0, 0.0),
        Rotation::Left => (-1.0, 0.0),
    };
    let base = HEIGHT as f32 + 0.2 - dr.min(0.0);
    let col = cursor.col as f32;
    let mut sprites: Vec<_> = [(pair.axis, (col, base)), (pair.child, (col + dc, base + dr))]
        .into_iter()
        .map(|(p, (c, r))| {
            let place = Transform::from_translation(at(c, r, 2.0)).with_scale(Vec3::splat(scale));
            (Mesh2d(assets.puyo.clone()), MeshMaterial2d(assets.kinds[p.index()].clone()), place)
        })
        .collect();
    if let Some((axis, child)) = field.landing(cursor) {
        sprites.extend([axis, child].into_iter().map(|(c, r)| {
            let place = Transform::from_translation(at(c as f32, r as f32, 1.5)).with_scale(Vec3::splat(scale * 0.6));
            (Mesh2d(assets.puyo.clone()), MeshMaterial2d(assets.ghost.clone()), place)
        }));
    }
    sprites
}

/// Spawns the puyos of `frame` (tagged with `tag`), falling and flashing as the frame says;
/// `at(col, row, z)` places a cell, and a frame lasts `duration` seconds.
pub(super) fn spawn_cells(
    commands: &mut Commands,
    assets: &PuyoAssets,
    frame: &Frame,
    tag: impl Component + Clone,
    at: &impl Fn(f32, f32, f32) -> Vec3,
    scale: f32,
    duration: f32,
) {
    for col in 0..WIDTH {
        for row in 0..HEIGHT {
            let Some(p) = frame.field.get(col, row) else { continue };
            let to = at(col as f32, row as f32, 1.0);
            let mut cell = commands.spawn((
                tag.clone(),
                Mesh2d(assets.puyo.clone()),
                MeshMaterial2d(assets.kinds[p.index()].clone()),
                Transform::from_translation(to).with_scale(Vec3::splat(scale)),
            ));
            if let Some((_, from_row)) = frame.falling.iter().find(|(c, _)| *c == (col, row)) {
                let from = at(col as f32, from_row.min(HEIGHT as f32 + 1.0), 1.0);
                cell.insert((
                    Falling { from, to, elapsed: 0.0, duration: duration * 0.8 },
                    Transform::from_translation(from).with_scale(Vec3::splat(scale)),
                ));
            }
            if frame.popping.has(col, row) {
                cell.insert(Flashing(assets.kinds[p.index()].clone()));
            }
        }
    }
}

/// Moves falling cells (accelerating) and blinks popping ones.
pub(super) fn animate_cells(
    time: Res<Time>,
    assets: Option<Res<PuyoAssets>>,
    mut falling: Query<(&mut Falling, &mut Transform)>,
    mut flashing: Query<(&Flashing, &mut MeshMaterial2d<ColorMaterial>)>,
) {
    for (mut fall, mut transform) in &mut falling {
        fall.elapsed += time.delta_secs();
        let t = (fall.elapsed / fall.duration).clamp(0.0, 1.0);
        transform.translation = fall.from.lerp(fall.to, t * t);
    }
    let Some(assets) = assets else { return };
    let on = (time.elapsed_secs() * 12.0).sin() > 0.0;
    for (flash, mut material) in &mut flashing {
        material.0 = if on { assets.flash.clone() } else { flash.0.clone() };
    }
}

/// The keys one player steers a falling pair with.
pub(super) struct PairKeys {
    left: KeyCode,
    right: KeyCode,
    counter_clockwise: KeyCode,
    clockwise: [KeyCode; 2],
    drop: [KeyCode; 2],
}

impl PairKeys {
    /// Left / Right move, Z / X or Up rotate, Down or Space drop.
    pub(super) const ARROWS: PairKeys = PairKeys {
        left: KeyCode::ArrowLeft,
        right: KeyCode::ArrowRight,
        counter_clockwise: KeyCode::KeyZ,
        clockwise: [KeyCode::KeyX, KeyCode::ArrowUp],
        drop: [KeyCode::ArrowDown, KeyCode::Space],
    };
    /// A / D move, Q / E or W rotate, S drops: the second player of a shared keyboard.
    pub(super) const LETTERS: PairKeys = PairKeys {
        left: KeyCode::KeyA,
        right: KeyCode::KeyD,
        counter_clockwise: KeyCode::KeyQ,
        clockwise: [KeyCode::KeyE, KeyCode::KeyW],
        drop: [KeyCode::KeyS, KeyCode::KeyS],
    };

    /// The pair's placement after this frame's key presses, and whether a drop key was pressed.
    pub(super) fn steer(&self, keys: &ButtonInput<KeyCode>, mut cursor: Placement) -> (Placement, bool) {
        if keys.just_pressed(self.left) {
            cursor = shift(cursor, -1);
        }
        if keys.just_pressed(self.right) {
            cursor = shift(cursor, 1);
        }
        if keys.just_pressed(self.counter_clockwise) {
            cursor = rotate(cursor, false);
        }
        if keys.any_just_pressed(self.clockwise) {
            cursor = rotate(cursor, true);
        }
        (cursor, keys.any_just_pressed(self.drop))
    }
}

/// Moves the pair one column, keeping both puyos inside the field.
fn shift(p: Placement, by: i32) -> Placement {
    let col = (p.col as i32 + by).clamp(0, WIDTH as i32 - 1) as u8;
    clamp_to_walls(Placement { col, rot: p.rot })
}

/// Rotates the pair a quarter turn; against a wall it steps away from it.
fn rotate(p: Placement, clockwise: bool) -> Placement {
    use Rotation::*;
    let rot = match (p.rot, clockwise) {
        (Up, true) | (Down, false) => Right,
        (Right, true) | (Left, false) => Down,
        (Down, true) | (Up, false) => Left,
        (Left, true) | (Right, false) => Up,
    };
    clamp_to_walls(Placement { col: p.col, rot })
}

fn clamp_to_walls(p: Placement) -> Placement {
    let col = match p.rot {
        Rotation::Right => p.col.min(WIDTH as u8 - 2),
        Rotation::Left => p.col.max(1),
        _ => p.col,
    };
    Placement { col, rot: p.rot }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settle_falls_maps_each_floating_puyo_to_its_landing_row() {
        let field = Field::from_ascii("R.....\n......\nG.....\n.B....").expect("valid field");
        let mut falls = settle_falls(&field);
        falls.sort_by_key(|f| f.0);
        // Column 0: G on row 1 lands on row 0, R on row 3 lands on row 1; column 1 is settled.
        assert_eq!(falls, vec![((0, 0), 1.0), ((0, 1), 3.0)]);
    }

    #[test]
    fn a_one_link_move_shows_the_pair_the_pop_and_the_settled_board() {
        use crate::games::puyo::rules::{Puyo, Rotation};
        let before = Field::from_ascii("B.....\nR.....\nR.....").expect("valid field");
        let pair = Pair { axis: Puyo::Red, child: Puyo::Red };
        let (frames, chain) = move_frames(&before, pair, Placement { col: 1, rot: Rotation::Up }).expect("fits");
        assert_eq!(chain.links, 1);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[0].falling.len(), 2);
        assert_eq!(frames[1].popping.count(), 4);
        assert_eq!(frames[1].link, 1);
        // The blue puyo above the reds falls from row 2 to row 0 in the last frame.
        assert_eq!(frames[2].falling, vec![((0, 0), 2.0)]);
        assert_eq!(frames[2].field.count(), 1);
    }

    #[test]
    fn the_pair_cursor_stays_above_the_field_and_its_ghosts_mark_the_landing() {
        use crate::games::puyo::rules::Puyo;
        let assets = PuyoAssets {
            puyo: Handle::default(),
            kinds: vec![Handle::default(); 8],
            flash: Handle::default(),
            ghost: Handle::default(),
            well: Handle::default(),
            hidden_row: Handle::default(),
            cell: Handle::default(),
        };
        let field = Field::from_ascii("R.....").expect("valid field");
        let pair = Pair { axis: Puyo::Red, child: Puyo::Blue };
        let at = |c: f32, r: f32, z: f32| Vec3::new(c, r, z);
        let down = Placement { col: 0, rot: Rotation::Down };
        let sprites = pair_cursor_sprites(&assets, &field, pair, down, &at, 1.0);
        let spots: Vec<Vec2> = sprites.iter().map(|s| s.2.translation.truncate()).collect();
        // The pair, the child under the axis but still above the top row, then the two ghosts.
        assert_eq!(spots.len(), 4);
        assert!(spots[1].y > (HEIGHT - 1) as f32 && spots[0].y > spots[1].y);
        let mut ghosts = [spots[2], spots[3]];
        ghosts.sort_by(|a, b| a.y.total_cmp(&b.y));
        assert_eq!(ghosts, [Vec2::new(0.0, 1.0), Vec2::new(0.0, 2.0)]);
    }

    #[test]
    fn steering_keys_keep_the_pair_on_one_of_the_22_placements() {
        let mut keys = ButtonInput::<KeyCode>::default();
        let mut cursor = Placement::SPAWN;
        let mut seen = std::collections::HashSet::new();
        // Steering keys of both players in a seeded random order: walls and turns included.
        let all = [PairKeys::ARROWS, PairKeys::LETTERS]
            .map(|k| [k.left, k.right, k.counter_clockwise, k.clockwise[0], k.clockwise[1]]);
        let mut rng = crate::lab::rng::game_rng(1, 0);
        for step in 0..2000usize {
            let key = all[step % 2][rand::Rng::random_range(&mut rng, 0..5)];
            keys.press(key);
            let pair_keys = if step % 2 == 0 { &PairKeys::ARROWS } else { &PairKeys::LETTERS };
            let (next, drop) = pair_keys.steer(&keys, cursor);
            assert!(!drop);
            assert!(Placement::ALL.contains(&next), "{next:?} after {key:?} from {cursor:?}");
            cursor = next;
            seen.insert(cursor);
            keys.release(key);
            keys.clear();
        }
        assert_eq!(seen.len(), 22, "the keys reach every placement");
        keys.press(KeyCode::Space);
        assert_eq!(PairKeys::ARROWS.steer(&keys, cursor), (cursor, true));
        assert!(!PairKeys::LETTERS.steer(&keys, cursor).1, "Space is the first player's drop");
    }
}
