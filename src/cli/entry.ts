// The CLI's entry for the bundle (scripts/bundle.mjs): one file for the lint path, so a single-file
// lint does not pay for resolving and loading dozens of modules.
export { main } from './main.js';
export { processIO } from '../io.js';
