//! The layouts a command can name: bundled ones (`levels/shanghai/layouts/*.ron`) by name,
//! or a file (`.layout` from KMahjongg, `.ron` in asobi's format) by path; and the weight
//! presets tuned for them (`levels/shanghai/weights/<layout>.ron`).

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, bail};

use super::io::kmahjongg;
use super::layout::Layout;
use super::level::{LayoutFile, Weights, WeightsFile};
use crate::levels::{embedded_in, parse_ron, read_user_file};

/// The bundled layout files, sorted by name.
pub fn bundled() -> Vec<LayoutFile> {
    let mut files: Vec<LayoutFile> = embedded_in("shanghai")
        .filter(|(name, _)| name.starts_with("layouts/"))
        .map(|(name, text)| parse_ron(name, text).expect("bundled layouts are validated at build time"))
        .collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

/// A bundled layout by name, or a layout file by path. A name that is no file may also be
/// spelt with hyphens or capitals (`mini-turtle`), as the other commands' names are.
pub fn load(name_or_file: &str) -> anyhow::Result<Arc<Layout>> {
    let path = Path::new(name_or_file);
    let named = |f: &LayoutFile| f.name == name_or_file || (!path.exists() && f.name == loose_name(name_or_file));
    if let Some(file) = bundled().into_iter().find(named) {
        return Ok(Arc::new(Layout::from_file(&file).map_err(anyhow::Error::msg)?));
    }
    if !path.exists() {
        let names: Vec<String> = bundled().into_iter().map(|f| f.name).collect();
        bail!("unknown layout '{name_or_file}': not a file and not one of {}", names.join(", "));
    }
    let text = read_user_file(path)?;
    if name_or_file.ends_with(".ron") {
        let file: LayoutFile = parse_ron(name_or_file, &text)?;
        return Layout::from_file(&file).map(Arc::new).map_err(|m| anyhow::anyhow!("{name_or_file}: {m}"));
    }
    let read = kmahjongg::read(name_or_file, &text)?;
    read.warnings.iter().for_each(|w| eprintln!("warning: {w}"));
    Ok(Arc::new(read.layout))
}

/// A layout name as the bundled files spell it: lower case, `_` between words.
fn loose_name(name: &str) -> String {
    name.to_lowercase().replace('-', "_")
}

/// The tuned weights of a layout, or the defaults when it has no preset.
pub fn weights_for(layout: &str) -> Weights {
    embedded_in("shanghai")
        .filter(|(name, _)| name.starts_with("weights/"))
        .filter_map(|(name, text)| parse_ron::<WeightsFile>(name, text).ok())
        .find(|w| w.layout == layout)
        .map_or_else(Weights::default, |w| w.weights)
}

/// Reads a weight preset file written by `tune`.
pub fn read_weights(path: &Path) -> anyhow::Result<Weights> {
    let shown = path.display().to_string();
    let text = read_user_file(path)?;
    let file: WeightsFile = parse_ron(&shown, &text).with_context(|| format!("{shown} is not a weight preset"))?;
    Ok(file.weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundled_name_may_be_spelt_with_hyphens_or_capitals() {
        for spelling in ["mini_turtle", "mini-turtle", "Mini-Turtle"] {
            let layout = load(spelling).unwrap_or_else(|e| panic!("{spelling}: {e}"));
            assert_eq!(layout.name, "mini_turtle", "{spelling}");
        }
        let err = load("mini-turtles").unwrap_err().to_string();
        assert!(err.starts_with("unknown layout 'mini-turtles'"), "{err}");
    }
}
