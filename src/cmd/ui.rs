//! `homunculus ui [--port N] [--open]`: serves the review screen until Ctrl-C and prints
//! its URL (with the token every request needs).

use std::sync::Arc;

use anyhow::{Context, Result};

use super::{Ctx, print};
use crate::cli::UiArgs;

pub fn run(ctx: &Ctx, args: &UiArgs) -> Result<()> {
    ctx.require_memory()?;
    let env = ctx.env.clone();
    env.now()?;
    let clock: crate::ui::Clock = Arc::new(move || env.now().unwrap_or_default());
    let open = args.open;
    crate::ui::serve(ctx.paths.clone(), clock, args.port, |url| {
        let _ = print(&format!(
            "homunculus review screen: {url}\n(only this machine can reach it; Ctrl-C stops it)\n"
        ));
        if open {
            let opener = if cfg!(target_os = "macos") {
                "open"
            } else {
                "xdg-open"
            };
            let _ = std::process::Command::new(opener)
                .arg(url)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn();
        }
    })
    .context("the review screen stopped")
}
