//! Ultimate Go and Fundamental Go: no-pass Go with prisoner return (Yoav
//! Yaffe, "Analysis of Ultimate Go", Sensei's Library), as rules data
//! consulted by [`super::Game::play`] / [`super::Game::act`], and an exact
//! solver of those rules with the scores of the paper.
//!
//! # The rules (§III), as this module reads them
//!
//! * A move is a *placement* (captured stones go to the mover's *bowl*;
//!   a stone left surrounded is illegal, rule 5; the board may not repeat
//!   any board of the game, the start included: whole-game positional
//!   superko, rule 5) or a *delay* (rule 6: one stone of the mover's bowl
//!   goes back to the opponent). There is no pass (rule 9): a player who
//!   cannot or will not move resigns.
//! * Ultimate Go adds one *ultimate prisoner* per player (rule 3): returning
//!   it is the *ultimate delay*. The player who returns hers second gives
//!   the other (the one who delayed his ultimate prisoner first) the right
//!   to *declare a draw* at any of his turns (rule 8). Fundamental Go has no
//!   ultimate prisoners, so no draws.
//! * [`Version::Original`] is §III as written and **the default**.
//!   [`Version::Simple`] is the "current version" of the remarks: the first
//!   delay of the game must be an ultimate delay, and the second ultimate
//!   delay is allowed only to a player with no regular prisoners. The paper
//!   (§VI) says they make no strategic difference; the tests check that on
//!   many positions (the exact results agree).
//! * Komi (remarks): komi `K` gives White `⌊K⌋` stones in her bowl at the
//!   start, and a half gives her the draws (a draw counts as her win); a
//!   negative komi does the same for Black. Handicap `H` is Black giving
//!   komi `H − 1`, then White delaying on her first `H − 1` turns (those
//!   delays do not count as "the first delay" of the simple version).
//!
//! # The solver ([`Solver`])
//!
//! Minimax over the rules as written: placements, delays, ultimate delays,
//! draw declarations and resignation. Repetition: a state's key holds the
//! boards of the history that could come back, and only those (the rest
//! cannot matter, so the key is exact). A stone whose chain holds a
//! framing stone is never captured, so a history board without it cannot
//! come back. And a history board `B` came before the current board `N`,
//! so it can come back only if `N` can lead back to `B`: both in one
//! strongly connected component of the graph of placements (either colour,
//! any order, superko ignored). The solver finds those components once per
//! root, region by region (the regions the uncapturable stones cut the
//! board into are independent; regions of up to 12 points,
//! [`GoArena::with_recurrence_classes`]). Some early boards of a line are
//! alone in their component (the empty region never comes back: the last
//! capture leaves the capturer's stone), so some lines that differ only in
//! move order meet again; but in an open area most boards lie in one large
//! component. So the threshold search (below) keys its table on the node
//! alone and keeps, per node, *records* valid for a set of histories: a
//! search's answer depends on the history only through whether each board
//! it generated below the node (and that could come back) was already
//! played, so it holds for every history that agrees on those boards
//! (exact: a table answer is one the search would have found). And a
//! search that one option decides (Black to move and an option reaching
//! the goal, or White to move and one refuting it) depends only on that
//! option: under any history where the option is legal (its board not
//! played) and answers the same, the node answers the same, whatever the
//! options tried before it would have answered. So the boards a decided
//! node records are those of its deciding option's search, the board that
//! option makes included, and only a node that no option decides records
//! the boards of every option (the illegal ones among them) — the tested
//! boards of a proof tree, not of the whole search; on the corridor of
//! six this cut the states from 68 651 to 9 934. Nor does a node that no
//! option decides test the boards of its legal options, only of the
//! blocked ones (already played) and what the legal ones' searches
//! tested: under a history that blocks a legal option too, the mover has
//! one option fewer and each other is refuted as before, so the answer
//! stands. By induction a record tests the boards the winner plays, which
//! must stay unplayed, and the loser's blocked boards, which must stay
//! played, never a board the loser could play (on the corridor of eight
//! `ultimate_score` went from 187 349 to 102 402 states). A node numbers the
//! boards its records tested and a record keeps its tested and played
//! boards as bit sets over those numbers, so matching a history (its
//! boards that can come back, as a bit set) is one word operation per 64
//! numbered boards a record. A record past 512 tested boards, a node past
//! 256 records or 2 048 numbered boards, falls back to the key above
//! (every board that can come back), found by hashing
//! ([`solver::RecordLimits`]); so the work per state stays bounded and the
//! budget bounds the time. The
//! solver is for small boards (up to 64 points; a node budget bounds the
//! work).
//!
//! **Move ordering.** The order in which a node tries its options changes
//! no answer (it tries them until one decides; a decided node records its
//! deciding option's boards, whichever option that is), only the size of
//! the proof trees, and with it the tested sets and how often a record is
//! met again. A node tries the option that decided it last time (under a
//! history no record of the node matches, the option that decided its
//! latest record, under another history: on the corridor of nine 363 306
//! → 201 394 states), then its placements — captures first, the largest first, and among equal
//! captures the points that have decided the most nodes for that player so
//! far (the history heuristic) — then the ultimate delay, then the delay.
//! Trying the delays first, as the solver did before, sent the search
//! straight into the Fundamental Go fight after both ultimate delays at one
//! komi after another; placing them last brought three rows of four points
//! from not finishing (past 30 s) to 264 555 states and about 2.5 s, and
//! every board of up to 12 empty points of the benchmarks into a few
//! seconds but corridors past 8 points (BENCHMARKS.md, session 9).
//!
//! **Horizons.** A depth-first search follows its first option to the
//! end, and in a corridor the first options are captures: the search ran
//! lines of hundreds of plies (on the corridor of ten the full records'
//! keys held 959 history boards on average) in which both sides capture
//! back and forth, and the proofs it found along them tested hundreds of
//! boards each, so that their records matched almost no other history (the corridor of nine
//! had 8 621 boards and 250 000 records, a third of them full). So each
//! search at one komi is iterative deepening: first with a *horizon* of
//! [`FIRST_HORIZON`] plies (moves of either player, delays included),
//! then twice as many, and so on, with no horizon past 4 096. A search
//! at a node the horizon reaches, which the tables do not answer, is
//! *open*: it decides nothing and records nothing. A node is decided
//! when an option decides it, or when every option is refuted (none
//! open); else it is open too. So every answer a search gives is that of
//! the exact search under the same history (by induction: an answer
//! comes from the tables, which hold only such answers, or from decided
//! options alone, with the same tested boards as the exact search would
//! record for the same deciding option), and only the cost changes: the
//! winner's first option that wins *within the horizon* decides, which
//! is usually a short line (a safe placement) rather than a long capture
//! fight; its proof tests few boards and its record matches many
//! histories. Open searches are remembered for the current horizon
//! (node, player to move, goal and komi, with the plies that were left),
//! so that a search with as few plies left gives up at once; that ignores
//! the history, but giving up is always sound (the next horizon searches
//! again), and an iteration whose horizon is longer than every line leaves
//! nothing open. The search ends: whole-game superko bounds the
//! placements of a line by the number of boards, and the delays by the
//! stones captured; past the last horizon the search is exact. On the
//! corridor of nine 201 394 → 69 708 states and 4.6 → 0.5 s, and the
//! corridor of ten (which met the memory limit after 40 s) solves in 1 s:
//! about 8–9 states a board on the corridors of eight to ten, where it
//! was 17 and 42 on eight and nine, so the work grows with the boards, no
//! longer with the histories. Open areas gain nothing (their proofs were
//! short already).
//! Past the budget ([`DEFAULT_BUDGET`]: 1 000 000 states) the solver stops
//! with [`SolveError::Budget`].
//!
//! **Komi thresholds.** Under the original rules the bowls matter only by
//! their difference (§IV's "adding one prisoner to each player does not
//! affect the score"; the tests check it against the literal solver), and
//! the outcome is monotone in the komi. So for each goal of Black (an
//! outright win; a draw or better) and each player to move, a node (board,
//! ultimate prisoners, who delayed first, recurring history — no bowls)
//! has a *threshold*: the largest komi `K` (bowls differing by `−K`) at
//! which Black reaches the goal. A search at komi `K` is a win / loss
//! minimax with cut-offs in which a capture of `c` stones shifts `K` by
//! `c` and a delay by one (Black has a stone to return iff `K ≤ −1`, White
//! iff `K ≥ 1`); each answer is kept in the node's entry as a bound on its
//! threshold (`K` reached: threshold ≥ `K`; not: < `K`), so every komi, and
//! every bowl difference met inside the tree, shares one table. Every
//! score is then read off two thresholds found one komi at a time from
//! komi 0. (A single minimax returning the thresholds exactly exists —
//! with `A` and `B` the best non-delay options of Black and of White, the
//! delays give `L = max(A, min(−1, B − 1))` and `R = min(B, max(0, L + 1))`
//! — but it cannot cut off, and it expanded 20 times the states of the old
//! per-komi search on a corridor of four points.) The holder of the draw
//! right reaches "draw or better" at every komi (her threshold is
//! infinite). After an ultimate delay the search asks Fundamental Go
//! instead, by Theorem 2 below (whose argument holds under any history: a
//! delay changes no board, so the histories of the two games are the
//! same): with F the first delayer, while the other (S) holds his ultimate
//! prisoner Black's outright win at komi `K` is her Fundamental Go win
//! with that prisoner counted as S's ordinary prisoner (F = Black: at
//! `K + 1`; F = White: at `K`), and her draw or better is her Fundamental
//! Go win without it (F = Black: at `K`; F = White: at `K − 1`); after
//! both delays the goal that the draw right does not decide is her
//! Fundamental Go win at `K`. So every node after an ultimate delay, for
//! both goals, shares one Fundamental Go table (with `fundamental_score`):
//! on the corridor of eight 102 402 → 51 492 states.
//! Before any ultimate delay Theorem 3 ties the two tables together the
//! other way: Black reaches the win at komi `K` iff she wins the
//! Fundamental Go game `H − ½ − K`, the draw or better iff `H + ½ − K`,
//! and adding a positive number keeps a win; so a Fundamental Go win at
//! `K + 1` (at `K`) proves the win (the draw or better), a loss at `K` (at
//! `K − 1`) refutes it, and each Ultimate Go answer bounds the
//! Fundamental Go threshold likewise. A node the tables do not answer
//! asks the other table before it searches (with that record's tested
//! boards: the two games depend on the history alike): on the corridor
//! of eleven 657 055 → 499 310 states (BENCHMARKS.md, session 12).
//! At the root of a score before any ultimate delay the solver therefore
//! finds the node's Fundamental Go threshold `t` first: a win at `t` and a
//! loss at `t + 1` put the outright win's threshold at `t − 1` or `t`, and
//! one Ultimate Go search at komi `t` says which (the draw's threshold
//! then comes mostly from the tables). The Fundamental Go game has no
//! ultimate delays nor draws, and its refutation costs less than the
//! Ultimate Go one it replaced on the longer corridors
//! ([`solver::Solver::fundamental_first`]; corridor of twelve: budget
//! error → 868 892 states; of nine 30 565 → 39 140; BENCHMARKS.md,
//! session 12b).
//!
//! Under the simple rules an empty bowl decides whether the
//! second ultimate delay is legal, so the bowls stay in the state there and
//! the solver is the literal one: one win / draw / loss minimax per komi.
//!
//! The scores are read off these thresholds (or, in the literal solver,
//! found by a komi search; the outcome is monotone in the stones given to
//! one side, checked by the tests):
//!
//! * [`fundamental_score`] (§IV): with Black winning, `min{K : White wins
//!   with K extra prisoners} − ½`, else `−min{K : Black wins with K} + ½`.
//!   Computed under Fundamental Go with the ultimate prisoners still held
//!   counted as ordinary prisoners ("clearly adding a prisoner to each
//!   player has no effect per se", §VI).
//! * [`ultimate_score`]: with Black winning, `min{K : White draws or wins
//!   with K extra prisoners}`; with White winning, minus the same for Black;
//!   0 for a draw. Where exactly one komi gives a draw (every position before
//!   the second ultimate delay, proved below), it is "the mid-game komi that
//!   makes the game a draw".
//! * [`sente_level`] (§V): the cost of a delay or reverse delay for the
//!   player to move; [`phase`] (§V); [`optimal_moves`] with each move's cost.
//!
//! **Symmetry.** Where the arena has a colour-exchanging symmetry σ
//! ([`Arena::colour_mirror`]: an involution of the points that keeps the
//! neighbours and maps the framing stones of each colour onto those of
//! the other, as the corridor `X . … . O` reversed), the game from a board
//! `b` with `p` to move, bowls differing by `d` and history `H` is the game
//! from `σb` (the image, colours exchanged) with the other to move, `−d`
//! and `σH`, the players' parts exchanged. Fundamental Go has no draws, so
//! Black wins the one iff she loses the other: the thresholds satisfy
//! `T(b, p) = −T(σb, 1 − p) − 1`. So a Fundamental Go node whose image has
//! the smaller code keeps its answers in the image's entry: the other
//! player to move, the komi and the answer negated, the tested boards and
//! the history's boards mapped by σ, the deciding option as its mirrored
//! move. The records stay exact: a board a record tested matters only if
//! it and the node's board lead to each other, which their images then do
//! too, and the filter of the boards that can come back keeps every such
//! board on both sides (it is a necessary condition, though the recurrence
//! classes, found from the root, need not be symmetric). Corridor of
//! twelve, Black first: 868 892 → 542 732 states (BENCHMARKS.md, session
//! 13). Ultimate Go nodes before any delay would map too (the outright win
//! to "not a draw or better" with the other to move), but they are fewer
//! and mostly answered by the Fundamental Go table (Theorem 3): not done.
//!
//! **The history's boards that can come back** are found once at a
//! search's root ([`Arena::recurring`]) and then from the parent's at each
//! placement ([`Arena::recurring_after`]): a board that can come back
//! after a placement could after the board before it, which lies on the
//! way from it to the placement; with recurrence classes a placement that
//! stays in its parent's classes keeps them all (but for fixed stones) and
//! one that leaves them keeps none. A placement is blocked (superko) iff
//! its board is among them.
//!
//! # The theorem: the scores in terms of the position's value
//!
//! **Theorem 1 (Fundamental Go is normal play on the Japanese value).**
//! Let `G` be the game value of the board under no-pass play with
//! whole-game positional superko from the current board (options: each
//! legal placement, scoring the stones it captures; leaves: the numbers
//! the prisoners make). On a board where no position can repeat this is
//! the Japanese value `value(Q)` of the local search (a short game; with
//! framing stones, settled areas count as Japanese rules count them).
//! Where a capture can be retaken this is not proved: the local search's
//! superko is local to each region, while after a placement elsewhere the
//! whole board is new and a retake legal again. (A counterexample seen
//! earlier, `x . X O . .`, came from a bug of the superko search, which
//! split a region into components; with the region searched whole the
//! formula gives the solver's 3/2 there, and a test pins that.) The
//! property test checks the theorem on boards with no repetition only. Let `d` be Black's bowl minus
//! White's. Then Black, moving first, wins Fundamental Go iff `G + d ⧐ 0`
//! (Left wins moving first), and with White to move Black wins iff
//! `G + d ≥ 0`. Hence
//!
//! * Black to move: `fundamental_score = max{K ∈ ℤ : G + d ⧐ K} + ½`;
//! * White to move: `fundamental_score = min{K ∈ ℤ : G + d ⧏ K} − ½`.
//!
//! So with `x = LS(G + d)` (Black to move) the score is `⌊x⌋ + ½` when `x`
//! is not an integer, and `x + ½` or `x − ½` as `G + d − x ⧐ 0` or not when it
//! is; symmetrically with the Right stop for White.
//!
//! *Argument.* A delay returns one stone, which lowers the mover's count of
//! future delays by one: a bowl of `b` stones is exactly the integer `b`
//! as a normal-play game (`b` free moves), and Black's bowl minus White's
//! is the integer `d` (a stone in each bowl cancels: `1 + (−1) = 0`, which
//! is the paper's "adding one prisoner to each player does not affect the
//! score"). A placement capturing `c` stones adds `c` free moves: the
//! option `c + G'`. The player who cannot move resigns: normal play. A
//! delay does not change the board, so the history (positional superko)
//! is the same after it; the local search's superko value lets a player
//! move twice in the board when the other plays elsewhere, which is what a
//! delay is. So the game is the normal-play sum `G + d` and the rest is
//! the definition of ⧐ and of the score (komi `K` for White is `−K` added
//! to `d`). The stop form is the usual relation of outcomes to stops. The
//! property tests check it against the literal solver on random boards,
//! with and without framing stones, both players first, several bowls.
//!
//! **Theorem 2 (Ultimate Go after the first ultimate delay).** Let F be the
//! player who delayed his ultimate prisoner first and S the other, and let
//! `s` be the Fundamental Go score counting S's ultimate prisoner (if he
//! still holds it) as an ordinary prisoner. If S still holds it, then with
//! F = Black: Black wins iff `s ≥ ½`, it is a draw iff `s = −½`, White wins
//! iff `s ≤ −3/2`; so `ultimate_score = s + ½` (and `s − ½` with F =
//! White).
//! After S's ultimate delay, F wins iff he wins Fundamental Go, else it is
//! a draw: every komi that lets F lose Fundamental Go draws, so the draw
//! komi is not unique there.
//!
//! *Argument.* After the second ultimate delay F may declare a draw at
//! every turn, so S can never win, and F wins exactly when he wins without
//! the option. Before it, S wins iff he wins without ever using his
//! ultimate prisoner (using it hands F the draw): Fundamental Go without
//! that stone, score `s + 1` for F = Black, a White win iff `s + 1 ≤ −½`.
//! F wins iff he wins Fundamental Go against S's extra stone (`s ≥ ½`):
//! the draw right never hurts F. (By induction on the game tree, from any
//! node and history: S's ultimate delay leads where F wins iff he wins
//! Fundamental Go with S's bowl as it is, which is where the delay of the
//! extra stone leads; a regular delay of S keeps the extra stone in both
//! games; and S, with a stone to return, has a move in both.) Otherwise S
//! avoids losing only by using the stone, and F then holds a draw. The
//! threshold search relies on this (above); checked by the tests against
//! the literal solver, on boards with histories where stones can be
//! retaken.
//!
//! **Theorem 3 (Ultimate Go before any ultimate delay).** Let `H` be the
//! position as a Fundamental Go game (normal play; by Theorem 1 `H = G +
//! d` where no position can repeat), the ultimate prisoners aside (one
//! each: they cancel), under the original rules. Then, counting a draw as
//! Black's win, the outcome of Ultimate Go is that of the normal-play game
//! `H + ½`, and counting it as White's win that of `H − ½`. Hence
//!
//! * Black to move: `ultimate_score = max{k ∈ ℤ : H + ½ ⧐ k}`;
//! * White to move: `ultimate_score = max{k ∈ ℤ : H + ½ ≥ k}`;
//!
//! the game is a draw exactly when `H + ½` wins for Black (with the player
//! to move) and `H − ½` does not, and the draw komi is unique. In stops
//! (Black to move, `x = LS(H) + ½`): the score is `⌊x⌋` when `x` is not an
//! integer, else `x` or `x − 1` as `H + ½ − x ⧐ 0` or not; with White to
//! move the same with the Right stop and `≥`. With the Fundamental Go
//! score `f = max{K : H ⧐ K} + ½` (Black to move), `ultimate_score` is
//! `f − ½` or `f + ½`.
//!
//! *Proof.* Count draws as Black's wins. After Black's first ultimate
//! delay, Theorem 2 (F = Black, White holding hers, `s` the score of
//! `H − 1`) says Black wins or draws iff `s ≥ −½`, i.e. iff Black wins
//! `H` (at every node below, whoever is to move): the game has become
//! `H + 0`. After White's first ultimate delay (F = White, Black holding
//! his, `s` the score of `H + 1`), Theorem 2 with the colours exchanged
//! says White wins iff `s ≤ −½`, a draw iff `s = ½`: Black reaches a draw
//! or better iff `s ≥ ½`, i.e. iff Black wins `H + 1`: the game has
//! become `H + 1`.
//! A delay changes no board, so the history and `H` are the same after it.
//! So, by induction on the length of the game, the game before any
//! ultimate delay has the outcomes of `H + U` with `U = {0 | 1}`: Black's
//! options are her options in `H` (the ultimate prisoners still held) and
//! `H + 0`; White's, hers in `H` and `H + 1`. And `{0 | 1} = ½` (the
//! simplest number between), and equal games have equal outcomes in
//! every sum. With draws counted as White's wins, Black's ultimate delay
//! leads to `H − 1` (he wins iff `s ≥ ½`, `s` the score of `H − 1`) and
//! White's to `H + 0`: `U = {−1 | 0} = −½`. The score is the komi `k`
//! where Black still draws (`H + ½ − k` wins) and no longer wins (`H − ½ −
//! k` does not): since `H − ½ − k ⧐ 0` iff `H + ½ − (k + 1) ⧐ 0`, that `k`
//! is the largest with `H + ½ − k` a win for Black, and there is exactly
//! one. ∎
//!
//! The first guess — the ultimate delay as a button `{½ | −½}` taken by
//! whoever delays first — is wrong: the first delayer gains nothing, the
//! second pays a point, and the draw goes to one side; the button gives
//! 1 where the solver gives 2 on `. X O x . / O X X . O`, Black to move,
//! Black two stones ahead (a test pins both, and Theorem 3's 2). The tests
//! check Theorem 3 against the solver on random boards with no repetition,
//! both players first, several komis, under both versions of the rules,
//! on sums of separate regions on one board (the formula applied to
//! the sum of the regions' values), and on abstract sums: the rules played
//! on sums of random game trees with captures and of random canonical
//! games ([`trees`], where the choice of what an abstract Ultimate Go
//! position is is written down), with Theorems 1 and 2 and the simple
//! version.
//!
//! Checked by the tests on random boards: the Ultimate Go score is always
//! one of the two integers next to the Fundamental Go score (so the draw
//! option changes the winner only at |score| = ½, as §VI says), and the
//! draw komi is unique before the second ultimate delay.
//!
//! **§VI on the second ultimate delay.** "A player should do that only if
//! it's her unique optimal move": true in the sense that whenever it is not
//! her unique optimal move of §IV (a free delay, every placement costing a
//! point or more, no regular prisoner), another move gives her as good an
//! Ultimate Go score; by Theorem 2 a cost-0 placement or a regular delay
//! keeps the score `s ± ½`, and the second ultimate delay can only give
//! the other the draw. "The result will thus be either a win for her
//! opponent (if he has at least one optimal move), or a draw (if he has
//! none)": the either/or is Theorem 2, but the condition is false — on
//! the abstract game `{−1 | 2}` the opponent has an optimal move after it
//! and the result is a draw, because he loses Fundamental Go by ½ (a
//! test pins it; none was found on small boards).

//!
//! # Layout
//!
//! * [`rules`]: the rules as data and the state of a game under them;
//! * [`arena`]: boards as the solver sees them and the recurrence classes;
//! * [`solver`]: the exact solver and the scores;
//! * [`trees`]: abstract Ultimate Go positions (sums of game trees).

pub mod arena;
pub mod rules;
pub mod solver;
pub mod trees;

pub use arena::*;
pub use rules::*;
pub use solver::*;

#[cfg(test)]
mod tests;
