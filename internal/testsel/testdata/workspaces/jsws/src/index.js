export * from './math.js';
export { formatSum } from './format.js';
