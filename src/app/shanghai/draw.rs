//! Drawing the Shanghai board: tiles in layout order with their stack depth, faces as
//! glyphs, backs for unknown tiles, the selection and free-tile highlights, and removed pairs
//! fading out.

use bevy::prelude::*;

use super::ShanghaiGame;
use crate::app::panel::{BoardArea, clear_for_redraw};
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::rules::{Face, Kind, UNKNOWN, faces};

/// Half a tile's width and height in world units (layout coordinates are in half tiles).
const HX: f32 = 18.0;
const HY: f32 = 24.0;
/// Shift of each level up and to the left, giving the stack depth.
const LIFT: f32 = 5.0;
/// Seconds a removed pair takes to fade out.
const FADE: f32 = 0.5;

/// Part of every tile drawing; despawned at each redraw.
#[derive(Component)]
pub(super) struct TilePiece;

/// A removed tile fading out.
#[derive(Component)]
pub(super) struct Fading {
    elapsed: f32,
    alpha: f32,
}

/// A fading piece as it starts: fully opaque.
const FADE_START: Fading = Fading { elapsed: 0.0, alpha: 1.0 };

/// World position of tile `i`'s face centre and its draw order, given the board's origin.
pub(super) struct Geometry {
    origin: Vec2,
    scale: f32,
}

impl Geometry {
    pub(super) fn of(layout: &Layout, area: &BoardArea) -> Geometry {
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for p in &layout.positions {
            let c = Vec2::new(p.x as f32 * HX - p.z as f32 * LIFT, -(p.y as f32) * HY + p.z as f32 * LIFT);
            lo = lo.min(c + Vec2::new(0.0, -2.0 * HY));
            hi = hi.max(c + Vec2::new(2.0 * HX, 0.0));
        }
        if layout.positions.is_empty() {
            lo = Vec2::ZERO;
            hi = Vec2::ONE;
        }
        let content = (hi - lo) + Vec2::splat(2.0 * LIFT);
        let scale = area.fit_scale(content).min(2.5);
        let mid = (lo + hi) / 2.0;
        Geometry { origin: area.center - mid * scale, scale }
    }

    pub(super) fn center(&self, layout: &Layout, i: usize) -> Vec2 {
        let p = layout.positions[i];
        let c = Vec2::new(p.x as f32 * HX - p.z as f32 * LIFT + HX, -(p.y as f32) * HY + p.z as f32 * LIFT - HY);
        self.origin + c * self.scale
    }

    /// Draw order: upper levels on top; within a level right and lower tiles cover the
    /// sides of their left and upper neighbours.
    pub(super) fn order(layout: &Layout, i: usize) -> f32 {
        let p = layout.positions[i];
        p.z as f32 * 10.0 + (p.x + p.y) as f32 * 0.01
    }

    pub(super) fn half(&self) -> Vec2 {
        Vec2::new(HX - 1.0, HY - 1.0) * self.scale
    }
}

/// Colour of a kind's glyph: nine well-separated colours, one per number.
fn kind_color(k: Kind) -> Color {
    const COLORS: [(f32, f32, f32); 9] = [
        (0.80, 0.12, 0.12),
        (0.10, 0.50, 0.15),
        (0.12, 0.28, 0.80),
        (0.60, 0.20, 0.70),
        (0.85, 0.45, 0.00),
        (0.00, 0.55, 0.60),
        (0.45, 0.30, 0.10),
        (0.85, 0.20, 0.55),
        (0.20, 0.20, 0.25),
    ];
    let (r, g, b) = COLORS[k as usize % 9];
    Color::srgb(r, g, b)
}

/// The glyph of a face and its colour: a number 1-9 over a suit letter; flowers and seasons
/// are numbered 1-4 and share a colour per group (any two of a group match).
fn face_glyph(face: Face) -> (String, Color) {
    let (number, suit) = face_parts(face);
    let color = match face {
        Face::Kind(k) => kind_color(k),
        Face::Flower(_) => Color::srgb(0.85, 0.20, 0.55),
        Face::Season(_) => Color::srgb(0.10, 0.50, 0.15),
    };
    (format!("{number}\n{suit}"), color)
}

/// A face's number and suit letters, as its glyph shows them.
fn face_parts(face: Face) -> (u8, &'static str) {
    match face {
        Face::Kind(k) => ((k % 9) + 1, ["B", "C", "D", "W", "F", "S", "G", "H"][(k as usize / 9) % 8]),
        Face::Flower(i) => (i + 1, "Fl"),
        Face::Season(i) => (i + 1, "Se"),
    }
}

/// A face on one line, as the log names it ("8B").
pub(super) fn face_name(face: Face) -> String {
    let (number, suit) = face_parts(face);
    format!("{number}{suit}")
}

/// Spawns a tile's glyph at `at` (its face centre and depth).
fn spawn_glyph(commands: &mut Commands, bundle: impl Bundle, face: Face, scale: f32, at: Vec3) {
    let (text, color) = face_glyph(face);
    commands.spawn((
        bundle,
        Text2d::new(text),
        TextFont::from_font_size(13.0 * scale),
        TextColor(color),
        Transform::from_translation(at),
    ));
}

const FACE: Color = Color::srgb(0.95, 0.93, 0.85);
const BACK: Color = Color::srgb(0.20, 0.45, 0.35);
const EDGE: Color = Color::srgb(0.25, 0.22, 0.18);
const SIDE: Color = Color::srgb(0.55, 0.50, 0.40);
const FREE: Color = Color::srgb(1.0, 0.98, 0.70);
const SELECTED: Color = Color::srgb(1.0, 0.70, 0.35);
const HINT: Color = Color::srgb(0.55, 0.90, 1.0);

pub(super) fn redraw_board(
    mut commands: Commands,
    mut game: ResMut<ShanghaiGame>,
    area: Res<BoardArea>,
    pieces: Query<Entity, With<TilePiece>>,
) {
    if !clear_for_redraw(&mut commands, &mut game.redraw, &area, &pieces) {
        return;
    }
    let layout = game.game.layout.clone();
    let geo = Geometry::of(&layout, &area);
    let obs = game.game.observation();
    let shown = faces(&game.game.kinds, game.bonus_faces);
    let free = layout.free_tiles(&game.game.present);
    for i in game.game.present.iter() {
        let face = (obs.kinds[i] != UNKNOWN).then_some(shown[i]);
        let color = match face {
            None => BACK,
            Some(_) if game.selected == Some(i) => SELECTED,
            Some(_) if game.hint.is_some_and(|m| m.tiles().contains(&i)) => HINT,
            Some(_) if game.highlight_free && free.contains(i) => FREE,
            Some(_) => FACE,
        };
        spawn_tile(&mut commands, &geo, &layout, i, face, color);
    }
    // The removed pairs fade where they were.
    for m in std::mem::take(&mut game.removed) {
        for t in m.tiles() {
            spawn_fading_tile(&mut commands, geo.center(&layout, t), geo.half(), shown[t], geo.scale);
        }
    }
    let status = if game.game.is_won() {
        "cleared!".to_string()
    } else if game.game.is_over() {
        "no removable pair left".to_string()
    } else {
        let pairs = game.game.legal_moves().len();
        format!("{} tiles left, {pairs} free pair{}", game.game.present.len(), if pairs == 1 { "" } else { "s" })
    };
    commands.spawn((
        TilePiece,
        Text2d::new(status),
        TextFont::from_font_size(20.0),
        TextColor(Color::srgb(0.85, 0.86, 0.9)),
        Transform::from_translation(Vec3::new(area.center.x, area.size.y / 2.0 - 24.0, 80.0)),
    ));
}

/// Tile `i` with its side, edge and a face of `color`, and its glyph when its `face` is known.
fn spawn_tile(commands: &mut Commands, geo: &Geometry, layout: &Layout, i: usize, face: Option<Face>, color: Color) {
    let (c, z, half) = (geo.center(layout, i), Geometry::order(layout, i), geo.half());
    let side_off = Vec2::new(LIFT, -LIFT) * geo.scale;
    commands.spawn((
        TilePiece,
        Sprite::from_color(SIDE, half * 2.0),
        Transform::from_translation((c + side_off).extend(z)),
    ));
    commands.spawn((TilePiece, Sprite::from_color(EDGE, half * 2.0), Transform::from_translation(c.extend(z + 0.002))));
    commands.spawn((
        TilePiece,
        Sprite::from_color(color, half * 2.0 - Vec2::splat(2.0 * geo.scale.max(1.0))),
        Transform::from_translation(c.extend(z + 0.004)),
    ));
    if let Some(face) = face {
        spawn_glyph(commands, TilePiece, face, geo.scale, c.extend(z + 0.008));
    }
}

/// A removed tile (`half` its half size) fading out at `c`, above every other tile.
fn spawn_fading_tile(commands: &mut Commands, c: Vec2, half: Vec2, face: Face, scale: f32) {
    let z = 60.0;
    commands.spawn((FADE_START, Sprite::from_color(HINT, half * 2.0), Transform::from_translation(c.extend(z))));
    spawn_glyph(commands, FADE_START, face, scale, c.extend(z + 0.01));
}

/// What a fading piece is made of: a sprite or a glyph.
type FadeParts =
    (Entity, &'static mut Fading, Option<&'static mut Sprite>, Option<&'static mut TextColor>, &'static mut Transform);

pub(super) fn animate_fades(mut commands: Commands, time: Res<Time>, mut fades: Query<FadeParts>) {
    for (e, mut fade, sprite, text, mut transform) in &mut fades {
        fade.elapsed += time.delta_secs();
        let t = (fade.elapsed / FADE).clamp(0.0, 1.0);
        if t >= 1.0 {
            commands.entity(e).despawn();
            continue;
        }
        let alpha = fade.alpha * (1.0 - t);
        if let Some(mut s) = sprite {
            s.color.set_alpha(alpha);
        }
        if let Some(mut c) = text {
            c.0.set_alpha(alpha);
        }
        transform.scale = Vec3::splat(1.0 + 0.3 * t);
    }
}
