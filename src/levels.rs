//! Level files: the ones under `levels/` embedded at build time (validated by `build.rs`),
//! and a user's own files loaded at run time with the same clear errors.

use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;

include!(concat!(env!("OUT_DIR"), "/embedded_levels.rs"));

/// An error in a level file, pointing at the place (line 0: the whole file, e.g. unreadable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelError {
    /// The file as the user named it (or `levels/...` for an embedded one).
    pub file: String,
    /// 1-based; 0 when the error is about the whole file.
    pub line: usize,
    /// 1-based, on `line`.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
        }
    }
}

impl std::error::Error for LevelError {}

/// The embedded text of `levels/<path>`, e.g. `embedded("puyo/stairs8.ron")`.
pub fn embedded(path: &str) -> Option<&'static str> {
    EMBEDDED.iter().find(|(p, _)| *p == path).map(|(_, text)| *text)
}

/// The embedded files in `levels/<folder>/`, as (name within the folder, text).
pub fn embedded_in(folder: &str) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    EMBEDDED.iter().filter_map(move |(p, text)| {
        p.strip_prefix(folder).and_then(|rest| rest.strip_prefix('/')).map(|name| (name, *text))
    })
}

/// Parses RON text as `T`, naming `file` and the line and column of a syntax or type error.
pub fn parse_ron<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, LevelError> {
    ron::from_str(text).map_err(|e| LevelError {
        file: file.to_string(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    })
}

/// Reads a user's level file; I/O errors are reported at line 0.
pub fn read_user_file(path: &Path) -> Result<String, LevelError> {
    std::fs::read_to_string(path).map_err(|e| LevelError {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_name_line_and_column() {
        let err = parse_ron::<Vec<u32>>("x.ron", "[1,\n 2,\n oops]").unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("x.ron", 3));
        assert!(err.to_string().starts_with("x.ron:3:"), "{err}");
    }

    #[test]
    fn an_unreadable_file_is_named_without_a_place() {
        let err = read_user_file(Path::new("/no/such/level.ron")).unwrap_err();
        assert!(err.to_string().starts_with("/no/such/level.ron: cannot read: "), "{err}");
    }
}
