//! Paired comparison of two runs of one experiment (`asobi compare`). Game i of a seed meets
//! the same deal, pairs or instance whatever the parameters, so a variant measured on the
//! baseline's seed differs from it game by game: the per-game differences of a record field
//! show a change with far less noise than the two rates side by side, and the sign test over
//! the games the two runs score differently says whether it is more than chance.

use std::collections::BTreeMap;

use anyhow::{Context, bail, ensure};
use serde_json::{Map, Value, json};

use super::stats::{mean, mean_ci95};

/// What to compare in each game's record.
#[derive(Clone, Debug)]
pub struct Field {
    /// A record field, a dotted path for nested ones (`lock_risk.0`).
    pub path: String,
    /// What of the field counts.
    pub test: Test,
}

/// How a record's field becomes the number compared.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// Its value: a number, or a boolean as 0 / 1.
    Value,
    /// 1 where it equals this value, else 0 (outcomes, nulls).
    Equals(Value),
    /// 1 where it is a number above this one, else 0 (a share over a threshold, such as
    /// Puyo's moves over 30).
    Over(f64),
}

impl Field {
    /// The field's number in one record, by the field's test.
    fn value(&self, record: &Value) -> Result<f64, String> {
        let found = self.path.split('.').try_fold(record, |v, key| match v {
            Value::Object(map) => map.get(key),
            Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        });
        let found = found.ok_or_else(|| format!("no field '{}'", self.path))?;
        let flag = |yes: bool| f64::from(u8::from(yes));
        match (&self.test, found) {
            (Test::Equals(wanted), v) => Ok(flag(v == wanted)),
            (Test::Value, Value::Bool(b)) => Ok(flag(*b)),
            (Test::Value | Test::Over(_), Value::Number(n)) => {
                let x = n.as_f64().ok_or_else(|| format!("'{}' is not a finite number", self.path))?;
                Ok(if let Test::Over(limit) = self.test { flag(x > limit) } else { x })
            }
            (_, other) => Err(format!(
                "'{}' is {}, not a number or boolean (compare it with --equals VALUE)",
                self.path,
                shortened(&other.to_string())
            )),
        }
    }
}

/// A JSON value cut for an error line.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{} ...", &text[..cut]),
        None => text.to_string(),
    }
}

/// The `--equals` argument as JSON (`true`, `3`, `{"Win":0}`), or else as a plain string.
pub fn parse_equals(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

/// Compares `field` over the games two result files of one experiment both hold. `files`
/// are (path, JSON object) as [`super::runner::read_result_files`] returns them: the baseline
/// first, then the variant.
pub fn compare(files: &[(String, Map<String, Value>)], experiment: &str, field: &Field) -> anyhow::Result<Value> {
    let [(base_path, base), (variant_path, variant)] = files else { bail!("compare takes two result files") };
    let seed = |path: &str, file: &Map<String, Value>| {
        file.get("seed").and_then(Value::as_u64).with_context(|| format!("{path}: no \"seed\""))
    };
    let (base_seed, variant_seed) = (seed(base_path, base)?, seed(variant_path, variant)?);
    ensure!(
        base_seed == variant_seed,
        "{variant_path}: seed {variant_seed} differs from {base_path}'s {base_seed}: only runs of one seed play the same games"
    );
    let base_records = records(base_path, base)?;
    let variant_records = records(variant_path, variant)?;
    let mut diffs = Vec::new();
    let (mut base_values, mut variant_values) = (Vec::new(), Vec::new());
    for (index, base_record) in &base_records {
        let Some(variant_record) = variant_records.get(index) else { continue };
        let value = |path: &str, record| field.value(record).map_err(|e| anyhow::anyhow!("{path}: game {index}: {e}"));
        let b = value(base_path, base_record)?;
        let v = value(variant_path, variant_record)?;
        base_values.push(b);
        variant_values.push(v);
        diffs.push(v - b);
    }
    ensure!(!diffs.is_empty(), "{base_path} and {variant_path} share no game index");
    let higher = diffs.iter().filter(|&&d| d > 0.0).count() as u64;
    let lower = diffs.iter().filter(|&&d| d < 0.0).count() as u64;
    let unpaired = base_records.len() + variant_records.len() - 2 * diffs.len();
    let mut result = json!({
        "experiment": experiment,
        "base": base_path,
        "variant": variant_path,
        "seed": base_seed,
        "field": field.path,
        "pairs": diffs.len(),
        "unpaired": unpaired,
        "base_mean": mean(&base_values),
        "variant_mean": mean(&variant_values),
        "difference": mean(&diffs),
        "ci95": mean_ci95(&diffs),
        "variant_higher": higher,
        "base_higher": lower,
        "equal": diffs.len() as u64 - higher - lower,
        "sign_test_p": sign_test_p(higher, lower),
    });
    match &field.test {
        Test::Value => {}
        Test::Equals(wanted) => result["equals"] = wanted.clone(),
        Test::Over(limit) => result["over"] = json!(limit),
    }
    Ok(result)
}

/// The `[index, record]` pairs of a result file written with `--records`, by index.
fn records(path: &str, file: &Map<String, Value>) -> anyhow::Result<BTreeMap<u64, Value>> {
    let records = file.get("records").and_then(Value::as_array).with_context(|| {
        format!("{path}: no \"records\": rerun it with --json --records (merge shards with --records)")
    })?;
    records
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([Value::Number(i), record]) if i.as_u64().is_some() => {
                Ok((i.as_u64().unwrap_or_default(), record.clone()))
            }
            _ => bail!("{path}: a record is not an [index, record] pair: {pair}"),
        })
        .collect()
}

/// Two-sided exact sign test: the chance of a split at least as uneven as `a` against `b`
/// when either side is as likely to be higher in each game (McNemar's exact test when the
/// field is 0 / 1). Games scored equal carry no information and are left out.
pub fn sign_test_p(a: u64, b: u64) -> f64 {
    let n = a + b;
    let k = a.min(b);
    // P(X <= k) for X ~ Binomial(n, 1/2), term by term in logs so that large n do not overflow.
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    let mut tail = 0.0;
    for i in 0..=k {
        tail += log_term.exp();
        log_term += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_test_matches_the_binomial_tails() {
        // 1 against 9: 2 (1 + 10) / 1024.
        assert!((sign_test_p(1, 9) - 22.0 / 1024.0).abs() < 1e-12);
        assert!((sign_test_p(9, 1) - 22.0 / 1024.0).abs() < 1e-12);
        assert_eq!(sign_test_p(5, 5), 1.0);
        assert_eq!(sign_test_p(0, 0), 1.0);
        // 20 against 40: 2 Σ_{i <= 20} C(60, i) / 2^60.
        assert!((sign_test_p(20, 40) - 0.013_489_293_731).abs() < 1e-10, "{}", sign_test_p(20, 40));
        assert!(sign_test_p(4_000, 6_000) < 1e-80);
    }

    #[test]
    fn a_field_reads_numbers_booleans_nested_values_and_equality() {
        let record = json!({"solved": true, "moves": 23, "lock_risk": [4, 7], "outcome": {"Win": 0}, "blunder": null});
        let field = |path: &str, test: Test| Field { path: path.into(), test };
        let equals = |text: &str| Test::Equals(parse_equals(text));
        assert_eq!(field("solved", Test::Value).value(&record), Ok(1.0));
        assert_eq!(field("moves", Test::Value).value(&record), Ok(23.0));
        assert_eq!(field("moves", Test::Over(22.0)).value(&record), Ok(1.0));
        assert_eq!(field("moves", Test::Over(23.0)).value(&record), Ok(0.0));
        assert_eq!(field("lock_risk.1", Test::Value).value(&record), Ok(7.0));
        assert_eq!(field("outcome", equals(r#"{"Win":0}"#)).value(&record), Ok(1.0));
        assert_eq!(field("outcome", equals("Draw")).value(&record), Ok(0.0));
        assert_eq!(field("blunder", equals("null")).value(&record), Ok(1.0));
        assert!(field("blunder", Test::Value).value(&record).unwrap_err().contains("--equals"));
        assert!(field("solved", Test::Over(0.0)).value(&record).is_err(), "a boolean is not over a number");
        assert!(field("nope", Test::Value).value(&record).unwrap_err().contains("no field 'nope'"));
    }

    fn file(seed: u64, records: Value) -> (String, Map<String, Value>) {
        let Value::Object(map) = json!({"experiment": "x", "seed": seed, "records": records}) else { unreachable!() };
        (format!("seed{seed}.json"), map)
    }

    #[test]
    fn games_pair_by_index_and_seeds_must_agree() {
        let field = Field { path: "won".into(), test: Test::Value };
        let base = file(1, json!([[0, {"won": false}], [1, {"won": true}], [2, {"won": false}], [5, {"won": true}]]));
        let variant = file(1, json!([[0, {"won": true}], [1, {"won": true}], [2, {"won": true}], [3, {"won": true}]]));
        let result = compare(&[base.clone(), variant], "x", &field).unwrap();
        assert_eq!(result["pairs"], 3);
        assert_eq!(result["unpaired"], 2);
        assert_eq!((result["variant_higher"].as_u64(), result["base_higher"].as_u64()), (Some(2), Some(0)));
        assert!((result["difference"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(result["sign_test_p"], 0.5);
        let other_seed = file(2, json!([[0, {"won": true}]]));
        assert!(compare(&[base.clone(), other_seed], "x", &field).unwrap_err().to_string().contains("seed 2"));
        let (path, mut no_records) = file(1, json!([]));
        no_records.remove("records");
        let err = compare(&[base, (path, no_records)], "x", &field).unwrap_err().to_string();
        assert!(err.contains("--records"), "{err}");
    }
}
