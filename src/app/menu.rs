//! The main menu: the five games and the Lab, with a board-game backdrop drawn by Bevy.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{BuiltScreens, Screen};
use crate::games::puyo::rules::{MAX_COLORS, Puyo};

/// The main menu.
pub struct MenuPlugin;

impl Plugin for MenuPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Menu), spawn_backdrop)
            .add_systems(Update, drift_backdrop.run_if(in_state(Screen::Menu)))
            .add_systems(EguiPrimaryContextPass, menu_ui.run_if(in_state(Screen::Menu)));
    }
}

/// A decorative piece of the backdrop that bobs gently.
#[derive(Component)]
struct Drift {
    home: Vec3,
    phase: f32,
}

/// The backdrop's colours: the five puyo colours.
fn backdrop_color(i: usize) -> Color {
    super::puyo::puyo_color(Puyo::color(i % MAX_COLORS))
}

fn spawn_backdrop(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let circle = meshes.add(Circle::new(22.0));
    // Two rows of puyos along the bottom, a column of tiles on each side.
    for i in 0..24 {
        let color = backdrop_color(i * 7 + i / 3);
        let x = -575.0 + i as f32 * 50.0;
        let y = -350.0 + if i % 2 == 0 { 0.0 } else { 18.0 };
        let home = Vec3::new(x, y, 0.0);
        commands.spawn((
            Mesh2d(circle.clone()),
            MeshMaterial2d(materials.add(color)),
            Transform::from_translation(home),
            Drift { home, phase: i as f32 * 0.7 },
            DespawnOnExit(Screen::Menu),
        ));
    }
    for side in [-1.0f32, 1.0] {
        for j in 0..6 {
            let home = Vec3::new(side * 560.0, 260.0 - j as f32 * 70.0, 0.0);
            commands.spawn((
                Sprite::from_color(Color::srgb(0.93, 0.90, 0.80), Vec2::new(44.0, 60.0)),
                Transform::from_translation(home),
                Drift { home, phase: j as f32 * 1.3 + side },
                DespawnOnExit(Screen::Menu),
            ));
            commands.spawn((
                Sprite::from_color(backdrop_color(j), Vec2::new(20.0, 20.0)),
                Transform::from_translation(home + Vec3::Z),
                Drift { home: home + Vec3::Z, phase: j as f32 * 1.3 + side },
                DespawnOnExit(Screen::Menu),
            ));
        }
    }
}

fn drift_backdrop(time: Res<Time>, mut pieces: Query<(&Drift, &mut Transform)>) {
    let t = time.elapsed_secs();
    for (drift, mut transform) in &mut pieces {
        transform.translation = drift.home + Vec3::new(0.0, 4.0 * (t * 1.5 + drift.phase).sin(), 0.0);
    }
}

fn menu_ui(mut contexts: EguiContexts, built: Res<BuiltScreens>, mut next: ResMut<NextState<Screen>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Area::new("main-menu".into()).anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, -40.0)).show(ctx, |ui| {
        egui::Frame::window(ui.style()).inner_margin(24.0).show(ui, |ui| {
            ui.set_width(560.0);
            ui.vertical_centered(|ui| {
                ui.heading(egui::RichText::new("asobi").size(40.0).strong());
                ui.label("a game-AI lab: play, watch the AIs, tune them, reproduce the papers");
            });
            ui.add_space(16.0);
            for screen in Screen::GAMES.into_iter().chain([Screen::Lab]) {
                menu_entry(ui, screen, built.0.contains(&screen), &mut next);
                ui.add_space(6.0);
            }
        });
    });
    Ok(())
}

/// One menu line; a screen not built yet is shown greyed out and says so.
fn menu_entry(ui: &mut egui::Ui, screen: Screen, built: bool, next: &mut NextState<Screen>) {
    ui.add_enabled_ui(built, |ui| {
        ui.horizontal(|ui| {
            let button =
                egui::Button::new(egui::RichText::new(screen.title()).size(18.0)).min_size(egui::vec2(150.0, 36.0));
            if ui.add(button).clicked() {
                next.set(screen);
            }
            let blurb = if built { screen.blurb().to_string() } else { format!("not built yet: {}", screen.blurb()) };
            ui.add(egui::Label::new(blurb).wrap());
        });
    });
}
