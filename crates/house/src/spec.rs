//! Agent specifications: a player's name and parameters in one string.
//!
//! Syntax: `NAME` or `NAME:PARAM:PARAM...`, where each `PARAM` is `KEY=VALUE` or a bare
//! `FLAG`. Examples: `greedy`, `strategic:diagonal`, `alphabeta:depth=3:time=100ms`.
//! Commas separate agents on the command line, so no spelling needs one. Entries that
//! take a free-form argument (an external engine's command line) receive everything after
//! the first `:` unsplit ([`AgentSpec::rest`]).
//!
//! ```
//! use tessera_house::spec::AgentSpec;
//! let s: AgentSpec = "alphabeta:depth=3:time=100ms".parse().unwrap();
//! assert_eq!(s.name, "alphabeta");
//! assert_eq!(s.u64("depth", 1).unwrap(), 3);
//! assert_eq!(s.duration("time").unwrap(), Some(std::time::Duration::from_millis(100)));
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// What is wrong with an agent specification.
#[derive(Debug, Error, Clone)]
pub enum SpecError {
    /// The text is empty or has an empty part.
    #[error("agent specification '{0}' is malformed: expected NAME or NAME:KEY=VALUE:FLAG...")]
    Malformed(String),
    /// A parameter's value does not parse.
    #[error("agent '{agent}': parameter '{key}' has value '{value}', expected {expected}")]
    BadValue {
        /// The agent's name.
        agent: String,
        /// The parameter.
        key: String,
        /// The value given.
        value: String,
        /// What would be accepted.
        expected: String,
    },
    /// A parameter the agent does not have.
    #[error("agent '{agent}' has no parameter '{key}'; its parameters: {known}")]
    UnknownParam {
        /// The agent's name.
        agent: String,
        /// The parameter given.
        key: String,
        /// The parameters it has.
        known: String,
    },
    /// A parameter given twice.
    #[error("agent '{agent}': parameter '{key}' is given twice")]
    Duplicate {
        /// The agent's name.
        agent: String,
        /// The parameter.
        key: String,
    },
    /// A search depth out of range.
    #[error("agent '{agent}': depth={depth}: expected 1-200")]
    DepthRange {
        /// The agent's name.
        agent: String,
        /// The depth given.
        depth: u64,
    },
    /// A parameter that names a file or a program, in a specification from a remote client.
    #[error(
        "agent '{agent}': parameter '{key}' names a file or a program, which a remote request may not; expected {expected}"
    )]
    Refused {
        /// The agent's name.
        agent: String,
        /// The parameter.
        key: String,
        /// What a remote request may give instead.
        expected: String,
    },
    /// An external engine's specification is wrong or the engine does not start.
    #[error(transparent)]
    Engine(std::sync::Arc<crate::ext_error::ExtError>),
}

/// One parameter: `key=value`, or a flag (`value` is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The key (or the flag's name).
    pub key: String,
    /// The value, if written as `key=value`.
    pub value: Option<String>,
}

/// A parsed agent specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent's name (the registry key).
    pub name: String,
    /// The parameters in the order given.
    pub params: Vec<Param>,
    /// Everything after the first `:`, unsplit (for entries with a free-form argument).
    pub rest: Option<String>,
    /// The whole text as given.
    pub text: String,
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let text = s.trim();
        let malformed = || SpecError::Malformed(text.to_string());
        if text.is_empty() || text.contains(',') || text.chars().any(char::is_whitespace) {
            return Err(malformed());
        }
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(malformed());
        }
        let mut params = Vec::new();
        if let Some(r) = rest {
            if r.is_empty() {
                return Err(malformed());
            }
            for part in r.split(':') {
                let (key, value) = match part.split_once('=') {
                    Some((k, v)) => (k, Some(v.to_string())),
                    None => (part, None),
                };
                params.push(Param {
                    key: key.to_string(),
                    value,
                });
            }
        }
        Ok(AgentSpec {
            name: name.to_string(),
            params,
            rest: rest.map(str::to_string),
            text: text.to_string(),
        })
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl AgentSpec {
    fn bad(&self, key: &str, value: &str, expected: &str) -> SpecError {
        SpecError::BadValue {
            agent: self.name.clone(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    /// The value of `key=value`, if given. A bare flag named `key` is an error (it needs a
    /// value).
    pub fn value(&self, key: &str) -> Result<Option<&str>, SpecError> {
        match self.params.iter().find(|p| p.key == key) {
            None => Ok(None),
            Some(Param { value: Some(v), .. }) => Ok(Some(v)),
            Some(Param { value: None, .. }) => Err(self.bad(key, "", "KEY=VALUE")),
        }
    }

    /// True if the bare flag `key` is present. `key=value` for a flag is an error.
    pub fn flag(&self, key: &str) -> Result<bool, SpecError> {
        match self.params.iter().find(|p| p.key == key) {
            None => Ok(false),
            Some(Param { value: None, .. }) => Ok(true),
            Some(Param { value: Some(v), .. }) => {
                Err(self.bad(key, v, "a bare flag without '=VALUE'"))
            }
        }
    }

    /// An unsigned integer parameter, or `default` if absent.
    pub fn u64(&self, key: &str, default: u64) -> Result<u64, SpecError> {
        match self.value(key)? {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| self.bad(key, v, "a non-negative integer")),
        }
    }

    /// A floating-point parameter, or `default` if absent.
    pub fn f64(&self, key: &str, default: f64) -> Result<f64, SpecError> {
        match self.value(key)? {
            None => Ok(default),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(self.bad(key, v, "a finite number")),
            },
        }
    }

    /// A duration parameter (`250ms`, `2s`, `1.5s`, `500us`), if given.
    pub fn duration(&self, key: &str) -> Result<Option<Duration>, SpecError> {
        match self.value(key)? {
            None => Ok(None),
            Some(v) => parse_duration(v)
                .map(Some)
                .ok_or_else(|| self.bad(key, v, "a duration such as 100ms, 2s or 500us")),
        }
    }

    /// Checks that every parameter is one of `known` (flags and keys alike) and none is
    /// given twice.
    pub fn check_known(&self, known: &[&str]) -> Result<(), SpecError> {
        for (i, p) in self.params.iter().enumerate() {
            if !known.contains(&p.key.as_str()) {
                return Err(SpecError::UnknownParam {
                    agent: self.name.clone(),
                    key: p.key.clone(),
                    known: if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    },
                });
            }
            if self.params[..i].iter().any(|q| q.key == p.key) {
                return Err(SpecError::Duplicate {
                    agent: self.name.clone(),
                    key: p.key.clone(),
                });
            }
        }
        Ok(())
    }
}

/// Parses `250ms`, `2s`, `1.5s`, `500us`, `3m`. Returns `None` for anything else.
pub fn parse_duration(v: &str) -> Option<Duration> {
    let split = v.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (num, unit) = v.split_at(split);
    let x: f64 = num.parse().ok()?;
    let secs = match unit {
        "us" => x / 1e6,
        "ms" => x / 1e3,
        "s" => x,
        "m" => x * 60.0,
        _ => return None,
    };
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return None;
    }
    Some(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_flags_and_values() {
        let s: AgentSpec = "strategic:diagonal".parse().unwrap();
        assert_eq!(s.name, "strategic");
        assert!(s.flag("diagonal").unwrap());
        assert!(!s.flag("adjacent").unwrap());
        let s: AgentSpec = "minimax:time=100ms:depth=4".parse().unwrap();
        assert_eq!(
            s.duration("time").unwrap(),
            Some(Duration::from_millis(100))
        );
        assert_eq!(s.u64("depth", 0).unwrap(), 4);
        assert_eq!(s.u64("nodes", 9).unwrap(), 9);
        let s: AgentSpec = "ext:/usr/bin/engine".parse().unwrap();
        assert_eq!(s.rest.as_deref(), Some("/usr/bin/engine"));
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in ["", "a,b", "x:", ":x", "a b", "gr@edy"] {
            assert!(
                matches!(bad.parse::<AgentSpec>(), Err(SpecError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn rejects_bad_values_and_unknown_keys() {
        let s: AgentSpec = "alphabeta:depth=x:time=fast".parse().unwrap();
        assert!(matches!(s.u64("depth", 1), Err(SpecError::BadValue { .. })));
        assert!(matches!(
            s.duration("time"),
            Err(SpecError::BadValue { .. })
        ));
        let err = s.check_known(&["depth"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "agent 'alphabeta' has no parameter 'time'; its parameters: depth"
        );
        let s: AgentSpec = "a:x=1:x=2".parse().unwrap();
        assert!(matches!(
            s.check_known(&["x"]),
            Err(SpecError::Duplicate { .. })
        ));
        let s: AgentSpec = "a:flag=1".parse().unwrap();
        assert!(s.flag("flag").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("500us"), Some(Duration::from_micros(500)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("10"), None);
        assert_eq!(parse_duration("ms"), None);
        assert_eq!(parse_duration("5h"), None);
    }
}
