//! The Puyo screen's AI panel: the template players' and potential maximization's settings,
//! what the templates see on the board (best template, conflicts), and the labeling-table
//! editor whose edited weights the AIs use from their next decision.

use std::path::Path;

use anyhow::Context;
use bevy_egui::egui;

use super::{PuyoGame, Seat, command_line_ui};
use crate::app::panel::path_row;
use crate::games::puyo::ai::labeling::WeightRule;
use crate::games::puyo::ai::potential::PotentialParams;
use crate::games::puyo::ai::template::{Template, group_sources, load_group};
use crate::games::puyo::ai::template_search::{Select, best_template};
use crate::games::puyo::ai::{AiKind, AiParams, CombinedPotential, Extension, Player};
use crate::games::puyo::level::TemplateFile;
use crate::games::puyo::rules::{Bits, Field};
use crate::lab::runner::write_ron;

/// The template panel's state: templates recompiled from edited weights, and what to show.
#[derive(Default)]
pub(super) struct TemplateEditor {
    /// The group edited: the edits apply to the players that play by it.
    pub(super) group: String,
    /// Template index in the group, its source file with the user's weight overrides.
    pub(super) edited: Vec<(usize, TemplateFile)>,
    /// The template shown in the panel.
    pub(super) selected: usize,
    /// Mark the cells of the inspected board that conflict with the nearest template (none
    /// while some template is free of conflicts).
    pub(super) show_conflicts: bool,
    /// The board whose cells are drawn as conflicting, and those cells.
    pub(super) conflict_cells: (usize, Bits),
    /// What the "save group" folder field holds.
    pub(super) save_folder: String,
}

/// Live template parameters, and what the templates see on the inspected board.
pub(super) fn template_ui(ui: &mut egui::Ui, game: &mut PuyoGame) {
    ui.label(egui::RichText::new("AI parameters").strong());
    let before = game.settings.params.clone();
    board_settings_ui(ui, game);
    let board = game.settings_board();
    template_group_ui(ui, game, board);
    ai_params_ui(ui, &mut game.settings.params[board]);
    if !game.settings.own_settings {
        game.settings.params[1] = game.settings.params[0].clone();
    }
    // Edits belong to one group: another group in the panel starts a fresh editor.
    let editor_reset = game.templates.group != game.settings.params[board].group;
    if editor_reset {
        game.templates = TemplateEditor { group: game.settings.params[board].group.clone(), ..Default::default() };
    }
    if game.settings.params != before || editor_reset {
        game.rebuild_players();
    }
    command_line_ui(ui, game);
    let Ok(player) = game.make_player(board, AiKind::Template) else { return };
    best_template_ui(ui, game, &player);
    egui::CollapsingHeader::new("labeling table and weights").show(ui, |ui| template_editor_ui(ui, game, &player));
}

/// Versus: whether each board's AI has its own settings (the CLI's `--p1-options` and
/// `--p2-options`), and which board's the panel edits. Turned off, both take board 1's.
fn board_settings_ui(ui: &mut egui::Ui, game: &mut PuyoGame) {
    if !game.settings.versus {
        return;
    }
    ui.horizontal(|ui| {
        ui.checkbox(&mut game.settings.own_settings, "each board its own settings")
            .on_hover_text("off: both boards' AIs play by the settings below (board 1's)");
        if !game.settings.own_settings {
            game.settings.panel_board = 0;
            return;
        }
        ui.radio_value(&mut game.settings.panel_board, 0, "board 1");
        ui.radio_value(&mut game.settings.panel_board, 1, "board 2");
    });
}

/// The template group of `board`'s AI: a bundled one, or a folder of the user's labeling tables
/// or one such file (the CLI's `--templates PATH`); one that does not compile keeps the group
/// and shows the file and line at fault.
fn template_group_ui(ui: &mut egui::Ui, game: &mut PuyoGame, board: usize) {
    let group = &mut game.settings.params[board].group;
    let shown = Path::new(group.as_str()).file_name().map_or(group.clone(), |f| f.to_string_lossy().into());
    egui::ComboBox::from_label("template group").selected_text(shown).show_ui(ui, |ui| {
        for g in ["stairs8", "sandwich8", "domino6", "chains8", "all"] {
            ui.selectable_value(group, g.to_string(), g);
        }
    });
    let Some((_, folder)) = path_row(ui, &mut game.template_folder, "labeling table file or folder", &[("Open", "")])
    else {
        return;
    };
    let folder = folder.display().to_string();
    match load_group(&folder, &game.settings.params[board].compile) {
        Ok(_) => game.settings.params[board].group = folder,
        Err(e) => game.error = Some(e.to_string()),
    }
}

/// The template players' settings (search, compiler, the combined player's switch and
/// extension) and potential maximization's.
fn ai_params_ui(ui: &mut egui::Ui, p: &mut AiParams) {
    egui::ComboBox::from_label("selection rule").selected_text(format!("{:?}", p.template.select)).show_ui(ui, |ui| {
        for s in [Select::Max, Select::Count, Select::Mean] {
            ui.selectable_value(&mut p.template.select, s, format!("{s:?}"));
        }
    });
    ui.add(egui::Slider::new(&mut p.template.depth, 1..=3).text("search depth"));
    ui.add(egui::Slider::new(&mut p.template.chance, 0..=8).text("chance ply"))
        .on_hover_text("asobi: the best K leaves of each first move also count the next, unseen pair (0 = paper)");
    ui.add(egui::Slider::new(&mut p.compile.weight_power, 0.5..=3.0).step_by(0.25).text("weight power"))
        .on_hover_text("asobi: default label weights become 100 (w / 100)^p (1 = paper)");
    egui::ComboBox::from_label("matrix weights")
        .selected_text(format!("{:?}", p.compile.weight_rule))
        .show_ui(ui, |ui| {
            for w in [WeightRule::Mean, WeightRule::Min] {
                ui.selectable_value(&mut p.compile.weight_rule, w, format!("{w:?}"));
            }
        })
        .response
        .on_hover_text("a relation's weight from its two labels' weights: their mean (paper) or the smaller");
    ui.checkbox(&mut p.compile.boundary_rule, "boundary rule").on_hover_text(
        "a boundary cell differs from every body label it touches (paper's example); off: only where sharing the colour changes the chain",
    );
    ui.checkbox(&mut p.compile.boundary_sim, "boundary cells in the refinement")
        .on_hover_text("asobi: a boundary puyo that falls beside a later link must differ from it where sharing the colour breaks the chain (off = paper)");
    ui.add(egui::Slider::new(&mut p.switch, 0.5..=1.0).text("combined: switch above"));
    ui.checkbox(&mut p.switch_ready, "combined: ...and once the formation fires")
        .on_hover_text("asobi: keep to the templates until the formation's chain can be triggered (off = paper)");
    egui::ComboBox::from_label("combined: extension")
        .selected_text(extension_label(p.extension))
        .show_ui(ui, |ui| {
            for e in [Extension::Potential, Extension::Builder] {
                ui.selectable_value(&mut p.extension, e, extension_label(e));
            }
        })
        .response
        .on_hover_text("what builds on the formation in endless games: potential maximization (paper) or asobi's chain builder, fired at 11 links (12 while more than 12 cells are empty)");
    let mut asobi_reading = p.combined_potential == CombinedPotential::Asobi;
    if ui
        .checkbox(&mut asobi_reading, "combined: asobi's potential reading")
        .on_hover_text("asobi: the combined player's potential maximization reads unseen puyos by virtual drops (0.8) and kills only through the opponent's counter, as asobi's versus player; the other seat keeps the settings below (off = paper)")
        .changed()
    {
        p.combined_potential = if asobi_reading { CombinedPotential::Asobi } else { CombinedPotential::Paper };
    }
    threat_switch_ui(ui, &mut p.threat_switch);
    potential_ui(ui, &mut p.potential);
}

/// [`AiParams::threat_switch`]: on or off, and its share when on.
fn threat_switch_ui(ui: &mut egui::Ui, threat_switch: &mut Option<f64>) {
    let mut on = threat_switch.is_some();
    ui.checkbox(&mut on, "combined: leave templates when threatened").on_hover_text(
        "asobi, versus: potential maximization plays instead of the templates while the opponent holds a ready chain sending at least the share below of the garbage that fills column 3 (off = paper)",
    );
    let mut share = threat_switch.unwrap_or(THREAT_SWITCH_SHOWN);
    if on {
        ui.add(egui::Slider::new(&mut share, 0.0..=1.0).text("...threat: share of column 3"));
    }
    *threat_switch = on.then_some(share);
}

/// The share the threat switch starts at when turned on (combined vs potential with asobi's
/// reading, 500 games of each of seeds 1-8: .762 at 0.2, .740 at 0.3; README, Puyo section).
const THREAT_SWITCH_SHOWN: f64 = 0.2;

/// The template with the fewest cells in conflict on `field`, and those cells.
fn nearest_template(templates: &[Template], field: &Field) -> Option<(usize, Bits)> {
    templates.iter().map(|t| t.conflicts(field)).enumerate().min_by_key(|(_, cells)| cells.count())
}

/// The board whose field the template view inspects: the one whose settings the panel shows
/// while each board has its own, else the first one an AI plays by templates, else board 1
/// (what the template player would see there).
fn inspected_board(game: &PuyoGame) -> usize {
    if game.own_settings() {
        return game.settings_board();
    }
    (0..game.sides()).find(|&i| plays_by_templates(game, i)).unwrap_or(0)
}

fn plays_by_templates(game: &PuyoGame, board: usize) -> bool {
    matches!(game.settings.seats[board], Seat::Ai(kind) if kind.uses_templates())
}

/// The inspected board's best template with its score; when every template conflicts, the
/// one with the fewest conflicting cells, which (on request) are marked on the board.
fn best_template_ui(ui: &mut egui::Ui, game: &mut PuyoGame, player: &Player) {
    let board = inspected_board(game);
    let field = game.game.sides[board].field;
    let templates = player.templates();
    let alive = templates.iter().filter(|t| t.score(t.full_match(&field)).is_finite()).count();
    let mut conflicts = Bits::EMPTY;
    match (best_template(templates, &field), nearest_template(templates, &field)) {
        (Some((t, score)), _) => {
            ui.label(format!("board {} best template: {} ({score:.3})", board + 1, templates[t].name));
        }
        (None, Some((t, cells))) => {
            conflicts = cells;
            let n = cells.count();
            ui.label(format!(
                "board {}: every template conflicts; nearest: {} ({n} cells)",
                board + 1,
                templates[t].name
            ));
        }
        (None, None) => {
            ui.label("no templates loaded");
        }
    }
    ui.small(format!("{alive} of {} templates free of conflicts on board {}", templates.len(), board + 1));
    if !plays_by_templates(game, board) {
        ui.small("(no board is played by templates: this is what the template player would see on board 1)");
    }
    ui.checkbox(
        &mut game.templates.show_conflicts,
        format!("mark the nearest template's conflicts on board {}", board + 1),
    );
    let shown = (board, if game.templates.show_conflicts { conflicts } else { Bits::EMPTY });
    if shown != game.templates.conflict_cells {
        game.templates.conflict_cells = shown;
        game.redraw = true;
    }
}

/// Potential maximization's open decisions (spec §9.7-9.8), for the paper's players; asobi's
/// versus player keeps its own virtual drops and counter reading.
fn potential_ui(ui: &mut egui::Ui, p: &mut PotentialParams) {
    ui.label("potential maximization settings");
    ui.add(egui::Slider::new(&mut p.fire_empty, 0..=72).text("(a) fire at empty cells")).on_hover_text(
        "fire the best chain once at most this many visible cells are empty and nothing larger is reachable",
    );
    ui.add(egui::Slider::new(&mut p.danger_empty, 0..=72).text("(a) ...always at"))
        .on_hover_text("fire the best chain whatever it is once at most this many cells are empty");
    ui.add(egui::Slider::new(&mut p.virtual_drop, 0.0..=2.0).text("virtual drops")).on_hover_text(
        "asobi: also count chains 1-2 unseen puyos of one colour would start, at this weight (0 = paper)",
    );
    ui.checkbox(&mut p.lethal_after_counter, "(b) kill only through the opponent's counter").on_hover_text(
        "asobi: fire to kill only when the garbage still fills the opponent's column 3 after its ready counter (off = paper)",
    );
}

fn extension_label(e: Extension) -> &'static str {
    match e {
        Extension::Potential => "potential maximization",
        Extension::Builder => "asobi's builder",
    }
}

/// Shows one template's labeling table and lets its label weights be edited; "apply"
/// recompiles it and the AIs use it from their next decision.
fn template_editor_ui(ui: &mut egui::Ui, game: &mut PuyoGame, player: &Player) {
    let names: Vec<&str> = player.templates().iter().map(|t| t.name.as_str()).collect();
    let selected = game.templates.selected.min(names.len().saturating_sub(1));
    egui::ComboBox::from_label("template").selected_text(names.get(selected).copied().unwrap_or("-")).show_ui(
        ui,
        |ui| {
            for (i, name) in names.iter().enumerate() {
                ui.selectable_value(&mut game.templates.selected, i, *name);
            }
        },
    );
    let Some(template) = player.templates().get(selected) else { return };
    let rows: Vec<String> =
        template.labels.iter().rev().map(|row| row.iter().map(|c| c.unwrap_or('.')).collect()).collect();
    let first = rows.iter().position(|r| r.chars().any(|c| c != '.')).unwrap_or(rows.len());
    ui.monospace(rows[first..].join("\n"));
    ui.small("upper case: the chain's body; lower case: boundary cells that must differ");
    let board = inspected_board(game);
    match template.conflicts(&game.game.sides[board].field).count() {
        0 => ui.small(format!("no cell of board {} conflicts with it", board + 1)),
        n => ui.small(format!("{n} cells of board {} conflict with it", board + 1)),
    };
    let Some(file) = edited_file(game, selected) else { return };
    let mut weights = template.weights.clone();
    let mut changed = false;
    egui::Grid::new("template-weights").num_columns(4).show(ui, |ui| {
        for (k, (label, weight)) in weights.iter_mut().enumerate() {
            ui.monospace(label.to_string());
            changed |= ui.add(egui::DragValue::new(weight).range(0..=10_000)).changed();
            if k % 2 == 1 {
                ui.end_row();
            }
        }
    });
    if changed {
        let mut file = file;
        file.weights = weights;
        game.templates.edited.retain(|(i, _)| *i != selected);
        game.templates.edited.push((selected, file));
        game.rebuild_players();
    }
    if ui.button("reset edited weights").clicked() {
        game.templates.edited.clear();
        game.rebuild_players();
    }
    let help = "writes every template of the group, with the weights edited here, as NN-name.ron files; \
                the folder then opens as the template group, and `puyo build --templates DIR` reads it";
    let Some((_, folder)) = path_row(ui, &mut game.templates.save_folder, "folder", &[("save group", help)]) else {
        return;
    };
    match save_group(game, &folder) {
        Ok(count) => game.log(format!("saved {count} templates to {}", folder.display())),
        Err(e) => game.error = Some(format!("{e:#}")),
    }
}

/// Writes the group's template files, edited weights included, into `folder` (numbered so
/// that they load in the group's order); returns how many.
fn save_group(game: &PuyoGame, folder: &Path) -> anyhow::Result<usize> {
    let sources = group_sources(&game.templates.group)?;
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    for (index, (path, _)) in sources.iter().enumerate() {
        let file = edited_file(game, index).with_context(|| format!("{path}: not a template file"))?;
        let name = Path::new(path).file_name().map_or("template.ron".into(), |n| n.to_string_lossy());
        write_ron(&folder.join(format!("{:02}-{name}", index + 1)), &file)?;
    }
    Ok(sources.len())
}

/// The source file of template `index` of the group with any weights already edited.
fn edited_file(game: &PuyoGame, index: usize) -> Option<TemplateFile> {
    if let Some((_, file)) = game.templates.edited.iter().find(|(i, _)| *i == index) {
        return Some(file.clone());
    }
    let sources = group_sources(&game.templates.group).ok()?;
    let (path, text) = sources.get(index)?;
    crate::levels::parse_ron::<TemplateFile>(path, text).ok()
}

#[cfg(test)]
mod tests {
    use super::super::{Settings, default_settings};
    use super::*;

    /// The template view looks at the board a template player plays, not always at board 1.
    #[test]
    fn the_template_view_inspects_the_board_played_by_templates() {
        let mut settings = default_settings(true);
        let seats = |s: &mut Settings, a, b| s.seats = [Seat::Ai(a), Seat::Ai(b)];
        for ((a, b), board) in [
            ((AiKind::Potential, AiKind::Combined), 1),
            ((AiKind::Template, AiKind::Combined), 0),
            ((AiKind::Asobi, AiKind::Potential), 0),
        ] {
            seats(&mut settings, a, b);
            let game = PuyoGame::new(settings.clone());
            assert_eq!(inspected_board(&game), board, "{a:?} vs {b:?}");
            assert_eq!(plays_by_templates(&game, board), a.uses_templates() || b.uses_templates());
        }
        settings.seats = [Seat::Human, Seat::Ai(AiKind::Template)];
        assert_eq!(inspected_board(&PuyoGame::new(settings)), 1, "a person on board 1");
    }

    /// Where every template conflicts, the view marks the nearest one's conflicting cells.
    #[test]
    fn the_nearest_template_is_the_one_with_fewest_conflicting_cells() {
        let templates = load_group("stairs8", &Default::default()).unwrap();
        let empty = Field::new();
        assert_eq!(nearest_template(&templates, &empty).map(|(_, cells)| cells), Some(Bits::EMPTY));
        // Every stairs variant starts with trigger A doubled in the bottom row's first two cells.
        let broken = Field::from_ascii("RG....").unwrap();
        assert_eq!(best_template(&templates, &broken), None, "every template conflicts");
        let (t, cells) = nearest_template(&templates, &broken).unwrap();
        assert!(cells.count() >= 2, "both puyos of the broken pair: {}", cells.count());
        assert!(templates.iter().all(|other| other.conflicts(&broken).count() >= cells.count()), "{t}");
    }

    #[test]
    fn a_saved_group_opens_as_a_template_folder_with_its_edited_weights() {
        let tmp = tempfile::tempdir().unwrap();
        let mut game = PuyoGame::new(default_settings(false));
        let mut edited = edited_file(&game, 3).expect("stairs8 has a fourth template");
        edited.weights = vec![('A', 999)];
        game.templates.edited.push((3, edited));
        assert_eq!(save_group(&game, tmp.path()).unwrap(), 10);

        let opts = &game.settings.params[0].compile;
        let saved = load_group(tmp.path().to_str().unwrap(), opts).unwrap();
        let bundled = load_group("stairs8", opts).unwrap();
        let names =
            |g: &[crate::games::puyo::ai::template::Template]| g.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&saved), names(&bundled), "the group's order is kept");
        let weight_a =
            |t: &crate::games::puyo::ai::template::Template| t.weights.iter().find(|w| w.0 == 'A').map(|w| w.1);
        assert_eq!(weight_a(&saved[3]), Some(999), "the edit is saved");
        assert_eq!(saved[0].weights, bundled[0].weights, "the other templates are as shipped");
    }
}
