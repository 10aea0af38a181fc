//! Why an external engine ([`crate::ext`]) cannot be used or failed a move: below the
//! specification's errors ([`crate::spec::SpecError::Engine`]) and the client alike.

use std::time::Duration;

use tessera_core::table::FaultKind;

/// Why an external engine cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExtError {
    /// A limit before the program does not parse.
    #[error("ext: '{key}={value}': expected {expected}")]
    BadLimit {
        /// The limit.
        key: String,
        /// Its value.
        value: String,
        /// What would be accepted.
        expected: &'static str,
    },
    /// No program is named.
    #[error("ext: expected ext:[time=MS:]PROGRAM[+ARG...], e.g. ext:/usr/local/bin/my-engine")]
    NoProgram,
    /// The program does not start.
    #[error("ext: cannot start '{program}'")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The program does not speak the protocol.
    #[error("ext: '{program}' {failure}")]
    Protocol {
        /// The program.
        program: String,
        /// What went wrong.
        failure: Failure,
    },
}

/// How a conversation with an engine failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Writing to the engine failed: it closed its input.
    #[error("closed its input: {0}")]
    Closed(#[source] std::io::Error),
    /// No stdin or stdout.
    #[error("has no standard input or output")]
    NoPipes,
    /// No answer in time.
    #[error("did not answer '{word}' within {timeout:?}")]
    Timeout {
        /// The awaited reply.
        word: &'static str,
        /// The time allowed.
        timeout: Duration,
    },
    /// The process ended.
    #[error("exited before answering '{0}'")]
    Exited(&'static str),
    /// An `error` line.
    #[error("answered 'error {0}'")]
    ErrorLine(String),
    /// `bestmove` without a move.
    #[error("empty bestmove")]
    EmptyBestMove,
    /// A move that does not parse.
    #[error("bestmove '{text}': {detail}")]
    BadMove {
        /// The move's text.
        text: String,
        /// The parse error.
        detail: String,
    },
    /// A move the rules forbid here.
    #[error("illegal bestmove '{text}': {detail}")]
    Illegal {
        /// The move's text.
        text: String,
        /// The rules' reason.
        detail: String,
    },
}

impl Failure {
    /// The fault's kind.
    pub(crate) fn kind(&self) -> FaultKind {
        match self {
            Failure::Timeout { .. } => FaultKind::Timeout,
            Failure::Closed(_) | Failure::Exited(_) | Failure::NoPipes => FaultKind::Crash,
            Failure::Illegal { .. } => FaultKind::Illegal,
            Failure::ErrorLine(_) | Failure::EmptyBestMove | Failure::BadMove { .. } => {
                FaultKind::Protocol
            }
        }
    }

    /// True if the process must be restarted (it died or hangs).
    pub(crate) fn fatal(&self) -> bool {
        matches!(self.kind(), FaultKind::Timeout | FaultKind::Crash)
    }
}
