export * from './app.error.js';
export * from './validation.error.js';
