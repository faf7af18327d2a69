//! The Labyrinth screen: the 7x7 sliding maze with 2-4 seats, each a human (hot-seat) or any
//! bot. A human turn: click an insertion arrow, rotate the spare (R or the panel button, or a
//! click on the spare), then click one of the highlighted reachable tiles. Bots decide as
//! background tasks and explain their choice in the log. Every turn is animated: the row or
//! column slides, then the piece walks its path.

mod draw;
mod lab;

use std::collections::VecDeque;
use std::path::Path;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use self::draw::{LabPiece, redraw, spawn_assets};
pub use self::lab::{lab_command, lab_entries};
use super::ai_task::AiJob;
use super::lab_screen::register_lab_command;
use super::panel::{
    PickedGame, PresetRequest, ReplayCheck, batch_line_ui, deal_on_entry, despawn_pieces, panel_has_keyboard,
    panel_has_pointer, preset_row, side_panel,
};
use super::{DemoMode, Screen, register_game_screen};
use crate::games::labyrinth::ai::{BotKind, Decision};
use crate::games::labyrinth::cli::{load_params, match_command, trace_command};
use crate::games::labyrinth::experiment::{first_in_turn, game_start};
use crate::games::labyrinth::level::{Criterion, Params};
use crate::games::labyrinth::rules::board::{cell, xy};
use crate::games::labyrinth::rules::tile::{E, N, S, W};
use crate::games::labyrinth::rules::{Board, Cell, GameState, Insertion, Turn};
use crate::lab::rng::GameRng;
use crate::lab::runner::{BatchGame, write_ron};

/// Side of one tile in world units (before the board's scale).
const CELL: f32 = 60.0;
/// Seconds of the slide and of each step of the walk at speed 1.
const SLIDE_SECS: f32 = 0.5;
const STEP_SECS: f32 = 0.12;

/// The Labyrinth screen.
pub struct LabyrinthPlugin;

impl Plugin for LabyrinthPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Labyrinth), (setup_screen, spawn_assets).chain())
            .add_systems(OnExit(Screen::Labyrinth), (cancel_ai, despawn_pieces::<LabPiece>))
            .add_systems(Update, (human_input, advance_game, redraw).chain().run_if(in_state(Screen::Labyrinth)))
            .add_systems(EguiPrimaryContextPass, labyrinth_panel.run_if(in_state(Screen::Labyrinth)));
        register_game_screen(app, Screen::Labyrinth, lab_entries());
        register_lab_command(app, lab_command());
    }
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seat {
    Human,
    Bot(BotKind),
}

impl Seat {
    fn label(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Bot(k) => k.name(),
        }
    }

    fn choices() -> impl Iterator<Item = Seat> {
        std::iter::once(Seat::Human).chain(BotKind::ALL.into_iter().map(Seat::Bot))
    }
}

#[derive(Clone, Debug)]
struct Settings {
    players: usize,
    seats: [Seat; 4],
    seed: u64,
    /// Which game of the batch of `seed` to deal (the CLI's `--trace GAME`); seats move first
    /// in turn, game by game, as with `--alternate-first`.
    game: u64,
    /// Animation speed factor; bots also wait 1/speed s between turns.
    speed: f32,
    paused: bool,
    params: Params,
    /// The preset last loaded or saved, and the constants it holds.
    params_file: Option<(String, Params)>,
}

/// The board after the human's chosen insertion, and where the pieces then stand.
type Preview = Option<(Board, Vec<Cell>)>;

/// Size of the labels beside the board.
fn label_size(unit: f32) -> f32 {
    (unit * 0.24).max(9.0)
}

/// A turn being shown: the slide of the line, then the walk of the mover.
struct Anim {
    before: Board,
    before_pos: Vec<Cell>,
    insertion: Insertion,
    rotation: u8,
    mover: usize,
    path: Vec<Cell>,
    elapsed: f32,
}

impl Anim {
    fn slide_secs(&self, speed: f32) -> f32 {
        SLIDE_SECS / speed
    }

    fn total_secs(&self, speed: f32) -> f32 {
        self.slide_secs(speed) + STEP_SECS / speed * (self.path.len().saturating_sub(1)) as f32
    }
}

/// Where the board is drawn: centre of cell (3, 3) and the side of a tile, in world units.
#[derive(Clone, Copy, Default)]
struct Layout {
    center: Vec2,
    unit: f32,
}

impl Layout {
    fn at(&self, x: f32, y: f32) -> Vec2 {
        self.center + Vec2::new((x - 3.0) * self.unit, (3.0 - y) * self.unit)
    }

    fn spare_at(&self) -> Vec2 {
        self.at(9.3, 0.6)
    }
}

#[derive(Resource)]
struct LabyrinthGame {
    settings: Settings,
    /// The batch game on the board (the panel's fields may have moved on since).
    dealt: BatchGame,
    /// Whether the board still shows the game of the panel's trace line.
    replay: ReplayCheck,
    state: GameState,
    rngs: Vec<GameRng>,
    job: AiJob<(Decision, GameRng)>,
    /// The human's chosen insertion and spare rotation.
    pending: Option<Insertion>,
    rotation: u8,
    anim: Option<Anim>,
    /// Seconds since the last turn ended (bots wait 1/speed).
    idle: f32,
    step_once: bool,
    log: VecDeque<String>,
    redraw: bool,
    layout: Layout,
    /// What the bot-parameter preset field holds (kept across games).
    params_path: String,
}

impl LabyrinthGame {
    fn new(settings: Settings) -> Self {
        let n = settings.players;
        let dealt = BatchGame { seed: settings.seed, index: settings.game };
        let (state, rngs) = game_start(n, Some(first_in_turn(n, dealt.index)), dealt.seed, dealt.index);
        let mut game = LabyrinthGame {
            dealt,
            replay: ReplayCheck::default(),
            settings,
            state,
            rngs,
            job: AiJob::default(),
            pending: None,
            rotation: 0,
            anim: None,
            idle: 0.0,
            step_once: false,
            log: VecDeque::new(),
            redraw: true,
            layout: Layout::default(),
            params_path: String::new(),
        };
        game.log(format!("new game, {} players, player {} starts", n, game.state.current + 1));
        game
    }

    /// A game picked in the Lab.
    fn picked(settings: &Settings) -> Self {
        let mut game = LabyrinthGame::new(settings.clone());
        game.log(format!("picked in the Lab: game {} of seed {}", settings.game, settings.seed));
        game
    }

    fn log(&mut self, line: String) {
        self.log.push_front(line);
        self.log.truncate(60);
    }

    fn seat(&self) -> Seat {
        self.settings.seats[self.state.current]
    }

    fn human_to_move(&self) -> bool {
        !self.state.is_over() && self.anim.is_none() && self.seat() == Seat::Human
    }

    /// The board after the human's pending insertion, the pieces pushed along.
    fn preview(&self) -> Preview {
        let ins = self.pending.filter(|_| self.human_to_move())?;
        let mut board = self.state.board.clone();
        board.insert(ins, self.rotation);
        let pos = self.state.players().iter().map(|p| ins.push(p.pos)).collect();
        Some((board, pos))
    }

    /// Plays `turn` for the current player and starts its animation.
    fn play(&mut self, turn: Turn) {
        let (mover, seat) = (self.state.current, self.seat());
        let before = self.state.board.clone();
        let before_pos: Vec<Cell> = self.state.players().iter().map(|p| p.pos).collect();
        let cards_before = self.state.players()[mover].cards_left();
        if let Err(e) = self.state.apply(turn) {
            self.log(format!("illegal turn for player {}: {e}", mover + 1));
            return;
        }
        self.note_replay(seat);
        let path = walk(&self.state.board, turn.insertion.push(before_pos[mover]), turn.dest);
        self.anim = Some(Anim {
            before,
            before_pos,
            insertion: turn.insertion,
            rotation: turn.rotation,
            mover,
            path,
            elapsed: 0.0,
        });
        self.pending = None;
        self.rotation = 0;
        self.idle = 0.0;
        let p = &self.state.players()[mover];
        if p.cards_left() < cards_before {
            self.log(format!("player {} found a treasure ({} left)", mover + 1, p.cards_left()));
        }
        if let Some(w) = self.state.winner {
            self.log(format!(
                "player {} ({}) wins after {} plies",
                w + 1,
                self.settings.seats[w].label(),
                self.state.plies
            ));
        }
        self.redraw = true;
    }

    /// The turn just played from `seat`: does the game still follow the panel's trace line?
    fn note_replay(&mut self, seat: Seat) {
        let at = format!("turn {}", self.state.plies);
        let person_seated = self.settings.seats[..self.settings.players].contains(&Seat::Human);
        match command_lines(self) {
            _ if seat == Seat::Human => self.replay.leave(at, "a person played it"),
            Ok([_, line]) => self.replay.ai_moved(at, line),
            Err(_) if person_seated => self.replay.leave(at, "a person plays a seat"),
            Err(_) => self.replay.leave(at, "played with edited bot constants"),
        }
    }
}

/// The shortest corridor path from `from` to `to` (both included), `[from]` when unreachable.
fn walk(board: &Board, from: Cell, to: Cell) -> Vec<Cell> {
    let mut prev = [u8::MAX; 49];
    let mut queue = VecDeque::from([from]);
    prev[from as usize] = from;
    while let Some(c) = queue.pop_front() {
        if c == to {
            break;
        }
        let (x, y) = xy(c);
        for (side, back, dx, dy) in [(N, S, 0i8, -1i8), (E, W, 1, 0), (S, N, 0, 1), (W, E, -1, 0)] {
            let (nx, ny) = (x as i8 + dx, y as i8 + dy);
            if !(0..7).contains(&nx) || !(0..7).contains(&ny) {
                continue;
            }
            let n = cell(nx as u8, ny as u8);
            if prev[n as usize] == u8::MAX && board.tile(c).is_open(side) && board.tile(n).is_open(back) {
                prev[n as usize] = c;
                queue.push_back(n);
            }
        }
    }
    if prev[to as usize] == u8::MAX {
        return vec![from];
    }
    let mut path = vec![to];
    let mut c = to;
    while c != from {
        c = prev[c as usize];
        path.push(c);
    }
    path.reverse();
    path
}

fn default_settings(demo: bool) -> Settings {
    let seats = if demo {
        [
            Seat::Bot(BotKind::Asobi),
            Seat::Bot(BotKind::BigBrain),
            Seat::Bot(BotKind::Saboteur),
            Seat::Bot(BotKind::Hybrid),
        ]
    } else {
        [Seat::Human, Seat::Bot(BotKind::Asobi), Seat::Bot(BotKind::BigBrain), Seat::Bot(BotKind::Saboteur)]
    };
    let players = if demo { 4 } else { 2 };
    Settings {
        players,
        seats,
        seed: 1,
        game: 0,
        speed: 2.0,
        paused: false,
        params: Params::default(),
        params_file: None,
    }
}

fn setup_screen(
    mut commands: Commands,
    demo: Res<DemoMode>,
    existing: Option<ResMut<LabyrinthGame>>,
    picked: Option<Res<PickedGame<Settings>>>,
) {
    let has_game = existing.is_some();
    if let Some(mut game) = existing {
        game.redraw = true;
    }
    let first_game = || LabyrinthGame::new(default_settings(demo.0));
    deal_on_entry(&mut commands, picked, has_game, LabyrinthGame::picked, first_game);
}

fn cancel_ai(mut game: ResMut<LabyrinthGame>) {
    game.job.cancel();
    game.redraw = true;
}

/// The insertion at grid position (gx, gy) just outside the board, if any.
fn insertion_at(gx: i32, gy: i32) -> Option<Insertion> {
    Insertion::ALL.into_iter().find(|&i| arrow_grid(i) == (gx, gy))
}

/// Grid position of an insertion's arrow (outside the board, next to the line's first cell).
fn arrow_grid(i: Insertion) -> (i32, i32) {
    let k = 1 + 2 * (i.index() % 3) as i32;
    match i.index() / 3 {
        0 => (k, -1),
        1 => (k, 7),
        2 => (-1, k),
        _ => (7, k),
    }
}

fn arrow_text(i: Insertion) -> &'static str {
    ["v", "^", ">", "<"][(i.index() / 3) as usize]
}

fn human_input(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut game: ResMut<LabyrinthGame>,
    mut contexts: EguiContexts,
) {
    if !game.human_to_move() {
        return;
    }
    if keys.just_pressed(KeyCode::KeyR) && !panel_has_keyboard(&mut contexts) {
        game.rotation = (game.rotation + 1) % 4;
        game.redraw = true;
    }
    if !mouse.just_pressed(MouseButton::Left) || panel_has_pointer(&mut contexts) {
        return;
    }
    let (camera, cam_transform) = *camera;
    let Some(world) = window.cursor_position().and_then(|p| camera.viewport_to_world_2d(cam_transform, p).ok()) else {
        return;
    };
    let layout = game.layout;
    if layout.unit <= 0.0 {
        return;
    }
    if (world - layout.spare_at()).abs().max_element() < layout.unit * 0.6 {
        game.rotation = (game.rotation + 1) % 4;
        game.redraw = true;
        return;
    }
    let local = (world - layout.center) / layout.unit;
    let gx = (local.x + 3.5).floor() as i32;
    let gy = (3.5 - local.y).floor() as i32;
    if let Some(ins) = insertion_at(gx, gy) {
        if Insertion::allowed(game.state.last).any(|a| a == ins) {
            game.pending = Some(ins);
        } else {
            game.log(format!("{ins} is blocked: it would undo the last push"));
        }
        game.redraw = true;
        return;
    }
    if (0..7).contains(&gx) && (0..7).contains(&gy) {
        let Some(ins) = game.pending else { return };
        let turn = Turn { insertion: ins, rotation: game.rotation, dest: cell(gx as u8, gy as u8) };
        if game.state.check(turn).is_ok() {
            let who = game.state.current + 1;
            game.log(format!("player {who} (human): {ins} rot {} to {:?}", turn.rotation, (gx, gy)));
            game.play(turn);
        }
    }
}

fn advance_game(time: Res<Time>, mut game: ResMut<LabyrinthGame>) {
    let game = &mut *game;
    let speed = game.settings.speed.max(0.1);
    if let Some(anim) = &mut game.anim {
        anim.elapsed += time.delta_secs();
        if anim.elapsed >= anim.total_secs(speed) {
            game.anim = None;
        }
        game.redraw = true;
        return;
    }
    if game.state.is_over() {
        return;
    }
    let Seat::Bot(kind) = game.seat() else { return };
    if game.job.is_thinking() {
        if let Some((decision, rng)) = game.job.poll() {
            let seat = game.state.current;
            game.rngs[seat] = rng;
            game.log(decision.describe(seat, kind));
            game.play(decision.turn);
        }
        return;
    }
    if !matches!(game.job.status(), super::ai_task::AiStatus::Idle) {
        return;
    }
    game.idle += time.delta_secs();
    let go = if game.settings.paused { std::mem::take(&mut game.step_once) } else { game.idle >= 0.5 / speed };
    if go {
        let seat = game.state.current;
        let obs = game.state.observe(seat);
        let params = game.settings.params.clone();
        let mut rng = game.rngs[seat].clone();
        game.job.start(move || {
            let bot = kind.build(&params);
            let d = bot.decide(&obs, &mut rng);
            (d, rng)
        });
    }
}

fn labyrinth_panel(
    mut contexts: EguiContexts,
    mut game: ResMut<LabyrinthGame>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &mut *game;
    side_panel(ctx, Screen::Labyrinth, &mut next, |ui| {
        new_game_ui(ui, game);
        ui.separator();
        ui.horizontal(|ui| {
            ui.checkbox(&mut game.settings.paused, "pause bots");
            if ui.button("step").clicked() {
                game.step_once = true;
            }
        });
        ui.add(egui::Slider::new(&mut game.settings.speed, 0.25..=20.0).text("speed").logarithmic(true));
        if game.human_to_move() {
            ui.horizontal(|ui| {
                if ui.button("Rotate spare (R)").clicked() {
                    game.rotation = (game.rotation + 1) % 4;
                    game.redraw = true;
                }
                ui.label(match game.pending {
                    Some(i) => format!("insert at {i}"),
                    None => "pick an arrow".into(),
                });
            });
        }
        ui.separator();
        ui.label(format!("plies {}", game.state.plies));
        if let Seat::Bot(k) = game.seat() {
            ui.label(format!("P{} ({k}):", game.state.current + 1));
        }
        game.job.status_ui(ui);
        if ui.small_button("retry after a failure").clicked() {
            game.job.clear_failure();
        }
        ui.separator();
        let params_before = game.settings.params.clone();
        egui::CollapsingHeader::new("bot parameters (live)").show(ui, |ui| {
            params_file_ui(ui, game);
            params_ui(ui, &mut game.settings.params);
        });
        if game.settings.params != params_before {
            // The bot's turn being decided is decided again with the new constants.
            game.job.cancel();
        }
        command_line_ui(ui, game);
        ui.separator();
        ui.label(egui::RichText::new("log").strong());
        for line in &game.log {
            ui.small(line);
        }
    });
    Ok(())
}

fn new_game_ui(ui: &mut egui::Ui, game: &mut LabyrinthGame) {
    let seats_before = game.settings.seats;
    let s = &mut game.settings;
    // The number of players shapes the game, so a change starts one at once.
    let players_changed = ui.add(egui::Slider::new(&mut s.players, 2..=4).text("players")).changed();
    for i in 0..s.players {
        egui::ComboBox::from_label(format!("player {}", i + 1)).selected_text(s.seats[i].label()).show_ui(ui, |ui| {
            for seat in Seat::choices() {
                ui.selectable_value(&mut s.seats[i], seat, seat.label());
            }
        });
    }
    // A new seat takes over the game as it stands: a decision its old bot was still
    // thinking over is dropped, not played later.
    if game.settings.seats != seats_before {
        game.job.cancel();
        game.redraw = true;
    }
    ui.horizontal(|ui| {
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut game.settings.seed));
        ui.label("game");
        ui.add(egui::DragValue::new(&mut game.settings.game)).on_hover_text(
            "which game of a `labyrinth match --alternate-first` batch of this seed to deal: \
             the game its `--trace GAME` prints",
        );
        if ui.button("New game").clicked() || players_changed {
            let settings = game.settings.clone();
            game.job.cancel();
            let (layout, params_path) = (game.layout, std::mem::take(&mut game.params_path));
            *game = LabyrinthGame::new(settings);
            (game.layout, game.params_path) = (layout, params_path);
        }
    });
    ui.small("Human turn: click an arrow, R rotates the spare, click a green tile. Only the player to move sees their card (hot-seat).");
}

fn num(ui: &mut egui::Ui, label: &str, v: &mut f64) {
    ui.horizontal(|ui| {
        ui.add(egui::DragValue::new(v).speed(0.05));
        ui.label(label);
    });
}

fn criterion_ui(ui: &mut egui::Ui, name: &str, c: &mut Criterion) {
    egui::CollapsingHeader::new(name).show(ui, |ui| {
        num(ui, "target", &mut c.target);
        num(ui, "base", &mut c.base);
        num(ui, "distance", &mut c.distance);
        num(ui, "wall", &mut c.wall);
        num(ui, "fixed", &mut c.fixed);
        num(ui, "two_dir", &mut c.two_dir);
        num(ui, "mine", &mut c.mine);
        num(ui, "opp", &mut c.opp);
        num(ui, "opp_home", &mut c.opp_home);
        num(ui, "offboard_distance", &mut c.offboard_distance);
        let mut on = c.threshold.is_some();
        ui.horizontal(|ui| {
            ui.checkbox(&mut on, "score threshold");
            let mut v = c.threshold.unwrap_or(0.0);
            if on {
                ui.add(egui::DragValue::new(&mut v).speed(0.1));
            }
            c.threshold = on.then_some(v);
        });
    });
}

/// Loads the bot constants from a preset (a file, or a bundled name such as `thesis`) or
/// saves them as one for `labyrinth match --params FILE`.
fn params_file_ui(ui: &mut egui::Ui, game: &mut LabyrinthGame) {
    let Some((request, path)) = preset_row(ui, &mut game.params_path, "preset .ron or name") else { return };
    let shown = path.display().to_string();
    match params_preset(&mut game.settings.params, request, &shown) {
        Ok(what) => {
            game.settings.params_file = Some((shown.clone(), game.settings.params.clone()));
            game.log(format!("bot parameters {what}: {shown}"));
        }
        Err(e) => game.log(format!("bot parameters: {e:#}")),
    }
}

/// The tournament of the seats' bots with these constants, over many games, and the game on
/// the board played by them from its start; edited constants need a preset file first.
fn command_line_ui(ui: &mut egui::Ui, game: &LabyrinthGame) {
    match command_lines(game) {
        Ok([many, this]) => {
            batch_line_ui(ui, "many games from the command line", &many);
            game.replay.ui(ui, "this game from its start, turn by turn", &this);
        }
        Err(why) => {
            ui.small(why);
        }
    }
}

/// The tournament line and the `--trace` line of the game on the board, or why they do not
/// show (a person in a seat; edited constants not saved as a preset).
fn command_lines(game: &LabyrinthGame) -> Result<[String; 2], &'static str> {
    let s = &game.settings;
    let bots: Option<Vec<BotKind>> = s.seats[..s.players]
        .iter()
        .map(|seat| match seat {
            Seat::Bot(kind) => Some(*kind),
            Seat::Human => None,
        })
        .collect();
    let bots = bots.ok_or("a bot in every seat: the tournament command that plays them over many games shows here")?;
    let preset = match &s.params_file {
        _ if s.params == Params::default() => None,
        Some((path, saved)) if *saved == s.params => Some(path.as_str()),
        _ => return Err("edited bot constants: save them above, and the tournament command shows here"),
    };
    Ok([match_command(&bots, preset), trace_command(&bots, preset, game.dealt)])
}

fn params_preset(params: &mut Params, request: PresetRequest, path: &str) -> anyhow::Result<&'static str> {
    match request {
        PresetRequest::Load => {
            *params = load_params(Some(path))?;
            Ok("loaded")
        }
        PresetRequest::Save => {
            write_ron(Path::new(path), params)?;
            Ok("saved")
        }
    }
}

/// Every constant of every bot; a change applies to the next decision.
fn params_ui(ui: &mut egui::Ui, p: &mut Params) {
    if ui.button("reset to defaults").clicked() {
        *p = Params::default();
    }
    egui::CollapsingHeader::new("asobi").show(ui, |ui| {
        num(ui, "reach_now", &mut p.asobi.reach_now);
        num(ui, "threat", &mut p.asobi.threat);
        num(ui, "fixed", &mut p.asobi.fixed);
        num(ui, "maze_distance", &mut p.asobi.maze_distance);
        ui.add(egui::Slider::new(&mut p.asobi.reply_rotations, 1..=4).text("reply_rotations"));
    });
    egui::CollapsingHeader::new("big-brain").show(ui, |ui| {
        ui.add(egui::DragValue::new(&mut p.big_brain.budget).range(100..=1_000_000).prefix("budget "));
        ui.checkbox(&mut p.big_brain.position_only_visited, "position_only_visited");
    });
    egui::CollapsingHeader::new("saboteur").show(ui, |ui| {
        num(ui, "share_bonus", &mut p.saboteur.share_bonus);
        num(ui, "reach_penalty", &mut p.saboteur.reach_penalty);
    });
    egui::CollapsingHeader::new("search (criteria bots)").show(ui, |ui| {
        ui.add(egui::DragValue::new(&mut p.search.budget).range(100..=1_000_000).prefix("budget "));
        ui.add(egui::Slider::new(&mut p.search.max_depth, 1..=12).text("max_depth"));
    });
    criterion_ui(ui, "treasure-count", &mut p.treasure_count);
    criterion_ui(ui, "distance", &mut p.distance);
    criterion_ui(ui, "static-tile", &mut p.static_tile);
    criterion_ui(ui, "hybrid", &mut p.hybrid);
    criterion_ui(ui, "slide-direction", &mut p.slide_direction);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::drive_screen;

    /// With bots in every seat, the screen plays the turns its trace line prints.
    #[test]
    fn the_bots_play_the_turns_of_the_trace_line() {
        use crate::games::labyrinth::cli::{Command, tournament};
        use crate::lab::runner::parse_game_command;
        let seats = [BotKind::Saboteur, BotKind::BigBrain, BotKind::Random];
        let mut settings = default_settings(true);
        settings.players = seats.len();
        settings.seats[..3].copy_from_slice(&seats.map(Seat::Bot));
        settings.seed = 4;
        settings.game = 5;
        let game = LabyrinthGame::new(settings);
        assert_eq!(game.state.current, 2, "game 5 of three seats: the third seat first");
        let world = drive_screen(game, advance_game, |g| g.state.plies >= 12 || g.state.is_over());
        let game = world.resource::<LabyrinthGame>();
        let screen: Vec<&String> = game.log.iter().rev().filter(|line| line.contains(" rot ")).collect();
        let [_, line] = command_lines(game).expect("bots in every seat");
        assert_eq!(game.replay.line(&line), (line.as_str(), None), "the panel's line is the one the moves followed");
        let Command::Match(args) = parse_game_command(&line, "labyrinth") else { panic!("{line}: not match") };
        let mut traced = Vec::new();
        let (seed, index) = (args.batch.seed, args.trace.expect("a trace line"));
        assert_eq!((seed, index), (4, 5), "{line}: the game dealt");
        tournament(&args).unwrap().play_traced(seed, index, &mut |t| traced.push(t.decision.describe(t.seat, t.bot)));
        assert!(screen.len() >= 12, "{} turns on screen", screen.len());
        assert_eq!(screen, traced.iter().take(screen.len()).collect::<Vec<_>>(), "{line}");
    }

    #[test]
    fn saved_bot_constants_load_back_and_a_bad_preset_changes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("bots.ron").display().to_string();
        let mut params = Params::default();
        params.asobi.threat += 1.5;
        let chosen = params.clone();
        params_preset(&mut params, PresetRequest::Save, &path).unwrap();
        params = Params::default();
        params_preset(&mut params, PresetRequest::Load, &path).unwrap();
        assert_eq!(params, chosen);
        assert_eq!(load_params(Some(&path)).unwrap(), chosen, "`labyrinth match --params FILE` reads it");
        params_preset(&mut params, PresetRequest::Load, "thesis").unwrap();
        assert_eq!(params, load_params(Some("thesis")).unwrap(), "bundled presets load by name");
        let error = params_preset(&mut params, PresetRequest::Load, "no/such/preset.ron").unwrap_err();
        assert!(format!("{error:#}").contains("no/such/preset.ron"), "{error:#}");
    }
}
