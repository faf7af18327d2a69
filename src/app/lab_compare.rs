//! The Lab's paired comparison: a finished run kept as the baseline, and a later run of the
//! same experiment and seed compared with it game by game on a record field. It is `asobi
//! compare` on the two runs' `--json --records` results, without the files.

use bevy_egui::egui;
use serde_json::{Map, Value};

use super::lab_screen::LabOutcome;
use crate::lab::compare::{Field, Test, compare};
use crate::lab::runner::text_report;

/// A finished run kept to compare later runs with.
struct Baseline {
    /// Which run of the session it was (a run is not compared with itself).
    run: u64,
    /// What it ran ("Puyo Puyo: endless: ..." or its command line).
    title: String,
    /// Its JSON result with its records.
    result: Map<String, Value>,
}

/// The baseline and the comparison the form asks for.
#[derive(Default)]
pub struct CompareState {
    baseline: Option<Baseline>,
    /// The record field compared.
    field: String,
    /// Compare whether the field is above this number instead of its value.
    over: Option<f64>,
    /// The last comparison's result, or why it failed.
    shown: Option<Result<Value, String>>,
}

/// The result of a finished run as `--json --records` prints it, if it is one experiment's run.
fn with_records(outcome: &LabOutcome) -> Option<Map<String, Value>> {
    let (Value::Object(result), Some(records)) = (&outcome.result, &outcome.records) else { return None };
    let mut result = result.clone();
    result.insert("records".into(), records.clone());
    Some(result)
}

/// The fields of the run's first record that a comparison reads as they are: numbers and
/// booleans.
fn comparable_fields(records: &Value) -> Vec<String> {
    let first = records.as_array().and_then(|pairs| pairs.first()).and_then(|pair| pair.get(1));
    let Some(Value::Object(record)) = first else { return Vec::new() };
    record.iter().filter(|(_, v)| v.is_number() || v.is_boolean()).map(|(k, _)| k.clone()).collect()
}

/// `outcome` compared with `baseline` on `field`, or why the two cannot be compared.
fn compare_runs(baseline: &Baseline, outcome: &Map<String, Value>, field: &Field) -> Result<Value, String> {
    let experiment = |result: &Map<String, Value>| result.get("experiment").cloned().unwrap_or_default();
    if experiment(&baseline.result) != experiment(outcome) {
        return Err(format!(
            "the baseline is a {} run, this one a {} run: compare runs of one experiment",
            experiment(&baseline.result),
            experiment(outcome)
        ));
    }
    let files = [("the baseline".to_string(), baseline.result.clone()), ("this run".to_string(), outcome.clone())];
    let name = experiment(outcome).as_str().unwrap_or_default().to_string();
    compare(&files, &name, field).map_err(|e| format!("{e:#}"))
}

/// The comparison section under a finished run (`run`: its number in the session, `title`:
/// what it ran).
pub fn compare_ui(ui: &mut egui::Ui, outcome: &LabOutcome, run: u64, title: &str, state: &mut CompareState) {
    let Some(result) = with_records(outcome) else { return };
    ui.add_space(8.0);
    ui.label(egui::RichText::new("Compare with a baseline, game by game").strong());
    match &state.baseline {
        Some(baseline) if baseline.run == run => {
            ui.label("this run is the baseline: run a variant on the same seed, then compare it here");
        }
        Some(baseline) => {
            ui.label(format!("baseline: {}", baseline.title));
            compare_form(ui, outcome, state);
            if ui.button("Compare").clicked() {
                let baseline = state.baseline.as_ref().expect("matched above");
                let test = state.over.map_or(Test::Value, Test::Over);
                let field = Field { path: state.field.clone(), test };
                state.shown = Some(compare_runs(baseline, &result, &field));
            }
            match &state.shown {
                Some(Ok(shown)) => {
                    ui.monospace(text_report(shown, ""));
                }
                Some(Err(why)) => {
                    ui.colored_label(egui::Color32::from_rgb(230, 90, 80), why);
                }
                None => {}
            }
        }
        None => {
            ui.label("keep this run as the baseline, then run a variant of it on the same seed");
        }
    }
    if state.baseline.as_ref().is_none_or(|b| b.run != run) && ui.button("keep this run as the baseline").clicked() {
        state.baseline = Some(Baseline { run, title: title.to_string(), result });
        state.shown = None;
    }
}

/// The field to compare and whether to count it over a threshold.
fn compare_form(ui: &mut egui::Ui, outcome: &LabOutcome, state: &mut CompareState) {
    let fields = outcome.records.as_ref().map(comparable_fields).unwrap_or_default();
    if !fields.contains(&state.field) {
        state.field = fields.first().cloned().unwrap_or_default();
    }
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("record field").selected_text(&state.field).show_ui(ui, |ui| {
            for field in &fields {
                ui.selectable_value(&mut state.field, field.clone(), field);
            }
        });
    });
    ui.horizontal(|ui| {
        let mut over = state.over.is_some();
        ui.checkbox(&mut over, "count it above");
        let mut limit = state.over.unwrap_or(30.0);
        ui.add_enabled(over, egui::DragValue::new(&mut limit));
        state.over = over.then_some(limit);
    });
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn outcome(experiment: &str, seed: u64, moves: &[u64]) -> LabOutcome {
        let result = json!({ "experiment": experiment, "seed": seed, "games": moves.len() });
        let records: Vec<Value> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| json!([i, { "moves": m, "completed": true, "template": "x" }]))
            .collect();
        LabOutcome { parts: vec![result.clone()], result, plots: Vec::new(), records: Some(Value::Array(records)) }
    }

    fn baseline(outcome: &LabOutcome) -> Baseline {
        Baseline { run: 1, title: "base".into(), result: with_records(outcome).expect("one run") }
    }

    #[test]
    fn a_run_is_compared_with_the_baseline_game_by_game() {
        let base = baseline(&outcome("puyo.build", 3, &[20, 25, 31, 40]));
        let variant = with_records(&outcome("puyo.build", 3, &[20, 22, 29, 35])).unwrap();
        let moves = Field { path: "moves".into(), test: Test::Value };
        let shown = compare_runs(&base, &variant, &moves).unwrap();
        assert_eq!((&shown["pairs"], &shown["base_higher"], &shown["equal"]), (&json!(4), &json!(3), &json!(1)));
        assert_eq!(shown["difference"], json!(-2.5));
        let over = Field { path: "moves".into(), test: Test::Over(30.0) };
        let shown = compare_runs(&base, &variant, &over).unwrap();
        assert_eq!((&shown["base_mean"], &shown["variant_mean"]), (&json!(0.5), &json!(0.25)));
    }

    #[test]
    fn runs_of_another_experiment_or_seed_are_not_compared() {
        let base = baseline(&outcome("puyo.build", 3, &[20, 25]));
        let moves = Field { path: "moves".into(), test: Test::Value };
        let other = with_records(&outcome("puyo.endless", 3, &[20, 25])).unwrap();
        assert!(compare_runs(&base, &other, &moves).unwrap_err().contains("compare runs of one experiment"));
        let reseeded = with_records(&outcome("puyo.build", 4, &[20, 25])).unwrap();
        assert!(compare_runs(&base, &reseeded, &moves).unwrap_err().contains("seed 4 differs"));
    }

    #[test]
    fn the_fields_offered_are_the_numbers_and_booleans_of_a_record() {
        let runs = outcome("puyo.build", 3, &[20]);
        assert_eq!(comparable_fields(runs.records.as_ref().unwrap()), vec!["completed", "moves"]);
        let several = LabOutcome { records: None, ..outcome("calc.play", 1, &[1]) };
        assert!(with_records(&several).is_none(), "an outcome of several runs has no records to compare");
    }
}
