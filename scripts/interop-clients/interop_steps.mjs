// The interop steps every TypeScript SDK client runs against the conformance fixture, whatever
// the SDK's major version: the client API (listTools, callTool, readResource, getPrompt) is the
// same in @modelcontextprotocol/sdk 1.x and @modelcontextprotocol/client 2.x. The callers make
// the client and check the handshake.

export function check(label, step, condition, detail) {
  if (!condition) {
    console.error(`${label}: ${step} failed: ${JSON.stringify(detail)}`);
    process.exit(1);
  }
  console.log(`  ok  ${step}`);
}

// The fixture's multi-round tool asks for a name, then a color.
export function answerElicitation(request) {
  const properties = request.params.requestedSchema?.properties ?? {};
  return { action: 'accept', content: 'name' in properties ? { name: 'Ada' } : { color: 'blue' } };
}

export async function runSteps(client, label) {
  const tools = await client.listTools();
  const names = tools.tools.map((t) => t.name);
  check(label, 'list tools', names.includes('test_simple_text'), names);

  let result = await client.callTool({ name: 'test_simple_text', arguments: {} });
  check(label, 'call a tool', result.content[0].text === 'This is a simple text response for testing.', result);

  result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
  check(label, 'finish a multi-round elicitation tool',
    result.content[0].text === 'Completed both rounds: name = Ada, color = blue', result);

  const resource = await client.readResource({ uri: 'test://static-text' });
  check(label, 'read a resource',
    resource.contents[0].text === 'This is the content of the static text resource.', resource);

  const prompt = await client.getPrompt({
    name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' },
  });
  check(label, 'get a prompt',
    prompt.messages[0].content.text === "Prompt with arguments: arg1='hello', arg2='world'", prompt);
}
