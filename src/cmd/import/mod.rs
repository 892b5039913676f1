//! `homunculus import`: bring instincts from an export file into `instincts/inherited/`.
//! Imported confidence is capped at 0.5 (it must be earned here); a name already
//! imported is skipped, so importing twice changes nothing.

use std::fmt::Write;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::export::FORMAT;
use crate::time::stamp;

mod nous;
use super::{Ctx, commit_own_change, print, reindex_changed};
use crate::fsutil;
use crate::memory::{
    Document, Error, Instinct, Origin, Scalar, Store, body, is_valid_name, slugify,
};

/// The most confidence an imported instinct starts with.
const IMPORT_CAP: f64 = 0.5;

pub fn run(ctx: &Ctx, args: &crate::cli::ImportArgs) -> Result<()> {
    ctx.require_memory()?;
    let text = fsutil::read_text(&args.file)?;
    let entries = match serde_json::from_str::<Value>(&text) {
        Ok(value) if value.get("format").and_then(Value::as_str) == Some(FORMAT) => value
            .get("instincts")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        Ok(value) if value.get("content").is_some() => nous::entries(&text, ctx.now)?,
        Ok(_) => bail!(
            "{}: not a homunculus export (no \"format\": \"{FORMAT}\")",
            args.file.display()
        ),
        Err(_) => nous::entries(&text, ctx.now).with_context(|| {
            format!(
                "{}: neither a homunculus export nor a Nous store (engram.jsonl, cortex.jsonl)",
                args.file.display()
            )
        })?,
    };
    let store = Store::new(&ctx.paths);
    let source = args
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // What the memory already holds, so that an export imported back (or twice, under
    // other names) merges instead of showing the same advice twice.
    let held: Vec<(String, String)> = store
        .instincts()
        .items
        .iter()
        .map(|i| (i.name.clone(), identity_of(&i.trigger, &i.action)))
        .collect();
    let mut out = String::new();
    let mut written = Vec::new();
    let (mut imported, mut skipped, mut failed) = (0, 0, 0);
    for (n, entry) in entries.iter().enumerate() {
        let raw_name = entry.get("name").and_then(Value::as_str).unwrap_or("");
        // Names come from someone else's file: never let one escape the folder.
        let name = if is_valid_name(raw_name) {
            raw_name.to_string()
        } else {
            slugify(raw_name, 80)
        };
        let path = ctx.paths.inherited_instincts().join(format!("{name}.md"));
        if path.exists() {
            skipped += 1;
            let _ = writeln!(out, "  exists    {name}");
            continue;
        }
        let markdown = entry.get("markdown").and_then(Value::as_str).unwrap_or("");
        match prepare(&path, markdown, &source, ctx) {
            Ok((_, _, identity)) if held.iter().any(|(n, id)| *n == name || *id == identity) => {
                let same = held
                    .iter()
                    .find(|(n, id)| *n == name || *id == identity)
                    .map_or(name.as_str(), |(n, _)| n.as_str());
                skipped += 1;
                let _ = writeln!(out, "  merged    {name} (the memory has it: {same})");
            }
            Ok((text, confidence, _)) => {
                if !args.dry_run {
                    store.create(&path, &text)?;
                    written.push(path.clone());
                }
                imported += 1;
                let verb = if args.dry_run { "would add" } else { "added" };
                let _ = writeln!(out, "  {verb:<9} {name} ({confidence:.2})");
            }
            Err(e) => {
                failed += 1;
                let _ = writeln!(out, "  invalid   entry {}: {e}", n + 1);
            }
        }
    }
    reindex_changed(ctx, &written);
    let _ = writeln!(
        out,
        "{} {imported} instinct(s) into {}; {skipped} already present, {failed} invalid.",
        if args.dry_run {
            "Would import"
        } else {
            "Imported"
        },
        ctx.paths
            .relative(&ctx.paths.inherited_instincts())
            .display()
    );
    if !written.is_empty() {
        out.push_str(&commit_own_change(
            ctx,
            &format!("homunculus: imported {imported} instinct(s) from {source}"),
            &written,
        ));
    }
    print(&out)
}

/// What makes two instincts the same advice: trigger and action, case and spacing aside.
fn identity_of(trigger: &str, action: &str) -> String {
    let flat = |t: &str| {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    format!("{}\u{1f}{}", flat(trigger.trim_matches('"')), flat(action))
}

/// Checks an imported instinct and rewrites what must change: confidence capped,
/// `source: import`, seen now, no promotion of someone else's, and `provenance: import`:
/// a rule another person typed is not this user's word, so it never reads "you said" nor
/// counts as stated by the user. What may never be advice (it deletes, runs fetched code,
/// switches a safety off) is refused, as it is for anything learned.
fn prepare(
    path: &std::path::Path,
    markdown: &str,
    source: &str,
    ctx: &Ctx,
) -> Result<(String, f64, String), Error> {
    let bad = |e| Error::invalid(path, e);
    let mut doc = Document::parse(markdown.to_string()).map_err(bad)?;
    let instinct = Instinct::from_document(path, Origin::Inherited, &doc)?;
    if let Some(reason) = crate::observer::safety::refuse(&instinct.trigger, &instinct.action) {
        return Err(Error::Refused {
            path: path.to_path_buf(),
            reason,
        });
    }
    doc.set("provenance", &Scalar::Plain("import".into()), &["source"])
        .map_err(bad)?;
    let confidence = instinct.effective(ctx.now).min(IMPORT_CAP);
    doc.set("confidence", &Scalar::Number(confidence), &[])
        .map_err(bad)?;
    doc.set("last_seen", &Scalar::Text(stamp(ctx.now)), &["created"])
        .map_err(bad)?;
    doc.set("source", &Scalar::Text("import".into()), &["last_seen"])
        .map_err(bad)?;
    // Another person's promotion, trust and session count are theirs, not evidence here.
    for key in [
        "promoted",
        "promoted_to",
        "decayed_until",
        "confirmed_by",
        "sessions",
    ] {
        doc.remove(key).map_err(bad)?;
    }
    let bullet = format!("{}: imported from {source}", crate::time::day(ctx.now));
    body::append_bullet(&mut doc, "Evidence", &bullet);
    let identity = identity_of(&instinct.trigger, &instinct.action);
    Ok((doc.into_text(), confidence, identity))
}
