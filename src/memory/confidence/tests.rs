use super::*;

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

const SEEN: &str = "2026-01-01T00:00:00Z";

fn state(confidence: f64) -> State {
    State {
        confidence,
        last_seen: t(SEEN),
        decayed_until: None,
    }
}

#[test]
fn decay_table() {
    // (stored, now, effective)
    let cases = [
        (0.65, "2026-01-01T00:00:00Z", 0.65),
        (0.65, "2026-01-07T23:59:59Z", 0.65), // 6.99 days: no whole week yet
        (0.65, "2026-01-08T00:00:00Z", 0.60), // exactly one week
        (0.65, "2026-01-15T00:00:00Z", 0.55),
        (0.65, "2026-03-01T00:00:00Z", 0.25), // 8 weeks
        (0.65, "2026-06-01T00:00:00Z", 0.20), // floor
        (0.90, "2027-01-01T00:00:00Z", 0.20),
        (0.10, "2026-06-01T00:00:00Z", 0.10), // below floor: decay never raises
        (0.65, "2025-12-01T00:00:00Z", 0.65), // last_seen in the future
    ];
    for (stored, now, want) in cases {
        assert_eq!(state(stored).effective(t(now)), want, "{stored} at {now}");
    }
}

#[test]
fn decay_is_idempotent() {
    let s = state(0.65);
    let now = t("2026-02-01T00:00:00Z");
    assert_eq!(s.effective(now), s.effective(now));
}

#[test]
fn feedback_table() {
    // (stored, now, kind, new confidence, last_seen moves to now)
    let cases = [
        (0.65, SEEN, Feedback::Strong, 0.75, true),
        (0.85, SEEN, Feedback::Strong, 0.90, true), // ceiling
        (0.90, SEEN, Feedback::Strong, 0.90, true),
        (0.65, "2026-01-15T00:00:00Z", Feedback::Strong, 0.65, true), // 0.55 + 0.10
        (0.65, SEEN, Feedback::Weak, 0.50, false),
        (0.30, SEEN, Feedback::Weak, 0.20, false), // floor
        (0.65, "2026-01-15T00:00:00Z", Feedback::Weak, 0.40, false), // 0.55 - 0.15
        (0.65, SEEN, Feedback::Wrong, 0.20, false),
        (0.90, "2026-03-01T00:00:00Z", Feedback::Wrong, 0.20, false),
    ];
    for (stored, now, kind, want, fresh) in cases {
        let now = t(now);
        let u = state(stored).feedback(kind, now, 0.0);
        assert_eq!(u.confidence, want, "{stored} {kind:?}");
        let want_seen = if fresh { now } else { t(SEEN) };
        assert_eq!(u.last_seen, want_seen, "{stored} {kind:?} last_seen");
    }
}

/// An old instinct many sessions hold up weighs its floor, above its decayed value:
/// `weak` lowers that weight by 0.15 (not to the floor, as `wrong` does), and `strong`
/// raises it.
#[test]
fn feedback_judges_the_weight_status_shows() {
    let long_ago = t("2026-06-01T00:00:00Z");
    let s = state(0.55);
    assert_eq!(s.effective(long_ago), 0.20);
    let floor = weight_floor(0.55, 12, false);
    assert_eq!(floor, 0.50);
    assert_eq!(s.feedback(Feedback::Weak, long_ago, floor).confidence, 0.35);
    assert_eq!(
        s.feedback(Feedback::Strong, long_ago, floor).confidence,
        0.60
    );
    assert_eq!(
        s.feedback(Feedback::Wrong, long_ago, floor).confidence,
        0.20
    );
}

#[test]
fn weak_feedback_is_not_decayed_again_for_counted_weeks() {
    let s = state(0.65);
    let now = t("2026-01-17T00:00:00Z"); // 2 weeks + 2 days
    let u = s.feedback(Feedback::Weak, now, 0.0);
    assert_eq!(u.confidence, 0.40);
    let after = State {
        confidence: u.confidence,
        last_seen: u.last_seen,
        decayed_until: u.decayed_until,
    };
    // Same instant: the two weeks already counted do not count again.
    assert_eq!(after.effective(now), 0.40);
    // The partial week keeps running: 5 days later a third week has passed since seen.
    assert_eq!(after.effective(t("2026-01-22T00:00:00Z")), 0.35);
    assert_eq!(after.effective(t("2026-01-21T23:59:59Z")), 0.40);
}

#[test]
fn reinforce_raises_from_effective_and_resets_clock() {
    let now = t("2026-01-15T00:00:00Z");
    let u = state(0.65).reinforce(now);
    assert_eq!(u.confidence, 0.60);
    assert_eq!(u.last_seen, now);
    assert_eq!(state(0.88).reinforce(t(SEEN)).confidence, 0.90);
    assert_eq!(state(0.90).reinforce(t(SEEN)).confidence, 0.90);
}

#[test]
fn contradiction_disputes_at_floor() {
    let now = t(SEEN);
    assert_eq!(state(0.65).contradict(now).0.confidence, 0.55);
    assert!(!state(0.65).contradict(now).1);
    assert_eq!(state(0.30).contradict(now).0.confidence, 0.20);
    assert!(state(0.30).contradict(now).1);
    assert!(state(0.25).contradict(now).1);
}

#[test]
fn promotion_boundaries() {
    let now = t("2026-02-15T00:00:00Z");
    let base = PromotionInput {
        state: State {
            // Seen exactly a week ago: one week of decay takes 0.80 to 0.75.
            confidence: 0.80,
            last_seen: now - Duration::days(7),
            decayed_until: None,
        },
        created: now - Duration::days(14),
        promoted: false,
        has_action: true,
    };
    assert!(is_promotable(&base, now), "all boundaries inclusive");
    let mut low = base;
    low.state.confidence = 0.79;
    assert!(!is_promotable(&low, now));
    let mut young = base;
    young.created = now - Duration::days(14) + Duration::seconds(1);
    assert!(!is_promotable(&young, now));
    let mut idle = base;
    idle.state.last_seen = now - Duration::days(7) - Duration::seconds(1);
    assert!(!is_promotable(&idle, now));
    let mut done = base;
    done.promoted = true;
    assert!(!is_promotable(&done, now));
    let mut mute = base;
    mute.has_action = false;
    assert!(!is_promotable(&mute, now));
    let mut fresh = base;
    fresh.state.last_seen = now;
    fresh.state.confidence = 0.75;
    assert!(is_promotable(&fresh, now));
}

#[test]
fn revocation_and_warning_boundaries() {
    let table = [
        (0.39, true, true),
        (0.40, false, true),
        (0.49, false, true),
        (0.50, false, false),
        (0.90, false, false),
    ];
    for (eff, revoke, stale) in table {
        assert_eq!(should_revoke(eff), revoke, "revoke {eff}");
        assert_eq!(is_stale(eff), stale, "stale {eff}");
    }
    assert!(counts_for_cluster(0.50));
    assert!(!counts_for_cluster(0.49));
}
