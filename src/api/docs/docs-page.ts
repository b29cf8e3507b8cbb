/** The HTML of /docs: Swagger UI over our own /openapi.json, like FastAPI's get_swagger_ui_html. */

export interface DocsPageOptions {
  title: string;
  openapiUrl: string;
  /** Where the Swagger UI files are served, without a trailing slash. */
  assetsUrl: string;
  /** Appended to asset URLs so browsers fetch new files after an upgrade. */
  assetsVersion: string;
}

export function docsPage(options: DocsPageOptions): string {
  const asset = (name: string) => `${options.assetsUrl}/${name}?v=${encodeURIComponent(options.assetsVersion)}`;
  // JSON.stringify gives a valid JS string literal; escaping '<' keeps a value from closing the script element.
  const config = JSON.stringify({
    url: options.openapiUrl,
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
  }).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} - Swagger UI</title>
<link rel="stylesheet" type="text/css" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}" charset="utf-8"></script>
<script>
window.ui = SwaggerUIBundle(Object.assign(${config}, {
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
}));
</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
