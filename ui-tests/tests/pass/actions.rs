//! An action tool whose handler returns structured output.
use mcp_test::{Context, Json, Tool};

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Filter {
    name_prefix: Option<String>,
    #[serde(default)]
    include_archived: bool,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Page {
    ids: Vec<u64>,
}

/// Items.
#[derive(Tool)]
#[tool(name = "items.v2")]
enum Items {
    /// Lists items.
    List {
        filter: Option<Filter>,
        #[tool(minimum = 1, default = 20)]
        limit: u32,
    },
    /// Gets one.
    #[tool(rename = "fetch", description = "Fetches one item")]
    Get {
        id: u64,
    },
    Clear {},
}

impl Items {
    async fn run(self, _ctx: &Context) -> Json<Page> {
        match self {
            Items::List { limit, .. } => Json(Page {
                ids: (0..limit as u64).collect(),
            }),
            Items::Get { id } => Json(Page { ids: vec![id] }),
            Items::Clear {} => Json(Page { ids: vec![] }),
        }
    }
}

pub fn main() {
    let schema = Items::input_schema();
    mcp_test::schema::check_published(&schema).unwrap();
    assert_eq!(
        schema["properties"]["action"]["enum"],
        serde_json::json!(["list", "fetch", "clear"])
    );
    assert!(Items::output_schema().is_some());
    match Items::parse(
        serde_json::json!({"action": "list", "data": {"filter": {"namePrefix": "a"}}}),
    ) {
        Ok(Items::List {
            filter: Some(f),
            limit: 20,
        }) => assert_eq!(f.name_prefix.as_deref(), Some("a")),
        _ => panic!("list did not parse"),
    }
    assert!(matches!(
        Items::parse(serde_json::json!({"action": "clear"})),
        Ok(Items::Clear {})
    ));
    assert!(matches!(
        Items::parse(serde_json::json!({"action": "fetch", "data": {"id": 3}})),
        Ok(Items::Get { id: 3 })
    ));
}
