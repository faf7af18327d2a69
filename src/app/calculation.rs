//! The Calculation screen: the stock's drawn card, four foundations and the waste stacks drawn
//! as cards. A person plays by clicking where the drawn card goes (a foundation or a stack) and
//! moves stack tops to foundations (right-click a stack, then click a foundation); or the
//! paper's planner plays at an adjustable speed. On request the planner's estimated success
//! for each option is shown over the targets. AI work always runs as an `AiJob`.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::ai_task::AiJob;
use super::lab_screen::{LabEntry, LabOutcome, LabPlot, register_lab_experiments};
use super::panel::{
    BoardArea, ReplayCheck, clear_for_redraw, command_lines_ui, despawn_pieces, panel_has_keyboard, panel_has_pointer,
    side_panel, spawn_text,
};
use super::{BuiltScreens, DemoMode, Screen};
use crate::games::calculation::ai::{Choice, Decision, Planner, PlannerParams, Player};
use crate::games::calculation::cli::{log_command, play_command};
use crate::games::calculation::experiment::Play;
use crate::games::calculation::oracle::Action;
use crate::games::calculation::rules::{
    Card, DECK, Deal, FOUNDATIONS, FULL, Game, Observation, Target, next_rank, rank_char, target_rank,
};
use crate::lab::runner::{Shard, SharedProgress, result_json, run_records};
use crate::lab::stats::wilson95;

/// Card size and spacing in world units (before the board's scale).
const CARD_W: f32 = 70.0;
const CARD_H: f32 = 98.0;
const COL: f32 = 92.0;
/// Vertical offset between cards of a stack.
const FAN: f32 = 26.0;

pub struct CalculationPlugin;

impl Plugin for CalculationPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Calculation), setup_screen)
            .add_systems(OnExit(Screen::Calculation), (cancel_ai, despawn_pieces::<BoardPiece>))
            .add_systems(
                Update,
                (human_input, advance_game, redraw_board, animate_cards).chain().run_if(in_state(Screen::Calculation)),
            )
            .add_systems(EguiPrimaryContextPass, calc_panel.run_if(in_state(Screen::Calculation)));
        app.world_mut().resource_mut::<BuiltScreens>().0.push(Screen::Calculation);
        register_lab_experiments(app, lab_entries());
    }
}

/// What a new game is made from, and the live playback and AI settings.
#[derive(Clone, Debug)]
struct Settings {
    stacks: usize,
    seed: u64,
    deal: u64,
    ai_plays: bool,
    /// AI moves per second.
    speed: f32,
    paused: bool,
    show_estimates: bool,
    params: PlannerParams,
}

/// What the human has picked up: the drawn card (default) or a stack's top card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Selection {
    Drawn,
    Stack(u8),
}

/// A clickable place on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    Foundation(u8),
    Stack(u8),
}

/// The game in progress and everything the screen shows of it.
#[derive(Resource)]
struct CalcGame {
    settings: Settings,
    /// The seed and deal on the table (the panel's fields may have moved on since).
    dealt: (u64, u64),
    /// Whether the table still shows the game of the panel's `calc log` line.
    replay: ReplayCheck,
    game: Game,
    /// The planner whose plans follow the game (also a person's moves).
    planner: Planner,
    job: AiJob<(Planner, Decision)>,
    /// The decision waiting to be shown at the chosen speed.
    pending: Option<Decision>,
    est_job: AiJob<Vec<Choice>>,
    /// The estimates for the card drawn at this index.
    estimates: Option<(usize, Vec<Choice>)>,
    selection: Selection,
    /// Seconds until the next AI move may be shown.
    wait: f32,
    step_once: bool,
    redraw: bool,
    /// The last placement, animated from the stock on the next redraw.
    animate: Option<Target>,
    hits: Vec<(Rect, Spot)>,
    log: VecDeque<String>,
    message: Option<String>,
}

impl CalcGame {
    fn new(settings: Settings) -> Self {
        let game = Game::new(Deal::from_seed(settings.seed, settings.deal), settings.stacks)
            .expect("the panel keeps 3 or 4 stacks");
        let planner = Planner::new(settings.params.clone());
        let mut g = CalcGame {
            dealt: (settings.seed, settings.deal),
            replay: ReplayCheck::default(),
            settings,
            game,
            planner,
            job: AiJob::default(),
            pending: None,
            est_job: AiJob::default(),
            estimates: None,
            selection: Selection::Drawn,
            wait: 0.0,
            step_once: false,
            redraw: true,
            animate: None,
            hits: Vec::new(),
            log: VecDeque::new(),
            message: None,
        };
        g.log(format!("new game: seed {} deal {} with {} stacks", g.settings.seed, g.settings.deal, g.settings.stacks));
        g
    }

    fn log(&mut self, line: String) {
        self.log.push_front(line);
        self.log.truncate(14);
    }

    fn finished(&self) -> bool {
        self.game.is_won() || self.game.is_over()
    }

    /// A person played `action` from `before`: the planner's plans follow it, and the
    /// estimates of the position before it are dropped (also one still being computed).
    fn human_moved(&mut self, before: &Observation, action: Action) {
        self.planner.follow(before, action);
        self.replay.leave(self.at(), "a person played it");
        self.job.cancel();
        self.est_job.cancel();
        self.estimates = None;
        self.pending = None;
        self.selection = Selection::Drawn;
        self.redraw = true;
        self.message = None;
        self.end_message();
    }

    /// The move just played, as the replay note names it.
    fn at(&self) -> String {
        format!("card {}", self.game.drawn_count())
    }

    fn end_message(&mut self) {
        if self.game.is_won() {
            self.log("WIN: all four foundations complete".into());
        } else if self.game.is_over() {
            let played: u32 = self.game.foundations.iter().map(|&h| h as u32).sum();
            self.log(format!("LOSS: {played} of 52 cards on the foundations"));
        }
    }
}

fn default_settings(demo: bool) -> Settings {
    Settings {
        stacks: 4,
        seed: 1,
        deal: 0,
        ai_plays: demo,
        speed: 3.0,
        paused: false,
        show_estimates: !demo,
        params: PlannerParams::default(),
    }
}

fn setup_screen(mut commands: Commands, demo: Res<DemoMode>, existing: Option<Res<CalcGame>>) {
    if existing.is_none() {
        commands.insert_resource(CalcGame::new(default_settings(demo.0)));
    }
}

fn cancel_ai(mut game: ResMut<CalcGame>) {
    game.job.cancel();
    game.est_job.cancel();
    game.redraw = true;
}

/// Mouse play: left-click a foundation or stack to put the drawn card there (or the picked-up
/// stack top on a foundation); right-click a stack to pick up its top card; Escape drops it.
fn human_input(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut game: ResMut<CalcGame>,
    mut contexts: EguiContexts,
) {
    if game.settings.ai_plays || game.finished() {
        return;
    }
    if keys.just_pressed(KeyCode::Escape) && game.selection != Selection::Drawn && !panel_has_keyboard(&mut contexts) {
        game.selection = Selection::Drawn;
        game.redraw = true;
    }
    let left = mouse.just_pressed(MouseButton::Left);
    let right = mouse.just_pressed(MouseButton::Right);
    if !left && !right || panel_has_pointer(&mut contexts) {
        return;
    }
    let Some(pos) = window.cursor_position() else { return };
    let (cam, cam_transform) = *camera;
    let Ok(world) = cam.viewport_to_world_2d(cam_transform, pos) else { return };
    let Some(spot) = game.hits.iter().find(|(r, _)| r.contains(world)).map(|(_, s)| *s) else { return };
    click(&mut game, spot, right);
}

/// A person's click on `spot` (`right`: the right button): a move, or a pick-up or drop of a
/// stack's top.
fn click(game: &mut CalcGame, spot: Spot, right: bool) {
    let drawn = game.game.current();
    let before = game.game.observe();
    match (spot, game.selection, right || drawn.is_none()) {
        (Spot::Stack(s), sel, true) => {
            game.selection = Selection::Drawn;
            game.message = None;
            if sel != Selection::Stack(s)
                && let Some(top) = game.game.stacks[s as usize].last()
            {
                if (0..FOUNDATIONS as u8).any(|f| game.game.can_move(s, f)) {
                    game.selection = Selection::Stack(s);
                } else {
                    game.message = Some(format!("stack {s} top ({}) fits no foundation yet", rank_char(top.rank)));
                }
            }
            game.redraw = true;
        }
        // A stack is no target for a picked-up top: the click drops it, as Escape does.
        (Spot::Stack(_), Selection::Stack(_), false) => {
            game.selection = Selection::Drawn;
            game.redraw = true;
        }
        (Spot::Stack(s), Selection::Drawn, false) => {
            let card = drawn.expect("checked");
            if game.game.place(Target::Stack(s)).is_ok() {
                game.log(format!("you: {} to stack {s}", rank_char(card.rank)));
                game.animate = Some(Target::Stack(s));
                game.human_moved(&before, Action::Place(Target::Stack(s)));
            }
        }
        (Spot::Foundation(f), Selection::Stack(s), _) => match game.game.move_top(s, f) {
            Ok(()) => {
                game.log(format!("you: stack {s} top to foundation {f}"));
                game.human_moved(&before, Action::Move { stack: s, foundation: f });
            }
            Err(e) => {
                game.message = Some(e.to_string());
                game.redraw = true;
            }
        },
        (Spot::Foundation(f), Selection::Drawn, _) => {
            let Some(card) = drawn else { return };
            match game.game.place(Target::Foundation(f)) {
                Ok(()) => {
                    game.log(format!("you: {} to foundation {f}", rank_char(card.rank)));
                    game.animate = Some(Target::Foundation(f));
                    game.human_moved(&before, Action::Place(Target::Foundation(f)));
                }
                Err(e) => {
                    game.message = Some(e.to_string());
                    game.redraw = true;
                }
            }
        }
    }
}

/// Runs the AI (decisions and estimates as background jobs) and shows its moves at the
/// chosen speed.
fn advance_game(time: Res<Time>, mut game: ResMut<CalcGame>) {
    let game = &mut *game;
    if let Some(choices) = game.est_job.poll() {
        game.estimates = Some((game.game.drawn_count(), choices));
        game.redraw = true;
    }
    let want_estimates = game.settings.show_estimates && game.game.current().is_some();
    let fresh = game.estimates.as_ref().is_some_and(|(i, _)| *i == game.game.drawn_count());
    if want_estimates
        && !fresh
        && !game.est_job.is_thinking()
        && !matches!(game.est_job.status(), super::ai_task::AiStatus::Failed(_))
    {
        let planner = game.planner.clone();
        let obs = game.game.observe();
        game.est_job.start(move || planner.options(&obs));
    }
    if !game.settings.ai_plays || game.finished() {
        return;
    }
    if let Some((planner, decision)) = game.job.poll() {
        game.planner = planner;
        game.pending = Some(decision);
    }
    if game.pending.is_none() {
        if !game.job.is_thinking() && game.job.status() == &super::ai_task::AiStatus::Idle {
            let mut planner = game.planner.clone();
            planner.params = game.settings.params.clone();
            let obs = game.game.observe();
            game.job.start(move || {
                let d = planner.decide(&obs);
                (planner, d)
            });
        }
        return;
    }
    game.wait -= time.delta_secs();
    if game.settings.paused && !game.step_once {
        return;
    }
    if game.wait > 0.0 && !game.step_once {
        return;
    }
    let decision = game.pending.take().expect("checked");
    game.step_once = false;
    game.wait = 1.0 / game.settings.speed.max(0.1);
    apply_decision(game, decision);
}

fn apply_decision(game: &mut CalcGame, decision: Decision) {
    let drawn = game.game.current();
    if let Some(t) = decision.target
        && let Err(e) = game.game.place(t)
    {
        game.log(format!("AI move rejected: {e}"));
        game.settings.ai_plays = false;
        return;
    }
    for &(s, f) in &decision.moves {
        if let Err(e) = game.game.move_top(s, f) {
            game.log(format!("AI move rejected: {e}"));
            break;
        }
    }
    let idx = drawn.map_or(DECK, |c| c.id as usize);
    let moves = if decision.moves.is_empty() {
        String::new()
    } else {
        let m: Vec<String> = decision.moves.iter().map(|(s, f)| format!("s{s}>f{f}")).collect();
        format!(" then {}", m.join(" "))
    };
    game.log(format!("{idx}: {}{moves}", decision.why));
    let [_, line] = command_lines(game);
    game.replay.ai_moved(game.at(), line);
    game.animate = decision.target;
    game.redraw = true;
    game.end_message();
}

/// `calc play` with the planner's settings, and `calc log` of the deal on the table.
fn command_lines(game: &CalcGame) -> [String; 2] {
    let (stacks, params) = (game.settings.stacks, &game.settings.params);
    let (seed, deal) = game.dealt;
    [play_command(stacks, params), log_command(stacks, params, seed, deal)]
}

/// Every entity of the drawn board.
#[derive(Component)]
struct BoardPiece;

/// A card sliding from the stock to its place.
#[derive(Component)]
struct Tween {
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

fn redraw_board(
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
        } else if game.is_over() {
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

fn animate_cards(time: Res<Time>, mut tweens: Query<(&mut Tween, &mut Transform)>) {
    for (mut tween, mut transform) in &mut tweens {
        tween.elapsed += time.delta_secs();
        let t = (tween.elapsed / tween.duration).clamp(0.0, 1.0);
        let eased = 1.0 - (1.0 - t) * (1.0 - t);
        let mut p = tween.from.lerp(tween.to, eased);
        p.z = if t >= 1.0 { tween.to.z } else { tween.from.z };
        transform.translation = p;
    }
}

fn calc_panel(mut contexts: EguiContexts, mut game: ResMut<CalcGame>, mut next: ResMut<NextState<Screen>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &mut *game;
    side_panel(ctx, Screen::Calculation, &mut next, |ui| {
        deal_ui(ui, game);
        ui.separator();
        playback_ui(ui, game);
        ui.separator();
        planner_ui(ui, game);
        ui.separator();
        let played: u32 = game.game.foundations.iter().map(|&h| h as u32).sum();
        ui.label(format!("drawn {}/52, on foundations {played}/52", game.game.drawn_count()));
        ui.label(egui::RichText::new("log").strong());
        for line in &game.log {
            ui.small(line);
        }
    });
    Ok(())
}

/// Stacks, seed and deal, and the buttons that start a game with them.
fn deal_ui(ui: &mut egui::Ui, game: &mut CalcGame) {
    let stacks_before = game.settings.stacks;
    let s = &mut game.settings;
    ui.horizontal(|ui| {
        ui.label("stacks");
        ui.radio_value(&mut s.stacks, 3, "3");
        ui.radio_value(&mut s.stacks, 4, "4");
    });
    ui.horizontal(|ui| {
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut s.seed));
        ui.label("deal");
        ui.add(egui::DragValue::new(&mut s.deal));
    });
    ui.horizontal(|ui| {
        let mut settings = game.settings.clone();
        let new_game = ui.button("New game").clicked();
        if ui.button("Next deal").clicked() {
            settings.deal += 1;
        }
        // The stack count shapes the table, so a change deals at once, as the buttons do.
        if new_game || settings.deal != game.settings.deal || settings.stacks != stacks_before {
            game.job.cancel();
            game.est_job.cancel();
            *game = CalcGame::new(settings);
        }
    });
}

/// Who plays, the AI's pace and whether the planner's estimates show.
fn playback_ui(ui: &mut egui::Ui, game: &mut CalcGame) {
    let was_ai = game.settings.ai_plays;
    ui.horizontal(|ui| {
        ui.label("player");
        ui.radio_value(&mut game.settings.ai_plays, false, "human");
        ui.radio_value(&mut game.settings.ai_plays, true, "AI (planner)");
    });
    if was_ai != game.settings.ai_plays {
        game.job.cancel();
        game.pending = None;
        game.selection = Selection::Drawn;
        game.redraw = true;
    }
    ui.horizontal(|ui| {
        ui.checkbox(&mut game.settings.paused, "pause");
        if ui.button("step").clicked() {
            game.step_once = true;
        }
    });
    ui.add(egui::Slider::new(&mut game.settings.speed, 0.5..=30.0).text("moves / s").logarithmic(true));
    if ui.checkbox(&mut game.settings.show_estimates, "show estimates").changed() {
        game.redraw = true;
    }
}

/// The planner's parameters (live, for its next decision), its jobs and its estimates.
fn planner_ui(ui: &mut egui::Ui, game: &mut CalcGame) {
    ui.label(egui::RichText::new("planner (next decision)").strong());
    let p = &mut game.settings.params;
    ui.add(egui::Slider::new(&mut p.plans, 1..=400).text("plans L").logarithmic(true));
    ui.horizontal(|ui| {
        ui.label("lookahead");
        ui.radio_value(&mut p.lookahead, 0, "0");
        ui.radio_value(&mut p.lookahead, 1, "1");
    });
    ui.add(egui::Slider::new(&mut p.pair_limit, 0..=24).text("pair limit"));
    ui.add_enabled_ui(p.lookahead == 1, |ui| {
        ui.add(egui::Slider::new(&mut p.lookahead_plans, 0..=400).text("lookahead plans"))
            .on_hover_text("replies scored with the best M plans of each option (0 = all, the paper)");
        ui.add(egui::Slider::new(&mut p.lookahead_ratio, 0.0..=1.0).text("lookahead ratio"))
            .on_hover_text("look ahead only for options within this ratio of the best (0 = all, the paper)");
    });
    if game.planner.params != game.settings.params {
        game.planner.params = game.settings.params.clone();
        game.estimates = None;
        // The next move is decided with the new settings, not shown from the old ones.
        game.job.cancel();
        game.pending = None;
    }
    let [many, this] = command_lines(game);
    command_lines_ui(ui, "many deals from the command line", &[many]);
    game.replay.ui(ui, "this deal's game log, as the paper prints one", &this);
    ui.label(format!("plans kept: {}", game.planner.plan_count()));
    ui.horizontal(|ui| {
        ui.label("AI decision:");
        game.job.status_ui(ui);
    });
    if game.settings.show_estimates {
        ui.horizontal(|ui| {
            ui.label("estimates:");
            game.est_job.status_ui(ui);
        });
        if let Some((i, choices)) = &game.estimates
            && *i == game.game.drawn_count()
        {
            for c in choices {
                ui.monospace(format!("{:<13} {:.3e}", c.target.to_string(), c.estimate));
            }
            ui.small("stack-game estimates (a scale for comparing options, not a win chance)");
        }
    }
    if matches!(game.job.status(), super::ai_task::AiStatus::Failed(_)) && ui.button("retry AI").clicked() {
        game.job.clear_failure();
    }
    if matches!(game.est_job.status(), super::ai_task::AiStatus::Failed(_)) && ui.button("retry estimates").clicked() {
        game.est_job.clear_failure();
    }
}

/// Success rate with 3 and 4 stacks, lookahead 0 and 1, one bar per configuration (in the
/// order of the entry's commands).
fn run_rates(size: u64, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    use std::sync::atomic::Ordering;
    let configs: Vec<(usize, u8)> = vec![(3, 0), (3, 1), (4, 0), (4, 1)];
    progress.total.store(size * configs.len() as u64, Ordering::Relaxed);
    let mut results = Vec::new();
    let mut bars = Vec::new();
    for (stacks, lookahead) in configs {
        let exp = Play {
            stacks,
            deals: size,
            player: PlannerParams { plans: 20, lookahead, ..PlannerParams::default() },
            oracle: None,
        };
        let Some(games) = run_records(&exp, seed, Shard::WHOLE, None, progress)? else { return Ok(None) };
        let wins = games.records.iter().filter(|r| r.won).count() as u64;
        let n = games.records.len() as u64;
        let rate = if n == 0 { 0.0 } else { wins as f64 / n as f64 };
        bars.push((format!("S={stacks} la={lookahead}"), rate, wilson95(wins, n)));
        results.push(result_json(&exp, seed, Shard::WHOLE, &games));
    }
    let mut summary = serde_json::Map::new();
    for ((name, rate, ci), r) in bars.iter().zip(&results) {
        summary.insert(
            name.clone(),
            serde_json::json!({"success_rate": rate, "ci95": ci, "ms_per_deal": r["ms_per_deal"]}),
        );
    }
    Ok(Some(LabOutcome {
        result: serde_json::Value::Object(summary),
        plots: vec![LabPlot::Rates { title: "success rate by configuration (L = 20)".into(), bars }],
        parts: results,
    }))
}

/// The Calculation experiment of the Lab screen.
pub fn lab_entries() -> Vec<LabEntry> {
    vec![LabEntry {
        game: Screen::Calculation,
        name: "success rate: 3/4 stacks, lookahead 0/1 (L=20)",
        size_label: "deals",
        default_size: 20,
        commands: &[
            "asobi calc play --stacks 3 --deals {size} --plans 20 --lookahead 0 --seed {seed}",
            "asobi calc play --stacks 3 --deals {size} --plans 20 --lookahead 1 --seed {seed}",
            "asobi calc play --stacks 4 --deals {size} --plans 20 --lookahead 0 --seed {seed}",
            "asobi calc play --stacks 4 --deals {size} --plans 20 --lookahead 1 --seed {seed}",
        ],
        run: run_rates,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::drive_screen;
    use crate::games::calculation::cli::{Command, logged_game};
    use crate::lab::runner::parse_game_command;

    /// With the planner playing, the screen makes the moves its `calc log` line prints.
    #[test]
    fn the_planner_plays_the_moves_of_the_log_line() {
        let mut settings = default_settings(true);
        (settings.stacks, settings.seed, settings.deal) = (3, 4, 7);
        settings.params.plans = 30;
        let world = drive_screen(CalcGame::new(settings), advance_game, |g| g.game.drawn_count() >= 30 || g.finished());
        let game = world.resource::<CalcGame>();
        // The screen keeps its last lines, "DRAW: WHY[ then MOVES]"; the log has a "# WHY" line a draw.
        let decision = |line: &String| {
            let (draw, rest) = line.split_once(": ")?;
            Some((draw.parse::<usize>().ok()?, rest.split(" then ").next()?.to_string()))
        };
        let screen: Vec<(usize, String)> = game.log.iter().filter_map(decision).collect();
        let [_, line] = command_lines(game);
        assert_eq!(game.replay.line(&line), (line.as_str(), None), "the panel's line is the one the moves followed");
        let Command::Log(args) = parse_game_command(&line, "calc") else { panic!("{line}: not log") };
        let (_, log) = logged_game(&args).unwrap();
        let logged: Vec<&str> = log.text.lines().filter_map(|l| l.strip_prefix("# ")).collect();
        assert!(screen.len() >= 10, "{} moves on screen", screen.len());
        for (draw, why) in &screen {
            assert_eq!(why, logged[*draw], "{line}: draw {draw}");
        }
    }
}
