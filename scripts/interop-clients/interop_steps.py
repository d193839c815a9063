"""The interop steps every Python SDK client runs against the conformance fixture, whatever the
SDK's major version: the session API (list_tools, call_tool, read_resource, get_prompt) is the
same in mcp 1.x and 2.x. The callers make the client and check the handshake."""


def check(label, step, condition, detail):
    if not condition:
        raise SystemExit(f"{label}: {step} failed: {detail!r}")
    print(f"  ok  {step}")


def answer_content(requested_schema):
    """The fixture's multi-round tool asks for a name, then a color."""
    props = (requested_schema or {}).get("properties", {})
    return {"name": "Ada"} if "name" in props else {"color": "blue"}


async def run_steps(client, label):
    tools = await client.list_tools()
    names = [t.name for t in tools.tools]
    check(label, "list tools", "test_simple_text" in names, names)

    result = await client.call_tool("test_simple_text", {})
    text = result.content[0].text
    check(label, "call a tool", text == "This is a simple text response for testing.", text)

    result = await client.call_tool("test_input_required_result_multi_round", {})
    text = result.content[0].text
    check(label, "finish a multi-round elicitation tool", text == "Completed both rounds: name = Ada, color = blue", text)

    resource = await client.read_resource("test://static-text")
    text = resource.contents[0].text
    check(label, "read a resource", text == "This is the content of the static text resource.", text)

    prompt = await client.get_prompt("test_prompt_with_arguments", {"arg1": "hello", "arg2": "world"})
    text = prompt.messages[0].content.text
    check(label, "get a prompt", text == "Prompt with arguments: arg1='hello', arg2='world'", text)
