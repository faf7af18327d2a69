//! A search node over the bot's own turns with frozen opponents (spec §3 Big Brain, §4.1):
//! a board, the previous insertion and every piece, and its expansion into insertions.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::games::labyrinth::rules::{Board, Cell, Insertion, Maze, Observation, Turn};

/// A position in the search: the opponents stand still, only the board and pieces change.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The board after the turns so far.
    pub board: Board,
    /// The insertion that made this board (its opposite is barred next).
    pub last: Option<Insertion>,
    /// Every piece, by seat.
    pub pos: Vec<Cell>,
}

/// A node right after an insertion, before the move.
pub struct Inserted {
    /// The node after the insertion, pieces moved along.
    pub node: Node,
    /// Its passages, to find the reachable cells.
    pub maze: Maze,
    /// Quarter turns clockwise of the inserted spare.
    pub rotation: u8,
}

impl Inserted {
    /// Where the spare went in.
    pub fn insertion(&self) -> Insertion {
        self.node.last.expect("an inserted node has its insertion")
    }

    /// The whole turn that reaches this node's insertion and then walks to `dest`.
    pub fn turn(&self, dest: Cell) -> Turn {
        Turn { insertion: self.insertion(), rotation: self.rotation, dest }
    }

    /// The node after `seat` moves to `dest`.
    pub fn moved(&self, seat: usize, dest: Cell) -> Node {
        let mut n = self.node.clone();
        n.pos[seat] = dest;
        n
    }
}

impl Node {
    /// The position the player to move observes.
    pub fn root(obs: &Observation) -> Node {
        Node { board: obs.board.clone(), last: obs.last, pos: obs.players.iter().map(|p| p.pos).collect() }
    }

    /// The node after inserting the spare turned by `rotation` at `at`, pieces riding along.
    pub fn inserted(&self, at: Insertion, rotation: u8) -> Inserted {
        let mut node = self.clone();
        node.board.insert(at, rotation);
        node.last = Some(at);
        for p in &mut node.pos {
            *p = at.push(*p);
        }
        let maze = node.board.maze();
        Inserted { node, maze, rotation }
    }

    /// Every allowed insertion × 4 rotations, in canonical order.
    pub fn insertions(&self) -> impl Iterator<Item = Inserted> + '_ {
        Insertion::allowed(self.last).flat_map(move |at| (0..4).map(move |r| self.inserted(at, r)))
    }

    /// A hash of the full state (tiles, spare, pieces, previous insertion) for duplicate checks.
    pub fn key(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }
}
