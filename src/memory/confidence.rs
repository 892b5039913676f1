//! The confidence arithmetic of an instinct: decay, feedback, reinforcement,
//! contradiction, promotion and revocation. Pure functions of values and `now`.
//!
//! Decay is computed, never accumulated: the stored confidence is valid as of a decay
//! origin (`decayed_until` when a past write already folded some weeks in, else
//! `last_seen`), and only whole weeks after that origin count. Evaluating twice at the
//! same instant, or persisting and evaluating again, gives the same number.

use chrono::{DateTime, Duration, Utc};

/// Confidence never decays below this; instincts are never deleted.
pub const FLOOR: f64 = 0.20;
/// Neither feedback nor reinforcement raises confidence above this.
pub const CEILING: f64 = 0.90;
/// Lost per whole week since the decay origin.
pub const DECAY_PER_WEEK: f64 = 0.05;
pub const REINFORCE_STEP: f64 = 0.05;
pub const CONTRADICT_STEP: f64 = 0.10;
pub const WEAK_STEP: f64 = 0.15;
pub const STRONG_STEP: f64 = 0.10;
pub const PROMOTE_AT: f64 = 0.75;
pub const PROMOTE_MIN_AGE_DAYS: i64 = 14;
pub const PROMOTE_MAX_IDLE_DAYS: i64 = 7;
pub const REVOKE_BELOW: f64 = 0.40;
pub const WARN_BELOW: f64 = 0.50;
pub const CLUSTER_AT: f64 = 0.50;
pub const CLUSTER_SIZE: usize = 5;

const WEEK: i64 = 7 * 24 * 3600;

/// What the arithmetic needs to know about an instinct.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct State {
    pub confidence: f64,
    pub last_seen: DateTime<Utc>,
    /// Decay up to this instant is already folded into `confidence`.
    pub decayed_until: Option<DateTime<Utc>>,
}

/// The result of a change: the new stored values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Update {
    pub confidence: f64,
    pub last_seen: DateTime<Utc>,
    /// `None` means the decay origin is `last_seen` again (the key can be removed).
    pub decayed_until: Option<DateTime<Utc>>,
}

/// User feedback on an instinct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feedback {
    Wrong,
    Weak,
    Strong,
}

/// Rounds to the two decimals the files store, so comparisons match what users read.
/// The least weight an instinct the user vouched for (`confirmed_by: user`) has.
pub const CONFIRMED_FLOOR: f64 = 0.70;

/// The least weight of an instinct: what the user vouched for does not fade below
/// `CONFIRMED_FLOOR`, and a lesson many independent sessions showed keeps
/// 0.20 + 0.05 per session after the first (three sessions 0.30, seven or more 0.50),
/// never above its stored confidence. Decay still counts from the last sighting; this
/// weighs what is recalled, shown and exported, never promotion or revocation.
pub fn weight_floor(confidence: f64, sessions: u32, confirmed: bool) -> f64 {
    let evidence = if sessions >= 3 {
        (FLOOR + 0.05 * f64::from(sessions - 1))
            .min(0.5)
            .min(confidence)
    } else {
        0.0
    };
    if confirmed {
        evidence.max(CONFIRMED_FLOOR)
    } else {
        evidence
    }
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `a >= b` on the two-decimal scale (0.75 stored as 0.7499999 still counts).
fn at_least(a: f64, b: f64) -> bool {
    (a * 100.0).round() >= (b * 100.0).round()
}

impl State {
    fn origin(&self) -> DateTime<Utc> {
        match self.decayed_until {
            Some(d) if d > self.last_seen => d,
            _ => self.last_seen,
        }
    }

    /// Whole weeks since the decay origin; zero for an origin in the future.
    pub fn weeks_idle(&self, now: DateTime<Utc>) -> i64 {
        ((now - self.origin()).num_seconds() / WEEK).max(0)
    }

    /// The confidence in force at `now`. Decay stops at the floor and never raises a
    /// value that is already below it.
    pub fn effective(&self, now: DateTime<Utc>) -> f64 {
        effective_at(self.confidence, self.origin().timestamp(), now.timestamp())
    }

    /// The decay origin after folding the weeks counted at `now` into the value: the
    /// partial week in progress keeps counting from where it started.
    fn folded_origin(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let weeks = self.weeks_idle(now);
        if weeks == 0 {
            return self.decayed_until;
        }
        Some(self.origin() + Duration::seconds(weeks * WEEK))
    }

    /// Applies user feedback to what the instinct weighs now: its effective confidence,
    /// or `floor` (`weight_floor`) when many sessions hold it up, so that `weak` lowers
    /// what `status` shows by 0.15 and `strong` never lowers it. `strong` counts as a
    /// fresh sighting; `weak` and `wrong` keep `last_seen` and record how far decay has
    /// been folded in.
    pub fn feedback(&self, kind: Feedback, now: DateTime<Utc>, floor: f64) -> Update {
        let effective = self.effective(now).max(floor);
        match kind {
            Feedback::Strong => Update {
                confidence: round2((effective + STRONG_STEP).min(CEILING).max(effective)),
                last_seen: now,
                decayed_until: None,
            },
            Feedback::Weak => Update {
                confidence: round2((effective - WEAK_STEP).max(FLOOR)),
                last_seen: self.last_seen,
                decayed_until: self.folded_origin(now),
            },
            Feedback::Wrong => Update {
                confidence: FLOOR,
                last_seen: self.last_seen,
                decayed_until: self.folded_origin(now),
            },
        }
    }

    /// The pattern was seen again: fresh `last_seen`, a small raise up to the ceiling.
    pub fn reinforce(&self, now: DateTime<Utc>) -> Update {
        let effective = self.effective(now);
        Update {
            confidence: round2((effective + REINFORCE_STEP).min(CEILING).max(effective)),
            last_seen: now,
            decayed_until: None,
        }
    }

    /// Observations contradicted the instinct. Returns the update and whether the
    /// instinct is now disputed (it reached the floor).
    pub fn contradict(&self, now: DateTime<Utc>) -> (Update, bool) {
        let confidence = round2((self.effective(now) - CONTRADICT_STEP).max(FLOOR));
        let update = Update {
            confidence,
            last_seen: self.last_seen,
            decayed_until: self.folded_origin(now),
        };
        // round2 makes the floor an exact value, so equality is meaningful here.
        (update, confidence <= FLOOR)
    }
}

/// Effective confidence from the plain numbers the index stores: a confidence and the
/// unix second decay counts from.
pub fn effective_at(confidence: f64, decay_origin: i64, now: i64) -> f64 {
    let weeks = ((now - decay_origin) / WEEK).max(0) as f64;
    round2((confidence - DECAY_PER_WEEK * weeks).max(FLOOR.min(confidence)))
}

/// The facts promotion looks at.
#[derive(Debug, Clone, Copy)]
pub struct PromotionInput {
    pub state: State,
    pub created: DateTime<Utc>,
    pub promoted: bool,
    pub has_action: bool,
}

/// Whether an instinct has earned a conviction at `now`: not yet promoted, effective
/// confidence at least 0.75, created at least 14 days ago, seen within the last 7 days,
/// and an action to state.
pub fn is_promotable(input: &PromotionInput, now: DateTime<Utc>) -> bool {
    !input.promoted
        && input.has_action
        && at_least(input.state.effective(now), PROMOTE_AT)
        && now - input.created >= Duration::days(PROMOTE_MIN_AGE_DAYS)
        && now - input.state.last_seen <= Duration::days(PROMOTE_MAX_IDLE_DAYS)
}

/// Whether a promoted instinct has fallen far enough to lose its conviction.
pub fn should_revoke(effective: f64) -> bool {
    !at_least(effective, REVOKE_BELOW)
}

/// Whether a promoted instinct deserves a warning in `evolve`.
pub fn is_stale(effective: f64) -> bool {
    !at_least(effective, WARN_BELOW)
}

/// Whether an instinct counts toward its domain's cluster.
pub fn counts_for_cluster(effective: f64) -> bool {
    at_least(effective, CLUSTER_AT)
}

#[cfg(test)]
mod tests;
