//! The Puyo Puyo screen: endless (one board) and versus (two boards) on the engine's tick model.
//! Every seat is a human or any Puyo AI; AI decisions run as background tasks. The view
//! follows the game: each tick shows one frame per board (the pair falling, a chain link
//! flashing and popping), then the game advances to the next tick.

mod ai_panel;
mod lab;

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use self::ai_panel::{TemplateEditor, template_ui};
pub use self::lab::{lab_command, lab_entries};
use super::ai_task::AiJob;
use super::lab_screen::register_lab_command;
use super::nazo::open_in_nazo;
use super::panel::{
    BoardArea, PickedGame, ReplayCheck, batch_line_ui, clear_for_redraw, deal_on_entry, despawn_pieces,
    panel_has_keyboard, side_panel, spawn_text,
};
use super::puyo_board::{Frame, PairKeys, animate_cells, move_frames, pair_cursor_sprites, spawn_cells, spawn_well};
use super::{DemoMode, Screen, register_game_screen};
use crate::games::nazo::puzzle::Puzzle;
use crate::games::puyo::ai::labeling::compile;
use crate::games::puyo::ai::{AiKind, AiParams, Decision, Observation, Player, PuyoAi};
use crate::games::puyo::cli::{endless_command, endless_trace_command, versus_command, versus_trace_command};
use crate::games::puyo::experiment::versus_streams;
use crate::games::puyo::rules::{Bits, Field, GarbageRule, HEIGHT, Outcome, Pair, Placement, Puyo, Versus, WIDTH};
use crate::lab::rng::GameRng;
use crate::lab::runner::BatchGame;

/// Side of one cell in world units (before the board's scale).
const CELL: f32 = 40.0;

/// The Puyo Puyo screen.
pub struct PuyoPlugin;

impl Plugin for PuyoPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Puyo), (setup_screen, spawn_meshes).chain())
            .add_systems(OnExit(Screen::Puyo), (cancel_ai, despawn_pieces::<BoardPiece>))
            .add_systems(
                Update,
                (human_input, advance_game, redraw_boards, animate_cells).chain().run_if(in_state(Screen::Puyo)),
            )
            .add_systems(EguiPrimaryContextPass, puyo_panel.run_if(in_state(Screen::Puyo)));
        register_game_screen(app, Screen::Puyo, lab_entries());
        register_lab_command(app, lab_command());
    }
}

/// Who plays a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seat {
    Human,
    Ai(AiKind),
}

impl Seat {
    const CHOICES: [Seat; 5] = [
        Seat::Human,
        Seat::Ai(AiKind::Template),
        Seat::Ai(AiKind::Potential),
        Seat::Ai(AiKind::Combined),
        Seat::Ai(AiKind::Asobi),
    ];

    fn label(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Ai(AiKind::Template) => "templates",
            Seat::Ai(AiKind::Potential) => "potential maximization",
            Seat::Ai(AiKind::Combined) => "combined (paper)",
            Seat::Ai(AiKind::Asobi) => "asobi",
        }
    }

    /// The seat's name under its board: a combined player with asobi's extension, reading or
    /// threat switch is not the paper's.
    fn title(self, params: &AiParams) -> &'static str {
        let papers = AiParams::default();
        let combined_as_designed = params.extension == papers.extension
            && params.combined_potential == papers.combined_potential
            && params.threat_switch.is_none();
        match self {
            Seat::Ai(AiKind::Combined) if !combined_as_designed => "combined (asobi's options)",
            _ => self.label(),
        }
    }
}

/// What a new game is made from; edited in the panel.
#[derive(Clone, Debug)]
struct Settings {
    versus: bool,
    seats: [Seat; 2],
    seed: u64,
    /// Which game of the batch of `seed` to deal (the CLI's `--trace GAME`).
    game: u64,
    colors: usize,
    garbage: GarbageRule,
    /// Ticks a chain link takes (the spec's model: 1).
    link_ticks: u32,
    /// Ticks per second.
    speed: f32,
    paused: bool,
    /// Each board's AI settings (the same unless `own_settings`).
    params: [AiParams; 2],
    /// Versus: each board's AI has its own settings (the CLI's `--p1-options`/`--p2-options`),
    /// and the panel edits those of `panel_board`.
    own_settings: bool,
    /// The board whose AI settings the panel edits while each board has its own.
    panel_board: usize,
}

/// The game in progress and everything the screen shows of it.
#[derive(Resource)]
struct PuyoGame {
    settings: Settings,
    /// The batch game on the boards (the panel's fields may have moved on).
    dealt: BatchGame,
    /// Whether the boards still play the game of the panel's trace line.
    replay: ReplayCheck,
    game: Versus,
    garbage_rng: GameRng,
    outcome: Option<Outcome>,
    players: [Option<Player>; 2],
    jobs: [AiJob<Option<Decision>>; 2],
    /// The placement each side chose for the current tick (`Some(None)`: it has no legal move).
    chosen: [Option<Option<Placement>>; 2],
    /// Whether the AI meant its chosen move to fire its chain (an endless experiment's game
    /// ends when such a move pops).
    firing: [bool; 2],
    /// The tick whose garbage has already fallen on each side.
    garbage_done: [Option<u32>; 2],
    /// The human's pair position.
    cursor: [Placement; 2],
    queues: [VecDeque<Frame>; 2],
    shown: [Frame; 2],
    /// Seconds left of the frame on screen.
    frame_left: f32,
    step_once: bool,
    redraw: bool,
    score: [u64; 2],
    log: VecDeque<String>,
    error: Option<String>,
    templates: TemplateEditor,
    /// What the "template folder" field holds.
    template_folder: String,
}

impl PuyoGame {
    fn new(mut settings: Settings) -> Self {
        // The AIs sample unseen pairs (and check their templates) over the game's colours.
        settings.params.iter_mut().for_each(|p| p.compile.colors = settings.colors);
        // A game of a `puyo versus --seed` batch, so a game between two AIs can be traced there.
        let dealt = BatchGame { seed: settings.seed, index: settings.game };
        let (pairs, rng) = versus_streams(dealt.seed, dealt.index, settings.colors);
        let mut game = Versus::new(pairs, settings.garbage);
        game.link_ticks = settings.link_ticks;
        if !settings.versus {
            // Endless: the second side never plays.
            game.sides[1].dead = true;
        }
        let editor = TemplateEditor { group: settings.params[0].group.clone(), ..Default::default() };
        let mut screen = PuyoGame {
            dealt,
            replay: ReplayCheck::default(),
            settings,
            game,
            garbage_rng: rng,
            outcome: None,
            players: [None, None],
            jobs: Default::default(),
            chosen: [None, None],
            firing: [false; 2],
            garbage_done: [None, None],
            cursor: [Placement::SPAWN; 2],
            queues: Default::default(),
            shown: Default::default(),
            frame_left: 0.0,
            step_once: false,
            redraw: true,
            score: [0; 2],
            log: VecDeque::new(),
            error: None,
            templates: editor,
            template_folder: String::new(),
        };
        screen.rebuild_players();
        screen
    }

    /// A game picked in the Lab.
    fn picked(settings: &Settings) -> Self {
        let mut game = PuyoGame::new(settings.clone());
        game.log(format!("picked in the Lab: game {} of seed {}", settings.game, settings.seed));
        game
    }

    fn sides(&self) -> usize {
        if self.settings.versus { 2 } else { 1 }
    }

    /// Makes the AI players from the settings and the edited templates, and drops the AI
    /// decisions held for the next tick or still being made: the next move is theirs.
    fn rebuild_players(&mut self) {
        self.error = None;
        for i in 0..2 {
            self.players[i] = match self.settings.seats[i] {
                Seat::Human => None,
                Seat::Ai(kind) => match self.make_player(i, kind) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        self.error = Some(e);
                        None
                    }
                },
            };
            if self.players[i].is_some() {
                self.jobs[i].cancel();
                self.chosen[i] = None;
            }
        }
    }

    /// The seat of `side` changed: its new player (a person or an AI) moves next, from the
    /// board as it stands; the old one's pending decision is dropped.
    fn take_over(&mut self, side: usize) {
        self.jobs[side].cancel();
        self.chosen[side] = None;
        self.cursor[side] = Placement::SPAWN;
        self.rebuild_players();
        self.redraw = true;
    }

    /// Whether each board's AI plays by its own settings (versus only).
    fn own_settings(&self) -> bool {
        self.settings.versus && self.settings.own_settings
    }

    /// The board whose AI settings the panel shows and edits.
    fn settings_board(&self) -> usize {
        if self.own_settings() { self.settings.panel_board } else { 0 }
    }

    /// A player of `kind` by the settings of `board`'s AI.
    fn make_player(&self, board: usize, kind: AiKind) -> Result<Player, String> {
        let mut player = Player::new(kind, self.settings.params[board].clone()).map_err(|e| e.to_string())?;
        // asobi's player picks its own group; edits apply to the group they were made in.
        if player.params.group == self.templates.group {
            for (index, file) in &self.templates.edited {
                let template = compile(&file.name, file, &player.params.compile).map_err(|e| e.to_string())?;
                player.replace_template(*index, template);
            }
        }
        Ok(player)
    }

    fn log(&mut self, line: String) {
        self.log.push_front(line);
        self.log.truncate(12);
    }

    fn is_over(&self) -> bool {
        self.outcome.is_some() || (!self.settings.versus && self.game.sides[0].dead)
    }
}

fn default_settings(demo: bool) -> Settings {
    Settings {
        versus: demo,
        seats: if demo {
            [Seat::Ai(AiKind::Combined), Seat::Ai(AiKind::Asobi)]
        } else {
            [Seat::Human, Seat::Ai(AiKind::Combined)]
        },
        seed: 1,
        game: 0,
        colors: 4,
        garbage: GarbageRule::default(),
        link_ticks: 1,
        speed: 6.0,
        paused: false,
        params: Default::default(),
        own_settings: false,
        panel_board: 0,
    }
}

fn setup_screen(
    mut commands: Commands,
    demo: Res<DemoMode>,
    existing: Option<Res<PuyoGame>>,
    picked: Option<Res<PickedGame<Settings>>>,
) {
    let first_game = || PuyoGame::new(default_settings(demo.0));
    deal_on_entry(&mut commands, picked, existing.is_some(), PuyoGame::picked, first_game);
}

/// Leaving the screen cancels the AIs' work; the game resumes when the player comes back.
fn cancel_ai(mut game: ResMut<PuyoGame>) {
    for job in &mut game.jobs {
        job.cancel();
    }
    game.redraw = true;
}

/// Shared meshes and materials of a Puyo board (also the Nazo Puyo screen's).
#[derive(Resource)]
pub(super) struct PuyoAssets {
    pub(super) puyo: Handle<Mesh>,
    pub(super) kinds: Vec<Handle<ColorMaterial>>,
    pub(super) flash: Handle<ColorMaterial>,
    pub(super) ghost: Handle<ColorMaterial>,
    pub(super) well: Handle<ColorMaterial>,
    pub(super) hidden_row: Handle<ColorMaterial>,
    pub(super) cell: Handle<Mesh>,
}

pub(super) fn spawn_meshes(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let kinds = Puyo::ALL.iter().map(|&p| materials.add(puyo_color(p))).collect();
    commands.insert_resource(PuyoAssets {
        puyo: meshes.add(Circle::new(CELL * 0.46)),
        kinds,
        flash: materials.add(Color::WHITE),
        ghost: materials.add(Color::srgba(1.0, 1.0, 1.0, 0.25)),
        well: materials.add(Color::srgb(0.16, 0.17, 0.22)),
        hidden_row: materials.add(Color::srgb(0.12, 0.12, 0.16)),
        cell: meshes.add(Rectangle::new(CELL * WIDTH as f32, CELL)),
    });
}

/// The colour a puyo is drawn in.
pub fn puyo_color(p: Puyo) -> Color {
    match p {
        Puyo::Red => Color::srgb(0.91, 0.27, 0.27),
        Puyo::Green => Color::srgb(0.30, 0.72, 0.33),
        Puyo::Blue => Color::srgb(0.27, 0.49, 0.90),
        Puyo::Yellow => Color::srgb(0.95, 0.80, 0.25),
        Puyo::Purple => Color::srgb(0.62, 0.38, 0.85),
        Puyo::Garbage => Color::srgb(0.70, 0.70, 0.74),
        Puyo::Hard => Color::srgb(0.45, 0.45, 0.50),
    }
}

/// Keyboard play: side 0 on the arrows (Z / X or Up rotate, Down or Space drops), side 1 on
/// A / D, Q / E or W rotate, S drops.
fn human_input(keys: Res<ButtonInput<KeyCode>>, mut game: ResMut<PuyoGame>, mut contexts: EguiContexts) {
    if panel_has_keyboard(&mut contexts) {
        return;
    }
    for (side, pair_keys) in [PairKeys::ARROWS, PairKeys::LETTERS].iter().enumerate().take(game.sides()) {
        if game.settings.seats[side] != Seat::Human || !awaits_decision(&game, side) {
            continue;
        }
        let (cursor, drop) = pair_keys.steer(&keys, game.cursor[side]);
        if cursor != game.cursor[side] {
            game.cursor[side] = cursor;
            game.redraw = true;
        }
        if drop && game.game.sides[side].field.can_place(cursor) {
            game.chosen[side] = Some(Some(cursor));
            game.cursor[side] = Placement::SPAWN;
        }
    }
}

/// Whether side `i` must decide before the game can take its next tick.
fn awaits_decision(game: &PuyoGame, i: usize) -> bool {
    !game.is_over() && game.queues[i].is_empty() && game.game.to_move().any(|s| s == i) && game.chosen[i].is_none()
}

/// Runs the game: shows queued frames one tick at a time; when no side has frames left to
/// show, collects the decisions of the sides to move and applies them.
fn advance_game(time: Res<Time>, mut game: ResMut<PuyoGame>) {
    let game = &mut *game;
    collect_ai_decisions(game);
    if game.settings.paused && !game.step_once {
        return;
    }
    game.frame_left -= time.delta_secs();
    if game.frame_left > 0.0 {
        return;
    }
    if game.queues.iter().all(VecDeque::is_empty) && !game.is_over() && !start_tick(game) {
        return;
    }
    let mut shown_any = false;
    for i in 0..game.sides() {
        if let Some(frame) = game.queues[i].pop_front() {
            game.shown[i] = frame;
            shown_any = true;
        }
    }
    if shown_any {
        game.frame_left = 1.0 / game.settings.speed.max(0.1);
        game.redraw = true;
        game.step_once = false;
    }
}

/// Drops due garbage, asks the AIs for decisions, and once every side to move has one,
/// applies them and ends the tick. Returns whether the tick was played.
fn start_tick(game: &mut PuyoGame) -> bool {
    let movers: Vec<usize> = game.game.to_move().filter(|&i| i < game.sides()).collect();
    for &i in &movers {
        let tick = game.game.tick;
        if game.garbage_done[i] != Some(tick) {
            let before = game.game.sides[i].field;
            game.game.drop_garbage(i, &mut game.garbage_rng);
            game.garbage_done[i] = Some(tick);
            if game.game.sides[i].field != before {
                game.shown[i] = garbage_frame(&before, &game.game.sides[i].field);
                game.redraw = true;
            }
        }
        if game.chosen[i].is_none() && game.game.sides[i].field.is_dead() {
            // Buried by garbage: the side is out without placing, as the experiments play it.
            game.jobs[i].cancel();
            game.chosen[i] = Some(None);
        }
        if game.chosen[i].is_none() && !game.jobs[i].is_thinking() {
            request_ai_decision(game, i);
        }
    }
    if movers.iter().any(|&i| game.chosen[i].is_none()) {
        return false;
    }
    for &i in &movers {
        let placement = game.chosen[i].take().flatten();
        play_move(game, i, placement);
    }
    if game.settings.versus {
        game.outcome = game.game.end_tick();
        if let Some(outcome) = game.outcome {
            game.log(match outcome {
                Outcome::Win(w) => format!("board {} wins", w + 1),
                Outcome::Draw => "draw".into(),
            });
        }
    } else {
        game.game.end_tick();
        if game.game.sides[0].dead {
            game.log(format!("game over after {} moves", game.game.sides[0].moves));
        }
    }
    true
}

fn request_ai_decision(game: &mut PuyoGame, i: usize) {
    let Some(player) = game.players[i].clone() else { return };
    if game.jobs[i].status() != &super::ai_task::AiStatus::Idle {
        return;
    }
    let side = &game.game.sides[i];
    let field = side.field;
    let pairs: Vec<Pair> = (0..3).map(|k| game.game.pair(i, k)).collect();
    if !game.settings.versus {
        // As `puyo endless` observes its games, so that its trace line replays this one.
        game.jobs[i].start(move || player.decide(&Observation::alone(&field, &pairs)));
        return;
    }
    let pending = side.incoming();
    let garbage_falls_in = side.placements_before_garbage(game.game.tick);
    let opponent = game.game.sides[1 - i].field;
    let garbage = game.game.rule;
    game.jobs[i].start(move || {
        player.decide(&Observation {
            field: &field,
            pairs: &pairs,
            pending,
            opponent: Some(&opponent),
            garbage,
            garbage_falls_in,
        })
    });
}

fn collect_ai_decisions(game: &mut PuyoGame) {
    for i in 0..2 {
        if let Some(decision) = game.jobs[i].poll() {
            if let Some(d) = &decision {
                let line = format!("board {}: col {} {:?}: {}", i + 1, d.placement.col + 1, d.placement.rot, d.why);
                game.log(line);
            }
            game.firing[i] = decision.as_ref().is_some_and(|d| d.fires);
            game.chosen[i] = Some(decision.map(|d| d.placement));
        }
    }
}

/// Applies side `i`'s move and queues its frames: the pair falling, then each link popping.
fn play_move(game: &mut PuyoGame, i: usize, placement: Option<Placement>) {
    let pair = game.game.pair(i, 0);
    let before = game.game.sides[i].field;
    game.game.apply(i, placement);
    if placement.is_some() {
        note_replay(game, i);
    }
    let Some((mut frames, chain)) = placement.and_then(|p| move_frames(&before, pair, p)) else { return };
    if !game.settings.versus && game.players[i].is_some() && game.firing[i] && chain.links > 0 {
        game.replay.end();
    }
    // The side is busy 1 tick + 1 per link; the settled board shows with the next pair.
    frames.truncate(1 + chain.links as usize);
    game.queues[i].extend(frames);
    if chain.links > 0 {
        game.score[i] += chain.score as u64;
        let line = format!("board {}: {}-chain, attack {}", i + 1, chain.links, chain.attack());
        game.log(line);
    }
}

/// Side `i` has moved: does the game still follow the panel's trace line?
fn note_replay(game: &mut PuyoGame, i: usize) {
    let (versus, moves) = (game.settings.versus, game.game.sides[i].moves);
    let at = match versus {
        true => format!("board {} move {moves}", i + 1),
        false => format!("move {moves}"),
    };
    let line = command_lines(game).map(|(_, line)| line);
    match line {
        _ if game.players[i].is_none() => game.replay.leave(at, "a person played it"),
        _ if !game.templates.edited.is_empty() => game.replay.leave(at, "played with edited template weights"),
        Some(line) => game.replay.ai_moved(at, line),
        None => game.replay.leave(at, "a person plays the other board"),
    }
}

/// The frame of garbage falling onto `before`, ending in `after`.
fn garbage_frame(before: &Field, after: &Field) -> Frame {
    let mut falling = Vec::new();
    for col in 0..WIDTH {
        for row in before.height(col)..after.height(col) {
            falling.push(((col, row), HEIGHT as f32 + 1.0 + (row - before.height(col)) as f32));
        }
    }
    Frame { field: *after, falling, popping: Bits::EMPTY, link: 0 }
}

/// Marks every entity of the boards, so a redraw can replace them.
#[derive(Component, Clone)]
struct BoardPiece;

fn redraw_boards(
    mut commands: Commands,
    mut game: ResMut<PuyoGame>,
    assets: Option<Res<PuyoAssets>>,
    area: Res<BoardArea>,
    pieces: Query<Entity, With<BoardPiece>>,
) {
    let Some(assets) = assets else { return };
    if !clear_for_redraw(&mut commands, &mut game.redraw, &area, &pieces) {
        return;
    }
    let sides = game.sides();
    // Each board is 6 cells wide plus 3 for the preview column, with a gap between boards.
    let board_w = (WIDTH as f32 + 3.0) * CELL;
    // Height: the 13 rows, the human's pair above them (2 rows) and the title below (1 row).
    let content = Vec2::new(board_w * sides as f32 + CELL * (sides as f32 - 1.0), (HEIGHT as f32 + 3.0) * CELL);
    let scale = area.fit_scale(content).min(1.6);
    for i in 0..sides {
        let left = area.center.x - content.x * scale / 2.0 + i as f32 * (board_w + CELL) * scale;
        let origin = Vec2::new(left, area.center.y - content.y * scale / 2.0 + CELL * scale);
        draw_board(&mut commands, &assets, &game, i, origin, scale);
    }
}

/// Draws board `i` with its bottom-left corner at `origin`.
fn draw_board(commands: &mut Commands, assets: &PuyoAssets, game: &PuyoGame, i: usize, origin: Vec2, scale: f32) {
    let at = |col: f32, row: f32, z: f32| {
        Vec3::new(origin.x + (col + 0.5) * CELL * scale, origin.y + (row + 0.5) * CELL * scale, z)
    };
    spawn_well(commands, assets, BoardPiece, &at, scale);
    let frame = &game.shown[i];
    let duration = 1.0 / game.settings.speed.max(0.1);
    spawn_cells(commands, assets, frame, BoardPiece, &at, scale, duration);
    let (board, conflicts) = game.templates.conflict_cells;
    if i == board {
        for (col, row) in conflicts.cells() {
            commands.spawn((
                BoardPiece,
                Sprite::from_color(Color::srgb(0.9, 0.1, 0.1), Vec2::splat(CELL * 0.3 * scale)),
                Transform::from_translation(at(col as f32, row as f32, 2.5))
                    .with_rotation(Quat::from_rotation_z(0.785)),
            ));
        }
    }
    draw_human_cursor(commands, assets, game, i, &at, scale);
    draw_preview(commands, assets, game, i, &at, scale);
    let side = &game.game.sides[i];
    let mut status = format!("score {}\nmoves {}\nbest chain {}", game.score[i], side.moves, side.best_chain);
    if side.incoming() > 0 {
        status.push_str(&format!("\nincoming {}", side.incoming()));
    }
    spawn_text(
        commands,
        BoardPiece,
        status,
        at(WIDTH as f32 + 1.0, 4.0, 2.0),
        16.0 * scale.max(0.6),
        Color::srgb(0.85, 0.86, 0.9),
    );
    let title = format!("board {} - {}", i + 1, game.settings.seats[i].title(&game.settings.params[i]));
    spawn_text(
        commands,
        BoardPiece,
        title,
        at(WIDTH as f32 / 2.0 - 0.5, -0.9, 2.0),
        16.0 * scale.max(0.6),
        Color::srgb(0.7, 0.72, 0.8),
    );
    if frame.link > 0 {
        let chain = format!("{} chain!", frame.link);
        spawn_text(
            commands,
            BoardPiece,
            chain,
            at(WIDTH as f32 / 2.0 - 0.5, HEIGHT as f32 / 2.0, 3.0),
            34.0 * scale,
            Color::srgb(1.0, 0.95, 0.5),
        );
    }
    if game.is_over() && (side.dead || !game.settings.versus) {
        spawn_text(
            commands,
            BoardPiece,
            "game over".into(),
            at(WIDTH as f32 / 2.0 - 0.5, HEIGHT as f32 / 2.0 + 1.5, 3.0),
            30.0 * scale,
            Color::srgb(1.0, 0.5, 0.5),
        );
    }
}

/// The human's pair above the field and where it would land.
fn draw_human_cursor(
    commands: &mut Commands,
    assets: &PuyoAssets,
    game: &PuyoGame,
    i: usize,
    at: &impl Fn(f32, f32, f32) -> Vec3,
    scale: f32,
) {
    if game.settings.seats[i] != Seat::Human || !awaits_decision(game, i) {
        return;
    }
    let field = &game.game.sides[i].field;
    for sprite in pair_cursor_sprites(assets, field, game.game.pair(i, 0), game.cursor[i], at, scale) {
        commands.spawn((BoardPiece, sprite));
    }
}

/// The next two pairs, to the right of the field.
fn draw_preview(
    commands: &mut Commands,
    assets: &PuyoAssets,
    game: &PuyoGame,
    i: usize,
    at: &impl Fn(f32, f32, f32) -> Vec3,
    scale: f32,
) {
    let busy = !game.queues[i].is_empty() || !awaits_decision(game, i);
    let first = if busy { 0 } else { 1 };
    for (k, ahead) in (first..first + 2).enumerate() {
        let pair = game.game.pair(i, ahead);
        let row = HEIGHT as f32 - 2.0 - k as f32 * 2.5;
        for (p, dr) in [(pair.axis, 0.0), (pair.child, 1.0)] {
            commands.spawn((
                BoardPiece,
                Mesh2d(assets.puyo.clone()),
                MeshMaterial2d(assets.kinds[p.index()].clone()),
                Transform::from_translation(at(WIDTH as f32 + 1.0, row + dr, 1.0)).with_scale(Vec3::splat(scale * 0.8)),
            ));
        }
    }
}

fn puyo_panel(
    mut commands: Commands,
    mut contexts: EguiContexts,
    mut game: ResMut<PuyoGame>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &mut *game;
    let mut as_puzzle = None;
    side_panel(ctx, Screen::Puyo, &mut next, |ui| {
        new_game_ui(ui, game);
        ui.separator();
        playback_ui(ui, game);
        ui.separator();
        as_puzzle = seats_status_ui(ui, game);
        ui.separator();
        template_ui(ui, game);
        ui.separator();
        ui.label(egui::RichText::new("log").strong());
        for line in &game.log {
            ui.small(line);
        }
    });
    if let Some(board) = as_puzzle {
        open_as_puzzle(&mut commands, &mut next, game, board);
    }
    Ok(())
}

/// Board `i`'s field and next three pairs on the Nazo Puyo screen, as the puzzle of the longest
/// chain they can fire (garbage on its way to the board is left out).
fn open_as_puzzle(commands: &mut Commands, next: &mut NextState<Screen>, game: &mut PuyoGame, i: usize) {
    let side = &game.game.sides[i];
    let pairs: Vec<Pair> = (0..3).map(|ahead| game.game.pair(i, ahead)).collect();
    match Puzzle::longest_chain(&side.field, &pairs) {
        Some(puzzle) => {
            open_in_nazo(commands, next, format!("Puyo board {} after {} moves", i + 1, side.moves), &puzzle)
        }
        None => game.log(format!("board {}: no placement of its next 3 pairs fires a chain", i + 1)),
    }
}

fn new_game_ui(ui: &mut egui::Ui, game: &mut PuyoGame) {
    let was_versus = game.settings.versus;
    let seats_before = game.settings.seats;
    let s = &mut game.settings;
    ui.horizontal(|ui| {
        ui.radio_value(&mut s.versus, false, "endless");
        ui.radio_value(&mut s.versus, true, "versus");
    });
    let boards = if s.versus { 2 } else { 1 };
    for i in 0..boards {
        egui::ComboBox::from_label(format!("board {}", i + 1)).selected_text(s.seats[i].label()).show_ui(ui, |ui| {
            for seat in Seat::CHOICES {
                ui.selectable_value(&mut s.seats[i], seat, seat.label());
            }
        });
    }
    ui.horizontal(|ui| {
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut s.seed));
        ui.label("game");
        ui.add(egui::DragValue::new(&mut s.game)).on_hover_text(
            "which game of a `puyo versus` or `puyo endless` batch of this seed to deal: \
             the game its `--trace GAME` prints (an odd game of an `--alternate-seats` batch \
             has player 2 on board 1)",
        );
        ui.label("colors");
        ui.add(egui::DragValue::new(&mut s.colors).range(3..=5));
    });
    if s.versus {
        ui.horizontal(|ui| {
            ui.label("garbage");
            ui.radio_value(&mut s.garbage, GarbageRule::Paper, "paper's attack").on_hover_text("formula 6.1");
            ui.radio_value(&mut s.garbage, GarbageRule::Tsu, "Tsu score / 70");
        });
        ui.horizontal(|ui| {
            ui.label("ticks per chain link");
            ui.add(egui::DragValue::new(&mut s.link_ticks).range(1..=6)).on_hover_text(
                "how long each link of a chain keeps its player busy while the other places (spec: 1); \
                 slower chains leave time to build a counter (applies to the next game)",
            );
        });
    }
    let changed: Vec<usize> = (0..2).filter(|&i| game.settings.seats[i] != seats_before[i]).collect();
    for side in changed {
        game.take_over(side);
    }
    // The mode decides the boards in play, so a switch starts a game at once; a new seat
    // takes over the board as it stands; the other settings wait for the button.
    if ui.button("New game").clicked() || game.settings.versus != was_versus {
        let settings = game.settings.clone();
        for job in &mut game.jobs {
            job.cancel();
        }
        *game = PuyoGame::new(settings);
    }
    ui.small("keys: Left / Right move, Z / X rotate, Down or Space drop (board 2: A D move, Q E rotate, S drop)");
}

fn playback_ui(ui: &mut egui::Ui, game: &mut PuyoGame) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut game.settings.paused, "pause");
        if ui.button("step").clicked() {
            game.step_once = true;
        }
    });
    ui.add(egui::Slider::new(&mut game.settings.speed, 1.0..=40.0).text("ticks / s").logarithmic(true));
}

/// Who plays each board and how its AI is doing; the board whose "as a Nazo puzzle" was clicked.
fn seats_status_ui(ui: &mut egui::Ui, game: &mut PuyoGame) -> Option<usize> {
    let mut as_puzzle = None;
    for i in 0..game.sides() {
        ui.horizontal(|ui| {
            ui.label(format!("board {} ({})", i + 1, game.settings.seats[i].title(&game.settings.params[i])));
            // Only a board at rest shows the position the engine holds (its frames catch up).
            let at_rest = game.queues[i].is_empty() && !game.game.sides[i].dead;
            let hint = "open this board and its next 3 pairs in Nazo Puyo, with the longest chain they can \
                        fire as the goal: the solver there shows every way to fire it";
            let button = ui.add_enabled(at_rest, egui::Button::new("as a Nazo puzzle").small());
            if button.on_hover_text(hint).on_disabled_hover_text("once the board is at rest").clicked() {
                as_puzzle = Some(i);
            }
        });
        if game.settings.seats[i] != Seat::Human {
            game.jobs[i].status_ui(ui);
        }
    }
    if let Some(e) = &game.error {
        ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
    }
    as_puzzle
}

/// The batch experiment that plays the boards' AIs with these settings, to measure them over
/// many games.
fn command_line_ui(ui: &mut egui::Ui, game: &PuyoGame) {
    let Some((many, this)) = command_lines(game) else {
        ui.small("an AI on every board: the command line that measures them over many games shows here");
        return;
    };
    batch_line_ui(ui, "many games from the command line", &many);
    let this_game = match game.settings.versus {
        true => "this game from its start, move by move",
        false => "this game up to its first chain, move by move",
    };
    game.replay.ui(ui, this_game, &this);
    if !game.templates.edited.is_empty() {
        ui.small("(edited weights: save the group below and add --templates FOLDER)");
    }
}

/// The batch line of the boards' AIs and the `--trace` line that replays the game on the
/// boards (an endless game up to its first chain); `None` while a person plays a board.
fn command_lines(game: &PuyoGame) -> Option<(String, String)> {
    let s = &game.settings;
    let ai = |i: usize| match s.seats[i] {
        Seat::Ai(kind) => Some(kind),
        Seat::Human => None,
    };
    let (rule, link_ticks) = (game.game.rule, game.game.link_ticks);
    match (s.versus, ai(0), ai(1)) {
        (false, Some(kind), _) => {
            let params = &s.params[0];
            Some((endless_command(kind, params), endless_trace_command(kind, params, game.dealt)))
        }
        (true, Some(p1), Some(p2)) => Some((
            versus_command([p1, p2], rule, link_ticks, &s.params),
            versus_trace_command([p1, p2], rule, link_ticks, &s.params, game.dealt),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::drive_screen;

    /// A versus between two AIs on the screen, each with its own settings, is the game its
    /// trace line prints: the same field after every move of each board, and the same outcome.
    #[test]
    fn a_versus_of_two_ais_is_the_game_of_the_trace_line() {
        use std::collections::HashMap;

        use crate::games::puyo::ai::CombinedPotential;
        use crate::games::puyo::cli::{Command, versus};
        use crate::games::puyo::experiment::Traced;
        use crate::lab::runner::parse_game_command;
        let mut settings = default_settings(true);
        settings.seats = [Seat::Ai(AiKind::Potential), Seat::Ai(AiKind::Combined)];
        settings.seed = 2;
        settings.game = 3;
        settings.own_settings = true;
        settings.params[0].potential.virtual_drop = 0.5;
        settings.params[1].combined_potential = CombinedPotential::Asobi;
        settings.params[1].threat_switch = Some(0.2);
        // Each board's field after each of its moves, as the screen plays them.
        let (mut screen, mut moves) = (Vec::new(), [0, 0]);
        let world = drive_screen(PuyoGame::new(settings), advance_game, |game| {
            for (i, side) in game.game.sides.iter().enumerate() {
                if side.moves != moves[i] {
                    moves[i] = side.moves;
                    screen.push(((i, side.moves), side.field));
                }
            }
            game.outcome.is_some() || screen.len() >= 60
        });
        let game = world.resource::<PuyoGame>();
        let titles = [0, 1].map(|i| game.settings.seats[i].title(&game.settings.params[i]));
        assert_eq!(titles, ["potential maximization", "combined (asobi's options)"]);
        let Some((_, line)) = command_lines(game) else { panic!("two AIs in versus have a trace line") };
        assert_eq!(game.replay.line(&line), (line.as_str(), None), "the panel's line is the one the moves followed");
        assert!(line.contains("--p1-options") && line.contains("--p2-options"), "{line}");
        let Command::Versus(args) = parse_game_command(&line, "puyo") else { panic!("{line}: not versus") };
        let mut traced = HashMap::new();
        let (seed, index) = (args.batch.seed, args.trace.trace.expect("a trace line"));
        assert_eq!((seed, index), (2, 3), "{line}: the game dealt");
        let record = versus(&args).unwrap().play_traced(seed, index, &mut |m| {
            traced.insert((m.side, m.number), *m.field);
        });
        let mut compared = 0;
        for (key, field) in &screen {
            if let Some(traced) = traced.get(key) {
                assert_eq!(traced, field, "{line}: board and move {key:?}");
                compared += 1;
            }
        }
        assert!(compared >= 30, "{line}: {compared} moves compared");
        if let Some(outcome) = game.outcome {
            assert_eq!(outcome, record.outcome, "{line}");
        }
    }

    /// "as a Nazo puzzle" opens the Nazo screen when the board's next pairs can fire a chain,
    /// and otherwise says so in the log.
    #[test]
    fn a_board_opens_as_a_puzzle_only_when_its_pairs_fire_a_chain() {
        let mut settings = default_settings(false);
        settings.seats[0] = Seat::Ai(AiKind::Potential);
        let fires = |game: &PuyoGame| {
            let pairs: Vec<Pair> = (0..3).map(|ahead| game.game.pair(0, ahead)).collect();
            Puzzle::longest_chain(&game.game.sides[0].field, &pairs).is_some()
        };
        let mut game = PuyoGame::new(settings);
        assert!(!fires(&game), "three pairs on an empty field fire nothing");
        let mut world = World::new();
        let mut next = NextState::<Screen>::default();
        open_as_puzzle(&mut world.commands(), &mut next, &mut game, 0);
        assert!(matches!(next, NextState::Unchanged));
        assert_eq!(
            game.log.front().map(String::as_str),
            Some("board 1: no placement of its next 3 pairs fires a chain")
        );
        let mut world = drive_screen(game, advance_game, fires);
        let mut game = world.remove_resource::<PuyoGame>().unwrap();
        open_as_puzzle(&mut world.commands(), &mut next, &mut game, 0);
        assert!(matches!(next, NextState::Pending(Screen::Nazo)), "board 1 after {} moves", game.game.sides[0].moves);
    }

    /// An AI's endless game on the screen is the game its trace line prints, move for move up
    /// to the chain that ends the experiment's game.
    #[test]
    fn an_endless_ais_game_is_the_game_of_the_trace_line_to_its_first_chain() {
        use crate::games::puyo::cli::{Command, endless};
        use crate::games::puyo::experiment::Traced;
        use crate::lab::runner::parse_game_command;
        let mut settings = default_settings(false);
        settings.seats[0] = Seat::Ai(AiKind::Potential);
        settings.seed = 3;
        settings.game = 2;
        let game = PuyoGame::new(settings);
        let Some((_, line)) = command_lines(&game) else { panic!("an AI's endless game has a trace line") };
        let Command::Endless(args) = parse_game_command(&line, "puyo") else { panic!("{line}: not endless") };
        let mut traced = Vec::new();
        let (seed, index) = (args.batch.seed, args.trace.trace.expect("a trace line"));
        assert_eq!((seed, index), (3, 2), "{line}: the game dealt");
        let record = endless(&args).unwrap().play_traced(seed, index, &mut |m| traced.push(*m.field));
        assert!(record.fire_move > 0 && record.chain >= 2, "{line}: the traced game fires a chain: {record:?}");

        let mut screen = Vec::new();
        let mut world = drive_screen(game, advance_game, |game| {
            let side = &game.game.sides[0];
            if side.moves as usize > screen.len() {
                screen.push(side.field);
            }
            screen.len() == traced.len() || side.dead
        });
        assert_eq!(screen, traced, "{line}: board 1 after each move");
        // The board plays on past the traced game: a change now leaves nothing it replays.
        let mut game = world.remove_resource::<PuyoGame>().unwrap();
        game.settings.params[0].potential.fire_empty += 1;
        game.rebuild_players();
        let world = drive_screen(game, advance_game, |game| game.game.sides[0].moves as usize >= traced.len() + 2);
        let game = world.resource::<PuyoGame>();
        assert_eq!(game.replay.line(&line), (line.as_str(), None), "the panel's line is the one the moves followed");
    }

    /// Settings changed mid-game: the panel keeps the line the first moves followed and says
    /// which move left it.
    #[test]
    fn a_setting_changed_mid_game_leaves_the_trace_line_at_the_next_move() {
        let mut settings = default_settings(false);
        settings.seats[0] = Seat::Ai(AiKind::Potential);
        let mut world = drive_screen(PuyoGame::new(settings), advance_game, |game| game.game.sides[0].moves >= 4);
        let mut game = world.remove_resource::<PuyoGame>().unwrap();
        let (_, first) = command_lines(&game).unwrap();
        game.settings.params[0].potential.fire_empty += 1;
        game.rebuild_players();
        assert!(game.chosen[0].is_none() && !game.jobs[0].is_thinking(), "the next move is decided anew");
        let (_, now) = command_lines(&game).unwrap();
        assert_eq!(game.replay.line(&now), (first.as_str(), None), "no move has been played with the change yet");
        let world = drive_screen(game, advance_game, |game| game.game.sides[0].moves >= 6);
        let game = world.resource::<PuyoGame>();
        assert_eq!(game.replay.line(&now), (first.as_str(), Some("move 5: played with other settings")));
    }

    #[test]
    fn a_seat_changed_mid_game_is_played_by_its_new_player() {
        let mut game = PuyoGame::new(default_settings(false));
        assert!(game.players[0].is_none(), "board 1 starts with a person");
        game.chosen[0] = Some(Some(Placement::SPAWN));
        game.settings.seats[0] = Seat::Ai(AiKind::Template);
        game.take_over(0);
        assert!(game.players[0].as_ref().is_some_and(|p| p.kind == AiKind::Template), "the AI plays board 1");
        assert_eq!(game.chosen[0], None, "the person's move is not played for the AI");
        game.settings.seats[0] = Seat::Human;
        game.take_over(0);
        assert!(game.players[0].is_none(), "the person plays board 1 again");
    }
}
