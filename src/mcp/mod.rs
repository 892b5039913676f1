//! `homunculus mcp`: the memory as Model Context Protocol tools the model calls when it
//! wants to (search, get, recent_sessions, remember, feedback, forget), over stdio. The
//! tools call `ask`, the code the CLI uses; this module only speaks the protocol.

mod params;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::{Value, json};

use crate::ask::find::{Finder, Shared};
use crate::ask::{self, AskError};
use crate::index::SearchOptions;
use crate::memory::confidence::Feedback;
use crate::memory::kind::Kind;
use crate::paths::Paths;

/// The clock the server reads for each call (fixed in tests).
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// What the server knows: the memory folder, the clock, and the project it runs in.
#[derive(Clone)]
pub struct Server {
    paths: Paths,
    clock: Clock,
    project: Option<String>,
    finder: Arc<Shared>,
}

/// Serves the protocol on stdin/stdout until the client closes it.
pub fn serve(paths: Paths, clock: Clock, project: Option<String>) -> std::io::Result<()> {
    let server = Server {
        paths,
        clock,
        project,
        finder: Arc::new(Shared::default()),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    })
}

fn refused(e: AskError) -> ErrorData {
    match e {
        AskError::NotFound(m) | AskError::Refused(m) => ErrorData::invalid_params(m, None),
        other => ErrorData::internal_error(other.to_string(), None),
    }
}

fn internal(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

fn answer(value: Value) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::structured(value))
}

fn bounded(limit: Option<u32>, default: u32, max: u32) -> Result<usize, ErrorData> {
    match limit.unwrap_or(default) {
        0 => Err(ErrorData::invalid_params("limit must be at least 1", None)),
        n => Ok(n.min(max) as usize),
    }
}

impl Server {
    fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    /// Runs `work` with the open index, opening it on first use.
    fn with_finder<T>(
        &self,
        work: impl FnOnce(&mut Finder) -> Result<T, crate::index::IndexError>,
    ) -> Result<T, ErrorData> {
        self.finder
            .with(&self.paths, self.now().timestamp(), work)
            .map_err(internal)
    }

    /// After a change: the index takes it in, and git records it when configured.
    fn changed(&self, message: &str, files: &[std::path::PathBuf]) {
        ask::after_change(&self.paths, self.now().timestamp(), message, files);
    }
}

#[tool_router]
impl Server {
    #[tool(
        description = "Search the user's long-term coding memory: lessons learned in past sessions (instincts), permanent rules (convictions), notable past events (episodes) and session summaries. Use it before a task that may have been done before, when an error looks familiar, or when the user refers to earlier work or to their preferences. Returns short results (id, kind, title, the one-line lesson, score); call `get` with an id for the whole item and its evidence.",
        annotations(read_only_hint = true)
    )]
    fn search(
        &self,
        Parameters(p): Parameters<params::Search>,
    ) -> Result<CallToolResult, ErrorData> {
        if p.query.trim().is_empty() {
            return Err(ErrorData::invalid_params("query must not be empty", None));
        }
        let kind = match p.kind.as_deref() {
            None | Some("") => None,
            Some(k) => Some(
                Kind::from_name(k)
                    .ok_or_else(|| {
                        ErrorData::invalid_params(
                            format!("unknown kind '{k}': instinct, conviction, episode or session"),
                            None,
                        )
                    })?
                    .name()
                    .to_string(),
            ),
        };
        let opts = SearchOptions {
            domain: None,
            kind,
            project: p.project.filter(|p| !p.is_empty()),
            near: self.project.clone(),
            limit: bounded(p.limit, 8, 50)?,
            now_unix: self.now().timestamp(),
            snippet_chars: 0,
        };
        let hits = self.with_finder(|f| f.search(&self.paths, &p.query, &opts))?;
        let hits: Vec<Value> = hits
            .into_iter()
            .map(|h| {
                json!({
                    "id": h.path, "kind": h.kind, "title": h.title, "lesson": h.lesson,
                    "project": h.project, "provenance": h.provenance,
                    "score": (f64::from(h.score) * 100.0).round() / 100.0,
                })
            })
            .collect();
        answer(json!({ "hits": hits }))
    }

    #[tool(
        description = "Read one memory item whole: its rule or story, its confidence, where it applies, and the evidence it was learned from. Give an id from `search` or `recent_sessions`.",
        annotations(read_only_hint = true)
    )]
    fn get(&self, Parameters(p): Parameters<params::Get>) -> Result<CallToolResult, ErrorData> {
        let item = ask::item::get(&self.paths, &p.id).map_err(refused)?;
        answer(json!(item))
    }

    #[tool(
        description = "The most recent sessions in this project, newest first: what was asked, how each ended, and the tasks left open. Use it when the user asks where you left off, what was done last time, or what is still pending.",
        annotations(read_only_hint = true)
    )]
    fn recent_sessions(
        &self,
        Parameters(p): Parameters<params::RecentSessions>,
    ) -> Result<CallToolResult, ErrorData> {
        let Some(project) = p.project.or_else(|| self.project.clone()) else {
            return Err(ErrorData::invalid_params(
                "this server does not run in a project; name one",
                None,
            ));
        };
        let limit = bounded(p.limit, 5, 20)?;
        let now = self.now().timestamp();
        let sessions = self.with_finder(|f| {
            f.with(&self.paths, now, |idx, reader| {
                ask::sessions::recent(idx, reader, &self.paths, &project, now, limit)
            })
        })?;
        answer(json!({ "project": project, "sessions": sessions }))
    }

    #[tool(
        description = "Record something the user explicitly asked you to remember (a rule, a fact about the project, a preference), in one sentence in their words. It is recalled in later sessions when relevant. Do not use it for your own conclusions, for text you read in files or tool output, or for secrets."
    )]
    fn remember(
        &self,
        Parameters(p): Parameters<params::Remember>,
    ) -> Result<CallToolResult, ErrorData> {
        let project = if p.everywhere {
            None
        } else {
            self.project.as_deref()
        };
        let req = ask::remember::Request {
            text: &p.text,
            project,
            domain: p.domain.as_deref().filter(|d| !d.is_empty()),
            source: "mcp",
        };
        let done = ask::remember::remember(&self.paths, &req, self.now()).map_err(refused)?;
        self.changed(
            &format!("homunculus: remember {}", done.name),
            std::slice::from_ref(&done.path),
        );
        answer(json!({
            "id": self.paths.relative(&done.path).display().to_string(),
            "created": done.created,
            "confidence": ask::remember::CONFIDENCE,
            "scope": project.unwrap_or("every project"),
        }))
    }

    #[tool(
        description = "Tell the memory how an item did: `wrong` (it misled you or the user said so), `weak` (doubtful), `strong` (it proved right), or `mute` (not relevant in this session). Confidence changes at once; to drop an item for good, use `forget`."
    )]
    fn feedback(
        &self,
        Parameters(p): Parameters<params::Feedback>,
    ) -> Result<CallToolResult, ErrorData> {
        let kind = match p.verdict.as_str() {
            "wrong" => Feedback::Wrong,
            "weak" => Feedback::Weak,
            "strong" => Feedback::Strong,
            "mute" => {
                let session = ask::feedback::mute(&self.paths, &p.id, p.session.as_deref())
                    .map_err(refused)?;
                return answer(json!({ "id": p.id, "muted_in_session": session }));
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown verdict '{other}': wrong, weak, strong or mute"),
                    None,
                ));
            }
        };
        let j = ask::feedback::judge(&self.paths, &p.id, kind, self.now()).map_err(refused)?;
        let word = ask::feedback::word(kind);
        self.changed(
            &format!(
                "homunculus: feedback {word} on {} ({:.2} → {:.2})",
                j.name, j.before, j.after
            ),
            std::slice::from_ref(&j.path),
        );
        answer(json!({
            "id": self.paths.relative(&j.path).display().to_string(),
            "verdict": word,
            "before": (j.before * 100.0).round() / 100.0,
            "after": (j.after * 100.0).round() / 100.0,
        }))
    }

    #[tool(
        description = "Retire a memory item for good: it is never injected or searched again, and the observer never relearns it. Use it when the user says a memory is wrong or unwanted. The file stays in the memory's git history."
    )]
    fn forget(
        &self,
        Parameters(p): Parameters<params::Forget>,
    ) -> Result<CallToolResult, ErrorData> {
        let done = ask::forget::forget(&self.paths, &p.id, p.reason.as_deref(), self.now())
            .map_err(refused)?;
        if done.changed {
            self.changed(
                &format!("homunculus: forget {}", done.id),
                std::slice::from_ref(&done.path),
            );
        }
        answer(json!({ "id": done.id, "retired": true, "changed": done.changed }))
    }
}

#[tool_handler(
    name = "homunculus",
    instructions = "The user's long-term coding memory, kept by homunculus in plain markdown. Search it when earlier work, a familiar error or the user's preferences may matter; remember only what the user asks you to remember."
)]
impl ServerHandler for Server {}
