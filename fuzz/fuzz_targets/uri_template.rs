//! URI template parsing, matching and expansion never panic, and whatever a template matches,
//! expanding the extracted variables and matching again extracts the same variables.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_test::uri_template::UriTemplate;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (template, uri) = text.split_once('\n').unwrap_or((&text, ""));
    let Ok(template) = UriTemplate::parse(template) else {
        return;
    };
    let Some(vars) = template.match_uri(uri) else {
        return;
    };
    let pairs: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
    let expanded = template.expand(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let again = template.match_uri(&expanded);
    assert!(again.is_some(), "{template} matched {uri:?} but not its own expansion {expanded:?}");
});
