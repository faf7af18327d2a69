//! Validates every level file under `levels/` with the same types the program loads them
//! with, so a broken level is a build error naming its file, line and column, and embeds
//! them all so the binary runs from any directory.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// Each game's level format, compiled here exactly as in the crate, at the crate's paths
// (`crate::games::<game>::level`). Nazo Puyo's parses its pon2 queries, so the parser and the
// Puyo field types it uses come along; the build uses only their parsing.
#[path = "src/games"]
#[allow(dead_code)]
mod games {
    pub mod calculation {
        pub mod level;
    }
    pub mod labyrinth {
        pub mod level;
    }
    pub mod nazo {
        pub mod goal;
        pub mod io;
        pub mod level;
        pub mod puzzle;
    }
    pub mod puyo {
        pub mod level;
        /// `rules/mod.rs` without the versus game (it derives the command line's types):
        /// the field types the pon2 parser and the goals use.
        pub mod rules {
            mod bits;
            mod chain;
            mod field;
            mod placement;
            mod puyo;
            pub use bits::{Bits, HEIGHT, WIDTH};
            pub use chain::Link;
            pub use field::Field;
            pub use placement::{Placement, Rotation};
            pub use puyo::{Pair, Puyo};
        }
    }
    pub mod shanghai {
        pub mod level;
    }
}
use games::{calculation, labyrinth, nazo, puyo, shanghai};

/// Signature every game's `level::validate` has: file name within the game's folder, text.
type Validator = fn(&str, &str) -> Result<(), (usize, usize, String)>;

fn validator(game: &str) -> Option<Validator> {
    Some(match game {
        "calculation" => calculation::level::validate,
        "labyrinth" => labyrinth::level::validate,
        "nazo" => nazo::level::validate,
        "puyo" => puyo::level::validate,
        "shanghai" => shanghai::level::validate,
        _ => return None,
    })
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let levels = root.join("levels");
    println!("cargo::rerun-if-changed=levels");
    println!("cargo::rerun-if-changed=src/games");
    let mut files = Vec::new();
    collect_ron_files(&levels, &mut files);
    files.sort();
    let mut errors = Vec::new();
    let mut table = String::from(
        "/// Every level file, as (path under levels/, text).\npub static EMBEDDED: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        println!("cargo::rerun-if-changed={}", file.display());
        let rel = file.strip_prefix(&levels).expect("under levels/").to_string_lossy().replace('\\', "/");
        let shown = format!("levels/{rel}");
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                errors.push(format!("{shown}: cannot read: {e}"));
                continue;
            }
        };
        let (game, name) = rel.split_once('/').unwrap_or(("", rel.as_str()));
        match validator(game) {
            None => errors.push(format!(
                "{shown}: level files go in levels/<game>/ (calculation, labyrinth, nazo, puyo, shanghai)"
            )),
            Some(validate) => {
                if let Err((line, col, msg)) = validate(name, &text) {
                    errors.push(format!("{shown}:{line}:{col}: {msg}"));
                }
            }
        }
        writeln!(table, "    ({rel:?}, include_str!({:?})),", file.display().to_string()).expect("write to String");
    }
    table.push_str("];\n");
    if !errors.is_empty() {
        for e in &errors {
            println!("cargo::error={e}");
        }
        std::process::exit(1);
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded_levels.rs");
    std::fs::write(out, table).expect("write embedded_levels.rs");
}

fn collect_ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_ron_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
}
