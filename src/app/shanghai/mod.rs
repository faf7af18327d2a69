//! The Shanghai (mahjong solitaire) screen: a layered tile board drawn from the game's state,
//! played with the mouse (click two matching free tiles), with hint, undo and a free-tile
//! highlight; or watched while the virtual player plays, its move values in the log.
//! Tiles whose kind the player may not know (spec §2.4) are drawn as backs.

mod draw;
mod lab;

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use self::draw::{Fading, Geometry, TilePiece, animate_fades, face_name, redraw_board};
pub use self::lab::{lab_command, lab_entries};
use super::ai_task::AiJob;
use super::lab_screen::register_lab_command;
use super::panel::{
    BoardArea, PickedGame, PresetRequest, ReplayCheck, batch_line_ui, deal_on_entry, despawn_pieces,
    panel_has_keyboard, panel_has_pointer, path_row, preset_row, side_panel,
};
use super::{DemoMode, Screen, register_game_screen};
use crate::games::shanghai::ai::risk::RiskJudge;
use crate::games::shanghai::ai::{Decision, Player, PlayerParams, TieBreak, VirtualPlayer};
use crate::games::shanghai::catalog::{bundled, load, read_weights, weights_for};
use crate::games::shanghai::cli::{EvalDeals, eval_command, trace_command};
use crate::games::shanghai::experiment::play_stream;
use crate::games::shanghai::generator::{DealSource, deal};
use crate::games::shanghai::io::instances::{Instance, InstanceFile};
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::level::{Weights, WeightsFile};
use crate::games::shanghai::rules::{Game, Move, faces};
use crate::lab::rng::{GameRng, sub_rng};
use crate::lab::runner::write_ron;
use crate::levels::read_user_file;

/// The Shanghai screen.
pub struct ShanghaiPlugin;

impl Plugin for ShanghaiPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Shanghai), setup_screen)
            .add_systems(OnExit(Screen::Shanghai), (cancel_ai, despawn_pieces::<TilePiece>, despawn_pieces::<Fading>))
            .add_systems(
                Update,
                (mouse_input, keyboard_input, advance_ai, redraw_board, animate_fades)
                    .chain()
                    .run_if(in_state(Screen::Shanghai)),
            )
            .add_systems(EguiPrimaryContextPass, shanghai_panel.run_if(in_state(Screen::Shanghai)));
        register_game_screen(app, Screen::Shanghai, lab_entries());
        register_lab_command(app, lab_command());
    }
}

/// What the virtual player's job was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Play,
    Hint,
}

/// The game in progress and everything the screen shows of it.
#[derive(Resource)]
struct ShanghaiGame {
    /// A bundled layout's name or the path of a layout file the user opened.
    layout_name: String,
    /// What the file field holds: a layout file or a `generate --out` instance file.
    layout_path: String,
    /// What the weight preset field holds.
    weights_path: String,
    /// The weight preset last loaded or saved, and the weights it holds.
    weights_file: Option<(String, Weights)>,
    /// Instances read from a `shanghai generate --out` file: `index` picks one of them (by
    /// position), and `seed` is not used. `None`: generator deals of the chosen layout.
    instance_file: Option<Arc<LoadedInstances>>,
    /// The deal is instance `index` of the generator batch seeded by `seed`, as in
    /// `asobi shanghai generate --seed SEED` (so a Lab map point can be replayed here).
    seed: u64,
    index: u64,
    /// The seed and index (for a file, the position) of the deal on the board: the fields
    /// above may have moved on since.
    dealt: (u64, u64),
    /// Whether the board still shows the game of the panel's `--trace` line.
    replay: ReplayCheck,
    game: Game,
    params: PlayerParams,
    /// The virtual player plays (watch mode).
    watch: bool,
    /// Moves per second while watching.
    speed: f32,
    paused: bool,
    step_once: bool,
    /// Seconds until the virtual player may move again.
    wait: f32,
    highlight_free: bool,
    /// Kinds 35 and 36 of a full set drawn as the four flowers and the four seasons.
    bonus_faces: bool,
    selected: Option<usize>,
    hint: Option<Move>,
    /// The decision (a move or a hint) and, for a move, the AI's stream after it.
    job: AiJob<(Option<Decision>, GameRng)>,
    /// The stream the AI's moves draw from: `shanghai eval --trace`'s for this deal.
    play_rng: GameRng,
    purpose: Purpose,
    /// Decisions made so far (seeds the player's randomness).
    decisions: u64,
    /// Pairs removed since the last redraw, to fade out.
    removed: Vec<Move>,
    log: VecDeque<String>,
    error: Option<String>,
    redraw: bool,
}

impl ShanghaiGame {
    fn new(layout_name: &str, seed: u64, index: u64, watch: bool) -> Self {
        let mut screen = ShanghaiGame {
            layout_name: layout_name.to_string(),
            layout_path: String::new(),
            weights_path: String::new(),
            weights_file: None,
            instance_file: None,
            seed,
            index,
            dealt: (seed, index),
            replay: ReplayCheck::default(),
            game: Game::new(Arc::new(placeholder()), vec![0, 0]),
            params: PlayerParams { weights: weights_for(layout_name), ..PlayerParams::default() },
            watch,
            speed: if watch { 1.0 } else { 2.0 },
            paused: false,
            step_once: false,
            wait: 0.5,
            highlight_free: false,
            bonus_faces: false,
            selected: None,
            hint: None,
            job: AiJob::default(),
            play_rng: play_stream(seed, index),
            purpose: Purpose::Play,
            decisions: 0,
            removed: Vec::new(),
            log: VecDeque::new(),
            error: None,
            redraw: true,
        };
        screen.new_deal();
        screen
    }

    /// Deals instance `index` of batch `seed` on the chosen layout (generator deals: always solvable).
    fn new_deal(&mut self) {
        self.job.cancel();
        self.error = None;
        self.selected = None;
        self.hint = None;
        self.decisions = 0;
        self.replay = ReplayCheck::default();
        self.removed.clear();
        self.redraw = true;
        if let Some(file) = self.instance_file.clone() {
            let position = (self.index % file.instances.len() as u64) as usize;
            let instance = &file.instances[position];
            self.game = Game::new(file.layout.clone(), instance.kinds.clone());
            self.dealt = (self.seed, position as u64);
            self.play_rng = play_stream(self.seed, position as u64);
            self.log(format!(
                "{} instance {} (#{} of the file; weak {:.2}, strong {:.2}): {} tiles",
                file.path,
                instance.index,
                position,
                instance.weak_rate,
                instance.strong_rate,
                self.game.layout.len()
            ));
            return;
        }
        let made = load(&self.layout_name).and_then(|layout| {
            let kinds = deal(&layout, DealSource::Generator, self.seed, self.index).map_err(anyhow::Error::msg)?;
            Ok(Game::new(layout, kinds))
        });
        match made {
            Ok(game) => {
                self.game = game;
                self.dealt = (self.seed, self.index);
                self.play_rng = play_stream(self.seed, self.index);
                let (name, seed, index, tiles) = (&self.layout_name, self.seed, self.index, self.game.layout.len());
                self.log(format!("{name} seed {seed} instance {index}: {tiles} tiles"));
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn log(&mut self, line: String) {
        self.log.push_front(line);
        self.log.truncate(14);
    }

    /// A pair as the log names it: the faces, then the tile numbers ("8B + 8B (12, 35)").
    /// Both tiles are free, so the player sees them.
    fn pair_name(&self, m: Move) -> String {
        let shown = faces(&self.game.kinds, self.bonus_faces);
        let name = |t: u16| face_name(shown[t as usize]);
        format!("{} + {} ({}, {})", name(m.a), name(m.b), m.a, m.b)
    }

    /// Plays `m` (known legal), the AI's move or a person's, and queues its tiles to fade.
    fn play(&mut self, m: Move, by_ai: bool) {
        if let Err(e) = self.game.play(m) {
            self.error = Some(e);
            return;
        }
        let at = format!("move {}", self.game.history.len());
        match command_lines(self) {
            _ if !by_ai => self.replay.leave(at, "a person played it"),
            Some([_, line]) => self.replay.ai_moved(at, line),
            None => self.replay.leave(at, "played with edited weights"),
        }
        self.removed.push(m);
        self.selected = None;
        self.hint = None;
        self.redraw = true;
        if self.game.is_won() {
            self.log(format!("cleared in {} moves", self.game.history.len()));
        } else if self.game.is_over() {
            self.log(format!("stuck: {} tiles left, no pair is removable", self.game.present.len()));
        }
    }

    fn undo(&mut self) {
        self.job.cancel();
        if self.game.undo() {
            self.replay.leave(format!("move {}", self.game.history.len() + 1), "it was undone");
            self.selected = None;
            self.hint = None;
            self.redraw = true;
            self.log("undo".into());
        }
    }

    fn start_job(&mut self, purpose: Purpose) {
        if self.job.is_thinking() || self.game.is_over() {
            return;
        }
        self.job.clear_failure();
        let obs = self.game.observation();
        let player = VirtualPlayer { params: self.params };
        let mut rng = match purpose {
            Purpose::Play => self.play_rng.clone(),
            // Hints draw apart, so asking for one does not change the AI's own moves.
            Purpose::Hint => sub_rng(self.seed, self.index, self.decisions + 1000 * self.game.history.len() as u64),
        };
        self.decisions += 1;
        self.purpose = purpose;
        self.job.start(move || (player.decide(&obs, &mut rng), rng));
    }
}

/// A one-pair layout shown until the first deal is made (or if dealing fails).
fn placeholder() -> Layout {
    use crate::games::shanghai::layout::Pos;
    Layout::new("placeholder", vec![Pos { x: 0, y: 0, z: 0 }, Pos { x: 2, y: 0, z: 0 }])
        .expect("two tiles side by side")
}

/// A generated instance picked in the Lab (on the weak/strong map, or among an eval run's
/// deals), to be dealt on entering the screen.
#[derive(Clone)]
struct PickedInstance {
    layout: String,
    seed: u64,
    index: u64,
    /// The player to watch play it (the eval run's), or `None` for a person to play it.
    player: Option<PlayerParams>,
}

impl PickedInstance {
    /// The instance on the screen, the player (if any) playing.
    fn game(&self) -> ShanghaiGame {
        let mut game = ShanghaiGame::new(&self.layout, self.seed, self.index, self.player.is_some());
        if let Some(player) = self.player {
            game.params = player;
        }
        game.log(format!("picked in the Lab: instance {} of seed {}", self.index, self.seed));
        game
    }
}

/// A `shanghai generate --out` file opened on the screen.
struct LoadedInstances {
    path: String,
    layout: Arc<Layout>,
    instances: Vec<Instance>,
}

fn setup_screen(
    mut commands: Commands,
    demo: Res<DemoMode>,
    existing: Option<Res<ShanghaiGame>>,
    picked: Option<Res<PickedGame<PickedInstance>>>,
) {
    let first_game = || ShanghaiGame::new("mini_turtle", 1, 0, demo.0);
    deal_on_entry(&mut commands, picked, existing.is_some(), PickedInstance::game, first_game);
}

fn cancel_ai(mut game: ResMut<ShanghaiGame>) {
    game.job.cancel();
    game.redraw = true;
}

/// Clicks on tiles: select a free tile, then a second free tile of the same kind removes the pair.
fn mouse_input(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    area: Res<BoardArea>,
    mut game: ResMut<ShanghaiGame>,
    mut contexts: EguiContexts,
) {
    if !buttons.just_pressed(MouseButton::Left) || game.watch || panel_has_pointer(&mut contexts) {
        return;
    }
    let Some(pos) = window.cursor_position() else { return };
    let (camera, cam_transform) = *camera;
    let Ok(world) = camera.viewport_to_world_2d(cam_transform, pos) else { return };
    if world.x < area.center.x - area.size.x / 2.0 {
        return; // on the panel
    }
    let layout = game.game.layout.clone();
    let geo = Geometry::of(&layout, &area);
    let half = geo.half();
    let hit = game
        .game
        .present
        .iter()
        .filter(|&i| {
            let d = (world - geo.center(&layout, i)).abs();
            d.x <= half.x && d.y <= half.y
        })
        .max_by(|&a, &b| Geometry::order(&layout, a).total_cmp(&Geometry::order(&layout, b)));
    let Some(tile) = hit else {
        game.selected = None;
        game.redraw = true;
        return;
    };
    game.redraw = true;
    if !layout.is_free(&game.game.present, tile) {
        let why = if game.game.present.intersects(&layout.above[tile]) { "covered" } else { "blocked on both sides" };
        let face = face_name(faces(&game.game.kinds, game.bonus_faces)[tile]);
        game.log(format!("{face} (tile {tile}) is not free: {why}"));
        return;
    }
    match game.selected {
        Some(s) if s == tile => game.selected = None,
        Some(s) if game.game.kinds[s] == game.game.kinds[tile] => {
            let m = Move::new(s, tile);
            let line = format!("you: {}", game.pair_name(m));
            game.log(line);
            game.play(m, false);
        }
        _ => game.selected = Some(tile),
    }
}

/// H hint, U / Backspace undo, F free-tile highlight, Space pause, N step.
fn keyboard_input(keys: Res<ButtonInput<KeyCode>>, mut game: ResMut<ShanghaiGame>, mut contexts: EguiContexts) {
    if panel_has_keyboard(&mut contexts) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyH) {
        game.start_job(Purpose::Hint);
    }
    if keys.any_just_pressed([KeyCode::KeyU, KeyCode::Backspace]) {
        game.undo();
    }
    if keys.just_pressed(KeyCode::KeyF) {
        game.highlight_free = !game.highlight_free;
        game.redraw = true;
    }
    if keys.just_pressed(KeyCode::Space) {
        game.paused = !game.paused;
    }
    if keys.just_pressed(KeyCode::KeyN) {
        game.step_once = true;
    }
}

/// Collects the virtual player's decisions (a move when watching, a hint otherwise) and
/// starts the next one when it is due.
fn advance_ai(time: Res<Time>, mut game: ResMut<ShanghaiGame>) {
    let game = &mut *game;
    if let Some((decision, rng)) = game.job.poll() {
        if game.purpose == Purpose::Play {
            game.play_rng = rng;
        }
        match decision {
            None => game.log("no legal move".into()),
            Some(d) => {
                let mut values = d.values.clone();
                values.sort_by(|a, b| b.1.total_cmp(&a.1));
                let top: Vec<String> =
                    values.iter().take(3).map(|&(m, v)| format!("{}: {v:.3}", game.pair_name(m))).collect();
                let who = if game.purpose == Purpose::Hint { "hint" } else { "AI" };
                if !top.is_empty() {
                    game.log(format!("   values {}", top.join(", ")));
                }
                let line = format!("{who}: {} - {}", game.pair_name(d.mv), d.why);
                game.log(line);
                if game.purpose == Purpose::Hint || !game.watch {
                    game.hint = Some(d.mv);
                    game.redraw = true;
                } else if game.game.is_legal(d.mv) {
                    game.play(d.mv, true);
                    game.wait = 1.0 / game.speed.max(0.1);
                }
            }
        }
    }
    if !game.watch || game.game.is_over() || game.job.is_thinking() {
        return;
    }
    if game.paused && !game.step_once {
        return;
    }
    game.wait -= time.delta_secs();
    if game.wait > 0.0 && !game.step_once {
        return;
    }
    game.step_once = false;
    if !matches!(game.job.status(), super::ai_task::AiStatus::Failed(_)) {
        game.start_job(Purpose::Play);
    }
}

fn shanghai_panel(
    mut contexts: EguiContexts,
    mut game: ResMut<ShanghaiGame>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &mut *game;
    let params_before = game.params;
    side_panel(ctx, Screen::Shanghai, &mut next, |ui| {
        new_game_ui(ui, game);
        ui.separator();
        play_ui(ui, game);
        ui.separator();
        params_ui(ui, game);
        ui.separator();
        ui.label(egui::RichText::new("log").strong());
        for line in &game.log {
            ui.small(line);
        }
    });
    if game.params != params_before && game.purpose == Purpose::Play {
        // The AI's next move is decided with the new settings.
        game.job.cancel();
    }
    Ok(())
}

fn new_game_ui(ui: &mut egui::Ui, game: &mut ShanghaiGame) {
    let before = game.layout_name.clone();
    let shown = Path::new(&game.layout_name).file_name().map_or(before.clone(), |f| f.to_string_lossy().into_owned());
    egui::ComboBox::from_label("layout").selected_text(shown).show_ui(ui, |ui| {
        for f in bundled() {
            ui.selectable_value(&mut game.layout_name, f.name.clone(), f.name);
        }
    });
    let mut deal_now = false;
    if game.layout_name != before {
        game.params.weights = weights_for(&game.layout_name);
        game.instance_file = None;
        deal_now = true;
    }
    if path_row(ui, &mut game.layout_path, OPEN_HINT, &[("Open", OPEN_HELP)]).is_some() {
        deal_now |= open_file(game);
    }
    ui.horizontal(|ui| match &game.instance_file {
        Some(file) => {
            let last = file.instances.len() as u64 - 1;
            ui.label("instance");
            ui.add(egui::DragValue::new(&mut game.index).range(0..=last));
            ui.label(format!("of {} in the file", last + 1));
        }
        None => {
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut game.seed));
            ui.label("instance");
            ui.add(egui::DragValue::new(&mut game.index));
        }
    });
    ui.horizontal(|ui| {
        if ui.button("New game").clicked() {
            deal_now = true;
        }
        if ui.button("Next instance").clicked() {
            let count = game.instance_file.as_ref().map_or(u64::MAX, |f| f.instances.len() as u64);
            game.index = (game.index + 1) % count;
            deal_now = true;
        }
    });
    if ui
        .checkbox(&mut game.bonus_faces, "flowers & seasons")
        .on_hover_text("kinds 35 and 36 drawn as 4 flowers and 4 seasons; any two of a group match")
        .changed()
    {
        game.redraw = true;
    }
    if deal_now {
        game.new_deal();
    }
    if let Some(e) = &game.error {
        ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
    }
}

const OPEN_HINT: &str = "layout or instance file";
const OPEN_HELP: &str = "a KMahjongg .layout or an asobi .ron layout (its generator deals), or the \
     instances a `shanghai generate --out FILE` run saved with their weak and strong solve rates \
     (\"instance\" picks one of them)";

/// Opens the file named in the field (true: deal from it), or says why it cannot be played
/// and keeps the game in progress. A `.ron` file with an `instances` field holds instances
/// (`generate --out`); any other file is a layout.
fn open_file(game: &mut ShanghaiGame) -> bool {
    let path = game.layout_path.trim().to_string();
    let opened = match read_user_file(Path::new(&path)) {
        Ok(text) if path.ends_with(".ron") && text.contains("instances:") => open_instances(game, &path, &text),
        Ok(_) => open_layout(game, &path),
        Err(e) => Err(e.into()),
    };
    match opened {
        Ok(()) => true,
        Err(e) => {
            game.error = Some(format!("{e:#}"));
            false
        }
    }
}

/// Generator deals of the layout file at `path`.
fn open_layout(game: &mut ShanghaiGame, path: &str) -> anyhow::Result<()> {
    let layout = load(path)?;
    deal(&layout, DealSource::Generator, game.seed, game.index).map_err(anyhow::Error::msg)?;
    game.params.weights = weights_for(path);
    game.layout_name = path.to_string();
    game.instance_file = None;
    Ok(())
}

/// The instances of a `generate --out` file, from its first.
fn open_instances(game: &mut ShanghaiGame, path: &str, text: &str) -> anyhow::Result<()> {
    let (layout, file) = InstanceFile::parse(path, text)?;
    anyhow::ensure!(!file.instances.is_empty(), "{path}: the file holds no instances");
    game.params.weights = weights_for(&layout.name);
    game.layout_name = layout.name.clone();
    game.index = 0;
    let loaded = LoadedInstances { path: path.to_string(), layout: Arc::new(layout), instances: file.instances };
    game.instance_file = Some(Arc::new(loaded));
    Ok(())
}

fn play_ui(ui: &mut egui::Ui, game: &mut ShanghaiGame) {
    ui.horizontal(|ui| {
        ui.radio_value(&mut game.watch, false, "I play");
        ui.radio_value(&mut game.watch, true, "watch the AI");
    });
    ui.horizontal(|ui| {
        if ui.button("Hint (H)").clicked() {
            game.start_job(Purpose::Hint);
        }
        if ui.button("Undo (U)").clicked() {
            game.undo();
        }
        if ui.checkbox(&mut game.highlight_free, "free tiles (F)").changed() {
            game.redraw = true;
        }
    });
    if game.watch {
        ui.horizontal(|ui| {
            ui.checkbox(&mut game.paused, "pause (Space)");
            if ui.button("step (N)").clicked() {
                game.step_once = true;
            }
        });
        ui.add(egui::Slider::new(&mut game.speed, 0.2..=20.0).text("moves / s").logarithmic(true));
    } else {
        ui.small("click two free tiles of one kind to remove them");
    }
    game.job.status_ui(ui);
    let played = game.game.history.len();
    ui.label(format!(
        "{played} {} played, {} tiles left",
        if played == 1 { "move" } else { "moves" },
        game.game.present.len()
    ));
}

/// How the tie rule reads in the panel.
fn tie_label(rule: TieBreak) -> &'static str {
    match rule {
        TieBreak::First => "first in tile order",
        TieBreak::Random => "random",
        TieBreak::Value => "higher action value",
    }
}

/// The virtual player's parameters, live: the next decision uses them.
fn params_ui(ui: &mut egui::Ui, game: &mut ShanghaiGame) {
    ui.label(egui::RichText::new("virtual player").strong());
    let p = &mut game.params;
    ui.add(egui::Slider::new(&mut p.n, 1..=64).text("n (determinizations)").logarithmic(true));
    ui.add(egui::Slider::new(&mut p.depth, 1..=4).text("D (depth)"));
    ui.checkbox(&mut p.terminal_at_depth, "score cleared/stuck at depth D");
    ui.checkbox(&mut p.dead_ends, "score provably lost positions 0")
        .on_hover_text("asobi's extension: the solver's relaxation proves a sampled position lost");
    ui.add_enabled(p.dead_ends, egui::Slider::new(&mut p.solve_depth, 0..=2).text("solver check depth"))
        .on_hover_text("asobi's extension: positions after moves down to this depth get a solver search per world");
    ui.add_enabled(
        p.dead_ends,
        egui::Slider::new(&mut p.solve_nodes, 100..=10_000).text("solver nodes").logarithmic(true),
    )
    .on_hover_text("nodes of each of those solver searches");
    ui.checkbox(&mut p.solvable_worlds, "re-sample unsolvable worlds")
        .on_hover_text("asobi's extension: redeal hidden tiles when the sample is provably lost");
    ui.add(egui::Slider::new(&mut p.risk_worlds, 0..=128).text("risk check worlds"))
        .on_hover_text("asobi's extension: the near-best moves are judged on this many more worlds");
    ui.add_enabled_ui(p.risk_worlds > 0, |ui| {
        egui::ComboBox::from_label("risk judge").selected_text(format!("{:?}", p.risk_judge)).show_ui(ui, |ui| {
            ui.selectable_value(
                &mut p.risk_judge,
                RiskJudge::Locks,
                "Locks: the solver proves the move locks the world",
            );
            ui.selectable_value(&mut p.risk_judge, RiskJudge::Rollouts, "Rollouts: a greedy player fails to clear it");
        });
    });
    ui.add_enabled(p.risk_worlds > 0, egui::Slider::new(&mut p.risk_window, 0.0..=0.2).text("risk check window"))
        .on_hover_text("moves whose mean value lies this close to the best take part in the risk check");
    let mut ties = p.tie_break();
    egui::ComboBox::from_label("ties").selected_text(tie_label(ties)).show_ui(ui, |ui| {
        for rule in [TieBreak::First, TieBreak::Random, TieBreak::Value] {
            ui.selectable_value(&mut ties, rule, tie_label(rule));
        }
    });
    if ties != p.tie_break() {
        p.ties = Some(ties);
    }
    let w = &mut p.weights;
    for (name, value) in [
        ("I dominated", &mut w.dominated),
        ("II moves", &mut w.moves),
        ("III upper", &mut w.upper),
        ("IV floating", &mut w.floating),
        ("V unknown", &mut w.unknown),
    ] {
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(value).speed(0.01).max_decimals(3));
            ui.label(name);
        });
    }
    if ui.small_button("tuned weights of this layout").clicked() {
        p.weights = weights_for(&game.layout_name);
    }
    weights_file_ui(ui, game);
    command_line_ui(ui, game);
}

/// The `shanghai eval` command that measures this player over many deals of the layout (or
/// of the instance file); edited weights need a preset file first.
fn command_line_ui(ui: &mut egui::Ui, game: &ShanghaiGame) {
    match command_lines(game) {
        Some([many, this]) => {
            batch_line_ui(ui, "many deals from the command line", &many);
            game.replay.ui(ui, "this deal, decision by decision", &this);
        }
        None => {
            ui.small("edited weights: save them above, and the command that measures them over many deals shows here");
        }
    }
}

/// The `shanghai eval` lines for many deals and for the deal on the board (`--trace`); `None`
/// while the weights are edited and not saved as a preset.
fn command_lines(game: &ShanghaiGame) -> Option<[String; 2]> {
    let weights = game.params.weights;
    let weights_file = match &game.weights_file {
        _ if weights == weights_for(&game.game.layout.name) => None,
        Some((path, saved)) if *saved == weights => Some(path.as_str()),
        _ => return None,
    };
    let deals = match &game.instance_file {
        Some(file) => EvalDeals::Instances(&file.path),
        None => EvalDeals::Layout(&game.layout_name),
    };
    let (seed, index) = game.dealt;
    Some([
        eval_command(deals, &game.params, weights_file),
        trace_command(deals, &game.params, weights_file, seed, index),
    ])
}

/// Loads the five weights from a preset (`shanghai tune --out`) or saves them as one for
/// `--weights FILE`.
fn weights_file_ui(ui: &mut egui::Ui, game: &mut ShanghaiGame) {
    let Some((request, path)) = preset_row(ui, &mut game.weights_path, "weights .ron") else { return };
    match weights_preset(game, request, &path) {
        Ok(what) => {
            game.weights_file = Some((path.display().to_string(), game.params.weights));
            game.log(format!("weights {what}: {}", path.display()));
        }
        Err(e) => game.error = Some(format!("{e:#}")),
    }
}

fn weights_preset(game: &mut ShanghaiGame, request: PresetRequest, path: &Path) -> anyhow::Result<&'static str> {
    match request {
        PresetRequest::Load => {
            game.params.weights = read_weights(path)?;
            Ok("loaded")
        }
        PresetRequest::Save => {
            let preset = WeightsFile { layout: game.game.layout.name.clone(), weights: game.params.weights };
            write_ron(path, &preset)?;
            Ok("saved")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::drive_screen;
    use crate::games::shanghai::io::kmahjongg;

    /// Watching, the screen's AI plays the moves its `--trace` line prints.
    #[test]
    fn the_ai_plays_the_moves_of_the_trace_line() {
        use crate::games::shanghai::cli::{Command, eval_experiment};
        use crate::lab::runner::parse_game_command;
        let mut game = ShanghaiGame::new("mini_turtle", 3, 2, true);
        game.params.n = 4;
        let world = drive_screen(game, advance_ai, |game| game.game.history.len() >= 10);
        let game = world.resource::<ShanghaiGame>();
        let [_, line] = command_lines(game).expect("the bundled weights");
        assert_eq!(game.replay.line(&line), (line.as_str(), None), "the panel's line is the one the moves followed");
        let Command::Eval(args) = parse_game_command(&line, "shanghai") else { panic!("{line}: not eval") };
        let mut traced = Vec::new();
        let (seed, index) = (args.batch.seed, args.trace.expect("a trace line"));
        eval_experiment(&args).unwrap().play_traced(seed, index, &mut |t| traced.push(t.decision.mv));
        assert_eq!(game.game.history[..10], traced[..10], "{line}");
    }

    #[test]
    fn an_undo_leaves_the_trace_line_and_a_new_deal_starts_a_new_one() {
        let mut world =
            drive_screen(ShanghaiGame::new("mini_turtle", 3, 2, true), advance_ai, |g| g.game.history.len() >= 3);
        let mut game = world.remove_resource::<ShanghaiGame>().unwrap();
        let [_, line] = command_lines(&game).unwrap();
        game.undo();
        assert_eq!(game.replay.line(&line), (line.as_str(), Some("move 3: it was undone")));
        game.new_deal();
        assert_eq!(game.replay.line(&line), (line.as_str(), None), "the new deal follows the line from its start");
    }

    fn open(game: &mut ShanghaiGame, path: &Path) -> bool {
        game.layout_path = path.display().to_string();
        let opened = open_file(game);
        if opened {
            game.new_deal();
        }
        opened
    }

    #[test]
    fn the_panel_opens_layout_and_instance_files_and_keeps_the_game_on_a_bad_one() {
        let tmp = tempfile::tempdir().unwrap();
        let mut game = ShanghaiGame::new("mini_turtle", 1, 0, false);
        let layout = load("fortress72").unwrap();

        let layout_path = tmp.path().join("fort.layout");
        std::fs::write(&layout_path, kmahjongg::write(&layout)).unwrap();
        assert!(open(&mut game, &layout_path), "{:?}", game.error);
        assert_eq!(game.game.layout.len(), 72);

        let kinds = deal(&layout, DealSource::Generator, 9, 4).unwrap();
        let instance = Instance { index: 4, kinds: kinds.clone(), weak_rate: 0.25, strong_rate: 1.0 };
        let file = InstanceFile { layout: layout.to_file(""), instances: vec![instance] };
        let instances_path = tmp.path().join("skill.ron");
        std::fs::write(&instances_path, file.to_text()).unwrap();
        assert!(open(&mut game, &instances_path), "{:?}", game.error);
        assert_eq!(game.game.kinds, kinds, "the file's deal is played");

        let bad_path = tmp.path().join("bad.layout");
        std::fs::write(&bad_path, "kmahjongg-layout-v1.0\nnonsense\n").unwrap();
        assert!(!open(&mut game, &bad_path));
        assert!(game.error.as_deref().is_some_and(|e| e.contains("bad.layout:")), "{:?}", game.error);
        assert_eq!(game.game.kinds, kinds, "the game in progress stays");
    }

    #[test]
    fn saved_weights_load_back_here_and_on_the_command_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("w.ron");
        let mut game = ShanghaiGame::new("mini_turtle", 1, 0, false);
        game.params.weights.moves = 0.7;
        let chosen = game.params.weights;
        weights_preset(&mut game, PresetRequest::Save, &path).unwrap();
        game.params.weights = weights_for("turtle");
        weights_preset(&mut game, PresetRequest::Load, &path).unwrap();
        assert_eq!(game.params.weights, chosen);
        assert_eq!(read_weights(&path).unwrap(), chosen, "`--weights FILE` reads it");
        let bad = tmp.path().join("bad.ron");
        std::fs::write(&bad, "(layout: 1)").unwrap();
        assert!(weights_preset(&mut game, PresetRequest::Load, &bad).is_err());
        assert_eq!(game.params.weights, chosen, "a bad file changes nothing");
    }
}
