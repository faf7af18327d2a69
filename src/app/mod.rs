//! The desktop program: Bevy draws the boards, egui the panels. One plugin per screen; the
//! game plugins only read and write their game's state through `crate::games`.

pub mod ai_task;
pub mod calculation;
mod lab_compare;
pub mod lab_screen;
pub mod labyrinth;
pub mod menu;
pub mod nazo;
pub mod panel;
pub mod puyo;
mod puyo_board;
pub mod screenshot;
pub mod shanghai;

use std::cell::Cell;
use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

/// The screens of the program, one Bevy state each.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Screen {
    /// The main menu.
    #[default]
    Menu,
    /// Puyo Puyo: endless and versus boards.
    Puyo,
    /// Nazo Puyo: puzzles, solver and generator.
    Nazo,
    /// Calculation solitaire: play with the AI's estimates, or watch it.
    #[value(name = "calc")]
    Calculation,
    /// Labyrinth: play the bots or watch them.
    Labyrinth,
    /// Shanghai: play, or watch the virtual player.
    Shanghai,
    /// The Lab: the experiments with progress and plots.
    Lab,
}

impl Screen {
    /// The game screens in menu order.
    pub const GAMES: [Screen; 5] =
        [Screen::Puyo, Screen::Nazo, Screen::Calculation, Screen::Labyrinth, Screen::Shanghai];

    /// The name shown in the menu and the panel.
    pub fn title(self) -> &'static str {
        match self {
            Screen::Menu => "Menu",
            Screen::Puyo => "Puyo Puyo",
            Screen::Nazo => "Nazo Puyo",
            Screen::Calculation => "Calculation",
            Screen::Labyrinth => "Labyrinth",
            Screen::Shanghai => "Shanghai",
            Screen::Lab => "Lab",
        }
    }

    /// One line on what the screen offers, shown in the menu.
    pub fn blurb(self) -> &'static str {
        match self {
            Screen::Menu => "",
            Screen::Puyo => "Chain-building AI from relation-matrix templates and potential maximization; versus play.",
            Screen::Nazo => "Puzzle solver and a generator of artistic puzzles using garbage puyos.",
            Screen::Calculation => "Card solitaire played from exhaustive stack-game probability tables.",
            Screen::Labyrinth => "The sliding-maze board game: Big Brain, Saboteur and five heuristic bots.",
            Screen::Shanghai => "Mahjong solitaire: imperfect-information player and skill-testing instances.",
            Screen::Lab => "Run the papers' experiments with progress, result tables and plots.",
        }
    }
}

/// The screens whose plugin is part of this build; the menu greys out the others.
#[derive(Resource, Debug, Default)]
pub struct BuiltScreens(pub Vec<Screen>);

/// Marks a game's screen as built (the menu opens it) and adds its experiments to the Lab.
pub fn register_game_screen(app: &mut App, screen: Screen, lab_entries: Vec<lab_screen::LabEntry>) {
    app.world_mut().resource_mut::<BuiltScreens>().0.push(screen);
    lab_screen::register_lab_experiments(app, lab_entries);
}

/// `--demo`: game screens start with AIs in every seat, and the Lab runs its first experiment.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct DemoMode(pub bool);

/// How the window is opened.
#[derive(Debug, Clone, Default)]
pub struct AppOptions {
    /// The screen to open.
    pub screen: Screen,
    /// Start with AIs in every seat (spectator mode).
    pub demo: bool,
    /// Save a PNG of the window after this many frames, then exit.
    pub screenshot: Option<(PathBuf, u32)>,
    /// With a screenshot: screens shown in turn before `screen`, as many frames each.
    pub visit: Vec<Screen>,
}

/// What to do when the window or the renderer cannot start.
const START_HINT: &str = "the window needs an X11 display and a Vulkan driver; on a machine without \
     them run it under `xvfb-run -a` with Mesa's mesa-vulkan-drivers installed. The command line \
     needs neither: see `asobi --help`";

/// Opens the window and runs until it is closed. Bevy panics while it builds its plugins when
/// there is no display or no GPU driver; that is an error here, with the panic's message.
pub fn run(options: AppOptions) -> Result<AppExit, String> {
    let mut app = quiet_catch(|| build(options))
        .map_err(|panic| format!("the desktop app could not start: {panic}\n({START_HINT})"))?;
    Ok(app.run())
}

/// Runs `f`; a panic in it becomes its message, and the panic hook prints nothing for it.
/// Only this thread's panics are kept quiet (the flag is thread-local), and only while `f`
/// runs. The hook stays in place afterwards and passes every panic on to the one before it:
/// Bevy wraps the current hook in its own while it builds its plugins, so putting the old one
/// back would drop Bevy's.
fn quiet_catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    thread_local! {
        static QUIET: Cell<bool> = const { Cell::new(false) };
    }
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !QUIET.get() {
            previous_hook(info);
        }
    }));
    QUIET.set(true);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.set(false);
    result.map_err(ai_task::panic_message)
}

/// The app with every plugin added, ready to run.
fn build(options: AppOptions) -> App {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "asobi".into(),
            resolution: WindowResolution::new(1280, 800),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(panel::BACKGROUND))
    .insert_resource(DemoMode(options.demo))
    .init_resource::<BuiltScreens>()
    .insert_state(options.visit.first().copied().unwrap_or(options.screen))
    .add_plugins((panel::PanelPlugin, menu::MenuPlugin, lab_screen::LabPlugin))
    .add_plugins((puyo::PuyoPlugin, nazo::NazoPlugin, calculation::CalculationPlugin))
    .add_plugins((labyrinth::LabyrinthPlugin, shanghai::ShanghaiPlugin))
    .add_systems(Startup, spawn_camera);
    if let Some((path, frames)) = options.screenshot {
        let then = match options.visit.split_first() {
            Some((_, rest)) => rest.iter().copied().chain([options.screen]).collect(),
            None => Default::default(),
        };
        app.add_plugins(screenshot::ScreenshotPlugin { path, frames, then });
    }
    app
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn(Camera2d);
}

/// Tests: runs a screen's `system` on a world holding `screen`, with the clock one second on
/// at every run (so animations and AI pacing never hold it up) and the AI jobs on the task
/// pool, until `done` says so; `done` sees the screen after every run.
#[cfg(test)]
pub(crate) fn drive_screen<R: Resource, M>(
    screen: R,
    system: impl IntoSystem<(), (), M> + Copy,
    mut done: impl FnMut(&R) -> bool,
) -> World {
    use bevy::ecs::system::RunSystemOnce;
    use std::time::Duration;
    bevy::tasks::AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::default);
    let mut world = World::new();
    world.insert_resource(Time::<()>::default());
    world.insert_resource(screen);
    for _ in 0..200_000 {
        if done(world.resource::<R>()) {
            return world;
        }
        world.resource_mut::<Time>().advance_by(Duration::from_secs(1));
        world.run_system_once(system).expect("the screen's system runs");
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the screen did not get there");
}
