/**
 * ajv with its formats, for payload-check.ts: one module it requires on the
 * first check, so the build can give the hook these two packages as one
 * bundle of their own (scripts/build.mjs: ajv-formats adds keywords whose
 * generated code must come from the same ajv).
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

export { Ajv, addFormats };
