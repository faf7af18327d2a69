//! AI decisions run as background tasks: results arrive, a panicking AI is reported, the app
//! keeps updating.

use std::time::{Duration, Instant};

use asobi::app::ai_task::{AiJob, AiStatus};
use bevy::prelude::*;

#[derive(Resource, Default)]
struct Job(AiJob<u32>);

/// Updates the app until the job is no longer thinking; returns what it delivered.
fn run_until_done(app: &mut App) -> Option<u32> {
    let start = Instant::now();
    loop {
        app.update();
        let mut job = app.world_mut().resource_mut::<Job>();
        if let Some(v) = job.0.poll() {
            return Some(v);
        }
        if !job.0.is_thinking() {
            return None;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "job never finished");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).init_resource::<Job>();
    app
}

#[test]
fn a_decision_arrives_from_the_background() {
    let mut app = app();
    app.world_mut().resource_mut::<Job>().0.start(|| 6 * 7);
    assert_eq!(run_until_done(&mut app), Some(42));
    assert_eq!(*app.world().resource::<Job>().0.status(), AiStatus::Idle);
}

#[test]
fn a_panicking_ai_is_reported_and_the_app_goes_on() {
    let mut app = app();
    app.world_mut().resource_mut::<Job>().0.start(|| panic!("template table is empty"));
    assert_eq!(run_until_done(&mut app), None);
    let status = app.world().resource::<Job>().0.status().clone();
    assert_eq!(status, AiStatus::Failed("template table is empty".into()));
    // The app still runs frames and can start the next decision.
    app.update();
    let mut job = app.world_mut().resource_mut::<Job>();
    job.0.clear_failure();
    job.0.start(|| 1);
    assert_eq!(run_until_done(&mut app), Some(1));
}

#[test]
fn a_cancelled_decision_is_never_delivered() {
    let mut app = app();
    let mut job = app.world_mut().resource_mut::<Job>();
    job.0.start(|| {
        std::thread::sleep(Duration::from_millis(50));
        7
    });
    job.0.cancel();
    assert!(!job.0.is_thinking());
    assert_eq!(run_until_done(&mut app), None);
}
