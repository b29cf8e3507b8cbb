// Module resolution hooks (node:module register): report each resolved URL that contains one of the patterns.
let port;
let patterns = [];

export function initialize(data) {
  port = data.port;
  patterns = data.patterns;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (patterns.some((pattern) => result.url.includes(pattern))) port.postMessage(result.url);
  return result;
}
