//! Bounded type parameters, serde attributes without deriving Deserialize, flatten, opting out of
//! unknown-argument rejection, and handlers returning other result types.
use mcp_test::{CallToolResult, Content, Context, Tool};

trait Describe {
    fn describe(&self) -> String;
}

impl Describe for String {
    fn describe(&self) -> String {
        format!("string {self}")
    }
}

#[derive(Tool)]
struct Show<T: Describe> {
    value: T,
}

impl<T: Describe> Show<T> {
    async fn run(self, _ctx: &Context) -> String {
        self.value.describe()
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Paging {
    page: u32,
}

#[derive(Tool)]
#[serde(rename_all = "camelCase")]
#[tool(allow_unknown_fields)]
struct Query {
    search_text: String,
    #[serde(flatten)]
    paging: Paging,
    #[serde(skip)]
    cache: Vec<u8>,
}

impl Query {
    async fn run(self, _ctx: &Context) -> Vec<Content> {
        let _ = (self.paging.page, self.cache);
        vec![Content::text(self.search_text)]
    }
}

#[derive(Tool)]
struct Raw {}

impl Raw {
    async fn run(self, _ctx: &Context) -> CallToolResult {
        CallToolResult::text("raw")
    }
}

#[derive(Tool)]
#[tool(name = "nothing")]
struct Nothing {}

impl Nothing {
    async fn run(self, _ctx: &Context) {}
}

pub fn main() {
    let schema = <Show<String>>::input_schema();
    assert_eq!(schema["properties"]["value"]["type"], "string");
    let query = Query::input_schema();
    mcp_test::schema::check_published(&query).unwrap();
    assert!(query["properties"].get("searchText").is_some());
    assert!(query["properties"].get("page").is_some());
    assert!(query.get("additionalProperties").is_none());
    assert!(Query::parse(serde_json::json!({"searchText": "a", "page": 1, "extra": true})).is_ok());
    assert_eq!(Raw::NAME, "raw");
    assert_eq!(Nothing::NAME, "nothing");
}
