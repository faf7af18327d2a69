//! Puyo AIs (paper chapters 3-5): the relation-matrix template player, potential
//! maximization, the combined player, and asobi's own player, all behind [`PuyoAi`].

pub mod builder;
pub mod labeling;
pub mod potential;
pub mod relation;
pub mod template;
pub mod template_search;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use self::builder::BuilderParams;
use self::labeling::CompileOptions;
use self::labeling::TemplateError;
use self::potential::{PotentialChoice, PotentialParams};
use self::template::{Template, load_group};
use self::template_search::{TemplateParams, best_template, search};
use super::rules::{Bits, Field, GarbageRule, Pair, Placement, Puyo};

/// What a player may see when deciding.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    /// The player's own field.
    pub field: &'a Field,
    /// The current pair followed by the previews.
    pub pairs: &'a [Pair],
    /// Garbage waiting to fall on this player (versus).
    pub pending: u32,
    /// The opponent's field (versus).
    pub opponent: Option<&'a Field>,
    /// How chains turn into garbage (versus).
    pub garbage: GarbageRule,
    /// Placements this player makes, this one included, before the incoming garbage falls
    /// (versus; [`crate::games::puyo::rules::Side::placements_before_garbage`]).
    pub garbage_falls_in: u32,
}

impl<'a> Observation<'a> {
    /// A single-player position: no opponent, nothing pending.
    pub fn alone(field: &'a Field, pairs: &'a [Pair]) -> Self {
        Observation { field, pairs, pending: 0, opponent: None, garbage: GarbageRule::default(), garbage_falls_in: 0 }
    }
}

/// A move, whether it is meant as the firing of the player's chain, and why it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Where the pair goes.
    pub placement: Placement,
    /// Whether this move fires the player's chain.
    pub fires: bool,
    /// Why, for the log and `--trace`.
    pub why: String,
    /// Whether the template search chose it (the template phase of the template and combined
    /// players; not their fallbacks to potential maximization).
    pub by_template: bool,
}

/// A Puyo player.
pub trait PuyoAi: Send + Sync {
    /// `None` only when no legal move exists.
    fn decide(&self, obs: &Observation) -> Option<Decision>;
}

/// The players of the CLI and the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum AiKind {
    /// Relation-matrix templates only (potential maximization when all templates conflict).
    Template,
    /// Potential maximization (paper §4.2).
    Potential,
    /// Templates until the best score exceeds 0.9, then potential maximization (paper §6).
    Combined,
    /// asobi's player: alone, the chain builder (search over the known pairs, leaves scored by
    /// virtual-drop chain potential and shape, fired at a goal length); in versus, potential
    /// maximization that also reads unseen pairs by virtual drops and fires to kill only through
    /// the opponent's ready counter.
    Asobi,
}

impl AiKind {
    /// Whether the player plays by templates (the others need no template group).
    pub fn uses_templates(self) -> bool {
        matches!(self, AiKind::Template | AiKind::Combined)
    }
}

/// How the combined player extends its formation in single-player games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Extension {
    /// Potential maximization (the paper's), protecting the formation and reading virtual
    /// drops ([`AiParams::extend_drop`]).
    #[default]
    Potential,
    /// asobi's chain builder ([`BuilderParams::over_formation`]), free to rebuild the
    /// formation's top, keeping the field while it fires a chain as long as the formation's,
    /// moving where every template conflicts and where the template phase would fire; fires at
    /// 11 links (12 while more than 12 cells are empty).
    Builder,
}

/// The potential maximization the combined player plays: its extension in versus, its
/// counters, over garbage and where every template conflicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum CombinedPotential {
    /// The settings every seat shares: the paper's potential maximization, unless
    /// `--virtual-drop` or the like change them for all.
    #[default]
    Paper,
    /// asobi's reading, as its versus player's: unseen puyos read by virtual drops, and a kill
    /// fired only through the opponent's ready counter (the opponent keeps the shared settings).
    Asobi,
}

/// asobi's reading of potential maximization in versus: unseen pairs by virtual drops, a kill
/// fired only through the opponent's ready counter.
fn read_like_asobi(potential: &mut PotentialParams) {
    potential.virtual_drop = 0.8;
    potential.lethal_after_counter = true;
}

/// Parameters of every player (Default = the paper's values; asobi's additions, `builder`,
/// `extend_drop` and the builder of `extension`, tuned on endless games of seed 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AiParams {
    /// Template group: stairs8, sandwich8, domino6 or all.
    pub group: String,
    /// The template player's search.
    pub template: TemplateParams,
    /// How labeling tables compile into template matrices.
    pub compile: CompileOptions,
    /// Potential maximization's settings (plies, firing rules, virtual drops).
    pub potential: PotentialParams,
    /// asobi's chain builder (single-player games).
    pub builder: BuilderParams,
    /// The combined player switches to potential maximization above this template score.
    pub switch: f64,
    /// asobi's decision (spec §9.11): the combined player also waits until its formation
    /// fires its chain (a trigger of at most 3 puyos of one colour into one column starts at
    /// least the template's links). With stairs8 only 33% of formations fire their chain when
    /// the score reaches 0.95 (E1's `fires_share`), and potential maximization, reading three
    /// pairs, does not finish them. false = the paper's switch on the score alone.
    pub switch_ready: bool,
    /// Virtual-drop weight of the combined player's potential maximization over its formation
    /// in single-player games (asobi's decision; 0 = the paper's plain potential maximization,
    /// which fires the 8-chain once few cells are empty and nothing larger fires within the
    /// known pairs).
    pub extend_drop: f64,
    /// asobi's decision: the combined player's extension phase in single-player games (versus
    /// keeps potential maximization, whose special cases answer the opponent).
    pub extension: Extension,
    /// asobi's decision: the combined player's potential maximization (see [`CombinedPotential`]).
    pub combined_potential: CombinedPotential,
    /// asobi's decision, versus only: the combined player leaves its template phase for
    /// potential maximization while the opponent holds a ready chain (one that 1-2 puyos of one
    /// colour dropped into one column start) whose garbage would fill at least this share of
    /// the room left in its own column 3 ([`AiParams::threatened`]). `None` = the paper, whose
    /// template phase builds on whatever the opponent holds.
    pub threat_switch: Option<f64>,
}

impl Default for AiParams {
    fn default() -> Self {
        AiParams {
            group: "stairs8".into(),
            template: TemplateParams::default(),
            compile: CompileOptions::default(),
            potential: PotentialParams::default(),
            builder: BuilderParams::default(),
            switch: 0.9,
            switch_ready: true,
            extend_drop: 0.7,
            extension: Extension::Potential,
            combined_potential: CombinedPotential::Paper,
            threat_switch: None,
        }
    }
}

impl AiParams {
    /// Whether the combined player, in its template phase, gives way to potential maximization
    /// ([`AiParams::threat_switch`]): the opponent's ready chain sends at least that share of
    /// the garbage that fills this player's column 3. Returns the ready chain's garbage.
    pub fn threatened(&self, obs: &Observation) -> Option<u32> {
        let (share, opponent) = (self.threat_switch?, obs.opponent?);
        let ready = potential::ready_garbage(opponent, obs.garbage);
        (ready as f64 >= share * potential::kill_garbage(obs.field) as f64).then_some(ready)
    }
}

/// Whether garbage lies in rows 1-12 of `field` (only versus sends any).
fn holds_garbage(field: &Field) -> bool {
    !(field.plane(Puyo::Garbage) & Bits::VISIBLE).is_empty()
}

/// Whether a trigger of at most 3 puyos of one colour dropped into one column of `field`
/// starts a chain of at least `links` links (a formation that fires its chain).
pub fn fires_chain(field: &Field, links: u32) -> bool {
    let mut longest = 0;
    potential::for_each_trigger(field, 3, |trigger, _| longest = longest.max(trigger.chain.links));
    longest >= links
}

/// A ready player: its kind, parameters and compiled templates (cheap to clone).
#[derive(Clone, Debug)]
pub struct Player {
    /// Which player this is.
    pub kind: AiKind,
    /// Its parameters.
    pub params: AiParams,
    templates: Arc<Vec<Template>>,
}

impl Player {
    /// A player of `kind`; compiles the template group when the kind plays by templates.
    pub fn new(kind: AiKind, mut params: AiParams) -> Result<Player, TemplateError> {
        match kind {
            // asobi's versus player: potential maximization reading the known pairs to the
            // paper's depth, and unseen ones. Reading two pairs (until session 73) it won only
            // .328 against the combined player with asobi's reading at `--threat-switch 0`,
            // which is this player reading three (500 games of seed 1).
            AiKind::Asobi => read_like_asobi(&mut params.potential),
            // Three pairs read as the paper's (two: .60 / .58 against .64 / .62 on versus
            // seeds 1 / 2 with asobi's reading, 500 games each).
            AiKind::Combined if params.combined_potential == CombinedPotential::Asobi => {
                read_like_asobi(&mut params.potential)
            }
            _ => {}
        }
        // Only template players compile the group: a group that needs more colours than the
        // game has must not stop the others.
        let templates = if kind.uses_templates() { load_group(&params.group, &params.compile)? } else { Vec::new() };
        Ok(Player { kind, params, templates: Arc::new(templates) })
    }

    /// The compiled templates (empty for players without them).
    pub fn templates(&self) -> &[Template] {
        &self.templates
    }

    /// Replaces template `index` (e.g. with one recompiled from edited weights); the next
    /// decision uses it.
    pub fn replace_template(&mut self, index: usize, template: Template) {
        Arc::make_mut(&mut self.templates)[index] = template;
    }

    fn potential(&self, obs: &Observation) -> Option<Decision> {
        let c = potential::decide(&self.params.potential, obs)?;
        let what = if c.fires { "fire, attack" } else { "build, potential" };
        let why = format!("potential: {what} {:.0}", c.attack);
        Some(Decision { placement: c.placement, fires: c.fires, why, by_template: false })
    }

    /// Potential maximization over a built formation (template `t` scoring `score`): building
    /// moves must keep every formation puyo and add no conflict (the paper's combined player
    /// lost ~10% of its 8-chains to unprotected building); the formation's chain fires under
    /// potential maximization's rules, or when nothing can be built without breaking it. With
    /// [`Extension::Builder`], alone, asobi's chain builder plays instead.
    fn extend(&self, obs: &Observation, t: usize, score: f64) -> Option<Decision> {
        if self.builder_extends(obs) {
            return self.build_over_formation(obs);
        }
        let c = self.extension(obs, t, score)?;
        Some(self.extension_decision(t, score, c))
    }

    fn extension(&self, obs: &Observation, t: usize, score: f64) -> Option<PotentialChoice> {
        let template = &self.templates[t];
        let keep = |f: &Field| template.score(template.full_match(f)) >= score;
        // Alone, chains found by virtual drops count as growth, so the formation's chain is not
        // fired while it can still be extended; versus keeps the quick firing.
        let virtual_drop =
            if obs.opponent.is_none() { self.params.extend_drop } else { self.params.potential.virtual_drop };
        let params = PotentialParams { virtual_drop, ..self.params.potential };
        potential::decide_keeping(&params, obs, keep, template.chain)
    }

    fn extension_decision(&self, t: usize, score: f64, c: PotentialChoice) -> Decision {
        let what = if c.fires { "fire, attack" } else { "extend, potential" };
        Decision {
            placement: c.placement,
            fires: c.fires,
            why: format!("potential over {} ({score:.3}): {what} {:.0}", self.templates[t].name, c.attack),
            by_template: false,
        }
    }

    /// The template phase would fire formation `t` with the pair in hand, though no drop of one
    /// colour into one column fires it, so the extension phase has not begun: the extension
    /// builds on instead when it reads a larger attack (combined endless, 500 games: 15 games
    /// change, 14 of them fire 1-3 more links; before, the template phase fired the bare 8-chain).
    /// With [`Extension::Builder`], alone, the builder decides.
    fn fire_or_extend(&self, obs: &Observation, t: usize, score: f64, fire: Decision) -> Option<Decision> {
        if self.builder_extends(obs) {
            // The builder fires at its own goal (seed 2, 200 games: 6 fired the bare 8-9 links).
            return self.build_over_formation(obs);
        }
        let c = self.extension(obs, t, score)?;
        let mut fired = *obs.field;
        let attack = fired.play(obs.pairs[0], fire.placement).map_or(0, |chain| chain.attack());
        Some(if !c.fires && c.attack > attack as f64 { self.extension_decision(t, score, c) } else { fire })
    }

    /// With [`Extension::Builder`], alone: the builder keeps the field for as long as it fires
    /// a chain as long as the shortest formation's (domino, no chain, counts none), even after
    /// its building breaks the template match.
    /// Handed back, the template phase would pop the builder's work and its fallback would fire
    /// a short chain (combined endless with asobi's template options, 500 games of seeds 1 /
    /// 2 / 3: 10.28 / 10.52 / 10.41 -> 10.68 / 10.72 / 10.66 links).
    fn builder_holds(&self, obs: &Observation) -> bool {
        self.builder_extends(obs)
            && self
                .templates
                .iter()
                .map(|t| t.chain)
                .filter(|&links| links > 0)
                .min()
                .is_some_and(|links| fires_chain(obs.field, links))
    }

    /// Whether the builder is this player's extension phase ([`Extension::Builder`], alone).
    fn builder_extends(&self, obs: &Observation) -> bool {
        self.params.extension == Extension::Builder && obs.opponent.is_none()
    }

    fn build_over_formation(&self, obs: &Observation) -> Option<Decision> {
        self.build_with(&BuilderParams::over_formation(), obs)
    }

    /// Whether the combined player may leave template `t` (see [`AiParams::switch_ready`]).
    fn formation_ready(&self, field: &Field, t: usize) -> bool {
        !self.params.switch_ready || fires_chain(field, self.templates[t].chain)
    }

    fn build(&self, obs: &Observation) -> Option<Decision> {
        self.build_with(&self.params.builder, obs)
    }

    fn build_with(&self, params: &BuilderParams, obs: &Observation) -> Option<Decision> {
        let c = builder::decide(params, obs, self.params.compile.colors)?;
        let why = if c.fires {
            format!("builder: fire {} links", c.links)
        } else {
            format!("builder: build, potential {} links (value {:.0})", c.links, c.value)
        };
        Some(Decision { placement: c.placement, fires: c.fires, why, by_template: false })
    }

    fn template(&self, obs: &Observation) -> Option<Decision> {
        self.template_move(obs).map(|(decision, _)| decision)
    }

    /// The template player's move, and whether the search was jammed: every leaf conflicts
    /// with every template, so spec §9.4's fallback (potential maximization) moved instead.
    pub fn template_move(&self, obs: &Observation) -> Option<(Decision, bool)> {
        match self.template_search(obs) {
            Some(decision) => Some((decision, false)),
            None => self.potential(obs).map(|decision| (decision, true)),
        }
    }

    /// The template search's move; `None` when every leaf conflicts with every template.
    fn template_search(&self, obs: &Observation) -> Option<Decision> {
        let c = search(&self.templates, &self.params.template, obs.field, obs.pairs, self.params.compile.colors)?;
        Some(Decision {
            placement: c.placement,
            fires: c.fires,
            why: format!("template {} scores {:.3}", self.templates[c.template].name, c.score),
            by_template: true,
        })
    }
}

impl PuyoAi for Player {
    fn decide(&self, obs: &Observation) -> Option<Decision> {
        match self.kind {
            AiKind::Template => self.template(obs),
            AiKind::Potential => self.potential(obs),
            // Versus is a race: the seeker's quick chains and special cases (b)/(c) beat slow
            // formations whose tall middle columns a small chain's garbage tops out (asobi vs
            // combined: .46 with templates, .69 without, 200 games).
            AiKind::Asobi if obs.opponent.is_some() => self.potential(obs),
            AiKind::Asobi => self.build(obs),
            AiKind::Combined if self.builder_holds(obs) => self.build_over_formation(obs),
            AiKind::Combined => match best_template(&self.templates, obs.field) {
                Some((t, s)) if s > self.params.switch && self.formation_ready(obs.field, t) => self.extend(obs, t, s),
                _ if obs.pending > 0 => self.potential(obs),
                // Templates build slowly: the opponent's quick chain lands before a formation
                // fires, so while one is ready potential maximization builds the answer (with
                // asobi's reading, 500 games of each of seeds 1-5: .638 -> .769 at 0.2, seeds 6-8
                // .751; with the paper's potential maximization it loses, .442 -> .384 at 0.3).
                _ if let Some(ready) = self.params.threatened(obs) => self.potential(obs).map(|mut d| {
                    d.why = format!("{} (threatened: the opponent's ready chain sends {ready})", d.why);
                    d
                }),
                // Garbage counts as empty in the state matrix (spec §3), and the templates'
                // cells sit at fixed rows, so over garbage the template phase builds a formation
                // that cannot stand: once garbage has landed, potential maximization plays
                // (combined vs potential, 500 games of seeds 1-3: .336 / .396 / .394 -> .442 /
                // .460 / .474).
                _ if holds_garbage(obs.field) => self.potential(obs),
                best => {
                    let decision = match self.template_search(obs) {
                        Some(decision) => decision,
                        // Potential maximization's firing would end a single-player game
                        // (with the builder holding the field: 10.68 -> 11.09 links, seed 1).
                        None if self.builder_extends(obs) => return self.build_over_formation(obs),
                        None => self.potential(obs)?,
                    };
                    match best {
                        Some((t, s)) if decision.fires && s > self.params.switch => {
                            self.fire_or_extend(obs, t, s, decision)
                        }
                        _ => Some(decision),
                    }
                }
            },
        }
    }
}

#[cfg(test)]
mod template_tests;
#[cfg(test)]
mod tests;
