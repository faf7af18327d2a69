//! Drawing the Calculation table: the stock, the drawn card, the foundations and the fanned
//! stacks as cards, the planner's estimates over the targets, and cards sliding into place.

use bevy::prelude::*;

use super::{CalcGame, Selection, Spot};
use crate::app::panel::{BoardArea, clear_for_redraw, spawn_text};
use crate::games::calculation::ai::{Choice, Player};
use crate::games::calculation::rules::{Card, DECK, FOUNDATIONS, FULL, Target, next_rank, rank_char, target_rank};

/// Card size and spacing in world units (before the board's scale).
const CARD_W: f32 = 70.0;
const CARD_H: f32 = 98.0;
const COL: f32 = 92.0;
/// Vertical offset between cards of a stack.
const FAN: f32 = 26.0;

/// Every entity of the drawn board.
#[derive(Component)]
pub(super) struct BoardPiece;

/// A card sliding from the stock to its place.
#[derive(Component)]
pub(super) struct Tween {
    from: Vec3,
    to: Vec3,
    elapsed: f32,
    duration: f32,
}

const TABLE_GREEN: Color = Color::srgb(0.10, 0.30, 0.18);
const SLOT: Color = Color::srgb(0.16, 0.40, 0.25);
const FACE: Color = Color::srgb(0.97, 0.96, 0.92);
const BACK: Color = Color::srgb(0.25, 0.32, 0.62);
const LEGAL: Color = Color::srgb(0.45, 0.95, 0.45);
const PICKED: Color = Color::srgb(1.0, 0.85, 0.3);

fn suit_of(card: Card) -> (char, Color) {
    match card.id % 4 {
        0 => ('s', Color::srgb(0.1, 0.1, 0.12)),
        1 => ('h', Color::srgb(0.8, 0.1, 0.1)),
        2 => ('d', Color::srgb(0.8, 0.1, 0.1)),
        _ => ('c', Color::srgb(0.1, 0.1, 0.12)),
    }
}

/// Labels on the felt.
const LABEL: Color = Color::srgb(0.85, 0.9, 0.85);
/// Board units above the first row of cards (for the foundations' labels).
const HEAD: f32 = 36.0;
/// Board units from the top to the first card of each stack.
const STACK_TOP: f32 = HEAD + CARD_H + 80.0;
/// Column of the drawn card and of the first foundation and stack.
const DRAWN_COL: f32 = 1.1;
const FIRST_COL: f32 = 2.4;

pub(super) fn redraw_board(
    mut commands: Commands,
    mut game: ResMut<CalcGame>,
    area: Res<BoardArea>,
    pieces: Query<Entity, With<BoardPiece>>,
) {
    if !clear_for_redraw(&mut commands, &mut game.redraw, &area, &pieces) {
        return;
    }
    let painter = Painter::new(&game, &area);
    spawn_rect(&mut commands, area.center.extend(-1.0), area.size, TABLE_GREEN);
    let drawn_at = painter.draw_stock(&mut commands);
    let mut hits = Vec::new();
    let foundation = painter.draw_foundations(&mut commands, &mut hits);
    let stack = painter.draw_stacks(&mut commands, &mut hits);
    if let Some((e, to)) = foundation.or(stack) {
        let duration = (0.8 / game.settings.speed.max(0.1)).min(0.5);
        let from = drawn_at.with_z(to.z + 5.0);
        commands.entity(e).insert((Tween { from, to, elapsed: 0.0, duration }, Transform::from_translation(from)));
    }
    painter.draw_status(&mut commands, area.center.x);
    game.animate = None;
    game.hits = hits;
}

/// One redraw of the board: where things go (board units, columns of `COL` and y down from
/// the top, scaled to fit the board area) and what the highlights and estimates show.
struct Painter<'g> {
    game: &'g CalcGame,
    top_left: Vec2,
    scale: f32,
    /// The deepest stack drawn room for (at least 10 cards).
    deepest: usize,
    legal: Vec<Target>,
    /// The planner's estimates for the current card, when shown.
    estimates: &'g [Choice],
    best: f64,
    human: bool,
    /// Size of the labels.
    small: f32,
}

impl<'g> Painter<'g> {
    fn new(game: &'g CalcGame, area: &BoardArea) -> Painter<'g> {
        let deepest = game.game.stacks.iter().map(Vec::len).max().unwrap_or(0).max(10);
        let cols = FIRST_COL + FOUNDATIONS.max(game.game.stacks.len()) as f32;
        let content = Vec2::new(cols * COL, HEAD + CARD_H * 2.0 + 110.0 + deepest as f32 * FAN + 30.0);
        let scale = area.fit_scale(content).min(1.5);
        let estimates: &[Choice] = match &game.estimates {
            Some((i, e)) if game.settings.show_estimates && *i == game.game.drawn_count() => e,
            _ => &[],
        };
        Painter {
            game,
            top_left: area.center + Vec2::new(-content.x, content.y) * scale / 2.0,
            scale,
            deepest,
            legal: game.game.legal_targets(),
            estimates,
            best: estimates.iter().map(|c| c.estimate).fold(f64::NEG_INFINITY, f64::max),
            human: !game.settings.ai_plays,
            small: 14.0 * scale.max(0.6),
        }
    }

    /// Centre of a card in column `col` (may be fractional) at `y` below the top.
    fn card_at(&self, col: f32, y: f32, z: f32) -> Vec3 {
        let x = self.top_left.x + (col * COL + COL / 2.0) * self.scale;
        Vec3::new(x, self.top_left.y - (y + CARD_H / 2.0) * self.scale, z)
    }

    /// A point for a text in column `col` at `y` below the top.
    fn text_at(&self, col: f32, y: f32) -> Vec3 {
        Vec3::new(self.top_left.x + (col * COL + COL / 2.0) * self.scale, self.top_left.y - y * self.scale, 3.0)
    }

    fn label(&self, commands: &mut Commands, text: String, col: f32, y: f32, size: f32, color: Color) {
        spawn_text(commands, BoardPiece, text, self.text_at(col, y), size, color);
    }

    /// An empty place for a card.
    fn slot(&self, commands: &mut Commands, at: Vec3) {
        spawn_rect(commands, at, Vec2::new(CARD_W, CARD_H) * self.scale, SLOT);
    }

    /// A frame of `color` behind a card area `height` high centred at `at`.
    fn frame(&self, commands: &mut Commands, at: Vec3, height: f32, color: Color) {
        spawn_rect(commands, at, Vec2::new(CARD_W + 8.0, height + 8.0) * self.scale, color);
    }

    /// The clickable area of a card area `height` high centred at `at`.
    fn hit_rect(&self, at: Vec3, height: f32) -> Rect {
        Rect::from_center_size(at.truncate(), Vec2::new(CARD_W, height) * self.scale)
    }

    /// Whether the human's picked-up card may go to `spot`.
    fn is_legal_spot(&self, spot: Spot) -> bool {
        match (self.game.selection, spot) {
            (Selection::Drawn, Spot::Foundation(f)) => self.legal.contains(&Target::Foundation(f)),
            (Selection::Drawn, Spot::Stack(s)) => self.legal.contains(&Target::Stack(s)),
            (Selection::Stack(s), Spot::Foundation(f)) => self.game.game.can_move(s, f),
            (Selection::Stack(_), Spot::Stack(_)) => false,
        }
    }

    /// The planner's estimate for `target` at `y` in column `col`, the best one highlighted.
    fn estimate(&self, commands: &mut Commands, target: Target, col: f32, y: f32) {
        if let Some(v) = self.estimates.iter().find(|c| c.target == target).map(|c| c.estimate) {
            let color = if v >= self.best { PICKED } else { LABEL };
            self.label(commands, format!("{v:.2e}"), col, y, self.small, color);
        }
    }

    /// The stock and the drawn card; returns where the drawn card lies (tweens start there).
    fn draw_stock(&self, commands: &mut Commands) -> Vec3 {
        let stock_at = self.card_at(0.0, HEAD, 1.0);
        let left = DECK - self.game.game.drawn_count();
        if left > 1 {
            spawn_card_back(commands, stock_at, self.scale);
        } else {
            self.slot(commands, stock_at);
        }
        let below = HEAD + CARD_H + 14.0;
        self.label(commands, format!("stock {}", left.saturating_sub(1)), 0.0, below, self.small, LABEL);
        let drawn_at = self.card_at(DRAWN_COL, HEAD, 1.0);
        match self.game.game.current() {
            Some(card) => {
                if self.human && self.game.selection == Selection::Drawn {
                    self.frame(commands, drawn_at - Vec3::Z * 0.5, CARD_H, PICKED);
                }
                spawn_card(commands, card, drawn_at, self.scale, None);
                self.label(commands, "drawn".into(), DRAWN_COL, below, self.small, LABEL);
            }
            None => self.slot(commands, drawn_at),
        }
        drawn_at
    }

    /// The four foundations with what each needs next; returns the card to animate, if the
    /// last move went to a foundation.
    fn draw_foundations(&self, commands: &mut Commands, hits: &mut Vec<(Rect, Spot)>) -> Option<(Entity, Vec3)> {
        let mut animated = None;
        for f in 0..FOUNDATIONS {
            let col = FIRST_COL + f as f32;
            let at = self.card_at(col, HEAD, 1.0);
            let spot = Spot::Foundation(f as u8);
            hits.push((self.hit_rect(at, CARD_H), spot));
            if self.human && self.is_legal_spot(spot) {
                self.frame(commands, at - Vec3::Z * 0.5, CARD_H, LEGAL);
            }
            let h = self.game.game.foundations[f];
            if h == 0 {
                self.slot(commands, at);
                spawn_text(commands, BoardPiece, format!("+{}", f + 1), at + Vec3::Z, 26.0 * self.scale, LABEL);
            } else {
                let card = Card { rank: target_rank(f, h), id: f as u8 };
                let e = spawn_card(commands, card, at, self.scale, Some(FACE));
                if self.game.animate == Some(Target::Foundation(f as u8)) {
                    animated = Some((e, at));
                }
            }
            // A complete foundation's label drops the count, which would run into the next label.
            let label = match next_rank(f, h) {
                Some(r) => format!("F{f} ->{} {h}/{FULL}", rank_char(r)),
                None => format!("F{f} done"),
            };
            self.label(commands, label, col, HEAD - 14.0, self.small * 0.9, LABEL);
            self.estimate(commands, Target::Foundation(f as u8), col, HEAD + CARD_H + 14.0);
        }
        animated
    }

    /// The waste stacks, fanned, with the planner's labels on the cards it plans to move;
    /// returns the card to animate, if the last move went to a stack.
    fn draw_stacks(&self, commands: &mut Commands, hits: &mut Vec<(Rect, Spot)>) -> Option<(Entity, Vec3)> {
        let mut animated = None;
        for (s, stack) in self.game.game.stacks.iter().enumerate() {
            let col = FIRST_COL + s as f32;
            let spot = Spot::Stack(s as u8);
            let height = CARD_H + stack.len().saturating_sub(1) as f32 * FAN;
            let center = self.card_at(col, STACK_TOP + (height - CARD_H) / 2.0, 0.0);
            hits.push((self.hit_rect(center, height), spot));
            let picked = self.human && self.game.selection == Selection::Stack(s as u8);
            if picked || (self.human && self.is_legal_spot(spot)) {
                self.frame(commands, center.with_z(0.5), height, if picked { PICKED } else { LEGAL });
            }
            self.slot(commands, self.card_at(col, STACK_TOP, 0.6));
            self.label(commands, format!("stack {s}"), col, STACK_TOP - 14.0, self.small, LABEL);
            self.estimate(commands, Target::Stack(s as u8), col, STACK_TOP - 32.0);
            for (k, &card) in stack.iter().enumerate() {
                let at = self.card_at(col, STACK_TOP + k as f32 * FAN, 1.0 + k as f32 * 0.01);
                let e = spawn_card(commands, card, at, self.scale, None);
                if k + 1 == stack.len() && self.game.animate == Some(Target::Stack(s as u8)) {
                    animated = Some((e, at));
                }
                if let Some(f) = self.game.planner.label(card).filter(|_| self.game.settings.ai_plays) {
                    let corner = Vec3::new(CARD_W * 0.28 * self.scale, (CARD_H / 2.0 - 12.0) * self.scale, 0.005);
                    let size = 11.0 * self.scale.max(0.6);
                    spawn_text(commands, BoardPiece, format!("F{f}"), at + corner, size, Color::srgb(0.2, 0.4, 0.7));
                }
            }
        }
        animated
    }

    /// The result, the last message or what the human can do next, under the stacks.
    fn draw_status(&self, commands: &mut Commands, center_x: f32) {
        let game = &self.game.game;
        let status = if game.is_won() {
            "WIN".to_string()
        } else if self.game.finished() {
            "game over (LOSS)".to_string()
        } else if let Some(m) = &self.game.message {
            m.clone()
        } else if self.human {
            match self.game.selection {
                Selection::Drawn if game.current().is_some() => {
                    "click a green target; right-click a stack to pick up its top".into()
                }
                Selection::Drawn => "stock empty: click a stack, then a foundation".into(),
                Selection::Stack(s) => format!("stack {s} top picked up: click a foundation (Esc to drop)"),
            }
        } else {
            String::new()
        };
        let bottom = STACK_TOP + CARD_H + self.deepest as f32 * FAN;
        let at = Vec3::new(center_x, self.top_left.y - bottom * self.scale, 3.0);
        spawn_text(commands, BoardPiece, status, at, 14.0 * self.scale.max(0.7), PICKED);
    }
}

fn spawn_rect(commands: &mut Commands, at: Vec3, size: Vec2, color: Color) {
    commands.spawn((BoardPiece, Sprite::from_color(color, size), Transform::from_translation(at)));
}

fn spawn_card_back(commands: &mut Commands, at: Vec3, scale: f32) {
    spawn_rect(commands, at, Vec2::new(CARD_W, CARD_H) * scale, Color::srgb(0.9, 0.9, 0.9));
    spawn_rect(commands, at + Vec3::Z * 0.01, Vec2::new(CARD_W - 8.0, CARD_H - 8.0) * scale, BACK);
}

/// A face-up card as one entity (its texts are children, so a tween moves them together).
fn spawn_card(commands: &mut Commands, card: Card, at: Vec3, scale: f32, face: Option<Color>) -> Entity {
    let (suit, color) = suit_of(card);
    let rank = rank_char(card.rank);
    let rank = if rank == 'T' { "10".to_string() } else { rank.to_string() };
    commands
        .spawn((
            BoardPiece,
            Sprite::from_color(Color::srgb(0.3, 0.3, 0.3), Vec2::new(CARD_W, CARD_H) * scale),
            Transform::from_translation(at),
        ))
        .with_children(|c| {
            c.spawn((
                Sprite::from_color(face.unwrap_or(FACE), Vec2::new(CARD_W - 3.0, CARD_H - 3.0) * scale),
                Transform::from_xyz(0.0, 0.0, 0.001),
            ));
            c.spawn((
                Text2d::new(format!("{rank}{suit}")),
                TextFont::from_font_size(15.0 * scale.max(0.5)),
                TextColor(color),
                Transform::from_xyz(-CARD_W * 0.22 * scale, (CARD_H / 2.0 - 12.0) * scale, 0.002),
            ));
            c.spawn((
                Text2d::new(rank),
                TextFont::from_font_size(34.0 * scale.max(0.5)),
                TextColor(color),
                Transform::from_xyz(0.0, -6.0 * scale, 0.002),
            ));
        })
        .id()
}

pub(super) fn animate_cards(time: Res<Time>, mut tweens: Query<(&mut Tween, &mut Transform)>) {
    for (mut tween, mut transform) in &mut tweens {
        tween.elapsed += time.delta_secs();
        let t = (tween.elapsed / tween.duration).clamp(0.0, 1.0);
        let eased = 1.0 - (1.0 - t) * (1.0 - t);
        let mut p = tween.from.lerp(tween.to, eased);
        p.z = if t >= 1.0 { tween.to.z } else { tween.from.z };
        transform.translation = p;
    }
}
