//! The 7×7 board, the spare tile, the 12 insertion points and reachability as 49-bit sets
//! (spec §2.1, §2.5). Cell `y*7+x`; `y = 0` is the north row.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::tile::{Tile, Treasure};

/// A cell index `y*7 + x`, 0..49.
pub type Cell = u8;
/// A set of cells, bit `c` for cell `c`.
pub type Cells = u64;

/// Cells per side of the board.
pub const SIZE: u8 = 7;
/// The set of every cell.
pub const ALL: Cells = (1 << 49) - 1;

/// The cell at column `x`, row `y` (0 = north).
pub fn cell(x: u8, y: u8) -> Cell {
    y * SIZE + x
}

/// The column and row of a cell.
pub fn xy(c: Cell) -> (u8, u8) {
    (c % SIZE, c / SIZE)
}

/// Fixed cells: both coordinates even (start corners included).
pub fn is_fixed(c: Cell) -> bool {
    let (x, y) = xy(c);
    x % 2 == 0 && y % 2 == 0
}

/// Steps between two cells along rows and columns, ignoring walls.
pub fn manhattan(a: Cell, b: Cell) -> u8 {
    let ((ax, ay), (bx, by)) = (xy(a), xy(b));
    ax.abs_diff(bx) + ay.abs_diff(by)
}

/// Iterates the cells of a set in increasing order.
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as Cell;
            set &= set - 1;
            c
        })
    })
}

/// One of the 12 insertion points: N1 N3 N5 (top of a column, pushing south), S1 S3 S5,
/// W1 W3 W5 (left end of a row, pushing east), E1 E3 E5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Insertion(u8);

/// The cells of each insertion's line in push order: the spare enters at `[0]`, `[6]` leaves.
const LINES: [[Cell; 7]; 12] = {
    let mut lines = [[0; 7]; 12];
    let mut i = 0;
    while i < 12 {
        let k = 1 + 2 * (i % 3) as u8;
        let mut j = 0;
        while j < 7 {
            let t = j as u8;
            lines[i][j] = match i / 3 {
                0 => t * SIZE + k,
                1 => (6 - t) * SIZE + k,
                2 => k * SIZE + t,
                _ => k * SIZE + 6 - t,
            };
            j += 1;
        }
        i += 1;
    }
    lines
};

impl Insertion {
    /// The 12 insertion points in index order: N1 N3 N5 S1 S3 S5 W1 W3 W5 E1 E3 E5.
    pub const ALL: [Insertion; 12] = {
        let mut a = [Insertion(0); 12];
        let mut i = 0;
        while i < 12 {
            a[i] = Insertion(i as u8);
            i += 1;
        }
        a
    };

    /// The insertion point of index `index` (0..12), as in [`Insertion::ALL`].
    pub fn new(index: u8) -> Option<Insertion> {
        (index < 12).then_some(Insertion(index))
    }

    /// This point's index in [`Insertion::ALL`].
    pub fn index(self) -> u8 {
        self.0
    }

    /// The point that would undo this one (N k ↔ S k, W k ↔ E k): three places on within its
    /// half of [`Insertion::ALL`].
    pub fn opposite(self) -> Insertion {
        let half = self.0 / 6 * 6;
        Insertion(half + (self.0 + 3) % 6)
    }

    /// Legal points after `last` was played: all but its opposite.
    pub fn allowed(last: Option<Insertion>) -> impl Iterator<Item = Insertion> {
        let blocked = last.map(Insertion::opposite);
        Insertion::ALL.into_iter().filter(move |&i| Some(i) != blocked)
    }

    /// The seven cells this insertion shifts, from the inserted end to the pushed-out one.
    pub fn line(self) -> &'static [Cell; 7] {
        &LINES[self.0 as usize]
    }

    /// The seven cells of [`Insertion::line`] as a set.
    pub fn line_cells(self) -> Cells {
        self.line().iter().fold(0, |m, &c| m | 1 << c)
    }

    /// Where a piece on `c` ends up: one step along the push, the pushed-out cell wrapping to
    /// the inserted one.
    pub fn push(self, c: Cell) -> Cell {
        match self.line().iter().position(|&l| l == c) {
            Some(j) => self.line()[(j + 1) % 7],
            None => c,
        }
    }

    /// Where the tile on `c` ends up (`None`: the spare): one step along the push, the
    /// pushed-out tile becoming the spare and the spare the inserted tile.
    pub fn move_tile(self, c: Option<Cell>) -> Option<Cell> {
        match c {
            None => Some(self.line()[0]),
            Some(c) if c == self.line()[6] => None,
            Some(c) => Some(self.push(c)),
        }
    }

    /// The cells whose pieces [`push`](Self::push) moves into `set`.
    pub fn pull(self, set: Cells) -> Cells {
        let line = self.line();
        let mut out = set & !self.line_cells();
        for j in 0..7 {
            if set >> line[(j + 1) % 7] & 1 != 0 {
                out |= 1 << line[j];
            }
        }
        out
    }
}

impl fmt::Display for Insertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", ['N', 'S', 'W', 'E'][(self.0 / 3) as usize], 1 + 2 * (self.0 % 3))
    }
}

/// The tiles on the board and the spare.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    #[serde(with = "tiles49")]
    tiles: [Tile; 49],
    /// The tile outside the board, inserted at the next turn.
    pub spare: Tile,
}

/// Serde for the 49 tiles as a sequence (derive stops at 32-element arrays).
mod tiles49 {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Tile;

    pub fn serialize<S: Serializer>(tiles: &[Tile; 49], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(tiles)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[Tile; 49], D::Error> {
        let v = Vec::<Tile>::deserialize(d)?;
        let n = v.len();
        v.try_into().map_err(|_| D::Error::invalid_length(n, &"49 tiles"))
    }
}

/// A board's passages as bit sets: `east` has cell c when c and c+1 are connected, `south`
/// when c and c+7 are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Maze {
    east: Cells,
    south: Cells,
}

impl Maze {
    /// Every cell connected to a cell of `from` (`from` included).
    pub fn reach(self, from: Cells) -> Cells {
        let mut r = from;
        loop {
            let e = self.east;
            let s = self.south;
            let n = r | ((r & e) << 1) | ((r >> 1) & e) | ((r & s) << 7) | ((r >> 7) & s);
            if n == r {
                return r;
            }
            r = n;
        }
    }

    /// Every cell a pawn on `c` can walk to (`c` included).
    pub fn reach_from(self, c: Cell) -> Cells {
        self.reach(1 << c)
    }
}

/// Open sides of every cell as four bit sets (N, E, S, W), from which the [`Maze`] follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sides([Cells; 4]);

/// Cells in column 6.
const EAST_EDGE: Cells = 0x40 | 0x40 << 7 | 0x40 << 14 | 0x40 << 21 | 0x40 << 28 | 0x40 << 35 | 0x40 << 42;

impl Sides {
    /// The same with cell `c`'s sides set to `open` (a tile's mask) in place of what it had.
    pub fn with_tile(self, c: Cell, open: u8) -> Sides {
        let mut s = self.0;
        for (k, side) in s.iter_mut().enumerate() {
            *side = (*side & !(1 << c)) | u64::from(open >> k & 1) << c;
        }
        Sides(s)
    }

    /// The passages: two neighbouring cells connect when both open towards each other.
    pub fn maze(self) -> Maze {
        let [n, e, s, w] = self.0;
        Maze { east: e & (w >> 1) & !EAST_EDGE, south: s & (n >> 7) }
    }
}

impl Board {
    /// A board from 49 tiles (row-major) and the spare.
    pub fn new(tiles: [Tile; 49], spare: Tile) -> Board {
        Board { tiles, spare }
    }

    /// The tile on cell `c`.
    pub fn tile(&self, c: Cell) -> Tile {
        self.tiles[c as usize]
    }

    /// The 49 tiles in cell order.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The open passages between neighbouring cells.
    pub fn maze(&self) -> Maze {
        self.sides().maze()
    }

    /// Which sides of each cell are open.
    pub fn sides(&self) -> Sides {
        let mut sides = Sides::default();
        for (c, t) in self.tiles.iter().enumerate() {
            sides = sides.with_tile(c as Cell, t.open);
        }
        sides
    }

    /// Inserts the spare turned by `rotation` at `at`; the pushed-out tile becomes the spare.
    /// Pieces are moved separately with [`Insertion::push`].
    pub fn insert(&mut self, at: Insertion, rotation: u8) {
        let line = at.line();
        let out = self.tiles[line[6] as usize];
        for j in (1..7).rev() {
            self.tiles[line[j] as usize] = self.tiles[line[j - 1] as usize];
        }
        self.tiles[line[0] as usize] = self.spare.rotated(rotation);
        self.spare = out;
    }

    /// The cell showing `t`, or `None` when it is on the spare.
    pub fn find(&self, t: Treasure) -> Option<Cell> {
        self.tiles.iter().position(|x| x.treasure == Some(t)).map(|c| c as Cell)
    }

    /// Cells showing a treasure of `set` (bit t for treasure t).
    pub fn treasure_cells(&self, set: u32) -> Cells {
        let mut out = 0;
        for (c, t) in self.tiles.iter().enumerate() {
            if let Some(t) = t.treasure
                && set >> t & 1 != 0
            {
                out |= 1 << c;
            }
        }
        out
    }
}

impl fmt::Display for Board {
    /// Box-drawing picture, one row per line, the spare last.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..SIZE {
            let row: String = (0..SIZE).map(|x| glyph(self.tile(cell(x, y)))).collect();
            writeln!(f, "{row}")?;
        }
        write!(f, "spare {}", glyph(self.spare))
    }
}

fn glyph(t: Tile) -> char {
    " ╵╶└╷│┌├╴┘─┴┐┤┬┼".chars().nth(t.open as usize).unwrap_or('?')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::labyrinth::rules::tile::{E, N, S, TREASURES, W};
    use crate::games::labyrinth::setup::new_game;
    use crate::lab::rng::game_rng;

    #[test]
    fn insertion_names_lines_and_opposites() {
        let names: Vec<String> = Insertion::ALL.iter().map(|i| i.to_string()).collect();
        assert_eq!(names, ["N1", "N3", "N5", "S1", "S3", "S5", "W1", "W3", "W5", "E1", "E3", "E5"]);
        let n3 = Insertion::new(1).unwrap();
        assert_eq!(n3.opposite().to_string(), "S3");
        assert_eq!(n3.line()[0], cell(3, 0));
        assert_eq!(n3.line()[6], cell(3, 6));
        let e5 = Insertion::new(11).unwrap();
        assert_eq!(e5.opposite().to_string(), "W5");
        assert_eq!(e5.line()[0], cell(6, 5));
        for i in Insertion::ALL {
            assert_eq!(i.opposite().opposite(), i);
            assert_eq!(Insertion::allowed(Some(i)).count(), 11);
            assert_eq!(i.push(i.line()[6]), i.line()[0], "wraps to the inserted tile");
        }
    }

    #[test]
    fn manhattan_counts_steps_along_rows_and_columns() {
        assert_eq!(manhattan(cell(1, 2), cell(4, 0)), 5);
        assert_eq!(manhattan(cell(6, 6), cell(0, 0)), 12);
        assert_eq!(manhattan(cell(3, 3), cell(3, 3)), 0);
    }

    /// On a board of crossroads every neighbour connects, and no passage leads off an edge:
    /// column 6 does not join the next row's column 0 (the fixed tiles close that wrap on a
    /// dealt board, so only such a board shows it).
    #[test]
    fn passages_stop_at_the_board_edge() {
        let crossroads = Tile { open: N | E | S | W, treasure: None };
        let maze = Board::new([crossroads; 49], crossroads).maze();
        let cells = |keep: fn(u8, u8) -> bool| (0..49).filter(|&c| keep(c % SIZE, c / SIZE)).fold(0, |m, c| m | 1 << c);
        assert_eq!(maze.east, cells(|x, _| x < SIZE - 1));
        assert_eq!(maze.south, cells(|_, y| y < SIZE - 1));
        assert_eq!(maze.reach_from(cell(3, 3)), ALL);
    }

    /// `with_tile` replaces what a cell had: the sides of the board with that tile changed.
    #[test]
    fn with_tile_replaces_a_cells_sides() {
        let board = new_game(2, None, &mut game_rng(1, 0)).board;
        for c in 0..49 {
            for open in 0..16 {
                let mut tiles: [Tile; 49] = board.tiles().try_into().expect("49 tiles");
                tiles[c as usize].open = open;
                assert_eq!(board.sides().with_tile(c, open), Board::new(tiles, board.spare).sides(), "cell {c}");
            }
        }
    }

    /// `treasure_cells` holds the cells where `find` sees the treasures of the set.
    #[test]
    fn treasure_cells_are_where_the_set_is_found() {
        let board = new_game(2, None, &mut game_rng(2, 0)).board;
        let every = (1 << TREASURES.len()) - 1;
        for set in [0, 1, 0b1011_0000_0110, 0b1111_0000_1111_0000, every] {
            let in_set = (0..TREASURES.len() as Treasure).filter(|&t| set >> t & 1 != 0);
            let want = in_set.filter_map(|t| board.find(t)).fold(0, |m, c| m | 1 << c);
            assert_eq!(board.treasure_cells(set), want, "set {set:#b}");
        }
    }

    /// Each treasure ends where `move_tile` says once `Board::insert` has pushed the line,
    /// the spare's and the pushed-out tile's included.
    #[test]
    fn move_tile_follows_insert() {
        let (mut spare_entered, mut pushed_out) = (false, false);
        for seed in 0..8 {
            let board = new_game(2, None, &mut game_rng(seed, 0)).board;
            for at in Insertion::ALL {
                let mut after = board.clone();
                after.insert(at, 0);
                for t in 0..TREASURES.len() as Treasure {
                    let before = board.find(t);
                    assert_eq!(after.find(t), at.move_tile(before), "seed {seed}, {at}, treasure {t}");
                    spare_entered |= before.is_none();
                    pushed_out |= before == Some(at.line()[6]);
                }
            }
        }
        assert!(spare_entered && pushed_out, "the deals put treasures on the spare and the pushed-out cell");
    }

    #[test]
    fn pull_inverts_push() {
        for i in Insertion::ALL {
            for c in 0..49 {
                assert_eq!(i.pull(1 << i.push(c)), 1 << c);
            }
        }
    }
}
