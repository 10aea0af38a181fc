//! What went wrong in an agent's decision without stopping the game: its kind, and where it
//! happened. Agents report faults ([`crate::Agent::take_faults`]); tables keep them with the
//! game.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::player::PlayerId;

/// What kind of thing went wrong in an agent's decision (stored as its lowercase name).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// An external engine did not answer in time.
    Timeout,
    /// An external engine died or closed its pipes.
    Crash,
    /// An external engine named an illegal move.
    Illegal,
    /// An external engine's answer broke the protocol.
    Protocol,
    /// A Python agent raised an exception.
    Python,
    /// The seat's time ran out under a game clock (its flag fell): it lost the game.
    Flag,
}

impl FaultKind {
    /// Every kind.
    pub const ALL: [FaultKind; 6] = [
        FaultKind::Timeout,
        FaultKind::Crash,
        FaultKind::Illegal,
        FaultKind::Protocol,
        FaultKind::Python,
        FaultKind::Flag,
    ];

    /// The stored name (`timeout`, `crash`, ...).
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::Illegal => "illegal",
            FaultKind::Protocol => "protocol",
            FaultKind::Python => "python",
            FaultKind::Flag => "flag",
        }
    }
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A fault kind's name that is none of [`FaultKind::ALL`].
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("unknown fault kind '{0}': expected timeout, crash, illegal, protocol, python or flag")]
pub struct UnknownFaultKind(pub String);

impl std::str::FromStr for FaultKind {
    type Err = UnknownFaultKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FaultKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownFaultKind(s.to_string()))
    }
}

/// Something that went wrong in an agent's decision without stopping the game (an external
/// engine timed out, crashed or named an illegal move, and a fallback move was played).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// What kind of failure.
    pub kind: FaultKind,
    /// What happened.
    pub detail: String,
}

/// A [`Fault`] with where it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatFault {
    /// The seat whose agent faulted.
    pub seat: PlayerId,
    /// The number of actions played before the decision (the decision's ply).
    pub ply: u32,
    /// What happened.
    pub fault: Fault,
}
