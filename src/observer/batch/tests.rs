//! Tests of `observer::batch`.

use super::*;
use crate::testutil::Memory;

fn line(n: usize) -> String {
    format!(
        "{{\"ts\":\"2026-03-01T12:00:0{}.000Z\",\"event\":\"prompt\",\"session_id\":\"s1\",\"cwd\":\"/p\",\"project\":\"p\",\"prompt\":\"prompt {n}\"}}\n",
        n % 10
    )
}

fn pending_file(m: &Memory, lines: &[String], tail: &str) {
    let text: String = lines.concat() + tail;
    m.write("observations/s1.jsonl", &text);
}

#[test]
fn batches_take_complete_lines_past_the_cursor_and_archive_them_once() {
    let m = Memory::new();
    let lines: Vec<String> = (0..5).map(line).collect();
    // A hook is writing a sixth line right now: it is not taken.
    pending_file(&m, &lines, "{\"ts\":\"2026");
    assert_eq!(pending(&m.paths), 5);
    assert_eq!(pending_up_to(&m.paths, 3), 3);

    let first = take(&m.paths, 3).unwrap();
    assert_eq!(first.observations.len(), 3);
    assert_eq!(first.ranges[0].start, 0);
    let sizes = archive_sizes(&m.paths, &first);
    archive(&m.paths, &first, &sizes).unwrap();
    // A crash after archiving, before advancing: archiving again with the sizes
    // recorded before the first attempt cuts back first, so nothing doubles.
    archive(&m.paths, &first, &sizes).unwrap();
    advance(&m.paths, &first).unwrap();
    let archived =
        std::fs::read_to_string(m.paths.observations_archive().join("s1.jsonl")).unwrap();
    assert_eq!(archived, lines[..3].concat());
    assert_eq!(pending(&m.paths), 2);

    let second = take(&m.paths, 10).unwrap();
    assert_eq!(second.observations.len(), 2);
    assert_eq!(second.ranges[0].start, first.ranges[0].end);
    assert_ne!(second.id, first.id, "batch ids follow the ranges");
    assert_eq!(
        take(&m.paths, 10).unwrap().id,
        second.id,
        "same ranges, same id"
    );
}

#[test]
fn an_inflight_batch_survives_a_restart_without_its_observations() {
    let m = Memory::new();
    pending_file(&m, &[line(1)], "");
    let batch = take(&m.paths, 10).unwrap();
    let inflight = Inflight {
        batch: batch.clone(),
        ops: Vec::new(),
        engine: crate::setup::config::Engine::Builtin,
        archived: false,
        archive_sizes: None,
        transcript_cursors: BTreeMap::new(),
    };
    write_inflight(&m.paths, &inflight).unwrap();
    let back = read_inflight(&m.paths).unwrap();
    assert_eq!(back.batch.ranges, batch.ranges);
    assert!(back.batch.observations.is_empty());
    advance(&m.paths, &batch).unwrap();
    assert!(
        read_inflight(&m.paths).is_none(),
        "advancing ends the batch"
    );
}

#[test]
fn a_pending_file_replaced_by_a_shorter_one_is_read_again() {
    let m = Memory::new();
    let lines: Vec<String> = (0..4).map(line).collect();
    pending_file(&m, &lines, "");
    let first = take(&m.paths, 10).unwrap();
    advance(&m.paths, &first).unwrap();
    // A line with a secret purged by hand: the file is rewritten, shorter, with a new line.
    pending_file(&m, &[line(7)], "");
    let again = take(&m.paths, 10).unwrap();
    assert_eq!(again.observations.len(), 1);
    assert_eq!(again.observations[0].prompt.as_deref(), Some("prompt 7"));
}

#[test]
fn losing_the_state_folder_does_not_read_or_archive_anything_twice() {
    let m = Memory::new();
    let lines: Vec<String> = (0..6).map(line).collect();
    pending_file(&m, &lines[..4], "");
    let first = take(&m.paths, 10).unwrap();
    archive(&m.paths, &first, &archive_sizes(&m.paths, &first)).unwrap();
    advance(&m.paths, &first).unwrap();
    pending_file(&m, &lines, "");
    std::fs::remove_dir_all(m.paths.state()).unwrap();

    let after = take(&m.paths, 10).unwrap();
    assert_eq!(after.observations.len(), 2, "only the two new lines");
    assert_eq!(after.ranges[0].start, first.ranges[0].end);

    // A resumed session's new pending file under the same name, after the old one was
    // archived and dropped: its own lines are new even though the archive is longer.
    archive(&m.paths, &after, &archive_sizes(&m.paths, &after)).unwrap();
    pending_file(&m, &[line(8), line(9)], "");
    assert_eq!(take(&m.paths, 10).unwrap().observations.len(), 2);
    // ...and the part of it already archived is not read again.
    let again = take(&m.paths, 10).unwrap();
    archive(&m.paths, &again, &archive_sizes(&m.paths, &again)).unwrap();
    pending_file(&m, &[line(8), line(9), line(3)], "");
    let last = take(&m.paths, 10).unwrap();
    assert_eq!(last.observations.len(), 1);
    assert_eq!(last.observations[0].prompt.as_deref(), Some("prompt 3"));
}

#[test]
fn a_pending_file_deleted_and_written_anew_is_read_from_its_start() {
    let m = Memory::new();
    let old: Vec<String> = (0..5).map(line).collect();
    pending_file(&m, &old, "");
    let batch = take(&m.paths, 10).unwrap();
    let sizes = archive_sizes(&m.paths, &batch);
    archive(&m.paths, &batch, &sizes).unwrap();
    advance(&m.paths, &batch).unwrap();
    assert_eq!(pending(&m.paths), 0);
    // Deleted by hand and recreated by the next hooks: longer than the old cursor, but
    // every line of it is new.
    std::fs::remove_file(m.paths.observations().join("s1.jsonl")).unwrap();
    let new: Vec<String> = (0..7)
        .map(|n| line(n).replace("prompt ", "again "))
        .map(|l| l.replace("12:00:0", "13:00:0"))
        .collect();
    pending_file(&m, &new, "");
    assert_eq!(pending(&m.paths), 7);
    assert_eq!(pending_up_to(&m.paths, 100), 7);
    let batch = take(&m.paths, 10).unwrap();
    assert_eq!(batch.observations.len(), 7);
    let sizes = archive_sizes(&m.paths, &batch);
    archive(&m.paths, &batch, &sizes).unwrap();
    advance(&m.paths, &batch).unwrap();
    assert_eq!(pending(&m.paths), 0);
}
