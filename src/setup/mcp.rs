//! The MCP server's registration in Claude Code: one `mcpServers.homunculus` entry in
//! `~/.claude.json` (user scope) or a project's `.mcp.json`, added and removed alone.

use serde_json::{Map, Value, json};

use super::settings::Change;

/// The server's name in the agent's config (its tools are `mcp__homunculus__*`).
pub const NAME: &str = "homunculus";

/// The entry that starts `bin mcp` over stdio.
pub fn entry(bin: &str) -> Value {
    json!({ "type": "stdio", "command": bin, "args": ["mcp"], "env": {} })
}

/// Whether an entry is ours: it runs some homunculus binary's `mcp`.
fn is_ours(entry: &Value) -> bool {
    let runs_mcp = entry
        .get("args")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        == Some(&[Value::from("mcp")][..]);
    let program = entry.get("command").and_then(Value::as_str).unwrap_or("");
    runs_mcp
        && program
            .rsplit(['/', '\\'])
            .next()
            .is_some_and(|p| p.starts_with("homunculus"))
}

/// Adds or refreshes our entry. A server of the same name that is not ours is left
/// alone (and reported as a shape error by the caller).
pub fn install(config: &mut Map<String, Value>, bin: &str) -> Result<Change, String> {
    let servers = config
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(servers) = servers.as_object_mut() else {
        return Err("'mcpServers' is not an object".into());
    };
    let wanted = entry(bin);
    match servers.get(NAME) {
        Some(existing) if *existing == wanted => Ok(Change::Unchanged),
        Some(existing) if !is_ours(existing) => Err(format!(
            "an MCP server named '{NAME}' that is not ours is registered; rename or remove it"
        )),
        Some(_) => {
            servers.insert(NAME.into(), wanted);
            Ok(Change::Updated)
        }
        None => {
            servers.insert(NAME.into(), wanted);
            Ok(Change::Installed)
        }
    }
}

/// Removes our entry (and `mcpServers` when that leaves it empty). Whether it was there.
pub fn uninstall(config: &mut Map<String, Value>) -> bool {
    let Some(servers) = config.get_mut("mcpServers").and_then(Value::as_object_mut) else {
        return false;
    };
    if !servers.get(NAME).is_some_and(is_ours) {
        return false;
    }
    servers.remove(NAME);
    if servers.is_empty() {
        config.remove("mcpServers");
    }
    true
}

/// The binary our entry runs, if one is registered.
pub fn registered(config: &Map<String, Value>) -> Option<String> {
    let entry = config.get("mcpServers")?.get(NAME)?;
    is_ours(entry).then(|| entry.get("command")?.as_str().map(str::to_string))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installs_refreshes_and_removes_only_its_own_entry() {
        let mut config = Map::new();
        config.insert("numStartups".into(), json!(3));
        assert_eq!(
            install(&mut config, "/bin/homunculus"),
            Ok(Change::Installed)
        );
        assert_eq!(
            install(&mut config, "/bin/homunculus"),
            Ok(Change::Unchanged)
        );
        assert_eq!(
            install(&mut config, "/usr/bin/homunculus"),
            Ok(Change::Updated)
        );
        assert_eq!(registered(&config).as_deref(), Some("/usr/bin/homunculus"));
        assert!(uninstall(&mut config));
        assert!(!uninstall(&mut config));
        assert_eq!(config, {
            let mut m = Map::new();
            m.insert("numStartups".into(), json!(3));
            m
        });
        // Someone else's server of the same name stays, and install says why it stops.
        config.insert(
            "mcpServers".into(),
            json!({"homunculus": {"command": "node", "args": ["x.js"]}}),
        );
        assert!(install(&mut config, "/bin/homunculus").is_err());
        assert!(!uninstall(&mut config));
    }
}
