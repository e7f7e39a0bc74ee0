//! Go positions: diagrams, moves, and their game values (issue 5, core).
//!
//! No syntax and no IO: the interpreter turns [`DiagramError`], [`MoveError`]
//! and [`GoError`] into diagnostics.
//!
//! # Diagrams
//!
//! [`Position::parse`] reads a rectangle of points (one character a point):
//!
//! ```text
//! X X X X
//! X . a O
//! X X X X
//! ```
//!
//! * `.` (and `,`, a hoshi) is an empty point;
//! * `X` / `O` are Black / White stones assumed safely alive (*framing*
//!   stones, immortal);
//! * `x` / `o` are stones that can be captured;
//! * any other lowercase letter labels an empty point (for move strings);
//! * everything outside the rectangle is off the board.
//!
//! Whitespace between points is optional. Sensei's Library diagrams can be
//! pasted: lines start with `$$`, a first line such as `$$B` or `$$Wc title`
//! is skipped, edge lines (`$$ +-----+`, `$$ -----`) are skipped and `|` may
//! open and close rows. Edges are decoration: the board ends with the
//! diagram anyway. Errors carry the byte offset of the character at fault:
//! unknown characters, ragged rows, a region with no empty point, capturable
//! stones with no liberty, a label used twice.
//!
//! A stone whose chain contains a framing stone is immortal too: it can never
//! be captured, so moves next to the framework are never suicide. The
//! *region* is every point that is not a framing stone. Under area scoring
//! only region points are counted, so the frame adds nothing.
//!
//! # Moves
//!
//! [`play`] applies a move string — `B a, W b`, `B (2,3)`, the notation of Jasiek's New Ko Rules examples
//! `B[abt]` (alternating, `t` = tenuki) — with captures, suicide forbidden
//! and the basic ko rule (a single stone that has just captured a single
//! stone, and has that point as its only liberty, may not be retaken at once
//! by the opponent's next move; any other move lifts the ban). Errors name
//! the move and its byte span. [`Position::render`] prints the diagram
//! (ASCII or Unicode) with the prisoners taken.
//!
//! # Values
//!
//! [`evaluate`] / [`value`] compute the unchilled value `{values after each
//! Black move | values after each White move}` by exhaustive search with a
//! transposition table, taking the canonical form ([`crate::game::Store::canonical`])
//! at every node; [`chilled`] chills it (Mathematical Go's `f`), the default
//! view. The local game is defined as follows.
//!
//! * **Moves.** At every position both players may play any legal move
//!   (empty point, not suicide) on a region point outside the settled areas.
//!   There is no ko ban inside the search: a local game has no "previous
//!   move" (Left may move twice in a row when Right plays elsewhere), so a
//!   ban cannot be part of a short game.
//! * **Settled areas**. Cut the points that are empty or hold
//!   capturable stones into connected *components* (the immortal stones
//!   separate them and never change). A component is *settled for* a colour
//!   when it holds no stone of that colour, every stone next to it is of that
//!   colour (hence immortal), and every point of it touches such a stone. It
//!   is not played: it scores for its owner its number of points, plus (under
//!   Japanese rules) the opponent's stones inside as prisoners. Under area
//!   scoring a component is also settled for a colour when that colour has
//!   a legal move in it and the other has none (every empty point of it is
//!   suicide for him, so no empty point is next to another): he can never
//!   play there, so he can take nothing there, his stones inside are each
//!   in atari with no way to save them (a chain with two liberties could
//!   fill one), and every empty point is bordered by the owner's stones and
//!   those dead stones; it scores its number of points. Played, such a
//!   component would only give its owner a spare move that area counting
//!   does not have: the corner `x . X / . X X / X X X` (a Black stone x,
//!   White unable to play) is `{3 | } = 4` in normal play, where the area
//!   is 3. (When neither colour can play, as in a point with no neighbour,
//!   the component is left as it is.)
//! * **End.** Play in a component ends when it is settled, or when neither
//!   player has a legal move in it (only a point with no neighbour at all,
//!   which scores nothing). A settled component never becomes unsettled:
//!   nothing outside it touches it but immortal stones.
//! * **Score.** Japanese (default): prisoners taken during the search plus
//!   the settled scores. Area ([`Rules::Chinese`]): every region point
//!   occupied by an immortal stone counts for its colour, plus the settled
//!   components (captures count nothing). Prisoners already in the position
//!   (Japanese) and immortal stones already on region points (area) are
//!   included, so the value of `play(pos, "B a")` is Black's option `a`.
//! * **Components** are independent summands, so the value is the sum of
//!   their values; the transposition table is keyed by a component's
//!   contents and the colours of the immortal stones around it.
//! * **Repetition.** If a component's position comes back along a line of
//!   play, the region holds a ko (or a longer cycle); see "Kos" below. Every
//!   repetition reachable by any sequence of legal moves is found, including
//!   kos only bad play reaches (`X..O`).
//! * **Budget.** The search stops with [`GoError::NodeBudget`] (giving the
//!   count) after [`SearchOptions::node_budget`] expanded positions, and
//!   polls the interrupt flag.
//! * **Symmetry** ([`SearchOptions::symmetry`], on by default). The value of
//!   a component depends only on the graph of region points (liberties come
//!   from region neighbours only), on which points touch a Black or a White
//!   framing stone (that is all a framing stone does: it makes chains
//!   touching it immortal and decides settledness), and on the contents.
//!   So a symmetry of the region's bounding box — rows reversed, columns
//!   reversed, or both, and for a square box also the reflections in its
//!   diagonals and the quarter turns — that maps the region points, the
//!   points next to Black framing stones and the points next to White
//!   framing stones onto themselves maps every position to one of the same
//!   value, and the transposition table is keyed by the least of a
//!   position's images. The initial stones need not be symmetric. A line
//!   that reaches the image of a position being expanded reaches a
//!   repetition (apply the symmetry again until it is the identity, at most
//!   four times), so kos are found as before. Translations are not used (a
//!   trial saved under 1% of the positions of the open 2 × 6 area). Tested
//!   against the search without it.
//!
//! **Why pruning settled areas never changes a value (Japanese rules).**
//! Let A be a component settled for Black. Black stones played in A touch an
//! immortal Black stone, so they are immortal: White can never capture in A,
//! and White's stones there are mortal and can always be captured (every
//! Black move in A is legal). Let S be the settled score of A (points of A
//! plus White stones in A). A Black move in A lowers S by exactly 1 (a point
//! is filled; captured stones turn from dead stones into prisoners on empty
//! points, which changes nothing); a White move raises it by exactly 1 (one
//! more dead stone). When A is full it is S = 0 = the prisoners it yielded.
//! By induction every position of A is the game `{S − 1 | S + 1}`,
//! `{S − 1 | }` (S ≥ 1) or empty, and each of these equals the integer S.
//! Since A is an independent summand, replacing it by S changes nothing.
//! The tests check this against the unpruned search. Under area scoring a
//! move in A changes the count by 0, so playing it would turn S into S∗ and
//! worse; not playing settled areas is there part of the definition.
//!
//! **Parity** (Mathematical Go's even and odd games). Under Japanese rules
//! every move changes `prisoners + empty points` by an odd amount, so a
//! position is even or odd as that number is, and warming undoes chilling
//! exactly on even positions (on odd ones it gives the value plus ∗). The
//! tests check this on every ko-free example.

//! # Kos
//!
//! [`go_value`] / [`evaluate_go`] return a [`GoValue`]: a short game when no
//! position can repeat, else [`GoValue::Ko`], one ko graph
//! ([`crate::ko::KoGraph`]) per component in which a position can repeat,
//! plus the ko-free rest. ([`value`] / [`evaluate`] keep returning short
//! games and report a ko as [`GoError::Ko`].) What a repetition means is
//! [`SearchOptions::ko_rule`]:
//!
//! * [`KoRule::Basic`] (the default). The search applies no ban (a local
//!   game has no previous move) and builds the graph of the component's
//!   positions from which a repetition can be reached: its *nodes*. A node's
//!   options are all its legal moves (on every playable point of the
//!   component, so a node is the position of the whole component); a move
//!   to a position from which no repetition can be reached leads to that
//!   position's exact short value, which ends the graph there. The ko rule
//!   proper (no immediate retake; threats) belongs to whoever plays or
//!   analyses the graph: the komaster thermographs of [`crate::ko`], the
//!   basic ko rule in sums. Node `k0` is the position searched; the others
//!   are numbered as a depth-first walk first meets them, and [`GoKo::lines`]
//!   gives a line of moves to each.
//!
//!   *Scores.* Go moves score (prisoners under Japanese rules, stones
//!   that become immortal under area rules), and so do the moves of a ko
//!   graph: each edge carries a *gain* ([`crate::ko`], "Gains"), the option
//!   being the gain plus the value of the node it leads to. There is one
//!   node per position. So that the graph reads like a plain ko graph
//!   where it can, every node carries a *potential* φ, the points scored on
//!   the line of [`GoKo::lines`] to it (the depth-first walk's line), and
//!   denotes φ plus the value of its position: a move scoring `g` from a
//!   node with potential φ to one with φ' has the gain `φ + g − φ'` (0 on
//!   the walk's own edges and on every cycle that scores nothing), and one
//!   to a ko-free position of value `v` is the short game `φ + g + v`.
//!   Under Japanese rules a cycle's prisoner balance is White's moves minus
//!   Black's moves in it, so a cycle with unequal numbers of moves (sending
//!   two, returning one) scores each time round: it shows as a non-zero gain
//!   on an edge of the cycle. (Such cycles need a player to move twice in a
//!   row; the komaster analysis and the ko solver handle them like any other
//!   line, see [`crate::ko`].) Under area scoring a cycle never changes the
//!   immortal stones, so it always balances. Numbers among the ko-free
//!   components are folded into the first graph's terminal games.
//!
//!   *Chilling* ([`GoValue::chill`], [`go_chilled`]) charges one point per
//!   move inside the graph — a gain of −1 on each Black move and +1 on each
//!   White move, made relative to a second potential (Black's moves minus
//!   White's on the node's line) so that the walk's edges keep their gains —
//!   and chills the terminal games; details in [`GoValue::chill`]. On the simple ko it lowers the swing by 3, so the
//!   komaster temperature drops by 1.
//! * [`KoRule::PositionalSuperko`]: a move may not recreate a position of the
//!   component that already occurred on the current line from the position
//!   searched (which counts as occurred). [`KoRule::SituationalSuperko`]: a
//!   move by a player may not recreate a position that occurred on the line
//!   after a move by the same player (the position searched counts as
//!   reached by White's move for Black's options and by Black's move for
//!   White's). Either way every line is finite and the value is a short game
//!   (`GoValue::Short`), computed over the tree of lines with a memo keyed
//!   by the position and the part of the line inside its strongly connected
//!   component of the position graph (only those positions can recur). The
//!   rule is *local*: moves elsewhere do not make a position new, so these
//!   values describe a region played out with no ko threats (for the simple
//!   ko, after Black's capture White may never retake, and the capture
//!   position `{b | }` is worth b + 1 when b is an integer ≥ 0 — the value
//!   of an isolated region, not of a ko fight). They differ from the
//!   [`crate::ko::Rule::NoRepetition`] thermograph of the ko graph, whose
//!   banned player passes instead of having no move. Under superko the
//!   options of a value are not the values after each move (those start
//!   with a shorter history).
//!
//! # Limits (for now)
//!
//! * A node of a ko graph is the position of a whole component, so a ko
//!   next to a large ko-free area in the same component multiplies the two
//!   state spaces; the node budget bounds it. Components separated by
//!   immortal stones get separate graphs.
//! * Seki, whose captures can be replayed, and most open areas of more than
//!   a few points reach repetitions (by bad play) and so are ko graphs.
//!   [`GoValue::resolve_latent`] turns a graph into the short game of
//!   correct play when the rule of [`crate::ko::latent`] proves the ko
//!   cannot change the result (chilled `X . . O` is 0; the language does
//!   this by default). The rule is sufficient, not necessary: its bounds are
//!   crude, so many such kos (the unchilled `X . . O`, the open 2 × 3 area)
//!   stay graphs, and a graph of more than [`LATENT_NODE_LIMIT`] nodes is
//!   not tried. Territories (a component walled by one colour in which the
//!   other cannot live, such as an empty 3 × 3 corner) have a rule of their
//!   own, applied during the search when [`SearchOptions::territories`] is
//!   on (whole-board analysis): `territory.rs`, with its theorems.
//! * Unbalanced cycles are common: a local game lets a player move twice in
//!   a row, so a line such as "White plays twice into atari, Black takes
//!   both, White takes one back" repeats a position one prisoner apart (in
//!   the random 2–3 × 3–5 diagrams of the tests, 22 of the 59 ko graphs,
//!   Japanese rules), even when only absurd play reaches the cycle. They
//!   are ko graphs with scoring edges; the komaster analysis treats the
//!   repetition as any other (the player who is not komaster may not
//!   repeat the position, whatever it scored).
//! * A diagram is a full rectangle: there is no mark for an off-board point
//!   inside it (draw framing stones instead). In a region diagram,
//!   Sensei's Library marks other than those listed above (numbered moves,
//!   marked stones) are rejected; a whole board pasted from Sensei's
//!   Library reads with all of them (below).
//! * Cost: about 3–10 µs of CPU per expanded position in a release build
//!   (more under area rules, and on a loaded machine). The search removes
//!   dominated options by their stops before the canonical form and
//!   memoises canonical forms by option lists; what remains is mostly the
//!   comparisons the stops cannot decide (`Store::le`), the table probes
//!   and translating values by the points a move scores. A one-point-wide
//!   corridor of 12 points expands 8 178 positions (about 35 ms), an open
//!   2 × 6 area 61 178 (122 236 without the mirror symmetry; 90% of the
//!   table lookups hit; 0.2 s Japanese, 0.35 s area), an open 2 × 7 area
//!   435 287 (about 2 s). The open 3 × 4 area is a ko graph of 149 953
//!   nodes and 1.5 million edges (256 528 positions expanded in all): about
//!   1.36 (Japanese) and 1.63 (area) billion instructions for the search,
//!   1.48 and 1.79 billion to the chilled value, 0.5–0.8 s on the shared
//!   machine, most of it evaluating the positions the graph's walk meets
//!   and playing their moves (module docs of `kos.rs`, "Cost"); other
//!   frames of the same area expand up to 437 000 positions. The
//!   16-point open 2 × 8 area (a short game, 3.1 million positions) takes
//!   about 9 s of CPU, the 3 × 5 area (a ko graph of 5.3 million nodes)
//!   about 12 s and 1.7 GB, the 4 × 4 area (19.5 million nodes) about 50 s
//!   and 6.4 GB: the large regions wait mostly on memory, the tables'
//!   random lookups (module docs of `search.rs`). See
//!   BENCHMARKS.md, "Latest Go figures on main" and the helpers' sections
//!   (who measured what, when, at what load).

//! # Whole games: SGF files and Sensei's Library boards
//!
//! A [`Game`] (`game.rs`) is a whole board in progress. Two readers make
//! one from text, with byte offsets in their errors and no IO:
//!
//! * [`sgf`]: SGF files (FF\[4\], and FF\[3\]'s quirks): board size, setup,
//!   moves replayed with [`Game::play`], player to move, komi, rules,
//!   labels, marks (`MA` dead, `SQ` safe), the main line or a chosen
//!   variation, the position after move N; and [`sgf::write`], a game and
//!   a solved line after its last move with a comment. Hand-written: the
//!   `sgf-parse` crate keeps no source positions (module docs).
//! * [`read_sensei`] (`sensei.rs`): a Sensei's Library diagram pasted
//!   whole, read as SL means it (`X` / `O` ordinary stones, squared stones
//!   safe, crossed stones dead, numbered stones the history), placed on
//!   the board by the edges it draws. `go(…)` regions keep yose's meaning
//!   of `$$` diagrams above.
//!
//! # Whole-board analysis
//!
//! [`analysis`] takes a whole board (a game, or a diagram taken as one):
//! Benson's unconditional life ([`unconditionally_alive`]) and the user's
//! marks decide the safe and dead stones, the rest is cut into independent
//! regions valued by the local search above, and the stops, every optimal
//! first move in Go coordinates and optimal lines to the end come from play
//! on the sum; its module docs give the definitions and the test oracle.

pub mod analysis;
mod benson;
pub mod census;
mod coords;
mod diagram;
pub mod expedited;
pub mod fight;
mod game;
pub mod korules;
mod kos;
mod lines;
mod moves;
mod position;
mod scratch;
mod search;
mod sensei;
pub mod sgf;
mod territory;
pub mod ultimate;

pub use analysis::{analyse, analyse_game, Analysis, AnalysisError, AnalysisOptions};
pub use benson::unconditionally_alive;
pub use coords::{column_letter, go_name, parse_go, sgf_name, CoordError, Origin, MAX_BOARD};
pub use diagram::{DiagramError, DiagramErrorKind};
pub use game::{format_number, BoardError, Game, RuleSet, RuleStateKey, Status};
pub use kos::{GoKo, GoValue, LATENT_NODE_LIMIT};
pub use lines::moves_to_option;
pub use moves::{
    parse_moves, play, play_game, play_line, state_before, How, MoveError, MoveErrorKind, Playable,
    Step, WrittenMove,
};
pub use position::{Cell, Colour, IllegalMove, Move, Position, Style};
pub use search::{
    chilled, edit_distance, evaluate, evaluate_go, evaluate_go_chilled, evaluate_go_with_history,
    go_chilled, go_value, search_moves, value, ChilledEvaluation, Earlier, Evaluation, GoError,
    GoEvaluation, KoRule, Rules, SearchOptions, SearchStats, MAX_REGION_POINTS,
};
pub use sensei::{is_sensei, read_sensei};
pub use territory::TERRITORY_STATES;

#[cfg(test)]
mod superko_oracle;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod walk_oracle;
