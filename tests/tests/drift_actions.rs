//! Surface drift through tagged unions, as a downstream crate sees it: versions of a
//! `#[derive(Tool)]` action tool, each differing from the first in one way, and versions of a
//! hand-written tool whose input is a schemars tagged enum (the `oneOf` schemars and rmcp
//! publish), each served by a real `Server`, fetched with `Surface::fetch` and diffed. A
//! change inside an action is classed as it would be outside one, and its place names the
//! action.

// The versions' fields are published, never read.
#![allow(dead_code)]

use mcp_test::surface::{Class, Drift, Surface, Variant, diff};
use mcp_test::{CallToolResult, Context, Server, Tool, ToolError};
use schemars::JsonSchema;
use serde_json::Value;
use std::marker::PhantomData;

// ---------------------------------------------------------------------------------------------
// A derived action tool, `ledger`, in versions.

/// The first version every other one is diffed against.
mod v1 {
    use mcp_test::{Context, Tool};

    /// Keeps the books.
    #[derive(Tool)]
    #[tool(name = "ledger")]
    pub enum Ledger {
        /// Posts an entry.
        Post {
            /// Cents.
            #[tool(maximum = 1000)]
            amount: u64,
            /// A note.
            memo: Option<String>,
        },
        /// Voids an entry.
        Void { id: String },
    }

    impl Ledger {
        async fn run(self, _ctx: &Context) -> String {
            String::new()
        }
    }
}

/// Declares a version of `ledger` as module `$name` with the actions given.
macro_rules! ledger {
    ($name:ident { $($actions:tt)* }) => {
        mod $name {
            use mcp_test::{Context, Tool};

            /// Keeps the books.
            #[derive(Tool)]
            #[tool(name = "ledger")]
            pub enum Ledger { $($actions)* }

            impl Ledger {
                async fn run(self, _ctx: &Context) -> String {
                    String::new()
                }
            }
        }
    };
}

ledger!(reworded {
    /// Posts an entry.
    Post {
        /// Cents.
        #[tool(maximum = 1000)]
        amount: u64,
        /// A note for the books.
        memo: Option<String>,
    },
    /// Voids an entry.
    Void { id: String },
});

ledger!(new_optional {
    /// Posts an entry.
    Post {
        /// Cents.
        #[tool(maximum = 1000)]
        amount: u64,
        /// A note.
        memo: Option<String>,
        /// Where it was posted from.
        origin: Option<String>,
    },
    /// Voids an entry.
    Void { id: String },
});

ledger!(new_required {
    /// Posts an entry.
    Post {
        /// Cents.
        #[tool(maximum = 1000)]
        amount: u64,
        /// A note.
        memo: Option<String>,
        /// The currency.
        currency: String,
    },
    /// Voids an entry.
    Void { id: String },
});

ledger!(tightened {
    /// Posts an entry.
    Post {
        /// Cents.
        #[tool(maximum = 500)]
        amount: u64,
        /// A note.
        memo: Option<String>,
    },
    /// Voids an entry.
    Void { id: String },
});

ledger!(void_removed {
    /// Posts an entry.
    Post {
        /// Cents.
        #[tool(maximum = 1000)]
        amount: u64,
        /// A note.
        memo: Option<String>,
    },
});

ledger!(refund_added {
    /// Posts an entry.
    Post {
        /// Cents.
        #[tool(maximum = 1000)]
        amount: u64,
        /// A note.
        memo: Option<String>,
    },
    /// Voids an entry.
    Void { id: String },
    /// Refunds an entry.
    Refund { id: String },
});

async fn surface_of<T: Tool>() -> Surface {
    let server = Server::builder("books", "1.0.0")
        .tool::<T>()
        .build()
        .expect("the tool registers");
    Surface::fetch(&server).await.expect("the surface is read")
}

/// The changes of `drift` other than cosmetic ones, as (class, variants, pointer).
fn observable(drift: &Drift) -> Vec<(Class, Vec<Variant>, String)> {
    drift
        .changes
        .iter()
        .filter(|c| c.class != Class::Cosmetic)
        .map(|c| {
            (
                c.class,
                c.location.variants.clone(),
                c.location.pointer.clone(),
            )
        })
        .collect()
}

fn action(name: &str) -> Vec<Variant> {
    vec![Variant::new("action", name)]
}

const POST_DATA: &str = "/inputSchema/allOf/0/then/properties/data/properties";

#[tokio::test]
async fn a_reworded_description_inside_an_action_is_cosmetic() {
    let drift = diff(
        &surface_of::<v1::Ledger>().await,
        &surface_of::<reworded::Ledger>().await,
    );
    assert_eq!(drift.worst(), Some(Class::Cosmetic), "{}", drift.to_text());
    let change = &drift.changes[0];
    assert_eq!(drift.changes.len(), 1, "{}", drift.to_text());
    assert_eq!(change.location.variants, action("post"));
    assert_eq!(
        change.location.pointer,
        format!("{POST_DATA}/memo/description")
    );
    assert!(
        drift
            .to_text()
            .contains("tool \"ledger\" action=post /inputSchema/allOf/0/then"),
        "{}",
        drift.to_text()
    );
}

#[tokio::test]
async fn a_new_optional_field_in_an_action_is_additive() {
    let drift = diff(
        &surface_of::<v1::Ledger>().await,
        &surface_of::<new_optional::Ledger>().await,
    );
    assert_eq!(
        observable(&drift),
        [(
            Class::Additive,
            action("post"),
            format!("{POST_DATA}/origin")
        )],
        "{}",
        drift.to_text()
    );
}

#[tokio::test]
async fn a_new_required_field_in_an_action_is_breaking() {
    let drift = diff(
        &surface_of::<v1::Ledger>().await,
        &surface_of::<new_required::Ledger>().await,
    );
    assert_eq!(
        observable(&drift),
        [(
            Class::Breaking,
            action("post"),
            format!("{POST_DATA}/currency")
        )],
        "{}",
        drift.to_text()
    );
}

#[tokio::test]
async fn a_tightened_bound_in_an_action_is_breaking_and_loosened_additive() {
    let (old, new) = (
        surface_of::<v1::Ledger>().await,
        surface_of::<tightened::Ledger>().await,
    );
    let place = format!("{POST_DATA}/amount/maximum");
    let drift = diff(&old, &new);
    assert_eq!(
        observable(&drift),
        [(Class::Breaking, action("post"), place.clone())],
        "{}",
        drift.to_text()
    );
    assert_eq!(
        observable(&diff(&new, &old)),
        [(Class::Additive, action("post"), place)]
    );
}

#[tokio::test]
async fn an_action_removed_is_breaking_and_one_added_additive() {
    let old = surface_of::<v1::Ledger>().await;
    let fewer = surface_of::<void_removed::Ledger>().await;
    let drift = diff(&old, &fewer);
    assert_eq!(
        observable(&drift),
        [(
            Class::Breaking,
            action("void"),
            "/inputSchema/allOf/1".to_owned()
        )],
        "{}",
        drift.to_text()
    );
    let more = surface_of::<refund_added::Ledger>().await;
    let drift = diff(&old, &more);
    assert_eq!(
        observable(&drift),
        [(
            Class::Additive,
            action("refund"),
            "/inputSchema/allOf/2".to_owned()
        )],
        "{}",
        drift.to_text()
    );
}

// ---------------------------------------------------------------------------------------------
// A hand-written tool whose input schema is what schemars derives for a tagged enum.

/// A tool `ops` whose input schema is schemars' for `T`, published as it is (`$ref`s and
/// `$defs` kept) with the root's `type: object` that MCP asks for.
struct Ops<T>(PhantomData<fn() -> T>);

impl<T: JsonSchema + 'static> Tool for Ops<T> {
    const NAME: &'static str = "ops";

    fn input_schema() -> Value {
        let mut schema = serde_json::to_value(schemars::schema_for!(T)).expect("a schema");
        schema["type"] = "object".into();
        // schemars titles the root by the Rust type's name, which each version renames.
        schema.as_object_mut().expect("an object").remove("title");
        schema
    }

    fn parse(_arguments: Value) -> Result<Self, ToolError> {
        Ok(Ops(PhantomData))
    }

    async fn call(self, _ctx: &Context) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text("done"))
    }
}

/// Versions of an internally tagged enum (`#[serde(tag = "op")]`) and of a struct holding an
/// adjacently tagged one (`#[serde(tag = "kind", content = "data")]`).
mod schemars_enums {
    use schemars::JsonSchema;

    macro_rules! versions {
        ($($name:ident { $($variants:tt)* })*) => {$(
                    #[derive(JsonSchema)]
            #[serde(tag = "op", rename_all = "snake_case")]
            pub enum $name { $($variants)* }
        )*};
    }

    versions! {
        First {
            /// Moves money.
            Transfer {
                /// Cents.
                #[schemars(range(max = 5000))]
                cents: u64,
                account: Account,
            },
            /// Closes the account.
            Close,
        }
        Reworded {
            /// Moves money.
            Transfer {
                /// In cents.
                #[schemars(range(max = 5000))]
                cents: u64,
                account: Account,
            },
            /// Closes the account.
            Close,
        }
        NewOptional {
            /// Moves money.
            Transfer {
                /// Cents.
                #[schemars(range(max = 5000))]
                cents: u64,
                account: Account,
                note: Option<String>,
            },
            /// Closes the account.
            Close,
        }
        NewRequired {
            /// Moves money.
            Transfer {
                /// Cents.
                #[schemars(range(max = 5000))]
                cents: u64,
                account: Account,
                note: String,
            },
            /// Closes the account.
            Close,
        }
        Tightened {
            /// Moves money.
            Transfer {
                /// Cents.
                #[schemars(range(max = 100))]
                cents: u64,
                account: Account,
            },
            /// Closes the account.
            Close,
        }
        CloseRemoved {
            /// Moves money.
            Transfer {
                /// Cents.
                #[schemars(range(max = 5000))]
                cents: u64,
                account: Account,
            },
        }
        RefundAdded {
            /// Moves money.
            Transfer {
                /// Cents.
                #[schemars(range(max = 5000))]
                cents: u64,
                account: Account,
            },
            /// Closes the account.
            Close,
            /// Refunds a transfer.
            Refund { id: String },
        }
    }

    /// An account, behind a `$ref`.
    #[derive(JsonSchema)]
    pub struct Account {
        #[schemars(length(max = 34))]
        pub iban: String,
    }

    #[derive(JsonSchema)]
    pub struct Pay {
        pub payment: Payment,
    }

    #[derive(JsonSchema)]
    #[serde(tag = "kind", content = "data")]
    pub enum Payment {
        Card {
            #[schemars(length(max = 19))]
            digits: String,
        },
        Cash,
    }

    #[derive(JsonSchema)]
    pub struct PayNext {
        pub payment: PaymentNext,
    }

    #[derive(JsonSchema)]
    #[serde(tag = "kind", content = "data")]
    pub enum PaymentNext {
        Card {
            #[schemars(length(max = 16))]
            digits: String,
        },
        Cash,
    }
}

/// The diff from `Old` to `New`, both served as `ops`.
async fn ops_drift<Old: JsonSchema + 'static, New: JsonSchema + 'static>() -> Drift {
    diff(
        &surface_of::<Ops<Old>>().await,
        &surface_of::<Ops<New>>().await,
    )
}

/// The pointer of the `transfer` variant's properties: the first alternative of the `oneOf`.
const TRANSFER: &str = "/inputSchema/oneOf/0/properties";

fn op(name: &str) -> Vec<Variant> {
    vec![Variant::new("op", name)]
}

#[tokio::test]
async fn each_change_to_an_internally_tagged_enum_is_classed_in_its_variant() {
    use schemars_enums::*;
    let drift = ops_drift::<First, Reworded>().await;
    assert_eq!(drift.worst(), Some(Class::Cosmetic), "{}", drift.to_text());
    assert_eq!(drift.changes.len(), 1, "{}", drift.to_text());
    assert_eq!(drift.changes[0].location.variants, op("transfer"));
    assert_eq!(
        drift.changes[0].location.pointer,
        format!("{TRANSFER}/cents/description")
    );

    let cases = [
        (
            ops_drift::<First, NewOptional>().await,
            Class::Additive,
            op("transfer"),
            format!("{TRANSFER}/note"),
        ),
        (
            ops_drift::<First, NewRequired>().await,
            Class::Breaking,
            op("transfer"),
            format!("{TRANSFER}/note"),
        ),
        (
            ops_drift::<First, Tightened>().await,
            Class::Breaking,
            op("transfer"),
            format!("{TRANSFER}/cents/maximum"),
        ),
        (
            ops_drift::<Tightened, First>().await,
            Class::Additive,
            op("transfer"),
            format!("{TRANSFER}/cents/maximum"),
        ),
        (
            ops_drift::<First, CloseRemoved>().await,
            Class::Breaking,
            op("close"),
            "/inputSchema/oneOf/1".to_owned(),
        ),
        (
            ops_drift::<First, RefundAdded>().await,
            Class::Additive,
            op("refund"),
            "/inputSchema/oneOf/2".to_owned(),
        ),
    ];
    for (drift, class, variants, pointer) in cases {
        assert_eq!(
            observable(&drift),
            [(class, variants, pointer)],
            "{}",
            drift.to_text()
        );
    }
}

#[tokio::test]
async fn a_change_behind_a_ref_inside_a_variant_names_the_variant() {
    use schemars_enums::*;
    // The account's `iban` is in `$defs`, reached from inside `transfer`.
    #[derive(JsonSchema)]
    #[serde(tag = "op", rename_all = "snake_case")]
    enum Wider {
        /// Moves money.
        Transfer {
            /// Cents.
            #[schemars(range(max = 5000))]
            cents: u64,
            account: WiderAccount,
        },
        /// Closes the account.
        Close,
    }
    #[derive(JsonSchema)]
    struct WiderAccount {
        #[schemars(length(max = 40))]
        iban: String,
    }
    let drift = ops_drift::<First, Wider>().await;
    let additive: Vec<_> = drift.of(Class::Additive).collect();
    assert_eq!(additive.len(), 1, "{}", drift.to_text());
    assert_eq!(additive[0].location.variants, op("transfer"));
    assert!(
        additive[0].location.pointer.ends_with("/iban/maxLength"),
        "{}",
        drift.to_text()
    );
    assert_eq!(drift.worst(), Some(Class::Additive), "{}", drift.to_text());
}

#[tokio::test]
async fn an_adjacently_tagged_enum_in_a_property_names_its_variant() {
    use schemars_enums::*;
    let drift = ops_drift::<Pay, PayNext>().await;
    let breaking: Vec<_> = drift.of(Class::Breaking).collect();
    assert_eq!(breaking.len(), 1, "{}", drift.to_text());
    assert_eq!(
        breaking[0].location.variants,
        [Variant::new("kind", "Card")]
    );
    assert!(
        breaking[0]
            .location
            .pointer
            .ends_with("/data/properties/digits/maxLength"),
        "{}",
        drift.to_text()
    );
}
