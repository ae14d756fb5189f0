//! Turns the one table of reasons (`python/diplo/data/reasons.json`, which the Python package
//! reads for the names and the sentences) into the engine's constants: the refusal reason codes
//! (`engine::legality::reason`, `NAMES`) and the why codes of retreat and adjustment results
//! (`engine::phases::explain`, `EXPLAIN_NAMES`). A code is its row's index; the table is
//! append-only (rollout datasets store the codes; `tests/test_reason_table.py` checks).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const TABLE: &str = "python/diplo/data/reasons.json";

fn main() {
    println!("cargo:rerun-if-changed={TABLE}");
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
}
