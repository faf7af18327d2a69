//! Drawing the Labyrinth board: tiles with their corridors and treasures, the insertion
//! arrows, the spare, the pieces on their way, and the players' list beside the board.

use std::f32::consts::FRAC_PI_4;

use bevy::prelude::*;

use super::{Anim, CELL, LabyrinthGame, Layout, Preview, STEP_SECS, arrow_grid, arrow_text, label_size};
use crate::app::panel::{BoardArea, clear_for_redraw};
use crate::games::labyrinth::rules::board::{is_fixed, xy};
use crate::games::labyrinth::rules::tile::{E, N, S, W};
use crate::games::labyrinth::rules::{Board, Cell, Insertion, TREASURES, Tile};

#[derive(Resource)]
pub(super) struct LabAssets {
    circle: Handle<Mesh>,
    players: Vec<Handle<ColorMaterial>>,
    homes: Vec<Handle<ColorMaterial>>,
    treasure_colors: Vec<Color>,
    outline: Handle<ColorMaterial>,
    ring: Handle<ColorMaterial>,
}

fn player_color(i: usize) -> Color {
    [
        Color::srgb(0.90, 0.25, 0.25),
        Color::srgb(0.25, 0.50, 0.95),
        Color::srgb(0.25, 0.75, 0.35),
        Color::srgb(0.95, 0.80, 0.20),
    ][i % 4]
}

pub(super) fn spawn_assets(
    mut commands: Commands,
    existing: Option<Res<LabAssets>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    if existing.is_some() {
        return;
    }
    commands.insert_resource(LabAssets {
        circle: meshes.add(Circle::new(1.0)),
        players: (0..4).map(|i| materials.add(player_color(i))).collect(),
        homes: (0..4).map(|i| materials.add(player_color(i).with_alpha(0.45))).collect(),
        treasure_colors: (0..24).map(|t| Color::hsl(t as f32 * 15.0, 0.65, 0.55)).collect(),
        outline: materials.add(Color::srgb(0.05, 0.05, 0.05)),
        ring: materials.add(Color::srgb(1.0, 0.95, 0.4)),
    });
}

/// Everything drawn on the board; redrawn from the state.
#[derive(Component)]
pub(super) struct LabPiece;

#[allow(clippy::too_many_arguments)]
pub(super) fn redraw(
    mut commands: Commands,
    mut game: ResMut<LabyrinthGame>,
    assets: Option<Res<LabAssets>>,
    area: Res<BoardArea>,
    pieces: Query<Entity, With<LabPiece>>,
) {
    let Some(assets) = assets else { return };
    if !clear_for_redraw(&mut commands, &mut game.redraw, &area, &pieces) {
        return;
    }
    // Board 7 + arrows 2 wide, the spare and the players' list 3.5 more on the right.
    let content = Vec2::new(12.5 * CELL, 9.4 * CELL);
    let scale = area.fit_scale(content).min(1.5);
    let unit = CELL * scale;
    let layout = Layout { center: area.center + Vec2::new(-1.75 * unit, 0.0), unit };
    game.layout = layout;
    let mut d = Drawer { commands: &mut commands, assets: &assets, layout };
    d.draw(&game);
}

struct Drawer<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    assets: &'a LabAssets,
    layout: Layout,
}

impl Drawer<'_, '_, '_> {
    fn rect(&mut self, at: Vec2, size: Vec2, z: f32, color: Color) {
        self.commands.spawn((LabPiece, Sprite::from_color(color, size), Transform::from_translation(at.extend(z))));
    }

    fn circle(&mut self, at: Vec2, r: f32, z: f32, material: &Handle<ColorMaterial>) {
        self.commands.spawn((
            LabPiece,
            Mesh2d(self.assets.circle.clone()),
            MeshMaterial2d(material.clone()),
            Transform::from_translation(at.extend(z)).with_scale(Vec3::splat(r)),
        ));
    }

    fn text(&mut self, text: String, at: Vec2, z: f32, size: f32, color: Color) {
        self.commands.spawn((
            LabPiece,
            Text2d::new(text),
            TextFont::from_font_size(size),
            TextColor(color),
            Transform::from_translation(at.extend(z)),
        ));
    }

    /// One tile centred at `at`; `target` rings its treasure.
    fn tile(&mut self, tile: Tile, at: Vec2, fixed: bool, highlight: bool, target: Option<u8>) {
        let u = self.layout.unit;
        let wall = if fixed { Color::srgb(0.33, 0.25, 0.20) } else { Color::srgb(0.45, 0.34, 0.25) };
        self.rect(at, Vec2::splat(u * 0.95), 1.0, wall);
        let path = if highlight { Color::srgb(0.55, 0.90, 0.55) } else { Color::srgb(0.90, 0.85, 0.70) };
        let w = u * 0.36;
        self.rect(at, Vec2::splat(w), 1.1, path);
        for (side, dir) in [(N, Vec2::Y), (E, Vec2::X), (S, -Vec2::Y), (W, -Vec2::X)] {
            if tile.is_open(side) {
                let size = if dir.x == 0.0 { Vec2::new(w, u * 0.48) } else { Vec2::new(u * 0.48, w) };
                self.rect(at + dir * u * 0.24, size, 1.1, path);
            }
        }
        if let Some(t) = tile.treasure {
            if target == Some(t) {
                self.circle(at, u * 0.2, 1.2, &self.assets.ring.clone());
            }
            // Treasures are diamonds so they never read as the round pawns.
            self.commands.spawn((
                LabPiece,
                Sprite::from_color(self.assets.treasure_colors[t as usize], Vec2::splat(u * 0.2)),
                Transform::from_translation(at.extend(1.3)).with_rotation(Quat::from_rotation_z(FRAC_PI_4)),
            ));
            let name = treasure_label(t);
            self.text(name, at + Vec2::new(0.0, -u * 0.3), 1.4, (u * 0.2).max(7.0), Color::srgb(0.1, 0.1, 0.1));
        }
    }

    fn draw(&mut self, game: &LabyrinthGame) {
        let state = &game.state;
        let human = game.human_to_move();
        let target = if human { state.players()[state.current].current_card() } else { None };
        // Board frame.
        self.rect(self.layout.at(3.0, 3.0), Vec2::splat(self.layout.unit * 7.2), 0.0, Color::srgb(0.20, 0.16, 0.13));
        let preview = game.preview();
        let pieces = self.board_and_pieces(game, &preview, target);
        self.pieces(game, &pieces, human);
        self.arrows(game, human);
        self.spare(game, &preview, human, target);
        self.sidebar(game, human, target);
    }

    /// The board as shown now (sliding, walking, previewed or still); returns where each
    /// player's piece stands on it.
    fn board_and_pieces(&mut self, game: &LabyrinthGame, preview: &Preview, target: Option<u8>) -> Vec<Vec2> {
        let l = self.layout;
        let state = &game.state;
        let mut pieces: Vec<Vec2> = state.players().iter().map(|p| cell_pos(&l, p.pos)).collect();
        if let Some(anim) = &game.anim {
            let speed = game.settings.speed.max(0.1);
            let slide = anim.slide_secs(speed);
            if anim.elapsed < slide {
                self.sliding(anim, smooth(anim.elapsed / slide), &mut pieces);
            } else {
                self.board(&state.board, 0, None);
                for (i, p) in anim.before_pos.iter().enumerate() {
                    pieces[i] = cell_pos(&l, anim.insertion.push(*p));
                }
                let steps = (anim.elapsed - slide) / (STEP_SECS / speed);
                let k = (steps.floor() as usize).min(anim.path.len() - 1);
                let next = (k + 1).min(anim.path.len() - 1);
                let f = (steps - k as f32).clamp(0.0, 1.0);
                pieces[anim.mover] = cell_pos(&l, anim.path[k]).lerp(cell_pos(&l, anim.path[next]), f);
            }
        } else if let Some((board, pos)) = preview {
            let reach = board.maze().reach_from(pos[state.current]);
            self.board(board, reach, target);
            for (i, p) in pos.iter().enumerate() {
                pieces[i] = cell_pos(&l, *p);
            }
        } else {
            self.board(&state.board, 0, target);
        }
        pieces
    }

    /// The board before the insertion with the pushed line moved a share `t` of a cell, the
    /// spare sliding in and the pieces on that line carried along.
    fn sliding(&mut self, anim: &Anim, t: f32, pieces: &mut [Vec2]) {
        let l = self.layout;
        let line = anim.insertion.line();
        let dir = cell_pos(&l, line[1]) - cell_pos(&l, line[0]);
        for c in 0..49u8 {
            let shift = if line.contains(&c) { dir * t } else { Vec2::ZERO };
            self.tile(anim.before.tile(c), cell_pos(&l, c) + shift, is_fixed(c), false, None);
        }
        let incoming = cell_pos(&l, line[0]) - dir * (1.0 - t);
        self.tile(anim.before.spare.rotated(anim.rotation), incoming, false, false, None);
        for (i, p) in anim.before_pos.iter().enumerate() {
            pieces[i] = cell_pos(&l, *p) + if line.contains(p) { dir * t } else { Vec2::ZERO };
        }
    }

    /// Homes, and the numbered pieces at `pieces` (offset so that pieces on one cell all show).
    fn pieces(&mut self, game: &LabyrinthGame, pieces: &[Vec2], human: bool) {
        let (l, u) = (self.layout, self.layout.unit);
        let state = &game.state;
        for (i, p) in state.players().iter().enumerate() {
            self.circle(cell_pos(&l, p.home), u * 0.42, 1.05, &self.assets.homes[i].clone());
        }
        for (i, at) in pieces.iter().enumerate() {
            let off = Vec2::new(if i % 2 == 0 { -1.0 } else { 1.0 }, if i < 2 { 1.0 } else { -1.0 }) * u * 0.12;
            if human && i == state.current {
                self.circle(*at + off, u * 0.2, 1.5, &self.assets.ring.clone());
            }
            self.circle(*at + off, u * 0.17, 1.55, &self.assets.outline.clone());
            self.circle(*at + off, u * 0.14, 1.6, &self.assets.players[i].clone());
            self.text(format!("{}", i + 1), *at + off, 1.65, u * 0.2, Color::srgb(0.05, 0.05, 0.05));
        }
    }

    /// The twelve insertion arrows: the one the last push forbids dark, the human's pick lit.
    fn arrows(&mut self, game: &LabyrinthGame, human: bool) {
        let u = self.layout.unit;
        let blocked = game.state.last.map(Insertion::opposite);
        for ins in Insertion::ALL {
            let (gx, gy) = arrow_grid(ins);
            let at = self.layout.at(gx as f32, gy as f32);
            let color = if Some(ins) == blocked {
                Color::srgb(0.25, 0.22, 0.22)
            } else if game.pending == Some(ins) && human {
                Color::srgb(1.0, 0.85, 0.3)
            } else if human {
                Color::srgb(0.55, 0.60, 0.75)
            } else {
                Color::srgb(0.35, 0.38, 0.48)
            };
            self.rect(at, Vec2::splat(u * 0.5), 1.0, color);
            self.text(arrow_text(ins).into(), at, 1.1, u * 0.4, Color::srgb(0.1, 0.1, 0.1));
        }
    }

    /// The spare tile (during a preview: the tile that would be pushed out).
    fn spare(&mut self, game: &LabyrinthGame, preview: &Preview, human: bool, target: Option<u8>) {
        let u = self.layout.unit;
        let state = &game.state;
        let spare_at = self.layout.spare_at();
        self.rect(spare_at, Vec2::splat(u * 1.1), 0.5, Color::srgb(0.2, 0.2, 0.26));
        let (spare, label) = match (preview, &game.anim) {
            (Some((board, _)), None) => (board.spare, "pushed out"),
            (_, Some(_)) => (state.board.spare, "spare"),
            _ if human => (state.board.spare.rotated(game.rotation), "spare (R / click: rotate)"),
            _ => (state.board.spare, "spare"),
        };
        self.tile(spare, spare_at, false, false, target);
        let at = spare_at + Vec2::new(0.0, -u * 0.8);
        self.text(label.into(), at, 2.0, label_size(u), Color::srgb(0.8, 0.8, 0.85));
    }

    /// The players with their cards left, whose turn it is and what the human should do.
    fn sidebar(&mut self, game: &LabyrinthGame, human: bool, target: Option<u8>) {
        let state = &game.state;
        let (l, small) = (self.layout, label_size(self.layout.unit));
        let line_at = |k: f32| l.at(9.3, 2.1 + k * 0.75);
        for (i, p) in state.players().iter().enumerate() {
            let mark = if i == state.current && !state.is_over() { "> " } else { "" };
            let line = format!("{mark}P{} {}  cards left {}", i + 1, game.settings.seats[i].label(), p.cards_left());
            self.text(line, line_at(i as f32), 2.0, small, player_color(i));
        }
        let status = if let Some(w) = state.winner {
            format!("player {} wins!", w + 1)
        } else if human {
            match target {
                Some(t) => format!("P{} find: {}", state.current + 1, TREASURES[t as usize]),
                None => format!("P{}: go home!", state.current + 1),
            }
        } else {
            format!("P{} thinking", state.current + 1)
        };
        let n = state.players().len() as f32;
        let below = |extra: f32| line_at(n) + Vec2::new(0.0, -extra * l.unit);
        self.text(status, below(0.3), 2.0, small * 1.2, Color::srgb(1.0, 0.95, 0.6));
        if human {
            let hint = if game.pending.is_none() { "click an arrow" } else { "click a green tile" };
            self.text(hint.into(), below(1.0), 2.0, small, Color::srgb(0.8, 0.8, 0.85));
        }
    }

    fn board(&mut self, board: &Board, reach: u64, target: Option<u8>) {
        for c in 0..49u8 {
            let at = cell_pos(&self.layout, c);
            self.tile(board.tile(c), at, is_fixed(c), reach >> c & 1 != 0, target);
        }
    }
}

/// The shortest prefix (at least 3 letters) that tells treasure `t` from every other one.
fn treasure_label(t: u8) -> String {
    let name = TREASURES[t as usize];
    let unique =
        |k: usize| TREASURES.iter().enumerate().all(|(o, other)| o == t as usize || !other.starts_with(&name[..k]));
    let k = (3..name.len()).find(|&k| unique(k)).unwrap_or(name.len());
    name[..k].to_string()
}

fn cell_pos(l: &Layout, c: Cell) -> Vec2 {
    let (x, y) = xy(c);
    l.at(x as f32, y as f32)
}

fn smooth(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
