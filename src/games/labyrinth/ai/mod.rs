//! The bots (spec §3-4, §7): the web project's Random, Big Brain and Saboteur, the thesis's
//! five criteria on one search framework, and asobi's own bot. Every bot sees only an
//! [`Observation`], decides on any thread, and explains its choice.

pub mod asobi;
pub mod big_brain;
pub mod criteria;
pub mod node;
pub mod random;
pub mod saboteur;

use std::fmt;

use super::level::Params;
use super::rules::board::xy;
use super::rules::{Observation, Turn};
use crate::lab::rng::GameRng;

/// A chosen turn, a short human-readable reason (for the log panel) and the search effort.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The turn to play.
    pub turn: Turn,
    /// Why, in a few words.
    pub why: String,
    /// Turn candidates (children) generated or boards evaluated.
    pub nodes: u64,
    /// The node budget ran out before the search found what it looked for.
    pub exhausted: bool,
}

impl Decision {
    /// A decision made without a budgeted search.
    pub fn plain(turn: Turn, why: String, nodes: u64) -> Decision {
        Decision { turn, why, nodes, exhausted: false }
    }

    /// The turn as the screen's log and `labyrinth match --trace` print it, e.g.
    /// "player 1 (asobi): E3 rot 0 -> (6, 4) [88 nodes] asobi: target now; ...".
    pub fn describe(&self, seat: usize, bot: BotKind) -> String {
        let t = self.turn;
        let budget = if self.exhausted { ", budget ran out" } else { "" };
        let (ins, rot, dest, nodes, why) = (t.insertion, t.rotation, xy(t.dest), self.nodes, &self.why);
        format!("player {} ({bot}): {ins} rot {rot} -> {dest:?} [{nodes} nodes{budget}] {why}", seat + 1)
    }
}

/// A Labyrinth policy. `rng` is the bot's own stream (ties, fallbacks).
pub trait Bot: Send + Sync {
    /// The whole turn of the player to move: insertion, rotation of the spare and destination.
    fn decide(&self, obs: &Observation, rng: &mut GameRng) -> Decision;
}

/// Every bot by its command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BotKind {
    /// Uniform over legal insertions, then over reachable cells (the web project).
    Random,
    /// Breadth-first search for the target over its own turns (the web project).
    BigBrain,
    /// One ply: near other pieces, few cells they can reach (the web project).
    Saboteur,
    /// The thesis's treasure-count criterion.
    TreasureCount,
    /// The thesis's distance criterion.
    Distance,
    /// The thesis's static-tile criterion.
    StaticTile,
    /// The thesis's hybrid criterion.
    Hybrid,
    /// The thesis's slide-direction criterion.
    SlideDirection,
    /// asobi's own bot: the chance to reach the target next turn, and hindering the next player.
    Asobi,
}

impl BotKind {
    /// Every bot, in the order the command line lists them.
    pub const ALL: [BotKind; 9] = [
        BotKind::Random,
        BotKind::BigBrain,
        BotKind::Saboteur,
        BotKind::TreasureCount,
        BotKind::Distance,
        BotKind::StaticTile,
        BotKind::Hybrid,
        BotKind::SlideDirection,
        BotKind::Asobi,
    ];

    /// The name the command line and the app use.
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::BigBrain => "big-brain",
            BotKind::Saboteur => "saboteur",
            BotKind::TreasureCount => "treasure-count",
            BotKind::Distance => "distance",
            BotKind::StaticTile => "static-tile",
            BotKind::Hybrid => "hybrid",
            BotKind::SlideDirection => "slide-direction",
            BotKind::Asobi => "asobi",
        }
    }

    /// The bot of a command-line name.
    pub fn from_name(name: &str) -> Option<BotKind> {
        BotKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The bot with the constants of `params`.
    pub fn build(self, params: &Params) -> Box<dyn Bot> {
        let search = params.search.clone();
        match self {
            BotKind::Random => Box::new(random::RandomBot),
            BotKind::BigBrain => Box::new(big_brain::BigBrain(params.big_brain.clone())),
            BotKind::Saboteur => Box::new(saboteur::Saboteur(params.saboteur.clone())),
            BotKind::TreasureCount => Box::new(criteria::CriterionBot::new(params.treasure_count.clone(), search)),
            BotKind::Distance => Box::new(criteria::CriterionBot::new(params.distance.clone(), search)),
            BotKind::StaticTile => Box::new(criteria::CriterionBot::new(params.static_tile.clone(), search)),
            BotKind::Hybrid => Box::new(criteria::CriterionBot::new(params.hybrid.clone(), search)),
            BotKind::SlideDirection => Box::new(criteria::CriterionBot::new(params.slide_direction.clone(), search)),
            BotKind::Asobi => Box::new(asobi::AsobiBot(params.asobi.clone())),
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        BotKind::from_name(s.trim()).ok_or_else(|| {
            let names: Vec<&str> = BotKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown bot '{s}' (expected one of {})", names.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bot_reads_back_from_its_name_and_a_bad_name_lists_them() {
        for kind in BotKind::ALL {
            assert_eq!(kind.to_string().parse::<BotKind>(), Ok(kind));
            assert_eq!(BotKind::from_name(kind.name()), Some(kind));
        }
        let names: std::collections::HashSet<String> = BotKind::ALL.iter().map(BotKind::to_string).collect();
        assert_eq!(names.len(), BotKind::ALL.len());
        let error = " big-brian ".parse::<BotKind>().unwrap_err();
        assert!(error.starts_with("unknown bot ' big-brian '") && error.contains("big-brain, saboteur"), "{error}");
    }
}

/// Positions the bots' tests decide from.
#[cfg(test)]
pub(crate) mod test_positions {
    use super::Bot;
    use super::random::RandomBot;
    use crate::games::labyrinth::rules::{Board, GameState, Observation, Player, Turn};
    use crate::games::labyrinth::setup::new_game;
    use crate::lab::rng::game_rng;

    /// Games of 2-4 seats after random turns, and one where seat 1 is going home.
    pub fn positions() -> Vec<Observation> {
        let mut out: Vec<Observation> =
            (0..6u64).map(|seed| scrambled(seed, 31, 2 + seed as usize % 3, seed as u32 * 3)).collect();
        let board = new_game(2, Some(0), &mut game_rng(9, 0)).board;
        let players = vec![Player::mid_game(0, 0, vec![3, 4, 5], 1), Player::mid_game(48, 24, vec![6, 7], 2)];
        out.push(GameState::new(board, players, 0).observe(0));
        out
    }

    /// Two-seat positions where no turn ends on the target this round.
    pub fn out_of_reach() -> Vec<Observation> {
        let found: Vec<Observation> = (0..40u64)
            .map(|seed| scrambled(seed, 32, 2, seed as u32 % 7))
            .filter(|obs| !obs.legal_turns().into_iter().any(|t| reaches_target(obs, t)))
            .take(3)
            .collect();
        assert!(!found.is_empty(), "no position out of reach this round");
        found
    }

    /// Whether `turn` ends on the observer's target.
    pub fn reaches_target(obs: &Observation, turn: Turn) -> bool {
        obs.target_cell(&board_after(obs, turn)) == Some(turn.dest)
    }

    /// The board once `turn`'s insertion is played.
    pub fn board_after(obs: &Observation, turn: Turn) -> Board {
        let mut board = obs.board.clone();
        board.insert(turn.insertion, turn.rotation);
        board
    }

    /// What the player to move sees after `plies` random turns of a new `players`-seat game.
    fn scrambled(seed: u64, stream: u64, players: usize, plies: u32) -> Observation {
        let mut rng = game_rng(seed, stream);
        let mut g = new_game(players, None, &mut rng);
        while g.plies < plies && !g.is_over() {
            g.apply(RandomBot.decide(&g.observe(g.current), &mut rng).turn).unwrap();
        }
        g.observe(g.current)
    }
}
