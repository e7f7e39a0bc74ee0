//! The ko census of a board: strings and breaths, ko strings, ko mouths, ko
//! couplings, ko positions, and the ko type of each ko position, after
//! Robert Jasiek's "The New Ko Rules" and its pages "Examples 1" and "The
//! Ko Coupling Rules" (all at `home.snafu.de/jasiek/`).
//!
//! Jasiek defines a *ko string* through move-sequences: a string that some
//! move of a cyclical move-sequence captures whole. Read literally that is a
//! search over all move-sequences of the board. We compute a local,
//! decidable reading of it, and say where it is a choice (**Choice**):
//!
//! * **String**, **breath**: a maximal connected set of stones of one
//!   colour; a breath is an empty point next to it (Jasiek's word for a
//!   liberty).
//! * **Ko mouth** (Choice K1). A set `M = S ∪ E` of board points where `S`
//!   is a string of colour `C` of 1 to 3 stones, `E` the empty points
//!   connected (through empty points) to its breaths, at most 3, every
//!   neighbour of `S` outside `M` is an opponent stone or the edge, every
//!   neighbour of `E` outside `M` is a stone of `C` or the edge, and the
//!   opponent, filling `E`, captures `S` and is left with the string `E`
//!   whose breaths lie in `S` (so that `C`, filling `S` again, captures it
//!   back: the two fills are a cyclical move-sequence, with moves elsewhere
//!   in between when `|E| > 1`). `S` is then a **ko string** and its stones
//!   **ko stones**: a *single*, *double* or *triple* ko stone by the size of
//!   `S`. The basic ko is `|S| = |E| = 1`; the paper's four-point mouths
//!   (`c-d`, `n-o`) are `|S| = |E| = 2`. A ko string found this way fills
//!   its side of the mouth, so it is **complete** (Choice K2: the paper's
//!   incomplete ko strings, a stone just played into a bigger mouth, are
//!   not found by this reading; they are not ko strings here).
//! * **K1a** (Choice, for the triple ko of "fighting rule (2)"): when
//!   filling `E` also captures strings of `C` in atari (their last breath in
//!   `E`), the mouth still counts if each of them touches another ko mouth
//!   found by K1. In a triple ko between two eyeless groups the group with
//!   one breath is taken whole by a capture in its mouth now, but once it
//!   takes a ko elsewhere in the coupling the same capture takes the ko
//!   stone alone, in a cyclical move-sequence, as Jasiek's definition asks.
//!   A basic ko beside a group in atari, with no other mouth to give it
//!   breaths, stays no mouth.
//! * **K4** (Choice, for eternal life): K1 asks the empty side of a mouth
//!   to touch only the ko string's colour, but Examples 1 says of eternal
//!   life "Also on the eternal life an infinite ko stone MS can be played.
//!   The ko mouth consists of more than two board points. Thus the ko
//!   position is a FK", and of a single DLife that a four-point mouth "has
//!   two ko strings": one mouth can hold ko strings of both colours, its
//!   empty points touching both colours' walls. So when K1 finds no mouth
//!   for a string `S` of 1 to 3 stones, we take its *region*: `S`, the
//!   empty points connected to it, and every string of at most 3 stones
//!   (not of the frame) next to one of those empty points, grown until
//!   nothing more joins, at most [`K4_POINTS`] points. The region is a ko
//!   mouth when every neighbour outside it is a stone, both colours' stones
//!   are among those neighbours, and a *cycle of four plays* exists in it:
//!   alternate board plays on its points (either player first, ko bans
//!   ignored, as in Jasiek's "without rules"), each player capturing once,
//!   after which the board is as before (eternal life's `B[acbd]`). Its
//!   ko strings are the strings in the region; each is complete when a
//!   capture of the cycle takes it as it stands (in eternal life neither
//!   is: each is captured with the stone played next to it). A region that
//!   shares a point with a mouth by K1 is not a K4 mouth, and each region
//!   counts once. Longer cycles (six plays and more) are not searched. The
//!   cycle of sending two, returning one has three plays and is not found.
//! * **Ko coupling** ("The Ko Coupling Rules"): at least two ko mouths,
//!   each adjacent to no empty point outside itself and each adjacent to
//!   exactly the same set of strings (outside the mouths); that set of
//!   strings is the coupling. (Choice K3: "the same set" literally; two
//!   mouths on one big wall but with different inner strings are not
//!   coupled.)
//! * **Ko position**: the union of the ko mouths of one coupling, or a ko
//!   mouth that belongs to no coupling. A coupling does not belong to its
//!   ko position.
//!
//! # Ko types (Choice T1, reconstructed from the examples)
//!
//! Let the coupling strings of a ko position be `K` (empty for a single
//! mouth).
//! * **DLife** (with a coupling): every string of `K` has at least two
//!   breaths (**stable**), or some move in the ko position gives every
//!   string of `K` at least two breaths (**instable**).
//! * **DDeath** (with a coupling): exactly two ko mouths, and the strings
//!   of `K` of one colour (the *dying* colour) all have breaths only in the
//!   ko position. **Stable** when the ko position holds ko stones of both
//!   colours and some string of `K` has one breath while the strings of
//!   `K` of the other colour have at least two; **instable** otherwise.
//! * A single mouth: a **single DDeath** when the strings adjacent to the
//!   mouth of one colour all have at least two breaths, while with a ko
//!   stone of that colour in the mouth (the present ko string being of that
//!   colour, or after its capture) the other colour's adjacent strings have
//!   one breath each; otherwise a **FK** when the mouth allows an infinite
//!   ko-stone move-sequence: here, a basic-ko mouth (two points) whose
//!   adjacent strings all have at least two breaths, or a bigger mouth
//!   (Choice T2: every bigger mouth found by K1 allows the endless refill
//!   cycle, so it is a FK); else a **single DLife**.
//! * A single mouth by K4 is a **FK** (Choice T3, the text's reason for
//!   eternal life: an infinite ko-stone MS, a mouth of more than two
//!   points).
//! * Anything else is a **FK** (fighting ko), the triple ko among them (its
//!   three mouths are more than a DDeath's two).
//!
//! The census is computed from the board alone (no history); the New Ko
//! Rules ([`super::korules`]) consult it before each move. A game keeps it
//! from move to move with [`census_after_play`]: strings are named by their
//! first stone, so what a move does not reach keeps its name; only the
//! strings through stones next to the move and its captures are found
//! again, only the strings whose reading looked at a point near them are
//! read again (each reading records the area it looked at), and the ko
//! positions are assembled again only when a mouth changed, and then only
//! those whose group of mouths changed (their types only near the change).
//! The strings, their readings and the id on each point are held in rows of
//! the board, each shared with the census before unless the move reached
//! it, and the readings with a mouth in a list of their own: a move's cost
//! does not grow with the number of strings on the board. Tested equal to
//! [`census`] after every move of random games.
//!
//! One file (past 1 500 lines) because the full census and its incremental
//! update read and write the same private records (strings by first stone,
//! readings with their areas, mouths, ko positions), and the update is only
//! correct while it mirrors the full census step for step.

use super::position::{Cell, Colour, Position};
use super::scratch::Scratch;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::rc::Rc;

/// A string: its colour, stones and breaths (point indices, sorted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoString {
    pub colour: Colour,
    pub stones: Vec<usize>,
    pub breaths: Vec<usize>,
}

/// Every string of the board, in the order of their first stone.
pub fn strings(pos: &Position) -> Vec<GoString> {
    strings_on(&mut Scratch::new(pos))
        .into_iter()
        .map(Rc::unwrap_or_clone)
        .collect()
}

/// [`strings`] of the board of `b` (its walks mark points in place, where
/// [`Position::chain`] allocates a board-sized table per string).
fn strings_on(b: &mut Scratch) -> Vec<Rc<GoString>> {
    let pos = b.pos;
    let mut seen = vec![false; pos.cells_len()];
    let mut out = Vec::new();
    for p in 0..pos.cells_len() {
        if seen[p] {
            continue;
        }
        if let Cell::Stone(colour) = pos.cell(p) {
            let stones = b.chain(p);
            for &q in &stones {
                seen[q] = true;
            }
            let breaths = b.liberties(&stones);
            out.push(Rc::new(GoString {
                colour,
                stones,
                breaths,
            }));
        }
    }
    out
}

/// One ko mouth: the ko string `string` (its colour and stones) and the
/// empty points `empty` the opponent fills to capture it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoMouth {
    pub colour: Colour,
    pub string: Vec<usize>,
    pub empty: Vec<usize>,
    /// Indices (into [`Census::strings`]) of the strings next to the mouth,
    /// outside it. (A mouth found by K1 or K4 touches no empty point
    /// outside itself: its neighbours are all stones.)
    pub adjacent: Vec<usize>,
    /// The mouth's other ko strings (colour, stones): none for a mouth by
    /// K1; for a mouth between walls of both colours (K4, eternal life) the
    /// strings in it besides `string`, which is the one with the first
    /// stone.
    pub also: Vec<(Colour, Vec<usize>)>,
    /// Whether the mouth was found by K4 (between walls of both colours).
    pub both_walls: bool,
    /// For `string` and then each of `also`: whether it is a complete ko
    /// string (captured as it stands by a move of the cycle found).
    pub complete: Vec<bool>,
    /// The board points of the mouth, sorted ([`KoMouth::points`]).
    all: Vec<usize>,
}

impl KoMouth {
    /// The board points of the mouth, sorted.
    pub fn points(&self) -> &[usize] {
        &self.all
    }

    /// `self` with its points ([`KoMouth::points`]) filled in.
    fn with_points(mut self) -> KoMouth {
        let mut v: Vec<usize> = self
            .string
            .iter()
            .chain(self.also.iter().flat_map(|(_, s)| s))
            .chain(&self.empty)
            .copied()
            .collect();
        v.sort_unstable();
        self.all = v;
        self
    }
}

/// The type of a ko position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum KoType {
    /// Fighting ko.
    Fk,
    /// Disturbing ko, life: `stable`, `coupled` (has a ko coupling).
    DLife { stable: bool, coupled: bool },
    /// Disturbing ko, death; `dying` is the colour whose strings die.
    DDeath {
        stable: bool,
        coupled: bool,
        dying: Colour,
    },
}

impl KoType {
    pub fn is_dk(self) -> bool {
        !matches!(self, KoType::Fk)
    }

    /// `FK`, `stable DLife`, `single DDeath`, …
    pub fn describe(self) -> String {
        match self {
            KoType::Fk => "FK".into(),
            KoType::DLife { coupled: false, .. } => "single DLife".into(),
            KoType::DDeath { coupled: false, .. } => "single DDeath".into(),
            KoType::DLife { stable, .. } => {
                format!("{} DLife", if stable { "stable" } else { "instable" })
            }
            KoType::DDeath { stable, .. } => {
                format!("{} DDeath", if stable { "stable" } else { "instable" })
            }
        }
    }
}

/// A ko position: its mouths (indices into [`Census::mouths`]), its ko
/// coupling (string ids, see [`Census::string`]; empty for a single
/// mouth), its board points and its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoPosition {
    pub mouths: Vec<usize>,
    pub coupling: Vec<usize>,
    pub points: Vec<usize>,
    pub ko_type: KoType,
}

/// The ko census of a board (module docs). A string is named by its *id*,
/// its first stone (the least point index): the id of a string a move does
/// not touch stays the same, so mouths, couplings and ko positions found
/// on one board hold on the next without renumbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// The strings with what the census read of each, and the id on each
    /// point, by rows of the board: a row is shared with the census of the
    /// next board when the move changed nothing in it ([`census_after`]
    /// copies the rows it touches and a pointer per row, whatever the
    /// number of strings).
    table: Table,
    /// The readings that found a mouth, with their string's id, in the
    /// order of the ids: all that [`collect_mouths`] needs of the readings
    /// (shared with the census of the next board when none of them
    /// changed).
    mouthed: Rc<Vec<(usize, Rc<Reading>)>>,
    /// Shared with the census of the next board when no mouth changed.
    pub mouths: Rc<Vec<Rc<KoMouth>>>,
    /// The ko couplings: each a set of strings (ids).
    pub couplings: Rc<Vec<Vec<usize>>>,
    /// Shared with the census of the next board when no ko position
    /// changed; each one shared when it did not change.
    pub positions: Rc<Vec<Rc<KoPosition>>>,
    /// Every point of every ko position, sorted (shared as `positions`).
    ko_points: Rc<Vec<usize>>,
    /// The sum of [`stone_word`] over the stones of the board, kept from
    /// board to board by [`census_after`] (the New Ko Rules' epoch key).
    stones_hash: u64,
}

/// The strings of a board, each with its reading, and the id of the string
/// on each point, in rows of the board ([`Census::table`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Table {
    width: usize,
    rows: Vec<Row>,
}

/// A row of a [`Table`]: its points, and the least and greatest point of
/// the areas of the readings held in the row (`(usize::MAX, 0)` when none
/// has one): a row whose range lies outside the points near a move keeps
/// its readings without looking at them.
type Row = (Rc<[Slot]>, (usize, usize));

/// A point of a [`Table`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct Slot {
    /// The id of the string on the point (`usize::MAX` if empty).
    id: usize,
    /// On a string's first stone (its id): the string, with what the census
    /// read of it, kept so that [`census_after`] reads again only the
    /// strings a move can have changed the reading of.
    string: Option<(Rc<GoString>, Rc<Reading>)>,
}

/// `range` (a row's [`Table::rows`] range) widened to hold `r`'s area.
fn widen(range: &mut (usize, usize), r: &Reading) {
    for &p in r.area.as_slice() {
        *range = (range.0.min(p), range.1.max(p));
    }
}

impl Table {
    /// A table of `pos`'s size holding `strings`, each with an empty
    /// reading.
    fn new(pos: &Position, strings: Vec<Rc<GoString>>) -> Table {
        let width = pos.width();
        let blank = Rc::new(Reading::default());
        let mut ids = vec![usize::MAX; pos.cells_len()];
        for s in &strings {
            for &p in &s.stones {
                ids[p] = s.stones[0];
            }
        }
        // Walked beside the points: both are in the order of the ids.
        let mut strings = strings.into_iter().peekable();
        let rows = (0..pos.height())
            .map(|y| {
                let row: Rc<[Slot]> = (y * width..(y + 1) * width)
                    .map(|p| Slot {
                        id: ids[p],
                        string: strings
                            .next_if(|s| s.stones[0] == p)
                            .map(|s| (s, blank.clone())),
                    })
                    .collect();
                (row, (usize::MAX, 0))
            })
            .collect();
        Table { width, rows }
    }

    /// The id of the string on `p` (`usize::MAX` if empty).
    fn id_at(&self, p: usize) -> usize {
        self.rows[p / self.width].0[p % self.width].id
    }

    /// The string whose id is `id`, with its reading, if there is one.
    fn entry(&self, id: usize) -> Option<&(Rc<GoString>, Rc<Reading>)> {
        self.rows[id / self.width].0[id % self.width]
            .string
            .as_ref()
    }

    /// The string whose id is `id`.
    ///
    /// # Panics
    /// If no string of the table has that id.
    fn string(&self, id: usize) -> &GoString {
        &self.entry(id).expect("a string id of this census").0
    }

    /// The point `p`, its row copied first if it is shared.
    fn slot_mut(&mut self, p: usize) -> &mut Slot {
        &mut Rc::make_mut(&mut self.rows[p / self.width].0)[p % self.width]
    }

    /// The range of the areas of row `y`'s readings, set from them.
    fn set_area(&mut self, y: usize) {
        let (row, area) = &mut self.rows[y];
        *area = (usize::MAX, 0);
        for (_, r) in row.iter().filter_map(|s| s.string.as_ref()) {
            widen(area, r);
        }
    }

    /// Every string with its reading, in the order of their ids.
    fn iter(&self) -> impl Iterator<Item = &(Rc<GoString>, Rc<Reading>)> {
        self.rows
            .iter()
            .flat_map(|(row, _)| row.iter().filter_map(|s| s.string.as_ref()))
    }
}

/// A word for the stone (if any) on point `p`, mixed (SplitMix64's
/// finaliser) so that the sum of the words of a board's stones is a hash
/// of its stones ([`Census::stones_hash`]); `Empty` gives 0.
pub fn stone_word(p: usize, cell: Cell) -> u64 {
    let code = match cell {
        Cell::Empty => return 0,
        Cell::Stone(Colour::Black) => 1,
        Cell::Stone(Colour::White) => 2,
    };
    mix((p as u64) << 2 | code)
}

/// The finaliser of SplitMix64: distinct words give unrelated values.
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// What [`mouth_of`] reads of one string.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Reading {
    /// Its K1 or K4 mouth.
    mouth: Option<Rc<KoMouth>>,
    /// K1a: the strings (ids) other than the ko string that filling the
    /// mouth captures too.
    extra: Vec<usize>,
    /// The points the reading looked at, with their neighbours: besides the
    /// string's own stones and breaths it read nothing but the cells of
    /// these points and of their neighbours, and the strings (stones and
    /// breaths) on those neighbours. Empty when it read the string alone.
    /// In the order read (a point may come twice: sorting cost more than
    /// the tests it spared). Held in place: most readings find no mouth and
    /// then allocate nothing.
    area: Few<AREA_POINTS>,
}

/// The most points a reading's area holds: the string and the empty points
/// [`few_empty_around`] saw (at most 3 + 4), and the region [`k4_mouth`]
/// grew (at most [`K4_POINTS`] + 3).
const AREA_POINTS: usize = 16;

/// A short list of points held in place (no allocation), for the census'
/// small sets: a reading's area, a K4 region, a K1 mouth's empty points.
#[derive(Clone, Copy)]
struct Few<const N: usize> {
    len: usize,
    points: [usize; N],
}

/// Equal when the lists are (what lies past `len` is not part of it).
impl<const N: usize> PartialEq for Few<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> Eq for Few<N> {}

impl<const N: usize> std::fmt::Debug for Few<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<const N: usize> Default for Few<N> {
    fn default() -> Self {
        Few {
            len: 0,
            points: [0; N],
        }
    }
}

impl<const N: usize> Few<N> {
    fn as_slice(&self) -> &[usize] {
        &self.points[..self.len]
    }

    fn contains(&self, p: usize) -> bool {
        self.as_slice().contains(&p)
    }

    /// # Panics
    /// When full (the callers' bounds say it never is).
    fn push(&mut self, p: usize) {
        self.points[self.len] = p;
        self.len += 1;
    }

    fn extend(&mut self, points: &[usize]) {
        for &p in points {
            self.push(p);
        }
    }

    fn sort_dedup(&mut self) {
        let v = &mut self.points[..self.len];
        v.sort_unstable();
        let mut n = 0;
        let mut i = 0;
        while i < v.len() {
            if n == 0 || v[i] != v[n - 1] {
                v[n] = v[i];
                n += 1;
            }
            i += 1;
        }
        self.len = n;
    }
}

impl Census {
    /// The string whose id (first stone) is `id`.
    ///
    /// # Panics
    /// If no string of the census has that id.
    pub fn string(&self, id: usize) -> &GoString {
        self.table.string(id)
    }

    /// The string with a stone on `p`, if any.
    pub fn string_at(&self, p: usize) -> Option<&GoString> {
        if p >= self.table.width * self.table.rows.len() {
            return None;
        }
        let id = self.table.id_at(p);
        (id != usize::MAX).then(|| self.string(id))
    }

    /// Every string of the board, in the order of their first stone.
    pub fn strings(&self) -> impl Iterator<Item = &GoString> {
        self.table.iter().map(|(s, _)| &**s)
    }

    /// Every ko string, mouth by mouth: colour, stones, complete.
    pub fn ko_string_list(&self) -> Vec<(Colour, &[usize], bool)> {
        self.mouths
            .iter()
            .flat_map(|m| {
                std::iter::once((m.colour, &m.string[..]))
                    .chain(m.also.iter().map(|(c, s)| (*c, &s[..])))
                    .zip(&m.complete)
                    .map(|((c, s), &done)| (c, s, done))
            })
            .collect()
    }

    /// The ko strings, as indices into [`Census::strings`].
    pub fn ko_strings(&self) -> Vec<usize> {
        self.ko_string_list()
            .iter()
            .filter_map(|(_, k, _)| self.strings().position(|s| s.stones == *k))
            .collect()
    }

    /// The number of ko stones.
    pub fn ko_stones(&self) -> usize {
        self.ko_string_list().iter().map(|(_, s, _)| s.len()).sum()
    }

    /// How many ko strings have 1, 2 and 3 stones.
    pub fn by_size(&self) -> [usize; 3] {
        let mut n = [0; 3];
        for (_, s, _) in self.ko_string_list() {
            n[s.len() - 1] += 1;
        }
        n
    }

    /// The ko position holding `point`, if any.
    pub fn position_of(&self, point: usize) -> Option<usize> {
        self.positions
            .iter()
            .position(|k| k.points.binary_search(&point).is_ok())
    }

    /// Every point of every ko position, sorted.
    pub fn ko_points(&self) -> &[usize] {
        &self.ko_points
    }

    /// The sum of [`stone_word`] over the stones of the board.
    pub fn stones_hash(&self) -> u64 {
        self.stones_hash
    }

    /// The board with the census drawn on it: the points of the `i`-th ko
    /// position by the `i`-th letter (`A`, `B`, …; lower case where a White
    /// stone stands), the stones of ko couplings as `#` (Black) and `@`
    /// (White), other stones `x` / `o`, other empty points `.`.
    pub fn overlay(&self, pos: &Position) -> String {
        let mut out = String::new();
        let coupled: BTreeSet<usize> = self
            .couplings
            .iter()
            .flat_map(|c| {
                c.iter()
                    .flat_map(|&s| self.string(s).stones.iter().copied())
            })
            .collect();
        for r in 0..pos.height() {
            for c in 0..pos.width() {
                let p = r * pos.width() + c;
                if c > 0 {
                    out.push(' ');
                }
                let ch = if let Some(k) = self.position_of(p) {
                    let letter = (b'A' + (k % 26) as u8) as char;
                    match pos.cell(p) {
                        Cell::Stone(Colour::White) => letter.to_ascii_lowercase(),
                        _ => letter,
                    }
                } else {
                    match pos.cell(p) {
                        Cell::Empty => '.',
                        Cell::Stone(Colour::Black) if coupled.contains(&p) => '#',
                        Cell::Stone(Colour::White) if coupled.contains(&p) => '@',
                        Cell::Stone(Colour::Black) => 'x',
                        Cell::Stone(Colour::White) => 'o',
                    }
                };
                out.push(ch);
            }
            out.push('\n');
        }
        out
    }

    /// A readable summary: the counts, then one line per ko position.
    pub fn report(&self, pos: &Position) -> String {
        let [one, two, three] = self.by_size();
        let mut out = format!(
            "{} ko stones, {} ko strings ({} single, {} double, {} triple ko stones), {} ko mouths, {} ko couplings, {} ko positions\n",
            self.ko_stones(),
            one + two + three,
            one,
            two,
            three,
            self.mouths.len(),
            self.couplings.len(),
            self.positions.len()
        );
        for (i, k) in self.positions.iter().enumerate() {
            let names: Vec<String> = k.points.iter().map(|&p| pos.point_name(p)).collect();
            let _ = writeln!(
                out,
                "{}: {} ({} mouths, {} points: {})",
                (b'A' + (i % 26) as u8) as char,
                k.ko_type.describe(),
                k.mouths.len(),
                k.points.len(),
                names.join(" ")
            );
        }
        out
    }
}

/// The census of `pos` (module docs).
pub fn census(pos: &Position) -> Census {
    let mut b = Scratch::new(pos);
    let mut table = Table::new(pos, strings_on(&mut b));
    let readings: Vec<(usize, Reading)> = table
        .iter()
        .map(|(s, _)| (s.stones[0], mouth_of(&mut b, s, &table)))
        .collect();
    let mut mouthed = Vec::new();
    for (id, r) in readings {
        widen(&mut table.rows[id / table.width].1, &r);
        let r = Rc::new(r);
        if r.mouth.is_some() {
            mouthed.push((id, r.clone()));
        }
        table.slot_mut(id).string.as_mut().expect("a string").1 = r;
    }
    let stones_hash = pos
        .cells
        .iter()
        .enumerate()
        .fold(0u64, |h, (p, &c)| h.wrapping_add(stone_word(p, c)));
    assemble(&mut b, table, Rc::new(mouthed), stones_hash, None)
}

/// The census of `after` from `prev`, the census of `before`, when the two
/// boards have the same size: equal to `census(after)` (tested against it
/// on random games), but it reads again only what the change can have
/// changed. With the *changed* points (a move's stone and its captures):
///
/// * A string none of whose stones is on or next to a changed point has
///   the same stones and breaths as before (a change to its stones or
///   breaths is a changed point on or next to one of them), so it is kept
///   (shared); the strings through the other stones are found again.
/// * The *hot* points are the changed points and the stones of the strings
///   found again. A string's reading (its mouth, or why it has none) looked
///   at the cells of its area and their neighbours, and at the strings on
///   those neighbours; a kept string whose area has no hot point on or next
///   to it would be read the same way again, so its reading is kept.
///   (A string that changed has all its stones hot, and one of them lies
///   where the reading looked.)
/// * When the mouths are those of `prev`, so are the couplings and the
///   points of the ko positions; a ko position keeps its type when no hot
///   point lies on or next to its points (its classification reads those
///   cells, the strings next to them and plays on its points). When no
///   reading that changed had a mouth or has one, the mouths are those of
///   `prev`. When they changed, they are collected again from the list of
///   readings with a mouth ([`Census::mouthed`], kept up to date from the
///   readings dropped and made), and a ko position whose mouths all remain and
///   whose adjacent strings no mouth gone or new shares keeps its group,
///   hence its coupling and points ([`positions_after`]).
///
/// A game under the New Ko Rules keeps its census this way from move to
/// move: the work is that of the strings and mouths near the move, plus a
/// copy of the rows it reaches and a pointer per row (the rows whose
/// readings' areas lie away from the move are not looked into).
pub fn census_after(prev: &Census, before: &Position, after: &Position) -> Census {
    if before.width() != after.width() || before.height() != after.height() {
        return census(after);
    }
    let changed: Vec<usize> = before
        .cells
        .iter()
        .zip(&after.cells)
        .enumerate()
        .filter(|(p, (a, b))| a != b || before.is_frame(*p) != after.is_frame(*p))
        .map(|(p, _)| p)
        .collect();
    census_after_changes(prev, before, after, &changed)
}

/// [`census_after`] when `after` is `before` with a board play on `point`
/// (its stone and its captures are the changed points, found next to it
/// rather than by comparing the boards).
pub fn census_after_play(
    prev: &Census,
    before: &Position,
    after: &Position,
    point: usize,
) -> Census {
    if before.width() != after.width() || before.height() != after.height() {
        return census(after);
    }
    let mut changed = Vec::with_capacity(8);
    changed.push(point);
    let mut i = 0;
    while i < changed.len() {
        for q in after.neighbours(changed[i]) {
            let gone = matches!(before.cell(q), Cell::Stone(_)) && after.cell(q) == Cell::Empty;
            if gone && !changed.contains(&q) {
                changed.push(q);
            }
        }
        i += 1;
    }
    census_after_changes(prev, before, after, &changed)
}

/// [`census_after`] given the points whose cells (or frame marks) differ
/// between the two boards.
fn census_after_changes(
    prev: &Census,
    before: &Position,
    after: &Position,
    changed: &[usize],
) -> Census {
    let n = after.cells_len();
    if prev.table.width != after.width() || prev.table.rows.len() != after.height() {
        return census(after);
    }
    if changed.is_empty() {
        return prev.clone();
    }
    // Marks per point, one allocation: on or next to a changed point
    // (`TOUCHED`), on a string found again (`FOUND`), on or next to a hot
    // point (`NEAR`).
    let mut marks = vec![0u8; n];
    let mut touched_list = Vec::with_capacity(changed.len() * 5);
    for &p in changed {
        for q in std::iter::once(p).chain(after.neighbours(p)) {
            if marks[q] & TOUCHED == 0 {
                marks[q] |= TOUCHED;
                touched_list.push(q);
            }
        }
    }
    let mut b = Scratch::new(after);
    // The strings through touched stones, found again (every string with a
    // touched stone is one of them).
    let mut found: Vec<Rc<GoString>> = Vec::with_capacity(8);
    for &p in &touched_list {
        if marks[p] & FOUND != 0 {
            continue;
        }
        if let Cell::Stone(colour) = after.cell(p) {
            let stones = b.chain(p);
            for &q in &stones {
                marks[q] |= FOUND;
            }
            let breaths = b.liberties(&stones);
            found.push(Rc::new(GoString {
                colour,
                stones,
                breaths,
            }));
        }
    }
    found.sort_unstable_by_key(|s| s.stones[0]);
    // Points on or next to a hot point, and the least and greatest of them
    // (a row whose readings' areas lie outside that range is not looked
    // into).
    let (mut near_lo, mut near_hi) = (usize::MAX, 0);
    {
        let mut heat = |p: usize| {
            for q in std::iter::once(p).chain(after.neighbours(p)) {
                marks[q] |= NEAR;
                near_lo = near_lo.min(q);
                near_hi = near_hi.max(q);
            }
        };
        for &p in changed {
            heat(p);
        }
        for s in &found {
            for &p in &s.stones {
                heat(p);
            }
        }
    }
    let near = |p: usize| marks[p] & NEAR != 0;
    let keeps = |r: &Reading| r.area.as_slice().iter().all(|&p| !near(p));
    // The strings gone (ids on the board before): those with a touched
    // stone, found again or captured.
    let mut gone: Vec<usize> = touched_list
        .iter()
        .map(|&p| prev.table.id_at(p))
        .filter(|&id| id != usize::MAX)
        .collect();
    gone.sort_unstable();
    gone.dedup();
    // The table: the rows the change reaches are copied, the others shared.
    // Whether a reading dropped or changed had a mouth, or a new one has.
    let mut mouth_changed = false;
    let mut table = prev.table.clone();
    let width = table.width;
    // The rows whose strings or readings change (their areas are set again).
    let mut rows_changed: Vec<usize> = Vec::with_capacity(16);
    for &id in &gone {
        let (_, r) = table
            .slot_mut(id)
            .string
            .take()
            .expect("a string of the census before");
        mouth_changed |= r.mouth.is_some();
        rows_changed.push(id / width);
    }
    // The ids: a kept string keeps its id; the changed points are empty
    // unless a string found again covers them.
    for &p in changed {
        table.slot_mut(p).id = usize::MAX;
    }
    // The readings to make again: those of the strings found again (no
    // reading before), and those of the kept strings whose reading looked
    // at a point near a hot one, with the reading before (only the rows
    // whose range of areas meets the points near them are looked at).
    let mut unread: Vec<(usize, Option<&Rc<Reading>>)> = Vec::with_capacity(16);
    let blank = Rc::new(Reading::default());
    for f in found {
        let id = f.stones[0];
        for &p in &f.stones {
            table.slot_mut(p).id = id;
        }
        table.slot_mut(id).string = Some((f, blank.clone()));
        unread.push((id, None));
    }
    if near_lo <= near_hi {
        for (row, area) in &prev.table.rows {
            if area.1 < near_lo || area.0 > near_hi {
                continue;
            }
            for (s, r) in row.iter().filter_map(|s| s.string.as_ref()) {
                let id = s.stones[0];
                if !keeps(r) && gone.binary_search(&id).is_err() {
                    unread.push((id, Some(r)));
                }
            }
        }
    }
    // Read once every string is in place (a reading looks at its
    // neighbours' strings, not at their readings). The strings whose
    // reading is new or differs from the one before (a reading read again
    // the same is kept, and its row is not copied).
    let mut made: Vec<usize> = Vec::with_capacity(unread.len());
    for &(id, before) in &unread {
        let r = mouth_of(&mut b, table.string(id), &table);
        if let Some(before) = before {
            if **before == r {
                continue;
            }
            mouth_changed |= before.mouth.is_some();
        }
        mouth_changed |= r.mouth.is_some();
        // A long string's reading (nothing read) is the blank one, shared.
        let r = if r.area.len == 0 && r.mouth.is_none() {
            blank.clone()
        } else {
            Rc::new(r)
        };
        table
            .slot_mut(id)
            .string
            .as_mut()
            .expect("a string of the table")
            .1 = r;
        rows_changed.push(id / width);
        made.push(id);
    }
    rows_changed.sort_unstable();
    rows_changed.dedup();
    for &y in &rows_changed {
        table.set_area(y);
    }
    // The readings with a mouth: those of the census before but for the
    // strings gone or read anew, and the new ones.
    let mouthed = if mouth_changed {
        made.sort_unstable();
        let mut mouthed: Vec<(usize, Rc<Reading>)> = prev
            .mouthed
            .iter()
            .filter(|(id, _)| gone.binary_search(id).is_err() && made.binary_search(id).is_err())
            .cloned()
            .collect();
        for &id in &made {
            let r = &table.entry(id).expect("a string of the table").1;
            if r.mouth.is_some() {
                mouthed.push((id, r.clone()));
            }
        }
        mouthed.sort_unstable_by_key(|(id, _)| *id);
        Rc::new(mouthed)
    } else {
        prev.mouthed.clone()
    };
    let stones_hash = changed.iter().fold(prev.stones_hash, |h, &p| {
        h.wrapping_sub(stone_word(p, before.cell(p)))
            .wrapping_add(stone_word(p, after.cell(p)))
    });
    assemble(
        &mut b,
        table,
        mouthed,
        stones_hash,
        Some(Before {
            census: prev,
            near: &near,
            same_mouths: !mouth_changed,
        }),
    )
}

/// The marks of [`census_after_changes`]: on or next to a changed point.
const TOUCHED: u8 = 1;
/// On a string found again.
const FOUND: u8 = 2;
/// On or next to a hot point.
const NEAR: u8 = 4;

/// What [`assemble`] is told of the board before ([`census_after`]): its
/// census, whether a point is on or next to a hot point, and whether the
/// readings that changed had no mouth before and have none now (then the
/// mouths are those of the census before, and are not collected again).
struct Before<'a> {
    census: &'a Census,
    near: &'a dyn Fn(usize) -> bool,
    same_mouths: bool,
}

/// The ko mouths of the readings that found one ([`Census::mouthed`]: K1,
/// the K1a filter, K4), in the order of their ko string's first stone.
fn collect_mouths(readings: &[(usize, Rc<Reading>)]) -> Vec<Rc<KoMouth>> {
    let mut mouths: Vec<Rc<KoMouth>> = Vec::new();
    let mut pending = Vec::new();
    let mut between_walls: Vec<&Rc<KoMouth>> = Vec::new();
    for (_, r) in readings {
        match &r.mouth {
            Some(m) if m.both_walls => between_walls.push(m),
            Some(m) if r.extra.is_empty() => mouths.push(m.clone()),
            Some(m) => pending.push((m, &r.extra)),
            None => {}
        }
    }
    // K1a: a mouth whose fill also takes strings in atari counts when each
    // of those strings touches another ko mouth (the triple ko's group
    // short of breaths).
    let accepted: Vec<Rc<KoMouth>> = pending
        .into_iter()
        .filter(|(_, extra)| {
            extra
                .iter()
                .all(|e| mouths.iter().any(|m| m.adjacent.contains(e)))
        })
        .map(|(m, _)| m.clone())
        .collect();
    mouths.extend(accepted);
    // K4: each region once (every string in it finds it), and only where
    // no mouth by K1 lies.
    if !between_walls.is_empty() {
        let mut k1_points: Vec<usize> = mouths.iter().flat_map(|m| m.points()).copied().collect();
        k1_points.sort_unstable();
        for m in between_walls {
            let points = m.points();
            if points.iter().all(|p| k1_points.binary_search(p).is_err())
                && !mouths.iter().any(|k| k.both_walls && k.points() == points)
            {
                mouths.push(m.clone());
            }
        }
    }
    mouths.sort_unstable_by_key(|m| m.string[0]);
    mouths
}

/// Mouths (with the K1a filter), couplings and ko positions from the
/// strings and their readings. With `prev` ([`Before`]): mouths,
/// couplings and ko positions equal to those of the census before are
/// shared with it, and a ko position with no point near a hot point keeps
/// its type.
fn assemble(
    b: &mut Scratch,
    table: Table,
    mouthed: Rc<Vec<(usize, Rc<Reading>)>>,
    stones_hash: u64,
    prev: Option<Before>,
) -> Census {
    let mouths = match &prev {
        Some(before) if before.same_mouths => None,
        _ => Some(collect_mouths(&mouthed)),
    };
    if let Some(Before {
        census: prev, near, ..
    }) = prev
    {
        let same = mouths.as_ref().is_none_or(|mouths| {
            mouths.len() == prev.mouths.len()
                && mouths
                    .iter()
                    .zip(prev.mouths.iter())
                    .all(|(a, b)| Rc::ptr_eq(a, b) || a == b)
        });
        if same {
            // The same mouths: the same couplings and ko position points;
            // types read again only near a hot point.
            let stale = |k: &KoPosition| k.points.iter().any(|&p| near(p));
            let positions = if prev.positions.iter().any(|k| stale(k)) {
                let mut positions = Vec::with_capacity(prev.positions.len());
                for k in prev.positions.iter() {
                    positions.push(if stale(k) {
                        Rc::new(KoPosition {
                            ko_type: classify(
                                b,
                                &table,
                                &prev.mouths,
                                &k.mouths,
                                &k.coupling,
                                &k.points,
                            ),
                            ..(**k).clone()
                        })
                    } else {
                        k.clone()
                    });
                }
                Rc::new(positions)
            } else {
                prev.positions.clone()
            };
            return Census {
                table,
                mouthed,
                mouths: prev.mouths.clone(),
                couplings: prev.couplings.clone(),
                positions,
                ko_points: prev.ko_points.clone(),
                stones_hash,
            };
        }
    }
    let mouths = mouths.expect("mouths collected unless they are the census before's");
    let (mut coupled, mut single) = match &prev {
        Some(before) => positions_after(b, &table, &mouths, before),
        None => group_positions(b, &table, &mouths, &vec![true; mouths.len()], &|_| None),
    };
    // In the order the grouping finds them (couplings by their first
    // mouth, then single mouths), then by their first point.
    coupled.sort_by_key(|k| k.mouths[0]);
    single.sort_by_key(|k| k.mouths[0]);
    let couplings: Vec<Vec<usize>> = coupled.iter().map(|k| k.coupling.clone()).collect();
    let mut positions = coupled;
    positions.append(&mut single);
    positions.sort_by_key(|k| k.points[0]);
    let mut ko_points: Vec<usize> = positions
        .iter()
        .flat_map(|k| k.points.iter().copied())
        .collect();
    ko_points.sort_unstable();
    ko_points.dedup();
    Census {
        table,
        mouthed,
        mouths: Rc::new(mouths),
        couplings: Rc::new(couplings),
        positions: Rc::new(positions),
        ko_points: Rc::new(ko_points),
        stones_hash,
    }
}

/// The ko positions of the mouths marked in `include`: closed mouths grouped
/// by their identical adjacent strings (a group of two or more is a ko
/// coupling), each group one ko position and every other mouth one; as
/// (coupled, single), each in the order of its first mouth. `known` gives
/// the type of a ko position known from the board before.
fn group_positions(
    b: &mut Scratch,
    strings: &Table,
    mouths: &[Rc<KoMouth>],
    include: &[bool],
    known: &dyn Fn(&[usize]) -> Option<KoType>,
) -> (Vec<Rc<KoPosition>>, Vec<Rc<KoPosition>>) {
    let mut adjacents: Vec<&[usize]> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, m) in mouths.iter().enumerate() {
        if !include[i] || m.adjacent.is_empty() {
            continue;
        }
        match adjacents.iter().position(|c| *c == m.adjacent) {
            Some(g) => groups[g].push(i),
            None => {
                adjacents.push(&m.adjacent);
                groups.push(vec![i]);
            }
        }
    }
    let mut coupled = Vec::new();
    let mut grouped = vec![false; mouths.len()];
    for (g, adjacent) in groups.into_iter().zip(adjacents) {
        if g.len() < 2 {
            continue;
        }
        for &m in &g {
            grouped[m] = true;
        }
        coupled.push(Rc::new(make_position(
            b,
            strings,
            mouths,
            g,
            adjacent.to_vec(),
            known,
        )));
    }
    let mut single = Vec::new();
    for m in 0..mouths.len() {
        if include[m] && !grouped[m] {
            single.push(Rc::new(make_position(
                b,
                strings,
                mouths,
                vec![m],
                Vec::new(),
                known,
            )));
        }
    }
    (coupled, single)
}

/// [`group_positions`] of every mouth when the mouths changed from the
/// board before: a ko position of the census before whose mouths are all
/// still mouths, and whose adjacent strings no mouth gone or new shares
/// (so no mouth joins or leaves its group), is kept with its mouths
/// renumbered (its type read again only near a hot point); only the other
/// mouths are grouped again.
fn positions_after(
    b: &mut Scratch,
    strings: &Table,
    mouths: &[Rc<KoMouth>],
    before: &Before,
) -> (Vec<Rc<KoPosition>>, Vec<Rc<KoPosition>>) {
    let prev = before.census;
    let near = before.near;
    // The index in `mouths` of each mouth of the census before that is
    // still a mouth (both lists are in the order of their first stone,
    // one mouth to a ko string).
    let mut now_at = vec![usize::MAX; prev.mouths.len()];
    let mut new = vec![true; mouths.len()];
    let mut j = 0;
    for (i, m) in mouths.iter().enumerate() {
        while j < prev.mouths.len() && prev.mouths[j].string[0] < m.string[0] {
            j += 1;
        }
        if j < prev.mouths.len() && (Rc::ptr_eq(&prev.mouths[j], m) || *prev.mouths[j] == **m) {
            now_at[j] = i;
            new[i] = false;
        }
    }
    // The adjacent strings of the mouths gone or new: the groups they were
    // or are in change.
    let mut unsettled: Vec<&[usize]> = Vec::new();
    for (j, m) in prev.mouths.iter().enumerate() {
        if now_at[j] == usize::MAX && !m.adjacent.is_empty() {
            unsettled.push(&m.adjacent);
        }
    }
    for (i, m) in mouths.iter().enumerate() {
        if new[i] && !m.adjacent.is_empty() {
            unsettled.push(&m.adjacent);
        }
    }
    let settled = |j: usize| {
        let m = &prev.mouths[j];
        now_at[j] != usize::MAX && !unsettled.iter().any(|a| *a == m.adjacent)
    };
    let mut include = vec![true; mouths.len()];
    let (mut coupled, mut single) = (Vec::new(), Vec::new());
    for k in prev.positions.iter() {
        if !k.mouths.iter().all(|&j| settled(j)) {
            continue;
        }
        for &j in &k.mouths {
            include[now_at[j]] = false;
        }
        let stale = k.points.iter().any(|&p| near(p));
        let renumbered = k.mouths.iter().any(|&j| now_at[j] != j);
        let kept = if stale || renumbered {
            let ms: Vec<usize> = k.mouths.iter().map(|&j| now_at[j]).collect();
            let ko_type = if stale {
                classify(b, strings, mouths, &ms, &k.coupling, &k.points)
            } else {
                k.ko_type
            };
            Rc::new(KoPosition {
                mouths: ms,
                coupling: k.coupling.clone(),
                points: k.points.clone(),
                ko_type,
            })
        } else {
            k.clone()
        };
        if kept.coupling.is_empty() {
            single.push(kept);
        } else {
            coupled.push(kept);
        }
    }
    // A ko position with no point near a hot point keeps its type.
    let known = |points: &[usize]| -> Option<KoType> {
        if points.iter().any(|&p| near(p)) {
            return None;
        }
        prev.positions
            .iter()
            .find(|k| k.points == points)
            .map(|k| k.ko_type)
    };
    let (more_coupled, more_single) = group_positions(b, strings, mouths, &include, &known);
    coupled.extend(more_coupled);
    single.extend(more_single);
    (coupled, single)
}

/// The reading of `s` (module docs, K1, else K4): its ko mouth if it is a
/// ko string, with the strings (ids) other than `s` that filling the mouth
/// would capture too (empty for a mouth by K1 alone or by K4; else a K1a
/// candidate), and the area it looked at.
fn mouth_of(b: &mut Scratch, s: &GoString, strings: &Table) -> Reading {
    let pos = b.pos;
    let mut area = Few::default();
    if !few_empty_around(b, s, &mut area) {
        return Reading {
            area,
            ..Reading::default()
        };
    }
    let found = k1_mouth(b, s, strings)
        .or_else(|| k4_mouth(pos, s, strings, &mut area).map(|m| (m, Vec::new())));
    match found {
        Some((m, extra)) => Reading {
            mouth: Some(Rc::new(m)),
            extra,
            area,
        },
        None => Reading {
            area,
            ..Reading::default()
        },
    }
}

/// A check that turns most strings away before the readings, without
/// allocating: whether `s` is short enough and the empty points connected
/// to its breaths few enough for a mouth. K1 takes at most 3 of them; K4's
/// region holds `s` and all of them, so at most [`K4_POINTS`] − |S|.
/// When it looks past the string, the string and the empty points it saw
/// are added to `area`.
fn few_empty_around(b: &Scratch, s: &GoString, area: &mut Few<AREA_POINTS>) -> bool {
    let pos = b.pos;
    if s.stones.len() > 3 || s.breaths.is_empty() {
        return false;
    }
    area.extend(&s.stones);
    let most = 3.max(K4_POINTS - s.stones.len());
    let mut seen = [0usize; K4_POINTS];
    let mut n = 0;
    let mut ok = true;
    'walk: {
        for &p in &s.breaths {
            if n == most {
                ok = false;
                break 'walk;
            }
            seen[n] = p;
            n += 1;
        }
        let mut i = 0;
        while i < n {
            for q in b.around(seen[i]) {
                if pos.cell(q) == Cell::Empty && !seen[..n].contains(&q) {
                    if n == most {
                        ok = false;
                        break 'walk;
                    }
                    seen[n] = q;
                    n += 1;
                }
            }
            i += 1;
        }
    }
    area.extend(&seen[..n]);
    ok
}

/// The most points a K4 mouth has (module docs): enough for eternal life's
/// four and one more, and small enough that everything [`k4_mouth`] reads
/// lies within [`MOUTH_REACH`] of the string it starts from.
const K4_POINTS: usize = 5;

/// The K4 reading of `s` (module docs): the closed region of `s`, the
/// empty points connected to its breaths and the short strings next to
/// those, grown until it is closed, when a cycle of four alternating plays
/// in it exists in which each player captures.
/// The region it grew is added to `area`.
fn k4_mouth(
    pos: &Position,
    s: &GoString,
    strings: &Table,
    area: &mut Few<AREA_POINTS>,
) -> Option<KoMouth> {
    if s.stones.len() > 3 || s.stones.iter().any(|&p| pos.is_frame(p)) {
        return None;
    }
    // At most K4_POINTS + 3 points: it stops as soon as it has more than
    // K4_POINTS, and grows by at most a string of 3 at a time.
    let mut grown: Few<{ K4_POINTS + 3 }> = Few::default();
    grown.extend(&s.stones);
    let mut i = 0;
    while i < grown.len {
        let p = grown.points[i];
        for q in pos.neighbours(p) {
            if grown.contains(q) {
                continue;
            }
            match pos.cell(q) {
                Cell::Empty => grown.push(q),
                // A short string next to an empty point of the region joins
                // it (a wall is a longer string, or one in the frame).
                Cell::Stone(_) if pos.cell(p) == Cell::Empty => {
                    let chain = &strings.string(strings.id_at(q)).stones;
                    if chain.len() > 3 || chain.iter().any(|&p| pos.is_frame(p)) {
                        continue;
                    }
                    grown.extend(chain);
                }
                Cell::Stone(_) => continue,
            }
            if grown.len > K4_POINTS {
                area.extend(grown.as_slice());
                return None;
            }
        }
        i += 1;
    }
    area.extend(grown.as_slice());
    grown.sort_dedup();
    let region = grown.as_slice();
    let inside = |p: usize| region.binary_search(&p).is_ok();
    // Closed: every neighbour outside is a stone; walls of both colours.
    let mut walls = [false; 2];
    for &p in region {
        for q in pos.neighbours(p) {
            if inside(q) {
                continue;
            }
            match pos.cell(q) {
                Cell::Empty => return None,
                Cell::Stone(c) => walls[c as usize] = true,
            }
        }
    }
    if !(walls[0] && walls[1]) {
        return None;
    }
    let empty: Vec<usize> = region
        .iter()
        .copied()
        .filter(|&p| pos.cell(p) == Cell::Empty)
        .collect();
    if empty.is_empty() {
        return None;
    }
    let captured = four_play_cycle(pos, region)?;
    // The strings of the region, the first by its first stone.
    let mut inner: Vec<(Colour, Vec<usize>)> = Vec::new();
    for &p in region {
        if let Cell::Stone(c) = pos.cell(p) {
            if !inner.iter().any(|(_, st)| st.contains(&p)) {
                inner.push((c, strings.string(strings.id_at(p)).stones.clone()));
            }
        }
    }
    let complete = inner.iter().map(|(_, st)| captured.contains(st)).collect();
    let (colour, string) = inner.remove(0);
    let adjacent = strings_next_to(pos, region.iter().copied(), inside, strings);
    Some(
        KoMouth {
            colour,
            empty,
            string,
            adjacent,
            also: inner,
            both_walls: true,
            complete,
            all: Vec::new(),
        }
        .with_points(),
    )
}

/// A cycle of four alternating board plays on `region` (either player
/// first, ko bans ignored: a cyclical move-sequence "without rules") that
/// recreates the board, each player capturing at least once; the sets of
/// stones its captures take, if there is one.
fn four_play_cycle(pos: &Position, region: &[usize]) -> Option<Vec<Vec<usize>>> {
    fn go(
        start: &Position,
        cur: &Position,
        colour: Colour,
        depth: usize,
        region: &[usize],
        taken: &mut Vec<(Colour, Vec<usize>)>,
    ) -> bool {
        if depth == 4 {
            return region.iter().all(|&p| cur.cell(p) == start.cell(p))
                && [Colour::Black, Colour::White]
                    .iter()
                    .all(|c| taken.iter().any(|(t, _)| t == c));
        }
        for &p in region {
            if cur.cell(p) != Cell::Empty {
                continue;
            }
            let mut free = cur.clone();
            free.clear_ko_ban();
            let Ok(next) = free.play_move(super::position::Move {
                colour,
                point: Some(p),
            }) else {
                continue;
            };
            let gone: Vec<usize> = region
                .iter()
                .copied()
                .filter(|&q| {
                    cur.cell(q) == Cell::Stone(colour.opponent()) && next.cell(q) == Cell::Empty
                })
                .collect();
            // A capture outside the region could not be undone in it.
            if next.prisoners(colour) - cur.prisoners(colour) != gone.len() as u32 {
                continue;
            }
            let n = taken.len();
            if !gone.is_empty() {
                taken.push((colour, gone));
            }
            if go(start, &next, colour.opponent(), depth + 1, region, taken) {
                return true;
            }
            taken.truncate(n);
        }
        false
    }
    for first in [Colour::Black, Colour::White] {
        let mut taken = Vec::new();
        if go(pos, pos, first, 0, region, &mut taken) {
            return Some(taken.into_iter().map(|(_, t)| t).collect());
        }
    }
    None
}

/// The strings (ids) next to `points` but not `inside` the mouth, each
/// once, in order (a mouth's adjacent strings, K1 and K4 alike).
fn strings_next_to(
    pos: &Position,
    points: impl Iterator<Item = usize>,
    inside: impl Fn(usize) -> bool,
    strings: &Table,
) -> Vec<usize> {
    let mut adjacent: Vec<usize> = points
        .flat_map(|p| pos.neighbours(p))
        .filter(|&q| !inside(q))
        .map(|q| strings.id_at(q))
        .filter(|&id| id != usize::MAX)
        .collect();
    adjacent.sort_unstable();
    adjacent.dedup();
    adjacent
}

/// The K1 reading of `s` (module docs), with the K1a extra strings (ids).
/// A string it turns away costs no allocation.
fn k1_mouth(b: &mut Scratch, s: &GoString, strings: &Table) -> Option<(KoMouth, Vec<usize>)> {
    let pos = b.pos;
    if s.stones.len() > 3 || s.breaths.is_empty() || s.stones.iter().any(|&p| pos.is_frame(p)) {
        return None;
    }
    // E: the empty points connected to S's breaths through empty points
    // (all of them in the reading's area: `few_empty_around` saw them).
    if s.breaths.len() > 3 {
        return None;
    }
    let mut grown: Few<4> = Few::default();
    grown.extend(&s.breaths);
    let mut i = 0;
    while i < grown.len {
        for q in b.around(grown.points[i]) {
            if pos.cell(q) == Cell::Empty && !grown.contains(q) {
                grown.push(q);
                if grown.len > 3 {
                    return None;
                }
            }
        }
        i += 1;
    }
    grown.sort_dedup();
    let empty = grown.as_slice();
    let own = Cell::Stone(s.colour);
    let opp = Cell::Stone(s.colour.opponent());
    let inside = |p: usize| s.stones.contains(&p) || empty.contains(&p);
    // Neighbours of S outside the mouth: opponent stones; of E: own stones.
    for &p in &s.stones {
        if b.around(p).any(|q| !inside(q) && pos.cell(q) != opp) {
            return None;
        }
    }
    for &e in empty {
        if b.around(e).any(|q| !inside(q) && pos.cell(q) != own) {
            return None;
        }
    }
    // The filled E must be one string (below), which E's points make only
    // when they are connected (their other neighbours are S, captured, and
    // stones of S's colour): else the fill is not tried.
    if !connected(b, empty) {
        return None;
    }
    // The opponent fills E (in some legal order) and captures S; the
    // string E is then alone with its breaths in S.
    let mark = fill(b, s.colour.opponent(), empty)?;
    let mut read = || {
        if s.stones.iter().any(|&p| b.cell(p) != Cell::Empty) {
            return None;
        }
        if !b.chain_is(empty[0], empty) {
            return None;
        }
        // Strings of S's colour next to E that the fill takes with S (K1a).
        let mut extra: Vec<usize> = empty
            .iter()
            .flat_map(|&e| b.around(e))
            .filter(|&q| pos.cell(q) == own && b.cell(q) == Cell::Empty && !s.stones.contains(&q))
            .map(|q| strings.id_at(q))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        let captured =
            |p: usize| s.stones.contains(&p) || extra.iter().any(|&e| strings.id_at(p) == e);
        let (some, all) = b.breaths_all(empty, captured);
        if !some || !all {
            return None;
        }
        Some(extra)
    };
    let extra = read();
    b.undo(mark);
    let extra = extra?;
    let adjacent = strings_next_to(pos, s.stones.iter().chain(empty).copied(), inside, strings);
    Some((
        KoMouth {
            colour: s.colour,
            string: s.stones.clone(),
            empty: empty.to_vec(),
            adjacent,
            also: Vec::new(),
            both_walls: false,
            complete: vec![true],
            all: Vec::new(),
        }
        .with_points(),
        extra,
    ))
}

/// Whether `points` (at most 3) are connected through each other.
fn connected(b: &Scratch, points: &[usize]) -> bool {
    let mut reached: Few<3> = Few::default();
    reached.push(points[0]);
    let mut i = 0;
    while i < reached.len {
        for q in b.around(reached.points[i]) {
            if points.contains(&q) && !reached.contains(q) {
                reached.push(q);
            }
        }
        i += 1;
    }
    reached.len == points.len()
}

/// `colour` plays every point of `points` on `b`, in the first order (of
/// at most 3! orders) in which each play is legal, and leaves them there;
/// the mark to undo them to.
fn fill(b: &mut Scratch, colour: Colour, points: &[usize]) -> Option<usize> {
    const ORDERS_1: &[&[usize]] = &[&[0]];
    const ORDERS_2: &[&[usize]] = &[&[0, 1], &[1, 0]];
    const ORDERS_3: &[&[usize]] = &[
        &[0, 1, 2],
        &[0, 2, 1],
        &[1, 0, 2],
        &[1, 2, 0],
        &[2, 0, 1],
        &[2, 1, 0],
    ];
    let orders = match points.len() {
        1 => ORDERS_1,
        2 => ORDERS_2,
        3 => ORDERS_3,
        _ => return None,
    };
    let mark = b.mark();
    'order: for order in orders {
        for &i in *order {
            if !b.play(colour, points[i]) {
                b.undo(mark);
                continue 'order;
            }
        }
        return Some(mark);
    }
    None
}

fn make_position(
    b: &mut Scratch,
    strings: &Table,
    mouths: &[Rc<KoMouth>],
    ms: Vec<usize>,
    coupling: Vec<usize>,
    known: &dyn Fn(&[usize]) -> Option<KoType>,
) -> KoPosition {
    let mut points: Vec<usize> = ms
        .iter()
        .flat_map(|&m| mouths[m].points())
        .copied()
        .collect();
    points.sort_unstable();
    points.dedup();
    let ko_type =
        known(&points).unwrap_or_else(|| classify(b, strings, mouths, &ms, &coupling, &points));
    KoPosition {
        mouths: ms,
        coupling,
        points,
        ko_type,
    }
}

/// The ko type of a ko position (module docs, T1).
fn classify(
    b: &mut Scratch,
    strings: &Table,
    mouths: &[Rc<KoMouth>],
    ms: &[usize],
    coupling: &[usize],
    points: &[usize],
) -> KoType {
    let pos = b.pos;
    let in_k = |p: &usize| points.binary_search(p).is_ok();
    if !coupling.is_empty() {
        let all_two = |b: &mut Scratch| {
            coupling.iter().all(|&s| {
                let stones = &strings.string(s).stones;
                b.cell(stones[0]) != Cell::Empty && {
                    let chain = b.chain(stones[0]);
                    b.liberties(&chain).len() >= 2
                }
            })
        };
        if all_two(b) {
            return KoType::DLife {
                stable: true,
                coupled: true,
            };
        }
        // One move in the ko position that gives every coupling string two
        // breaths again.
        for &p in points {
            for colour in [Colour::Black, Colour::White] {
                let mark = b.mark();
                if b.play(colour, p) {
                    let two = all_two(b);
                    b.undo(mark);
                    if two {
                        return KoType::DLife {
                            stable: false,
                            coupled: true,
                        };
                    }
                }
            }
        }
        if ms.len() == 2 {
            for dying in [Colour::Black, Colour::White] {
                let theirs: Vec<&GoString> = coupling
                    .iter()
                    .map(|&s| strings.string(s))
                    .filter(|s| s.colour == dying)
                    .collect();
                if theirs.is_empty() || !theirs.iter().all(|s| s.breaths.iter().all(in_k)) {
                    continue;
                }
                let both_colours = [Colour::Black, Colour::White]
                    .iter()
                    .all(|&c| points.iter().any(|&p| pos.cell(p) == Cell::Stone(c)));
                let some_one = coupling
                    .iter()
                    .any(|&s| strings.string(s).breaths.len() == 1);
                let others_two = coupling
                    .iter()
                    .map(|&s| strings.string(s))
                    .filter(|s| s.colour != dying)
                    .all(|s| s.breaths.len() >= 2);
                return KoType::DDeath {
                    stable: both_colours && some_one && others_two,
                    coupled: true,
                    dying,
                };
            }
        }
        return KoType::Fk;
    }
    // A single mouth.
    let m = &mouths[ms[0]];
    if m.both_walls {
        // Choice T3: the text's reason for eternal life ("an infinite ko
        // stone MS can be played. The ko mouth consists of more than two
        // board points. Thus the ko position is a FK").
        return KoType::Fk;
    }
    let adjacent: Vec<&GoString> = m.adjacent.iter().map(|&s| strings.string(s)).collect();
    for safe in [Colour::Black, Colour::White] {
        let safe_two = adjacent
            .iter()
            .filter(|s| s.colour == safe)
            .all(|s| s.breaths.len() >= 2);
        let other: Vec<&&GoString> = adjacent.iter().filter(|s| s.colour != safe).collect();
        if !safe_two || other.is_empty() {
            continue;
        }
        // With a ko stone of `safe` in the mouth: the present ko string is
        // `safe`'s, or `safe` has just captured it by filling the mouth.
        let mark = b.mark();
        if m.colour != safe && fill(b, safe, &m.empty).is_none() {
            continue;
        }
        let one_each = other.iter().all(|s| {
            b.cell(s.stones[0]) != Cell::Empty && {
                let chain = b.chain(s.stones[0]);
                b.liberties(&chain).len() == 1
            }
        });
        b.undo(mark);
        if one_each {
            // Stable while the safe colour's ko stone stands in the mouth.
            return KoType::DDeath {
                stable: m.colour == safe,
                coupled: false,
                dying: safe.opponent(),
            };
        }
    }
    let all_two = adjacent.iter().all(|s| s.breaths.len() >= 2);
    if m.points().len() > 2 || all_two {
        KoType::Fk
    } else {
        KoType::DLife {
            stable: true,
            coupled: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    /// The census of a whole board (as a game sees it: no immortal
    /// stones), as its report and overlay.
    fn check(text: &str, want: Expect) {
        let mut p = Position::parse(text).unwrap();
        p.frame.iter_mut().for_each(|f| *f = false);
        let c = census(&p);
        want.assert_eq(&format!("{}{}", c.report(&p), c.overlay(&p)));
    }

    /// The incremental census is the census: random boards, random games
    /// (captures, kos, passes), each step's `census_after` or
    /// `census_after_play` (chained from the previous incremental one)
    /// against `census` of the new board, everything compared: strings,
    /// mouths, couplings, ko positions and their types, and what was read
    /// of each string (a reading kept from the board before must be the
    /// one a fresh reading gives).
    #[test]
    fn the_incremental_census_is_the_census() {
        use super::super::position::Move;
        let mut seed: u64 = 0x6b0_17ce;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut steps, mut with_kos, mut captures) = (0, 0, 0);
        for board in 0..150 {
            let (w, h) = (5 + next(15) as usize, 5 + next(15) as usize);
            let text: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| match next(10) {
                            0..=2 => "x",
                            3..=5 => "o",
                            _ => ".",
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let Ok(mut pos) = Position::parse(&text.join("\n")) else {
                continue;
            };
            pos.frame.iter_mut().for_each(|f| *f = false);
            let mut c = census(&pos);
            let mut colour = if board % 2 == 0 {
                Colour::Black
            } else {
                Colour::White
            };
            for _ in 0..200 {
                let empty: Vec<usize> =
                    (0..w * h).filter(|&p| pos.cell(p) == Cell::Empty).collect();
                let point = (next(12) > 0 && !empty.is_empty())
                    .then(|| empty[next(empty.len() as u64) as usize]);
                let Ok(after) = pos.play_move(Move { colour, point }) else {
                    continue;
                };
                // A game's path (the play's point known) and the path
                // that compares the boards, in turn.
                let inc = match point {
                    Some(p) if steps % 2 == 0 => census_after_play(&c, &pos, &after, p),
                    _ => census_after(&c, &pos, &after),
                };
                let full = census(&after);
                assert_eq!(inc, full, "{after}");
                steps += 1;
                with_kos += usize::from(!full.positions.is_empty());
                captures += usize::from(after.prisoners(colour) > pos.prisoners(colour));
                c = inc;
                pos = after;
                colour = colour.opponent();
            }
        }
        assert!(
            steps > 6_000 && with_kos > 1_500 && captures > 900,
            "{steps} {with_kos} {captures}"
        );
    }

    #[test]
    fn a_basic_ko_is_one_mouth_one_position_a_fk() {
        check(
            "\
. . . . . .
. . x o . .
. x o . o .
. . x o . .
. . . . . .",
            expect![[r#"
                1 ko stones, 1 ko strings (1 single, 0 double, 0 triple ko stones), 1 ko mouths, 0 ko couplings, 1 ko positions
                A: FK (1 mouths, 2 points: (3,3) (3,4))
                . . . . . .
                . . x o . .
                . x a A o .
                . . x o . .
                . . . . . .
            "#]],
        );
    }

    #[test]
    fn no_ko_no_census() {
        check(
            "\
. . . . .
. x o . .
. x o . .
. x o . .
. . . . .",
            expect![[r#"
                0 ko stones, 0 ko strings (0 single, 0 double, 0 triple ko stones), 0 ko mouths, 0 ko couplings, 0 ko positions
                . . . . .
                . x o . .
                . x o . .
                . x o . .
                . . . . .
            "#]],
        );
    }

    #[test]
    fn a_triple_ko_with_eyes_is_a_stable_dlife() {
        check(
            "\
x x x o o o
x x o . o o
x x x o o o
x x o . o o
x x x o o o
x x . x o o
x x x o o o
x . x o . o
x x x o o o",
            expect![[r#"
                3 ko stones, 3 ko strings (3 single, 0 double, 0 triple ko stones), 3 ko mouths, 1 ko couplings, 1 ko positions
                A: stable DLife (3 mouths, 6 points: (2,3) (2,4) (4,3) (4,4) (6,3) (6,4))
                # # # @ @ @
                # # a A @ @
                # # # @ @ @
                # # a A @ @
                # # # @ @ @
                # # A A @ @
                # # # @ @ @
                # . # @ . @
                # # # @ @ @
            "#]],
        );
    }

    #[test]
    fn a_single_ddeath() {
        check(
            "\
. . x x . .
. x o o x .
x o . o . x
. x o o x .
. . x x . .",
            expect![[r#"
                3 ko stones, 3 ko strings (3 single, 0 double, 0 triple ko stones), 3 ko mouths, 0 ko couplings, 3 ko positions
                A: FK (1 mouths, 4 points: (1,1) (1,2) (2,1) (2,2))
                B: single DDeath (1 mouths, 2 points: (3,2) (3,3))
                C: FK (1 mouths, 4 points: (4,1) (4,2) (5,1) (5,2))
                A A x x . .
                A A o o x .
                x b B o . x
                C C o o x .
                C C x x . .
            "#]],
        );
    }

    #[test]
    fn eternal_life_is_one_mouth_between_both_walls_a_fk() {
        // K4: White's d and Black's b with the empty c between them and a
        // beside b; c touches Black's wall, a White's.
        check(
            "\
. x x x x o o o o o .
x x x x x o o o o o o
x . x o . x . o o . o
x x x x x o o o o o o
. x x x x o o o o o .",
            expect![[r#"
                2 ko stones, 2 ko strings (2 single, 0 double, 0 triple ko stones), 1 ko mouths, 0 ko couplings, 1 ko positions
                A: FK (1 mouths, 4 points: (3,4) (3,5) (3,6) (3,7))
                . x x x x o o o o o .
                x x x x x o o o o o o
                x . x a A A A o o . o
                x x x x x o o o o o o
                . x x x x o o o o o .
            "#]],
        );
    }

    #[test]
    fn a_triple_ko_stone_mouth() {
        // Black's three stones with three breaths in a line: White fills
        // them (each play next to an empty point of the mouth) and captures.
        check(
            "\
. . . . . . . . .
. o o o x x x . .
o x x x . . . x .
. o o o x x x . .
. . . . . . . . .",
            expect![[r#"
                3 ko stones, 1 ko strings (0 single, 0 double, 1 triple ko stones), 1 ko mouths, 0 ko couplings, 1 ko positions
                A: FK (1 mouths, 6 points: (3,2) (3,3) (3,4) (3,5) (3,6) (3,7))
                . . . . . . . . .
                . o o o x x x . .
                o A A A A A A x .
                . o o o x x x . .
                . . . . . . . . .
            "#]],
        );
    }

    #[test]
    fn a_double_ko_stone_mouth() {
        // Black's two stones with two breaths; White fills both and is left
        // with two stones whose breaths are Black's former points.
        check(
            "\
. . . . . . .
. o o x x . .
o x x . . x .
. o o x x . .
. . . . . . .",
            expect![[r#"
                2 ko stones, 1 ko strings (0 single, 1 double, 0 triple ko stones), 1 ko mouths, 0 ko couplings, 1 ko positions
                A: FK (1 mouths, 4 points: (3,2) (3,3) (3,4) (3,5))
                . . . . . . .
                . o o x x . .
                o A A A A x .
                . o o x x . .
                . . . . . . .
            "#]],
        );
    }
}
