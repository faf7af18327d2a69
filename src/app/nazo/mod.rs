//! The Nazo Puyo screen: pick a bundled puzzle or paste a pon2 query / IshikawaPuyo URL, play
//! it with the keyboard (undo, reset), watch the chain link by link, ask the exhaustive solver
//! for a solution and step through it, and generate new puzzles in the background into a
//! gallery with their type metrics. Solver and generator run as `AiJob`s.

mod draw;
mod lab;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use self::draw::{BoardPiece, redraw_board};
pub use self::lab::{lab_command, lab_entries};
use super::ai_task::AiJob;
use super::lab_screen::register_lab_command;
use super::panel::{PickedGame, batch_line_ui, command_lines_ui, despawn_pieces, panel_has_keyboard, side_panel};
use super::puyo::spawn_meshes;
use super::puyo_board::{Frame, PairKeys, animate_cells, move_frames};
use super::{DemoMode, Screen, register_game_screen};
use crate::games::nazo::cli::{generate_command, puzzle_commands};
use crate::games::nazo::experiment::numbered_puzzle;
use crate::games::nazo::generator::{GenParams, Generated, Method, Target};
use crate::games::nazo::io::{ishikawa, parse_playable, pon2};
use crate::games::nazo::metrics::{Metrics, compute};
use crate::games::nazo::puzzle::{Puzzle, Step, placement_pon2};
use crate::games::nazo::sets::{Set, bundled, from_ron, to_ron};
use crate::games::nazo::sim::replay;
use crate::games::nazo::solver::{SolveOptions, Solved, solve};
use crate::games::puyo::rules::{Field, Placement};
use crate::lab::runner::write_atomic;

/// The Nazo Puyo screen.
pub struct NazoPlugin;

impl Plugin for NazoPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Nazo), (setup_screen, spawn_meshes).chain())
            .add_systems(OnExit(Screen::Nazo), (cancel_jobs, despawn_pieces::<BoardPiece>))
            .add_systems(
                Update,
                (human_input, advance, redraw_board, animate_cells).chain().run_if(in_state(Screen::Nazo)),
            )
            .add_systems(EguiPrimaryContextPass, nazo_panel.run_if(in_state(Screen::Nazo)));
        register_game_screen(app, Screen::Nazo, lab_entries());
        register_lab_command(app, lab_command());
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Verdict {
    Playing,
    Solved,
    Failed(String),
}

/// A generated puzzle with its metrics.
struct GalleryItem {
    /// "seed S #k": the command line's puzzle #k of `--seed S` is the same puzzle.
    name: String,
    generated: Generated,
    metrics: Result<Metrics, String>,
}

/// The puzzle in play and everything the screen shows of it.
#[derive(Resource)]
struct NazoGame {
    sets: Vec<Set>,
    set_idx: usize,
    /// The puzzle of set `set_idx` in play; `None` for a pasted or generated one.
    puzzle_idx: Option<usize>,
    /// The text field for a pasted query or URL.
    text: String,
    title: String,
    puzzle: Puzzle,
    /// The placements played so far, one per pair step.
    moves: Vec<Placement>,
    cursor: Placement,
    queue: VecDeque<Frame>,
    shown: Frame,
    frame_left: f32,
    /// Frames per second of the chain animation.
    speed: f32,
    verdict: Verdict,
    solver: AiJob<Solved>,
    solved: Option<Solved>,
    /// Which of the solver's solutions is shown.
    solution_idx: usize,
    /// Plays the shown solution by itself, one move whenever the board is idle.
    auto_solution: bool,
    params: GenParams,
    /// The generator's seed and the number (from 1) of its next puzzle, as in
    /// `asobi nazo generate --seed`.
    gen_seed: u64,
    gen_number: u64,
    /// The puzzle generated, or the name of the one not found within max candidates.
    gen_job: AiJob<Result<GalleryItem, String>>,
    gallery: Vec<GalleryItem>,
    log: VecDeque<String>,
    error: Option<String>,
    redraw: bool,
}

impl NazoGame {
    fn new(demo: bool) -> Self {
        let (mut sets, mut error) = match bundled() {
            Ok(s) => (s, None),
            Err(e) => (Vec::new(), Some(format!("bundled sets: {e}"))),
        };
        // Galleries saved earlier come after the bundled sets; a broken file is named, not fatal.
        for set in saved_sets() {
            match set {
                Ok(set) => sets.push(set),
                Err(e) => error = Some(format!("{e:#}")),
            }
        }
        let params = GenParams { max_candidates: 20_000, ..GenParams::default() };
        let mut game = NazoGame {
            sets,
            set_idx: 0,
            puzzle_idx: None,
            text: String::new(),
            title: String::new(),
            puzzle: Puzzle::default(),
            moves: Vec::new(),
            cursor: Placement::SPAWN,
            queue: VecDeque::new(),
            shown: Frame::default(),
            frame_left: 0.0,
            speed: 3.0,
            verdict: Verdict::Playing,
            solver: AiJob::default(),
            solved: None,
            solution_idx: 0,
            auto_solution: false,
            params,
            gen_seed: 1,
            gen_number: 1,
            gen_job: AiJob::default(),
            gallery: Vec::new(),
            log: VecDeque::new(),
            error,
            redraw: true,
        };
        game.load_bundled(0, 0);
        if demo {
            game.start_solver();
            game.auto_solution = true;
        }
        game
    }

    fn log(&mut self, line: String) {
        self.log.push_front(line);
        self.log.truncate(12);
    }

    fn load_bundled(&mut self, set: usize, puzzle: usize) {
        let Some((set_name, puzzles)) = self.sets.get(set) else { return };
        let Some((name, p)) = puzzles.get(puzzle) else { return };
        let (title, p) = (format!("{} / #{} {}", ascii(set_name), puzzle + 1, ascii(name)), p.clone());
        self.load(title, p);
        (self.set_idx, self.puzzle_idx) = (set, Some(puzzle));
    }

    /// Replaces the puzzle in play; the solver's answer for the old one is dropped.
    fn load(&mut self, title: String, puzzle: Puzzle) {
        self.solver.cancel();
        self.puzzle_idx = None;
        self.solved = None;
        self.solution_idx = 0;
        self.auto_solution = false;
        self.log(format!("loaded {title}: {}", puzzle.goal.describe()));
        self.title = title;
        self.puzzle = puzzle;
        self.reset();
    }

    /// Back to the start field.
    fn reset(&mut self) {
        self.moves.clear();
        self.sync();
    }

    /// Shows the state after `moves` without animation.
    fn sync(&mut self) {
        let r = replay(&self.puzzle, &self.moves);
        self.queue.clear();
        self.shown = Frame { field: *r.fields.last().expect("a replay has a field"), ..Frame::default() };
        self.verdict = self.verdict_of(&r);
        self.cursor = Placement::SPAWN;
        self.redraw = true;
    }

    fn verdict_of(&self, r: &crate::games::nazo::sim::Replay) -> Verdict {
        if r.solved_at.is_some() {
            Verdict::Solved
        } else if r.failed {
            Verdict::Failed("the field died".into())
        } else if self.next_pair_after(r.fields.len() - 1).is_none() {
            Verdict::Failed("no pairs left, goal not met".into())
        } else {
            Verdict::Playing
        }
    }

    /// Index of the first pair step at or after `from`.
    fn next_pair_after(&self, from: usize) -> Option<usize> {
        (from..self.puzzle.steps.len()).find(|&i| matches!(self.puzzle.steps[i], Step::Pair(_)))
    }

    /// The step index and pair to place next.
    fn next_pair(&self) -> Option<(usize, crate::games::puyo::rules::Pair)> {
        let played = replay(&self.puzzle, &self.moves).fields.len() - 1;
        match self.puzzle.steps.get(played) {
            Some(&Step::Pair(p)) => Some((played, p)),
            _ => None,
        }
    }

    /// The field the next pair falls on.
    fn current_field(&self) -> Field {
        *replay(&self.puzzle, &self.moves).fields.last().expect("a replay has a field")
    }

    fn idle(&self) -> bool {
        self.queue.is_empty() && self.verdict == Verdict::Playing
    }

    /// Plays a placement and queues its frames: the pair in place, then each link popping.
    fn play(&mut self, p: Placement) -> bool {
        let Some((step, pair)) = self.next_pair() else { return false };
        let before = self.current_field();
        if !before.can_place(p) {
            return false;
        }
        self.moves.push(p);
        self.cursor = Placement::SPAWN;
        let r = replay(&self.puzzle, &self.moves);
        let (frames, _) = move_frames(&before, pair, p).expect("checked: the placement fits");
        self.queue.extend(frames);
        let last = r.links.get(step).map_or(0, |links| links.len() as u32);
        // Garbage steps after the move fall in as the board the replay ends with.
        let end = *r.fields.last().expect("a replay has a field");
        let settled = self.queue.back().map(|f| f.field);
        if settled != Some(end) {
            self.queue.push_back(Frame { field: end, link: last, ..Frame::default() });
        }
        self.verdict = self.verdict_of(&r);
        let mut line = format!("move {}: {}", self.moves.len(), placement_pon2(p));
        if last > 0 {
            line.push_str(&format!(", {last}-chain"));
        }
        match &self.verdict {
            Verdict::Solved => line.push_str(" - solved!"),
            Verdict::Failed(why) => line.push_str(&format!(" - failed: {why}")),
            Verdict::Playing => {}
        }
        self.log(line);
        self.frame_left = 0.0;
        true
    }

    fn undo(&mut self) {
        if self.moves.pop().is_some() {
            self.auto_solution = false;
            self.sync();
        }
    }

    fn start_solver(&mut self) {
        let puzzle = self.puzzle.clone();
        self.solved = None;
        self.solver.clear_failure();
        self.solver.start(move || {
            solve(
                &puzzle,
                SolveOptions { stop_after: Some(64), timeout: Some(Duration::from_secs(20)), keep: Some(16) },
            )
        });
    }

    fn solution(&self) -> Option<&Vec<Placement>> {
        self.solved.as_ref().and_then(|s| s.solutions.get(self.solution_idx))
    }

    /// Plays the next move of the shown solution, resetting first if the moves left it.
    fn step_solution(&mut self) {
        let Some(sol) = self.solution().cloned() else { return };
        if !self.queue.is_empty() {
            return;
        }
        if !sol.starts_with(&self.moves) || self.moves.len() >= sol.len() {
            self.reset();
        }
        if let Some(&p) = sol.get(self.moves.len()) {
            self.play(p);
        }
    }

    fn start_generator(&mut self) {
        let params = self.params.clone();
        if let Err(e) = params.check() {
            self.error = Some(e);
            return;
        }
        self.error = None;
        let (seed, index) = (self.gen_seed, self.gen_number - 1);
        self.gen_number += 1;
        self.gen_job.clear_failure();
        self.gen_job.start(move || {
            let name = format!("seed {seed} #{}", index + 1);
            match numbered_puzzle(&params, seed, index) {
                Some(generated) => {
                    let metrics = compute(&generated.puzzle, &generated.solution);
                    Ok(GalleryItem { name, generated, metrics })
                }
                None => Err(name),
            }
        });
    }

    fn urls(puzzle: &Puzzle) -> (String, Result<String, String>) {
        (pon2::write(puzzle), ishikawa::write(puzzle).map_err(|e| e.to_string()))
    }
}

/// A puzzle from elsewhere (a Lab run's, another screen's position), to be played on entering
/// the screen.
#[derive(Clone)]
struct PickedPuzzle {
    /// Its title on the screen ("Lab run, seed S #k", as the screen's generator names its puzzles).
    title: String,
    /// The puzzle as a pon2 query (the run's record).
    query: String,
}

impl NazoGame {
    /// Plays a puzzle picked in the Lab (the gallery and generator settings stay).
    fn open_picked(&mut self, picked: &PickedPuzzle) {
        match parse_playable(&picked.query) {
            Ok(puzzle) => {
                self.error = None;
                self.load(picked.title.clone(), puzzle);
            }
            Err(e) => self.error = Some(format!("{}: {e}", picked.title)),
        }
    }
}

/// Opens the Nazo Puyo screen on `puzzle`, titled `title`: a position another screen hands over.
pub fn open_in_nazo(commands: &mut Commands, next: &mut NextState<Screen>, title: String, puzzle: &Puzzle) {
    commands.insert_resource(PickedGame(PickedPuzzle { title, query: pon2::write(puzzle) }));
    next.set(Screen::Nazo);
}

fn setup_screen(
    mut commands: Commands,
    demo: Res<DemoMode>,
    existing: Option<ResMut<NazoGame>>,
    picked: Option<Res<PickedGame<PickedPuzzle>>>,
) {
    let picked = picked.map(|p| p.0.clone());
    commands.remove_resource::<PickedGame<PickedPuzzle>>();
    match (existing, picked) {
        (Some(mut game), Some(picked)) => game.open_picked(&picked),
        (Some(_), None) => {}
        (None, picked) => {
            let mut game = NazoGame::new(demo.0);
            if let Some(picked) = picked {
                game.open_picked(&picked);
            }
            commands.insert_resource(game);
        }
    }
}

/// Leaving the screen cancels the solver and the generator.
fn cancel_jobs(mut game: ResMut<NazoGame>) {
    game.solver.cancel();
    game.gen_job.cancel();
    game.redraw = true;
}

/// Keyboard play: Left / Right move, Z / X or Up rotate, Down or Space drop, Backspace undo,
/// R reset. Keys are ignored while egui has the keyboard (typing a URL).
fn human_input(keys: Res<ButtonInput<KeyCode>>, mut game: ResMut<NazoGame>, mut contexts: EguiContexts) {
    use KeyCode::*;
    if panel_has_keyboard(&mut contexts) {
        return;
    }
    if keys.just_pressed(Backspace) {
        game.undo();
    }
    if keys.just_pressed(KeyR) {
        game.auto_solution = false;
        game.reset();
    }
    if !game.idle() {
        return;
    }
    let (cursor, drop) = PairKeys::ARROWS.steer(&keys, game.cursor);
    if cursor != game.cursor {
        game.cursor = cursor;
        game.redraw = true;
    }
    if drop {
        game.auto_solution = false;
        game.play(cursor);
    }
}

/// Shows queued frames at the chosen speed; collects the solver's and generator's results.
fn advance(time: Res<Time>, mut game: ResMut<NazoGame>) {
    let game = &mut *game;
    if let Some(solved) = game.solver.poll() {
        let line = match (solved.count, solved.timed_out) {
            (0, false) => "solver: no solution exists".to_string(),
            (0, true) => "solver: none found before the time limit".to_string(),
            (n, t) => format!("solver: {n}{} solution(s), {} nodes", if t { "+" } else { "" }, solved.nodes),
        };
        game.log(line);
        game.solved = Some(solved);
        game.solution_idx = 0;
    }
    if let Some(result) = game.gen_job.poll() {
        match result {
            Ok(item) => {
                let g = &item.generated;
                game.log(format!(
                    "generated {} after {} candidates ({} solution(s))",
                    item.name, g.candidates, g.solutions
                ));
                game.gallery.push(item);
            }
            Err(name) => game.log(format!("generator: no {name} within max candidates")),
        }
    }
    game.frame_left -= time.delta_secs();
    if game.frame_left > 0.0 {
        return;
    }
    if let Some(frame) = game.queue.pop_front() {
        game.shown = frame;
        game.frame_left = 1.0 / game.speed.max(0.1);
        game.redraw = true;
    } else if game.auto_solution && game.solution().is_some() {
        if game.verdict == Verdict::Playing {
            game.step_solution();
        } else {
            game.auto_solution = false;
        }
    }
}

fn nazo_panel(mut contexts: EguiContexts, mut game: ResMut<NazoGame>, mut next: ResMut<NextState<Screen>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &mut *game;
    side_panel(ctx, Screen::Nazo, &mut next, |ui| {
        puzzle_ui(ui, game);
        ui.separator();
        play_ui(ui, game);
        ui.separator();
        solver_ui(ui, game);
        ui.separator();
        generator_ui(ui, game);
        ui.separator();
        gallery_ui(ui, game);
        if let Some(e) = &game.error {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
        }
        ui.separator();
        ui.label(egui::RichText::new("log").strong());
        for line in &game.log {
            ui.small(line);
        }
    });
    Ok(())
}

fn puzzle_ui(ui: &mut egui::Ui, game: &mut NazoGame) {
    let (mut set, mut idx) = (game.set_idx, game.puzzle_idx);
    let set_name = game.sets.get(set).map_or("(none)".to_string(), |s| ascii(&s.0));
    egui::ComboBox::from_label("set").selected_text(set_name).show_ui(ui, |ui| {
        for (i, s) in game.sets.iter().enumerate() {
            if ui.selectable_label(i == set, ascii(&s.0)).clicked() {
                set = i;
                idx = Some(0);
            }
        }
    });
    if let Some((_, puzzles)) = game.sets.get(set) {
        let name = match idx.and_then(|i| puzzles.get(i).map(|p| (i, p))) {
            Some((i, p)) => format!("#{} {}", i + 1, ascii(&p.0)),
            None => "(one of your own)".to_string(),
        };
        egui::ComboBox::from_label("puzzle").selected_text(name).show_ui(ui, |ui| {
            for (i, (n, _)) in puzzles.iter().enumerate() {
                if ui.selectable_label(idx == Some(i), format!("#{} {}", i + 1, ascii(n))).clicked() {
                    idx = Some(i);
                }
            }
        });
    }
    if let Some(i) = idx.filter(|_| (set, idx) != (game.set_idx, game.puzzle_idx)) {
        game.load_bundled(set, i);
    }
    ui.label("paste a pon2 query or IshikawaPuyo URL:");
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut game.text).desired_width(230.0));
        if ui.button("Load").clicked() {
            match parse_playable(&game.text) {
                Ok(p) => {
                    game.error = None;
                    game.load("pasted puzzle".into(), p);
                }
                Err(e) => game.error = Some(e.to_string()),
            }
        }
    });
    ui.horizontal(|ui| {
        let (query, ishikawa) = NazoGame::urls(&game.puzzle);
        if ui.button("copy pon2 query").clicked() {
            ui.ctx().copy_text(query);
        }
        match ishikawa {
            Ok(url) => {
                if ui.button("copy IshikawaPuyo URL").clicked() {
                    ui.ctx().copy_text(url);
                }
            }
            Err(e) => {
                ui.small(e);
            }
        }
    });
}

fn play_ui(ui: &mut egui::Ui, game: &mut NazoGame) {
    ui.label(egui::RichText::new(format!("Goal: {}", game.puzzle.goal.describe())).strong());
    match &game.verdict {
        Verdict::Playing => ui.label(format!("move {} of {}", game.moves.len() + 1, game.puzzle.moves())),
        Verdict::Solved => ui.colored_label(egui::Color32::from_rgb(120, 230, 130), "solved!"),
        Verdict::Failed(why) => ui.colored_label(egui::Color32::from_rgb(230, 110, 100), format!("failed: {why}")),
    };
    ui.horizontal(|ui| {
        if ui.button("undo").clicked() {
            game.undo();
        }
        if ui.button("reset").clicked() {
            game.auto_solution = false;
            game.reset();
        }
    });
    ui.add(egui::Slider::new(&mut game.speed, 0.5..=12.0).text("links / s").logarithmic(true));
    ui.small("keys: Left / Right move, Z / X or Up rotate, Down or Space drop, Backspace undo, R reset");
}

fn solver_ui(ui: &mut egui::Ui, game: &mut NazoGame) {
    ui.label(egui::RichText::new("solution").strong());
    ui.horizontal(|ui| {
        if ui.add_enabled(!game.solver.is_thinking(), egui::Button::new("solve")).clicked() {
            game.start_solver();
        }
        game.solver.status_ui(ui);
    });
    command_lines_ui(ui, "this puzzle from the command line", &puzzle_commands(&game.puzzle));
    let Some(solved) = &game.solved else { return };
    let count = solved.solutions.len();
    if count == 0 {
        ui.label(if solved.timed_out { "no solution found in time" } else { "no solution exists" });
        return;
    }
    ui.label(format!(
        "{}{} solution(s){}",
        solved.count,
        if solved.timed_out { "+" } else { "" },
        if solved.count == 1 && !solved.timed_out { " (unique)" } else { "" }
    ));
    if count > 1 {
        ui.add(egui::Slider::new(&mut game.solution_idx, 0..=count - 1).text("shown"));
    }
    if let Some(sol) = game.solution() {
        let text: Vec<String> = sol.iter().map(|&p| placement_pon2(p)).collect();
        ui.monospace(text.join(" "));
    }
    ui.horizontal(|ui| {
        if ui.button("step").clicked() {
            game.auto_solution = false;
            game.step_solution();
        }
        if ui.button("play").clicked() {
            game.reset();
            game.auto_solution = true;
        }
    });
}

fn generator_ui(ui: &mut egui::Ui, game: &mut NazoGame) {
    ui.label(egui::RichText::new("generator").strong());
    let g = &mut game.params;
    ui.add(egui::Slider::new(&mut g.moves, 2..=4).text("moves"));
    ui.add(egui::Slider::new(&mut g.chain, 2..=6).text("chain"));
    ui.add(egui::Slider::new(&mut g.colors, 2..=5).text("colors"));
    ui.horizontal(|ui| {
        ui.label("type");
        ui.radio_value(&mut g.target, Target::Any, "any");
        ui.radio_value(&mut g.target, Target::Four, "4");
        ui.radio_value(&mut g.target, Target::Five, "5");
    });
    ui.horizontal(|ui| {
        ui.label("method");
        ui.radio_value(&mut g.method, Method::Filter, "filter");
        ui.radio_value(&mut g.method, Method::Direct, "direct");
    });
    ui.checkbox(&mut g.unique, "unique solution");
    egui::CollapsingHeader::new("more parameters and filters").show(ui, |ui| {
        ui.add(egui::Slider::new(&mut g.garbage_p, 0.0..=1.0).text("garbage p"));
        ui.add(egui::Slider::new(&mut g.recolor_p, 0.0..=1.0).text("recolor p"));
        ui.add(egui::Slider::new(&mut g.insert_tries, 1..=200).text("insert tries"));
        ui.checkbox(&mut g.reject_ambiguous_first_link, "8.1 reject ambiguous first link");
        ui.checkbox(&mut g.reject_obvious_trigger, "8.2 reject obvious trigger");
        ui.checkbox(&mut g.reject_tall_columns, "8.3 reject tall columns");
        ui.add(egui::Slider::new(&mut g.tall_difference, 2..=12).text("tall difference"));
        ui.checkbox(&mut g.reject_inconsistent_type, "8.4 reject inconsistent type");
        ui.horizontal(|ui| {
            ui.label("max candidates");
            ui.add(egui::DragValue::new(&mut g.max_candidates).range(1..=10_000_000));
        });
    });
    ui.horizontal(|ui| {
        ui.label("seed");
        if ui.add(egui::DragValue::new(&mut game.gen_seed)).changed() {
            game.gen_number = 1;
        }
        ui.label("next #");
        ui.add(egui::DragValue::new(&mut game.gen_number).range(1..=u32::MAX));
        if ui.add_enabled(!game.gen_job.is_thinking(), egui::Button::new("Generate")).clicked() {
            game.start_generator();
        }
        if game.gen_job.is_thinking() && ui.button("cancel").clicked() {
            game.gen_job.cancel();
        }
    });
    game.gen_job.status_ui(ui);
    batch_line_ui(ui, "this seed's puzzles from the command line", &generator_command(game));
}

/// The command line that makes this seed's puzzles: at least 100, and every number generated
/// so far, so each gallery puzzle "seed S #k" is its #k.
fn generator_command(game: &NazoGame) -> String {
    generate_command(&game.params, (game.gen_number - 1).max(100), game.gen_seed)
}

/// Where saved galleries live: one RON set per file, in the format of `levels/nazo/`.
fn gallery_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("asobi").join("nazo"))
}

/// The galleries saved in [`gallery_dir`], oldest first.
fn saved_sets() -> Vec<anyhow::Result<Set>> {
    let Some(entries) = gallery_dir().and_then(|d| std::fs::read_dir(d).ok()) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let text = crate::levels::read_user_file(path)?;
            Ok(from_ron(&path.display().to_string(), &text)?)
        })
        .collect()
}

/// Saves the gallery as a new set file and adds it to the set picker.
fn save_gallery(game: &mut NazoGame) {
    let Some(dir) = gallery_dir() else {
        game.error = Some("no user data folder on this system to save the gallery in".into());
        return;
    };
    // Galleries are numbered; never overwrite an earlier one.
    let number = (1..).find(|n| !dir.join(format!("gallery-{n}.ron")).exists()).expect("a free number");
    let name = format!("Gallery {number}");
    let puzzles: Vec<(String, Puzzle)> =
        game.gallery.iter().map(|item| (format!("generated {}", item.name), item.generated.puzzle.clone())).collect();
    let path = dir.join(format!("gallery-{number}.ron"));
    let text = to_ron(&name, "asobi desktop generator", &puzzles);
    let saved =
        std::fs::create_dir_all(&dir).map_err(anyhow::Error::from).and_then(|_| write_atomic(&path, text.as_bytes()));
    match saved {
        Ok(()) => {
            game.log(format!("saved {} puzzles to {}", puzzles.len(), path.display()));
            game.sets.push((name, puzzles));
        }
        Err(e) => game.error = Some(format!("saving {}: {e:#}", path.display())),
    }
}

fn gallery_ui(ui: &mut egui::Ui, game: &mut NazoGame) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(format!("gallery ({})", game.gallery.len())).strong());
        if !game.gallery.is_empty() && ui.button("save as a set").clicked() {
            save_gallery(game);
        }
    });
    let mut load = None;
    for (i, item) in game.gallery.iter().enumerate().rev() {
        let p = &item.generated.puzzle;
        ui.group(|ui| {
            ui.label(format!("{}: {} moves, {}", item.name, p.moves(), p.goal.describe()));
            match &item.metrics {
                Ok(m) => {
                    ui.small(format!(
                        "type4 {} (split {}), type5 {} ({}), M1 {:.2} ({:.1} pieces/group), M2 {:.2}, M3a {:.2}, greedy {}{}",
                        if m.type4.is_type4 { "yes" } else { "no" },
                        m.type4.split_pairs_firing,
                        if m.type5.is_type5 { "yes" } else { "no" },
                        m.type5.link_colors.join(""),
                        m.type1.isolated_ratio,
                        m.type1.mean_pieces,
                        m.type2.m2,
                        m.type3.m3a,
                        if m.type3.greedy_solves { "solves" } else { "misled" },
                        m.type3.near_miss_share.map_or(String::new(), |s| format!(", M3c {s:.2}")),
                    ));
                }
                Err(e) => {
                    ui.small(format!("metrics: {e}"));
                }
            }
            ui.horizontal(|ui| {
                if ui.button("play").clicked() {
                    load = Some(i);
                }
                let (query, ishikawa) = NazoGame::urls(p);
                if ui.button("copy query").clicked() {
                    ui.ctx().copy_text(query);
                }
                if let Ok(url) = ishikawa
                    && ui.button("copy URL").clicked()
                {
                    ui.ctx().copy_text(url);
                }
            });
        });
    }
    if let Some(i) = load {
        let item = &game.gallery[i];
        let (name, puzzle) = (format!("generated {}", item.name), item.generated.puzzle.clone());
        game.load(name, puzzle);
    }
}

/// The printable ASCII part of a name: the bundled fonts lack Japanese glyphs.
fn ascii(name: &str) -> String {
    let kept: String = name.chars().filter(|c| c.is_ascii() && !c.is_ascii_control()).collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nazo::experiment::GenerateExperiment;
    use crate::games::puyo::rules::Rotation;

    /// A position another screen hands over opens as that puzzle, under its title.
    #[test]
    fn a_position_handed_over_opens_as_its_puzzle() {
        let puzzle = parse_playable("field=0_bbbg..&steps=gbgg&goal=0_0_2_1_").expect("a valid query");
        let mut world = World::new();
        let mut next = NextState::<Screen>::default();
        open_in_nazo(&mut world.commands(), &mut next, "Puyo board 1 after 3 moves".into(), &puzzle);
        world.flush();
        assert!(matches!(next, NextState::Pending(Screen::Nazo)));
        let PickedGame(picked) = world.remove_resource::<PickedGame<PickedPuzzle>>().expect("handed over");
        let mut game = NazoGame::new(false);
        game.open_picked(&picked);
        assert_eq!((game.error, game.title, game.puzzle), (None, "Puyo board 1 after 3 moves".into(), puzzle));
    }

    #[test]
    fn after_a_move_the_next_pair_appears_at_the_spawn_placement() {
        let mut game = NazoGame::new(false);
        game.cursor = Placement { col: 0, rot: Rotation::Right };
        assert!(game.play(game.cursor), "the first puzzle takes a pair at column 1");
        assert_eq!(game.cursor, Placement::SPAWN);
    }

    #[test]
    fn a_puzzle_of_ones_own_leaves_the_set_list_free_to_reload_the_last_one() {
        let mut game = NazoGame::new(false);
        assert_eq!((game.set_idx, game.puzzle_idx), (0, Some(0)));
        let own = game.puzzle.clone();
        game.load("pasted puzzle".into(), own);
        assert_eq!(game.puzzle_idx, None, "the list shows no bundled puzzle");
        game.load_bundled(0, 0);
        assert_eq!((game.set_idx, game.puzzle_idx), (0, Some(0)));
    }

    #[test]
    fn the_generator_panels_command_makes_the_gallerys_puzzles() {
        use crate::games::nazo::cli::{Command, gen_params};
        use crate::lab::runner::{Experiment, parse_game_command};
        bevy::tasks::AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::default);
        let mut game = NazoGame::new(false);
        (game.gen_seed, game.gen_number) = (5, 2);
        game.start_generator();
        let item = loop {
            if let Some(done) = game.gen_job.poll() {
                break done.expect("the app's settings make puzzle #2 of seed 5");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        assert_eq!((item.name.as_str(), game.gen_number), ("seed 5 #2", 3));

        let line = generator_command(&game);
        let Command::Generate(args) = parse_game_command(&line, "nazo") else { panic!("{line}: not generate") };
        let experiment = GenerateExperiment { params: gen_params(&args).unwrap(), count: args.count };
        let record = experiment.play(args.batch.seed, 1);
        assert_eq!(record.pon2, Some(pon2::write(&item.generated.puzzle)), "{line}: its #2");
    }
}
