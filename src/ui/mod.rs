//! `homunculus ui`: the review screen, a local web page served by the binary itself
//! (axum on the current-thread tokio runtime the MCP server already brings). Safe by
//! construction: it listens on 127.0.0.1 only, every request must carry the random
//! token and this server's Host header, state changes only by POST, no CORS, every
//! asset embedded, every memory text escaped by the templates. Changes go through
//! `ask` (the CLI's own code): the lossless editor, the same locks, a git commit.

mod guard;
mod pages;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Form, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::ask;
use crate::ask::find::{Finder, Shared};
use crate::paths::Paths;
use guard::Guard;
use pages::Frame;

/// The clock the server reads for each request (fixed in tests).
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

struct App {
    paths: Paths,
    clock: Clock,
    guard: Guard,
    finder: Shared,
    /// The instincts waiting for review, and the state of their files they were read
    /// from: parsed again only when a file changed.
    waiting: Mutex<(u64, Arc<pages::Waiting>)>,
}

/// Serves until Ctrl-C. `port` 0 takes a free one; `ready` gets the URL (with the token)
/// once the server listens.
pub fn serve(
    paths: Paths,
    clock: Clock,
    port: u16,
    ready: impl FnOnce(&str),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let port = listener.local_addr()?.port();
        let guard = Guard {
            token: guard::token()?,
            port,
        };
        ready(&format!("http://127.0.0.1:{port}/?t={}", guard.token));
        let app = Arc::new(App {
            paths,
            clock,
            guard,
            finder: Shared::default(),
            waiting: Mutex::new((
                0,
                Arc::new(pages::Waiting {
                    items: Vec::new(),
                    broken: Vec::new(),
                }),
            )),
        });
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(overview))
        .route("/inbox", get(inbox))
        .route("/memory", get(memory))
        .route("/item", get(item))
        .route("/sessions", get(sessions))
        .route("/injections", get(injections))
        .route("/accept", post(accept))
        .route("/reject", post(reject))
        .route("/edit", post(edit))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), checked))
        .with_state(app)
}

/// Refuses a request without this server's Host or the token, before any handler; adds
/// the headers that keep the page to itself.
async fn checked(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if !app.guard.host_ok(host) {
        return (StatusCode::FORBIDDEN, "wrong Host").into_response();
    }
    if !app.guard.token_ok(request.uri().query()) {
        return (
            StatusCode::FORBIDDEN,
            "missing or wrong token: open the URL `homunculus ui` printed",
        )
            .into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// A page's optional message, carried through a redirect after a change.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Said {
    done: Option<String>,
}

impl App {
    fn frame(&self, said: Said) -> Frame {
        Frame {
            token: self.guard.token.clone(),
            message: said.done,
        }
    }

    fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    /// What waits for review; the files are only stat'ed when none changed.
    fn waiting(&self) -> Arc<pages::Waiting> {
        let key = files_state(&[
            self.paths.personal_instincts(),
            self.paths.inherited_instincts(),
        ]);
        let Ok(mut cached) = self.waiting.lock() else {
            return Arc::new(pages::waiting(&self.paths));
        };
        if cached.0 != key {
            *cached = (key, Arc::new(pages::waiting(&self.paths)));
        }
        Arc::clone(&cached.1)
    }

    /// Runs `work` with the open index, opening it on first use.
    fn with_finder<T>(
        &self,
        work: impl FnOnce(&mut Finder) -> Result<T, crate::index::IndexError>,
    ) -> Result<T, String> {
        self.finder.with(&self.paths, self.now().timestamp(), work)
    }
}

/// A fingerprint of the files in `dirs`: names, sizes and modification times.
fn files_state(dirs: &[std::path::PathBuf]) -> u64 {
    let mut entries: Vec<(String, u64, i64)> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            Some((
                e.path().display().to_string(),
                meta.len(),
                crate::fsutil::mtime_ns(&meta),
            ))
        })
        .collect();
    entries.sort();
    let text = format!("{entries:?}");
    crate::text::fnv1a(text.as_bytes()) | 1
}

fn page(rendered: Result<String, askama::Error>) -> Response {
    match rendered {
        Ok(html) => Html(html).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

fn failed(status: StatusCode, why: impl std::fmt::Display) -> Response {
    (status, why.to_string()).into_response()
}

async fn overview(State(app): State<Arc<App>>, Query(said): Query<Said>) -> Response {
    use askama::Template;
    let (now, waiting, frame) = (app.now(), app.waiting().items.len(), app.frame(said));
    match app.with_finder(|f| Ok(pages::overview(&app.paths, f, waiting, frame, now))) {
        Ok(p) => page(p.render()),
        Err(e) => failed(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

async fn inbox(State(app): State<Arc<App>>, Query(said): Query<Said>) -> Response {
    use askama::Template;
    let waiting = app.waiting();
    page(pages::inbox(&app.paths, &waiting, app.frame(said), app.now()).render())
}

async fn memory(
    State(app): State<Arc<App>>,
    Query(said): Query<Said>,
    Query(query): Query<pages::MemoryQuery>,
) -> Response {
    use askama::Template;
    let now = app.now();
    let frame = app.frame(said);
    match app.with_finder(|f| pages::memory(&app.paths, f, frame, query, now)) {
        Ok(p) => page(p.render()),
        Err(e) => failed(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Id {
    id: String,
}

async fn item(
    State(app): State<Arc<App>>,
    Query(said): Query<Said>,
    Query(id): Query<Id>,
) -> Response {
    use askama::Template;
    match pages::item(&app.paths, app.frame(said), &id.id) {
        Ok(p) => page(p.render()),
        Err(e) => failed(StatusCode::NOT_FOUND, e),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ProjectQuery {
    project: String,
}

async fn sessions(
    State(app): State<Arc<App>>,
    Query(said): Query<Said>,
    Query(p): Query<ProjectQuery>,
) -> Response {
    use askama::Template;
    let now = app.now();
    let frame = app.frame(said);
    match app.with_finder(|f| pages::sessions(&app.paths, f, frame, p.project, now)) {
        Ok(p) => page(p.render()),
        Err(e) => failed(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

async fn injections(State(app): State<Arc<App>>, Query(said): Query<Said>) -> Response {
    use askama::Template;
    page(pages::injections(&app.paths, app.frame(said)).render())
}

/// After a change: the index takes it in, git records it, the inbox says what happened.
fn changed(app: &App, message: &str, file: &std::path::Path) -> Response {
    ask::after_change(
        &app.paths,
        app.now().timestamp(),
        message,
        &[file.to_path_buf()],
    );
    let done: String = message
        .trim_start_matches("homunculus: ")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_./".contains(c) {
                c
            } else {
                '+'
            }
        })
        .collect();
    Redirect::to(&format!("/inbox?t={}&done={done}", app.guard.token)).into_response()
}

fn refused(e: ask::AskError) -> Response {
    let status = match e {
        ask::AskError::NotFound(_) => StatusCode::NOT_FOUND,
        ask::AskError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    failed(status, e)
}

async fn accept(State(app): State<Arc<App>>, Form(id): Form<Id>) -> Response {
    match ask::review::accept(&app.paths, &id.id) {
        Ok((path, _)) => changed(&app, &format!("homunculus: accept {}", id.id), &path),
        Err(e) => refused(e),
    }
}

async fn reject(State(app): State<Arc<App>>, Form(id): Form<Id>) -> Response {
    match ask::forget::forget(&app.paths, &id.id, Some("rejected in review"), app.now()) {
        Ok(done) => changed(&app, &format!("homunculus: reject {}", done.id), &done.path),
        Err(e) => refused(e),
    }
}

#[derive(Debug, Deserialize)]
struct Edit {
    id: String,
    trigger: String,
    action: String,
}

async fn edit(State(app): State<Arc<App>>, Form(e): Form<Edit>) -> Response {
    match ask::review::edit(&app.paths, &e.id, &e.trigger, &e.action) {
        Ok((path, _)) => changed(&app, &format!("homunculus: edit {}", e.id), &path),
        Err(e) => refused(e),
    }
}
