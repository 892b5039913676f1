//! The kinds of memory item and the folders they live in, each named once. The index
//! stores `Kind::name` in its `kind` field; `search --kind` and the recall queries use
//! the same names.

use std::path::Path;

use super::Origin;

/// One kind of memory item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Instinct,
    Conviction,
    Episode,
    Session,
}

/// An item folder relative to the memory folder, with the kind (and for instincts, the
/// origin) of the files in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemDir {
    pub dir: &'static str,
    pub kind: Kind,
    pub origin: Option<Origin>,
}

/// Every folder that holds items, in the order `init` creates them.
pub const ITEM_DIRS: [ItemDir; 5] = [
    ItemDir {
        dir: "instincts/personal",
        kind: Kind::Instinct,
        origin: Some(Origin::Personal),
    },
    ItemDir {
        dir: "instincts/inherited",
        kind: Kind::Instinct,
        origin: Some(Origin::Inherited),
    },
    ItemDir {
        dir: "convictions",
        kind: Kind::Conviction,
        origin: None,
    },
    ItemDir {
        dir: "episodes",
        kind: Kind::Episode,
        origin: None,
    },
    ItemDir {
        dir: "sessions",
        kind: Kind::Session,
        origin: None,
    },
];

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Instinct,
        Kind::Conviction,
        Kind::Episode,
        Kind::Session,
    ];

    /// The singular name: the index's `kind` field, `--kind` values, JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Instinct => "instinct",
            Kind::Conviction => "conviction",
            Kind::Episode => "episode",
            Kind::Session => "session",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether items of this kind are advice (trigger → action) rather than a record of
    /// what happened.
    pub fn is_advice(self) -> bool {
        matches!(self, Kind::Instinct | Kind::Conviction)
    }
}

/// The item folder a path (relative to the memory folder) is directly in, if its name
/// is that of a markdown file.
pub fn item_dir_of(relative: &Path) -> Option<ItemDir> {
    let dir = relative.parent()?.to_str()?;
    ITEM_DIRS
        .into_iter()
        .find(|d| d.dir == dir)
        .filter(|_| crate::fsutil::is_markdown_name(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_dirs() {
        let of = |p: &str| item_dir_of(Path::new(p)).map(|d| d.kind);
        assert_eq!(of("instincts/personal/a.md"), Some(Kind::Instinct));
        assert_eq!(of("sessions/x.md"), Some(Kind::Session));
        assert_eq!(of("sessions/x.txt"), None);
        assert_eq!(of("sessions/deeper/x.md"), None);
        assert_eq!(of("x.md"), None);
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
    }
}
