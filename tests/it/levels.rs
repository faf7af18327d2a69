//! Every bundled level file, mutated: the build-time validator (`build.rs` runs each game's
//! `level::validate`) and the loader a user's own file goes through never panic, a rejection
//! names a line of the file, and the two agree on what they accept, so a file that passes the
//! build also loads, and a user's file that loads would also pass the build. KMahjongg
//! `.layout` files and Shanghai instance files (`generate --out`), read only at run time, are
//! mutated the same way.

use asobi::games::labyrinth::level::Params;
use asobi::games::puyo::ai::labeling::CompileOptions;
use asobi::games::puyo::ai::template::compile_text;
use asobi::games::shanghai::catalog::load;
use asobi::games::shanghai::generator::{DealSource, deal};
use asobi::games::shanghai::io::instances::{Instance, InstanceFile};
use asobi::games::shanghai::io::kmahjongg;
use asobi::games::shanghai::layout::Layout;
use asobi::games::shanghai::level::{LayoutFile, WeightsFile};
use asobi::games::shanghai::rules::Kind;
use asobi::games::{labyrinth, nazo, puyo, shanghai};
use asobi::levels::{EMBEDDED, parse_ron};
use proptest::prelude::*;

/// Values that break ranges and sizes where a number stood.
const EXTREMES: &[&str] =
    &["0", "-1", "1", "3", "13", "144", "255", "256", "65536", "4294967296", "1e308", "NaN", "-0.5"];

/// One edit of `text`: a number replaced by an extreme, a line dropped or doubled, a
/// character replaced, or the text cut short. `at` picks the place, `pick` the value.
fn mutate(text: &str, edit: u8, at: usize, pick: usize) -> String {
    if text.is_empty() {
        return String::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let line = at % lines.len().max(1);
    match edit % 5 {
        0 => {
            let numbers: Vec<(usize, usize)> = number_spans(text);
            let Some(&(start, end)) = numbers.get(at % numbers.len().max(1)) else { return text.to_string() };
            format!("{}{}{}", &text[..start], EXTREMES[pick % EXTREMES.len()], &text[end..])
        }
        1 => lines.iter().enumerate().filter(|&(i, _)| i != line).map(|(_, l)| *l).collect::<Vec<_>>().join("\n"),
        2 => {
            let mut doubled = lines.clone();
            doubled.insert(line, lines[line]);
            doubled.join("\n")
        }
        3 => {
            let mut chars: Vec<char> = text.chars().collect();
            let i = at % chars.len();
            chars[i] = ['(', ')', '[', ']', ',', ':', '"', '.', '-', 'x', '1', ' ', '\n', 'é'][pick % 14];
            chars.into_iter().collect()
        }
        _ => text.chars().take(at % text.chars().count()).collect(),
    }
}

/// Byte spans of the unsigned integers and decimals in `text`.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// Whether `line` (1-based) lies in `text`, or just after its last line (the end of the file).
fn names_a_line(line: usize, text: &str) -> bool {
    (1..=text.lines().count() + 1).contains(&line)
}

/// The build's verdict on `text` as the file `levels/<path>`.
fn validate(path: &str, text: &str) -> Result<(), (usize, usize, String)> {
    let (game, name) = path.split_once('/').expect("level files lie in a game's folder");
    match game {
        "labyrinth" => labyrinth::level::validate(name, text),
        "nazo" => nazo::level::validate(name, text),
        "puyo" => puyo::level::validate(name, text),
        "shanghai" => shanghai::level::validate(name, text),
        _ => panic!("no validator for {path}"),
    }
}

/// Whether the run-time loader of a user's file of this kind accepts `text`.
fn loads(path: &str, text: &str) -> bool {
    match path.split('/').take(2).collect::<Vec<_>>()[..] {
        ["labyrinth", _] => parse_ron::<Params>(path, text).is_ok(),
        ["nazo", _] => nazo::sets::from_ron(path, text).is_ok(),
        ["puyo", _] => compile_text(path, text, &CompileOptions::default()).is_ok(),
        ["shanghai", "weights"] => parse_ron::<WeightsFile>(path, text).is_ok(),
        ["shanghai", "layouts"] => parse_ron::<LayoutFile>(path, text).is_ok_and(|f| Layout::from_file(&f).is_ok()),
        _ => panic!("no loader for {path}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(asobi::lab::proptest_cases(512)))]

    #[test]
    fn mutated_level_files_are_rejected_with_a_line_or_load_as_they_validate(
        file in 0..EMBEDDED.len(), edit in any::<u8>(), at in any::<usize>(), pick in any::<usize>()
    ) {
        let (path, original) = EMBEDDED[file];
        let text = mutate(original, edit, at, pick);
        let verdict = validate(path, &text);
        if let Err((line, _, message)) = &verdict {
            prop_assert!(names_a_line(*line, &text), "{path}: line {line} of {}", text.lines().count());
            prop_assert!(!message.is_empty());
        }
        let loaded = loads(path, &text);
        prop_assert!(!loaded || verdict.is_ok(), "{path} loads but fails the build: {verdict:?}");
        prop_assert!(loaded || verdict.is_err(), "{path} passes the build but does not load");
    }

    #[test]
    fn mutated_kmahjongg_layouts_are_rejected_with_a_line_or_read(
        name in prop::sample::select(vec!["turtle", "mini_turtle", "fortress72"]), edit in any::<u8>(), at in any::<usize>(), pick in any::<usize>()
    ) {
        let text = mutate(&kmahjongg::write(&load(name).unwrap()), edit, at, pick);
        if let Err(e) = kmahjongg::read("t.layout", &text) {
            prop_assert!(names_a_line(e.line, &text), "{e}");
        }
    }

    #[test]
    fn mutated_instance_files_are_rejected_naming_the_file_or_fit_their_layout(
        edit in any::<u8>(), at in any::<usize>(), pick in any::<usize>()
    ) {
        let original = two_instances("mini_turtle");
        let text = mutate(&original.to_text(), edit, at, pick);
        match InstanceFile::parse("i.ron", &text) {
            Ok((layout, file)) => {
                for instance in &file.instances {
                    prop_assert_eq!(instance.kinds.len(), layout.len());
                    prop_assert_eq!(kind_counts(&instance.kinds), kind_counts(&original.instances[0].kinds));
                }
            }
            Err(e) => prop_assert!(e.to_string().starts_with("i.ron"), "{e}"),
        }
    }
}

#[test]
fn every_bundled_level_validates_and_loads() {
    for (path, text) in EMBEDDED {
        assert_eq!(validate(path, text), Ok(()), "{path}");
        assert!(loads(path, text), "{path}");
    }
}

/// An instance file of two generator deals on a bundled layout, as `generate --out` writes it.
fn two_instances(name: &str) -> InstanceFile {
    let layout = load(name).unwrap();
    let instances = (0..2)
        .map(|index| Instance {
            index,
            kinds: deal(&layout, DealSource::Generator, 1, index).unwrap(),
            weak_rate: 0.25,
            strong_rate: 0.75,
        })
        .collect();
    InstanceFile { layout: layout.to_file(""), instances }
}

/// How many tiles each kind of a deal has, in increasing order.
fn kind_counts(kinds: &[Kind]) -> Vec<usize> {
    let mut counts = vec![0; kinds.iter().map(|&k| k as usize + 1).max().unwrap_or(0)];
    kinds.iter().for_each(|&k| counts[k as usize] += 1);
    counts.sort_unstable();
    counts
}
