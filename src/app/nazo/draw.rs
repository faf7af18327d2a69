//! Drawing the Nazo Puyo board: the field on the Puyo board's meshes, the pairs still to
//! place, and the goal and verdict captions.

use bevy::prelude::*;

use super::{NazoGame, Verdict};
use crate::app::panel::{BoardArea, clear_for_redraw, spawn_text};
use crate::app::puyo::PuyoAssets;
use crate::app::puyo_board::{pair_cursor_sprites, spawn_cells, spawn_well};
use crate::games::nazo::puzzle::Step;
use crate::games::puyo::rules::{HEIGHT, WIDTH};

/// Side of one cell in world units (before the board's scale).
const CELL: f32 = 40.0;

/// Marks every entity of the board, so a redraw can replace them.
#[derive(Component, Clone)]
pub(super) struct BoardPiece;

pub(super) fn redraw_board(
    mut commands: Commands,
    mut game: ResMut<NazoGame>,
    assets: Option<Res<PuyoAssets>>,
    area: Res<BoardArea>,
    pieces: Query<Entity, With<BoardPiece>>,
) {
    let Some(assets) = assets else { return };
    if !clear_for_redraw(&mut commands, &mut game.redraw, &area, &pieces) {
        return;
    }
    // The field plus a column of upcoming steps; rows for the goal above and the title below.
    let content = Vec2::new((WIDTH as f32 + 4.0) * CELL, (HEIGHT as f32 + 4.0) * CELL);
    let scale = area.fit_scale(content).min(1.6);
    let origin =
        Vec2::new(area.center.x - content.x * scale / 2.0, area.center.y - content.y * scale / 2.0 + CELL * scale);
    draw_board(&mut commands, &assets, &game, origin, scale);
}

fn draw_board(commands: &mut Commands, assets: &PuyoAssets, game: &NazoGame, origin: Vec2, scale: f32) {
    let at = |col: f32, row: f32, z: f32| {
        Vec3::new(origin.x + (col + 0.5) * CELL * scale, origin.y + (row + 0.5) * CELL * scale, z)
    };
    spawn_well(commands, assets, BoardPiece, &at, scale);
    spawn_cells(commands, assets, &game.shown, BoardPiece, &at, scale, 1.0 / game.speed.max(0.1));
    let next = game.next_pair();
    if game.idle()
        && let Some((_, pair)) = next
    {
        let field = game.current_field();
        for sprite in pair_cursor_sprites(assets, &field, pair, game.cursor, &at, scale) {
            commands.spawn((BoardPiece, sprite));
        }
    }
    // Upcoming steps, the one to place first at the top.
    let first = next.map_or(game.puzzle.steps.len(), |(i, _)| i + usize::from(game.idle()));
    draw_upcoming(commands, assets, &game.puzzle.steps[first..], &at, scale);
    draw_captions(commands, game, &at, scale);
}

/// Beside the field, the next five of `steps`: pairs as puyos, garbage drops as counts.
fn draw_upcoming(
    commands: &mut Commands,
    assets: &PuyoAssets,
    steps: &[Step],
    at: &impl Fn(f32, f32, f32) -> Vec3,
    scale: f32,
) {
    let column = WIDTH as f32 + 1.0;
    let mut row = HEIGHT as f32 - 1.0;
    let text_color = Color::srgb(0.85, 0.86, 0.9);
    let text_size = 14.0 * scale.max(0.6);
    spawn_text(commands, BoardPiece, "next".into(), at(column, row + 0.8, 2.0), text_size, text_color);
    for step in steps.iter().take(5) {
        match *step {
            Step::Pair(pair) => {
                for (p, dr) in [(pair.child, 0.0), (pair.axis, -1.0)] {
                    commands.spawn((
                        BoardPiece,
                        Mesh2d(assets.puyo.clone()),
                        MeshMaterial2d(assets.kinds[p.index()].clone()),
                        Transform::from_translation(at(column, row + dr, 1.0)).with_scale(Vec3::splat(scale * 0.8)),
                    ));
                }
                row -= 2.5;
            }
            Step::Garbage(counts) => {
                let n: u32 = counts.iter().map(|&c| c as u32).sum();
                spawn_text(commands, BoardPiece, format!("{n} garbage"), at(column, row, 2.0), text_size, text_color);
                row -= 1.5;
            }
        }
    }
}

/// The goal above the field, the move count below it, and over it the chain in progress
/// and, once the puzzle is over, the verdict.
fn draw_captions(commands: &mut Commands, game: &NazoGame, at: &impl Fn(f32, f32, f32) -> Vec3, scale: f32) {
    let middle = WIDTH as f32 / 2.0 - 0.5;
    let goal = format!("Goal: {}", game.puzzle.goal.describe());
    let goal_at = at(WIDTH as f32 / 2.0 + 1.5, HEIGHT as f32 + 2.5, 2.0);
    spawn_text(commands, BoardPiece, goal, goal_at, 18.0 * scale.max(0.6), Color::srgb(1.0, 0.95, 0.7));
    let pairs = game.puzzle.moves();
    let status = format!("{} - {} of {} moves played", game.title, game.moves.len().min(pairs), pairs);
    spawn_text(commands, BoardPiece, status, at(middle, -0.9, 2.0), 15.0 * scale.max(0.6), Color::srgb(0.7, 0.72, 0.8));
    if game.shown.link > 0 {
        let chain = format!("{} chain!", game.shown.link);
        spawn_text(
            commands,
            BoardPiece,
            chain,
            at(middle, HEIGHT as f32 / 2.0, 3.0),
            34.0 * scale,
            Color::srgb(1.0, 0.95, 0.5),
        );
    }
    let banner = match &game.verdict {
        _ if !game.queue.is_empty() => None,
        Verdict::Playing => None,
        Verdict::Solved => Some(("SOLVED!".to_string(), Color::srgb(0.5, 1.0, 0.55))),
        Verdict::Failed(why) => Some((format!("FAILED\n{why}"), Color::srgb(1.0, 0.5, 0.5))),
    };
    if let Some((text, color)) = banner {
        spawn_text(commands, BoardPiece, text, at(middle, HEIGHT as f32 / 2.0 + 2.0, 3.0), 30.0 * scale, color);
    }
}
