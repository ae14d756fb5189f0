//! Turns the one table of reasons (`python/diplo/data/reasons.json`, which the Python package
//! reads for the names and the sentences) into the engine's constants: the refusal reason codes
//! (`engine::legality::reason`, `NAMES`) and the why codes of retreat and adjustment results
//! (`engine::phases::explain`, `EXPLAIN_NAMES`). A code is its row's index; the table is
//! append-only (rollout datasets store the codes; `tests/test_reason_table.py` checks).
//!
//! Also turns the one table of the rulebook editions (`python/diplo/data/editions.json`, which
//! `diplo.model.rules` reads for `EDITIONS`) into `engine::rules::Edition` and the choices
//! [`Rules::set_edition`] applies.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const TABLE: &str = "python/diplo/data/reasons.json";
const EDITIONS: &str = "python/diplo/data/editions.json";

fn main() {
    println!("cargo:rerun-if-changed={TABLE}");
    println!("cargo:rerun-if-changed={EDITIONS}");
    println!("cargo:rerun-if-changed=rust/build.rs");
    let root = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let text = fs::read_to_string(Path::new(&root).join(TABLE))
        .unwrap_or_else(|e| panic!("cannot read {TABLE}: {e}"));
    let doc: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{TABLE} is not JSON: {e}"));
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let sections = [
        ("refusals", "refusal", "NAMES", "the refusal reasons"),
        ("rulings", "ruling", "EXPLAIN_NAMES", "the why codes"),
    ];
    for (section, stem, table, what) in sections {
        let rows = doc[section]
            .as_array()
            .unwrap_or_else(|| panic!("{TABLE}: {section} must be a list"));
        let (mut codes, mut names) = (String::new(), String::new());
        writeln!(
            names,
            "/// The names of {what}, indexed by code (`{TABLE}`, `{section}`)."
        )
        .unwrap();
        writeln!(names, "pub const {table}: [&str; {}] = [", rows.len()).unwrap();
        for (index, row) in rows.iter().enumerate() {
            let code = row["code"].as_u64();
            assert_eq!(
                code,
                Some(index as u64),
                "{TABLE}: {section}[{index}]'s code is not its index"
            );
            assert!(
                index < 255,
                "{TABLE}: {section} has more rows than a u8 numbers"
            );
            let name = row["name"]
                .as_str()
                .unwrap_or_else(|| panic!("{TABLE}: {section}[{index}] has no name"));
            assert!(
                !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{TABLE}: {section}[{index}]'s name {name:?} is not snake_case"
            );
            let about = row["doc"].as_str().unwrap_or("");
            writeln!(codes, "/// `{name}`: {about}").unwrap();
            writeln!(
                codes,
                "pub const {}: u8 = {index};",
                name.to_ascii_uppercase()
            )
            .unwrap();
            writeln!(names, "    {name:?},").unwrap();
        }
        writeln!(names, "];").unwrap();
        fs::write(Path::new(&out).join(format!("{stem}_codes.rs")), codes).unwrap();
        fs::write(Path::new(&out).join(format!("{stem}_names.rs")), names).unwrap();
    }
    editions(&root, &out);
}

/// `Edition`, its names and each edition's choices (its own, else the default edition's), as
/// `RuleValue`s that `Rules::set` reads, and the names each option takes.
fn editions(root: &str, out: &str) {
    let text = fs::read_to_string(Path::new(root).join(EDITIONS))
        .unwrap_or_else(|e| panic!("cannot read {EDITIONS}: {e}"));
    let doc: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{EDITIONS} is not JSON: {e}"));
    let rows = doc["editions"]
        .as_array()
        .unwrap_or_else(|| panic!("{EDITIONS}: editions must be a list"));
    let default = doc["default"]
        .as_str()
        .expect("editions.json: default names an edition");
    fn name_of(row: &serde_json::Value) -> &str {
        row["name"].as_str().expect("an edition has a name")
    }
    let today = rows
        .iter()
        .find(|row| name_of(row) == default)
        .unwrap_or_else(|| panic!("{EDITIONS}: no row for the default edition {default}"))
        ["choices"]
        .as_object()
        .expect("an edition's choices are an object");
    let values = doc["values"]
        .as_object()
        .expect("editions.json: values is an object");
    let variant = |name: &str| {
        let mut v = String::new();
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            v.push('E');
        }
        let mut up = true;
        for c in name.chars() {
            if c == '_' {
                up = true;
            } else if up {
                v.push(c.to_ascii_uppercase());
                up = false;
            } else {
                v.push(c);
            }
        }
        v
    };
    let mut code = String::new();
    writeln!(code, "/// A rulebook edition (DATC v3.0 chapter 4): a name for the choices [`Rules::set_edition`] makes.").unwrap();
    writeln!(
        code,
        "/// Made by `rust/build.rs` from `{EDITIONS}`, the one table of them."
    )
    .unwrap();
    writeln!(
        code,
        "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]"
    )
    .unwrap();
    writeln!(code, "pub enum Edition {{").unwrap();
    let mut choices = String::new();
    for row in rows {
        let name = name_of(row);
        let notes = row["notes"].as_str().unwrap_or("");
        writeln!(code, "    #[doc = {notes:?}]").unwrap();
        if name == default {
            writeln!(code, "    #[default]").unwrap();
        }
        writeln!(code, "    {},", variant(name)).unwrap();
        let own = row["choices"]
            .as_object()
            .unwrap_or_else(|| panic!("{EDITIONS}: {name}'s choices are not an object"));
        writeln!(choices, "    &[").unwrap();
        for (option, today_value) in today {
            let value = own.get(option).unwrap_or(today_value);
            let rule_value = match value {
                serde_json::Value::Bool(b) => format!("RuleValue::Flag({b})"),
                serde_json::Value::String(v) => {
                    let allowed = values[option.as_str()]
                        .as_array()
                        .unwrap_or_else(|| panic!("{EDITIONS}: no values listed for {option}"));
                    assert!(
                        allowed.iter().any(|a| a == value),
                        "{EDITIONS}: {name} gives {option} the value {v:?}, not one it takes"
                    );
                    format!("RuleValue::Name({v:?})")
                }
                serde_json::Value::Null => "RuleValue::Count(None)".to_owned(),
                serde_json::Value::Number(n) => format!("RuleValue::Count(Some({n}))"),
                other => panic!("{EDITIONS}: {name}: {option} = {other} is no option value"),
            };
            assert!(
                option != "edition",
                "{EDITIONS}: an edition cannot set the edition"
            );
            writeln!(choices, "        ({option:?}, {rule_value}),").unwrap();
        }
        for option in own.keys() {
            assert!(
                today.contains_key(option),
                "{EDITIONS}: {name} sets {option}, which the default edition does not name"
            );
        }
        writeln!(choices, "    ],").unwrap();
    }
    writeln!(code, "}}\n").unwrap();
    let n = rows.len();
    let variants: Vec<String> = rows
        .iter()
        .map(|r| format!("Edition::{}", variant(name_of(r))))
        .collect();
    let names: Vec<&str> = rows.iter().map(name_of).collect();
    writeln!(code, "impl Edition {{").unwrap();
    writeln!(code, "    /// Every edition, in the table's order.").unwrap();
    writeln!(
        code,
        "    pub const ALL: [Edition; {n}] = [{}];",
        variants.join(", ")
    )
    .unwrap();
    writeln!(
        code,
        "    /// The editions' names, as `diplo.model.rules.Rules` spells them."
    )
    .unwrap();
    writeln!(
        code,
        "    pub const NAMES: [&'static str; {n}] = {names:?};"
    )
    .unwrap();
    writeln!(code, "    /// Every choice the edition makes (its own, else the default edition's), by option name.").unwrap();
    writeln!(
        code,
        "    pub fn choices(self) -> &'static [(&'static str, RuleValue<'static>)] {{"
    )
    .unwrap();
    writeln!(code, "        EDITION_CHOICES[self as usize]").unwrap();
    writeln!(code, "    }}").unwrap();
    writeln!(code, "}}\n").unwrap();
    writeln!(
        code,
        "static EDITION_CHOICES: [&[(&str, RuleValue<'static>)]; {n}] = ["
    )
    .unwrap();
    code.push_str(&choices);
    writeln!(code, "];\n").unwrap();
    writeln!(
        code,
        "/// Every option that takes a name, with the names it takes (today's first)."
    )
    .unwrap();
    writeln!(code, "pub const OPTION_VALUES: &[(&str, &[&str])] = &[").unwrap();
    for (option, names) in values {
        let names: Vec<&str> = names
            .as_array()
            .unwrap_or_else(|| panic!("{EDITIONS}: the values of {option} are not a list"))
            .iter()
            .map(|v| v.as_str().expect("an option's values are names"))
            .collect();
        writeln!(code, "    ({option:?}, &{names:?}),").unwrap();
    }
    writeln!(code, "];").unwrap();
    fs::write(Path::new(out).join("editions.rs"), code).unwrap();
}
