export * from './app.error.js';
export * from './validation.error.js';
export * from './flow-invalid.error.js';
export * from './model-not-configured.error.js';
export * from './flow-unsupported.error.js';
