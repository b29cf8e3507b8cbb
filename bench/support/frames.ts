/** Frames of a streamed reply: SSE and Langflow's run stream both end each frame with a blank line. */
export async function* framesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    let cut = buffered.indexOf('\n\n');
    while (cut !== -1) {
      yield buffered.slice(0, cut);
      buffered = buffered.slice(cut + 2);
      cut = buffered.indexOf('\n\n');
    }
  }
}
