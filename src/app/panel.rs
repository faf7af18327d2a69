//! The frame every screen shares: colours, the egui side panel that game screens fill, and
//! the part of the window left for the board.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::lab_screen::request_lab_run;

/// Window background behind boards.
pub const BACKGROUND: Color = Color::srgb(0.09, 0.10, 0.13);

/// Width of the side panel in logical pixels.
pub const PANEL_WIDTH: f32 = 340.0;

/// Whether a panel field is being typed in: the keys are not moves on the board.
pub fn panel_has_keyboard(contexts: &mut EguiContexts) -> bool {
    contexts.ctx_mut().is_ok_and(|ctx| ctx.egui_wants_keyboard_input())
}

/// Whether the pointer is over a panel or an open pop-up: a click there is not on the board.
pub fn panel_has_pointer(contexts: &mut EguiContexts) -> bool {
    contexts.ctx_mut().is_ok_and(|ctx| ctx.egui_wants_pointer_input())
}

/// The part of the window not covered by the side panel, in world coordinates of the 2D
/// camera (origin at the window centre, y up). Boards centre themselves in it.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct BoardArea {
    /// Its centre.
    pub center: Vec2,
    /// Its width and height.
    pub size: Vec2,
}

impl Default for BoardArea {
    fn default() -> Self {
        BoardArea { center: Vec2::ZERO, size: Vec2::new(1280.0, 800.0) }
    }
}

impl BoardArea {
    /// The largest scale at which content of `content` size fits with a margin.
    pub fn fit_scale(&self, content: Vec2) -> f32 {
        let margin = 0.92;
        (self.size.x * margin / content.x).min(self.size.y * margin / content.y)
    }
}

/// The side panel's layout and the board area it leaves.
pub struct PanelPlugin;

impl Plugin for PanelPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<BoardArea>()
            .add_systems(EguiPrimaryContextPass, style_egui.run_if(run_once))
            .add_systems(Update, track_board_area);
    }
}

/// Keeps [`BoardArea`] equal to the window minus the side panel (none on the menu).
fn track_board_area(
    window: Single<&Window, With<PrimaryWindow>>,
    screen: Res<State<Screen>>,
    mut area: ResMut<BoardArea>,
) {
    let panel = if *screen.get() == Screen::Menu { 0.0 } else { PANEL_WIDTH };
    let size = Vec2::new((window.width() - panel).max(1.0), window.height());
    let center = Vec2::new(panel / 2.0, 0.0);
    let next = BoardArea { center, size };
    if *area != next {
        *area = next;
    }
}

fn style_egui(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    ctx.set_visuals(egui::Visuals::dark());
    Ok(())
}

/// The whole-window `Ui` that panels are laid out in (egui 0.36 shows panels inside a `Ui`).
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "asobi-root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// Draws a game screen's side panel: a way back to the menu, the title, then `contents`.
/// Returns the window's `Ui` with the panel's space taken, for a central panel beside it.
pub fn side_panel(
    ctx: &egui::Context,
    screen: Screen,
    next: &mut NextState<Screen>,
    contents: impl FnOnce(&mut egui::Ui),
) -> egui::Ui {
    let mut root = root_ui(ctx);
    egui::Panel::left("game-panel").exact_size(PANEL_WIDTH).resizable(false).show(&mut root, |ui| {
        ui.horizontal(|ui| {
            if ui.button("◀ Menu").clicked() {
                next.set(Screen::Menu);
            }
            ui.heading(screen.title());
        });
        ui.separator();
        egui::ScrollArea::vertical().show(ui, contents);
    });
    root
}

/// Starts a board redraw when its state asked for one (`redraw`) or the board area changed:
/// despawns the old pieces and returns true; false when the picture is still current.
pub fn clear_for_redraw<T: Component>(
    commands: &mut Commands,
    redraw: &mut bool,
    area: &Res<BoardArea>,
    pieces: &Query<Entity, With<T>>,
) -> bool {
    if !*redraw && !area.is_changed() {
        return false;
    }
    *redraw = false;
    for e in pieces {
        commands.entity(e).despawn();
    }
    true
}

/// Despawns a screen's board pieces (tagged `T`) as the screen is left, so that the next
/// screen starts on an empty window; the screen's redraw draws them again on its return.
pub fn despawn_pieces<T: Component>(mut commands: Commands, pieces: Query<Entity, With<T>>) {
    for e in &pieces {
        commands.entity(e).despawn();
    }
}

/// Spawns a line of board text (tagged `tag`, so the next redraw removes it).
pub fn spawn_text(commands: &mut Commands, tag: impl Component, text: String, at: Vec3, size: f32, color: Color) {
    commands.spawn((
        tag,
        Text2d::new(text),
        TextFont::from_font_size(size),
        TextColor(color),
        Transform::from_translation(at),
    ));
}

#[cfg(test)]
mod tests {
    use bevy::state::app::StatesPlugin;

    use super::*;

    #[derive(Component)]
    struct Piece;

    #[test]
    fn a_replay_line_is_the_first_moves_until_the_game_leaves_it() {
        let mut check = ReplayCheck::default();
        assert_eq!(check.line("now"), ("now", None), "before the first move: the panel's line");
        check.ai_moved("move 1".into(), "first".into());
        check.ai_moved("move 2".into(), "first".into());
        assert_eq!(check.line("now"), ("first", None), "the line the moves followed");
        check.ai_moved("move 3".into(), "second".into());
        check.leave("move 4".into(), "a person played it");
        check.ai_moved("move 5".into(), "third".into());
        assert_eq!(check.line("now"), ("first", Some("move 3: played with other settings")), "where it first left");

        let mut check = ReplayCheck::default();
        check.leave("move 1".into(), "a person played it");
        check.ai_moved("move 2".into(), "first".into());
        assert_eq!(check.line("now"), ("now", Some("move 1: a person played it")));

        let mut check = ReplayCheck::default();
        check.ai_moved("move 1".into(), "first".into());
        check.end();
        check.ai_moved("move 2".into(), "second".into());
        check.leave("move 3".into(), "a person played it");
        assert_eq!(check.line("now"), ("first", None), "moves past the line's game leave nothing");
    }

    #[test]
    fn leaving_a_screen_despawns_its_pieces_only() {
        let mut app = App::new();
        app.add_plugins(StatesPlugin).init_state::<Screen>();
        app.add_systems(OnExit(Screen::Menu), despawn_pieces::<Piece>);
        app.update();
        app.world_mut().spawn(Piece);
        let other = app.world_mut().spawn(Transform::default()).id();
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Puyo);
        app.update();
        assert_eq!(app.world_mut().query::<&Piece>().iter(app.world()).count(), 0);
        assert!(app.world().get_entity(other).is_ok());
    }
}

/// What a preset row's buttons asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresetRequest {
    /// Load the preset file.
    Load,
    /// Save to the preset file.
    Save,
}

/// Shell commands under a label, with a button that copies them: what a panel shows so that a
/// setting tried here can be run at scale from the command line.
pub fn command_lines_ui(ui: &mut egui::Ui, label: &str, lines: &[String]) {
    ui.horizontal(|ui| {
        ui.label(label);
        if ui.small_button("copy").clicked() {
            ui.ctx().copy_text(lines.join("\n"));
        }
    });
    for line in lines {
        ui.add(egui::Label::new(egui::RichText::new(line).monospace()).wrap());
    }
}

/// A batch command line under a label, with buttons that copy it and that run it in the Lab:
/// what a panel shows so that the settings tried here can be measured over many games.
pub fn batch_line_ui(ui: &mut egui::Ui, label: &str, line: &str) {
    ui.label(label);
    ui.add(egui::Label::new(egui::RichText::new(line).monospace()).wrap());
    ui.horizontal(|ui| {
        if ui.small_button("copy").clicked() {
            ui.ctx().copy_text(line.to_string());
        }
        if ui.small_button("run in the Lab").on_hover_text("the Lab opens and runs this line").clicked() {
            request_lab_run(ui.ctx(), line);
        }
    });
}

/// The settings of a screen (`S`) that deal a game of a Lab run: the Lab inserts it when a
/// game is picked, and the screen starts that game when it is entered.
#[derive(Resource)]
pub struct PickedGame<S: Send + Sync + 'static>(pub S);

/// On entering a screen: the game picked in the Lab, made by `picked_game` (the pick is taken),
/// else the screen's first game, made by `first_game`, when it holds none yet.
pub fn deal_on_entry<S: Send + Sync + 'static, G: Resource>(
    commands: &mut Commands,
    picked: Option<Res<PickedGame<S>>>,
    has_game: bool,
    picked_game: impl FnOnce(&S) -> G,
    first_game: impl FnOnce() -> G,
) {
    if let Some(PickedGame(settings)) = picked.as_deref() {
        commands.insert_resource(picked_game(settings));
        commands.remove_resource::<PickedGame<S>>();
    } else if !has_game {
        commands.insert_resource(first_game());
    }
}

/// Whether the game on a table is still the game its replay line (a `--trace` or `calc log`
/// command) plays from its start. The line follows the panel's settings, which may change
/// mid-game, so a screen notes each AI move with the line of that moment: the first move fixes
/// it; a later AI move under another line, a person's move or an undo leaves it, and the panel
/// says where.
#[derive(Debug, Default)]
pub struct ReplayCheck {
    /// The line the game's moves have followed since its first move.
    followed: Option<String>,
    /// Where and why the game left that line.
    left: Option<String>,
    /// The line's game has ended on the table (a Puyo endless trace at its first chain): later
    /// moves are past it.
    ended: bool,
}

impl ReplayCheck {
    /// An AI played the move named `at` (as the panel names moves) under the settings that
    /// `line` replays.
    pub fn ai_moved(&mut self, at: String, line: String) {
        match &self.followed {
            _ if self.left.is_some() || self.ended => {}
            None => self.followed = Some(line),
            Some(followed) if *followed == line => {}
            Some(_) => self.leave(at, "played with other settings"),
        }
    }

    /// The move named `at` is not one the line plays: a person's, an undo, or an AI's under
    /// settings no command line gives; `why` says which.
    pub fn leave(&mut self, at: String, why: &str) {
        if self.left.is_none() && !self.ended {
            self.left = Some(format!("{at}: {why}"));
        }
    }

    /// The line's game ends with the move just noted; the table plays on past it.
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// The line that replays the game on the table (the one its moves followed, `current`
    /// before the first move) and where the game left it.
    pub fn line<'a>(&'a self, current: &'a str) -> (&'a str, Option<&'a str>) {
        (self.followed.as_deref().unwrap_or(current), self.left.as_deref())
    }

    /// The replay line under `label`, as [`command_lines_ui`] shows lines, and a note where the
    /// game on the table left it.
    pub fn ui(&self, ui: &mut egui::Ui, label: &str, current: &str) {
        let (line, left) = self.line(current);
        command_lines_ui(ui, label, &[line.to_string()]);
        if let Some(left) = left {
            ui.small(format!("the game on the table left this line at {left}"));
        }
    }
}

/// A file path field with Load and Save buttons, for a preset that the command line reads
/// too; the request and the path when a button was pressed.
pub fn preset_row(ui: &mut egui::Ui, path: &mut String, hint: &str) -> Option<(PresetRequest, PathBuf)> {
    let (pressed, path) = path_row(ui, path, hint, &[("Load", ""), ("Save", "")])?;
    Some((if pressed == 0 { PresetRequest::Load } else { PresetRequest::Save }, path))
}

/// A file path field with `hint` and buttons after it (label, hover text or ""); the index of
/// the button pressed and the path typed, trimmed.
pub fn path_row(
    ui: &mut egui::Ui,
    path: &mut String,
    hint: &str,
    buttons: &[(&str, &str)],
) -> Option<(usize, PathBuf)> {
    let mut pressed = None;
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(path).hint_text(hint).desired_width(170.0));
        for (i, &(label, help)) in buttons.iter().enumerate() {
            let button = ui.button(label);
            let button = if help.is_empty() { button } else { button.on_hover_text(help) };
            if button.clicked() {
                pressed = Some(i);
            }
        }
    });
    pressed.map(|i| (i, PathBuf::from(path.trim())))
}
