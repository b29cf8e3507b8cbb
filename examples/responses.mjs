// A flow through the official OpenAI client: flowsvc's /api/v1/responses speaks OpenAI's Responses API, the model
// being the flow's id. The client reads OPENAI_BASE_URL (flowsvc's /api/v1) and OPENAI_API_KEY (a flowsvc key).
//   OPENAI_BASE_URL=http://127.0.0.1:7860/api/v1 OPENAI_API_KEY=sk-... node examples/responses.mjs <flow id> [input]
import OpenAI from 'openai';

const [flow, input = 'Hello'] = process.argv.slice(2);
if (!flow) {
  console.error('usage: node examples/responses.mjs <flow id> [input]');
  process.exit(2);
}
// flowsvc takes its key in the x-api-key header, as Langflow does (the Authorization header it does not read).
const client = new OpenAI({ defaultHeaders: { 'x-api-key': process.env.OPENAI_API_KEY } });
const response = await client.responses.create({ model: flow, input });
console.log(response.output_text);
// The same, streamed: the text arrives as the model writes it.
const stream = await client.responses.create({ model: flow, input, stream: true });
for await (const event of stream) if (event.type === 'response.output_text.delta') process.stdout.write(event.delta);
process.stdout.write('\n');
