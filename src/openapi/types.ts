/** The parts of an OpenAPI 3.1 document that the generator writes (a subset of the specification's objects). */

/** A JSON Schema (2020-12 dialect, which OpenAPI 3.1 uses as is). */
export type SchemaObject = { [keyword: string]: unknown };

export interface MediaType {
  schema: SchemaObject;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: SchemaObject;
  description?: string;
}

export interface RequestBody {
  required: boolean;
  content: Record<string, MediaType>;
}

export interface Response {
  description: string;
  content?: Record<string, MediaType>;
}

/** Alternatives: any one requirement object satisfies the operation; `{}` means "no credentials needed". */
export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  tags: string[];
  summary: string;
  description?: string;
  operationId: string;
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Response>;
  security?: SecurityRequirement[];
}

export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch' | 'head', Operation>>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes: Record<string, SchemaObject>;
  };
  tags: { name: string }[];
}
