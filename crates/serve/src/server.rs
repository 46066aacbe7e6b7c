//! The HTTP side: fixed routes only (no part of a request names a file),
//! 127.0.0.1 unless asked otherwise, and then a token on every request.
//!
//! Routes: `/` and `/run/N` (the page of the N-th folder, from 0),
//! `/run/N/events` (server-sent events, one JSON snapshot per change) and
//! `/run/N/snapshot.json` (the latest snapshot). Anything else is 404.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::stream::Stream;
use tokio::sync::watch;

use crate::page::live_page;
use crate::token::{query_value, token_matches};

/// The latest snapshot of one run, serialized once for every client.
#[derive(Debug)]
pub struct Published {
    /// Counts snapshots, from 1 (0: nothing read yet).
    pub seq: u64,
    /// `{"seq", "dir", "live", "body"}`.
    pub json: String,
    /// The report's HTML, for the first page load.
    pub body: String,
}

#[derive(Clone)]
pub(crate) struct AppState {
    pub runs: Arc<Vec<String>>,
    pub snapshots: Arc<Vec<watch::Receiver<Arc<Published>>>>,
    pub token: Option<Arc<str>>,
    /// Host headers accepted without a token (`127.0.0.1:PORT`, `localhost:PORT`).
    pub hosts: Arc<Vec<String>>,
}

pub(crate) fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(root))
        .route("/run/{n}", get(page))
        .route("/run/{n}/events", get(events))
        .route("/run/{n}/snapshot.json", get(snapshot))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found\n") })
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Every request: the token when one is set (401 without it, 403 with a
/// wrong one); otherwise a local Host header, so that a web page elsewhere
/// cannot reach the server through a name that resolves to 127.0.0.1.
async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    match &state.token {
        Some(token) => match query_value(request.uri().query(), "token") {
            None => {
                return (
                    StatusCode::UNAUTHORIZED,
                    "a token is needed: use the URL the server printed\n",
                )
                    .into_response()
            }
            Some(given) if !token_matches(token, given) => {
                return (StatusCode::FORBIDDEN, "wrong token\n").into_response()
            }
            Some(_) => {}
        },
        None => {
            let host = request
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("");
            if !state.hosts.iter().any(|h| h == host) {
                return (StatusCode::FORBIDDEN, "not a local host name\n").into_response();
            }
        }
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Nothing from the network, and scripts only from the page itself.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline' 'unsafe-eval'; connect-src 'self'; img-src data:",
        ),
    );
    response
}

fn no_such_run() -> Response {
    (StatusCode::NOT_FOUND, "no such run\n").into_response()
}

async fn root(state: State<AppState>) -> Response {
    render(&state, 0)
}

async fn page(state: State<AppState>, UrlPath(n): UrlPath<usize>) -> Response {
    render(&state, n)
}

/// The page of run `n`; the token, when one is required, goes into its
/// links (the guard has checked the request carried it).
fn render(state: &AppState, n: usize) -> Response {
    let Some(rx) = state.snapshots.get(n) else {
        return no_such_run();
    };
    let body = rx.borrow().body.clone();
    Html(live_page(&state.runs, n, state.token.as_deref(), &body)).into_response()
}

async fn snapshot(state: State<AppState>, UrlPath(n): UrlPath<usize>) -> Response {
    match state.snapshots.get(n) {
        Some(rx) => {
            let json = rx.borrow().json.clone();
            ([(header::CONTENT_TYPE, "application/json")], json).into_response()
        }
        None => no_such_run(),
    }
}

async fn events(state: State<AppState>, UrlPath(n): UrlPath<usize>) -> Response {
    match state.snapshots.get(n) {
        Some(rx) => Sse::new(snapshots(rx.clone()))
            .keep_alive(KeepAlive::default())
            .into_response(),
        None => no_such_run(),
    }
}

/// The current snapshot at once, then each new one (a slow client skips
/// to the newest; nothing queues up).
fn snapshots(rx: watch::Receiver<Arc<Published>>) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold((rx, true), |(mut rx, first)| async move {
        if !first {
            rx.changed().await.ok()?;
        }
        let published = rx.borrow_and_update().clone();
        let event = Event::default()
            .event("snapshot")
            .id(published.seq.to_string())
            .data(published.json.as_str());
        Some((Ok(event), (rx, false)))
    })
}

/// Host headers a browser sends to a server at `addr`.
pub(crate) fn local_hosts(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    vec![
        addr.to_string(),
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
    ]
}
