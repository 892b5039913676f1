//! Judgements on commands every learner needs: which only look (diagnostics, never a
//! fix) and which destroy (see `never` for all that may never be advice).

use super::{Command, is_setup, parse};

/// Commands that only look: they never fix anything, so they are never learned as a
/// fix (a failure followed by `ls` and then the real fix is about the real fix).
pub fn is_diagnostic(cmd: &Command) -> bool {
    /// Options that make any tool list or describe instead of act.
    const LISTING: &[&str] = &[
        "--markers",
        "--collect-only",
        "--co",
        "--fixtures",
        "--list",
        "--help",
        "--version",
        "--dry-run",
        "--list-tests",
    ];
    if cmd.flags().any(|f| LISTING.contains(&f)) {
        return true;
    }
    // A command group's own look (`gh auth status`, `git stash list`, `aws sts
    // get-caller-identity`, `gcloud config list`), unless it runs a script of that name.
    const LOOKS: &[&str] = &[
        "status",
        "list",
        "ls",
        "show",
        "info",
        "view",
        "describe",
        "whoami",
        "version",
        "inspect",
        "get-caller-identity",
        "check-status",
    ];
    let runs_a_script = matches!(cmd.verb(), Some("run" | "exec" | "x" | "dlx" | "task"));
    if !runs_a_script && cmd.words().take(2).skip(1).any(|w| LOOKS.contains(&w)) {
        return true;
    }
    let verb = cmd.verb().unwrap_or("");
    match cmd.tool() {
        "ls" | "ll" | "cat" | "head" | "tail" | "less" | "more" | "pwd" | "tree" | "wc"
        | "which" | "whereis" | "type" | "file" | "stat" | "du" | "df" | "find" | "grep" | "rg"
        | "ag" | "fd" | "echo" | "printf" | "env" | "printenv" | "id" | "whoami" | "uname"
        | "hostname" | "date" | "ps" | "top" | "htop" | "lsof" | "netstat" | "ss"
        | "journalctl" | "dmesg" | "diff" | "sleep" | "true" | "jq" | "realpath" | "readlink"
        | "basename" | "dirname" | "history" | "man" | "free" | "uptime" => true,
        // Probes of the network, the hardware and the system: they tell, they fix nothing.
        "ping" | "ping6" | "dig" | "nslookup" | "host" | "traceroute" | "tracepath" | "mtr"
        | "ifconfig" | "iwconfig" | "nmcli" | "lsmod" | "lspci" | "lsusb" | "lsblk" | "blkid"
        | "getent" | "groups" | "sw_vers" | "sysctl" | "xxd" | "hexdump" | "od" | "strings"
        | "readelf" | "objdump" | "nm" | "ldd" | "otool" | "md5sum" | "sha256sum" | "shasum"
        | "cmp" | "test" | "[" | "sort" | "uniq" | "cut" | "tr" | "column" | "locate"
        | "systemd-analyze" | "loginctl" | "timedatectl" | "hostnamectl" | "lscpu" | "nproc"
        | "vmstat" | "iostat" | "arp" | "route" | "iw" | "sensors" | "upower" => true,
        "ip" => {
            matches!(
                verb,
                "a" | "addr" | "address" | "r" | "route" | "link" | "neigh"
            ) && !cmd
                .words()
                .any(|w| matches!(w, "add" | "del" | "set" | "flush" | "replace"))
        }
        "nc" | "ncat" => cmd.flags().any(|f| f.contains('z')),
        "sed" => cmd.flags().any(|f| f == "-n") && !cmd.flags().any(|f| f.starts_with("-i")),
        "command" => cmd.flags().any(|f| f == "-v" || f == "-V"),
        "brew" => matches!(
            verb,
            "list" | "info" | "doctor" | "config" | "search" | "deps" | "outdated"
        ),
        "apt" | "apt-cache" => matches!(verb, "list" | "show" | "policy" | "search" | "depends"),
        "dpkg" => cmd
            .flags()
            .any(|f| matches!(f, "-l" | "-s" | "-L" | "-S" | "--list" | "--status")),
        "rpm" => cmd.flags().any(|f| f.starts_with("-q")),
        "nix" => {
            matches!(
                verb,
                "search" | "eval" | "path-info" | "why-depends" | "show-config"
            ) || verb == "flake" && matches!(cmd.words().nth(1), Some("show" | "metadata" | "info"))
        }
        "curl" => cmd.flags().any(|f| f == "-I" || f == "--head"),
        "git" => {
            matches!(
                verb,
                "status"
                    | "diff"
                    | "log"
                    | "show"
                    | "branch"
                    | "remote"
                    | "rev-parse"
                    | "blame"
                    | "ls-files"
                    | "describe"
                    | "reflog"
                    | "config"
            ) && (verb != "config"
                || cmd
                    .args
                    .iter()
                    .any(|a| a == "--get" || a == "--list" || a == "-l")
                || cmd.words().count() == 2)
        }
        "systemctl" | "service" => matches!(verb, "status" | "is-active" | "list-units" | "show"),
        "docker" if verb == "compose" => {
            matches!(
                cmd.words().nth(1),
                Some("ps" | "logs" | "config" | "version")
            )
        }
        "docker" | "podman" => matches!(
            verb,
            "info" | "ps" | "images" | "inspect" | "logs" | "version" | "stats" | "top"
        ),
        "docker-compose" => matches!(verb, "ps" | "logs" | "config" | "version"),
        "kubectl" => matches!(
            verb,
            "get" | "describe" | "logs" | "top" | "explain" | "version"
        ),
        "helm" => matches!(verb, "list" | "status" | "history" | "get" | "version"),
        "terraform" => {
            matches!(
                verb,
                "show" | "output" | "version" | "state" | "validate" | "fmt"
            ) && cmd.words().nth(1) != Some("rm")
        }
        "npm" | "pnpm" | "yarn" => matches!(
            verb,
            "ls" | "list" | "view" | "info" | "outdated" | "why" | "config"
        ),
        "pip" | "pip3" => matches!(verb, "list" | "show" | "freeze" | "check"),
        "cargo" => matches!(verb, "tree" | "metadata" | "--version" | "search"),
        "go" => matches!(verb, "env" | "version" | "list"),
        "gh" => {
            matches!(verb, "status")
                || cmd.words().nth(1) == Some("view")
                || cmd.words().nth(1) == Some("list")
        }
        "op" => matches!(verb, "whoami" | "account") || cmd.words().nth(1) == Some("list"),
        _ => {
            cmd.flags()
                .all(|f| f == "--version" || f == "-V" || f == "--help" || f == "-h")
                && cmd.flags().next().is_some()
                && cmd.words().next().is_none()
        }
    }
}

/// Commands that destroy data or history. Never advice, whatever they followed.
pub fn is_destructive(cmd: &Command) -> bool {
    let verb = cmd.verb().unwrap_or("");
    let has = |f: &str| cmd.args.iter().any(|a| a == f);
    let short_has = |c: char| {
        cmd.args
            .iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
    };
    let text = cmd.text().to_ascii_lowercase();
    match cmd.tool() {
        "rm" => short_has('r') || short_has('f') || has("--recursive") || has("--force"),
        "rmdir" | "shred" | "wipefs" | "mkfs" | "fdisk" | "parted" | "dd" | "truncate" | "srm" => {
            true
        }
        t if t.starts_with("mkfs.") => true,
        "git" => match verb {
            "push" => {
                short_has('f')
                    || cmd
                        .flags()
                        .any(|f| f.starts_with("--force") || f == "--delete" || f == "--mirror")
                    || cmd
                        .words()
                        .any(|w| w.starts_with('+') || w.starts_with(':'))
            }
            "reset" => has("--hard") || has("--merge") || has("--keep"),
            "clean" => short_has('f') || has("--force"),
            "checkout" | "restore" => {
                has("--")
                    || has(".")
                    || short_has('f')
                    || has("--force")
                    || has("--staged") && has("--worktree")
            }
            "branch" => short_has('D') || has("--delete") && has("--force"),
            "stash" => matches!(cmd.words().nth(1), Some("drop" | "clear")),
            "filter-branch" | "filter-repo" => true,
            "rm" => true,
            "submodule" => cmd.words().nth(1) == Some("deinit"),
            "reflog" => cmd.words().nth(1) == Some("expire"),
            "gc" => has("--prune=now"),
            _ => false,
        },
        "docker" | "podman" => {
            matches!(verb, "rm" | "rmi" | "prune")
                || matches!(
                    (verb, cmd.words().nth(1)),
                    (
                        "volume" | "system" | "image" | "container" | "network" | "builder",
                        Some("rm" | "prune" | "remove")
                    )
                )
                || verb == "compose"
                    && cmd.words().nth(1) == Some("down")
                    && (has("-v") || has("--volumes"))
        }
        "docker-compose" => verb == "down" && (has("-v") || has("--volumes")) || verb == "rm",
        "kubectl" => matches!(verb, "delete" | "drain") || verb == "replace" && has("--force"),
        "helm" => matches!(verb, "uninstall" | "delete"),
        "terraform" | "tofu" => {
            verb == "destroy"
                || verb == "state" && cmd.words().nth(1) == Some("rm")
                || has("-destroy")
        }
        "op" | "bw" | "vault" | "aws" | "gcloud" | "az" | "gh" => {
            cmd.words()
                .any(|w| matches!(w, "delete" | "rm" | "remove" | "destroy" | "purge"))
                || text.contains(" rb ")
                || text.contains("secretsmanager delete")
        }
        "dropdb" | "dropuser" => true,
        "psql" | "mysql" | "sqlite3" | "mongo" | "mongosh" | "redis-cli" | "sqlcmd"
        | "clickhouse-client" => {
            text.contains("drop ")
                || text.contains("truncate ")
                || text.contains("delete from")
                || text.contains("flushall")
                || text.contains("flushdb")
                || text.contains("dropdatabase")
        }
        "npm" | "pnpm" | "yarn" => {
            verb == "cache" && cmd.words().nth(1) == Some("clean") || verb == "unpublish"
        }
        "uv" | "pip" | "pip3" | "poetry" | "conda" => {
            verb == "cache" && matches!(cmd.words().nth(1), Some("clean" | "purge" | "clear"))
                || verb == "uninstall" && short_has('y')
                || verb == "env" && cmd.words().nth(1) == Some("remove")
        }
        "chmod" | "chown" => {
            short_has('R')
                && cmd
                    .words()
                    .any(|w| w == "/" || w == "~" || w.starts_with("/etc") || w.starts_with("/usr"))
        }
        "find" => has("-delete") || text.contains("-exec rm"),
        "xargs" => cmd.words().next() == Some("rm"),
        "pg_dropcluster" => true,
        _ => {
            text.contains("drop database")
                || text.contains("drop table")
                || text.contains("drop schema")
                || cmd.flags().any(|f| f == "--force-delete" || f == "--purge")
        }
    }
}

/// Whether any command of the line destroys something.
pub fn line_is_destructive(line: &str) -> bool {
    parse(line).iter().any(is_destructive)
}

/// Whether every command of the line only looks.
pub fn line_is_diagnostic(line: &str) -> bool {
    let cmds = parse(line);
    !cmds.is_empty() && cmds.iter().all(|c| is_diagnostic(c) || is_setup(c))
}
