//! The players (paper §4–5, spec §5). [`Planner`] is the paper's program: a beam of at most L
//! assignment plans, each position scored by the best plan's stack-game estimate, with
//! lookahead 0 (score the position a move reaches) or 1 (average over the next card's rank of
//! the best reply's level-0 score). Moves off the stacks follow the best plan (the appendix
//! keeps playable cards on the stacks when the plan says so); once the stock is empty the
//! stacks are cleared by exhaustive search. asobi bounds the lookahead (`lookahead_plans`,
//! `lookahead_ratio`): a quarter of the cost, nearly all of the gain.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::log::GameLog;
use super::oracle::{self, Action};
use super::plan::{Base, Plan, Table, estimate, estimate_stacked};
use super::rules::{Card, Deal, FOUNDATIONS, Game, Observation, RuleError, Target, next_rank, rank_char};

/// A player's choice for one turn: where the drawn card goes, then the stack tops it plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// `None` once the stock is empty (only `moves` remain).
    pub target: Option<Target>,
    /// (stack, foundation) moves, in order, after the placement.
    pub moves: Vec<(u8, u8)>,
    /// The estimated success of the chosen move (stack-game scale, not a real win chance).
    pub estimate: f64,
    /// One line saying why, for the GUI's log.
    pub why: String,
}

/// A Calculation player: sees only an [`Observation`] (never the stock order).
pub trait Player: Send {
    /// The player's name in logs and records.
    fn name(&self) -> String;
    /// Where the drawn card goes (or which stack top plays to a foundation).
    fn decide(&mut self, obs: &Observation) -> Decision;
    /// The foundation this player currently means `card` (on a stack) for, if it has one.
    fn label(&self, card: Card) -> Option<u8>;
}

/// The paper's tunable parameters. Default: its best configuration (lookahead 1, L = 200).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlannerParams {
    /// L: assignment plans kept.
    pub plans: usize,
    /// 0 or 1.
    pub lookahead: u8,
    /// Two-foundation stack games are solved exactly on at most `pair_limit / 2` stock cards
    /// of each foundation; longer chains get the reduction factor of their tails (see
    /// [`estimate`]). An asobi bound on time: 24 = always exact.
    pub pair_limit: usize,
    /// asobi's bound on lookahead 1: options scoring below `lookahead_ratio` times the best
    /// at level 0 are dropped, and a decision left with one option skips the lookahead (0 =
    /// every option, the paper). Each look ahead costs ~13 ranks x targets x plans.
    pub lookahead_ratio: f64,
    /// asobi's bound on lookahead 1: a reply is scored with the first `lookahead_plans` plans
    /// of the option's beam (best first; 0 = all, the paper).
    pub lookahead_plans: usize,
}

impl Default for PlannerParams {
    fn default() -> Self {
        PlannerParams { plans: 200, lookahead: 1, pair_limit: 6, lookahead_ratio: 0.0, lookahead_plans: 0 }
    }
}

/// The table after one placement and the plan cascade, with the plans that survive.
#[derive(Clone, Debug)]
struct Step {
    table: Table,
    beam: Vec<Plan>,
    value: f64,
    moves: Vec<(u8, u8)>,
}

/// The paper's assignment-plan player.
#[derive(Clone, Debug)]
pub struct Planner {
    /// The player's settings.
    pub params: PlannerParams,
    beam: Vec<Plan>,
}

/// One option of the drawn card with its estimate, for showing the AI's view to a person.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// Where the card would go.
    pub target: Target,
    /// The player's estimate of winning after it.
    pub estimate: f64,
}

impl Planner {
    /// A player with `params`, at the start of a game.
    pub fn new(params: PlannerParams) -> Planner {
        Planner { params, beam: vec![Plan::default()] }
    }

    /// Every target of `card` on `table`: fitting foundations, then stacks (one empty stack).
    fn targets(table: &Table, rank: u8) -> Vec<Target> {
        let mut out: Vec<Target> = (0..FOUNDATIONS)
            .filter(|&f| next_rank(f, table.foundations[f]) == Some(rank))
            .map(|f| Target::Foundation(f as u8))
            .collect();
        let first_empty = table.stacks.iter().position(Vec::is_empty);
        for (s, stack) in table.stacks.iter().enumerate() {
            if !stack.is_empty() || first_empty == Some(s) {
                out.push(Target::Stack(s as u8));
            }
        }
        out
    }

    fn window(&self) -> usize {
        self.params.pair_limit / 2
    }

    /// The table after `card` goes to `target`, and every plan extended (a stacked card gets
    /// each free slot of its rank) or repaired (a played card may take a plan's slot), with
    /// its score. `bases` are the plans' graphs on `table` (see [`Base`]).
    fn scored_children(
        &self,
        (table, beam, bases): (&Table, &[Plan], &[Base]),
        card: Card,
        target: Target,
    ) -> (Table, Vec<(f64, Plan)>) {
        let mut after = table.clone();
        let window = self.window();
        let scored = match target {
            Target::Foundation(f) => {
                after.foundations[f as usize] += 1;
                let children: Vec<Plan> = beam.iter().flat_map(|p| p.after_play(table, card, f, false)).collect();
                children.into_iter().map(|p| (estimate(&after, &p, window).score, p)).collect()
            }
            Target::Stack(s) => {
                after.stacks[s as usize].push(card);
                let mut scored = Vec::new();
                for (p, base) in beam.iter().zip(bases) {
                    for f in p.free_slots(table, card.rank) {
                        let child = p.with(card, f);
                        scored.push((estimate_stacked(base, &after, &child, card, s, f, window).score, child));
                    }
                }
                scored
            }
        };
        (after, scored)
    }

    /// Places `card` on `target`: the table after it, the best score and the best L plans.
    fn placed(&self, at: (&Table, &[Plan], &[Base]), card: Card, target: Target) -> (Table, f64, Vec<Plan>) {
        let (after, mut scored) = self.scored_children(at, card, target);
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let value = scored.first().map_or(0.0, |s| s.0);
        (after, value, dedup(scored.into_iter().map(|(_, p)| p), self.params.plans))
    }

    /// The plans after the top of a stack, `top`, reached foundation `f` (`table` before it).
    fn played_top(&self, beam: &[Plan], table: &Table, top: Card, f: u8) -> Vec<Plan> {
        dedup(beam.iter().flat_map(|p| p.after_play(table, top, f, true)), self.params.plans)
    }

    /// Places `card` on `target`, keeps the best L plans, then plays the best plan's cascade.
    fn advance(&self, at: (&Table, &[Plan], &[Base]), card: Card, target: Target) -> Step {
        let (mut after, value, mut beam) = self.placed(at, card, target);
        let moves = beam.first().map(|best| after.cascade(best)).unwrap_or_default();
        for &(s, f) in &moves {
            let top = *after.stacks[s as usize].last().expect("cascade moves a card");
            beam = self.played_top(&beam, &after, top, f);
            after.stacks[s as usize].pop();
            after.foundations[f as usize] += 1;
        }
        Step { table: after, beam, value, moves }
    }

    /// Brings the plans along a move the planner did not choose (a person's, in the app), from
    /// what it saw before the move, as for its own moves: without them its plans would label
    /// none of the cards the person stacked, and every option would score 0.
    pub fn follow(&mut self, before: &Observation, action: Action) {
        let table = Table { foundations: before.foundations, stacks: before.stacks.clone() };
        match action {
            Action::Place(target) => {
                let Some(card) = before.drawn else { return };
                let bases = bases(&table, &self.beam);
                self.beam = self.placed((&table, &self.beam, &bases), card, target).2;
            }
            Action::Move { stack, foundation } => {
                let Some(&top) = table.stacks.get(stack as usize).and_then(|s| s.last()) else { return };
                self.beam = self.played_top(&self.beam, &table, top, foundation);
            }
        }
    }

    /// The level-0 score of `card` going to `target`: [`Self::advance`]'s value without
    /// ranking, keeping or cascading the plans (the lookahead needs only this number).
    fn level0(&self, at: (&Table, &[Plan], &[Base]), card: Card, target: Target) -> f64 {
        self.scored_children(at, card, target).1.iter().map(|c| c.0).fold(0.0, f64::max)
    }

    /// The lookahead-1 score of a step: over the next card's rank, the best level-0 reply.
    fn lookahead(&self, step: &Step, next_id: u8, unseen: &[u8; 14]) -> f64 {
        let total: u32 = unseen.iter().map(|&c| c as u32).sum();
        if total == 0 {
            return step.value;
        }
        let beam = match self.params.lookahead_plans {
            0 => &step.beam[..],
            m => &step.beam[..m.min(step.beam.len())],
        };
        let bases = bases(&step.table, beam);
        let mut sum = 0.0;
        for rank in 1..=13u8 {
            if unseen[rank as usize] == 0 {
                continue;
            }
            let card = Card { rank, id: next_id };
            let best = Self::targets(&step.table, rank)
                .into_iter()
                .map(|t| self.level0((&step.table, beam, &bases), card, t))
                .fold(0.0, f64::max);
            sum += unseen[rank as usize] as f64 * best;
        }
        sum / total as f64
    }

    /// Every option of the drawn card with its score at the configured lookahead, in target
    /// order (foundations, then stacks). With a `lookahead_ratio`, options far behind at
    /// level 0 are left out.
    fn scored_options(&self, obs: &Observation, card: Card) -> Vec<(Target, f64, Step)> {
        let table = Table { foundations: obs.foundations, stacks: obs.stacks.clone() };
        let bases = bases(&table, &self.beam);
        let mut options: Vec<(Target, f64, Step)> = Self::targets(&table, card.rank)
            .into_iter()
            .map(|t| {
                let step = self.advance((&table, &self.beam, &bases), card, t);
                (t, step.value, step)
            })
            .collect();
        if self.params.lookahead == 0 {
            return options;
        }
        if self.params.lookahead_ratio > 0.0 {
            let best = options.iter().map(|o| o.1).fold(0.0, f64::max);
            options.retain(|o| o.1 >= best * self.params.lookahead_ratio);
            if options.len() == 1 {
                return options;
            }
        }
        for option in &mut options {
            option.1 = self.lookahead(&option.2, card.id + 1, &obs.unseen);
        }
        options
    }

    /// The AI's estimate for each place the drawn card may go (for the GUI's "show"); with a
    /// `lookahead_ratio`, only the options it keeps.
    pub fn options(&self, obs: &Observation) -> Vec<Choice> {
        let Some(card) = obs.drawn else { return Vec::new() };
        self.scored_options(obs, card).into_iter().map(|(target, estimate, _)| Choice { target, estimate }).collect()
    }

    /// Plans currently kept.
    pub fn plan_count(&self) -> usize {
        self.beam.len()
    }
}

/// Each plan's graph on `table`, shared by every card and target valued from there.
fn bases(table: &Table, beam: &[Plan]) -> Vec<Base> {
    beam.iter().map(|p| Base::new(table, p)).collect()
}

/// Plans in order without repeats, at most `limit`.
fn dedup(plans: impl IntoIterator<Item = Plan>, limit: usize) -> Vec<Plan> {
    let mut seen = HashSet::new();
    plans.into_iter().filter(|p| seen.insert(p.clone())).take(limit).collect()
}

impl Player for Planner {
    fn name(&self) -> String {
        format!("planner L={} lookahead={}", self.params.plans, self.params.lookahead)
    }

    fn decide(&mut self, obs: &Observation) -> Decision {
        let Some(card) = obs.drawn else {
            let moves = oracle::clear_stacks(obs.foundations, &obs.stacks).unwrap_or_default();
            let why = if moves.is_empty() { "stock empty: nothing to clear" } else { "stock empty: clear the stacks" };
            return Decision { target: None, moves, estimate: 0.0, why: why.into() };
        };
        let options = self.scored_options(obs, card);
        // Ties go to the first option: a foundation before any stack.
        let mut best = 0;
        for (i, o) in options.iter().enumerate() {
            if o.1 > options[best].1 {
                best = i;
            }
        }
        let (target, score, step) = options.into_iter().nth(best).expect("a drawn card always has a stack");
        self.beam = step.beam;
        let why = format!(
            "{} to {}: estimate {score:.3e} ({} plans, lookahead {})",
            rank_char(card.rank),
            target,
            self.beam.len(),
            self.params.lookahead
        );
        Decision { target: Some(target), moves: step.moves, estimate: score, why }
    }

    fn label(&self, card: Card) -> Option<u8> {
        self.beam.first().and_then(|p| p.label(card))
    }
}

/// Plays `deal` to the end with `player` on `stacks` stacks, logging each draw if asked.
/// Returns the final game (won or not).
pub fn play_deal(
    deal: &Deal,
    stacks: usize,
    player: &mut dyn Player,
    log: Option<&mut GameLog>,
) -> Result<Game, RuleError> {
    play_traced(deal, stacks, player, log).map(|(game, _)| game)
}

/// [`play_deal`], also returning the actions played (replayable by [`oracle::replay`]).
pub fn play_traced(
    deal: &Deal,
    stacks: usize,
    player: &mut dyn Player,
    mut log: Option<&mut GameLog>,
) -> Result<(Game, Vec<Action>), RuleError> {
    let mut game = Game::new(deal.clone(), stacks)?;
    let mut actions = Vec::new();
    loop {
        let obs = game.observe();
        let decision = player.decide(&obs);
        if let Some(t) = decision.target {
            game.place(t)?;
            actions.push(Action::Place(t));
        }
        for &(stack, foundation) in &decision.moves {
            game.move_top(stack, foundation)?;
            actions.push(Action::Move { stack, foundation });
        }
        match obs.drawn {
            Some(card) => {
                if let Some(log) = log.as_deref_mut() {
                    log.block(card.id as usize, card, &game, |c| player.label(c), &decision.why);
                }
            }
            None => break,
        }
    }
    if let Some(log) = log {
        log.finish(game.is_won());
    }
    Ok((game, actions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::calculation::rules::slot_of;

    #[test]
    fn the_lookahead_score_is_the_level0_value() {
        // level0 skips ranking and cascading; it must give advance's value all the same.
        let planner = Planner::new(PlannerParams { plans: 8, lookahead: 0, ..PlannerParams::default() });
        let mut game = Game::new(Deal::from_seed(2, 0), 3).unwrap();
        let mut beam = vec![Plan::default()];
        for _ in 0..20 {
            let card = game.current().unwrap();
            let table = Table { foundations: game.foundations, stacks: game.stacks.clone() };
            let bases = bases(&table, &beam);
            for t in Planner::targets(&table, card.rank) {
                let step = planner.advance((&table, &beam, &bases), card, t);
                assert_eq!(planner.level0((&table, &beam, &bases), card, t), step.value, "{t:?}");
            }
            let step = planner.advance((&table, &beam, &bases), card, Target::Stack(card.rank % 3));
            game.place(Target::Stack(card.rank % 3)).unwrap();
            for &(s, f) in &step.moves {
                game.move_top(s, f).unwrap();
            }
            beam = step.beam;
        }
    }

    #[test]
    fn following_the_planners_own_moves_keeps_its_plans() {
        let params = PlannerParams { plans: 20, lookahead: 0, ..PlannerParams::default() };
        let (mut player, mut follower) = (Planner::new(params.clone()), Planner::new(params));
        let mut game = Game::new(Deal::from_seed(3, 0), 4).unwrap();
        while game.current().is_some() {
            let obs = game.observe();
            let d = player.decide(&obs);
            let target = d.target.expect("a card is drawn");
            follower.follow(&obs, Action::Place(target));
            game.place(target).unwrap();
            for &(stack, foundation) in &d.moves {
                follower.follow(&game.observe(), Action::Move { stack, foundation });
                game.move_top(stack, foundation).unwrap();
            }
            assert_eq!(follower.beam, player.beam, "after card {}", game.drawn_count());
        }
    }

    #[test]
    fn after_a_persons_placements_the_options_keep_their_estimates() {
        // The app's Calculation screen shows these estimates while a person plays.
        let mut planner = Planner::new(PlannerParams { plans: 50, lookahead: 0, ..PlannerParams::default() });
        let mut game = Game::new(Deal::from_seed(1, 0), 4).unwrap();
        for s in 0..2 {
            let target = Target::Stack(s);
            planner.follow(&game.observe(), Action::Place(target));
            game.place(target).unwrap();
        }
        let options = planner.options(&game.observe());
        assert!(options.iter().any(|c| c.estimate > 0.0), "{options:?}");
    }

    #[test]
    fn lookahead_bounds_that_cut_nothing_choose_as_the_paper() {
        // With every plan kept and a ratio no option falls below, the bounded lookahead may
        // only skip looking ahead where a single option exists.
        let paper = PlannerParams { plans: 6, lookahead: 1, ..PlannerParams::default() };
        let bounded = PlannerParams { lookahead_plans: 6, lookahead_ratio: 1e-300, ..paper.clone() };
        let cutting = PlannerParams { lookahead_plans: 1, lookahead_ratio: 0.9, ..paper.clone() };
        let mut differs = false;
        for i in 0..2 {
            let deal = Deal::from_seed(5, i);
            let (_, a) = play_traced(&deal, 3, &mut Planner::new(paper.clone()), None).unwrap();
            let (_, b) = play_traced(&deal, 3, &mut Planner::new(bounded.clone()), None).unwrap();
            let (_, c) = play_traced(&deal, 3, &mut Planner::new(cutting.clone()), None).unwrap();
            assert_eq!(a, b, "deal {i}");
            differs |= a != c;
        }
        assert!(differs, "bounds that cut must change some decision");
    }

    #[test]
    fn a_played_deal_conserves_cards_and_wins_only_when_winnable() {
        let params = PlannerParams { plans: 20, lookahead: 0, ..PlannerParams::default() };
        let mut wins = 0;
        for i in 0..6 {
            let deal = Deal::from_seed(11, i);
            let game = play_deal(&deal, 4, &mut Planner::new(params.clone()), None).unwrap();
            assert_eq!(game.card_count(), 52);
            assert_eq!(game.drawn_count(), 52);
            if game.is_won() {
                wins += 1;
                assert_ne!(
                    oracle::solve(&deal, 4, oracle::Limits { budget: 100_000, conflicts: 0 }),
                    oracle::Verdict::Unwinnable,
                    "deal {i}"
                );
            }
        }
        assert!(wins >= 3, "{wins}/6 with 4 stacks");
    }

    /// Plays `deal` on `stacks` stacks with `planner`, showing `visit` the planner and the game
    /// before each decision.
    fn play_visiting(deal: Deal, stacks: usize, planner: &mut Planner, mut visit: impl FnMut(&Planner, &Game)) {
        let mut game = Game::new(deal, stacks).unwrap();
        while game.current().is_some() {
            visit(planner, &game);
            let decision = planner.decide(&game.observe());
            game.place(decision.target.expect("a card is drawn")).unwrap();
            for &(s, f) in &decision.moves {
                game.move_top(s, f).unwrap();
            }
        }
    }

    fn table_of(game: &Game) -> Table {
        Table { foundations: game.foundations, stacks: game.stacks.clone() }
    }

    #[test]
    fn a_step_holds_the_table_after_its_placement_and_cascade() {
        let mut planner = Planner::new(PlannerParams { plans: 20, lookahead: 0, ..PlannerParams::default() });
        let (mut to_foundations, mut cascades) = (0, 0);
        play_visiting(Deal::from_seed(4, 0), 4, &mut planner, |planner, game| {
            let (table, card) = (table_of(game), game.current().unwrap());
            let bases = bases(&table, &planner.beam);
            for t in Planner::targets(&table, card.rank) {
                let step = planner.advance((&table, &planner.beam, &bases), card, t);
                let mut played = game.clone();
                played.place(t).unwrap();
                for &(s, f) in &step.moves {
                    played.move_top(s, f).unwrap();
                }
                assert_eq!(step.table, table_of(&played), "card {} to {t}", card.id);
                to_foundations += matches!(t, Target::Foundation(_)) as usize;
                cascades += !step.moves.is_empty() as usize;
            }
        });
        assert!(to_foundations > 0 && cascades > 0, "{to_foundations} foundation steps, {cascades} cascades");
    }

    #[test]
    fn a_looked_ahead_option_scores_the_mean_over_the_next_rank_of_the_best_reply() {
        // Paper §5: lookahead 1 averages, over the next card's rank weighted by the unseen
        // cards of that rank, the best level-0 estimate of placing it after the option.
        let params = PlannerParams { plans: 6, lookahead: 1, ..PlannerParams::default() };
        let replies = PlannerParams { lookahead: 0, ..params.clone() };
        let mut options_checked = 0;
        play_visiting(Deal::from_seed(7, 0), 4, &mut Planner::new(params), |planner, game| {
            let (obs, table) = (game.observe(), table_of(game));
            let card = obs.drawn.unwrap();
            let bases = bases(&table, &planner.beam);
            for choice in planner.options(&obs) {
                let step = planner.advance((&table, &planner.beam, &bases), card, choice.target);
                let replier = Planner { params: replies.clone(), beam: step.beam.clone() };
                let mut sum = 0.0;
                for rank in 1..=13u8 {
                    let next = Observation {
                        foundations: step.table.foundations,
                        stacks: step.table.stacks.clone(),
                        drawn: Some(Card { rank, id: card.id + 1 }),
                        unseen: obs.unseen,
                    };
                    let best = replier.options(&next).iter().map(|c| c.estimate).fold(0.0, f64::max);
                    sum += obs.unseen[rank as usize] as f64 * best;
                }
                let expected = if obs.stock_left() == 0 { step.value } else { sum / obs.stock_left() as f64 };
                assert_eq!(choice.estimate, expected, "card {} to {}", card.id, choice.target);
                options_checked += 1;
            }
        });
        assert!(options_checked > 52, "{options_checked} options");
    }

    #[test]
    fn with_a_lookahead_ratio_a_lone_option_skips_the_lookahead() {
        // A first card above 4 fits no foundation: the first stack is its only option.
        let deal = (0..).map(|i| Deal::from_seed(13, i)).find(|d| d.ranks[0] > 4).unwrap();
        let obs = Game::new(deal, 4).unwrap().observe();
        let estimate = |lookahead, lookahead_ratio| {
            let planner =
                Planner::new(PlannerParams { plans: 6, lookahead, lookahead_ratio, ..PlannerParams::default() });
            let options = planner.options(&obs);
            assert_eq!(options.len(), 1, "{options:?}");
            options[0].estimate
        };
        let level0 = estimate(0, 0.0);
        assert_ne!(estimate(1, 0.0), level0, "the paper looks ahead even from a lone option");
        assert_eq!(estimate(1, 0.5), level0);
    }

    #[test]
    fn a_decision_scores_its_best_plan_with_pair_games_of_half_the_pair_limit() {
        // pair_limit counts the stock cards of both foundations of a pair game: an odd limit
        // rounds down to whole cards per foundation.
        for (pair_limit, window) in [(4, 2), (7, 3)] {
            let params = PlannerParams { plans: 20, lookahead: 0, pair_limit, ..PlannerParams::default() };
            let mut planner = Planner::new(params);
            let mut game = Game::new(Deal::from_seed(8, 0), 4).unwrap();
            let mut checked = 0;
            while game.current().is_some() {
                let decision = planner.decide(&game.observe());
                game.place(decision.target.unwrap()).unwrap();
                if decision.moves.is_empty() && !planner.beam.is_empty() {
                    let score = estimate(&table_of(&game), &planner.beam[0], window).score;
                    let tolerance = 1e-9 * score.abs().max(f64::MIN_POSITIVE);
                    assert!((decision.estimate - score).abs() <= tolerance, "{} vs {score}", decision.estimate);
                    checked += 1;
                }
                for &(s, f) in &decision.moves {
                    game.move_top(s, f).unwrap();
                }
            }
            assert!(checked > 20, "pair limit {pair_limit}: {checked} decisions");
        }
    }

    #[test]
    fn tied_options_go_to_the_first_target_a_foundation_before_any_stack() {
        let params = PlannerParams { plans: 20, lookahead: 0, ..PlannerParams::default() };
        let mut ties = 0;
        for i in 0..3 {
            play_visiting(Deal::from_seed(9, i), 4, &mut Planner::new(params.clone()), |planner, game| {
                let obs = game.observe();
                let options = planner.options(&obs);
                let best = options.iter().map(|c| c.estimate).fold(f64::MIN, f64::max);
                let mut tied = options.iter().filter(|c| c.estimate == best);
                let first = tied.next().unwrap().target;
                if tied.next().is_some() {
                    assert_eq!(planner.clone().decide(&obs).target, Some(first), "{options:?}");
                    ties += 1;
                }
            });
        }
        assert!(ties > 0);
    }

    #[test]
    fn labels_give_each_stack_card_its_own_open_slot_and_nothing_else_a_label() {
        let params = PlannerParams { plans: 20, lookahead: 0, ..PlannerParams::default() };
        let mut planner = Planner::new(params);
        assert_eq!((planner.name().as_str(), planner.plan_count()), ("planner L=20 lookahead=0", 1));
        let (mut most_plans, mut labelled) = (0, 0);
        play_visiting(Deal::from_seed(6, 0), 4, &mut planner, |planner, game| {
            most_plans = most_plans.max(planner.plan_count());
            if planner.plan_count() == 0 {
                return;
            }
            let mut slots = HashSet::new();
            let stacked: HashSet<Card> = game.stacks.iter().flatten().copied().collect();
            for id in 0..52u8 {
                let card = Card { rank: game.deal().ranks[id as usize], id };
                let label = planner.label(card);
                if !stacked.contains(&card) {
                    assert_eq!(label, None, "card {id} is not on a stack");
                    continue;
                }
                let f = label.unwrap_or_else(|| panic!("stack card {id} has no foundation")) as usize;
                let slot = slot_of(f, card.rank);
                assert!(slot > game.foundations[f], "card {id} labelled for a filled slot of foundation {f}");
                assert!(slots.insert((f, slot)), "two stack cards for slot {slot} of foundation {f}");
                labelled += 1;
            }
        });
        assert!(most_plans > 1 && most_plans <= 20, "{most_plans} plans");
        assert!(labelled > 100, "{labelled} labels checked");
    }
}
