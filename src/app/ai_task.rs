//! AI decisions as background tasks on Bevy's `AsyncComputeTaskPool`: the frame never waits
//! on an AI. A job that panics becomes an error shown in the panel (the app keeps running);
//! dropping or cancelling a job cancels its task (new game, leaving the screen).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use bevy_egui::egui;

/// What a job is doing, for the panel.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum AiStatus {
    /// No job running.
    #[default]
    Idle,
    /// A job is running.
    Thinking,
    /// The last job panicked; the message is the panic's.
    Failed(String),
}

/// One AI decision at a time, run off the main thread.
pub struct AiJob<T> {
    /// The decision and how long it took to compute, or the panic's message.
    task: Option<Task<Result<(T, Duration), String>>>,
    started: Option<Instant>,
    status: AiStatus,
    /// How long the last finished job computed (not counting the wait for the frame that
    /// collected it).
    last_duration: Option<Duration>,
}

impl<T> Default for AiJob<T> {
    fn default() -> Self {
        AiJob { task: None, started: None, status: AiStatus::Idle, last_duration: None }
    }
}

impl<T: Send + 'static> AiJob<T> {
    /// Starts `decide` in the background, cancelling a job still running.
    pub fn start(&mut self, decide: impl FnOnce() -> T + Send + 'static) {
        let pool = AsyncComputeTaskPool::get();
        let timed = move || {
            let start = Instant::now();
            let decision = decide();
            (decision, start.elapsed())
        };
        self.task = Some(pool.spawn(async move { catch_unwind(AssertUnwindSafe(timed)).map_err(panic_message) }));
        self.started = Some(Instant::now());
        self.status = AiStatus::Thinking;
    }

    /// The job's result once it is done (once); `None` while thinking or idle.
    pub fn poll(&mut self) -> Option<T> {
        let task = self.task.as_mut()?;
        if !task.is_finished() {
            return None;
        }
        let result = block_on(poll_once(task)).expect("a finished task is ready");
        self.task = None;
        self.started = None;
        match result {
            Ok((value, took)) => {
                self.status = AiStatus::Idle;
                self.last_duration = Some(took);
                Some(value)
            }
            Err(message) => {
                self.status = AiStatus::Failed(message);
                None
            }
        }
    }

    /// Drops the running job, if any; its result is never delivered.
    pub fn cancel(&mut self) {
        self.task = None;
        self.started = None;
        if self.status == AiStatus::Thinking {
            self.status = AiStatus::Idle;
        }
    }
}

impl<T> AiJob<T> {
    /// What the job is doing.
    pub fn status(&self) -> &AiStatus {
        &self.status
    }

    /// Whether a job is running.
    pub fn is_thinking(&self) -> bool {
        self.status == AiStatus::Thinking
    }

    /// Clears a failure so a new job can be started deliberately.
    pub fn clear_failure(&mut self) {
        if matches!(self.status, AiStatus::Failed(_)) {
            self.status = AiStatus::Idle;
        }
    }

    /// A line for the panel: thinking time, the last decision's duration, or the error.
    pub fn status_ui(&self, ui: &mut egui::Ui) {
        match &self.status {
            AiStatus::Thinking => {
                let secs = self.started.map(|t| t.elapsed().as_secs_f32()).unwrap_or(0.0);
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("thinking… {secs:.1} s"));
                });
            }
            AiStatus::Idle => {
                let last = self.last_duration.map(|d| format!("last decision {:.1} ms", d.as_secs_f64() * 1000.0));
                ui.label(last.unwrap_or_else(|| "idle".into()));
            }
            AiStatus::Failed(message) => {
                ui.colored_label(egui::Color32::from_rgb(230, 90, 80), format!("AI failed: {message}"));
            }
        }
    }
}

/// The message a panic was raised with.
pub(crate) fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The panel's "last decision" is the decision's own time: a frame that collects it late
    /// (the software renderer draws one every 50 ms or so) does not add its wait.
    #[test]
    fn the_time_shown_is_the_decisions_not_the_wait_for_the_frame() {
        AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::default);
        let mut job = AiJob::default();
        job.start(|| 7);
        std::thread::sleep(Duration::from_millis(300));
        let mut delivered = job.poll();
        for _ in 0..10_000 {
            if delivered.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
            delivered = job.poll();
        }
        assert_eq!(delivered, Some(7));
        let took = job.last_duration.expect("a finished job has a duration");
        assert!(took < Duration::from_millis(200), "an instant decision shows as {took:?}");
    }
}
