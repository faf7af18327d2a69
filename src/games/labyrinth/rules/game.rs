//! The game state, a turn (insert, move) and applying it: collecting and winning (spec §2.5).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::board::{Board, Cell, Insertion};
use super::observation::{Observation, PublicPlayer, Target};
use super::tile::Treasure;

/// One turn: the spare's rotation and insertion point, then the destination of the move
/// (the piece's own cell to stay put).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    /// Where the spare is pushed in.
    pub insertion: Insertion,
    /// Quarter turns clockwise, 0..4.
    pub rotation: u8,
    /// The cell the piece moves to.
    pub dest: Cell,
}

/// Why a turn was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum IllegalTurn {
    /// A turn after someone won.
    #[error("the game is over")]
    GameOver,
    /// The insertion that would push back the previous one.
    #[error("insertion {0} would undo the previous insertion")]
    Blocked(Insertion),
    /// A rotation outside 0..4.
    #[error("rotation {0} is not 0-3")]
    Rotation(u8),
    /// A destination the piece cannot reach.
    #[error("cell {0} is not reachable after the insertion")]
    Unreachable(Cell),
}

/// One seat: start corner, piece, and the card stack (hidden except for revealed cards).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The start corner, where a player with every card found must return.
    pub home: Cell,
    /// The cell the piece stands on.
    pub pos: Cell,
    /// The whole stack in order; the first `found` are revealed.
    cards: Vec<Treasure>,
    found: usize,
}

impl Player {
    /// A seat at its start corner with its card stack, nothing revealed.
    pub fn new(home: Cell, cards: Vec<Treasure>) -> Player {
        Player { home, pos: home, cards, found: 0 }
    }

    /// A seat in the middle of a game: `found` of `cards` already revealed (tests, puzzles).
    pub fn mid_game(home: Cell, pos: Cell, cards: Vec<Treasure>, found: usize) -> Player {
        assert!(pos < 49 && found <= cards.len());
        Player { home, pos, cards, found }
    }

    /// The cards not yet revealed, in order: the game master's view, never given to a bot.
    pub fn hidden(&self) -> &[Treasure] {
        &self.cards[self.found..]
    }

    /// The cards already found, in order.
    pub fn revealed(&self) -> &[Treasure] {
        &self.cards[..self.found]
    }

    /// The card being searched for; `None` once all are revealed (going home).
    pub fn current_card(&self) -> Option<Treasure> {
        self.cards.get(self.found).copied()
    }

    /// Cards not yet found.
    pub fn cards_left(&self) -> usize {
        self.cards.len() - self.found
    }
}

/// A whole game: board, spare, previous insertion, players and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The tiles on the board and the spare.
    pub board: Board,
    /// The previous insertion: its opposite is blocked this turn.
    pub last: Option<Insertion>,
    players: Vec<Player>,
    /// Whose turn it is (seat index).
    pub current: usize,
    /// Turns played by all players together.
    pub plies: u32,
    /// The seat that won, once the game is over.
    pub winner: Option<usize>,
}

impl GameState {
    /// A game on `board` with 2-4 seats, seat `first` to move.
    pub fn new(board: Board, players: Vec<Player>, first: usize) -> GameState {
        assert!((2..=4).contains(&players.len()) && first < players.len());
        GameState { board, last: None, players, current: first, plies: 0, winner: None }
    }

    /// Every seat, in seat order.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Whether someone has won.
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// What `seat` may see: the board, every piece, every revealed card, its own current card.
    pub fn observe(&self, seat: usize) -> Observation {
        let me = &self.players[seat];
        Observation {
            board: self.board.clone(),
            last: self.last,
            me: seat,
            target: me.current_card().map_or(Target::Home, Target::Treasure),
            players: self
                .players
                .iter()
                .map(|p| PublicPlayer {
                    home: p.home,
                    pos: p.pos,
                    revealed: p.revealed().to_vec(),
                    cards_left: p.cards_left(),
                })
                .collect(),
        }
    }

    /// Checks a turn of the current player without playing it.
    pub fn check(&self, turn: Turn) -> Result<(), IllegalTurn> {
        if self.is_over() {
            return Err(IllegalTurn::GameOver);
        }
        if Some(turn.insertion) == self.last.map(Insertion::opposite) {
            return Err(IllegalTurn::Blocked(turn.insertion));
        }
        if turn.rotation > 3 {
            return Err(IllegalTurn::Rotation(turn.rotation));
        }
        let mut board = self.board.clone();
        board.insert(turn.insertion, turn.rotation);
        let pos = turn.insertion.push(self.players[self.current].pos);
        if turn.dest >= 49 || board.maze().reach_from(pos) >> turn.dest & 1 == 0 {
            return Err(IllegalTurn::Unreachable(turn.dest));
        }
        Ok(())
    }

    /// Plays a turn of the current player: insert with wrap, move, collect, maybe win.
    pub fn apply(&mut self, turn: Turn) -> Result<(), IllegalTurn> {
        self.check(turn)?;
        self.board.insert(turn.insertion, turn.rotation);
        for p in &mut self.players {
            p.pos = turn.insertion.push(p.pos);
        }
        self.last = Some(turn.insertion);
        let p = &mut self.players[self.current];
        p.pos = turn.dest;
        match p.current_card() {
            Some(t) if self.board.tile(turn.dest).treasure == Some(t) => p.found += 1,
            None if turn.dest == p.home => self.winner = Some(self.current),
            _ => {}
        }
        self.plies += 1;
        if self.winner.is_none() {
            self.current = (self.current + 1) % self.players.len();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::Rng;

    use super::*;
    use crate::games::labyrinth::rules::board::{ALL, cells_of, xy};
    use crate::games::labyrinth::rules::tile::{E, N, S, W};
    use crate::games::labyrinth::setup::new_game;
    use crate::lab::rng::game_rng;

    /// Reachability the slow way: breadth-first over neighbours, checking both tiles' sides.
    fn slow_reach(board: &Board, from: Cell) -> u64 {
        let mut seen = 1u64 << from;
        let mut todo = vec![from];
        while let Some(c) = todo.pop() {
            let (x, y) = xy(c);
            let steps = [(N, S, 0, -1), (S, N, 0, 1), (E, W, 1, 0), (W, E, -1, 0)];
            for (out, back, dx, dy) in steps {
                let (nx, ny) = (x as i8 + dx, y as i8 + dy);
                if !(0..7).contains(&nx) || !(0..7).contains(&ny) {
                    continue;
                }
                let n = (ny * 7 + nx) as Cell;
                if board.tile(c).is_open(out) && board.tile(n).is_open(back) && seen >> n & 1 == 0 {
                    seen |= 1 << n;
                    todo.push(n);
                }
            }
        }
        seen
    }

    /// Tiles as a sorted multiset, rotation-free (shape + treasure), the spare included.
    fn multiset(board: &Board) -> Vec<(u8, Option<Treasure>)> {
        let mut v: Vec<_> = board.tiles().iter().chain([&board.spare]).map(|t| (t.shape() as u8, t.treasure)).collect();
        v.sort();
        v
    }

    /// A random legal turn for the current player.
    fn random_turn(g: &GameState, rng: &mut crate::lab::rng::GameRng) -> Turn {
        let turns = g.observe(g.current).legal_turns();
        turns[rng.random_range(0..turns.len())]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(64)))]
        #[test]
        fn invariants_hold_under_random_play(seed in any::<u64>(), players in 2usize..=4) {
            let mut rng = game_rng(seed, 0);
            let mut g = new_game(players, None, &mut rng);
            let tiles = multiset(&g.board);
            for _ in 0..60 {
                if g.is_over() { break; }
                let t = random_turn(&g, &mut rng);
                g.apply(t).unwrap();
                prop_assert_eq!(&multiset(&g.board), &tiles, "tile multiset conserved, one spare");
                prop_assert!(g.players().iter().all(|p| p.pos < 49));
                let maze = g.board.maze();
                for c in 0..49 {
                    let fast = maze.reach_from(c);
                    prop_assert_eq!(fast, slow_reach(&g.board, c));
                    prop_assert_eq!(fast & !ALL, 0);
                    for d in cells_of(fast) {
                        prop_assert!(maze.reach_from(d) >> c & 1 == 1, "reachability is symmetric");
                    }
                }
            }
        }
    }

    #[test]
    fn a_stack_splits_into_revealed_and_hidden_cards() {
        let p = Player::mid_game(0, 8, vec![3, 14, 7, 20], 2);
        assert_eq!(p.revealed(), [3, 14]);
        assert_eq!(p.hidden(), [7, 20]);
        assert_eq!((p.current_card(), p.cards_left()), (Some(7), 2));
        let done = Player::mid_game(0, 0, vec![3, 14], 2);
        assert_eq!(done.revealed(), [3, 14]);
        assert!(done.hidden().is_empty());
        assert_eq!((done.current_card(), done.cards_left()), (None, 0));
    }

    #[test]
    fn blocked_and_unreachable_turns_are_refused() {
        let mut rng = game_rng(3, 0);
        let mut g = new_game(2, Some(0), &mut rng);
        let t = random_turn(&g, &mut rng);
        g.apply(t).unwrap();
        let undo = Turn { insertion: t.insertion.opposite(), rotation: 0, dest: g.players()[1].pos };
        assert_eq!(g.check(undo), Err(IllegalTurn::Blocked(undo.insertion)));
        let reach = {
            let mut b = g.board.clone();
            b.insert(t.insertion, 0);
            b.maze().reach_from(t.insertion.push(g.players()[1].pos))
        };
        let far = (0..49).find(|&c| reach >> c & 1 == 0).unwrap();
        let bad = Turn { insertion: t.insertion, rotation: 0, dest: far };
        assert_eq!(g.check(bad), Err(IllegalTurn::Unreachable(far)));
        assert!(g.check(Turn { dest: 200, ..bad }).is_err());
        assert_eq!(g.check(Turn { rotation: 4, ..bad }), Err(IllegalTurn::Rotation(4)));
    }

    #[test]
    fn wrapped_piece_lands_on_the_inserted_tile() {
        let mut g = new_game(2, Some(0), &mut game_rng(5, 0));
        let at = Insertion::new(6).unwrap(); // W1: row 1, pushing east
        g.players[1].pos = at.line()[6];
        let inserted = g.board.spare.rotated(1);
        let pushed_out = g.board.tile(at.line()[6]);
        g.apply(Turn { insertion: at, rotation: 1, dest: g.players()[0].pos }).unwrap();
        assert_eq!(g.board.tile(at.line()[0]), inserted);
        assert_eq!(g.board.spare, pushed_out);
        assert_eq!(g.players()[1].pos, at.line()[0], "the piece wraps onto the inserted tile");
        assert_eq!(g.last, Some(at));
    }

    #[test]
    fn collecting_and_returning_home_wins() {
        let mut rng = game_rng(11, 0);
        let mut g = new_game(2, Some(0), &mut rng);
        // Play a game where seat 0 always walks onto its target when it can.
        while !g.is_over() && g.plies < 2000 {
            let obs = g.observe(g.current);
            let turns = obs.legal_turns();
            let hit = turns.iter().copied().find(|t| {
                let mut b = obs.board.clone();
                b.insert(t.insertion, t.rotation);
                obs.target_cell(&b) == Some(t.dest)
            });
            let before = g.players()[g.current].cards_left();
            let seat = g.current;
            let t = hit.unwrap_or(turns[rng.random_range(0..turns.len())]);
            g.apply(t).unwrap();
            let after = g.players()[seat].cards_left();
            assert_eq!(after + usize::from(hit.is_some() && before > 0), before, "one card per hit");
        }
        let w = g.winner.expect("a greedy game ends");
        assert_eq!(g.players()[w].cards_left(), 0);
        assert_eq!(g.players()[w].pos, g.players()[w].home);
        assert!(g.apply(Turn { insertion: Insertion::ALL[0], rotation: 0, dest: 0 }).is_err());
    }
}
