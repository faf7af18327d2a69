//! Screenshot mode (`--screenshot FILE --frames N`): after N frames, save a PNG of the
//! window and exit; used for documentation and the CI smoke test. With `--visit`, the
//! screens listed are shown first, N frames each.

use std::collections::VecDeque;
use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use super::Screen;

/// Saves a PNG of the window after some frames, then exits (`--screenshot`).
pub struct ScreenshotPlugin {
    /// Where the PNG goes.
    pub path: PathBuf,
    /// Frames to wait before each screen's picture.
    pub frames: u32,
    /// Screens to switch to in turn, each after `frames` frames; the picture is taken on the
    /// last one.
    pub then: VecDeque<Screen>,
}

#[derive(Resource)]
struct Pending {
    path: PathBuf,
    frames: u32,
    frames_left: u32,
    then: VecDeque<Screen>,
    requested: bool,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Pending {
            path: self.path.clone(),
            frames: self.frames,
            frames_left: self.frames,
            then: self.then.clone(),
            requested: false,
        })
        .add_systems(Update, count_frames);
    }
}

fn count_frames(mut commands: Commands, mut pending: ResMut<Pending>, mut next: ResMut<NextState<Screen>>) {
    if pending.requested {
        return;
    }
    if pending.frames_left > 0 {
        pending.frames_left -= 1;
        return;
    }
    if let Some(screen) = pending.then.pop_front() {
        next.set(screen);
        pending.frames_left = pending.frames;
        return;
    }
    pending.requested = true;
    let path = pending.path.clone();
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| match save_png(&captured.image, &path)
        {
            Ok(()) => {
                info!("screenshot saved to {}", path.display());
                exit.write(AppExit::Success);
            }
            Err(e) => {
                error!("cannot save screenshot {}: {e}", path.display());
                exit.write(AppExit::error());
            }
        },
    );
}

/// Writes the captured frame as an RGB PNG, atomically.
fn save_png(image: &Image, path: &std::path::Path) -> anyhow::Result<()> {
    let rgb = image.clone().try_into_dynamic()?.to_rgb8();
    let mut bytes = Vec::new();
    rgb.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)?;
    crate::lab::runner::write_atomic(path, &bytes)
}
