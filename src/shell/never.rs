//! What may never be advice, whatever the evidence: a command that destroys or deletes,
//! fetches code and runs it, or switches a safety off.

use super::{Command, is_destructive, parse};

/// Whether a command may never be advice, whatever the evidence: it destroys or
/// deletes (any `rm`, even of one file: "remove whatever is in the way" is no lesson),
/// or switches a safety off. Fetch-and-run is a property of a line: see
/// [`line_is_never_advice`].
pub fn is_never_advice(cmd: &Command) -> bool {
    is_destructive(cmd) || deletes(cmd) || switches_safety_off(cmd)
}

/// Whether a command deletes files or what git tracks.
pub fn deletes(cmd: &Command) -> bool {
    match cmd.tool() {
        "rm" | "rmdir" | "unlink" | "shred" | "trash" | "trash-put" | "srm" | "del" | "rd"
        | "Remove-Item" => true,
        "git" => matches!(cmd.verb(), Some("rm" | "clean")),
        "find" => cmd.args.iter().any(|a| a == "-delete") || cmd.text().contains("-exec rm"),
        "xargs" => cmd
            .words()
            .next()
            .is_some_and(|w| matches!(w, "rm" | "rmdir" | "unlink")),
        _ => false,
    }
}

/// Options and settings that turn a check off: TLS verification, git hooks, the
/// system package guard, permissions, the security module.
pub fn switches_safety_off(cmd: &Command) -> bool {
    const FLAGS: &[&str] = &[
        "--no-verify",
        "--break-system-packages",
        "--insecure",
        "--no-check-certificate",
        "--trusted-host",
        "--allow-unauthenticated",
        "--force-yes",
        "--disable-web-security",
        "--dangerously-skip-permissions",
        "--no-gpg-checks",
        "--nogpgcheck",
        "--skip-ssl-validation",
        "--unsafe-perm",
    ];
    const ENV: &[&str] = &[
        "GIT_SSL_NO_VERIFY",
        "NODE_TLS_REJECT_UNAUTHORIZED=0",
        "PYTHONHTTPSVERIFY=0",
        "CURL_CA_BUNDLE=",
        "PIP_BREAK_SYSTEM_PACKAGES",
        "HUSKY=0",
        "SKIP=",
    ];
    if cmd.flags().any(|f| FLAGS.contains(&f))
        || cmd.env.iter().any(|e| ENV.iter().any(|v| e.starts_with(v)))
    {
        return true;
    }
    let text = cmd.text().to_ascii_lowercase();
    let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
    match cmd.tool() {
        "curl" => cmd
            .flags()
            .any(|f| f == "-k" || (f.starts_with('-') && !f.starts_with("--") && f.contains('k'))),
        "wget" => cmd.flags().any(|f| f == "--no-check-certificate"),
        "chmod" => args.iter().any(|a| {
            a.ends_with("777") || a.ends_with("666") || *a == "a+rwx" || *a == "o+w" || *a == "a+w"
        }),
        "setenforce" => {
            args.first() == Some(&"0")
                || args
                    .first()
                    .is_some_and(|a| a.eq_ignore_ascii_case("permissive"))
        }
        "git" => {
            text.contains("sslverify false")
                || text.contains("sslverify=false")
                || text.contains("core.hookspath /dev/null")
        }
        "npm" | "pnpm" | "yarn" => {
            text.contains("strict-ssl false") || text.contains("strict-ssl=false")
        }
        "pip" | "pip3" => text.contains("break-system-packages"),
        "sudo" => false,
        "ufw" => args.first() == Some(&"disable"),
        "spctl" => text.contains("--master-disable") || text.contains("--global-disable"),
        "csrutil" => args.first() == Some(&"disable"),
        "systemctl" => {
            matches!(cmd.verb(), Some("stop" | "disable" | "mask"))
                && cmd.words().any(|w| {
                    w.contains("firewall") || w.contains("apparmor") || w.contains("selinux")
                })
        }
        "Set-ExecutionPolicy" => text.contains("unrestricted") || text.contains("bypass"),
        _ => false,
    }
}

/// Whether the line fetches code and runs it (`curl … | sh`, `bash <(curl …)`,
/// `sh -c "$(wget -O- …)"`, `iex (iwr …)`): never advice, whoever suggested it.
pub fn fetches_and_runs(line: &str) -> bool {
    const FETCH: &[&str] = &[
        "curl",
        "wget",
        "iwr",
        "irm",
        "invoke-webrequest",
        "invoke-restmethod",
        "fetch",
    ];
    const RUN: &[&str] = &[
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "fish",
        "python",
        "python3",
        "perl",
        "ruby",
        "node",
        "iex",
        "invoke-expression",
        "pwsh",
        "powershell",
        "source",
        ".",
    ];
    let lower = line.to_ascii_lowercase();
    let cmds = parse(line);
    let mut fetched = false;
    for cmd in &cmds {
        let tool = cmd.tool().to_ascii_lowercase();
        let tool = tool.as_str();
        if fetched
            && cmd.filters
            && (RUN.contains(&tool)
                || tool == "sudo" && cmd.words().next().is_some_and(|w| RUN.contains(&w)))
        {
            return true;
        }
        // A fetch feeds the stages piped after it; a new pipeline starts afresh.
        fetched = (cmd.filters && fetched) || FETCH.contains(&tool);
    }
    let fetch_inside = FETCH.iter().any(|f| {
        lower.contains(&format!("<({f} "))
            || lower.contains(&format!("$({f} "))
            || lower.contains(&format!("({f} "))
    });
    let runs_it = RUN.iter().any(|r| {
        lower.starts_with(&format!("{r} <("))
            || lower.contains(&format!(" {r} <("))
            || lower.contains(&format!("{r} -c \"$("))
            || lower.contains(&format!("{r} -c \"`"))
            || lower.contains(&format!("{r} -c '$("))
    }) || lower.contains("iex (")
        || lower.contains("iex(")
        || lower.contains("invoke-expression");
    fetch_inside && runs_it
}

/// Whether any command of the line may never be advice, or the line fetches and runs.
pub fn line_is_never_advice(line: &str) -> bool {
    fetches_and_runs(line) || parse(line).iter().any(is_never_advice)
}
