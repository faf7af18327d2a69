//! The Calculation screen: the stock's drawn card, four foundations and the waste stacks drawn
//! as cards. A person plays by clicking where the drawn card goes (a foundation or a stack) and
//! moves stack tops to foundations (right-click a stack, then click a foundation); or the
//! paper's planner plays at an adjustable speed. On request the planner's estimated success
//! for each option is shown over the targets. AI work always runs as an `AiJob`.

mod draw;
mod lab;

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use self::draw::{BoardPiece, animate_cards, redraw_board};
pub use self::lab::{lab_command, lab_entries};
use super::ai_task::AiJob;
use super::lab_screen::register_lab_command;
use super::panel::{
    PickedGame, ReplayCheck, batch_line_ui, deal_on_entry, despawn_pieces, panel_has_keyboard, panel_has_pointer,
    side_panel,
};
use super::{DemoMode, Screen, register_game_screen};
use crate::games::calculation::ai::{Choice, Decision, Planner, PlannerParams, Player};
use crate::games::calculation::cli::{log_command, play_command};
use crate::games::calculation::oracle::Action;
use crate::games::calculation::rules::{DECK, Deal, FOUNDATIONS, Game, Observation, Target, rank_char};

/// The Calculation screen.
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
        register_game_screen(app, Screen::Calculation, lab_entries());
        register_lab_command(app, lab_command());
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
    /// The planner has played its decision on the empty stock: its game ends there, as
    /// `calc play`'s does (clearing the stacks is all or nothing).
    planner_done: bool,
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
            planner_done: false,
        };
        g.log(format!("new game: seed {} deal {} with {} stacks", g.settings.seed, g.settings.deal, g.settings.stacks));
        g
    }

    fn log(&mut self, line: String) {
        self.log.push_front(line);
        self.log.truncate(14);
    }

    /// A deal picked in the Lab.
    fn picked(settings: &Settings) -> Self {
        let mut game = CalcGame::new(settings.clone());
        game.log(format!("picked in the Lab: deal {} of seed {}", settings.deal, settings.seed));
        game
    }

    fn finished(&self) -> bool {
        self.game.is_won() || self.game.is_over() || self.planner_done
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
        } else if self.finished() {
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

fn setup_screen(
    mut commands: Commands,
    demo: Res<DemoMode>,
    existing: Option<Res<CalcGame>>,
    picked: Option<Res<PickedGame<Settings>>>,
) {
    let first_game = || CalcGame::new(default_settings(demo.0));
    deal_on_entry(&mut commands, picked, existing.is_some(), CalcGame::picked, first_game);
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
    game.planner_done = drawn.is_none();
    game.end_message();
}

/// `calc play` with the planner's settings, and `calc log` of the deal on the table.
fn command_lines(game: &CalcGame) -> [String; 2] {
    let (stacks, params) = (game.settings.stacks, &game.settings.params);
    let (seed, deal) = game.dealt;
    [play_command(stacks, params), log_command(stacks, params, seed, deal)]
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
    batch_line_ui(ui, "many deals from the command line", &many);
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
