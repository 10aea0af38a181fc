//! What every request passes before a handler sees it: who the client is (its address), a
//! per-client request rate limit (a token bucket: 429), the body size limit (413) and the
//! origin check (a state-changing request from another site's page: 403).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::App;
use crate::error::ApiError;

/// The client a request comes from (its IP address, or `""` when the server cannot tell),
/// as a request extension.
#[derive(Clone, Debug, Default)]
pub struct Client(pub String);

struct Bucket {
    tokens: f64,
    last: Instant,
}

/// The request guard's settings and the clients' buckets.
pub struct Guard {
    rate: Option<(f64, f64)>,
    max_body: usize,
    trust_forwarded: bool,
    buckets: Mutex<HashMap<String, Bucket>>,
}

/// Most clients tracked before idle ones are forgotten.
const MAX_TRACKED: usize = 10_000;

impl Guard {
    /// `rate`: requests per second and burst per client (`None`: unlimited); `max_body`:
    /// the largest body in bytes; `trust_forwarded`: read the client from `X-Forwarded-For`.
    pub fn new(rate: Option<(f64, f64)>, max_body: usize, trust_forwarded: bool) -> Self {
        Guard {
            rate: rate.filter(|(r, b)| *r > 0.0 && *b >= 1.0),
            max_body: max_body.max(1024),
            trust_forwarded,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The largest request body.
    pub fn max_body(&self) -> usize {
        self.max_body
    }

    /// Takes one request from `client`'s bucket: `Err(seconds to wait)` when it is empty.
    pub fn take(&self, client: &str) -> Result<(), f64> {
        let Some((rate, burst)) = self.rate else {
            return Ok(());
        };
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= MAX_TRACKED {
            // Forget the clients whose bucket has refilled.
            let full = Duration::from_secs_f64(burst / rate);
            buckets.retain(|_, b| now.duration_since(b.last) < full);
        }
        let b = buckets.entry(client.to_string()).or_insert(Bucket {
            tokens: burst,
            last: now,
        });
        let refill = now.duration_since(b.last).as_secs_f64() * rate;
        b.tokens = (b.tokens + refill).min(burst);
        b.last = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err((1.0 - b.tokens) / rate)
        }
    }

    fn client(&self, headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
        if self.trust_forwarded
            && let Some(last) = headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .map(str::trim)
                .filter(|v| v.parse::<std::net::IpAddr>().is_ok())
        {
            return last.to_string();
        }
        peer.map(|a| a.ip().to_string()).unwrap_or_default()
    }
}

/// Whether a request's `Origin` (if any) names this server (`Host`): browsers send it with
/// every cross-site POST, so a page of another site cannot make a visitor's browser act here.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    // A proxy may forward the public host name in X-Forwarded-Host.
    let forwarded = headers
        .get("x-forwarded-host")
        .and_then(|h| h.to_str().ok());
    authority.eq_ignore_ascii_case(host)
        || forwarded.is_some_and(|f| authority.eq_ignore_ascii_case(f))
}

/// The middleware: client, rate, body size, origin.
pub async fn check(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let client = app.guard.client(req.headers(), peer);
    if let Err(wait) = app.guard.take(&client) {
        let mut resp = ApiError::TooMany(format!(
            "too many requests from {client}: slow down and try again in {wait:.1} s"
        ))
        .into_response();
        if let Ok(v) = HeaderValue::from_str(&format!("{}", wait.ceil().max(1.0) as u64)) {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return resp;
    }
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes && !same_origin(req.headers()) {
        return ApiError::Forbidden(
            "cross-site request refused: the Origin header does not name this server".into(),
        )
        .into_response();
    }
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .or_else(|| axum::body::HttpBody::size_hint(req.body()).exact());
    let too_large = |size: Option<u64>| {
        ApiError::TooLarge(format!(
            "request body {}over the limit of {} bytes",
            size.map_or(String::new(), |n| format!("of {n} bytes ")),
            app.guard.max_body
        ))
        .into_response()
    };
    if declared.is_some_and(|n| n > app.guard.max_body as u64) {
        return too_large(declared);
    }
    req.extensions_mut().insert(Client(client));
    let resp = next.run(req).await;
    // A streamed body found too long while being read: the same JSON answer.
    let json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if resp.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE && !json {
        return too_large(None);
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_refuses_past_the_burst_and_refills() {
        let g = Guard::new(Some((1000.0, 3.0)), 1024, false);
        assert!(g.take("a").is_ok());
        assert!(g.take("a").is_ok());
        assert!(g.take("a").is_ok());
        assert!(g.take("a").is_err());
        // Another client has its own bucket.
        assert!(g.take("b").is_ok());
        std::thread::sleep(Duration::from_millis(5));
        assert!(g.take("a").is_ok());
        // No limit set: always allowed.
        let open = Guard::new(None, 1024, false);
        for _ in 0..100 {
            assert!(open.take("a").is_ok());
        }
    }

    #[test]
    fn origin_must_name_the_host() {
        let mut h = HeaderMap::new();
        assert!(same_origin(&h));
        h.insert(header::HOST, HeaderValue::from_static("play.example:8080"));
        assert!(same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://play.example:8080"),
        );
        assert!(same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(!same_origin(&h));
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(!same_origin(&h));
    }
}
