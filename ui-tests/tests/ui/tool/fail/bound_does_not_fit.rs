use mcp_test::Tool;

type Amount = u64;

#[derive(Tool)]
struct Transfer {
    // Past `i32`.
    #[tool(maximum = 5_000_000_000)]
    cents: i32,
    // A fraction on an integer.
    #[tool(minimum = 0.5)]
    count: Option<u16>,
    // The suffix of another type.
    #[tool(maximum = 5_000_000_000i64)]
    total: u64,
    // An exponent makes a float literal, which takes no integer suffix.
    #[tool(exclusive_maximum = 3e9u64)]
    limit: u64,
    // Past `f32`.
    #[tool(minimum = -1e39)]
    rate: f32,
    // Past 64 bits, where no JSON number holds it exactly.
    #[tool(maximum = 100_000_000_000_000_000_000)]
    huge: i128,
    // A type the macro cannot see into: the suffix must hold the value.
    #[tool(maximum = 300u8)]
    amount: Amount,
    // Bounds that leave no value.
    #[tool(exclusive_minimum = 4, exclusive_maximum = 5)]
    slot: i32,
    #[tool(exclusive_maximum = 0)]
    none: u32,
    // A count is unsigned.
    #[tool(max_length = 10i32)]
    memo: String,
}

fn main() {}
