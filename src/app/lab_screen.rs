//! The Lab screen: pick one of the experiments the game plugins register, set its size and
//! seed, or give a command line (a screen panel's "run in the Lab" button fills one in), run it
//! in the background with a progress bar, then read the result table and plots.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Bar, BarChart, GridMark, Plot as EguiPlot, PlotPoint, Points, Text, uniform_grid_spacer};

use super::lab_compare::{CompareState, compare_ui};
use super::panel::{PickedGame, command_lines_ui, side_panel};
use super::{DemoMode, Screen};
use crate::lab::runner::{BatchOptions, Experiment, Shard, SharedProgress, insert_records, result_json, run_records};

/// What a finished Lab run shows: the command line's JSON result and some plots.
pub struct LabOutcome {
    /// The JSON result, as the command line prints it.
    pub result: serde_json::Value,
    /// What to draw.
    pub plots: Vec<LabPlot>,
    /// The JSON result of each of the entry's commands, in their order, as the command line
    /// prints it (for an entry of one command, `result` itself).
    pub parts: Vec<serde_json::Value>,
    /// For the run of one experiment, its `[index, record]` pairs as `--records` gives them
    /// (what the Lab compares with a baseline); `None` for an entry of several runs.
    pub records: Option<serde_json::Value>,
}

/// A plot of a Lab result, as plain data.
pub enum LabPlot {
    /// Counts of integer-valued observations (moves to completion, chain lengths).
    Histogram {
        /// Shown above the plot.
        title: String,
        /// The observations.
        values: Vec<f64>,
    },
    /// Rates with 95% intervals, one bar each (win rates, success rates).
    Rates {
        /// Shown above the plot.
        title: String,
        /// Each bar's label, rate and interval.
        bars: Vec<(String, f64, [f64; 2])>,
    },
    /// Points in the unit square (e.g. weak vs strong solve rates).
    Scatter(ScatterPlot),
    /// The run's games in groups (by outcome, say), each opening in its game screen.
    Picks(PickList),
}

/// A [`LabPlot::Scatter`]: `marked` points are drawn apart, and with `opener` a click on a
/// point opens it in its game.
pub struct ScatterPlot {
    /// Shown above the plot.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The points, one per game or instance.
    pub points: Vec<[f64; 2]>,
    /// Which points are drawn apart.
    pub marked: Vec<bool>,
    /// What the marked points are, for the legend.
    pub marked_label: String,
    /// Opens a clicked point in its game, if the game can.
    pub opener: Option<Opener>,
}

/// A [`LabPlot::Picks`]: buttons that open games of the run.
pub struct PickList {
    /// Shown above the buttons.
    pub title: String,
    /// Each group's label and the indices of its games.
    pub groups: Vec<(String, Vec<usize>)>,
    /// Opens a game picked.
    pub opener: Opener,
}

/// Inserts what a screen needs to show game or instance `index` of a run (read when the
/// screen is entered).
pub type OpenItem = Arc<dyn Fn(&mut Commands, usize) + Send + Sync>;

/// Opens game or instance `index` of a run in a game screen (plays a generated instance,
/// replays a versus game).
pub struct Opener {
    /// The game screen to switch to.
    pub screen: Screen,
    /// What that screen needs for the game.
    pub open: OpenItem,
}

/// A [`LabPlot::Picks`] of a run's games in `groups` (each a label and the indices of its
/// games; empty groups are left out): a game picked opens `screen` dealing the settings that
/// `deal` gives for its index.
pub fn games_to_watch<S: Send + Sync + 'static>(
    title: String,
    groups: Vec<(String, Vec<usize>)>,
    screen: Screen,
    deal: impl Fn(u64) -> S + Send + Sync + 'static,
) -> LabPlot {
    LabPlot::Picks(PickList {
        title,
        groups: groups.into_iter().filter(|(_, games)| !games.is_empty()).collect(),
        opener: Opener::dealing(screen, deal),
    })
}

/// Tests: what a click on game `index` of `plot` (a [`LabPlot::Picks`]) hands its screen.
#[cfg(test)]
pub fn picked_settings<S: Send + Sync + 'static>(plot: &LabPlot, index: usize) -> S {
    let LabPlot::Picks(list) = plot else { panic!("not a pick list") };
    assert!(list.groups.iter().any(|(_, games)| games.contains(&index)), "game {index} is not listed");
    let mut world = World::new();
    (list.opener.open)(&mut world.commands(), index);
    world.flush();
    world.remove_resource::<PickedGame<S>>().expect("the pick inserts the screen's settings").0
}

impl Opener {
    /// Opens `screen` dealing the settings `deal` gives for a game's index (the screen takes
    /// them as a [`PickedGame`] when it is entered).
    pub fn dealing<S: Send + Sync + 'static>(
        screen: Screen,
        deal: impl Fn(u64) -> S + Send + Sync + 'static,
    ) -> Opener {
        let open =
            move |commands: &mut Commands, index: usize| commands.insert_resource(PickedGame(deal(index as u64)));
        Opener { screen, open: Arc::new(open) }
    }
}

/// An experiment the Lab can run: a game lists its entries in `lab_entries()`, and its plugin
/// registers them with [`register_lab_experiments`].
pub struct LabEntry {
    /// The game it belongs to.
    pub game: Screen,
    /// Shown in the Lab's list.
    pub name: &'static str,
    /// What the size counts ("games", "deals", ...).
    pub size_label: &'static str,
    /// The size the form starts with.
    pub default_size: u64,
    /// The same run from the command line: one command per part of the outcome, with `{size}`
    /// and `{seed}` standing for the form's values.
    pub commands: &'static [&'static str],
    /// Runs the experiment with `size` games from `seed`; `Ok(None)` when cancelled.
    pub run: fn(size: u64, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>>,
}

impl LabEntry {
    /// The commands that run this experiment with `size` games from `seed`.
    pub fn command_lines(&self, size: u64, seed: u64) -> Vec<String> {
        let fill = |command: &&str| command.replace("{size}", &size.to_string()).replace("{seed}", &seed.to_string());
        self.commands.iter().map(fill).collect()
    }
}

/// Runs experiment `exp` for the Lab and summarizes it the way the command line does;
/// `plots` turns the records into plots.
pub fn run_for_lab<E: Experiment>(
    exp: &E,
    seed: u64,
    progress: &SharedProgress,
    plots: impl FnOnce(&[E::Record]) -> Vec<LabPlot>,
) -> anyhow::Result<Option<LabOutcome>> {
    progress.total.store(exp.games(), Ordering::Relaxed);
    let Some(games) = run_records(exp, seed, Shard::WHOLE, None, progress)? else { return Ok(None) };
    let plots = plots(&games.records);
    let result = result_json(exp, seed, Shard::WHOLE, &games);
    let mut with_records = serde_json::json!({});
    insert_records(&mut with_records, &games);
    Ok(Some(LabOutcome { parts: vec![result.clone()], result, plots, records: Some(with_records["records"].take()) }))
}

/// Every experiment the Lab can run, as the game plugins registered them.
#[derive(Resource, Default)]
pub struct LabCatalog(pub Vec<LabEntry>);

/// Adds a game's experiments to the Lab screen.
pub fn register_lab_experiments(app: &mut App, entries: Vec<LabEntry>) {
    app.world_mut().get_resource_or_init::<LabCatalog>().0.extend(entries);
}

/// A command line's run, ready to start on the Lab's background thread.
pub struct LabJob {
    /// What its progress counts ("games", "trials", "deals").
    pub size_label: &'static str,
    /// The run.
    pub run: RunFn,
}

/// How the Lab runs a command line of one game (`asobi GAME SUBCOMMAND ...`); a game plugin
/// registers one with [`register_lab_command`].
pub struct LabCommand {
    /// The game's word on the command line (`puyo`).
    pub game: &'static str,
    /// The subcommands the Lab runs, for its hint (`build, endless, versus`).
    pub subcommands: &'static str,
    /// Reads the words after `asobi GAME` into a run, or says why the Lab cannot run them.
    pub job: fn(words: &[String]) -> anyhow::Result<LabJob>,
}

/// The command lines the Lab runs, as the game plugins registered them.
#[derive(Resource, Default)]
pub struct LabCommands(pub Vec<LabCommand>);

/// Lets the Lab run command lines of a game.
pub fn register_lab_command(app: &mut App, command: LabCommand) {
    app.world_mut().get_resource_or_init::<LabCommands>().0.push(command);
}

/// What a game's [`LabCommand`] reads: the subcommand and options after `asobi GAME`.
pub fn parse_words<C: clap::Subcommand>(words: &[String]) -> anyhow::Result<C> {
    crate::lab::runner::parse_subcommand(words).map_err(anyhow::Error::msg)
}

/// The Lab's run of `exp` (built from a command line) from `seed`, shown by `outcome`; its
/// progress counts `size_label`.
pub fn job<E: Send + 'static>(
    exp: E,
    seed: u64,
    size_label: &'static str,
    outcome: fn(&E, u64, &SharedProgress) -> anyhow::Result<Option<LabOutcome>>,
) -> LabJob {
    LabJob { size_label, run: Box::new(move |progress| outcome(&exp, seed, progress)) }
}

/// A command line that writes a file (`--out`) is one for a terminal: the Lab shows its result
/// and writes nothing.
pub fn no_output_file(out: &Option<std::path::PathBuf>) -> anyhow::Result<()> {
    anyhow::ensure!(
        out.is_none(),
        "--out writes a file: the Lab writes none, so drop it or run the line in a terminal"
    );
    Ok(())
}

/// The seed of a batch command line the Lab can run: it runs whole batches, not one game
/// (`--trace`) or a shard; `--threads` and the output options change nothing there.
pub fn whole_batch(batch: &BatchOptions, trace: Option<u64>) -> anyhow::Result<u64> {
    anyhow::ensure!(
        trace.is_none(),
        "--trace plays one game in a terminal; the Lab runs the whole batch and lists its games to watch"
    );
    anyhow::ensure!(batch.shard.is_none(), "--shard runs part of a batch for `asobi merge`; the Lab runs all of it");
    Ok(batch.seed)
}

/// The run of `line` (`asobi GAME SUBCOMMAND ...`, split as a POSIX shell splits it).
pub fn command_line_job(commands: &[LabCommand], line: &str) -> anyhow::Result<LabJob> {
    let words = shlex::split(line).ok_or_else(|| anyhow::anyhow!("unbalanced quotes in the command line"))?;
    let words = words.strip_prefix(&["asobi".to_string()]).unwrap_or(&words);
    let known = || commands.iter().map(|c| format!("{} {}", c.game, c.subcommands)).collect::<Vec<_>>().join("; ");
    let Some((game, rest)) = words.split_first() else {
        anyhow::bail!("no command line: the Lab runs asobi {}", known())
    };
    let Some(command) = commands.iter().find(|c| c.game == game) else {
        anyhow::bail!("the Lab runs asobi {}; run `asobi {game} ...` in a terminal", known())
    };
    (command.job)(rest)
}

/// Asks the Lab to run `line` (a screen panel's "run in the Lab" button). The line waits in
/// egui's memory until [`take_lab_request`] takes it and opens the Lab.
pub fn request_lab_run(ctx: &egui::Context, line: &str) {
    ctx.data_mut(|data| data.insert_temp(lab_request_id(), line.to_string()));
}

fn lab_request_id() -> egui::Id {
    egui::Id::new("asobi-lab-request")
}

/// What the Lab's form has picked: a catalog entry or a command line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pick {
    Entry(usize),
    CommandLine,
}

/// A run in flight: what it is, its progress counters and the thread that returns its outcome.
struct RunningLab {
    /// "Puyo Puyo: endless: ..." or the command line.
    title: String,
    /// What its progress counts ("games", "trials").
    size_label: &'static str,
    progress: Arc<SharedProgress>,
    handle: JoinHandle<anyhow::Result<Option<LabOutcome>>>,
}

/// The Lab's form and the run in flight or finished.
#[derive(Resource)]
struct LabState {
    selected: Option<Pick>,
    size: u64,
    seed: u64,
    /// The command line of [`Pick::CommandLine`].
    line: String,
    running: Option<RunningLab>,
    outcome: Option<Result<LabOutcome, String>>,
    /// Runs finished this session; the outcome shown is the last.
    finished: u64,
    /// What the outcome shown ran.
    outcome_title: String,
    /// The baseline kept and the comparison asked for.
    compare: CompareState,
}

impl Default for LabState {
    fn default() -> Self {
        LabState {
            selected: None,
            size: 0,
            seed: 1,
            line: String::new(),
            running: None,
            outcome: None,
            finished: 0,
            outcome_title: String::new(),
            compare: CompareState::default(),
        }
    }
}

/// The Lab screen.
pub struct LabPlugin;

impl Plugin for LabPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LabCatalog>()
            .init_resource::<LabCommands>()
            .init_resource::<LabState>()
            .add_systems(OnEnter(Screen::Lab), start_demo_run)
            .add_systems(Update, collect_finished_run.run_if(in_state(Screen::Lab)))
            .add_systems(EguiPrimaryContextPass, (take_lab_request, lab_ui.run_if(in_state(Screen::Lab))).chain());
        app.world_mut().resource_mut::<super::BuiltScreens>().0.push(Screen::Lab);
    }
}

/// `--demo`: the first experiment runs at its default size, so the screen shows a run's
/// progress and then its plots without a click.
fn start_demo_run(demo: Res<DemoMode>, catalog: Res<LabCatalog>, mut state: ResMut<LabState>) {
    if !demo.0 || state.running.is_some() || state.outcome.is_some() {
        return;
    }
    if let Some(entry) = catalog.0.first() {
        select(&mut state, 0, entry);
        start_run(&mut state, entry);
    }
}

fn select(state: &mut LabState, index: usize, entry: &LabEntry) {
    state.selected = Some(Pick::Entry(index));
    state.size = entry.default_size;
}

/// Starts `entry` in the background with the form's size and seed.
fn start_run(state: &mut LabState, entry: &LabEntry) {
    let (run, size, seed) = (entry.run, state.size, state.seed);
    let title = format!("{}: {}", entry.game.title(), entry.name);
    start_job(state, title, entry.size_label, Box::new(move |progress| run(size, seed, progress)));
}

/// Starts the form's command line in the background, or shows why it cannot run.
fn start_command_line(state: &mut LabState, commands: &[LabCommand]) {
    match command_line_job(commands, &state.line) {
        Ok(job) => start_job(state, state.line.trim().to_string(), job.size_label, job.run),
        Err(e) => state.outcome = Some(Err(format!("{e:#}"))),
    }
}

/// A run on the Lab's background thread.
pub type RunFn = Box<dyn FnOnce(&SharedProgress) -> anyhow::Result<Option<LabOutcome>> + Send>;

fn start_job(state: &mut LabState, title: String, size_label: &'static str, job: RunFn) {
    let progress = Arc::new(SharedProgress::default());
    let shared = progress.clone();
    let handle = std::thread::spawn(move || job(&shared));
    state.running = Some(RunningLab { title, size_label, progress, handle });
    state.outcome = None;
}

/// A screen's "run in the Lab": the Lab opens on the command line and runs it (unless a run
/// is in flight, which the user may cancel first).
fn take_lab_request(
    mut contexts: EguiContexts,
    commands: Res<LabCommands>,
    mut state: ResMut<LabState>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(line) = ctx.data_mut(|data| data.remove_temp::<String>(lab_request_id())) else { return Ok(()) };
    open_command_line(&mut state, &commands.0, line);
    next.set(Screen::Lab);
    Ok(())
}

/// The form on `line`, running it unless a run is in flight.
fn open_command_line(state: &mut LabState, commands: &[LabCommand], line: String) {
    state.selected = Some(Pick::CommandLine);
    state.line = line;
    if state.running.is_none() {
        start_command_line(state, commands);
    }
}

fn collect_finished_run(mut state: ResMut<LabState>) {
    if !state.running.as_ref().is_some_and(|run| run.handle.is_finished()) {
        return;
    }
    let run = state.running.take().expect("checked above");
    state.finished += 1;
    state.outcome_title = run.title;
    state.outcome = match run.handle.join() {
        Ok(Ok(Some(outcome))) => Some(Ok(outcome)),
        Ok(Ok(None)) => None,
        Ok(Err(e)) => Some(Err(format!("{e:#}"))),
        Err(_) => Some(Err("the experiment panicked".into())),
    };
}

fn lab_ui(
    mut contexts: EguiContexts,
    mut commands: Commands,
    catalog: Res<LabCatalog>,
    lines: Res<LabCommands>,
    mut state: ResMut<LabState>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let state = &mut *state;
    let mut root = side_panel(ctx, Screen::Lab, &mut next, |ui| experiment_form(ui, &catalog.0, &lines.0, state));
    let mut picked = None;
    let LabState { outcome, running, finished, outcome_title, compare, .. } = state;
    egui::CentralPanel::default().show(&mut root, |ui| match &*outcome {
        None if catalog.0.is_empty() => {
            ui.label("No experiments yet: the game screens that register them are not built.");
        }
        None => match running {
            Some(run) => {
                let (_, counts) = progress_text(&run.progress, run.size_label);
                ui.label(format!(
                    "Running {}, {counts}. The result and its plots appear here when it ends.",
                    run.title
                ));
            }
            None => {
                ui.label("Pick an experiment on the left and press Run.");
            }
        },
        Some(Err(message)) => {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), message);
        }
        Some(Ok(outcome)) => {
            picked = outcome_ui(ui, outcome, |ui| compare_ui(ui, outcome, *finished, outcome_title, compare))
        }
    });
    if let Some((opener, index)) = picked {
        (opener.open)(&mut commands, index);
        next.set(opener.screen);
    }
    Ok(())
}

fn experiment_form(ui: &mut egui::Ui, catalog: &[LabEntry], lines: &[LabCommand], state: &mut LabState) {
    for (i, entry) in catalog.iter().enumerate() {
        if ui.radio(state.selected == Some(Pick::Entry(i)), format!("{}: {}", entry.game.title(), entry.name)).clicked()
        {
            select(state, i, entry);
        }
    }
    if ui.radio(state.selected == Some(Pick::CommandLine), "A command line of your own").clicked() {
        state.selected = Some(Pick::CommandLine);
    }
    ui.separator();
    let run_clicked = match state.selected {
        None => return,
        Some(Pick::Entry(i)) => {
            let Some(entry) = catalog.get(i) else { return };
            entry_form(ui, entry, state)
        }
        Some(Pick::CommandLine) => command_line_form(ui, lines, state),
    };
    match &state.running {
        Some(run) => {
            let (fraction, counts) = progress_text(&run.progress, run.size_label);
            ui.add(egui::ProgressBar::new(fraction).text(counts));
            if ui.button("Cancel").clicked() {
                run.progress.cancel.store(true, Ordering::Relaxed);
            }
        }
        None if run_clicked => match state.selected {
            Some(Pick::Entry(i)) => start_run(state, &catalog[i]),
            _ => start_command_line(state, lines),
        },
        None => {}
    }
}

/// A catalog entry's size and seed, its command lines and the Run button (whether clicked).
fn entry_form(ui: &mut egui::Ui, entry: &LabEntry, state: &mut LabState) -> bool {
    ui.horizontal(|ui| {
        ui.label(entry.size_label);
        ui.add(egui::DragValue::new(&mut state.size).range(1..=1_000_000));
    });
    ui.horizontal(|ui| {
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut state.seed));
    });
    command_lines_ui(ui, "the same run from the command line", &entry.command_lines(state.size, state.seed));
    state.running.is_none() && ui.button("Run").clicked()
}

/// The command line to run, what the Lab runs, and the Run button (whether clicked).
fn command_line_form(ui: &mut egui::Ui, lines: &[LabCommand], state: &mut LabState) -> bool {
    ui.label("a batch command line, as a screen's panel shows it (its \"run in the Lab\" button fills it in):");
    ui.add(egui::TextEdit::multiline(&mut state.line).code_editor().desired_rows(4).desired_width(f32::INFINITY));
    for command in lines {
        ui.small(format!("asobi {} {}", command.game, command.subcommands));
    }
    state.running.is_none() && ui.add_enabled(!state.line.trim().is_empty(), egui::Button::new("Run")).clicked()
}

/// A run's share done and its counts ("12/100 trials"), or "starting" until the experiment
/// has set its total.
fn progress_text(progress: &SharedProgress, size_label: &str) -> (f32, String) {
    let (done, total) = (progress.done.load(Ordering::Relaxed), progress.total.load(Ordering::Relaxed));
    match total {
        0 => (0.0, "starting".into()),
        _ => (done as f32 / total as f32, format!("{done}/{total} {size_label}")),
    }
}

/// Shows the result, what `below_result` adds (the comparison) and the plots; returns the game
/// the user asked to open.
fn outcome_ui<'a>(
    ui: &mut egui::Ui,
    outcome: &'a LabOutcome,
    below_result: impl FnOnce(&mut egui::Ui),
) -> Option<(&'a Opener, usize)> {
    let mut picked = None;
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.heading("Result");
        ui.monospace(crate::lab::runner::text_report(&outcome.result, "the JSON below"));
        egui::CollapsingHeader::new("JSON (as `--json` prints it)").show(ui, |ui| {
            let json = outcome.result.to_string();
            if ui.small_button("copy").clicked() {
                ui.ctx().copy_text(json.clone());
            }
            ui.add(egui::Label::new(egui::RichText::new(json).monospace()).wrap());
        });
        below_result(ui);
        for (i, plot) in outcome.plots.iter().enumerate() {
            picked = picked.or(plot_ui(ui, i, plot));
        }
    });
    picked
}

/// Draws `plot`; returns the game picked (a scatter point clicked, a button), if any.
fn plot_ui<'a>(ui: &mut egui::Ui, index: usize, plot: &'a LabPlot) -> Option<(&'a Opener, usize)> {
    let id = format!("lab-plot-{index}");
    match plot {
        LabPlot::Histogram { title, values } => {
            histogram_ui(ui, id, title, values);
            None
        }
        LabPlot::Rates { title, bars } => {
            rates_ui(ui, id, title, bars);
            None
        }
        LabPlot::Scatter(scatter) => {
            let picked = scatter_ui(ui, id, scatter)?;
            Some((scatter.opener.as_ref()?, picked))
        }
        LabPlot::Picks(list) => {
            ui.add_space(6.0);
            ui.label(&list.title);
            let picked = list.groups.iter().filter_map(|(label, games)| pick_row(ui, label, games)).last();
            Some((&list.opener, picked?))
        }
    }
}

/// Buttons shown per group of games: a large run lists the rest as a count (a game screen's
/// own field deals any game of the batch).
const PICKS_SHOWN: usize = 60;

/// `label` and a button per game of `games` (the first [`PICKS_SHOWN`]); the game whose button
/// was clicked.
fn pick_row(ui: &mut egui::Ui, label: &str, games: &[usize]) -> Option<usize> {
    let mut picked = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("{label}:"));
        for &i in games.iter().take(PICKS_SHOWN) {
            if ui.small_button(format!("#{i}")).clicked() {
                picked = Some(i);
            }
        }
        if games.len() > PICKS_SHOWN {
            ui.label(format!("and {} more", games.len() - PICKS_SHOWN));
        }
    });
    picked
}

/// A bar per whole value of `values`, as high as the values that round to it.
fn histogram_ui(ui: &mut egui::Ui, id: String, title: &str, values: &[f64]) {
    ui.label(title);
    let mut counts = std::collections::BTreeMap::<i64, u32>::new();
    for v in values {
        *counts.entry(v.round() as i64).or_default() += 1;
    }
    let bars = counts.into_iter().map(|(x, n)| Bar::new(x as f64, n as f64).width(0.9)).collect();
    EguiPlot::new(id).height(220.0).show(ui, |p| p.bar_chart(BarChart::new(title.to_string(), bars)));
}

/// Named rates with their 95% intervals: listed, then drawn as bars with the interval's ends.
fn rates_ui(ui: &mut egui::Ui, id: String, title: &str, bars: &[(String, f64, [f64; 2])]) {
    ui.label(title);
    for (name, rate, [lo, hi]) in bars {
        ui.monospace(format!("{name}: {rate:.3} [{lo:.3}, {hi:.3}]"));
    }
    let chart = bars.iter().enumerate().map(|(i, (name, rate, _))| Bar::new(i as f64, *rate).name(name).width(0.6));
    let whiskers = bars.iter().enumerate().flat_map(|(i, (_, _, [lo, hi]))| [[i as f64, *lo], [i as f64, *hi]]);
    // Bars stand at 0, 1, 2, ...: the x axis names them there and nowhere else.
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    let bar_name = move |mark: GridMark, _: &std::ops::RangeInclusive<f64>| {
        let i = mark.value.round();
        let whole = (mark.value - i).abs() < 1e-9 && i >= 0.0;
        whole.then(|| names.get(i as usize).cloned()).flatten().unwrap_or_default()
    };
    EguiPlot::new(id)
        .height(220.0)
        .include_y(0.0)
        .include_y(1.0)
        .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        .x_axis_formatter(bar_name)
        .show(ui, |p| {
            p.bar_chart(BarChart::new(title.to_string(), chart.collect()));
            p.points(Points::new("95% interval", whiskers.collect::<Vec<_>>()).radius(3.0));
        });
}

/// Points in the unit square, the marked ones larger; with an opener, the index of the point
/// clicked (or picked from the list of marked ones).
fn scatter_ui(ui: &mut egui::Ui, id: String, scatter: &ScatterPlot) -> Option<usize> {
    let ScatterPlot { title, x_label, y_label, points, marked, marked_label, opener } = scatter;
    ui.label(title);
    if opener.is_some() {
        ui.small("click a point to open it");
    }
    let series = |want: bool| -> Vec<[f64; 2]> {
        points.iter().zip(marked).filter(|(_, m)| **m == want).map(|(p, _)| *p).collect()
    };
    // Both axes are rates in [0, 1]: an equal data aspect would waste most of the width.
    let shown = EguiPlot::new(id)
        .height(320.0)
        .x_axis_label(x_label.clone())
        .y_axis_label(y_label.clone())
        .include_x(0.0)
        .include_x(1.0)
        .include_y(0.0)
        .include_y(1.0)
        .legend(egui_plot::Legend::default().position(egui_plot::Corner::RightBottom))
        .show(ui, |p| {
            p.points(Points::new(title.clone(), series(false)).radius(3.0));
            p.points(Points::new(marked_label.clone(), series(true)).radius(4.5));
            for (at, count) in stacked_points(points) {
                let count = egui::RichText::new(format!(" ×{count}")).size(13.0);
                let label = Text::new("", PlotPoint::new(at[0], at[1]), count);
                p.text(label.anchor(egui::Align2::LEFT_BOTTOM).allow_hover(false));
            }
            p.pointer_coordinate()
        });
    if opener.is_none() {
        return None;
    }
    let mut picked = None;
    if shown.response.clicked() {
        picked = shown.inner.and_then(|at| nearest_point(points, [at.x, at.y], 0.04));
    }
    let listed: Vec<usize> = marked.iter().enumerate().filter(|(_, m)| **m).map(|(i, _)| i).collect();
    picked.or(pick_row(ui, marked_label, &listed))
}

/// The places that hold more than one point, with their counts, in the order of the points:
/// rates over a few plays take few values, so most instances of a map share a place.
fn stacked_points(points: &[[f64; 2]]) -> Vec<([f64; 2], usize)> {
    let mut places: Vec<([f64; 2], usize)> = Vec::new();
    for p in points {
        match places.iter_mut().find(|(at, _)| at == p) {
            Some((_, count)) => *count += 1,
            None => places.push((*p, 1)),
        }
    }
    places.retain(|&(_, count)| count > 1);
    places
}

/// Index of the point nearest `at`, if one lies within `radius`.
fn nearest_point(points: &[[f64; 2]], at: [f64; 2], radius: f64) -> Option<usize> {
    let dist = |p: &[f64; 2]| (p[0] - at[0]).hypot(p[1] - at[1]);
    let (i, p) = points.iter().enumerate().min_by(|a, b| dist(a.1).total_cmp(&dist(b.1)))?;
    (dist(p) <= radius).then_some(i)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use bevy::ecs::system::RunSystemOnce;

    use super::*;

    fn echo(size: u64, seed: u64, _: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
        let result = serde_json::json!({ "size": size, "seed": seed });
        Ok(Some(LabOutcome { parts: vec![result.clone()], result, plots: Vec::new(), records: None }))
    }

    fn world(demo: bool) -> World {
        let entry = LabEntry {
            game: Screen::Puyo,
            name: "echo",
            size_label: "games",
            default_size: 7,
            commands: &["asobi echo --games {size} --seed {seed}"],
            run: echo,
        };
        let mut world = World::new();
        world.insert_resource(DemoMode(demo));
        world.insert_resource(LabState::default());
        world.insert_resource(LabCatalog(vec![entry]));
        world
    }

    #[test]
    fn the_demo_runs_the_first_experiment_at_its_default_size() {
        let mut world = world(true);
        world.run_system_once(start_demo_run).expect("system runs");
        let start = Instant::now();
        while world.resource::<LabState>().outcome.is_none() {
            assert!(start.elapsed() < Duration::from_secs(10), "the run never finished");
            std::thread::sleep(Duration::from_millis(1));
            world.run_system_once(collect_finished_run).expect("system runs");
        }
        let state = world.resource::<LabState>();
        assert_eq!(state.selected, Some(Pick::Entry(0)));
        let outcome = state.outcome.as_ref().expect("checked above").as_ref().expect("the run succeeds");
        assert_eq!(outcome.result, serde_json::json!({ "size": 7, "seed": 1 }));
    }

    #[test]
    fn a_command_line_carries_the_forms_size_and_seed() {
        let world = world(false);
        let entry = &world.resource::<LabCatalog>().0[0];
        assert_eq!(entry.command_lines(250, 9), vec!["asobi echo --games 250 --seed 9"]);
    }

    #[test]
    fn without_the_demo_the_lab_waits_for_a_pick() {
        let mut world = world(false);
        world.run_system_once(start_demo_run).expect("system runs");
        let state = world.resource::<LabState>();
        assert!(state.running.is_none() && state.selected.is_none());
    }

    fn echo_words(words: &[String]) -> anyhow::Result<LabJob> {
        anyhow::ensure!(words.first().is_some_and(|w| w == "run"), "echo runs only `run`");
        let words = words.to_vec();
        let run: RunFn = Box::new(move |_| {
            let result = serde_json::json!(words);
            Ok(Some(LabOutcome { parts: vec![result.clone()], result, plots: Vec::new(), records: None }))
        });
        Ok(LabJob { size_label: "echoes", run })
    }

    /// A command line reaches its game's runner as a shell splits it, with or without `asobi`;
    /// a line the Lab cannot run says why.
    #[test]
    fn a_command_line_runs_through_its_games_runner() {
        let echo = [LabCommand { game: "echo", subcommands: "run", job: echo_words }];
        let outcome = |line: &str| {
            let job = command_line_job(&echo, line).map_err(|e| e.to_string())?;
            Ok::<_, String>((job.run)(&SharedProgress::default()).unwrap().unwrap().result)
        };
        assert_eq!(
            outcome("asobi echo run --p1-options '--depth 2'"),
            Ok(serde_json::json!(["run", "--p1-options", "--depth 2"]))
        );
        assert_eq!(outcome("  echo run  "), Ok(serde_json::json!(["run"])));
        assert_eq!(outcome("asobi echo walk"), Err("echo runs only `run`".to_string()));
        let unknown = outcome("asobi puyo versus").unwrap_err();
        assert!(unknown.contains("the Lab runs asobi echo run") && unknown.contains("`asobi puyo ...`"), "{unknown}");
        assert!(outcome("asobi").unwrap_err().starts_with("no command line"));
        assert!(outcome("asobi echo run 'open").unwrap_err().contains("unbalanced quotes"));
    }

    /// A screen's "run in the Lab" puts the form on the line and runs it; while a run is in
    /// flight it only fills the form in.
    #[test]
    fn a_requested_line_fills_the_form_and_runs() {
        let echo = [LabCommand { game: "echo", subcommands: "run", job: echo_words }];
        let mut state = LabState::default();
        open_command_line(&mut state, &echo, "asobi echo run now".into());
        assert_eq!((state.selected, state.line.as_str()), (Some(Pick::CommandLine), "asobi echo run now"));
        let run = state.running.take().expect("the line runs at once");
        let outcome = run.handle.join().unwrap().unwrap().expect("not cancelled");
        assert_eq!(outcome.result, serde_json::json!(["run", "now"]));
        assert_eq!((run.title.as_str(), run.size_label), ("asobi echo run now", "echoes"));
        open_command_line(&mut state, &echo, "asobi echo run again".into());
        open_command_line(&mut state, &echo, "asobi echo run later".into());
        assert_eq!(state.line, "asobi echo run later", "the form holds the last line asked for");
        assert_eq!(state.running.take().unwrap().title, "asobi echo run again", "the run in flight is kept");
    }

    #[test]
    fn stacked_points_counts_the_places_shared_by_several_points() {
        let points = [[1.0, 1.0], [0.5, 1.0], [1.0, 1.0], [0.0, 0.5], [0.5, 1.0], [1.0, 1.0]];
        assert_eq!(stacked_points(&points), vec![([1.0, 1.0], 3), ([0.5, 1.0], 2)]);
    }
}
