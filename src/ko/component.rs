//! The components a sum with kos is made of: the shared vocabulary between
//! the interpreter (which builds sums from what the user wrote) and the ko
//! solver (which plays them).
//!
//! * [`Component::Short`]: an ordinary short game (its canonical form).
//! * [`Component::Ko`]: a position (node) of a ko graph.
//! * [`Component::Threats`]: `count` ko threats θ owned by `owner` (θ for
//!   Black, −θ for White, θθ is two). A threat is worth 0 to the score; its
//!   owner may play it once (per threat) as a forcing move that the
//!   opponent must answer. In canonical arithmetic a threat counts as 0.
//! * [`Component::Compound`]: `{L | R}` whose options are themselves sums
//!   of components, e.g. region P of Berlekamp and Kim, “Where Is the Thousand-Dollar Ko?”, `{12 − θ | −12 + θ}`: Black's
//!   move there leaves 12 and hands White a threat.

use std::rc::Rc;

use crate::game::GameId;

use super::{KoGraph, NodeId, Side};

/// One component of a sum that may contain kos and ko threats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Component {
    Short(GameId),
    Ko { graph: Rc<KoGraph>, node: NodeId },
    Threats { owner: Side, count: u32 },
    Compound(Rc<Compound>),
}

/// A game `{L | R}` whose options are sums of components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compound {
    pub left: Vec<Vec<Component>>,
    pub right: Vec<Vec<Component>>,
}

impl Component {
    /// The component at the root of a ko graph.
    pub fn ko(graph: Rc<KoGraph>) -> Component {
        let node = graph.root();
        Component::Ko { graph, node }
    }
}
