//! Files of generated instances (`generate --out FILE`, read back by `eval --instance FILE`):
//! RON holding the layout and, per instance, its deal and the two measured solve rates.

use serde::{Deserialize, Serialize};

use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::level::LayoutFile;
use crate::games::shanghai::rules::{Kind, kind_sizes};

/// One instance: the kind at each position, and how the weak and strong players did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    /// The generator deal's index under the run's seed.
    pub index: u64,
    /// The kind at each position.
    pub kinds: Vec<Kind>,
    /// The weak player's solve rate.
    pub weak_rate: f64,
    /// The strong player's solve rate.
    pub strong_rate: f64,
}

/// What `generate --out` writes: the layout and its instances.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceFile {
    /// The layout, so the file plays anywhere.
    pub layout: LayoutFile,
    /// The instances.
    pub instances: Vec<Instance>,
}

impl InstanceFile {
    /// The file as RON text.
    pub fn to_text(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default().compact_arrays(true))
            .expect("instances serialize")
    }

    /// Parses and checks a file: the layout is valid and every deal has the layout's size
    /// and kind counts. A bad deal's error names the line of its `index` field.
    pub fn parse(file: &str, text: &str) -> anyhow::Result<(Layout, InstanceFile)> {
        let parsed: InstanceFile = crate::levels::parse_ron(file, text)?;
        let layout = Layout::from_file(&parsed.layout).map_err(|m| anyhow::anyhow!("{file}: layout: {m}"))?;
        let mut expected = kind_sizes(layout.len());
        expected.sort_unstable();
        for inst in &parsed.instances {
            // Looked up only for an error: a scan of the text per instance would make a long
            // file's check quadratic.
            let at = || match line_of_index(text, inst.index) {
                Some(line) => format!("{file}:{line}: instance {}", inst.index),
                None => format!("{file}: instance {}", inst.index),
            };
            let mut counts = vec![0u8; expected.len()];
            for &k in &inst.kinds {
                anyhow::ensure!((k as usize) < counts.len(), "{}: kind {k} out of range", at());
                counts[k as usize] += 1;
            }
            counts.sort_unstable();
            anyhow::ensure!(
                inst.kinds.len() == layout.len() && counts == expected,
                "{}: its kinds do not fit the layout ({} positions)",
                at(),
                layout.len()
            );
        }
        Ok((layout, parsed))
    }
}

/// The 1-based line of the first `index: N` field with this value, however the file is laid
/// out (a longer key ending in "index" does not count); `None` when no field reads so (the
/// error then names the instance alone).
fn line_of_index(text: &str, index: u64) -> Option<usize> {
    let key_starts_at = |at: usize| !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
    text.match_indices("index:").filter(|&(at, _)| key_starts_at(at)).find_map(|(at, key)| {
        let rest = text[at + key.len()..].trim_start();
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        (rest[..digits].parse() == Ok(index)).then(|| text[..at].matches('\n').count() + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::line_of_index;

    #[test]
    fn the_line_of_an_index_skips_longer_keys_and_other_values() {
        let text = "(\n  weak_index: 7,\n  index: 17,\n  index:7, kinds: [],\n)";
        assert_eq!(line_of_index(text, 7), Some(4));
        assert_eq!(line_of_index(text, 17), Some(3));
        assert_eq!(line_of_index(text, 1), None);
    }
}
