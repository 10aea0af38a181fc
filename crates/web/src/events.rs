//! The stored events of a web game (`tessera serve --db FILE`): what happened at the table,
//! one row of `web_events` each, written before the request that caused it is answered and
//! replayed in order when the server starts again.
//!
//! A row is a JSON object whose `op` names the event (`{"op":"move","seat":0,"action":"3"}`);
//! under a clock it also holds every seat's time left and used after the event (`left_ms`,
//! `used_ms`). The keys are written sorted, as `serde_json`'s maps keep them, so the bytes
//! are the same as the rows written before this type existed (the tests below compare them).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// What happened, by `op`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
pub enum Event {
    /// A person's move, in the game's notation.
    Move {
        /// The seat that moved.
        seat: u8,
        /// The move.
        action: String,
    },
    /// An AI seat's move and its agent's generator after it (`rng_text`), so that after a
    /// restart the seat decides on as if never interrupted. `None` when the agent has no
    /// generator of its own, and in rows stored before it was kept (no `rng` key).
    Ai {
        /// The seat that moved.
        seat: u8,
        /// The move.
        action: String,
        /// The generator's position (written as `null` when there is none).
        #[serde(default)]
        rng: Option<String>,
    },
    /// A move taken back by `seat`.
    Undo {
        /// The seat that asked.
        seat: u8,
    },
    /// A hint asked for by `seat` (the record counts it).
    Hint {
        /// The seat that asked.
        seat: u8,
    },
    /// `seat`'s flag fell after it had thought `think_ms` on its last turn.
    Flag {
        /// The seat whose time ran out.
        seat: u8,
        /// The time its last turn took.
        think_ms: u64,
    },
    /// A person's turn under way: it has taken `elapsed_ms` so far (stored every
    /// `CLOCK_TICK`, so a restart gives back at most that much).
    Tick {
        /// The person to move.
        seat: u8,
        /// Their turn so far.
        elapsed_ms: u64,
    },
    /// A free seat taken by the holder of its token.
    Claim {
        /// The seat.
        seat: u8,
    },
    /// A person joined through the lobby.
    Join {
        /// The seat taken.
        seat: u8,
        /// The name they gave.
        name: String,
        /// The SHA-256 of their new token.
        token_hash: String,
    },
}

impl Event {
    /// The seat the event is about.
    pub fn seat(&self) -> u8 {
        match *self {
            Event::Move { seat, .. }
            | Event::Ai { seat, .. }
            | Event::Undo { seat }
            | Event::Hint { seat }
            | Event::Flag { seat, .. }
            | Event::Tick { seat, .. }
            | Event::Claim { seat }
            | Event::Join { seat, .. } => seat,
        }
    }
}

/// An event as stored: the event and, under a clock, every seat's time left and used after
/// it in milliseconds (rows of games without a clock have neither).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredEvent {
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
    /// Each seat's time left after the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_ms: Option<Vec<u64>>,
    /// Each seat's time used after the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_ms: Option<Vec<u64>>,
}

/// Why a stored event is not one.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The row is not JSON, or not an event (an unknown `op`, a missing or mistyped field).
    #[error("not a stored event: {0}")]
    Shape(#[source] serde_json::Error),
    /// The row has one of `left_ms` and `used_ms` without the other.
    #[error("it has {0} without {1} (a clocked game stores both)")]
    HalfClock(&'static str, &'static str),
}

impl StoredEvent {
    /// An event without clock times.
    pub fn new(event: Event) -> Self {
        StoredEvent {
            event,
            left_ms: None,
            used_ms: None,
        }
    }

    /// The event with the clocks after it (`(left, used)` per seat), when the game has a
    /// clock.
    pub fn with_clock(mut self, times: Option<(Vec<Duration>, Vec<Duration>)>) -> Self {
        if let Some((left, used)) = times {
            let ms = |v: Vec<Duration>| v.into_iter().map(millis).collect::<Vec<_>>();
            self.left_ms = Some(ms(left));
            self.used_ms = Some(ms(used));
        }
        self
    }

    /// The row's text: a JSON object with its keys sorted (the bytes stored before).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        // Through `Value`, whose maps keep keys sorted: the tag `op` stands among the other
        // keys in their order, as the rows written with `json!` have it.
        Ok(serde_json::to_value(self)?.to_string())
    }

    /// Reads a row.
    pub fn from_json(text: &str) -> Result<Self, EventError> {
        let ev: StoredEvent = serde_json::from_str(text).map_err(EventError::Shape)?;
        match (&ev.left_ms, &ev.used_ms) {
            (Some(_), None) => Err(EventError::HalfClock("left_ms", "used_ms")),
            (None, Some(_)) => Err(EventError::HalfClock("used_ms", "left_ms")),
            _ => Ok(ev),
        }
    }

    /// The clocks after the event: each seat's time left and used.
    pub fn clock(&self) -> Option<(Vec<Duration>, Vec<Duration>)> {
        let ms = |v: &[u64]| v.iter().map(|&m| Duration::from_millis(m)).collect();
        match (&self.left_ms, &self.used_ms) {
            (Some(l), Some(u)) => Some((ms(l), ms(u))),
            _ => None,
        }
    }
}

impl fmt::Display for StoredEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_json() {
            Ok(text) => f.write_str(&text),
            Err(_) => write!(f, "{self:?}"),
        }
    }
}

/// A duration in whole milliseconds.
pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const RNG: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff:0:17";

    /// Every kind of event as the server wrote it with `json!` before this type, beside the
    /// typed event that must give the same row.
    fn every_kind() -> Vec<(Value, Event)> {
        let rng: Option<String> = None;
        vec![
            (
                json!({"op": "move", "seat": 1u8, "action": "2A-1".to_string()}),
                Event::Move {
                    seat: 1,
                    action: "2A-1".into(),
                },
            ),
            (
                json!({"op": "ai", "seat": 0u8, "action": "Q1", "rng": Some(RNG.to_string())}),
                Event::Ai {
                    seat: 0,
                    action: "Q1".into(),
                    rng: Some(RNG.into()),
                },
            ),
            (
                json!({"op": "ai", "seat": 1u8, "action": "3", "rng": rng}),
                Event::Ai {
                    seat: 1,
                    action: "3".into(),
                    rng: None,
                },
            ),
            (json!({"op": "undo", "seat": 0u8}), Event::Undo { seat: 0 }),
            (json!({"op": "hint", "seat": 2u8}), Event::Hint { seat: 2 }),
            (
                json!({"op": "flag", "seat": 1u8, "think_ms": 1234u64}),
                Event::Flag {
                    seat: 1,
                    think_ms: 1234,
                },
            ),
            (
                json!({"op": "tick", "seat": 0u8, "elapsed_ms": 3001u64}),
                Event::Tick {
                    seat: 0,
                    elapsed_ms: 3001,
                },
            ),
            (
                json!({"op": "claim", "seat": 3u8}),
                Event::Claim { seat: 3 },
            ),
            (
                json!({"op": "join", "seat": 1u8, "name": "Ann \"the\" Bold",
                       "token_hash": "ab12"}),
                Event::Join {
                    seat: 1,
                    name: "Ann \"the\" Bold".into(),
                    token_hash: "ab12".into(),
                },
            ),
        ]
    }

    /// What `log` did to an event under a clock before this type.
    fn old_with_clock(mut v: Value, left: &[Duration], used: &[Duration]) -> Value {
        let ms = |v: &[Duration]| v.iter().copied().map(millis).collect::<Vec<_>>();
        let obj = v.as_object_mut().unwrap();
        obj.insert("left_ms".into(), json!(ms(left)));
        obj.insert("used_ms".into(), json!(ms(used)));
        v
    }

    #[test]
    fn every_kind_is_written_byte_for_byte_as_before() {
        let left = [Duration::from_millis(299_500), Duration::from_millis(7)];
        let used = [Duration::from_millis(500), Duration::from_secs(3)];
        for (old, event) in every_kind() {
            let new = StoredEvent::new(event.clone());
            assert_eq!(new.to_json().unwrap(), old.to_string(), "{old}");
            assert_eq!(new.to_string(), old.to_string());
            let clocked = StoredEvent::new(event).with_clock(Some((left.to_vec(), used.to_vec())));
            let old = old_with_clock(old, &left, &used);
            assert_eq!(clocked.to_json().unwrap(), old.to_string(), "{old}");
        }
        // Written out once, so a change of key order cannot pass by changing both sides.
        let ev = StoredEvent::new(Event::Ai {
            seat: 1,
            action: "3".into(),
            rng: None,
        })
        .with_clock(Some((vec![Duration::from_secs(1)], vec![Duration::ZERO])));
        assert_eq!(
            ev.to_json().unwrap(),
            r#"{"action":"3","left_ms":[1000],"op":"ai","rng":null,"seat":1,"used_ms":[0]}"#
        );
        let ev = StoredEvent::new(Event::Join {
            seat: 0,
            name: "Bo".into(),
            token_hash: "ff".into(),
        });
        assert_eq!(
            ev.to_json().unwrap(),
            r#"{"name":"Bo","op":"join","seat":0,"token_hash":"ff"}"#
        );
    }

    #[test]
    fn rows_written_before_read_as_the_same_events() {
        let left = [Duration::from_millis(10), Duration::from_millis(20)];
        let used = [Duration::from_millis(30), Duration::ZERO];
        for (old, event) in every_kind() {
            let read = StoredEvent::from_json(&old.to_string()).unwrap();
            assert_eq!(read, StoredEvent::new(event.clone()), "{old}");
            assert_eq!(read.clock(), None);
            let old = old_with_clock(old, &left, &used);
            let read = StoredEvent::from_json(&old.to_string()).unwrap();
            assert_eq!(read.event, event);
            assert_eq!(read.clock(), Some((left.to_vec(), used.to_vec())));
        }
        // An AI move stored before the generator was kept has no `rng`.
        let read = StoredEvent::from_json(r#"{"action":"1","op":"ai","seat":0}"#).unwrap();
        assert_eq!(
            read.event,
            Event::Ai {
                seat: 0,
                action: "1".into(),
                rng: None
            }
        );
        assert_eq!(read.event.seat(), 0);
    }

    #[test]
    fn a_row_that_is_not_an_event_says_what_is_wrong() {
        let cases = [
            (r#"{"op":"dance","seat":0}"#, "unknown variant `dance`"),
            (r#"{"seat":0,"action":"1"}"#, "missing field `op`"),
            (r#"{"op":"move","seat":0}"#, "missing field `action`"),
            (r#"{"op":"move","action":"1"}"#, "missing field `seat`"),
            (r#"{"op":"move","seat":300,"action":"1"}"#, "300"),
            (r#"{"op":"move","seat":0,"action":1}"#, "invalid type"),
            (r#"{"op":"flag","seat":0,"think_ms":-1}"#, "-1"),
            (
                r#"{"op":"undo","seat":0,"extra":true}"#,
                "unknown field `extra`",
            ),
            (
                r#"{"op":"undo","seat":0,"left_ms":[1,"x"],"used_ms":[1,2]}"#,
                "invalid type",
            ),
            (
                r#"{"op":"undo","seat":0,"left_ms":[1]}"#,
                "left_ms without used_ms",
            ),
            (
                r#"{"op":"undo","seat":0,"used_ms":[1]}"#,
                "used_ms without left_ms",
            ),
            (r#"[1,2]"#, "not a stored event"),
            (r#"{"op":"move""#, "EOF"),
        ];
        for (text, expected) in cases {
            let e = StoredEvent::from_json(text).expect_err(text);
            let full = e.to_string();
            assert!(full.contains(expected), "{text}: {full}");
        }
    }
}
