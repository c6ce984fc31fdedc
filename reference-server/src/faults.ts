/** The fault registry, at the path its importers have always used: see faults/registry.ts. */
export * from './faults/registry.js';
